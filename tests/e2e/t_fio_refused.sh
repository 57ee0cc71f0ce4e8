#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The "kernel refuses" path of each engine, beside fio 3.33, on every machine: both tools run
# under a seccomp filter (build/tools/seccomp_fail) that makes the engine's system call fail
# with a chosen errno, as a stricter kernel, a container's seccomp profile or a failing device
# would. Compared: the exit status, the job's err= line (errno, text, file:line and func, as
# fio records where the error came from), the diagnostic lines (io_u error, first-I/O hint,
# the pid=...err= line: fio prints some on stdout, iops on stderr, so each side's whole output
# is read), the issued I/O counts, and the files left (iops removes a file its failed run
# created, where fio keeps it: the documented clean-up, allowed for exactly those files).
# Files a case reads are laid out first by a run without the filter (PRE: the job that does).
# The init-* cases are a kernel without the engine's queue (io_uring_setup or io_setup refused):
# the err= line is fio's (engines/...:io_queue_init), iops' own line naming another engine aside.
. "$(dirname "$0")/fio_common.sh"
SECCOMP_FAIL=$(tool seccomp_fail)

errors=()
add_err() { errors+=("$*"); }

# the lines to compare from one side's outputs: diagnostics and the err= line, pid and date masked
diag_lines() {
	cat "$T/$1.out" "$T/$1.err" |
		grep -E '^fio: |: \(groupid=[0-9]+, jobs=[0-9]+\): err=' |
		sed -E 's/(^|[^a-z])pid=[0-9]+/\1pid=P/; s/pid=P: [A-Z][a-z]{2} .*/pid=P: DATE/' | sort
}
issued() { grep -o 'issued rwts: total=[0-9,]*' "$T/$1.out"; }

# NAME|RULE|PRE|ARGS. PRE: "-" (the case lays out its own file) or the arguments of a first
# run without the filter. The reads and writes are 12 KiB, so a rule on their length
# (@2=12288) spares the dynamic loader's reads of fio's libraries.
cases=(
	"e4defrag-eperm|ioctl=0xc028660f:EPERM|-|--ioengine=e4defrag --rw=write --size=48k --bs=12k --donorname=donor.tmp --inplace=1"
	"e4defrag-eopnotsupp|ioctl=0xc028660f:EOPNOTSUPP|-|--ioengine=e4defrag --rw=write --size=48k --bs=12k --donorname=donor.tmp --inplace=1"
	"e4defrag-eio|ioctl=0xc028660f:EIO|-|--ioengine=e4defrag --rw=write --size=48k --bs=12k --donorname=donor.tmp --inplace=1"
	"falloc-eio|fallocate:EIO|--ioengine=psync --rw=write --size=48k --bs=12k|--ioengine=falloc --rw=write --size=48k --bs=12k"
	"falloc-eperm|fallocate:EPERM|--ioengine=psync --rw=write --size=48k --bs=12k|--ioengine=falloc --rw=write --size=48k --bs=12k"
	"falloc-trim|fallocate:EOPNOTSUPP|--ioengine=psync --rw=write --size=48k --bs=12k|--ioengine=falloc --rw=trim --size=48k --bs=12k"
	"ftruncate-eperm|ftruncate:EPERM|--ioengine=psync --rw=write --size=48k --bs=12k|--ioengine=ftruncate --rw=write --size=48k --bs=12k"
	"splice-write|vmsplice:EPERM|--ioengine=psync --rw=write --size=48k --bs=12k|--ioengine=splice --rw=write --size=48k --bs=12k"
	"splice-read|splice:EIO|--ioengine=psync --rw=write --size=48k --bs=12k|--ioengine=splice --rw=read --size=48k --bs=12k"
	"psync-read-eio|pread64@2=12288:EIO|--ioengine=psync --rw=write --size=48k --bs=12k|--ioengine=psync --rw=read --size=48k --bs=12k"
	"psync-read-2nd|pread64@3=12288:EIO|--ioengine=psync --rw=write --size=48k --bs=12k|--ioengine=psync --rw=read --size=48k --bs=12k"
	"psync-write-eperm|pwrite64@2=12288:EPERM|-|--ioengine=psync --rw=write --size=48k --bs=12k"
	"pvsync-write-eio|pwritev@3=0:EIO|-|--ioengine=pvsync --rw=write --size=48k --bs=12k"
	"pvsync2-read-enxio|preadv2@3=0:ENXIO|--ioengine=psync --rw=write --size=48k --bs=12k|--ioengine=pvsync2 --rw=read --size=48k --bs=12k"
	"posixaio-read-eio|pread64@2=12288:EIO|--ioengine=psync --rw=write --size=48k --bs=12k|--ioengine=posixaio --rw=read --size=48k --bs=12k"
	"libaio-submit-eperm|io_submit:EPERM|--ioengine=psync --rw=write --size=48k --bs=12k|--ioengine=libaio --rw=read --size=48k --bs=12k --iodepth=4"
	"libaio-submit-eio|io_submit:EIO|--ioengine=psync --rw=write --size=48k --bs=12k|--ioengine=libaio --rw=read --size=48k --bs=12k"
	"libaio-submit-depth8|io_submit:EPERM|--ioengine=psync --rw=write --size=48k --bs=12k|--ioengine=libaio --rw=randread --size=48k --bs=12k --iodepth=8"
	"libaio-submit-batch4|io_submit:EOPNOTSUPP|--ioengine=psync --rw=write --size=48k --bs=12k|--ioengine=libaio --rw=read --size=48k --bs=12k --iodepth=8 --iodepth_batch_submit=4"
	"init-uring-eperm|io_uring_setup:EPERM|-|--ioengine=io_uring --rw=read --size=48k --bs=12k --iodepth=4"
	"init-libaio-enosys|io_setup:ENOSYS|-|--ioengine=libaio --rw=read --size=48k --bs=12k"
	"init-libaio-eagain|io_setup:EAGAIN|-|--ioengine=libaio --rw=write --size=48k --bs=12k --iodepth=8"
	"zoned-strided-eio|pread64@2=12288:EIO|--ioengine=psync --rw=write --size=48k --bs=12k|--ioengine=psync --rw=read --size=48k --bs=12k --zonemode=strided --zonesize=12k --zonerange=24k"
)

