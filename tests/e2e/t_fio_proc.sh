#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Memory and process options: mem/iomem (each kind, mmap:FILE), iomem_align, hugepage-size,
# lockmem, nice, uid, gid, exec_prerun/exec_postrun, cgroup, cgroup_nodelete, cgroup_weight,
# ioscheduler. The same small jobs under fio 3.33 and the binary under test: exit codes, job
# errors and totals, what the prerun/postrun commands saw (their uid, gid, nice value, cgroup
# and the device's scheduler, in <job>.prerun.txt), the "Saving output" lines, and what is
# left behind (mem files, cgroups). Where fio 3.33 crashes or is dangerous (huge pages it does
# not have, lockmem past the machine's memory, profile=tiobench's 600 s jobs), only iops runs
# and must refuse with one line and create nothing. The scheduler cases use a loop device;
# iops must put its scheduler back, fio leaves its own.
. "$(dirname "$0")/fio_common.sh"
FIO_PAR=${FIO_PAR:-4}

errors=()
add_err() { errors+=("$*"); }
is_root=0
[ "$(id -u)" = 0 ] && is_root=1

LOOP='' MNT=''
BLKIO=$(awk '$3 == "cgroup" && $4 ~ /(^|,)blkio(,|$)/ { print $2; exit }' /proc/mounts)
proc_cleanup() {
	[ -z "$MNT" ] || umount "$MNT" 2>/dev/null
	[ -z "$LOOP" ] || losetup -d "$LOOP" 2>/dev/null
	for g in "${CGS[@]}"; do rmdir "$BLKIO/$g" 2>/dev/null; done
}
CGS=()
trap 'rc=$?; proc_cleanup; (exit $rc); _e2e_exit' EXIT

# same_totals NAME: exit status, and each job's error and totals, equal on both sides
same_totals() {
	case_ran
	[ "$(rc_of "$1" ref)" = "$(rc_of "$1" ut)" ] || add_err "$1: exit $(rc_of "$1" ref) (fio) / $(rc_of "$1" ut) (iops)"
	local a b
	a=$(json_totals "$T/$1.ref.out" 2>&1 | tr '\n' ';')
	b=$(json_totals "$T/$1.ut.out" 2>&1 | tr '\n' ';')
	[ -n "$a" ] && [ "$a" = "$b" ] || add_err "$1: totals fio [$a] / iops [$b]"
}
# same_files NAME: both runs left the same files (names and sizes) in their directories
same_files() {
	local a b
	a=$(files_in "$T/$1.ref.d" | tr '\n' ';')
	b=$(files_in "$T/$1.ut.d" | tr '\n' ';')
	[ "$a" = "$b" ] || add_err "$1: files left: fio [$a] / iops [$b]"
}
# same_text NAME FILE: FILE (in the run's directory) has the same text on both sides
same_text() {
	local a b
	a=$(cat "$T/$1.ref.d/$2" 2>&1)
	b=$(cat "$T/$1.ut.d/$2" 2>&1)
	[ "$a" = "$b" ] || add_err "$1: $2: fio [$a] / iops [$b]"
}
# saving_lines NAME SIDE: fio's "Saving output of ..." lines on stdout
saving_lines() { grep -F 'Saving output of' "$T/$1.$2.out" | tr '\n' ';'; }
# refused NAME LINE ARGS...: iops alone; exit 1, stderr exactly LINE, nothing left behind
refused() {
	local name=$1 line=$2
	shift 2
	skip_if_fio "iops' own refusal ($name)" && return 0
	case_ran
	run_one ut "$name" "$@"
	[ "$(rc_of "$name" ut)" = 1 ] || add_err "$name: exit $(rc_of "$name" ut), want 1"
	[ "$(cat "$T/$name.ut.err")" = "$line" ] || add_err "$name: stderr [$(cat "$T/$name.ut.err")], want [$line]"
	[ -z "$(dir_listing "$T/$name.ut.d")" ] || add_err "$name: left files: $(dir_listing "$T/$name.ut.d")"
}

W=(--ioengine=psync --rw=write --bs=4k --size=2m --filename=data --output-format=json)

# ---- mem / iomem, iomem_align, hugepage-size, lockmem: same totals, nothing left --------------
for m in malloc shm mmap mmapshared mmap:membuf; do
	par_run run_pair "mem-${m/:/-}" "${W[@]}" --name=m "--mem=$m"
