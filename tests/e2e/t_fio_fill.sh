#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# fill_device / fill_fs: write until ENOSPC, which ends the job without an error; a job that
# reads (rw=read, randread) lays out a file filling the volume and reads it. Each run gets
# a freshly made 8 MiB ext4 in a loop-mounted file (root only), so fio and the binary under
# test find the same free space: exit code, each job's error, bytes and I/Os read and written,
# the ENOSPC line (masked), the layout line and the sizes of the files left behind must match.
# Then iops' own refusal of the modes fio 3.33 mishandles (random writes, mixed, trim), which
# says what fio would do and must leave the file system untouched.
. "$(dirname "$0")/fio_common.sh"

for c in losetup mkfs.ext4 mount umount; do command -v "$c" >/dev/null || missing_prereq "$c is required (Debian packages util-linux, e2fsprogs, mount)"; done

errors=()
add_err() { errors+=("$*"); }

LOOP= MNT=$T/mnt
cleanup() {
	local rc=$?
	if [ -n "$LOOP" ]; then
		mountpoint -q "$MNT" && umount "$MNT"
		losetup -d "$LOOP"
	fi
	(exit $rc)
	_e2e_exit
}
trap cleanup EXIT
mkdir -p "$MNT"
truncate -s 8M "$T/img"
loop_attach "$T/img" || skip_script "needs a loop-mounted ext4: no loop device here ($PROBE_WHY)"

# fresh: a new, empty file system on the loop device, mounted at $MNT
fresh() {
	mountpoint -q "$MNT" && umount "$MNT"
	mkfs.ext4 -q -F "$LOOP" >/dev/null 2>&1 && mount "$LOOP" "$MNT" || fail "cannot make the test file system"
}

# run_fill NAME ARGS...: both sides, each on a fresh file system; what it left in $T/NAME.SIDE.files
run_fill() {
	local name=$1 s
	shift
	for s in ref ut; do
		fresh
		run_one "$s" "$name" --name=fill --directory="$MNT" "$@" --output-format=json,normal
		files_in "$MNT" | grep -v lost+found >"$T/$name.$s.files"
	done
}

# each job's err, read and write ios and bytes, from the JSON
summary() {
	sed -n '/^{/,/^}/p' "$1" | jq -r '.jobs[] | "err=\(.error) r=\(.read.total_ios)/\(.read.io_bytes) w=\(.write.total_ios)/\(.write.io_bytes)"'
}
# stderr, the mount point and numbers masked
errs() { sed "s|$MNT|MNT|g" "$1" | mask_numbers; }

# NAME|ARGS
cases=(
	"open|--rw=write --bs=64k --fill_device=1"
	"fs-alias|--rw=write --bs=16k --fill_fs=1"
	"sized|--rw=write --bs=64k --fill_device=1 --size=1m"
	"oversized|--rw=write --bs=64k --fill_device=1 --size=100m"
	"read|--rw=read --bs=4k --fill_device=1"
	"randread|--rw=randread --bs=64k --fill_fs=1"
	"read-files|--rw=read --bs=16k --fill_device=1 --nrfiles=2"
	"read-jobs|--rw=randread --bs=4k --fill_device=1 --numjobs=2"
	"read-sized|--rw=read --bs=4k --fill_device=1 --size=2m"
)
for c in "${cases[@]}"; do
	IFS='|' read -r name args <<<"$c"
	# shellcheck disable=SC2086 # ARGS are words
	run_fill "$name" $args
	case_ran
	[ "$(rc_of "$name" ref)" = 0 ] && [ "$(rc_of "$name" ut)" = 0 ] ||
		add_err "$name: exit $(rc_of "$name" ref) (fio) / $(rc_of "$name" ut) (iops): $(head -n 2 "$T/$name.ut.err")"
	a=$(summary "$T/$name.ref.out" 2>&1) b=$(summary "$T/$name.ut.out" 2>&1)
	[ -n "$a" ] && [ "$a" = "$b" ] || add_err "$name: fio [$a] / iops [$b]"
	a=$(errs "$T/$name.ref.err") b=$(errs "$T/$name.ut.err")
	[ "$a" = "$b" ] || add_err "$name: stderr: fio [$a] / iops [$b]"
	a=$(grep -h 'Laying out' "$T/$name.ref.out") b=$(grep -h 'Laying out' "$T/$name.ut.out")
	[ "$a" = "$b" ] || add_err "$name: layout line: fio [$a] / iops [$b]"
	cmp -s "$T/$name.ref.files" "$T/$name.ut.files" ||
		add_err "$name: files left: fio [$(cat "$T/$name.ref.files")] / iops [$(cat "$T/$name.ut.files")]"
done
# the unsized fill really filled the volume: ENOSPC said once, the file holds what was written
grep -q 'No space left on device: write offset=' "$T/open.ut.err" || add_err "open: no ENOSPC line"

# the reading fill laid out what the volume holds (more than 6 MiB of the 8 MiB file system)
# and read all of it
size=$(awk 'NR == 1 { print $1 }' "$T/read.ut.files")
[ "${size:-0}" -gt $((6 << 20)) ] && [ "$(summary "$T/read.ut.out")" = "err=0 r=$((size / 4096))/$size w=0/0" ] ||
	add_err "read: file [$(cat "$T/read.ut.files")], read [$(summary "$T/read.ut.out")]"

# the modes fio 3.33 mishandles with fill_device are refused up front, with what fio does
if ! skip_if_fio "fio fails or misbehaves there"; then
	for c in "randwrite|random map" "rw|writes past the end" "trim|fails its first trim"; do
		IFS='|' read -r rw says <<<"$c"
		fresh
		run_one ut "refuse-$rw" --name=fill --directory="$MNT" --rw=$rw --fill_device=1
		[ "$(rc_of "refuse-$rw" ut)" = 1 ] || add_err "refuse-$rw: exit $(rc_of "refuse-$rw" ut)"
		grep -q "fill_device=1 takes rw=write, read or randread (.*$says" "$T/refuse-$rw.ut.err" ||
			add_err "refuse-$rw: '$(cat "$T/refuse-$rw.ut.err")'"
		[ -z "$(files_in "$MNT" | grep -v lost+found)" ] || add_err "refuse-$rw: files created: $(files_in "$MNT")"
	done
fi

if [ ${#errors[@]} -gt 0 ]; then
	printf '%s\n' "${errors[@]}" >&2
	fail "${#errors[@]} problem(s)"
fi
