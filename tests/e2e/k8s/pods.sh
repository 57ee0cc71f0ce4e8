#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The pods of `iops k8s` as processes on one machine, for t_k8s.sh: run as
#   unshare -n -m bash pods.sh IOPS DIR
# in a network namespace of its own (only its loopback: the pods are 127.0.0.2 and up) and a
# mount namespace whose /etc/hosts and /etc/resolv.conf are DIR's (musl reads both), so the
# pods' names <name>-<index>.<name> resolve as in a cluster. Prints "ok: ...", "SKIP: ..."
# (a case that cannot run here) or "FAIL: ..." lines; exits 1 when a case failed.
set -u
IOPS=$1
D=$2
bad=0
say_fail() { echo "FAIL: $*"; bad=1; }

ip link set lo up || { echo "FAIL: no loopback in the network namespace"; exit 1; }
cat >"$D/hosts" <<'EOF'
127.0.0.1 localhost
127.0.0.1 d-0.d
127.0.0.2 t-0.t
127.0.0.3 t-1.t
127.0.0.4 t-2.t
127.0.0.5 u-0.u
127.0.0.6 b-0.b
127.0.0.7 s-0.s
127.0.0.8 s-1.s
EOF
printf 'nameserver 127.0.0.1\noptions timeout:1 attempts:1\n' >"$D/resolv.conf"	# nothing answers there
mount --bind "$D/hosts" /etc/hosts && mount --bind "$D/resolv.conf" /etc/resolv.conf ||
	{ echo "FAIL: cannot bind-mount /etc/hosts"; exit 1; }
export TMPDIR=$D/tmp
mkdir -p "$TMPDIR"

JOB="--name=j --rw=randread --bs=4k --size=4m --ioengine=psync --direct=1"

# pod NAME INDEX OUT ARGS...: one pod in the background (PID in $pid), stdout in OUT, stderr in OUT.err
pod() {
	local out=$3 idx=$2
	shift 3
	JOB_COMPLETION_INDEX=$idx timeout 120 "$IOPS" k8s-pod "$@" >"$out" 2>"$out.err" &
	pid=$!
}

# merged OUT HOSTS...: pod 0's json+ report has a client_stats entry per host and an exact All clients
merged() {
	python3 - "$@" <<'EOF'
import json, sys
out, hosts = sys.argv[1], sys.argv[2:]
text = open(out).read()
doc = json.loads(text[text.index('{'):text.rindex('}') + 1])
stats = doc['client_stats']
parts, total = stats[:-1], stats[-1]
assert total['jobname'] == 'All clients', total['jobname']
assert sorted(p['hostname'] for p in parts) == sorted(hosts), [p['hostname'] for p in parts]
for d in ('read', 'write'):
    for k in ('total_ios', 'io_bytes'):
        s = sum(p[d][k] for p in parts)
        assert total[d][k] == s, (d, k, total[d][k], s)
    bins = {}
    for p in parts:
        for b, n in p[d]['clat_ns'].get('bins', {}).items():
            bins[b] = bins.get(b, 0) + n
    assert total[d]['clat_ns'].get('bins', {}) == bins, d + ': the bins are not the sums'
assert total['read']['total_ios'] == 1024 * len(hosts), total['read']['total_ios']
print('%d servers, All clients read total_ios=%d, %d clat bins summed' %
      (len(parts), total['read']['total_ios'], len(total['read']['clat_ns'].get('bins', {}))))
EOF
}

# --- the manifest's own command line: one pod, its server on every address, its client of itself
mapfile -t ARGS < <(python3 - "$D/one.yaml" "$D/d0" <<'EOF'
import json, sys
lines, out, on = open(sys.argv[1]).read().split('\n'), [], False
for l in lines:
    if l == '          args:':
        on = True
    elif on and l.startswith('            - '):
        v = l[len('            - '):]
        v = json.loads(v) if v.startswith('"') else v
        out.append('--directory=' + sys.argv[2] if v == '--directory=/iops/data' else v)
    elif on:
        break
print('\n'.join(out[1:]))
EOF
)
mkdir -p "$D/d0"
pod d 0 "$D/d0.out" "${ARGS[@]}"
wait $pid
rc=$?
if [ $rc = 0 ] && merged "$D/d0.out" d-0.d >"$D/d0.check" 2>&1; then
	echo "ok: the manifest's k8s-pod command line, one pod: $(cat "$D/d0.check")"
