#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Where libaio or io_uring cannot run (ENOSYS under qemu-user, EPERM from a seccomp profile),
# made so on this machine with tests/tools/seccomp_fail (build/tools/seccomp_fail):
#  - a fio job that names the engine fails as fio 3.33 does under the same filter (exit status,
#    fio's "err=N" line, nothing on stdout but the report), with one clear line naming the engine
#    and the errno; io_uring too;
#  - the quick suite and the presets, which choose libaio themselves, say in one line that they
#    fall back to psync, run psync with the depth as numjobs, and print the lines they ran, which
#    the real fio runs as they are; a preset given --ioengine by the user keeps it (and fails);
#  - without a filter, the same runs use libaio (the probe does not fall back for nothing).
. "$(dirname "$0")/fio_common.sh"
skip_if_fio "the fallback and its messages are iops' own" && exit 0

SF=$(tool seccomp_fail)
"$SF" io_setup:ENOSYS -- true 2>"$T/sf.err" || skip_script "seccomp filters cannot be loaded here: $(cat "$T/sf.err")"

LIBAIO_LINE='^fio: libaio is not available here \(io_setup: (Function not implemented, errno 38|Operation not permitted, errno 1)\): the kernel, an emulator \(qemu-user\) or a seccomp profile lacks it; use --ioengine=psync$'
URING_LINE='^fio: io_uring is not available here \(io_uring_setup: (Function not implemented, errno 38|Operation not permitted, errno 1)\): .*use --ioengine=libaio or psync$'

