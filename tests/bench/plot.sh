#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make bench's share of iops plot (issue 19, item 4): figures only, never a threshold.
#   log 1 ms    a 10-minute bw log at 1 ms averaging: 600,000 lines of one direction, made
#               here (values of a noisy 70-90 MiB/s with a few dips): the wall time of
#               `iops plot` (read, decimate, write; median of BENCH_ROUNDS) and the page's size
#               (targets: under 1 s, under 2 MB);
#   log 500 ms  the same 10 minutes at 500 ms windows, read and write (1,200 lines each): the
#               page's size and its number of SVG elements (a polyline per line, a point per
#               entry or pixel column).
# Usage: tests/bench/plot.sh [path/to/iops]
set -u
here=$(cd "$(dirname "$0")" && pwd)
bin_arg=${1:-$here/../../build/iops}
IOPS=$(cd "$(dirname "$bin_arg")" && pwd)/$(basename "$bin_arg")
ROUNDS=${BENCH_ROUNDS:-3}
W=$(mktemp -d "$(dirname "$IOPS")/bench-plot.XXXXXX")
trap 'rm -rf "$W"' EXIT

awk 'BEGIN { s = 1; for (t = 1; t <= 600000; t++) { s = (s * 1103515245 + 12345) % 2147483648;
	v = 71680 + s % 20480; if (t % 100000 == 0) v = 1024; printf "%d, %d, 0, 0, 0\n", t, v } }' >"$W/m1_bw.1.log"
awk 'BEGIN { s = 7; for (t = 500; t <= 600000; t += 500) for (d = 0; d < 2; d++) {
	s = (s * 1103515245 + 12345) % 2147483648; printf "%d, %d, %d, 0, 0\n", t, 71680 + s % 20480, d } }' >"$W/m500_bw.1.log"
ms=()
for ((r = 1; r <= ROUNDS; r++)); do
	rm -f "$W/m1.html"
	t0=$(date +%s%N)
	"$IOPS" plot "$W/m1_bw.1.log" -o "$W/m1.html" || { echo "bench plot: iops plot failed" >&2; exit 1; }
	ms+=("$(( ($(date +%s%N) - t0) / 1000000 ))")
done
med=$(printf '%s\n' "${ms[@]}" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
"$IOPS" plot "$W/m500_bw.1.log" -o "$W/m500.html" || exit 1
elements() { grep -o '<[a-z][a-z]*' "$1" | wc -l; }
printf '%-44s %12s %12s   %s\n' "plot (median of $ROUNDS)" "wall ms" "page bytes" "target"
printf '%-44s %12s %12s   %s\n' "10-min log at 1 ms, 600000 lines ($(($(stat -c %s "$W/m1_bw.1.log") / 1048576)) MiB)" \
	"$med" "$(stat -c %s "$W/m1.html")" "< 1000 ms, < 2 MB"
printf '%-44s %12s %12s   %s\n' "10-min log at 500 ms, 2 x 1200 lines" "" "$(stat -c %s "$W/m500.html")" \
	"$(elements "$W/m500.html") elements"
echo "bench plot: rounds ${ms[*]} ms; load average $(cut -d' ' -f1-3 /proc/loadavg)"
