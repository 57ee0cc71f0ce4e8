#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# File handling against fio 3.33: file_service_type (every kind, :N), openfiles (and the file
# that fsync=N's sync goes to), offset_align,
# file_append, opendir, compared through the write_iolog trace (the timestamps dropped: which
# file, which offset, which open and close, in order); create_only, create_fsync,
# create_serialize, overwrite, pre_read, unlink_each_loop, lockfile, unique_filename compared by
# JSON totals and the files left behind; allow_file_create=0 and allow_mounted_write refusals
# (message, status, nothing created); the refusals that are iops' own.
. "$(dirname "$0")/fio_common.sh"
FIO_PAR=${FIO_PAR:-4}

errors=()
add_err() { errors+=("$*"); }

# trace RUN SIDE JOB: that job's write_iolog (JOB.log) without timestamps
trace() {
	local f=$T/$1.$2.d/$3.log
	[ -s "$f" ] || { echo "no trace"; return; }
	cut -d' ' -f2- "$f"
}
cmp_trace() {	# RUN JOB [sort]: the same lines in the same order (sorted: the same lines)
	local a b
	a=$(trace "$1" ref "$2")
	b=$(trace "$1" ut "$2")
	if [ -n "${3:-}" ]; then a=$(sort <<<"$a"); b=$(sort <<<"$b"); fi
	[ "$(wc -l <<<"$a")" -gt 4 ] || add_err "$2: fio's trace is too short: $a"
	[ "$a" = "$b" ] || add_err "$2: traces differ: $(diff <(echo "$a") <(echo "$b") | head -6 | tr '\n' ';')"
}
cmp_totals() {	# RUN: every job's totals, and the exit status
	local a b
	a=$(json_totals "$T/$1.ref.out" 2>&1)
	b=$(json_totals "$T/$1.ut.out" 2>&1)
	[ -n "$a" ] && [ "$a" = "$b" ] || add_err "$1: totals differ: $(diff <(echo "$a") <(echo "$b") | head -6 | tr '\n' ';')"
	[ "$(rc_of "$1" ref)" = "$(rc_of "$1" ut)" ] || add_err "$1: exit $(rc_of "$1" ref) / $(rc_of "$1" ut)"
}
cmp_files() {	# RUN: the files both runs left (traces aside)
	local a b
	a=$(files_in "$T/$1.ref.d" | grep -v '\.log$')
	b=$(files_in "$T/$1.ut.d" | grep -v '\.log$')
	[ "$a" = "$b" ] || add_err "$1: files left differ: $(diff <(echo "$a") <(echo "$b") | head -6 | tr '\n' ';')"
}
# jobs_of CASES...: one job per "NAME|ARGS" case, each with its own trace NAME.log
jobs_of() {
	local c name args
	for c in "$@"; do
		IFS='|' read -r name args <<<"$c"
		# shellcheck disable=SC2086 # ARGS are words
		printf '%s\n' --name="$name" $args --write_iolog="$name.log"
	done
}
own=()
skip_if_fio "allow_overwrite is iops' own" || own=(--allow_overwrite=1)

# ---- file_service_type and openfiles: the same choices, opens and closes as fio ----------
# Each case is a job of one run (its own thread number, so its own seeds, the same in both).
traces=()
for fst in roundrobin sequential random random:3 roundrobin:2 sequential:2 zipf pareto normal \
	   zipf:0.8:0.3 normal:20:0.4 pareto:0.4:0.1; do
	traces+=("fst-${fst//:/_}|--rw=randwrite --nrfiles=4 --file_service_type=$fst")
done
for fst in random:2 zipf normal:5; do
	traces+=("fst-${fst//:/_}-w|--rw=write --nrfiles=4 --file_service_type=$fst")
	traces+=("fst-${fst//:/_}-rw|--rw=randrw --nrfiles=4 --file_service_type=$fst")