# --- 1. a job that names the engine, beside fio 3.33 under the same filter -----------------------
for rule in io_setup:ENOSYS io_setup:EPERM; do
	e=${rule#*:}
	n=38
	[ "$e" = EPERM ] && n=1
	for bin in iops fio; do
		d=$T/job.$bin.$e
		mkdir -p "$d"
		b=$IOPS
		[ $bin = fio ] && b=$REF_FIO
		(cd "$d" && "$SF" "$rule" -- "$b" --name=j --filename=f --size=1m --ioengine=libaio --rw=randread \
			--numjobs=2 >"$d.out" 2>"$d.err")
		echo $? >"$d.rc"
	done
	assert_eq "libaio $e: exit status as fio's" "$(cat "$T/job.fio.$e.rc")" "$(cat "$T/job.iops.$e.rc")"
	assert_eq "libaio $e: exit status" 2 "$(cat "$T/job.iops.$e.rc")"
	assert_eq "libaio $e: one clear line per job" 2 "$(grep -cE "$LIBAIO_LINE" "$T/job.iops.$e.err")"
	# fio's own error line (on stdout or stderr, as fio's buffering has it)
	assert_eq "fio 3.33 under $rule: err=$n lines" 2 "$(cat "$T/job.fio.$e.out" "$T/job.fio.$e.err" | grep -c "^fio: pid=[0-9]*, err=$n/")"
	assert_eq "libaio $e: fio's err=$n line per job" 2 "$(cat "$T/job.iops.$e.out" "$T/job.iops.$e.err" | grep -c "^fio: pid=[0-9]*, err=$n/")"
	grep -q 'Run status group 0' "$T/job.iops.$e.out" || fail "libaio $e: no report on stdout"
done
(cd "$T" && "$SF" io_uring_setup:ENOSYS -- "$IOPS" --name=u --filename=u --size=1m --ioengine=io_uring \
	--rw=randread >"$T/u.out" 2>"$T/u.err"); rc=$?
assert_eq "io_uring ENOSYS rc" 1 "$rc"
assert_eq "io_uring ENOSYS: the line" 1 "$(grep -cE "$URING_LINE" "$T/u.err")"

# --- 2. the quick suite: the fallback line, psync with the depth as numjobs, the lines it ran ------
FALLBACK='^iops: quick: libaio is not available here \(io_setup: Function not implemented, errno 38\): psync instead, the queue depth as numjobs$'
D=$T/quick
mkdir -p "$D"
"$SF" io_setup:ENOSYS -- "$IOPS" quick "$D" --runtime=1 --size=64m >"$T/q.out" 2>"$T/q.err" </dev/null; rc=$?
assert_eq "quick under ENOSYS: rc ($(cat "$T/q.err"))" 0 "$rc"
assert_eq "quick: the fallback line" 1 "$(grep -cE "$FALLBACK" "$T/q.err")"
assert_eq "quick: nothing else on stderr" 1 "$(wc -l <"$T/q.err")"
assert_match "quick: plan" "^iops quick: $D, test file iops-quick\\.[0-9]+\\.0 \\(64 MiB\\), 6 steps of 1 s, psync, " "$(head -1 "$T/q.out")"
for l in 'Max write bandwidth: ' 'Max read bandwidth: ' 'Write I/O latency: ' 'Read I/O latency: ' 'Max write throughput: ' 'Max read throughput: '; do
	grep -q "^$l" "$T/q.out" || fail "quick: no '$l' line"
done
jobs=$(($(nproc) < 4 ? $(nproc) : 4))
qd32=$((32 * jobs > 64 ? 64 : 32 * jobs))
assert_match "quick: the randread-qd32 row" $'\nrandread-qd32 +randread +4k +1 +'"$qd32"' ' "$(cat "$T/q.out")"
sed -n '/^Equivalent fio command lines:$/,$p' "$T/q.out" | tail -n +2 >"$T/q.lines"
assert_eq "quick: six command lines" 6 "$(grep -c '^fio --name=.* --ioengine=psync ' "$T/q.lines")"
grep -q -- '--iodepth' "$T/q.lines" && fail "quick: an iodepth in the psync lines: $(cat "$T/q.lines")"
grep -q -- "^fio --name=seqread .* --numjobs=16 --group_reporting " "$T/q.lines" || fail "quick: seqread is not 16 psync jobs"
grep -q -- "^fio --name=randwrite-qd32 .* --numjobs=$qd32 --group_reporting " "$T/q.lines" ||
	fail "quick: randwrite-qd32 is not $qd32 psync jobs"
assert_eq "quick: volume left empty" "" "$(ls -A "$D")"
# the real fio runs the printed line (the first step: it lays its file out, in fio's directory)
R=$T/quick.ref
mkdir -p "$R"
line=$(head -1 "$T/q.lines" | sed "s|--directory=$D|--directory=$R|")
eval "set -- $line"
shift
"$REF_FIO" "$@" >"$T/qref.out" 2>&1 || fail "fio 3.33 refused the quick suite's psync line: $(tail -3 "$T/qref.out")"
grep -q '^seqread: (groupid=0, jobs=16): err= 0' "$T/qref.out" || fail "fio 3.33: no seqread group of 16 jobs"

# JSON: the engine it ran
"$SF" io_setup:EPERM -- "$IOPS" quick "$D" --runtime=1 --size=64m --output-format=json >"$T/qj.out" 2>"$T/qj.err" </dev/null; rc=$?
assert_eq "quick json under EPERM: rc" 0 "$rc"
assert_eq "quick json: ioengine" psync "$(jq -r .ioengine "$T/qj.out")"
grep -qE '^iops: quick: libaio is not available here \(io_setup: Operation not permitted, errno 1\): psync instead' "$T/qj.err" ||
	fail "quick json: no fallback line on stderr: $(cat "$T/qj.err")"

# without a filter: libaio, no fallback line, where the kernel has libaio (probed); where it
# refuses io_setup itself, the fallback with the kernel's own errno
"$IOPS" quick "$D" --runtime=1 --size=64m --output-format=json >"$T/qn.out" 2>"$T/qn.err" </dev/null; rc=$?
assert_eq "quick json: rc" 0 "$rc"
if engine_refused libaio; then
	assert_eq "quick json without a filter, libaio refused by the kernel ($PROBE_WHY): ioengine" psync "$(jq -r .ioengine "$T/qn.out")"
	errno=$(grep -o 'errno [0-9]*' <<<"$PROBE_WHY" | tail -1)
	grep -q "^iops: quick: libaio is not available here (io_setup: .*, $errno): psync instead" "$T/qn.err" ||
		fail "quick: not the kernel's own refusal ($PROBE_WHY): $(cat "$T/qn.err")"
else
	assert_eq "quick json: ioengine" libaio "$(jq -r .ioengine "$T/qn.out")"
	grep -q 'not available' "$T/qn.err" && fail "quick: a fallback without a filter: $(cat "$T/qn.err")"
fi

# --- 3. the presets ----------------------------------------------------------------------------
P=$T/preset
mkdir -p "$P"
"$SF" io_setup:ENOSYS -- "$IOPS" iops "$P" --runtime=1 --ramp_time=0 --size=8m >"$T/p.out" 2>"$T/p.err" </dev/null; rc=$?
assert_eq "preset iops under ENOSYS: rc ($(cat "$T/p.err"))" 0 "$rc"
assert_match "preset: the fallback line" '^iops: iops: libaio is not available here \(io_setup: Function not implemented, errno 38\): psync instead, the queue depth as numjobs$' "$(head -1 "$T/p.err")"
line=$(sed -n 2p "$T/p.err")
assert_match "preset: the line it ran" "^fio --directory=$P --name=iops --ioengine=psync --rw=randread --bs=4k --numjobs=32 --size=10g " "$line"
grep -q '^iops: (groupid=0, jobs=1)' "$T/p.out" || fail "preset: no job report"
assert_eq "preset: 32 jobs reported" 32 "$(grep -c '^iops: (groupid=0, jobs=1)' "$T/p.out")"
assert_eq "preset: files removed" "" "$(ls -A "$P")"
# the user's engine is kept: the job fails with the engine's own line
"$SF" io_setup:ENOSYS -- "$IOPS" latency "$P" --ioengine=libaio --runtime=1 --ramp_time=0 --size=8m >"$T/pu.out" 2>"$T/pu.err" </dev/null; rc=$?
[ "$rc" != 0 ] || fail "preset with --ioengine=libaio under ENOSYS succeeded"
grep -q 'psync instead' "$T/pu.err" && fail "preset: fell back although the user named libaio"
assert_eq "preset --ioengine=libaio: the engine's line" 1 "$(grep -cE "$LIBAIO_LINE" "$T/pu.err")"
assert_eq "preset: files removed after the failure" "" "$(ls -A "$P")"
exit 0
