#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# iops --client: three servers on 127.0.0.2-.4 and one client, as fio's client/server runs.
# Normal output: the servers' hostname= lines, their <host>-prefixed header lines, one report
# per server, then All clients with its percentile block (jobs= counts every job); json+:
# client_stats with hostname and port per server and All clients, whose total_ios, io_bytes
# and every clat bin are the sums of the servers' and whose percentiles are those of the
# summed bins (merge_check.py); the start spread (first to last job_start) is printed, never a
# threshold; terse: a line per server's job, then All clients; json; each --client with its
# own job; --client-wait (a server that starts late); a server that never answers and one
# that never becomes ready are reported and left out; `iops merge --output-format=terse`; the
# shape of the normal output against the real fio's client and servers (127.0.0.5, .6).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/remote_common.sh"
command -v jq >/dev/null || missing_prereq "jq is required"

ADDRS=(127.0.0.2 127.0.0.3 127.0.0.4)
PORT=$(pick_port "${ADDRS[@]}" 127.0.0.5 127.0.0.6)
small_job "$T/job.fio"
{
	echo "# three iops servers"
	for a in "${ADDRS[@]}"; do echo "$a,$PORT   # one of them"; done
	echo
} >"$T/hosts"
for i in 0 1 2; do start_server "s$i" "$T/d$i" --server=ip:${ADDRS[$i]},$PORT; done

# 1. normal
"$IOPS" --client="$T/hosts" "$T/job.fio" >"$T/n.out" 2>"$T/n.err" || fail "normal: exit $?: $(cat "$T/n.err")"
[ "$(grep -c '^hostname=.*, be=0, 64-bit, os=Linux, arch=.*, fio=fio-3.33, flags=1$' "$T/n.out")" = 3 ] || fail "normal: hostname= lines"
[ "$(grep -c '^<[^>]*> randread: (g=0): rw=randread, bs=(R) 4096B-4096B' "$T/n.out")" = 3 ] || fail "normal: header lines"
[ "$(grep -c '^<[^>]*> Starting 2 processes$' "$T/n.out")" = 3 ] || fail "normal: Starting lines"
[ "$(grep -c '^randread: (groupid=0, jobs=2): err= 0: pid=[1-9]' "$T/n.out")" = 3 ] || fail "normal: three reports with the job's pid"
[ "$(grep -c '^Run status group 0 (all jobs):' "$T/n.out")" = 3 ] || fail "normal: run status groups"
assert_match "All clients" '^All clients: \(groupid=0, jobs=6\): err= 0: pid=0: ' "$(grep '^All clients' "$T/n.out")"
sed -n '/^All clients/,$p' "$T/n.out" | grep -q '^    clat percentiles (usec):' || fail "normal: All clients without percentiles"
for i in 0 1 2; do wait_for dir_empty "$T/d$i" || fail "normal: files left on server $i: $(ls -A "$T/d$i")"; done
cp "$T/n.out" "$T/normal-sample.txt"
case_ran

# 2. json+: exact sums, bins and percentiles; the start spread
"$IOPS" --client="$T/hosts" --output-format=json+ "$T/job.fio" >"$T/j.json" 2>"$T/j.err" || fail "json+: exit $?: $(cat "$T/j.err")"
out=$(python3 "$(dirname "$0")/merge_check.py" "$T/j.json") || fail "merge_check: $out"
[ -z "$out" ] || fail "json+: All clients is not the exact sum: $out"
[ "$(jq -r '[.client_stats[:-1][] | "\(.hostname),\(.port)"] | join(" ")' "$T/j.json")" = \
	"${ADDRS[0]},$PORT ${ADDRS[1]},$PORT ${ADDRS[2]},$PORT" ] || fail "json+: hostnames $(jq -c '[.client_stats[].hostname]' "$T/j.json")"
[ "$(jq '[.client_stats[:-1][].read.total_ios] | add' "$T/j.json")" = "$(jq '.client_stats[-1].read.total_ios' "$T/j.json")" ] ||
	fail "json+: total_ios"
spread=$(jq '[.client_stats[:-1][].job_start] | max - min' "$T/j.json")
[ "$spread" -ge 0 ] 2>/dev/null || fail "json+: no job_start: $(jq -c '[.client_stats[].job_start]' "$T/j.json")"
echo "start spread of 3 servers (first to last job_start): $spread ms"
case_ran