done
traces+=(
	"open1-rr|--rw=randwrite --nrfiles=4 --openfiles=1"
	"open2-rr|--rw=write --nrfiles=4 --openfiles=2"
	"open3-random|--rw=randwrite --nrfiles=5 --openfiles=3 --file_service_type=random"
	"open2-zipf|--rw=randrw --nrfiles=4 --openfiles=2 --file_service_type=zipf"
	"loops-seq|--rw=randwrite --nrfiles=3 --loops=2 --file_service_type=sequential"
	"loops-random|--rw=write --nrfiles=3 --loops=2 --file_service_type=random:2"
	"iosize-random|--rw=randwrite --nrfiles=4 --io_size=96k --file_service_type=random"
	"taus64-random|--rw=randwrite --nrfiles=4 --random_generator=tausworthe64 --file_service_type=random"
	"bsrange-random|--rw=randwrite --nrfiles=4 --bsrange=4k-16k --file_service_type=random:2"
	"list-random|--rw=randwrite --filename=la:lb:lc --file_service_type=random"
	"list-zipf|--rw=write --filename=za:zb:zc --file_service_type=zipf:1.5"
	"seed-random|--rw=randwrite --nrfiles=4 --randseed=1234 --randrepeat=0 --file_service_type=random"
	"fsync-rr|--rw=write --nrfiles=4 --fsync=3"
	"fsync-random|--rw=write --nrfiles=3 --fdatasync=2 --file_service_type=random"
	"fsync-open2|--rw=write --nrfiles=4 --fsync=2 --openfiles=2"
	"fsync-zipf|--rw=write --nrfiles=4 --fsync=3 --file_service_type=zipf"
)
mapfile -t args < <(jobs_of "${traces[@]}")
par_run run_pair traces --size=64k --bs=4k --output-format=json "${args[@]}"
# numjobs: each clone makes its own choices (its own seeds), as fio's clones do
par_run run_pair clones --size=64k --bs=4k --output-format=json \
	--name=cr --rw=randwrite --nrfiles=3 --numjobs=2 --file_service_type=random --write_iolog=cr.log \
	--name=cl --rw=write --filename=ca:cb --numjobs=2 --file_service_type=random:2 --write_iolog=cl.log

# ---- where the I/O starts: offset_align, file_append on existing files --------------------
starts=(
	"pct|--offset=10%"
	"pct-align|--offset=10% --offset_align=64k"
	"inc-pct|--offset_increment=10% --numjobs=2"
	"inc-align|--offset=5% --offset_increment=10% --numjobs=2 --offset_align=3000"
	"append|--file_append=1"
	"append-off|--file_append=1 --offset=8k"
)
for side in ref ut; do
	mkdir -p "$T/starts.$side.d"
	for c in "${starts[@]}"; do head -c 1000000 /dev/zero >"$T/starts.$side.d/f-${c%%|*}"; done
done
mapfile -t args < <(jobs_of "${starts[@]}" | sed -E 's/^--name=(.*)/--name=\1\n--filename=f-\1/')
par_run run_one ref starts --rw=write --size=16k --output-format=json "${args[@]}"
par_run run_one ut starts --rw=write --size=16k --output-format=json "${own[@]}" "${args[@]}"

# ---- creation, layout and removal: totals and the files left ------------------------------
life=(
	"create-only|--rw=write --nrfiles=2 --create_only=1"
	"create-only-read|--rw=randread --create_only=1"
	"no-create-fsync|--rw=read --create_fsync=0"
	"no-serialize|--rw=randread --nrfiles=2 --create_serialize=0 --numjobs=2"
	"overwrite|--rw=randwrite --overwrite=1"
	"pre-read|--rw=randread --pre_read=1"
	"unlink-each|--rw=write --nrfiles=2 --loops=3 --unlink_each_loop=1"
	"unique|--rw=write --unique_filename=0"
	"lock-excl|--rw=randrw --filename=shared --numjobs=2 --lockfile=exclusive"
	"lock-rw|--rw=randrw --filename=shared2 --numjobs=2 --lockfile=readwrite --ioengine=libaio --iodepth=4"
)
drop_refused life
mapfile -t args < <(jobs_of "${life[@]}")
par_run run_pair life --size=64k --bs=4k --output-format=json "${args[@]}"

# ---- opendir: the files below a directory (symbolic links skipped), then filename's -------
for side in ref ut; do
	mkdir -p "$T/od.$side.d/d/sub"
	for f in b a sub/c; do head -c 16384 /dev/zero >"$T/od.$side.d/d/$f"; done
	ln -s a "$T/od.$side.d/d/link"
	cp -r "$T/od.$side.d/d" "$T/od.$side.d/d2"
done
par_run run_pair od --rw=read --output-format=json --name=od --opendir=d --write_iolog=od.log \
	--name=od2 --opendir=d2 --filename=x --size=16k --write_iolog=od2.log
par_run run_pair od-missing --name=j --opendir=nonexistent --rw=read

# ---- refusals ----------------------------------------------------------------------------
par_run run_pair no-create --name=j --size=64k --rw=read --allow_file_create=0 --output-format=json
par_run run_pair no-create --name=j --size=64k --rw=read --allow_file_create=0 --output-format=json
par_run run_pair bad-zipf --name=j --size=64k --nrfiles=2 --file_service_type=zipf:1
par_run run_pair bad-center --name=j --size=64k --nrfiles=2 --file_service_type=normal:10:2
par_wait

for c in "${traces[@]}"; do
	case_ran
	cmp_trace traces "${c%%|*}"
done
cmp_totals traces
cmp_files traces
cmp_trace clones cr sort	# the clones share the trace: their lines interleave
cmp_trace clones cl sort
for side in ref ut; do	# per clone, in order
	for k in 0 1; do grep -F " cr.$k." "$T/clones.$side.d/cr.log" | cut -d' ' -f2- >"$T/clones.$side.d/cr$k.log"; done
