#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# e2e: alone (its verdicts say two runs are within noise: a second script's load is noise)
# iops compare on real runs: a result against itself (0.0%, within noise, --fail-on passes); the
# same rate-limited job twice (IOPS and bandwidth within noise; --fail-on on them passes); the
# same job with --rate_iops halved (IOPS and bandwidth worse, --fail-on=10% exits 1 and names
# them) and doubled (better); repeated runs in one input (their mean, judged by the repeats);
# the real fio's JSON against iops'; sweeps (matched by step, samples as repeats), quick runs
# (matched by step) and merged client_stats (per server and All clients); workloads that
# differ (rw, bs, iodepth, numjobs, size, ioengine, direct, group_reporting) refused, naming
# what differs; bad inputs: one line on stderr, exit 1, nothing on stdout. --plot: the page of
# three inputs, well-formed, rendered by headless Chromium without a console message, every
# verdict's value, baseline, change and threshold read back from its bar's <title> equal to
# the JSON report's (plot_check.py compare), the inputs' curves overlaid; written under
# --fail-on's exit 1 too; a file that is not an iops page is not overwritten.
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || missing_prereq "jq is required"
errors=()
add_err() { errors+=("$*"); }
D=$T/vol
mkdir -p "$D"

fio_json() {	# fio_json OUT ARGS...: an iops fio run's json+ into OUT
	local out=$1
	shift
	(cd "$D" && "$IOPS" fio "$@" --output-format=json+) >"$out" 2>"$out.err" || add_err "fio $*: exit $?: $(head -c 300 "$out.err")"
}
# cmp_run NAME ARGS...: iops compare ARGS into $T/NAME.{out,err,rc}
cmp_run() {
	local name=$1
	shift
	"$IOPS" compare "$@" >"$T/$name.out" 2>"$T/$name.err"
	echo $? >"$T/$name.rc"
}
rc_of() { cat "$T/$1.rc"; }
# verdict NAME JOB DIR FIG [K]: the verdict of a figure against the K-th other input (0) in NAME's JSON
verdict() { jq -r --arg j "$2" --arg d "$3" --arg f "$4" --argjson k "${5:-0}" \
	'.rows[] | select((.job // .step) == $j and .direction == $d) | .figures[$f].against[$k].verdict' "$T/$1.out"; }

RATE="--name=j --ioengine=null --size=100g --bs=4k --rw=randread --time_based --runtime=2"
# shellcheck disable=SC2086 # words
{
	fio_json "$T/a1.json" $RATE --rate_iops=1000
	fio_json "$T/a2.json" $RATE --rate_iops=1000
	fio_json "$T/half.json" $RATE --rate_iops=500
	fio_json "$T/double.json" $RATE --rate_iops=2000
}

# --- 1. a result against itself ---
cmp_run self --fail-on=1% --output-format=json "$T/a1.json" "$T/a1.json"
[ "$(rc_of self)" = 0 ] || add_err "self: exit $(rc_of self): $(cat "$T/self.err")"
[ "$(jq '[.rows[].figures[].against[] | select(.verdict != "within noise" or .change_pct != 0)] | length' "$T/self.out")" = 0 ] ||
	add_err "self: not every figure 0.0% within noise"
[ "$(jq '.rows | length' "$T/self.out")" = 1 ] || add_err "self: $(jq '.rows | length' "$T/self.out") rows"
case_ran

# --- 2. the same job twice ---
cmp_run twice --fail-on=iops:10%,bw:10% "$T/a1.json" "$T/a2.json"
[ "$(rc_of twice)" = 0 ] || add_err "twice: exit $(rc_of twice): $(cat "$T/twice.err")"
for f in iops bw; do
	grep -qE "^  $f +[0-9.]+( [KMG]?i?B/s)? +[0-9.]+( [KMG]?i?B/s)? +[-+][0-9.]+% +[0-9.]+% [a-z]+ +within noise$" "$T/twice.out" ||
		add_err "twice: $f is not within noise: $(grep "^  $f " "$T/twice.out")"