# 3. terse: a line per server's job, then All clients
"$IOPS" --client="$T/hosts" --output-format=terse "$T/job.fio" >"$T/t.out" 2>"$T/t.err" || fail "terse: $(cat "$T/t.err")"
[ "$(wc -l <"$T/t.out")" = 4 ] || fail "terse: $(wc -l <"$T/t.out") lines"
assert_eq "terse: jobs" "randread,randread,randread,All clients" "$(cut -d';' -f3 "$T/t.out" | paste -sd,)"
tail -1 "$T/t.out" | grep -q '^3;fio-3.33;All clients;' || fail "terse: All clients is not last"
sum=$(head -3 "$T/t.out" | awk -F';' '{s += $6} END {print s}')	# read io (KiB)
assert_eq "terse: All clients' read KiB" "$sum" "$(tail -1 "$T/t.out" | cut -d';' -f6)"
case_ran

# 4. json: client_stats without bins, hostname and port, All clients last
"$IOPS" --client="$T/hosts" --output-format=json "$T/job.fio" >"$T/p.json" 2>"$T/p.err" || fail "json: $(cat "$T/p.err")"
assert_eq "json entries" 4 "$(jq '.client_stats | length' "$T/p.json")"
assert_eq "json last" "All clients" "$(jq -r '.client_stats[-1].jobname' "$T/p.json")"
assert_eq "json bins" 0 "$(jq '[.client_stats[].read.clat_ns.bins // empty] | length' "$T/p.json")"
case_ran

# 5. each --client with its own job
printf '[seqr]\nioengine=psync\nrw=read\nbs=64k\nsize=2m\n' >"$T/a.fio"
"$IOPS" --output-format=json+ --client=${ADDRS[0]},$PORT "$T/a.fio" --client=${ADDRS[1]},$PORT --name=w --rw=write \
	--ioengine=psync --bs=4k --size=1m --filename=wfile >"$T/e.json" 2>"$T/e.err" || fail "own jobs: $(cat "$T/e.err")"
assert_eq "own jobs" "seqr w All clients" "$(jq -r '[.client_stats[].jobname] | join(" ")' "$T/e.json")"
assert_eq "own jobs: bytes" $((2 * 1048576 + 1048576)) "$(jq '.client_stats[-1].read.io_bytes + .client_stats[-1].write.io_bytes' "$T/e.json")"
case_ran

# 6. --client-wait: the client starts before the server
stop_servers
"$IOPS" --client-wait=20 --client="$T/hosts" --output-format=json "$T/job.fio" >"$T/w.json" 2>"$T/w.err" &
cpid=$!
sleep 1
for i in 0 1 2; do start_server "w$i" "$T/d$i" --server=ip:${ADDRS[$i]},$PORT; done
wait "$cpid" || fail "--client-wait: exit $?: $(cat "$T/w.err")"
assert_eq "--client-wait entries" 4 "$(jq '.client_stats | length' "$T/w.json")"
case_ran

# 7. a server that never answers, and one that never becomes READY: reported, left out
FAKE=127.0.0.5
python3 - "$FAKE" "$PORT" "$T/fake.ready" >"$T/fake.log" 2>&1 <<'PY' &
import socket, struct, sys, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind((sys.argv[1], int(sys.argv[2]))); s.listen(4); s.settimeout(30)
open(sys.argv[3], "w").close()
c, _ = s.accept()
def frame():
    h = c.recv(12, socket.MSG_WAITALL)
    n = struct.unpack(">I", h[8:12])[0]
    return h, c.recv(n, socket.MSG_WAITALL) if n else b""
frame()
b = b"fake\0x86_64\0v"
c.sendall(b"IOPS" + struct.pack(">HHI", 1, 1, len(b)) + b)
frame()               # the JOB: never READY
time.sleep(8)
PY
fpid=$!
wait_for test -e "$T/fake.ready" || fail "the fake server did not start: $(cat "$T/fake.log")"
"$IOPS" --client-wait=1 --client-ready-wait=2 --output-format=json --client=${ADDRS[0]},$PORT "$T/job.fio" \
	--client=127.0.0.6,$PORT "$T/job.fio" --client=$FAKE,$PORT "$T/job.fio" >"$T/l.json" 2>"$T/l.err" &&
	fail "left out: exit 0"
grep -q "127.0.0.6,$PORT: cannot connect to .*(left out)" "$T/l.err" || fail "unreachable: $(cat "$T/l.err")"
grep -q "$FAKE,$PORT: not ready in time (--client-ready-wait): left out" "$T/l.err" || fail "not ready: $(cat "$T/l.err")"
assert_eq "left out: entries" 2 "$(jq '.client_stats | length' "$T/l.json")"
kill "$fpid" 2>/dev/null
wait "$fpid" 2>/dev/null
case_ran