done
cmp_trace clones cr0
cmp_trace clones cr1
cmp_totals clones
cmp_files clones
for c in "${starts[@]}"; do
	case_ran
	cmp_trace starts "${c%%|*}" sort
done
cmp_totals starts
cmp_files starts
case_ran
cmp_totals life
cmp_files life
case_ran
cmp_trace od od sort
cmp_trace od od2 sort
cmp_totals od
[ "$(rc_of od-missing ref)" = 1 ] && [ "$(rc_of od-missing ut)" = 1 ] || add_err "od-missing: exit $(rc_of od-missing ref) / $(rc_of od-missing ut)"
grep -q 'opendir(nonexistent).*No such file or directory' "$T/od-missing.ut.err" || add_err "od-missing: '$(cat "$T/od-missing.ut.err")'"

case_ran
[ "$(rc_of no-create ref)" = 1 ] && [ "$(rc_of no-create ut)" = 1 ] || add_err "no-create: exit $(rc_of no-create ref) / $(rc_of no-create ut)"
grep -q 'fio: file creation disallowed by allow_file_create=0' "$T/no-create.ut.err" || add_err "no-create: '$(cat "$T/no-create.ut.err")'"
[ -z "$(ls -A "$T/no-create.ut.d")" ] || add_err "no-create: files created: $(ls -A "$T/no-create.ut.d")"
[ "$(rc_of bad-zipf ut)" = 1 ] || add_err "bad-zipf: exit $(rc_of bad-zipf ut)"
[ "$(head -n 1 "$T/bad-zipf.ref.err")" = "$(head -n 1 "$T/bad-zipf.ut.err")" ] || add_err "bad-zipf: '$(head -n 1 "$T/bad-zipf.ut.err")'"
[ "$(head -n 1 "$T/bad-center.ref.err")" = "$(head -n 1 "$T/bad-center.ut.err")" ] || add_err "bad-center: '$(head -n 1 "$T/bad-center.ut.err")'"
if ! skip_if_fio "iops refuses what fio 3.33 takes silently"; then
	run_one ut turn0 --name=j --size=64k --nrfiles=2 --file_service_type=random:0
	[ "$(rc_of turn0 ut)" = 1 ] && [ "$(wc -l <"$T/turn0.ut.err")" = 1 ] || add_err "turn0: $(cat "$T/turn0.ut.err")"
	run_one ut unlink-read --name=j --size=64k --rw=read --loops=2 --unlink_each_loop=1
	[ "$(rc_of unlink-read ut)" = 1 ] && [ -z "$(ls -A "$T/unlink-read.ut.d")" ] || add_err "unlink-read: $(cat "$T/unlink-read.ut.err")"
	run_one ut open-verify --name=j --size=64k --rw=write --nrfiles=4 --openfiles=2 --verify=crc32c
	[ "$(rc_of open-verify ut)" = 1 ] && grep -q 'not supported by iops' "$T/open-verify.ut.err" || add_err "open-verify: $(cat "$T/open-verify.ut.err")"
fi

# allow_mounted_write: a mounted loop device is not written (fio's message), an unmounted one is
command -v mkfs.ext4 >/dev/null || missing_prereq "mkfs.ext4 is required (Debian package e2fsprogs)"
img=$T/img
head -c 8388608 /dev/zero >"$img"
mkfs.ext4 -q -F "$img" >/dev/null 2>&1 || fail "mkfs.ext4 $img failed"
if loop_attach "$img"; then
	dev=$LOOP
	mkdir -p "$T/mnt" && mount "$dev" "$T/mnt" || fail "mount $dev failed"
	run_one ref mounted --name=j --filename="$dev" --rw=write --size=64k
	run_one ut mounted --name=j --filename="$dev" --rw=write --size=64k "${own[@]}"
	umount "$T/mnt"
	# fio 3.33 prints the refusal and exits 0; iops exits 1
	[ "$(rc_of mounted ut)" = 1 ] || add_err "mounted: exit $(rc_of mounted ut)"
	want="fio: $dev appears mounted, and 'allow_mounted_write' isn't set. Aborting."
	grep -qxF "$want" "$T/mounted.ut.err" || add_err "mounted: '$(cat "$T/mounted.ut.err")'"
	grep -qxF "$want" "$T/mounted.ref.err" || add_err "mounted (fio): '$(cat "$T/mounted.ref.err")'"
	losetup -d "$dev"
else
	skip_note "allow_mounted_write not checked: no loop device here ($PROBE_WHY)"
fi

if [ ${#errors[@]} -gt 0 ]; then
	printf '%s\n' "${errors[@]}" >&2
	fail "${#errors[@]} problem(s)"
fi