done
for f in mean 'p50 \(clat\)' 'p99 \(clat\)' 'p99\.9 \(clat\)'; do	# judged, whatever this machine's load made of them
	grep -qE "^  $f +[0-9.]+ [mun]?s +[0-9.]+ [mun]?s +[-+][0-9.]+% +[0-9.]+% (repeats|windows|little|iid|order|band|floor) +(within noise|better|worse)$" \
		"$T/twice.out" || add_err "twice: no verdict line for $f: $(grep "^  ${f%% *}" "$T/twice.out")"
done
grep -q "^iops compare: $T/a1.json (baseline, fio, 1 run) vs $T/a2.json (fio, 1 run)$" "$T/twice.out" ||
	add_err "twice: header $(head -1 "$T/twice.out")"
grep -q "^job 'j', read: rw=randread bs=4k iodepth=1 numjobs=1 size=100g ioengine=null direct=0$" "$T/twice.out" ||
	add_err "twice: job line $(grep "^job" "$T/twice.out")"
case_ran

# --- 3. --rate_iops halved: worse, and --fail-on exits 1; doubled: better ---
cmp_run half --fail-on=10% "$T/a1.json" "$T/half.json"
[ "$(rc_of half)" = 1 ] || add_err "half: exit $(rc_of half)"
grep -qE "^  iops +[0-9.]+ +[0-9.]+ +-(49|50)\.[0-9]% .* worse$" "$T/half.out" || add_err "half: iops $(grep '^  iops' "$T/half.out")"
grep -qE "^  bw .* -(49|50)\.[0-9]% .* worse$" "$T/half.out" || add_err "half: bw $(grep '^  bw' "$T/half.out")"
grep -qE "^  'j' read iops: $T/half.json is (49|50)\.[0-9]% worse than $T/a1.json \(limit 10%, noise [0-9.]+%\)$" "$T/half.out" ||
	add_err "half: no fail-on line for iops"
grep -qE '^iops compare: [0-9]+ figures? worse beyond noise by more than --fail-on.s limit$' "$T/half.err" ||
	add_err "half: stderr $(cat "$T/half.err")"
cmp_run halfjson --fail-on=iops:10% --output-format=json "$T/a1.json" "$T/half.json"
[ "$(rc_of halfjson)" = 1 ] && [ "$(verdict halfjson j read iops)" = worse ] &&
	[ "$(jq '.rows[0].figures.iops.against[0].fails' "$T/halfjson.out")" = 1 ] &&
	[ "$(jq '.failures >= 1 and .fail_on_pct.iops == 10 and (.fail_on_pct | has("bw") | not)' "$T/halfjson.out")" = true ] ||
	add_err "half json: exit $(rc_of halfjson), $(jq -c '.rows[0].figures.iops' "$T/halfjson.out")"
cmp_run double --fail-on=iops:10%,bw:10% --output-format=json "$T/a1.json" "$T/double.json"
[ "$(rc_of double)" = 0 ] && [ "$(verdict double j read iops)" = better ] && [ "$(verdict double j read bw)" = better ] ||
	add_err "double: exit $(rc_of double), iops $(verdict double j read iops)"
# three inputs: a column each
cmp_run three "$T/a1.json" "$T/half.json" "$T/double.json"
grep -qE "^  iops .* worse +[0-9.]+ +\+[0-9.]+% .* better$" "$T/three.out" || add_err "three: $(grep '^  iops' "$T/three.out")"
case_ran

