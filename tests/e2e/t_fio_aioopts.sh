#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The engine options of io_uring, libaio and pvsync2 against fio 3.33: fixedbufs,
# registerfiles, sqthread_poll, sqthread_poll_cpu, nonvectored, force_async, hipri, nowait
# (io_uring); nowait, userspace_reap (libaio); the pvsync2 engine with hipri,
# hipri_percentage, nowait.
#
# - Size-bound jobs move exactly fio's totals with each option, and fail where fio fails with
#   fio's error (nowait on pages that are not cached: EAGAIN; hipri on a device without poll
#   queues, or on buffered I/O: EOPNOTSUPP), with fio's io_u error line.
# - strace shows the same system-call side as fio: io_uring_setup's SQPOLL / SQ_AFF /
#   sq_thread_cpu / IOPOLL, the buffers and files io_uring_register registers, RWF_NOWAIT on
#   every libaio iocb, RWF_HIPRI / RWF_NOWAIT on pvsync2's preadv2 / pwritev2 calls (all of
#   them, or a share with hipri_percentage). (The opcodes inside the ring, READ_FIXED and
#   IOSQE_FIXED_FILE, are beyond strace: the unit tests show them by their effects.)
# - An option under an engine that does not take it, and bad values, fail before anything is
#   created, with exit status 1 as in fio.
# What the kernel offers is probed first (io_uring, its SQPOLL ring, registered buffers and
# files, libaio, O_DIRECT, NOWAIT on uncached pages, a buffered read on a polled ring): every
# pair runs and is compared with fio on any kernel; the checks of this kernel's own answers
# (no error, EAGAIN, EOPNOTSUPP, the strace'd setup) run where the capability is there or take
# the kernel's errno, and are counted skips where it is not.
. "$(dirname "$0")/fio_common.sh"

command -v strace >/dev/null || missing_prereq "strace is required (Debian package strace)"
FIO_PAR=${FIO_PAR:-4}

# have CAP [ARG]: kernel_has, remembered as have_CAP (1/0) and why_CAP for the skips
have() {
	local v=have_$1 w=why_$1
	if kernel_has "$@"; then printf -v "$v" 1; else printf -v "$v" 0; printf -v "$w" '%s' "$PROBE_WHY"; fi
	eval "[ \"\$$v\" = 1 ]"
}
# needs CASE CAP...: true when every CAP was found; otherwise a counted skip of CASE's own check
needs() {
	local c=$1 cap v w
	shift
	for cap in "$@"; do
		v=have_$cap w=why_$cap
		[ "${!v}" = 1 ] || { case_skip "$c: not checked against this kernel: $cap: ${!w}"; return 1; }
	done
}
mapfile -t cpus < <(allowed_cpus)
cpu0=${cpus[0]} cpu1=${cpus[1]:-${cpus[0]}}
have io_uring; have libaio; have odirect "$T"; have uring_fixedbufs; have uring_registerfiles
have uring_sqpoll "$cpu0"; have_sqpoll0=$have_uring_sqpoll why_sqpoll0=${why_uring_sqpoll:-}
have uring_sqpoll "$cpu1"; have_sqpoll1=$have_uring_sqpoll why_sqpoll1=${why_uring_sqpoll:-}
have nowait_uncached "$T"; have nowait_read "$T"
iopoll_err=0
kernel_has uring_iopoll_buffered "$T" || iopoll_err=${PROBE_ERRNO:-}

A="--name=a --size=512k --bs=4k --output-format=json"
U="$A --ioengine=io_uring --iodepth=8"
# the cases that read a file just laid out with NOWAIT (see their re-runs below)
declare -A NOWAIT_ARGS=([unowait_b]="$U --iodepth=1 --rw=randread --nowait=1"
	[anowait_b]="$A --ioengine=libaio --iodepth=1 --rw=read --nowait=1"
	[pv2nowait]="$A --ioengine=pvsync2 --rw=read --nowait=1")
