#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make bench: iops and the real fio / ioping side by side, interleaved, BENCH_ROUNDS rounds
# (default 3), then a table of medians with ratios; then iops compare's own timings (compare.sh).
# Prints figures; never fails on a threshold (benchmarks are not tests).
# Usage: tests/bench/run.sh [path/to/iops]
#
# What is measured (all through each tool's own JSON output, /usr/bin/time or /proc):
#   null       4k randread, ioengine=null, time_based 5 s, pinned to one core (taskset -c 0):
#              IOPS — the per-I/O overhead of the tool itself.
#   libaio     4k randread, O_DIRECT, iodepth=32, 512 MiB file, time_based 5 s: IOPS, and
#              (user+sys) CPU seconds of the whole process tree (/usr/bin/time) per I/O.
#   psync      4k randread, O_DIRECT, QD1, same file, 3 s: clat p50 and p99 (JSON percentiles).
#   startup    exec to first I/O: wall time of a whole run that does exactly one I/O (null
#              engine, size=4k), median of 5. It also contains the report and exit, which are
#              the same for both tools' share of a one-I/O run — an upper bound of exec→first I/O.
#   rss        peak memory on the seed jobs (shrunk): the sum of PSS (proportional set size,
#              /proc/PID/smaps_rollup) over the whole process tree, sampled every 50 ms. fio
#              forks one process per job and shares a SysV shm segment; PSS counts shared pages
#              once, so the sum is comparable with a threaded process. (/usr/bin/time's %M is
#              the maximum over single processes, which would flatter fio's fork model.)
#   ioping     ioping -c 20 -i 0 DIR vs iops ioping -c 20 -i 0 DIR: avg and mdev latency.
#   remote     (tests/bench/remote.sh) the start spread of five servers, iops merge of 100
#              json+ results, a server's idle resident memory.
#   plot       iops plot of a 10-minute log at 1 ms (600,000 lines): time and page size
#              (tests/bench/plot.sh, after the table).
# Ratios are iops/fio; targets (issue #3): null IOPS >= 2x, libaio IOPS within 5 % with
# <= 70 % of fio's CPU per I/O, peak RSS <= 1/4.
set -u
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
bin_arg=${1:-$repo/build/iops}
IOPS=$(cd "$(dirname "$bin_arg")" && pwd)/$(basename "$bin_arg")
FIO=${REF_FIO:-/usr/bin/fio}
IOPING=${REF_IOPING:-/usr/bin/ioping}
ROUNDS=${BENCH_ROUNDS:-3}
for tool in "$IOPS" "$FIO" /usr/bin/time jq taskset; do
	command -v "$tool" >/dev/null || { echo "bench: $tool is missing" >&2; exit 1; }
done

W=$(mktemp -d "$(dirname "$IOPS")/bench.XXXXXX")
trap 'rm -rf "$W"' EXIT
mkdir -p "$W/fio" "$W/iops" "$W/bin"
ln -s "$IOPS" "$W/bin/fio"	# ours, called by the multi-call name

declare -A R	# R[metric.tool] = "v1 v2 v3 ..."
rec() { [ -n "${3:-}" ] && R[$1.$2]="${R[$1.$2]:-} $3"; return 0; }

# runtool TOOL DIR OUTFILE ARGS...: run fio or ours (argv[0] "fio") in DIR under /usr/bin/time;
# the JSON goes to OUTFILE, "wall usr sys" to OUTFILE.time.
runtool() {
	local tool=$1 dir=$2 out=$3 exe
	shift 3
	if [ "$tool" = fio ]; then exe=$FIO; else exe=$W/bin/fio; fi
	(cd "$dir" && /usr/bin/time -f '%e %U %S' -o "$out.time" \
		bash -c 'exec -a fio "$0" "$@"' "$exe" "$@" >"$out" 2>"$out.err") || true
}

jqn() { jq -r "$1" "$2" 2>/dev/null | grep -E '^[0-9.]+$' || echo ""; }

bench_null() {
	local tool=$1 o exe
	o=$W/$tool.null.json
	if [ "$tool" = fio ]; then exe=$FIO; else exe=$W/bin/fio; fi
	(cd "$W/$tool" && taskset -c 0 bash -c 'exec -a fio "$0" "$@"' "$exe" \
		--name=n --ioengine=null --size=1g --bs=4k --rw=randread --time_based --runtime=5 \
		--output-format=json >"$o" 2>"$o.err") || true
	rec null_iops "$tool" "$(jqn '.jobs[0].read.iops' "$o")"
}

