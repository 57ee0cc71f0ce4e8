#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# e2e: early (one of the longest: started first, so that no long script is left running alone at the end)
# iops --server: what a server refuses and what it survives, on loopback addresses. A token
# server refuses a client without the token (message on both sides) and serves one with it;
# jobs naming a path outside the served directory (absolute, '..', a symbolic link out, a
# device) are refused and create nothing; garbage bytes, an HTTP request, a frame of an
# absurd length and a bad version on the port end that connection only; a client killed
# mid-run: the server keeps serving and the run's files are gone; SIGTERM mid-run: the server
# exits 0 and removes them; --server-runs=N exits 0 after N sessions; --daemonize writes its
# pid file (never over an existing file) and removes it; --device lends one block device (a
# loop device on a file) and no other; sock:PATH; bad server arguments.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/remote_common.sh"

A=127.0.0.2
PORT=$(pick_port $A 127.0.0.3)
S=$T/srv
small_job "$T/job.fio"
client() { "$IOPS" --client="$A,$PORT" "$@"; }

# 1. token: refused without it, on both ends; served with it
IOPS_SERVER_TOKEN=s3cret-token start_server tok "$S" --server=ip:$A,$PORT
client "$T/job.fio" >"$T/c1.out" 2>"$T/c1.err" && fail "token: a client without the token was served"
grep -q 'refused: bad or missing token (IOPS_SERVER_TOKEN)' "$T/c1.err" || fail "token: client message: $(cat "$T/c1.err")"
wait_for grep -q 'refused: bad or missing token' "$T/tok.log" || fail "token: no refusal on the server's stderr: $(cat "$T/tok.log")"
IOPS_SERVER_TOKEN=wrong client "$T/job.fio" >/dev/null 2>"$T/c2.err" && fail "token: a wrong token was served"
IOPS_SERVER_TOKEN=s3cret-token client "$T/job.fio" >"$T/c3.out" 2>"$T/c3.err" || fail "token: the right token refused: $(cat "$T/c3.err")"
grep -q '^randread: (groupid=0, jobs=2)' "$T/c3.out" || fail "token: no report: $(head -20 "$T/c3.out")"
wait_for dir_empty "$S" || fail "token run: files left: $(ls -A "$S")"
case_ran
stop_servers

# 2. confinement: nothing outside the served directory, nothing created anywhere
mkdir -p "$T/outside"
ln -s "$T/outside" "$S/link-out"
start_server conf "$S" --server=ip:$A,$PORT
refuse() {	# refuse LABEL MESSAGE JOBLINES...
	local label=$1 msg=$2
	shift 2
	printf '[r]\nrw=write\nsize=1m\n' >"$T/r.fio"
	for l in "$@"; do printf '%s\n' "$l" >>"$T/r.fio"; done
	client "$T/r.fio" >"$T/r.out" 2>"$T/r.err" && fail "$label: the job ran"
	grep -q "$msg" "$T/r.err" || fail "$label: message: $(cat "$T/r.err")"
	[ -z "$(ls -A "$T/outside")" ] || fail "$label: created $(ls -A "$T/outside")"
	[ "$(ls -A "$S")" = link-out ] || fail "$label: the served directory holds $(ls -A "$S")"
	case_ran
}
refuse absolute "filename '$T/outside/f' is outside the served directory" "filename=$T/outside/f"
refuse dotdot "is outside the served directory" "filename=../outside/f"
refuse directory "is outside the served directory" "directory=$T/outside"
refuse symlink "leads (by a symbolic link) outside the served directory" "filename=link-out/f"
refuse device "is a device: a server lends only its --device" "filename=/dev/null" "rw=read"
refuse exec "exec_prerun/exec_postrun is not allowed on a server" "filename=f" "exec_prerun=touch $T/outside/x"
refuse log "write_bw_log is not allowed on a server" "filename=f" "write_bw_log=bw"
refuse include "not allowed in a job sent to a server" "include /etc/hostname"
refuse iolog "read_iolog is not allowed on a server" "read_iolog=/etc/passwd"
client --output=/tmp/nope "$T/job.fio" >/dev/null 2>&1	# the client's own option: fine
printf '[o]\nrw=read\nsize=1m\n' >"$T/o.fio"
client --inflate-log=/etc/passwd "$T/o.fio" >"$T/o.out" 2>"$T/o.err" && fail "--inflate-log ran on the server"
grep -q "option '--inflate-log=/etc/passwd' is not allowed on a server" "$T/o.err" || fail "inflate-log: $(cat "$T/o.err")"
grep -q root: "$T/o.out" && fail "inflate-log: /etc/passwd reached the client"
case_ran
rm -f /tmp/nope
rm "$S/link-out"