else
	say_fail "one pod from the manifest's arguments (${ARGS[*]}): exit $rc; $(tail -3 "$D/d0.out.err"; cat "$D/d0.check" 2>/dev/null)"
fi
[ -z "$(ls -A "$D/d0")" ] || say_fail "one pod: left in its volume: $(ls -A "$D/d0")"

# --- three pods: pod 0 starts first (its client waits for the others), json+ merged exactly
COMMON="--pods=3 --name=t --wait=30 --runs=1 --output-format=json+"
mkdir -p "$D/t0" "$D/t1" "$D/t2"
pod t 0 "$D/t0.out" $COMMON --listen=127.0.0.2 --directory="$D/t0" -- $JOB
p0=$pid
sleep 1
pod t 1 "$D/t1.out" $COMMON --listen=127.0.0.3 --directory="$D/t1"
p1=$pid
pod t 2 "$D/t2.out" $COMMON --listen=127.0.0.4 --directory="$D/t2"
p2=$pid
wait $p0; r0=$?
wait $p1; r1=$?
wait $p2; r2=$?
if [ "$r0$r1$r2" = 000 ] && merged "$D/t0.out" t-0.t t-1.t t-2.t >"$D/t.check" 2>&1; then
	echo "ok: three pods, pod 0 the client of all: $(cat "$D/t.check")"
else
	say_fail "three pods: exit $r0 $r1 $r2; $(tail -3 "$D/t0.out.err"; cat "$D/t.check" 2>/dev/null)"
fi
for i in 0 1 2; do
	[ -z "$(ls -A "$D/t$i")" ] || say_fail "pod $i left in its volume: $(ls -A "$D/t$i")"
	[ ! -s "$D/t$i.out" ] || [ $i = 0 ] || say_fail "pod $i printed on stdout: $(head -2 "$D/t$i.out")"
done
[ -z "$(ls -A "$TMPDIR")" ] || say_fail "left in TMPDIR: $(ls -A "$TMPDIR")"

# --- pod 0 gives up on a name that never resolves (bounded), and stops its own server
start=$(date +%s)
pod u 0 "$D/u0.out" --pods=2 --name=u --wait=2 --listen=127.0.0.5 --directory="$D/t0" -- $JOB
wait $pid
rc=$?
secs=$(($(date +%s) - start))
if [ $rc = 1 ] && grep -q "u-1.u does not resolve after 2 s" "$D/u0.out.err" && [ $secs -le 15 ] && [ ! -s "$D/u0.out" ]; then
	echo "ok: a pod that never resolves: pod 0 exits 1 after ${secs} s ($(grep -m1 'does not resolve' "$D/u0.out.err"))"
else
	say_fail "unresolved pod: exit $rc after $secs s; $(tail -3 "$D/u0.out.err")"
fi

# --- a server that never gets a client stops after 2 x wait + 10 s
start=$(date +%s)
pod t 1 "$D/idle.out" --pods=3 --name=t --wait=1 --listen=127.0.0.3 --directory="$D/t1"
wait $pid
rc=$?
secs=$(($(date +%s) - start))
if [ $rc = 1 ] && grep -q "no client has been connected to this pod's server for 12 s" "$D/idle.out.err" &&
	[ $secs -ge 12 ] && [ $secs -le 30 ]; then
	echo "ok: a server without a client stops: exit 1 after ${secs} s"
else
	say_fail "idle server: exit $rc after $secs s; $(tail -3 "$D/idle.out.err")"
fi