par_run run_pair fixed $U --rw=randrw --direct=1 --fixedbufs --registerfiles
par_run run_pair sqpoll $U --rw=randread --direct=1 --sqthread_poll --sqthread_poll_cpu="$cpu0"
par_run run_pair vec $U --rw=randrw --nonvectored=0 --force_async=3
par_run run_pair novec $U --rw=write --nonvectored=1 --registerfiles=1 --fsync=7
par_run run_pair unowait $U --rw=randread --direct=1 --nowait=1
par_run run_pair unowait_b ${NOWAIT_ARGS[unowait_b]}
par_run run_pair uhipri $U --iodepth=1 --rw=randread --direct=1 --hipri
par_run run_pair uhipri_b $U --iodepth=1 --rw=randread --hipri=1
par_run run_pair anowait $A --ioengine=libaio --iodepth=8 --rw=randrw --direct=1 --nowait=1
par_run run_pair anowait_b ${NOWAIT_ARGS[anowait_b]}
par_run run_pair areap $A --ioengine=libaio --iodepth=8 --rw=randread --direct=1 --userspace_reap \
	--iodepth_batch_complete_min=0
par_run run_pair pv2 $A --ioengine=pvsync2 --rw=randrw --hipri --hipri_percentage=50
par_run run_pair pv2nowait ${NOWAIT_ARGS[pv2nowait]}
par_run run_pair pv2norm --name=a --size=1m --bs=64k --ioengine=pvsync2 --rw=write
par_wait
# Whether the pages of a file just laid out are still cached is the kernel's call (DONTNEED
# leaves a page it has not finished with): a NOWAIT case whose two runs disagree on EAGAIN (its
# status, or how many reads were served before it) is run again, twice at most, before it counts.
for c in "${!NOWAIT_ARGS[@]}"; do
	for _ in 1 2; do
		[ "$(rc_of "$c" ref)" = "$(rc_of "$c" ut)" ] &&
			[ "$(json_totals "$T/$c.ref.out")" = "$(json_totals "$T/$c.ut.out")" ] && break
		rm -rf "$T/$c.ref.d" "$T/$c.ut.d"
		# shellcheck disable=SC2086 # the arguments are words
		run_pair "$c" ${NOWAIT_ARGS[$c]}
	done
done

# totals (and the job's error) are fio's
for c in fixed sqpoll vec novec unowait unowait_b uhipri uhipri_b anowait anowait_b areap \
	pv2 pv2nowait; do
	assert_eq "$c: exit status" "$(rc_of $c ref)" "$(rc_of $c ut)"
	[ -n "$(json_totals "$T/$c.ref.out")" ] || { show_run $c ref; fail "$c: no report from fio"; }
	assert_eq "$c: totals" "$(json_totals "$T/$c.ref.out")" "$(json_totals "$T/$c.ut.out")"
	# the distinct lines: how many of the requests in flight fail before the job stops is the
	# kernel's timing, for fio too (all 8 of a depth, or 1, on a file system refusing them)
	assert_eq "$c: io_u error lines" "$(grep '^fio: io_u error' "$T/$c.ref.err" | sed 's/offset=[0-9]*/offset=N/' | sort -u)" \
		"$(grep '^fio: io_u error' "$T/$c.ut.err" | sed 's/offset=[0-9]*/offset=N/' | sort -u)"
	case_ran
done
# the jobs this kernel runs without an error (where it offers what they use)
declare -A NEEDS=([fixed]="io_uring odirect uring_fixedbufs uring_registerfiles" [sqpoll]="io_uring odirect sqpoll0"
	[vec]="io_uring" [novec]="io_uring uring_registerfiles" [unowait]="io_uring odirect nowait_read"
	[anowait]="libaio odirect nowait_read" [areap]="libaio odirect" [pv2]="")
for c in fixed sqpoll vec novec unowait anowait areap pv2; do
	# shellcheck disable=SC2086 # the capabilities are words
	needs "$c" ${NEEDS[$c]} || continue
	assert_eq "$c: no error" 0 "$(json_doc "$T/$c.ut.out" | jq '.jobs[0].error')"