done
par_run run_pair iomem-alias "${W[@]}" --name=m --iomem=shm --iomem_align=512 --direct=1
par_run run_pair align-4k "${W[@]}" --name=m --mem_align=4096 --direct=1 --rw=randwrite
par_run run_pair align-bad "${W[@]}" --name=m --iomem_align=100 --direct=1
par_run run_pair lockmem "${W[@]}" --name=m --lockmem=4m --hugepage-size=1k	# no huge pages asked for
par_run run_pair nice-bad --name=m --ioengine=null --size=1m --nice=20
par_run run_pair cgw-bad --name=m --ioengine=null --size=1m --cgroup=x --cgroup_weight=99
par_run run_pair cuda --name=m --ioengine=null --size=1m --mem=cudamalloc
par_run run_one ref huge-ref "${W[@]}" --name=m --mem=shmhuge	# fio 3.33 crashes after its line
par_wait
for c in mem-malloc mem-shm mem-mmap mem-mmapshared mem-mmap-membuf iomem-alias align-4k align-bad lockmem; do
	same_totals "$c"
	[ "$c" = align-bad ] || same_files "$c"
done
# a failed run removes the files it created (fio keeps them: docs/safety.md, Faults); where the file
# system takes O_DIRECT from a buffer off the sector (tmpfs: probed), the job runs as fio's
if kernel_has odirect_align "$T"; then
	[ -z "$(files_in "$T/align-bad.ut.d")" ] || add_err "align-bad: iops left [$(files_in "$T/align-bad.ut.d" | tr '\n' ';')]"
	err=$(json_doc "$T/align-bad.ut.out" | jq -r '.jobs[0].error')
	[ "$err" = 22 ] || add_err "align-bad: job error $err, want 22 (O_DIRECT from a buffer off the sector)"
else
	case_skip "align-bad: the refusal of a misaligned O_DIRECT buffer is not shown here ($PROBE_WHY): the totals were fio's"
fi
for c in nice-bad cgw-bad; do	# fio's own range messages and status
	case_ran
	[ "$(rc_of $c ref)" = "$(rc_of $c ut)" ] || add_err "$c: exit $(rc_of $c ref) / $(rc_of $c ut)"
	[ "$(cat "$T/$c.ref.err")" = "$(cat "$T/$c.ut.err")" ] || add_err "$c: stderr [$(cat "$T/$c.ref.err")] / [$(cat "$T/$c.ut.err")]"
done
case_ran
[ "$(rc_of cuda ut)" = 1 ] && [ "$(rc_of cuda ref)" = 1 ] || add_err "cuda: exit $(rc_of cuda ref) / $(rc_of cuda ut)"

# mem=mmap:FILE with FILE already there: refused, FILE untouched
if ! skip_if_fio "iops' own refusal (mem file exists)"; then
	case_ran
	mkdir -p "$T/memexists.ut.d" && echo keep >"$T/memexists.ut.d/mine"
	run_one ut memexists "${W[@]}" --name=m --mem=mmap:mine
	[ "$(rc_of memexists ut)" = 1 ] || add_err "memexists: exit $(rc_of memexists ut), want 1"
	[ "$(cat "$T/memexists.ut.err")" = "fio: m: mem file mine exists; iops maps only a file it creates (remove it or name another)" ] ||
		add_err "memexists: stderr [$(cat "$T/memexists.ut.err")]"
	[ "$(dir_listing "$T/memexists.ut.d")" = mine ] && [ "$(cat "$T/memexists.ut.d/mine")" = keep ] ||
		add_err "memexists: left [$(dir_listing "$T/memexists.ut.d")]"
fi

# huge pages this machine has none of: fio 3.33 says so and then crashes; iops refuses. Where
# the pool has some (probed), iops' job must run with them.
if ! kernel_has hugepages; then
	for m in shmhuge mmaphuge; do
		refused "huge-$m" "fio: no huge pages available, do you need to allocate some? See HOWTO." \
			"${W[@]}" --name=m "--mem=$m"
	done
	grep -qxF "fio: no huge pages available, do you need to allocate some? See HOWTO." "$T/huge-ref.ref.err" ||
		add_err "huge-ref: fio's line is not [$(head -n 1 "$T/huge-ref.ref.err")]"
else
	case_skip "huge pages are reserved here: the no-huge-pages refusal cannot be shown"
	for m in shmhuge mmaphuge; do
		case_ran
		run_one ut "huge-$m" "${W[@]}" --name=m "--mem=$m"
		[ "$(rc_of "huge-$m" ut)" = 0 ] || add_err "huge-$m: exit $(rc_of "huge-$m" ut) with huge pages free: $(head -c 300 "$T/huge-$m.ut.err")"
	done