# --- 4. repeats: documents one after the other, and standard input ---
# shellcheck disable=SC2086 # words
fio_json "$T/a3.json" $RATE --rate_iops=1000
cat "$T/a1.json" "$T/a2.json" "$T/a3.json" >"$T/rep.json"
cmp_run rep --output-format=json "$T/rep.json" - <"$T/half.json"
mean=$(jq -s '[.[].jobs[0].read.iops] | add / length' "$T/a1.json" "$T/a2.json" "$T/a3.json")
[ "$(rc_of rep)" = 0 ] && [ "$(jq '.inputs[0].runs' "$T/rep.out")" = 3 ] && [ "$(jq -r '.inputs[1].name' "$T/rep.out")" = stdin ] &&
	[[ "$(jq -r '.rows[0].figures.iops.against[0].noise' "$T/rep.out")" =~ ^(repeats|floor)$ ]] &&
	[[ "$(jq -r '.rows[0].figures.mean.against[0].noise' "$T/rep.out")" =~ ^(repeats|floor)$ ]] &&
	[ "$(jq -r '.rows[0].figures.mean.runs_baseline' "$T/rep.out")" = 3 ] &&
	[ "$(verdict rep j read iops)" = worse ] &&
	jq -e --argjson m "$mean" '(.rows[0].figures.iops.baseline - $m) | fabs < 0.000001' "$T/rep.out" >/dev/null ||
	add_err "repeats: exit $(rc_of rep), $(jq -c '.inputs, .rows[0].figures.iops' "$T/rep.out" 2>&1 | head -c 400)"
cmp_run rep2 --output-format=json "$T/rep.json" "$T/a1.json"
[ "$(verdict rep2 j read iops)" = "within noise" ] || add_err "repeats vs a run of them: iops $(verdict rep2 j read iops)"
case_ran

# --- 5. the real fio's JSON against iops' ---
if [ -x "${REF_FIO:-/usr/bin/fio}" ] && [ "$("${REF_FIO:-/usr/bin/fio}" --version)" = fio-3.33 ]; then
	# shellcheck disable=SC2086 # words
	(cd "$D" && "${REF_FIO:-/usr/bin/fio}" $RATE --rate_iops=1000 --output-format=json+) >"$T/fio.json" 2>"$T/fio.err"
	cmp_run real --output-format=json "$T/fio.json" "$T/a1.json"
	[ "$(rc_of real)" = 0 ] && [ "$(verdict real j read iops)" = "within noise" ] &&
		[ "$(jq -r '.rows[0].percentiles_of' "$T/real.out")" = clat ] ||
		add_err "real fio: exit $(rc_of real), $(cat "$T/real.err"), iops $(verdict real j read iops)"
	case_ran
else
	[ "${CI:-}" != true ] || fail "the real fio 3.33 is not installed: no comparison of its JSON (CI=true, where it is installed: a failure, not a skip)"
	case_skip "the real fio 3.33 is not installed: no comparison of its JSON"
fi

# --- 6. workloads that differ are refused, naming what differs ---
BASE="--name=w --ioengine=psync --filename=f --size=1m --bs=4k --rw=read"
# shellcheck disable=SC2086 # words
fio_json "$T/w.json" $BASE
while IFS='|' read -r extra want; do
	# shellcheck disable=SC2086 # words
	fio_json "$T/wv.json" $BASE $extra
	cmp_run wl "$T/w.json" "$T/wv.json"
	[ "$(rc_of wl)" = 1 ] && [ ! -s "$T/wl.out" ] && [ "$(wc -l <"$T/wl.err")" = 1 ] &&
		[ "$(cat "$T/wl.err")" = "iops compare: $T/w.json and $T/wv.json do not describe the same workload: job 'w': $want" ] ||
		add_err "workload $extra: exit $(rc_of wl), $(cat "$T/wl.err")"
	case_ran
done <<'EOF'
--rw=randread|rw read vs randread
--bs=8k|bs 4k vs 8k
--iodepth=4|iodepth 1 vs 4
--numjobs=2|numjobs 1 vs 2
--numjobs=2 --group_reporting|numjobs 1 vs 2, group_reporting (none) vs 1
--size=2m|size 1m vs 2m
--ioengine=sync|ioengine psync vs sync
--direct=1|direct 0 vs 1
--bs=16k --iodepth=2 --size=2m|bs 4k vs 16k, iodepth 1 vs 2, size 1m vs 2m
EOF
rm -f "$D/f"
# the same workload written otherwise is the same: 1024k for 1m, blocksize for bs
# shellcheck disable=SC2086 # words
fio_json "$T/wv.json" --name=w --ioengine=psync --filename=f --size=1024k --blocksize=4096 --rw=read
cmp_run wsame "$T/w.json" "$T/wv.json"
[ "$(rc_of wsame)" = 0 ] || add_err "same workload written otherwise: $(cat "$T/wsame.err")"
case_ran