done
# what the kernel refuses here, as it refuses it to fio: a read of pages not cached with
# NOWAIT (EAGAIN where the kernel drops the pages and honours NOWAIT: probed), a buffered read
# on a polled ring (the errno the kernel's own ring got: EOPNOTSUPP on Linux 6.x)
declare -A ENG=([unowait_b]=io_uring [anowait_b]=libaio [pv2nowait]=)
for c in unowait_b anowait_b pv2nowait; do
	# shellcheck disable=SC2086
	needs "$c" ${ENG[$c]} nowait_uncached || continue
	assert_eq "$c: EAGAIN (pages not cached)" 11 "$(json_doc "$T/$c.ut.out" | jq '.jobs[0].error')"
done
if needs uhipri_b io_uring; then
	assert_eq "uhipri_b: the kernel's answer to a buffered read on a polled ring" "$iopoll_err" \
		"$(json_doc "$T/uhipri_b.ut.out" | jq '.jobs[0].error')"
fi
assert_eq "pv2norm: exit status" 0 "$(rc_of pv2norm ut)"
assert_eq "pv2norm: header lines" "$(exact_lines <"$T/pv2norm.ref.out")" "$(exact_lines <"$T/pv2norm.ut.out")"
assert_match "pv2norm: engine name" "ioengine=pvsync2, iodepth=1" "$(head -1 "$T/pv2norm.ut.out")"

# ---- the system calls, under strace ----------------------------------------------------------
# traced NAME TRACE ARGS...: the job on both sides under strace -e trace=TRACE (-s 8: strace
# shows at most that many elements of an array, and iops submits up to iodepth iocbs at once)
traced() {
	local name=$1 trace=$2 side
	shift 2
	for side in ref ut; do
		FIO_WRAP="strace -f -qq -s 8 -o $T/$name.$side.strace -e trace=$trace" par_run run_one "$side" "$name" "$@"
	done
}
# setup_of FILE: the io_uring_setup flags that the options decide, and sq_thread_cpu
setup_of() {
	local flags cpu
	grep 'io_uring_setup(' "$1" | grep -v ') = -1 ' |	# fio retries with fewer flags
		grep -o 'io_uring_setup([0-9]*, {flags=[^,]*, sq_thread_cpu=[0-9a-fx]*' |
		sed -E 's/.*flags=([^,]*), sq_thread_cpu=(.*)/\1 \2/' |
		while read -r flags cpu; do
			echo "$(tr '|' '\n' <<<"$flags" | grep -E 'SQPOLL|SQ_AFF|IOPOLL' | tr '\n' ' ')cpu=$((cpu))"
		done
}
# registered FILE: what io_uring_register registered (not the probe): "WHAT COUNT" lines
registered() {
	grep -o 'io_uring_register([0-9]*, IORING_REGISTER_[A-Z]*, .*) = [0-9-]*' "$1" | grep -v PROBE |
		sed -E 's/io_uring_register\([0-9]+, IORING_REGISTER_([A-Z]+), .*, ([0-9]+)\) = (.*)/\1 \2 \3/'
}
# rwf FILE SYSCALL: "calls with-HIPRI with-NOWAIT"
rwf() {
	local all hipri nowait
	all=$(grep -c "$2(" "$1")
	hipri=$(grep "$2(" "$1" | grep -c RWF_HIPRI)
	nowait=$(grep "$2(" "$1" | grep -c RWF_NOWAIT)
	echo "$all $hipri $nowait"
}

T2="--name=a --size=512k --bs=4k --output-format=terse"
traced s_sqpoll io_uring_setup,io_uring_register $T2 --ioengine=io_uring --iodepth=4 --rw=randread --direct=1 \
	--sqthread_poll --sqthread_poll_cpu="$cpu1"
