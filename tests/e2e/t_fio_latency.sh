#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# latency_target / latency_window / latency_percentile / latency_run: fio's queue depth probing,
# fio and the binary under test side by side, in the cases whose outcome does not depend on
# the machine's speed:
#   - a target no I/O misses (null engine, 1 s): the depth doubles up to iodepth, one last
#     window, and the job ends long before its runtime; latency_run=1 instead runs it out;
#     the last window restarts the runtime (it is not cut short by it);
#   - a target every I/O misses (1 usec, O_DIRECT reads): with latency_percentile=100 the
#     first I/O fails the job (max_latency's line, err 110); below 100 the job stays at depth
#     1 and does all its I/O (exact totals);
#   - the "latency   :" line and the four JSON fields, and the values the options take.
. "$(dirname "$0")/fio_common.sh"
FIO_PAR=${FIO_PAR:-3}

errors=()
add_err() { errors+=("$*"); }

head -c 1m /dev/urandom >"$T/data"

set_aio "latency_target's depth probing (fatal, pct)"
# NAME|ARGS
cases=(
	"pass|--ioengine=null --size=64g --rw=randread --iodepth=8 --latency_target=1s --latency_window=20ms --time_based --runtime=3"
	"run|--ioengine=null --size=64g --rw=randread --iodepth=4 --latency_target=1s --latency_window=20ms --latency_run=1 --time_based --runtime=600ms"
	"fatal|--filename=$T/data --direct=1 --rw=randread --iodepth=4 --ioengine=$AIO --latency_target=1 --latency_window=50ms"
	"pct|--filename=$T/data --direct=1 --rw=randread --iodepth=4 --ioengine=$AIO --latency_target=1 --latency_window=5ms --latency_percentile=60"
	"restart|--ioengine=null --size=64g --rw=randread --iodepth=2 --latency_target=1s --latency_window=300ms --time_based --runtime=700ms"
	"none|--ioengine=null --size=1m --iodepth=3"
	"values|--ioengine=null --size=1m --iodepth=2 --latency_target=250 --latency_window=2s --latency_percentile=99.25 --time_based --runtime=300ms"
)
for c in "${cases[@]}"; do
	IFS='|' read -r name args <<<"$c"
	# shellcheck disable=SC2086 # ARGS are words
	par_run run_pair "$name" --name=lt $args --output-format=json,normal
done
par_wait

# the JSON document of a json,normal run (the normal report follows it)
jdoc() { sed -n '/^{/,/^}/p' "$1"; }
# err depth target pct window, from the JSON
fields() {
	jdoc "$1" | jq -r '.jobs[0] | "err=\(.error) depth=\(.latency_depth) target=\(.latency_target) pct=\(.latency_percentile) window=\(.latency_window)"'
}
runtime_ms() { jdoc "$1" | jq -r '.jobs[0].job_runtime'; }
read_ios() { jdoc "$1" | jq -r '.jobs[0].read.total_ios'; }
lat_line() { grep -E '^ +latency +: ' "$1"; }

for c in "${cases[@]}"; do
	IFS='|' read -r name _ <<<"$c"
	case_ran
	for s in ref ut; do [ -s "$T/$name.$s.out" ] || add_err "$name ($s): no output: $(head -c 300 "$T/$name.$s.err")"; done
	[ "$(rc_of "$name" ref)" = "$(rc_of "$name" ut)" ] ||
		add_err "$name: exit $(rc_of "$name" ref) (fio) / $(rc_of "$name" ut) (iops): $(head -n 2 "$T/$name.ut.err")"
	a=$(fields "$T/$name.ref.out" 2>&1) b=$(fields "$T/$name.ut.out" 2>&1)
	[ -n "$a" ] && [ "$a" = "$b" ] || add_err "$name: fio [$a] / iops [$b]"
	a=$(lat_line "$T/$name.ref.out") b=$(lat_line "$T/$name.ut.out")
	[ -n "$a" ] && [ "$a" = "$b" ] || add_err "$name: latency line: fio [$a] / iops [$b]"
done

# pass: settled at iodepth, and ended by the probing (the last window), not by the runtime
for s in ref ut; do
	ms=$(runtime_ms "$T/pass.$s.out")
	[ -n "$ms" ] && [ "$ms" -lt 2000 ] || add_err "pass ($s): job_runtime $ms ms: the probing did not end the job"
done
# run: latency_run=1 never settles: the job runs out its 600 ms (generously: > 400)
for s in ref ut; do
	ms=$(runtime_ms "$T/run.$s.out")
	[ -n "$ms" ] && [ "$ms" -gt 400 ] || add_err "run ($s): job_runtime $ms ms: the job ended before its runtime"
done
# restart: the last window (from ~600 ms) restarts the runtime: it runs its 300 ms (> 200)
for s in ref ut; do
	ms=$(runtime_ms "$T/restart.$s.out")
	[ -n "$ms" ] && [ "$ms" -gt 200 ] || add_err "restart ($s): job_runtime $ms ms: the last window was cut by the runtime"
done
# fatal: max_latency's line for the target, the error of the job
for s in ref ut; do
	grep -qE '^fio: latency of [0-9]+ nsec exceeds specified max \(1000 nsec\): .*/data read [0-9]+ 4096$' "$T/fatal.$s.err" ||
		add_err "fatal ($s): no latency line: $(head -n 2 "$T/fatal.$s.err")"
done
# pct: every I/O misses, the depth stays 1, the job does all its 256 reads
a=$(read_ios "$T/pct.ref.out") b=$(read_ios "$T/pct.ut.out")
[ "$a" = 256 ] && [ "$b" = 256 ] || add_err "pct: reads fio $a / iops $b (256)"

# bad values: fio's messages, exit 1, and iops' refusal of a list
bad=(
	"--latency_percentile=101"
	"--latency_percentile=abc"
	"--latency_target=abc"
	"--latency_run=2"
)
for i in "${!bad[@]}"; do
	run_pair "bad$i" --name=x --ioengine=null --size=1m "${bad[$i]}"
	[ "$(rc_of "bad$i" ref)" = 1 ] && [ "$(rc_of "bad$i" ut)" = 1 ] ||
		add_err "${bad[$i]}: exit $(rc_of "bad$i" ref) / $(rc_of "bad$i" ut)"
	grep -qF "$(grep -m1 'failed parsing' "$T/bad$i.ref.err")" "$T/bad$i.ut.err" ||
		add_err "${bad[$i]}: '$(head -n 2 "$T/bad$i.ut.err" | tr '\n' ' ')'"
done
# a list of two: fio says so and runs with the first; iops the same (issue 21: what fio takes)
run_pair badlist --name=x --ioengine=null --size=1m --latency_percentile=50:60 --output-format=json
for side in ref ut; do
	[ "$(rc_of badlist $side)" = 0 ] || add_err "list ($side): exit $(rc_of badlist $side)"
	[ "$(cat "$T/badlist.$side.err")" = "the list exceeding max length 1" ] ||
		add_err "list ($side): '$(cat "$T/badlist.$side.err")'"
	grep -qE '"latency_percentile" : 50\.000000,' "$T/badlist.$side.out" ||
		add_err "list ($side): the job's latency_percentile is not 50"
done

if [ ${#errors[@]} -gt 0 ]; then
	printf '%s\n' "${errors[@]}" >&2
	fail "${#errors[@]} problem(s)"
fi