# --- a stop (SIGTERM: the pod deleted) reaches the server at once
mkdir -p "$D/k1"
pod t 1 "$D/stop.out" --pods=3 --name=t --wait=30 --listen=127.0.0.3 --directory="$D/k1"
for _ in $(seq 50); do	# until its server listens
	ss -Hltn 'src 127.0.0.3:8765' 2>/dev/null | grep -q . && break
	sleep 0.1
done
start=$(date +%s%N)
kill -TERM $pid
wait $pid
rc=$?
ms=$((($(date +%s%N) - start) / 1000000))
if [ $ms -le 5000 ] && ! ss -Hltn 'src 127.0.0.3:8765' | grep -q . && grep -q 'listening on 127.0.0.3' "$D/stop.out.err"; then
	echo "ok: SIGTERM to a pod: gone in $ms ms (exit $rc), its server with it"
else
	say_fail "SIGTERM: $ms ms, exit $rc, still listening: $(ss -Hltn 'src 127.0.0.3:8765'); $(tail -2 "$D/stop.out.err")"
fi

# --- a Block pod on a loop device: the client's jobs get --filename=DEVICE --allow_overwrite=1
img=$D/block.img
truncate -s 64M "$img"
# PODS_LOOP_WHY (t_k8s.sh, from probe loop): empty where the kernel gives a loop device
if [ -n "${PODS_LOOP_WHY-x}" ]; then
	echo "SKIP: Block pod: no loop device here (${PODS_LOOP_WHY:-not probed: run through t_k8s.sh})"
elif ! loop=$(losetup -f --show "$img" 2>"$D/losetup.err"); then
	say_fail "Block pod: losetup failed where the probe found a free loop device: $(head -1 "$D/losetup.err")"
else
	pod b 0 "$D/b0.out" --pods=1 --name=b --wait=20 --listen=127.0.0.6 --device="$loop" --output-format=json+ -- \
		--name=blk --rw=randwrite --bs=4k --size=4m --ioengine=psync --direct=1
	wait $pid
	rc=$?
	if [ $rc = 0 ] && python3 - "$D/b0.out" "$loop" >"$D/b.check" 2>&1 <<'EOF'
import json, sys
text = open(sys.argv[1]).read()
doc = json.loads(text[text.index('{'):text.rindex('}') + 1])
job = doc['client_stats'][0]
assert job['write']['total_ios'] == 1024, job['write']['total_ios']
assert job['job options'].get('filename') in (None, sys.argv[2]), job['job options']
print('write total_ios=%d on %s' % (job['write']['total_ios'], sys.argv[2]))
EOF
	then
		echo "ok: a Block pod: $(cat "$D/b.check")"
	else
		say_fail "Block pod on $loop: exit $rc; $(tail -3 "$D/b0.out.err"; cat "$D/b.check" 2>/dev/null)"
	fi
	losetup -d "$loop"
fi

# --- a config.file: pod 0 runs `iops sweep CONFIG --client=HOSTS` across the pods
{
	printf 'server=2\nrw=randread\nbs=4k 8k\nsize=4m\nioengine=psync\nnumjobs=1\n' >"$D/config.file"
	mkdir -p "$D/s0" "$D/s1"
	pod s 0 "$D/s0.out" --pods=2 --name=s --wait=30 --runs=1 --listen=127.0.0.7 --directory="$D/s0" \
		--sweep="$D/config.file"
	ps0=$pid
	pod s 1 "$D/s1.out" --pods=2 --name=s --wait=30 --runs=1 --listen=127.0.0.8 --directory="$D/s1"
	ps1=$pid
	wait $ps0; r0=$?
	wait $ps1; r1=$?
	if [ "$r0$r1" = 00 ] && [ "$(grep -c 'All clients' "$D/s0.out")" -ge 2 ]; then
		echo "ok: a sweep across two pods: $(grep -c 'All clients' "$D/s0.out") All clients blocks"
	else
		say_fail "sweep pods: exit $r0 $r1; $(tail -3 "$D/s0.out.err")"
	fi
}
exit $bad