traced s_reg io_uring_setup,io_uring_register $T2 --ioengine=io_uring --iodepth=4 --rw=randread --direct=1 \
	--fixedbufs --registerfiles --nrfiles=3 --hipri
traced s_plain io_uring_setup,io_uring_register --name=a --size=64k --output-format=terse --ioengine=io_uring \
	--iodepth=4 --rw=randread
traced s_aio io_submit $T2 --ioengine=libaio --iodepth=4 --rw=randrw --direct=1 --nowait=1
traced s_pv2 preadv2,pwritev2 $T2 --ioengine=pvsync2 --rw=randrw --direct=1 --hipri --nowait=1
traced s_pv2pct preadv2,pwritev2 $T2 --ioengine=pvsync2 --rw=randread --hipri --hipri_percentage=30
par_wait
for c in s_sqpoll s_reg s_plain s_aio s_pv2 s_pv2pct; do
	assert_eq "$c: exit status" "$(rc_of $c ref)" "$(rc_of $c ut)"
	case_ran
done
# the rings the kernel made (a refused setup shows in no line): as fio's always, as asked where
# the kernel makes them
for c in s_sqpoll s_reg s_plain; do
	assert_eq "$c: setup as fio's" "$(setup_of "$T/$c.ref.strace")" "$(setup_of "$T/$c.ut.strace")"
	assert_eq "$c: registered as fio's" "$(registered "$T/$c.ref.strace")" "$(registered "$T/$c.ut.strace")"
done
if needs "sqthread_poll_cpu=$cpu1" io_uring odirect sqpoll1 uring_registerfiles; then
	assert_eq "sqthread_poll_cpu=$cpu1: setup" "IORING_SETUP_SQPOLL IORING_SETUP_SQ_AFF cpu=$cpu1" "$(setup_of "$T/s_sqpoll.ut.strace")"
	assert_eq "sqthread_poll: registers the file, as fio" "FILES 1 0" "$(registered "$T/s_sqpoll.ut.strace")"
fi
if needs "hipri, fixedbufs, registerfiles" io_uring odirect uring_fixedbufs uring_registerfiles; then
	assert_eq "hipri: setup" "IORING_SETUP_IOPOLL cpu=0" "$(setup_of "$T/s_reg.ut.strace")"
	assert_eq "fixedbufs, registerfiles" "BUFFERS 4 0
FILES 3 0" "$(registered "$T/s_reg.ut.strace")"
fi
if needs "plain io_uring setup" io_uring; then
	assert_eq "plain: setup" "cpu=0" "$(setup_of "$T/s_plain.ut.strace")"
	assert_eq "plain: registers nothing" "" "$(registered "$T/s_plain.ut.strace")"
fi
# libaio nowait: every iocb carries RWF_NOWAIT
nr_iocbs=$(grep -o 'aio_lio_opcode=' "$T/s_aio.ut.strace" | wc -l)
if needs "libaio nowait iocbs" libaio odirect nowait_read; then
	assert_eq "libaio nowait: 128 iocbs" 128 "$nr_iocbs"
	assert_eq "libaio nowait: RWF_NOWAIT on each" "$nr_iocbs" "$(grep -o 'aio_rw_flags=RWF_NOWAIT' "$T/s_aio.ut.strace" | wc -l)"
	# (where the kernel refuses the first iocb, fio submits it a second time as it ends)
	assert_eq "libaio nowait: as fio" "$(grep -o 'aio_rw_flags=RWF_NOWAIT' "$T/s_aio.ref.strace" | wc -l)" \
		"$(grep -o 'aio_rw_flags=RWF_NOWAIT' "$T/s_aio.ut.strace" | wc -l)"
