#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# unified_rw_reporting=mixed|both and --status-interval, against fio 3.33.
# unified: for rw and randrw size-bound jobs (and a group_reporting pair), the normal report
# has fio's masked layout (mixed block, MIXED group line), the JSON document fio's keys in
# fio's order (mixed replaces read/write/trim and sync; both adds mixed after sync), terse
# lines fio's field count, and the mixed totals are exact (io_bytes, total_ios = the job's);
# bad values give fio's messages and exit status.
# status-interval: a 3 s job with interval 1 s prints as many reports / JSON documents as fio
# (+-1), each document parses on its own, and the final report of a size-bound job still
# counts every I/O; SIGUSR1 prints one report at once.
. "$(dirname "$0")/fio_common.sh"
# fio spends most of its ~1 s per run waiting: run more at once than the default
FIO_PAR=${FIO_PAR:-8}

errors=()
add_err() { errors+=("$*"); }

base="--ioengine=psync --bs=4k --size=1m"
null="--ioengine=null --bs=4k --size=64m"
# NAME|FORMATS|ARGS
cases=(
	"mixed-randrw|normal json terse|--name=m $null --rw=randrw --unified_rw_reporting=mixed"
	"mixed-rw|normal json|--name=m $base --rw=rw --rwmixread=30 --unified_rw_reporting=1"
	"both-randrw|normal json terse|--name=b $null --rw=randrw --unified_rw_reporting=both --lat_percentiles=1"
	"both-rw|normal json|--name=b $base --rw=rw --unified_rw_reporting=2"
	"both-read|normal|--name=b $null --rw=read --unified_rw_reporting=both"
	"mixed-group|normal json|--name=g $null --rw=randrw --numjobs=2 --group_reporting --unified_rw_reporting=mixed"
)
for c in "${cases[@]}"; do
	IFS='|' read -r name fmts args <<<"$c"
	for fmt in $fmts; do
		# shellcheck disable=SC2086 # args are word-split on purpose
		par_run run_pair "$name-$fmt" --output-format=$fmt $args
	done
done
# bad values: fio's message, exit status 1, nothing created
bad=(
	"bad-urr-3|--name=x $base --unified_rw_reporting=3"
	"bad-urr-case|--name=x $base --unified_rw_reporting=MIXED"
	"bad-urr-empty|--name=x $base --unified_rw_reporting="
	"bad-si-0|--status-interval=0 --name=x $base"
	"bad-si-us|--status-interval=999us --name=x $base"
	"bad-si-neg|--status-interval=-1 --name=x $base"
	"bad-si-word|--status-interval=abc --name=x $base"
	"bad-si-big|--status-interval=99999999999999999999 --name=x $base"
)
for c in "${bad[@]}"; do
	IFS='|' read -r name args <<<"$c"
	# shellcheck disable=SC2086
	par_run run_pair "$name" $args
done
# status-interval: 3 s, interval 1 s (null engine: no layout delays the first report)
si="--name=s --ioengine=null --size=1g --bs=4k --rw=randread --time_based --runtime=3 --status-interval=1"
# shellcheck disable=SC2086
par_run run_pair si-json --output-format=json $si
# shellcheck disable=SC2086
par_run run_pair si-normal $si
# shellcheck disable=SC2086
par_run run_pair si-terse --output-format=terse $si
# a size-bound job reported every 100 ms: the final report still has every I/O
par_run run_pair si-size --output-format=json --status-interval=100ms --name=z --ioengine=psync \
	--bs=4k --size=8m --rw=randwrite
par_wait

paths() { json_doc "$1" | jq -c '[paths | map(tostring) | join(".")] | .[]'; }

for c in "${cases[@]}"; do
	IFS='|' read -r name fmts args <<<"$c"
	for fmt in $fmts; do
		n=$name-$fmt
		rr=$(rc_of "$n" ref) ru=$(rc_of "$n" ut)
		[ "$rr" = 0 ] || { add_err "$n: reference fio failed: $(head -c 200 "$T/$n.ref.err")"; continue; }
		[ "$ru" = 0 ] || { add_err "$n: exit status $ru: $(head -c 300 "$T/$n.ut.err")"; continue; }
		case $fmt in
		normal)
			diff -u <(normalise_normal 1 <"$T/$n.ref.out") <(normalise_normal 1 <"$T/$n.ut.out") \
				>"$T/$n.diff" || add_err "$n: layout differs (- fio, + ours):
$(cat "$T/$n.diff")"
			;;
		json)
			diff -u <(paths "$T/$n.ref.out") <(paths "$T/$n.ut.out") >"$T/$n.diff" ||
				add_err "$n: JSON keys differ (- fio, + ours):