bench_libaio() {
	local tool=$1 o ios usr sys
	o=$W/$tool.aio.json
	runtool "$tool" "$W/$tool" "$o" --name=aio --filename="$W/data.512m" --size=512m \
		--ioengine=libaio --direct=1 --bs=4k --rw=randread --iodepth=32 --time_based --runtime=5 \
		--output-format=json
	rec aio_iops "$tool" "$(jqn '.jobs[0].read.iops' "$o")"
	ios=$(jqn '.jobs[0].read.total_ios' "$o")
	read -r _ usr sys <"$o.time" 2>/dev/null || true
	if [ -n "$ios" ] && [ "$ios" != 0 ] && [ -n "${usr:-}" ]; then
		rec aio_cpu_ns "$tool" "$(awk -v u="$usr" -v s="$sys" -v n="$ios" 'BEGIN { printf "%.0f", (u + s) * 1e9 / n }')"
	fi
}

bench_psync() {
	local tool=$1 o
	o=$W/$tool.psync.json
	runtool "$tool" "$W/$tool" "$o" --name=ps --filename="$W/data.512m" --size=512m \
		--ioengine=psync --direct=1 --bs=4k --rw=randread --time_based --runtime=3 --output-format=json
	rec psync_p50_us "$tool" "$(jq -r '.jobs[0].read.clat_ns.percentile."50.000000" / 1000' "$o" 2>/dev/null | grep -E '^[0-9.]+$')"
	rec psync_p99_us "$tool" "$(jq -r '.jobs[0].read.clat_ns.percentile."99.000000" / 1000' "$o" 2>/dev/null | grep -E '^[0-9.]+$')"
	rec psync_iops "$tool" "$(jqn '.jobs[0].read.iops' "$o")"
}

bench_startup() {
	local tool=$1 i t0 t1 exe all=""
	if [ "$tool" = fio ]; then exe=$FIO; else exe=$W/bin/fio; fi
	for i in 1 2 3 4 5; do
		t0=$(date +%s%N)
		(cd "$W/$tool" && bash -c 'exec -a fio "$0" "$@"' "$exe" --name=s --ioengine=null --size=4k \
			--rw=read --output-format=json >/dev/null 2>&1) || { all=""; break; }
		t1=$(date +%s%N)
		all="$all $(((t1 - t0) / 1000))"
	done
	[ -n "$all" ] && rec startup_us "$tool" "$(tr ' ' '\n' <<<"$all" | grep . | sort -n | sed -n 3p)"
}

