#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The client/server figures of make bench (tests/bench/run.sh calls it; figures, never a
# threshold): the start spread of five servers on 127.0.0.2-.6 (first to last job_start of a
# client run, BENCH_ROUNDS runs, goal under 5 ms), `iops merge` of 100 json+ results (wall
# time, goal under 1 s), and a server's resident memory while idle (VmRSS, /proc).
# Usage: tests/bench/remote.sh [path/to/iops]
set -u
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
bin_arg=${1:-$repo/build/iops}
IOPS=$(cd "$(dirname "$bin_arg")" && pwd)/$(basename "$bin_arg")
ROUNDS=${BENCH_ROUNDS:-3}
W=$(mktemp -d "$(dirname "$IOPS")/bench-remote.XXXXXX")
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; rm -rf "$W"' EXIT
free_port() { python3 -c 'import socket,sys
for a in sys.argv[2:]:
    s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try: s.bind((a, int(sys.argv[1])))
    except OSError: sys.exit(1)' "$@"; }
port=$((30000 + $$ % 20000))
while ! free_port "$port" 127.0.0.2 127.0.0.3 127.0.0.4 127.0.0.5 127.0.0.6; do port=$((port + 1)); done
: >"$W/hosts"
for i in 2 3 4 5 6; do
	mkdir -p "$W/s$i"
	(cd "$W/s$i" && exec "$IOPS" --server=ip:127.0.0.$i,$port 2>"$W/s$i.log") &
	pids+=($!)
	echo "127.0.0.$i,$port" >>"$W/hosts"
done
sleep 0.5
printf '[global]\nioengine=psync\nbs=4k\nsize=4m\nruntime=1\ntime_based=1\n[r]\nrw=randread\n' >"$W/job.fio"
spreads=()
for ((r = 1; r <= ROUNDS; r++)); do
	"$IOPS" --client="$W/hosts" --output-format=json+ "$W/job.fio" >"$W/c.json" 2>"$W/c.err" || { cat "$W/c.err"; continue; }
	spreads+=("$(jq '[.client_stats[:-1][].job_start] | max - min' "$W/c.json")")
done
echo "remote: start spread of 5 servers (first to last job_start, ms): ${spreads[*]} (goal < 5)"
rss=$(awk '/^VmRSS/ {print $2}' "/proc/${pids[0]}/status")
echo "remote: a server's resident memory while idle: ${rss} KiB (VmRSS)"
# 100 json+ results: one client document's per-server entries, as 100 files
(cd "$W/s2" && "$IOPS" fio --name=m --ioengine=null --size=64m --bs=4k --rw=randrw --numjobs=2 \
	--output-format=json+ >"$W/one.json" 2>/dev/null)
for i in $(seq 100); do cp "$W/one.json" "$W/m$i.json"; done
/usr/bin/time -f '%e %M' -o "$W/merge.time" "$IOPS" merge --output-format=json+ "$W"/m*.json >/dev/null 2>"$W/merge.err"
read -r secs kib <"$W/merge.time"
echo "remote: iops merge of 100 json+ results ($(($(stat -c %s "$W/one.json") / 1024)) KiB each): ${secs} s, peak RSS ${kib} KiB (goal < 1 s)"