$(cat "$T/$n.diff")"
			# deterministic values: the totals of each reported object
			v='.jobs[] | [.jobname, (.mixed // {} | .io_bytes, .total_ios),
				([.read, .write, .trim] | map(select(. != null) | .io_bytes) | add)]'
			assert_eq "$n: totals" "$(json_doc "$T/$n.ref.out" | jq -c "$v")" \
				"$(json_doc "$T/$n.ut.out" | jq -c "$v")"
			if [[ "$args" == *both* ]]; then
				s=$(json_doc "$T/$n.ut.out" | jq '.jobs[0] | .mixed.total_ios == .read.total_ios + .write.total_ios')
				assert_eq "$n: mixed = read + write" true "$s"
			fi
			;;
		terse)
			assert_eq "$n: terse fields" "$(awk -F';' '{print NF}' "$T/$n.ref.out")" \
				"$(awk -F';' '{print NF}' "$T/$n.ut.out")"
			# the mixed block's kb: read's field in mode mixed, after read+write (v3) in both
			f=6; [[ "$args" == *both* ]] && f=$((6 + 2 * 41))
			assert_eq "$n: terse mixed kb" "$(cut -d';' -f$f "$T/$n.ref.out")" "$(cut -d';' -f$f "$T/$n.ut.out")"
			;;
		esac
	done
done

for c in "${bad[@]}"; do
	IFS='|' read -r name args <<<"$c"
	assert_eq "$name: exit status" "$(rc_of "$name" ref)" "$(rc_of "$name" ut)"
	diff -u "$T/$name.ref.err" "$T/$name.ut.err" >"$T/$name.diff" ||
		add_err "$name: stderr differs (- fio, + ours):
$(cat "$T/$name.diff")"
	# the "valid values" list: the same words and layout; the descriptions are in our own words
	diff -u <(help_fields mask <"$T/$name.ref.out") <(help_fields mask <"$T/$name.ut.out") >"$T/$name.odiff" ||
		add_err "$name: stdout differs: $(cat "$T/$name.odiff")"
	assert_eq "$name: files left" "" "$(files_in "$T/$name.ut.d")"
done

# status-interval
for s in si-json si-normal si-terse si-size; do
	assert_eq "$s: exit status" 0 "$(rc_of "$s" ut)"
done
within1() { [ $(($1 - $2)) -le 1 ] && [ $(($2 - $1)) -le 1 ]; }
nr=$(jq -s length "$T/si-json.ref.out") nu=$(jq -s length "$T/si-json.ut.out") ||
	fail "si-json: our stdout is not a sequence of JSON documents: $(head -c 300 "$T/si-json.ut.out")"
within1 "$nr" "$nu" || add_err "si-json: $nu JSON documents (fio: $nr)"
[ "$nu" -ge 3 ] || add_err "si-json: only $nu JSON documents"
# every document on its own: split at the top-level closing brace
awk -v d="$T/doc." '/^{$/ { n++ } { print > (d n) }' "$T/si-json.ut.out"
for f in "$T"/doc.*; do
	jq -e '.jobs[0].jobname == "s"' "$f" >/dev/null || add_err "si-json: a document does not parse: $f"
done
assert_eq "si-json: reports grow" true "$(jq -s '[.[].jobs[0].read.io_bytes] | . == sort' "$T/si-json.ut.out")"
rr=$(grep -c '^Run status group' "$T/si-normal.ref.out") ru=$(grep -c '^Run status group' "$T/si-normal.ut.out")
within1 "$rr" "$ru" || add_err "si-normal: $ru reports (fio: $rr)"
rr=$(grep -c '^s: (groupid' "$T/si-normal.ref.out") ru=$(grep -c '^s: (groupid' "$T/si-normal.ut.out")
within1 "$rr" "$ru" || add_err "si-normal: $ru job blocks (fio: $rr)"
rr=$(wc -l <"$T/si-terse.ref.out") ru=$(wc -l <"$T/si-terse.ut.out")
within1 "$rr" "$ru" || add_err "si-terse: $ru lines (fio: $rr)"
# the last document is the final report: every I/O of the size-bound job
assert_eq "si-size: final total_ios" 2048 "$(jq -s '.[-1].jobs[0].write.total_ios' "$T/si-size.ut.out")"
assert_eq "si-size: final io_bytes" 8388608 "$(jq -s '.[-1].jobs[0].write.io_bytes' "$T/si-size.ut.out")"

# SIGUSR1 while the jobs run: one full report at once, then the final one
mkdir -p "$T/usr1.d"
(cd "$T/usr1.d" && exec "$UT_FIO" --output-format=json --name=u --ioengine=null --size=1g --rw=randread \
	--time_based --runtime=2 >"$T/usr1.out" 2>"$T/usr1.err") &
pid=$!
sleep 1
kill -USR1 "$pid"
wait "$pid"
assert_eq "SIGUSR1: exit status" 0 "$?"
assert_eq "SIGUSR1: JSON documents" 2 "$(jq -s length "$T/usr1.out")"

if [ ${#errors[@]} -gt 0 ]; then
	printf '%s\n' "${errors[@]}" >&2
	fail "${#errors[@]} report differences from fio"
fi
echo "ok: unified_rw_reporting (${#cases[@]} jobs), ${#bad[@]} bad values, status-interval"