# peak_pss_kib PID: sample the tree under PID every 50 ms until PID exits; print the peak of the
# summed Pss (KiB).
peak_pss_kib() {
	local root=$1 peak=0 sum pids p
	while kill -0 "$root" 2>/dev/null; do
		pids="$root $(tree_of "$root")"
		sum=0
		for p in $pids; do
			sum=$((sum + $(awk '/^Pss:/ { print $2; exit }' "/proc/$p/smaps_rollup" 2>/dev/null || echo 0)))
		done
		[ "$sum" -gt "$peak" ] && peak=$sum
		sleep 0.05
	done
	echo "$peak"
}
tree_of() { # descendants of $1
	local kids k
	kids=$(cat /proc/"$1"/task/*/children 2>/dev/null)
	for k in $kids; do echo "$k"; tree_of "$k"; done
}

seed_job004() {
	cat >"$1" <<'EOF'
[global]
ioengine=libaio
direct=1
numjobs=4
size=32m

[fio_test]
rw=randread
bs=8k
time_based=1
runtime=2
iodepth=8
randrepeat=0
allrandrepeat=0
log_avg_msec=1000
group_reporting
EOF
}

# NAME|ARGS : seed command lines, shrunk (size, runtime), numjobs and iodepth kept.
seeds=(
	"seed000-seq-read|--randrepeat=1 --ioengine=libaio --direct=1 --gtod_reduce=1 --name=seq-read --filename=seq-read --bs=128k --iodepth=256 --size=32m --readwrite=read --runtime=2 --time_based --numjobs=8 --group_reporting"
	"seed000-randrw|--randrepeat=1 --ioengine=libaio --direct=1 --gtod_reduce=1 --name=test --filename=testfile --bs=4k --iodepth=64 --size=64m --readwrite=randrw --rwmixread=75"
	"seed001|--name=rand-write --ioengine=libaio --iodepth=32 --rw=randwrite --invalidate=1 --bsrange=4k:4k,4k:4k --size=64m --runtime=2 --time_based --do_verify=1 --direct=1 --group_reporting --numjobs=1"
	"seed003-iops|--directory=. --ioengine=libaio --rw=randread --bs=4k --iodepth=32 --size=64m --fallocate=none --direct=1 --runtime=2 --time_based --ramp_time=1 --name=iops"
	"seed004-jobfile|$W/seed004.fio"
)
seed_job004 "$W/seed004.fio"

bench_rss() {
	local tool=$1 s name args exe pid pk
	if [ "$tool" = fio ]; then exe=$FIO; else exe=$W/bin/fio; fi
	for s in "${seeds[@]}"; do
		IFS='|' read -r name args <<<"$s"
		# shellcheck disable=SC2086
		(cd "$W/$tool" && exec bash -c 'exec -a fio "$0" "$@"' "$exe" $args >/dev/null 2>&1) &
		pid=$!
		pk=$(peak_pss_kib "$pid")
		wait "$pid" && rec "rss_kib_$name" "$tool" "$pk"
	done
}

bench_ioping() {
	local tool=$1 out line
	if [ "$tool" = fio ]; then out=$("$IOPING" -c 20 -i 0 "$W/$tool" 2>/dev/null)
	else out=$("$IOPS" ioping -c 20 -i 0 "$W/$tool" 2>/dev/null); fi
	line=$(grep 'min/avg/max/mdev' <<<"$out") || return 0
	# "min/avg/max/mdev = 56.0 us / 74.9 us / 93.9 us / 18.9 us" -> avg and mdev in us
	read -r avg mdev < <(sed -E 's/.*= //; s/ \/ /|/g' <<<"$line" | awk -F'|' '
		function us(v,  n, u) { split(v, a, " "); n = a[1]; u = a[2]
			if (u == "ns") return n / 1000; if (u == "ms") return n * 1000; if (u == "s") return n * 1e6; return n }
		{ printf "%.1f %.1f\n", us($2), us($4) }')
	rec ioping_avg_us "$tool" "$avg"
	rec ioping_mdev_us "$tool" "$mdev"
}

echo "bench: $(date -u '+%F %H:%M UTC'), $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), kernel $(uname -r)"
echo "bench: load average at start: $(cut -d' ' -f1-3 /proc/loadavg) (other work on the machine skews every figure)"
echo "bench: iops = $IOPS, fio = $($FIO --version), ioping = $($IOPING -v 2>&1), $ROUNDS rounds, files in $W"
echo "bench: preparing a 512 MiB data file (O_DIRECT writes)..."
dd if=/dev/urandom of="$W/data.512m" bs=1M count=512 oflag=direct status=none || { echo "bench: cannot write $W" >&2; exit 1; }

for ((round = 1; round <= ROUNDS; round++)); do
	# alternate who goes first, so neither always runs on a warmer cache
	if ((round % 2)); then order="fio iops"; else order="iops fio"; fi
	echo "bench: round $round/$ROUNDS ($order)"
	for b in null libaio psync startup ioping rss; do
		for tool in $order; do "bench_$b" "$tool"; done
	done
done

median() { tr ' ' '\n' | grep -E '^[0-9.]+$' | sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print ""; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
row() { # metric label target
	local f i ratio
	f=$(median <<<"${R[$1.fio]:-}") i=$(median <<<"${R[$1.iops]:-}")
	ratio=n/a
	[ -n "$f" ] && [ -n "$i" ] && ratio=$(awk -v a="$i" -v b="$f" 'BEGIN { if (b == 0) print "n/a"; else printf "%.2f", a / b }')
	printf '%-34s %14s %14s %8s   %s\n' "$2" "${f:-n/a}" "${i:-n/a}" "$ratio" "$3"
}
echo
printf '%-34s %14s %14s %8s   %s\n' "metric (median of $ROUNDS)" "fio 3.33" "iops" "iops/fio" "target"
row null_iops "null 4k randread IOPS (1 core)" ">= 2.00"
row aio_iops "libaio QD32 4k randread IOPS" "0.95-1.05"
row aio_cpu_ns "libaio CPU ns per I/O (usr+sys)" "<= 0.70"
row psync_iops "psync QD1 4k randread IOPS" ""
row psync_p50_us "psync QD1 clat p50 (us)" ""
row psync_p99_us "psync QD1 clat p99 (us)" ""
row startup_us "one-I/O run, exec to exit (us)" "lower is better"
for s in "${seeds[@]}"; do
	name=${s%%|*}
	row "rss_kib_$name" "peak PSS KiB, $name" "<= 0.25"
done
row ioping_avg_us "ioping -c 20 -i 0: avg (us)" ""
row ioping_mdev_us "ioping -c 20 -i 0: mdev (us)" ""
echo "bench: load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
"$here/plot.sh" "$IOPS"
echo
echo "raw samples:"
for k in $(printf '%s\n' "${!R[@]}" | sort); do printf '  %-28s %s\n' "$k" "${R[$k]}"; done
echo
"$here/remote.sh" "$IOPS" || echo "bench: the client/server figures failed"
echo
# iops compare's own figures (no fio counterpart)
"$here/compare.sh" "$IOPS"