# 8. iops merge --output-format=terse: a line per input's job, then All clients
for i in 0 1; do (cd "$T/d$i" && "$IOPS" fio "$T/job.fio" --output-format=json+ >"$T/m$i.json" && rm -f randread.*); done
"$IOPS" merge --output-format=terse "$T/m0.json" "$T/m1.json" >"$T/m.out" 2>"$T/m.err" || fail "merge terse: $(cat "$T/m.err")"
assert_eq "merge terse lines" "randread randread All clients" "$(cut -d';' -f3 "$T/m.out" | tr '\n' ' ' | sed 's/ $//')"
case_ran

# 9. the shape against the real fio's client/server output
if [ -x "${REF_FIO:-/usr/bin/fio}" ] && [ "$("${REF_FIO:-/usr/bin/fio}" --version)" = fio-3.33 ]; then
	REF_FIO=${REF_FIO:-/usr/bin/fio}
	mkdir -p "$T/f5" "$T/f6"
	(cd "$T/f5" && exec "$REF_FIO" --server=ip:127.0.0.5,$PORT >"$T/f5.log" 2>&1) &
	f5=$!
	(cd "$T/f6" && exec "$REF_FIO" --server=ip:127.0.0.6,$PORT >"$T/f6.log" 2>&1) &
	f6=$!
	printf '127.0.0.5,%s\n127.0.0.6,%s\n' "$PORT" "$PORT" >"$T/fhosts"
	small_job "$T/fjob.fio" "directory=$T/f5"
	sleep 1
	timeout 60 "$REF_FIO" --client="$T/fhosts" "$T/fjob.fio" >"$T/fio.out" 2>"$T/fio.err"
	frc=$?
	kill "$f5" "$f6" 2>/dev/null
	wait "$f5" "$f6" 2>/dev/null
	if [ "$frc" = 0 ]; then
		printf '%s,%s\n%s,%s\n' "${ADDRS[0]}" "$PORT" "${ADDRS[1]}" "$PORT" >"$T/hosts2"
		"$IOPS" --client="$T/hosts2" "$T/job.fio" >"$T/ours.out" 2>"$T/ours.err" || fail "shape: ours: $(cat "$T/ours.err")"
		# fio's status line ("Jobs: 4 (f=4): [r(2)][50.0%][...]") shares lines with the report
		# (before a <host> line or a report's first line); header lines interleave
		# as the servers send them (sorted here); fio's All clients has no percentile block and
		# prints BW=...Mi (...M); the lat (x) distribution lines, number widths and k/M
		# suffixes depend on the numbers
		shape() {
			tr -d '\r' <"$1" | sed -E $'s/\x1b\\[[0-9;]*[A-Za-z]//g; s/Jobs: [0-9]+ \\([^)]*\\)(: (\\[[^]]*\\])+)?//g' | sed -E 's/[0-9]+(\.[0-9]+)?/N/g; s/ +/ /g' |
				sed -E 's/BW=NMi \(NM\)/BW=NMiB\/s (NMB\/s)/; s/BW=N(Ki|Mi|Gi)?B\/s \(N[kMG]?B\/s\)/BW=NB\/s (NB\/s)/' |
				sed -E 's/N(Ki|Mi|Gi|k|M|G)?B/NB/g; s/\((usec|msec|nsec)\)/(U)/g; s/= N/=N/g; s/=N[kMG]([,( ]|$)/=N\1/g' |
				awk '/^All clients/ {all = 1} all && (/percentiles/ || /^ ?\|/) {next} /^ ?lat \(U\) ?:/ {next} /^ ?\| / {next} {print}' |
				awk '/^<[^>]*>/ {h[++n] = $0; next} {print} END {}' >"$1.body"
			grep '^<[^>]*>' "$1" | sed -E 's/^<[^>]*>/<H>/; s/[0-9]+(\.[0-9]+)?/N/g' | grep -v '^<H> *$' | sort >"$1.head"
		}
		shape "$T/fio.out"
		shape "$T/ours.out"
		diff -u "$T/fio.out.head" "$T/ours.out.head" >"$T/h.diff" || fail "shape: header lines differ from fio's: $(cat "$T/h.diff")"
		diff -u "$T/fio.out.body" "$T/ours.out.body" >"$T/b.diff" || fail "shape: reports differ from fio's: $(cat "$T/b.diff")"
		case_ran
	else
		case_skip "the real fio's client/server run failed here (exit $frc): $(head -3 "$T/fio.err")"
	fi
else
	skip_note "reference fio 3.33 not found: no shape comparison"
fi
echo "t_client: $E2E_CASES_RUN cases"
