#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make bench, its iops compare part (tests/bench/run.sh calls it last): the wall time of
# comparing two sweeps of 100 steps (5 rw x 10 bs x 2 samples, sweep JSON as iops sweep
# writes it) and two fio json+ results of 100 jobs (real iops runs, null engine, with their
# histogram bins), median of BENCH_COMPARE_RUNS runs (default 21), normal and JSON output.
# Target (issue 19): two sweeps of 100 steps in under 0.1 s. Prints figures, never fails on one.
# Usage: tests/bench/compare.sh [path/to/iops]
set -u
here=$(cd "$(dirname "$0")" && pwd)
bin_arg=${1:-$here/../../build/iops}
IOPS=$(cd "$(dirname "$bin_arg")" && pwd)/$(basename "$bin_arg")
RUNS=${BENCH_COMPARE_RUNS:-21}
W=$(mktemp -d "$(dirname "$IOPS")/bench-compare.XXXXXX")
trap 'rm -rf "$W"' EXIT

# a sweep document of 100 steps; SEED varies the figures a little (a second run of the matrix)
sweep_doc() {
	awk -v seed="$1" 'BEGIN {
		srand(seed); n = split("read write randread randwrite randrw", rw, " ")
		m = split("4k 8k 16k 32k 64k 128k 256k 512k 1m 2m", bs, " ")
		printf "{\n  \"steps\" : ["
		for (i = 1; i <= n; i++) for (j = 1; j <= m; j++) for (s = 1; s <= 2; s++) {
			iops = 20000 / j * (0.95 + rand() * 0.1); lat = 1e6 / iops
			printf "%s\n    {\n      \"rw\" : \"%s\",\n      \"bs\" : \"%s\",\n      \"sample\" : %d,\n", \
				(k++ ? "," : ""), rw[i], bs[j], s
			printf "      \"iops\" : %f,\n      \"bw_bytes\" : %f,\n      \"lat_mean_us\" : %f,\n", iops, iops * 4096 * j, lat
			printf "      \"clat_p99_us\" : %f,\n      \"io_bytes\" : %d,\n      \"error\" : 0,\n      \"stopped\" : 0,\n", \
				lat * 3, iops * 4096 * j * 60
			printf "      \"clat_p50_us\" : %f,\n      \"clat_p999_us\" : %f,\n      \"total_ios\" : %d,\n", lat * 0.9, lat * 8, iops * 60
			printf "      \"lat_stddev_us\" : %f,\n      \"iops_samples\" : 120,\n      \"iops_mean\" : %f,\n", lat / 2, iops
			printf "      \"iops_stddev\" : %f,\n      \"bw_samples\" : 120,\n      \"bw_mean\" : %f,\n", iops / 20, iops * 4 * j
			printf "      \"bw_dev\" : %f,\n      \"ioengine\" : \"libaio\",\n      \"iodepth\" : \"8\",\n", iops * j / 5
			printf "      \"numjobs\" : \"4\",\n      \"size\" : \"1g\",\n      \"direct\" : \"1\"\n    }"
		}
		printf "\n  ]\n}\n"
	}'
}
sweep_doc 1 >"$W/s1.json"
sweep_doc 2 >"$W/s2.json"
for n in 1 2; do
	args=()
	for j in $(seq 100); do args+=("--name=j$j" --ioengine=null --size=256k --bs=4k --rw=randrw); done
	(cd "$W" && "$IOPS" fio "${args[@]}" --output-format=json+) >"$W/f$n.json" 2>/dev/null ||
		{ echo "bench compare: cannot make the fio results" >&2; exit 1; }
done

# ms RUNS ARGS...: the median wall time of `iops compare ARGS`, in milliseconds
ms() {
	local t0 t1 i
	for ((i = 0; i < RUNS; i++)); do
		t0=$(date +%s%N)
		"$IOPS" compare "$@" >/dev/null 2>&1
		t1=$(date +%s%N)
		echo $(((t1 - t0) / 1000))
	done | sort -n | awk '{ v[NR] = $1 } END { printf "%.1f", v[int((NR + 1) / 2)] / 1000 }'
}
echo
echo "bench compare: $RUNS runs each, load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-52s %10s   %s\n' "iops compare (median wall time)" "ms" "target"
printf '%-52s %10s   %s\n' "two sweeps of 100 steps ($(($(wc -c <"$W/s1.json") / 1024)) KiB each), normal" "$(ms "$W/s1.json" "$W/s2.json")" "< 100"
printf '%-52s %10s   %s\n' "two sweeps of 100 steps, --output-format=json" "$(ms --output-format=json "$W/s1.json" "$W/s2.json")" "< 100"
printf '%-52s %10s   %s\n' "two fio json+ of 100 jobs ($(($(wc -c <"$W/f1.json") / 1024)) KiB each), normal" "$(ms "$W/f1.json" "$W/f2.json")" ""
printf '%-52s %10s   %s\n' "exec and exit alone (iops compare --help)" "$(ms --help)" ""