# 3. garbage on the port ends that connection only
python3 - "$A" "$PORT" <<'PY'
import os, socket, struct, sys, time
a, p = sys.argv[1], int(sys.argv[2])
def send(b, wait=True):
    s = socket.create_connection((a, p), timeout=15)
    got = b""
    try:
        s.sendall(b)
        s.shutdown(socket.SHUT_WR)
        while wait:
            d = s.recv(4096)
            if not d:
                break
            got += d
    except OSError:
        pass
    s.close()
    return got
send(os.urandom(4096))
send(b"GET / HTTP/1.0\r\n\r\n")
send(b"IOPS" + struct.pack(">HHI", 1, 1, 0xFFFFFFF0))        # an absurd length
send(b"IOPS" + struct.pack(">HHI", 7, 1, 0))                 # another version
send(b"IOPS" + struct.pack(">HHI", 1, 1, 3) + b"\0v1" + b"IOPS" + struct.pack(">HHI", 1, 2, 9) + b"A\0\0\0\x40xx")  # a JOB cut short
send(b"IOPS\x00\x01", wait=True)                             # a header cut short
PY
client "$T/job.fio" >"$T/g.out" 2>"$T/g.err" || fail "after garbage: the server does not serve: $(cat "$T/g.err")"
grep -q "not an iops peer" "$T/conf.log" || fail "garbage: no line in the server's log"
grep -q "protocol version 7" "$T/conf.log" || fail "bad version: no line in the server's log"
kill -0 "$SERVER_PID" || fail "the server died of garbage"
case_ran

# 4. a client killed mid-run: the server keeps serving, the run's files are gone
printf '[long]\nioengine=psync\nrw=randread\nbs=4k\nsize=8m\ntime_based=1\nruntime=60\n' >"$T/long.fio"
"$IOPS" --client="$A,$PORT" "$T/long.fio" >/dev/null 2>&1 &
cpid=$!
wait_for test -e "$S/long.0.0" || fail "killed client: the job's file never appeared"
sleep 0.5
kill -9 "$cpid"
wait "$cpid" 2>/dev/null
wait_for dir_empty "$S" || fail "killed client: files left: $(ls -A "$S"); server: $(tail -5 "$T/conf.log")"
client "$T/job.fio" >/dev/null 2>"$T/k.err" || fail "after a killed client: $(cat "$T/k.err")"
case_ran

# 5. SIGTERM mid-run: exit 0, files removed
"$IOPS" --client="$A,$PORT" "$T/long.fio" >/dev/null 2>&1 &
cpid=$!
wait_for test -e "$S/long.0.0" || fail "SIGTERM: the job's file never appeared"
sleep 0.3
kill -TERM "$SERVER_PID"
wait "$SERVER_PID"
rc=$?
SERVER_PIDS=()
assert_eq "server exit on SIGTERM" 0 "$rc"
wait "$cpid" 2>/dev/null
dir_empty "$S" || fail "SIGTERM: files left: $(ls -A "$S")"
grep -q '^iops server: stopped' "$T/conf.log" || fail "SIGTERM: $(tail -3 "$T/conf.log")"
case_ran

# 6. --server-runs=2: exit 0 after two sessions (refused connections do not count)
start_server runs "$S" --server=ip:$A,$PORT --server-runs=2
python3 -c 'import socket,sys; s=socket.create_connection((sys.argv[1], int(sys.argv[2]))); s.sendall(b"junk"); s.close()' $A $PORT
client "$T/job.fio" >/dev/null 2>&1 || fail "runs: first session"
kill -0 "$SERVER_PID" || fail "runs: exited after one session"
client "$T/job.fio" >/dev/null 2>&1 || fail "runs: second session"
wait "$SERVER_PID"
assert_eq "--server-runs exit" 0 "$?"
SERVER_PIDS=()
grep -q 'done (--server-runs)' "$T/runs.log" || fail "runs: $(tail -2 "$T/runs.log")"
case_ran