run_case() {	# NAME RULE PRE ARGS: both sides, the pre-run first
	local name=$1 rule=$2 pre=$3 side
	shift 3
	for side in ref ut; do
		if [ "$pre" != - ]; then
			# shellcheck disable=SC2086 # the arguments are words on purpose
			run_one "$side" "$name.pre" --name=x $pre
			mkdir -p "$T/$name.$side.d"
			cp -a "$T/$name.pre.$side.d/." "$T/$name.$side.d/"
		fi
		# shellcheck disable=SC2086
		FIO_WRAP="$SECCOMP_FAIL $rule --" run_one "$side" "$name" --name=x "$@"
	done
}

# a case that refuses a call of an engine's queue (io_submit) needs the queue itself (the
# init-* cases are the kernel refusing it, run everywhere)
kept=()
for c in "${cases[@]}"; do
	IFS='|' read -r name _ _ args <<<"$c"
	# shellcheck disable=SC2086
	[[ $name == init-* ]] || needs_engine "$name" $args || continue
	kept+=("$c")
done
cases=("${kept[@]}")
for c in "${cases[@]}"; do
	IFS='|' read -r name rule pre args <<<"$c"
	# shellcheck disable=SC2086
	par_run run_case "$name" "$rule" "$pre" $args
done
par_wait

for c in "${cases[@]}"; do
	IFS='|' read -r name _ pre _ <<<"$c"
	case_ran
	r=$(rc_of "$name" ref) u=$(rc_of "$name" ut)
	[ "$r" = "$u" ] || { add_err "$name: exit status fio $r, iops $u"; show_run "$name" ut >&2; continue; }
	[ "$r" != 0 ] || add_err "$name: the refused call did not fail the job (fio and iops exit 0)"
	# an engine the kernel refuses (Docker's profile, no CONFIG_AIO, aio-max-nr used up): iops
	# adds one line of its own that says so and names another engine
	hint='^fio: (io_uring|libaio) is not available here \(|^fio: io engine libaio init failed \('
	if [[ $name == init-* ]] && [ "$UT_IS_FIO" = 0 ]; then
		grep -qE "$hint" "$T/$name.ut.err" || add_err "$name: no line saying the engine is refused: $(head -c 300 "$T/$name.ut.err")"
	fi
	d=$(diff <(diag_lines "$name.ref") <(diag_lines "$name.ut" | grep -vE "$hint")) ||
		add_err "$name: diagnostics differ (< fio, > iops): $(echo "$d" | grep '^[<>]' | tr '\n' ' ')"
	[ "$(issued "$name.ref")" = "$(issued "$name.ut")" ] ||
		add_err "$name: fio [$(issued "$name.ref")] iops [$(issued "$name.ut")]"
	# files: the same, but for the ones iops' failed run created and removed (never the pre-run's)
	rf=$(files_in "$T/$name.ref.d") uf=$(files_in "$T/$name.ut.d")
	if [ "$pre" = - ] && [ "$UT_IS_FIO" = 0 ]; then
		rf=$(grep -v ' x\.0\.0$' <<<"$rf")
		grep -q ' x\.0\.0$' <<<"$uf" && add_err "$name: iops kept x.0.0, which its failed run created"
	fi
	[ "$rf" = "$uf" ] || add_err "$name: files left: fio [$(echo $rf)] iops [$(echo $uf)]"
done

# io_uring_enter refused: fio 3.33 ends the job without an error (err=0, one I/O of 0 bytes,
# exit 0: its io_uring engine drops the submit error); iops reports it as the commit's error,
# as fio's libaio does. A difference (docs/fio-differences.md): iops' side is checked alone.
if ! skip_if_fio "io_uring_enter refused: iops' own report" && needs_engine "io_uring_enter refused" io_uring; then
	run_one ut uring-enter --name=x --ioengine=psync --rw=write --size=48k --bs=12k
	FIO_WRAP="$SECCOMP_FAIL io_uring_enter:EIO --" run_one ut uring-enter --name=x --ioengine=io_uring --rw=read --size=48k --bs=12k
	case_ran
	assert_eq "io_uring_enter refused: exit status" 1 "$(rc_of uring-enter ut)"
	grep -q ': err= 5 (file:ioengines.c:496, func=io commit, error=Input/output error): pid=' "$T/uring-enter.ut.out" ||
		add_err "io_uring_enter refused: no commit error line: $(grep 'err=' "$T/uring-enter.ut.out")"
fi

if [ ${#errors[@]} -gt 0 ]; then
	printf '%s\n' "${errors[@]}" >&2
	fail "${#errors[@]} refused-path checks differ from fio"
fi
echo "refused paths: ${#cases[@]} cases compared with fio 3.33, io_uring_enter checked"