fi
# pvsync2: flags on every call, a share of them with hipri_percentage
pv2_direct=1
needs "pvsync2 direct nowait calls" odirect nowait_read || pv2_direct=0
for s in ref ut; do
	if [ "$pv2_direct" = 1 ]; then
		read -r r rh rn <<<"$(rwf "$T/s_pv2.$s.strace" preadv2)"
		read -r w wh wn <<<"$(rwf "$T/s_pv2.$s.strace" pwritev2)"
		assert_eq "pvsync2 hipri nowait ($s): 128 calls" 128 $((r + w))
		assert_eq "pvsync2 hipri nowait ($s): both flags on each" "$r $w $r $w" "$rh $wh $rn $wn"
	fi
	read -r r rh rn <<<"$(rwf "$T/s_pv2pct.$s.strace" preadv2)"
	assert_eq "pvsync2 hipri_percentage ($s): 128 reads, none nowait" "128 0" "$r $rn"
	[ "$rh" -ge 20 ] && [ "$rh" -le 60 ] || fail "pvsync2 hipri_percentage=30 ($s): $rh of 128 with RWF_HIPRI"
done

# ---- refused before the run --------------------------------------------------------------------
P="--name=a --size=1m"
par_run run_pair w_psync $P --ioengine=psync --hipri
par_run run_pair w_libaio $P --ioengine=libaio --fixedbufs
par_run run_pair w_uring $P --ioengine=io_uring --hipri_percentage=20
par_run run_pair w_pvsync2 $P --ioengine=pvsync2 --userspace_reap
par_run run_pair b_pct $P --ioengine=pvsync2 --hipri --hipri_percentage=101
par_run run_pair b_nowait $P --ioengine=io_uring --nowait=2
par_run run_pair b_flag $P --ioengine=io_uring --fixedbufs=yes
par_run run_pair b_nonvec $P --ioengine=io_uring --nonvectored=abc
par_run run_pair b_cpu $P --ioengine=io_uring --sqthread_poll --sqthread_poll_cpu=4096
par_run run_pair b_fixed $P --ioengine=io_uring --fixedbufs --iodepth=20000
par_wait
for c in w_psync w_libaio w_uring w_pvsync2 b_pct b_nowait b_flag b_nonvec b_cpu b_fixed; do
	assert_eq "$c: exit status" 1 "$(rc_of $c ut)"
	assert_eq "$c: exit status as fio's" "$(rc_of $c ref)" "$(rc_of $c ut)"
	assert_eq "$c: nothing created" "" "$(dir_listing "$T/$c.ut.d")"
	case_ran
done
# value errors: fio's own lines
for c in b_pct b_nowait b_flag b_nonvec; do
	assert_eq "$c: stderr" "$(cat "$T/$c.ref.err")" "$(cat "$T/$c.ut.err")"
done
if ! skip_if_fio "iops' own refusals"; then
	assert_eq "w_psync: message" "fio: option 'hipri' is an option of ioengine=io_uring or pvsync2, not of psync" \
		"$(cat "$T/w_psync.ut.err")"
	assert_eq "w_uring: message" "fio: option 'hipri_percentage' is an option of ioengine=pvsync2, not of io_uring" \
		"$(cat "$T/w_uring.ut.err")"
	assert_match "b_cpu: one line" "^fio: sqthread_poll_cpu=4096: CPU 4096 too large \(max=[0-9]+\)$" \
		"$(cat "$T/b_cpu.ut.err")"
	assert_eq "b_fixed: one line" "fio: fixedbufs: io_uring registers at most 16384 buffers (iodepth) of at most 1 GiB (bs), not 20000 of 4096 bytes" \
		"$(cat "$T/b_fixed.ut.err")"
	for o in uncached cmd_type; do
		run_one ut r_$o $P --ioengine=io_uring --$o=1
		assert_eq "$o: exit status" 1 "$(rc_of r_$o ut)"
		assert_match "$o: refused with its reason" "^fio: option '$o' is not supported by iops: .*(RWF_UNCACHED|io_uring_cmd)" \
			"$(cat "$T/r_$o.ut.err")"
		assert_eq "$o: nothing created" "" "$(dir_listing "$T/r_$o.ut.d")"
	done
fi
echo "PASS"