fi
refused huge-file "fio: m: mem=mmaphuge:hf is not on a hugetlbfs mount" "${W[@]}" --name=m --mem=mmaphuge:hf
refused lock-big "fio: m: lockmem=1024000 MiB is more than this machine can lock (its memory less 128 MiB: $(( ($(getconf _PHYS_PAGES) * $(getconf PAGESIZE) - 134217728) >> 20 )) MiB)" \
	"${W[@]}" --name=m --lockmem=1000g
refused tiobench "fio: profile=tiobench is not supported by iops: fio 3.33's tiobench ignores its size, block, numruns, dir and threads options (write the four jobs in a job file)" \
	--profile=tiobench

# ---- uid, gid, nice, exec_prerun / exec_postrun ------------------------------------------------
# What the commands see is what the job's thread is: they run as its children. Only the last
# command of the line is redirected into the file (fio appends "> FILE 2>&1"), hence sh -c.
if [ "$is_root" = 1 ]; then
	chmod o+x "$T"
	for c in ids ids-open; do mkdir -p "$T/$c.ref.d" "$T/$c.ut.d" && chmod 777 "$T/$c.ref.d" "$T/$c.ut.d"; done
	par_run run_pair ids --name=p --ioengine=null --size=1m --uid=65534 --gid=65534 --nice=5 \
		--exec_prerun='sh -c "id -u; id -g; nice"' --exec_postrun='echo post; id -u'
	par_run run_pair ids-open "${W[@]}" --name=p --uid=65534 --exec_prerun='id -u'
	par_wait
	same_totals ids-open
	same_text ids p.prerun.txt
	same_text ids p.postrun.txt
	same_text ids-open p.prerun.txt
	# nice=5 adds to the niceness the test runs with (CI may run it niced), capped at 19
	want_nice=$(( $(nice) + 5 > 19 ? 19 : $(nice) + 5 ))
	[ "$(cat "$T/ids.ut.d/p.prerun.txt" 2>&1 | tr '\n' ' ')" = "65534 65534 $want_nice " ] ||
		add_err "ids: prerun saw [$(cat "$T/ids.ut.d/p.prerun.txt" 2>&1)]"
	for c in ids ids-open; do
		case_ran
		[ "$(rc_of $c ref)" = "$(rc_of $c ut)" ] || add_err "$c: exit $(rc_of $c ref) / $(rc_of $c ut)"
	done
	a=$(saving_lines ids ref) b=$(saving_lines ids ut)
	[ -n "$a" ] && [ "$a" = "$b" ] || add_err "ids: fio [$a] / iops [$b]"
	err=$(json_doc "$T/ids-open.ut.out" | jq -r '.jobs[0].error')
	[ "$err" = 13 ] || add_err "ids-open: job error $err, want 13 (nobody cannot open root's file)"
else
	case_skip "not root: uid, gid, nice<0"
fi

# ---- cgroup, cgroup_nodelete, cgroup_weight (blkio v1, as fio 3.33 uses it here) ---------------
# the blkio mount as /proc/mounts has it (BLKIO, as iops and fio find it); the probe makes a group there
if kernel_has cgroup_blkio && [ -n "$BLKIO" ]; then
	g=iops-e2e-$$
	CGS=("$g-a" "$g-n" "$g-w")
	par_run run_pair cg --name=c --ioengine=null --size=1m "--cgroup=$g-a" --exec_prerun='grep blkio /proc/self/cgroup'
	par_run run_pair cgw --name=c --ioengine=null --size=1m "--cgroup=$g-w" --cgroup_weight=500 --output-format=json
	par_run run_pair cgmk --name=c --ioengine=null --size=1m "--cgroup=$g-none/sub"
	par_wait
	same_text cg c.prerun.txt
	grep -q "blkio:/$g-a\$" "$T/cg.ut.d/c.prerun.txt" || add_err "cg: prerun saw [$(cat "$T/cg.ut.d/c.prerun.txt")]"
	[ ! -d "$BLKIO/$g-a" ] || add_err "cg: the cgroup the run made is still there"
	for side in ref ut; do
		run_one "$side" cgkeep --name=c --ioengine=null --size=1m --numjobs=2 "--cgroup=$g-n" --cgroup_nodelete=1
		[ -d "$BLKIO/$g-n" ] || add_err "cgkeep ($side): cgroup_nodelete=1 did not keep it"
		rmdir "$BLKIO/$g-n" 2>/dev/null
	done
	same_totals cgw
	[ -f "$BLKIO/$g-w/blkio.weight" ] || [ ! -d "$BLKIO/$g-w" ] ||
		add_err "cgw: the cgroup is still there"
	case_ran
	[ "$(head -n 1 "$T/cgmk.ref.err")" = "$(head -n 1 "$T/cgmk.ut.err")" ] ||
		add_err "cgmk: [$(head -n 1 "$T/cgmk.ref.err")] / [$(head -n 1 "$T/cgmk.ut.err")]"
	[ "$(rc_of cgmk ref)" = "$(rc_of cgmk ut)" ] || add_err "cgmk: exit $(rc_of cgmk ref) / $(rc_of cgmk ut)"
	refused cgup "fio: cgroup=../x: give a name below the cgroup mount (no leading '/', no '.' or '..', no empty part)" \
		--name=c --ioengine=null --size=1m --cgroup=../x
