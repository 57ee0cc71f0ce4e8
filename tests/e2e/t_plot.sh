#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# e2e: early (one of the longest: started first, so that no long script is left running alone at the end)
# iops plot and the modes' --plot, on real runs: a json+ result and windowed logs of iops fio,
# the real fio's json+ and per-I/O logs (log_offset, log_prio), a long per-I/O log (decimated),
# a sweep, a merge (iops merge --plot), quick --plot, a preset's --plot, suite --plot, fio's
# client/server sample, one chart as SVG. Every page is well-formed XML (xmllint), renders in
# one headless Chromium with no console message, page error or failed load, and every value
# Chromium reads back from data-series/<title> equals its input's (tests/e2e/plot_check.py:
# percentiles, bins, bars, each log entry or each decimated column); the dark scheme changes
# the page's colours. Nothing is printed on success; bad inputs are one line, exit 1, no file;
# a file that is not an iops plot page is never overwritten, and --plot refuses it before a
# mode runs anything.
. "$(dirname "$0")/lib.sh"

need_ref_fio
command -v python3 >/dev/null || missing_prereq "python3 is required"
command -v xmllint >/dev/null || missing_prereq "xmllint (Debian's libxml2-utils) is required"
CHROMIUM=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
[ -n "$CHROMIUM" ] || missing_prereq "chromium (Debian's chromium) is required"
HERE=$(cd "$(dirname "$0")" && pwd)

D=$T/d
mkdir -p "$D" "$T/in" "$T/out"
quiet() {	# quiet WHAT CMD...: exit 0, nothing on stdout or stderr
	local what=$1
	shift
	"$@" >"$T/q.out" 2>"$T/q.err" || fail "$what: exit $? ($(head -c 300 "$T/q.err"))"
	[ ! -s "$T/q.out" ] && [ ! -s "$T/q.err" ] || fail "$what printed: $(head -c 300 "$T/q.out" "$T/q.err")"
}

# ---- real runs --------------------------------------------------------------------------------
(cd "$T/in" && "$IOPS" fio --name=ij --filename="$D/i.dat" --size=16m --rw=randrw --bs=4k --ioengine=psync \
	--runtime=1 --time_based --write_bw_log=ij --write_iops_log=ij --write_lat_log=ij --log_avg_msec=100 \
	--output-format=json+ >ij.json 2>ij.err) || fail "iops fio: $(cat "$T/in/ij.err")"
(cd "$T/in" && "$REF_FIO" --name=fj --filename="$D/f.dat" --size=16m --rw=randrw --bs=4k --ioengine=psync \
	--io_size=1m --write_bw_log=fj --write_lat_log=fj --log_offset=1 --log_prio=1 \
	--output-format=json+ >fj.json 2>fj.err) || fail "fio: $(cat "$T/in/fj.err")"
# a long per-I/O log: more entries than the chart has pixel columns
(cd "$T/in" && "$IOPS" fio --name=long --filename="$D/i.dat" --size=16m --rw=randread --bs=4k --ioengine=psync \
	--io_size=16m --write_lat_log=long >/dev/null 2>long.err) || fail "iops fio long: $(cat "$T/in/long.err")"
[ "$(grep -c ', 0, 4096, ' "$T/in/long_clat.1.log")" -gt 1000 ] || fail "the long log is short"
rm -f "$T/in/fj_slat.1.log" "$T/in/ij_slat.1.log" "$T/in/long_slat.1.log" "$T/in/long_lat.1.log"
(cd "$D" && "$IOPS" sweep --rw=randread,write --bs=4k --samples=2 --size=8m --runtime=1 --time_based=1 \
	--output-format=json --plot="$T/out/sweep-mode.html" >"$T/in/sweep.json" 2>"$T/sweep.err") || fail "sweep: $(tail -3 "$T/sweep.err")"
(cd "$T/in" && "$IOPS" merge --output-format=json+ ij.json fj.json >merged.json) || fail "merge"
(cd "$T/in" && "$IOPS" merge --plot="$T/out/merge.html" ij.json fj.json >/dev/null) || fail "merge --plot"
(cd "$D" && "$IOPS" quick . --runtime=1 --size=64m --output-format=json --plot="$T/out/quick.html" \
	>"$T/in/quick.json" 2>"$T/quick.err") || fail "quick --plot: $(tail -3 "$T/quick.err")"
(cd "$D" && "$IOPS" latency . --runtime=1 --ramp_time=0 --size=16m --output-format=json \
	--plot="$T/out/latency.html" >"$T/in/latency.json" 2>"$T/latency.err") || fail "latency --plot: $(tail -3 "$T/latency.err")"