# --- 7. sweeps: steps matched by rw and bs, samples as repeats; and their workload ---
SW="--rw=randread --bs=4k,8k --samples=2 --size=4m --ioengine=psync --directory=$D --output-format=json"
# shellcheck disable=SC2086 # words
{
	"$IOPS" sweep $SW >"$T/s1.json" 2>"$T/s1.err" || add_err "sweep 1: $(tail -2 "$T/s1.err")"
	"$IOPS" sweep $SW >"$T/s2.json" 2>"$T/s2.err" || add_err "sweep 2: $(tail -2 "$T/s2.err")"
	"$IOPS" sweep $SW --iodepth=2 >"$T/s3.json" 2>"$T/s3.err" || add_err "sweep 3: $(tail -2 "$T/s3.err")"
}
cmp_run sweep --output-format=json "$T/s1.json" "$T/s2.json"
[ "$(rc_of sweep)" = 0 ] && [ "$(jq -c '[.rows[] | .step + "/" + .direction]' "$T/sweep.out")" = '["randread 4k/all","randread 8k/all"]' ] &&
	[ "$(jq -r '.inputs[0].kind + " " + (.inputs[0].runs | tostring)' "$T/sweep.out")" = "sweep 2" ] &&
	[ "$(jq -r '.rows[0].figures.iops.against[0].noise' "$T/sweep.out")" = repeats ] ||
	add_err "sweeps: exit $(rc_of sweep), $(cat "$T/sweep.err") $(jq -c '.rows[0].figures.iops' "$T/sweep.out" 2>&1 | head -c 300)"
cmp_run sweepwl "$T/s1.json" "$T/s3.json"
[ "$(rc_of sweepwl)" = 1 ] && grep -q "do not describe the same workload: step 'randread 4k': iodepth 1 vs 2$" "$T/sweepwl.err" ||
	add_err "sweeps of another iodepth: exit $(rc_of sweepwl), $(cat "$T/sweepwl.err")"
cmp_run sweepfio "$T/s1.json" "$T/a1.json"
[ "$(rc_of sweepfio)" = 1 ] && grep -q "have no job or step in common" "$T/sweepfio.err" ||
	add_err "a sweep against a fio result: exit $(rc_of sweepfio), $(cat "$T/sweepfio.err")"
case_ran

# --- 8. quick runs: the six steps ---
for n in 1 2; do
	(cd "$D" && "$IOPS" quick . --runtime=1 --size=16m --output-format=json) >"$T/q$n.json" 2>"$T/q$n.err" ||
		add_err "quick $n: $(tail -2 "$T/q$n.err")"
done
cmp_run quick --output-format=json "$T/q1.json" "$T/q2.json"
[ "$(rc_of quick)" = 0 ] && [ "$(jq -r '[.rows[].job] | join(" ")' "$T/quick.out")" = \
	"seqread seqwrite randread-qd1 randwrite-qd1 randread-qd32 randwrite-qd32" ] &&
	[ "$(jq -r '.inputs[0].kind' "$T/quick.out")" = quick ] ||
	add_err "quick: exit $(rc_of quick), $(cat "$T/quick.err") $(jq -c '[.rows[].job]' "$T/quick.out" 2>&1)"
case_ran

# --- 9. merged client_stats: per server and All clients ---
for n in 1 2 3 4; do
	fio_json "$T/n$n.json" --name=m --ioengine=null --size=8m --rw=randread --numjobs=2 --group_reporting