# 7. --daemonize: the pid file, never over an existing file, removed at exit
echo keep >"$T/taken.pid"
"$IOPS" --server=ip:$A,$PORT --daemonize="$T/taken.pid" 2>"$T/d0.err" && fail "daemonize over an existing file"
assert_eq "existing pid file kept" keep "$(cat "$T/taken.pid")"
(cd "$S" && "$IOPS" --server=ip:$A,$PORT --daemonize="$T/d.pid" 2>"$T/d.err") || fail "daemonize: $(cat "$T/d.err")"
dpid=$(cat "$T/d.pid")
kill -0 "$dpid" || fail "daemonize: pid $dpid not running"
client "$T/job.fio" >/dev/null 2>"$T/d1.err" || fail "daemon: $(cat "$T/d1.err")"
kill -TERM "$dpid"
wait_for test ! -e "$T/d.pid" || fail "daemonize: pid file left"
wait_for eval '! kill -0 "$dpid" 2>/dev/null' || fail "daemon still running"
case_ran

# 8. sock:PATH
start_server sock "$S" --server=sock:"$T/iops.sock"
"$IOPS" --client=sock:"$T/iops.sock" "$T/job.fio" >"$T/u.out" 2>"$T/u.err" || fail "sock: $(cat "$T/u.err")"
grep -q '^randread: (groupid=0' "$T/u.out" || fail "sock: no report"
stop_servers
[ -e "$T/iops.sock" ] && fail "sock: the socket file was left"
case_ran

# 9. --device: the one block device a job may name, and no other
truncate -s 16m "$T/disk.img" "$T/disk2.img"
if loop_attach "$T/disk.img"; then
	dev=$LOOP
	# a second device the server does not lend: another loop device, else /dev/zero (a
	# character device: refused by the same check)
	dev2=$(losetup --find --show "$T/disk2.img" 2>/dev/null || echo /dev/zero)
	start_server dev "$S" --server=ip:$A,$PORT --device="$dev"
	printf '[d]\nioengine=psync\nrw=read\nbs=4k\nsize=4m\nfilename=%s\n' "$dev" >"$T/d.fio"
	client "$T/d.fio" >"$T/dv.out" 2>"$T/dv.err" || fail "--device: refused its own device: $(cat "$T/dv.err")"
	grep -q "io=4096KiB" "$T/dv.out" || fail "--device: $(grep READ "$T/dv.out")"
	printf '[d]\nioengine=psync\nrw=read\nbs=4k\nsize=4m\nfilename=%s\n' "$dev2" >"$T/d2.fio"
	client "$T/d2.fio" >/dev/null 2>"$T/dv2.err" && fail "--device: another device ($dev2) was used"
	grep -q "is a device: a server lends only its --device $dev" "$T/dv2.err" || fail "other device: $(cat "$T/dv2.err")"
	stop_servers
	losetup -d "$dev"
	[ "$dev2" != /dev/zero ] && losetup -d "$dev2"
	case_ran
else
	case_skip "--device: no loop device here ($PROBE_WHY)"
fi

# 10. bad server arguments: one line, exit 1, nothing listens
for bad in "--server=ip:$A,99999|bad port" "--server=ip:::1|not an IPv4 host" "--server=ip:$A,$PORT --server-runs=x|bad --server-runs" \
	"--server=ip:$A,$PORT --directory=$T/none|cannot serve directory" "--server=ip:$A,$PORT --device=/dev/null|not a block device" \
	"--server=ip:$A,$PORT --rw=read|is not a server option"; do
	IFS='|' read -r args msg <<<"$bad"
	# shellcheck disable=SC2086 # ARGS are words
	"$IOPS" $args 2>"$T/b.err" && fail "bad args '$args': exit 0"
	grep -q "$msg" "$T/b.err" || fail "bad args '$args': $(cat "$T/b.err")"
	[ "$(wc -l <"$T/b.err")" = 1 ] || fail "bad args '$args': more than one line"
done
case_ran
echo "t_server: $E2E_CASES_RUN cases"