(cd "$D" && TARGET_PATH=$D BENCHMARKS=fio FIO_CAPACITY_MB=64 FIO_RUNTIME=1 "$IOPS" suite --plot="$T/out/suite.html" \
	>"$T/in/suite.txt" 2>"$T/suite.err") || fail "suite --plot: $(tail -3 "$T/suite.err")"
rm -f "$D"/*.dat
assert_eq "the modes left nothing in the volume" "" "$(dir_listing "$D")"

# a client run on two iops servers (127.0.0.2, .3): its page is the merge's, from the same result
. "$HERE/remote_common.sh"
PORT=$(pick_port 127.0.0.2 127.0.0.3)
small_job "$T/job.fio"
printf '127.0.0.2,%s\n127.0.0.3,%s\n' "$PORT" "$PORT" >"$T/hosts"
start_server c0 "$T/srv0" --server=ip:127.0.0.2,$PORT
start_server c1 "$T/srv1" --server=ip:127.0.0.3,$PORT
"$IOPS" --client="$T/hosts" --plot="$T/out/notes.txt" "$T/job.fio" >"$T/q.out" 2>"$T/q.err" && fail "client --plot=notes.txt: exit 0"
assert_match "client --plot refused" "^iops client: --plot: " "$(cat "$T/q.err")"
[ ! -e "$T/out/notes.txt" ] && dir_empty "$T/srv0" || fail "client --plot refused: something was made"
"$IOPS" --client="$T/hosts" --output-format=json+ --plot="$T/out/client-run.html" "$T/job.fio" \
	>"$T/in/client-run.json" 2>"$T/client.err" || fail "client --plot: exit $?: $(tail -3 "$T/client.err")"
stop_servers

# ---- iops plot: silent on success ------------------------------------------------------------
I=$T/in
cd "$I" || fail "cd $I"	# inputs by their plain names, as a user types them
quiet "plot json+" "$IOPS" plot ij.json -o ../out/ij.html
quiet "plot fio json+ and its logs" "$IOPS" plot fj.json fj_bw.1.log fj_clat.1.log fj_lat.1.log -o ../out/fj.html
quiet "plot logs" "$IOPS" plot ij_*.log -o ../out/logs.html
quiet "plot a long log" "$IOPS" plot long_clat.1.log -o ../out/long.html
quiet "plot sweep" "$IOPS" plot sweep.json -o ../out/sweep.html
quiet "plot merged" "$IOPS" plot merged.json -o ../out/merged.html
REF_CLIENT=$(cd "$HERE/../.." && pwd)/tests/unit/fixtures/plot/fio_client.json
quiet "plot client/server" "$IOPS" plot "$REF_CLIENT" -o ../out/client.html
quiet "plot from stdin" "$IOPS" plot - -o ../out/stdin.html <ij.json
quiet "plot one chart as svg" "$IOPS" plot ij.json --chart=lat-clat -o ../out/one.svg
quiet "plot again over our own page" "$IOPS" plot ij.json -o ../out/ij.html
cd "$T" || fail "cd $T"
assert_eq "--list" "fio-iops fio-bw lat-clat hist-clat" "$("$IOPS" plot "$I/ij.json" --list | tr '\n' ' ' | sed 's/ $//')"
case_ran

# ---- well-formed ------------------------------------------------------------------------------
for f in "$T"/out/*.html "$T"/out/*.svg; do
	xmllint --noout "$f" 2>"$T/xml.err" || fail "$(basename "$f"): not well-formed: $(head -3 "$T/xml.err")"
done
head -c 200 "$T/out/one.svg" | grep -q '^<?xml version="1.0" encoding="UTF-8"?>' || fail "one.svg: no XML declaration"
size=$(stat -c %s "$T/out/long.html")
[ "$size" -lt 400000 ] || fail "long.html: $size bytes for one decimated log"
grep -q 'min/max decimation' "$T/out/long.html" || fail "long.html: the decimation is not said"
case_ran

# ---- rendered in Chromium, values read back -----------------------------------------------------
O=$T/out
python3 "$HERE/plot_browser.py" --chromium "$CHROMIUM" "$O"/*.html "$O/one.svg" "$O/ij.html#dark" >"$T/report.json" 2>"$T/browser.err" ||
	fail "chromium: $(cat "$T/browser.err")"
python3 "$HERE/plot_check.py" "$T/report.json" \
	"$O/ij.html=fio:$I/ij.json" "$O/stdin.html=fio:$I/ij.json" "$O/fj.html=fio:$I/fj.json" \
	"$O/fj.html=logs:$I/fj_bw.1.log,$I/fj_clat.1.log,$I/fj_lat.1.log" \
	"$O/logs.html=logs:$(ls "$I"/ij_*.log | tr '\n' , | sed 's/,$//')" "$O/long.html=logs:$I/long_clat.1.log" \
	"$O/sweep.html=sweep:$I/sweep.json" "$O/sweep-mode.html=sweep:$I/sweep.json" \
	"$O/merged.html=fio:$I/merged.json" "$O/merge.html=fio:$I/merged.json" "$O/client.html=fio:$REF_CLIENT" \
	"$O/client-run.html=fio:$I/client-run.json" \
	"$O/quick.html=fio:$I/quick.json" "$O/latency.html=fio:$I/latency.json" "$O/suite.html=suite:$I/suite.txt" \
	>"$T/check.out" 2>&1 || { cat "$T/check.out" >&2; fail "values read back differ from the inputs"; }
tail -1 "$T/check.out"
python3 - "$T/report.json" "$O" <<'PY' || fail "the report's shape"
import json, sys
r = json.load(open(sys.argv[1]))
o = sys.argv[2]
def ids(p): return [c["id"] for c in r[o + "/" + p]["charts"]]
assert ids("ij.html") == ["fio-iops", "fio-bw", "lat-clat", "hist-clat"], ids("ij.html")
assert ids("logs.html") == ["log-bw", "log-iops", "log-lat", "log-clat"], ids("logs.html")
assert ids("quick.html") == ["fio-iops", "fio-bw", "lat-clat", "lat-lat"], ids("quick.html")
assert ids("suite.html") == ["suite-bw", "suite-lat", "suite-iops"], ids("suite.html")
assert ids("one.svg") == ["lat-clat"], ids("one.svg")
assert not r[o + "/one.svg"]["problems"], r[o + "/one.svg"]["problems"]
# merged runs: a bar per client plus the aggregate, their curves overlaid
m = r[o + "/merge.html"]
cats = {s["category"] for s in m["series"] if s["chart"] == "fio-iops"}
assert "All clients" in cats and len(cats) == 3, cats
curves = {s["series"] for s in m["series"] if s["chart"] == "lat-clat"}
assert "All clients read" in curves and len(curves) == 6, curves
# the p99 of the json+ result, exactly
ij = json.load(open(sys.argv[2] + "/../in/ij.json"))
p99 = ij["jobs"][0]["read"]["clat_ns"]["percentile"]["99.000000"]
t = [t for s in r[o + "/ij.html"]["series"] if s["series"] == "ij read" and s["chart"] == "lat-clat" for t in s["titles"]]
assert "ij read: p99.000000 = %d ns" % p99 in " ".join(t), t[:3]
PY
case_ran

# ---- the dark scheme: another palette (the same Chromium, prefers-color-scheme emulated) ----
light=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]]["background"])' "$T/report.json" "$O/ij.html")
dark=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))[sys.argv[2]]; assert not r["problems"], r; print(r["background"])' "$T/report.json" "$O/ij.html#dark") ||
	fail "dark: problems"
assert_eq "light background" "rgb(255, 255, 255)" "$light"
assert_eq "dark background" "rgb(22, 24, 27)" "$dark"
case_ran

# ---- PLOT_SHOTS=DIR (make screenshots, never make check): the documentation's pictures ------
if [ -n "${PLOT_SHOTS:-}" ]; then
	mkdir -p "$T/shots" "$PLOT_SHOTS"
	python3 "$HERE/plot_browser.py" --chromium "$CHROMIUM" --figures --width 860 --shots "$T/shots" \
		"$O/merge.html" "$O/logs.html" "$O/long.html" "$O/sweep-mode.html" "$O/quick.html" "$O/ij.html#dark" \
		>/dev/null || fail "screenshots"
	# name in docs/img <- the figure's shot
	for pair in card:merge-card0 lat-clat:merge-lat-clat hist-clat:merge-hist-clat clients:merge-fio-iops \
		log-bw:logs-log-bw log-decimated:long-log-clat sweep:sweep-mode-sweep-iops quick-lat:quick-lat-lat \
		dark:ij-dark-lat-clat; do
		src=$T/shots/${pair#*:}.png dst=$PLOT_SHOTS/plot-${pair%%:*}.png
		[ -f "$src" ] || fail "screenshot ${pair#*:} was not made"
		if command -v pngquant >/dev/null; then
			pngquant --force --quality=60-90 --output "$dst" "$src" || cp "$src" "$dst"
		else
			cp "$src" "$dst"
		fi
	done
	echo "screenshots: $(ls "$PLOT_SHOTS"/plot-*.png | wc -l) in $PLOT_SHOTS ($(du -ch "$PLOT_SHOTS"/plot-*.png | tail -1 | cut -f1))"
fi

# ---- bad inputs: one line, exit 1, no file -----------------------------------------------------
printf 'hello\n' >"$T/garbage.txt"
printf '1, 2, 0, 0, 0\n2, x, 0, 0, 0\n' >"$T/broken_bw.1.log"
: >"$T/empty.txt"
printf '<p>mine</p>\n' >"$T/out/mine.html"
bad() {	# bad WHAT EXPECTED-MESSAGE ARGS...
	local what=$1 want=$2
	shift 2
	rm -f "$T/out/bad.html" "$T/out/bad.svg"
	"$IOPS" plot "$@" >"$T/b.out" 2>"$T/b.err" && fail "$what: exit 0"
	[ ! -s "$T/b.out" ] || fail "$what: stdout: $(cat "$T/b.out")"
	assert_eq "$what: one line" 1 "$(wc -l <"$T/b.err")"
	assert_match "$what" "^iops plot: .*$want" "$(cat "$T/b.err")"
	[ ! -e "$T/out/bad.html" ] && [ ! -e "$T/out/bad.svg" ] || fail "$what: a file was written"
	assert_eq "$what: no temporary file left" "" "$(ls -A "$T/out" | grep '^\.' || true)"
}
bad missing "nothere.json: No such file or directory" "$T/nothere.json" -o "$T/out/bad.html"
bad garbage "garbage.txt: not a result iops can plot" "$T/garbage.txt" -o "$T/out/bad.html"
bad "broken log" "broken_bw.1.log:2: not a fio log line" "$T/broken_bw.1.log" -o "$T/out/bad.html"
bad "empty file" "empty.txt: empty" "$T/empty.txt" -o "$T/out/bad.html"
bad "one good, one bad" "garbage.txt" "$I/ij.json" "$T/garbage.txt" -o "$T/out/bad.html"
bad "svg of many charts" "an SVG file holds one chart" "$I/ij.json" -o "$T/out/bad.svg"
bad "unknown chart" "'nope' names no chart" "$I/ij.json" --chart=nope -o "$T/out/bad.html"
bad "no output" "no output" "$I/ij.json"
bad "bad suffix" "must end in .html" "$I/ij.json" -o "$T/out/bad.txt"
bad "unknown option" "unknown option '--frobnicate'" "$I/ij.json" --frobnicate -o "$T/out/bad.html"
bad "not ours" "'$T/out/mine.html' exists and is not a page iops plot wrote" "$I/ij.json" -o "$T/out/mine.html"
assert_eq "not ours: untouched" "<p>mine</p>" "$(cat "$T/out/mine.html")"
ln -s "$T/out/ij.html" "$T/out/link.html"
bad "a symbolic link" "link.html' exists and is not a page" "$I/ij.json" -o "$T/out/link.html"
case_ran

# ---- --plot refuses before a mode runs anything --------------------------------------------------
(cd "$D" && "$IOPS" quick . --runtime=1 --size=64m --plot="$T/out/mine.html" >"$T/q.out" 2>"$T/q.err") && fail "quick --plot over mine: exit 0"
assert_match "quick --plot over mine" "^iops quick: --plot: .*exists and is not a page iops plot wrote" "$(cat "$T/q.err")"
[ ! -s "$T/q.out" ] || fail "quick --plot over mine: it ran ($(head -1 "$T/q.out"))"
(cd "$D" && "$IOPS" latency . --runtime=1 --plot="$T/nodir/x.html" >"$T/q.out" 2>"$T/q.err") && fail "latency --plot in no directory: exit 0"
assert_match "latency --plot" "^iops latency: --plot: .*is not one we can write to" "$(cat "$T/q.err")"
(cd "$D" && "$IOPS" sweep --plot=x.txt >"$T/q.out" 2>"$T/q.err") && fail "sweep --plot=x.txt: exit 0"
assert_match "sweep --plot" "^iops sweep: --plot: .*must end in .html" "$(cat "$T/q.err")"
"$IOPS" merge --plot "$I/ij.json" >"$T/q.out" 2>"$T/q.err" && fail "merge --plot without a file: exit 0"
assert_eq "nothing created in the volume" "" "$(dir_listing "$D")"
case_ran
