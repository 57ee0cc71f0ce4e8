# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# Helpers of the client/server tests (t_server.sh, t_client.sh, t_sweep_remote.sh). Source it
# after lib.sh. Servers listen on loopback addresses 127.0.0.2, .3 ... only, on a port derived
# from the script's PID and checked free on every address used, so that runs never collide.
command -v python3 >/dev/null || missing_prereq "python3 is required"

# port_free ADDR PORT: nothing listens there (a bind succeeds)
port_free() {
	python3 -c 'import socket,sys
s=socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
try: s.bind((sys.argv[1], int(sys.argv[2])))
except OSError: sys.exit(1)' "$1" "$2"
}
# pick_port ADDR...: a port free on every ADDR, from the PID, in 20000-59999
pick_port() {
	local p=$((20000 + ($$ * 7) % 40000)) tries=0 a ok
	while [ $tries -lt 200 ]; do
		ok=1
		for a in "$@"; do port_free "$a" "$p" || { ok=0; break; }; done
		[ $ok = 1 ] && { echo "$p"; return 0; }
		p=$((20000 + (p - 20000 + 1) % 40000))
		tries=$((tries + 1))
	done
	fail "no free port on $*"
}

SERVER_PIDS=()
# start_server NAME DIR ARGS...: iops --server ARGS in DIR (created), its stderr in
# $T/NAME.log; waits for its "listening" line. $! of it in SERVER_PID.
start_server() {
	local name=$1 dir=$2 i
	shift 2
	mkdir -p "$dir"
	(cd "$dir" && exec "$IOPS" "$@" 2>"$T/$name.log") &
	SERVER_PID=$!
	SERVER_PIDS+=("$SERVER_PID")
	for i in $(seq 100); do
		grep -q '^iops server: listening on' "$T/$name.log" 2>/dev/null && return 0
		kill -0 "$SERVER_PID" 2>/dev/null || fail "server $name did not start: $(cat "$T/$name.log")"
		sleep 0.05
	done
	fail "server $name: no listening line in 5 s"
}
# stop_servers: SIGTERM to the servers this script started, then wait for them
stop_servers() {
	local p
	for p in "${SERVER_PIDS[@]}"; do kill -TERM "$p" 2>/dev/null; done
	for p in "${SERVER_PIDS[@]}"; do wait "$p" 2>/dev/null; done
	SERVER_PIDS=()
}
_remote_exit() {
	local rc=$?
	stop_servers
	return $rc
}
trap '_remote_exit; _e2e_exit' EXIT

# wait_for CMD...: until CMD succeeds, 10 s at most (then false)
wait_for() {
	local i
	for i in $(seq 200); do "$@" && return 0; sleep 0.05; done
	return 1
}
# dir_empty DIR: DIR holds nothing
dir_empty() { [ -z "$(ls -A "$1")" ]; }

# a small job file: psync random reads, 4 MiB per job file, 1 s
small_job() {	# small_job FILE [EXTRA LINES...]
	local f=$1
	shift
	{
		printf '[global]\nioengine=psync\nbs=4k\nsize=4m\nruntime=1\ntime_based=1\n'
		printf '[randread]\nrw=randread\nnumjobs=2\ngroup_reporting=1\n'
		for l in "$@"; do printf '%s\n' "$l"; done
	} >"$f"
}