done
(cd "$T" && "$IOPS" merge --output-format=json n1.json n2.json) >"$T/m1.json" 2>"$T/m1.err" || add_err "merge 1: $(cat "$T/m1.err")"
(cd "$T" && "$IOPS" merge --output-format=json n3.json n4.json) >"$T/m2.json" 2>"$T/m2.err" || add_err "merge 2: $(cat "$T/m2.err")"
cmp_run merged --output-format=json "$T/m1.json" "$T/m2.json"
[ "$(rc_of merged)" = 0 ] && [ "$(jq -r '[.rows[] | .job + "@" + (.host // "")] | join(" ")' "$T/merged.out")" = \
	"m@n1.json m #2@n2.json All clients@" ] && [ "$(jq -r '.inputs[0].kind' "$T/merged.out")" = client_stats ] ||
	add_err "merged: exit $(rc_of merged), $(cat "$T/merged.err") $(jq -c '[.rows[] | [.job, .host]]' "$T/merged.out" 2>&1)"
case_ran

# --- 10. bad inputs and options: one line, exit 1, nothing on stdout ---
printf '' >"$T/empty.json"
printf '{ nope\n' >"$T/garbage.json"
printf '{"a": 1}\n' >"$T/other.json"
head -c 300 "$T/a1.json" >"$T/cut.json"
printf '%s\n' 'just a line of text' >"$T/text.json"
sed 's/"jobname" : "j"/"jobname" : "k"/' "$T/a1.json" >"$T/k.json"
while IFS='|' read -r args want; do
	# shellcheck disable=SC2086 # words
	(cd "$T" && "$IOPS" compare $args) >"$T/bad.out" 2>"$T/bad.err"
	rc=$?
	[ "$rc" = 1 ] && [ ! -s "$T/bad.out" ] && [ "$(wc -l <"$T/bad.err")" = 1 ] && grep -q -- "^iops compare: $want" "$T/bad.err" ||
		add_err "bad '$args': exit $rc, stderr '$(cat "$T/bad.err")', stdout $(wc -c <"$T/bad.out") bytes"
	case_ran