else
	case_skip "cgroup cases: $PROBE_WHY"
fi

# ---- ioscheduler: a loop device, and a file on a file system on it -----------------------------
truncate -s 24m "$T/disk.img"
if loop_attach "$T/disk.img"; then
	S=/sys/block/${LOOP#/dev/}/queue/scheduler
	orig=$(sed -E 's/.*\[([^]]*)\].*/\1/' "$S")
	want=$(tr -d '[]' <"$S" | tr ' ' '\n' | grep -v -x -e "$orig" -e '' | tail -n 1)
	if [ -n "$want" ]; then
		for side in ref ut; do
			run_one "$side" sched --name=s --filename="$LOOP" --rw=read --size=1m --ioscheduler="$want" \
				--exec_prerun="cat $S" --output-format=json
			now=$(sed -E 's/.*\[([^]]*)\].*/\1/' "$S")
			if [ "$side" = ut ] && [ "$UT_IS_FIO" = 0 ]; then
				[ "$now" = "$orig" ] || add_err "sched: iops left the scheduler at $now, not $orig"
			fi
			echo "$orig" >"$S"
		done
		same_totals sched
		same_text sched s.prerun.txt
		grep -qF "[$want]" "$T/sched.ut.d/s.prerun.txt" || add_err "sched: prerun saw [$(cat "$T/sched.ut.d/s.prerun.txt")]"
		run_pair sched-bad --name=s --filename="$LOOP" --rw=read --size=1m --ioscheduler=nosuch --output-format=json
		same_totals sched-bad
		[ "$(head -n 1 "$T/sched-bad.ref.err")" = "$(head -n 1 "$T/sched-bad.ut.err")" ] ||
			add_err "sched-bad: [$(head -n 1 "$T/sched-bad.ref.err")] / [$(head -n 1 "$T/sched-bad.ut.err")]"
		[ "$(sed -E 's/.*\[([^]]*)\].*/\1/' "$S")" = "$orig" ] || add_err "sched-bad: scheduler changed"
		# a regular file: the scheduler of the device under its file system
		if mkfs.ext4 -q "$LOOP" 2>/dev/null && mkdir -p "$T/mnt" && mount "$LOOP" "$T/mnt"; then
			MNT=$T/mnt
			for side in ref ut; do
				run_one "$side" sched-file --name=s --filename="$MNT/$side.f" --rw=write --size=1m \
					--ioscheduler="$want" --exec_prerun="cat $S" --output-format=json
				echo "$orig" >"$S"
			done
			same_totals sched-file
			same_text sched-file s.prerun.txt
			umount "$MNT" && MNT=''
		else
			case_skip "cannot mount an ext4 image: ioscheduler on a regular file"
		fi
		# no block device behind the file (tmpfs): nothing to switch, the job runs
		run_pair sched-tmpfs --name=s --filename=/dev/shm/iops-e2e-$$ --rw=write --size=1m \
			--ioscheduler="$want" --output-format=json --unlink=1
		same_totals sched-tmpfs
	else
		case_skip "the loop device offers one scheduler only"
	fi
else
	case_skip "ioscheduler cases: no loop device here ($PROBE_WHY)"
fi

if [ ${#errors[@]} -gt 0 ]; then
	printf '%s\n' "${errors[@]}" >&2
	fail "${#errors[@]} problem(s)"
fi