done <<'EOF'
a1.json missing.json|missing.json: No such file or directory
a1.json empty.json|empty.json: no JSON document in it
a1.json text.json|text.json: no JSON document in it
a1.json garbage.json|garbage.json: not a JSON document (
a1.json cut.json|cut.json: not a JSON document (
a1.json other.json|other.json: not a result iops compare reads
a1.json|two inputs at least
|two inputs at least
a1.json k.json|a1.json and k.json have no job or step in common
a1.json a1.json --fail-on=lots|--fail-on: bad limit 'lots'
a1.json a1.json --fail-on=lat:5|--fail-on: unknown figure 'lat'
a1.json a1.json --band=iops:x|--band: bad limit 'iops:x'
a1.json a1.json --confidence=100|bad value '100' for --confidence
a1.json a1.json --floor=-1|bad value '-1' for --floor
a1.json a1.json --output-format=xml|bad value 'xml' for --output-format
a1.json a1.json --plot=x.txt|--plot: 'x.txt': the page's name must end in .html
a1.json a1.json --plot=none/x.html|--plot: 
a1.json /|/: Is a directory
EOF
"$IOPS" compare --help >"$T/help.out" 2>&1 && grep -q '^Usage: iops compare' "$T/help.out" || add_err "--help: $(head -2 "$T/help.out")"
# the options change the verdicts as they say: a wide band makes the halved IOPS noise
cmp_run band --output-format=json --band=iops:60 "$T/a1.json" "$T/half.json"
[ "$(verdict band j read iops)" = "within noise" ] && [ "$(jq -r '.rows[0].figures.iops.against[0].noise' "$T/band.out")" = band ] ||
	add_err "--band=iops:60: iops $(verdict band j read iops)"
case_ran

# --- --plot: the inputs side by side and the verdicts, read back in Chromium ---
HERE=$(cd "$(dirname "$0")" && pwd)
P=$T/plot
mkdir -p "$P"
cmp_run plotjson --output-format=json "$T/a1.json" "$T/half.json" "$T/double.json"
cmp_run plot --fail-on=10% --plot="$P/cmp.html" "$T/a1.json" "$T/half.json" "$T/double.json"
[ "$(rc_of plot)" = 1 ] && grep -q "worse beyond noise" "$T/plot.err" && [ -s "$P/cmp.html" ] ||
	add_err "--plot under --fail-on: exit $(rc_of plot), $(cat "$T/plot.err"), page $(ls -A "$P")"
cmp -s "$T/plot.out" <("$IOPS" compare --fail-on=10% "$T/a1.json" "$T/half.json" "$T/double.json" 2>/dev/null) ||
	add_err "--plot changed the report"
[ "$(ls -A "$P")" = cmp.html ] || add_err "--plot: left $(ls -A "$P")"
if command -v xmllint >/dev/null; then
	xmllint --noout "$P/cmp.html" 2>"$T/xml.err" || add_err "--plot: not well-formed: $(head -3 "$T/xml.err")"
fi
echo "<p>mine</p>" >"$P/mine.html"
cmp_run plotmine --plot="$P/mine.html" "$T/a1.json" "$T/half.json"
[ "$(rc_of plotmine)" = 1 ] && [ ! -s "$T/plotmine.out" ] && [ "$(cat "$P/mine.html")" = "<p>mine</p>" ] &&
	grep -q "is not a page iops plot wrote" "$T/plotmine.err" || add_err "--plot over a file of mine: exit $(rc_of plotmine), $(cat "$T/plotmine.err")"
rm -f "$P/mine.html"
case_ran
CHROMIUM=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
if [ -z "$CHROMIUM" ]; then
	[ "${CI:-}" != true ] || fail "chromium (Debian's chromium) is not installed: the --plot page is not rendered (CI=true, where it is installed: a failure, not a skip)"
	case_skip "chromium (Debian's chromium) is not installed: the --plot page is not rendered"
else
	python3 "$HERE/plot_browser.py" --chromium "$CHROMIUM" "$P/cmp.html" >"$T/report.json" 2>"$T/browser.err" ||
		add_err "chromium: $(cat "$T/browser.err")"
	python3 "$HERE/plot_check.py" "$T/report.json" "$P/cmp.html=compare:$T/plotjson.out" >"$T/check.out" 2>&1 ||
		add_err "--plot: values read back differ: $(head -5 "$T/check.out")"
	tail -1 "$T/check.out"
	python3 - "$T/report.json" "$P/cmp.html" <<'PY' || add_err "--plot: the page's shape"
import json, sys
r = json.load(open(sys.argv[1]))[sys.argv[2]]
ids = [c["id"] for c in r["charts"]]
assert ids[:6] == ["verdict-iops", "verdict-bw", "verdict-mean", "verdict-p50", "verdict-p99", "verdict-p99.9"], ids
assert "lat-clat" in ids and "fio-iops" in ids, ids
assert r["charts"] and all(c["width"] > 100 for c in r["charts"]), r["charts"]
curves = {s["series"].split(" ")[0] for s in r["series"] if s["chart"] == "lat-clat"}
assert len(curves) == 3, curves
v = [t for s in r["series"] if s["chart"] == "verdict-iops" for t in s["titles"]]
assert any(t.endswith(": worse") for t in v) and any(t.endswith(": better") for t in v), v
PY
	case_ran
	if [ -n "${PLOT_SHOTS:-}" ]; then	# make screenshots: docs/img/compare-card.png, compare-verdict.png
		python3 "$HERE/plot_browser.py" --chromium "$CHROMIUM" --figures --width 860 --shots "$T/shots" "$P/cmp.html" \
			>/dev/null || add_err "screenshots"
		for pair in card:cmp-card0 verdict:cmp-verdict-p99.9; do
			src=$T/shots/${pair#*:}.png dst=$PLOT_SHOTS/compare-${pair%%:*}.png
			pngquant --force --quality=60-80 --output "$dst" "$src" 2>/dev/null || cp "$src" "$dst" || add_err "no $src"
		done
	fi
fi

if [ ${#errors[@]} -gt 0 ]; then
	printf 'FAIL: %s\n' "${errors[@]}" >&2
	exit 1
fi
echo "compare: all checks passed"
