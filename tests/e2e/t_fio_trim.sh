#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Trim workloads (rw=trim, randtrim, trimwrite, randtrimwrite) beside fio 3.33.
#
# fio 3.33 trims with ioctl(BLKDISCARD) only, so on a regular file every trim job fails there
# (err=25, ENOTTY); iops punches a hole instead. Hence the references:
#   1. size-bound jobs on files: iops with psync / libaio / io_uring on a regular file does the
#      same per-direction total_ios and io_bytes as fio with the null engine (a size-bound job's
#      totals do not depend on the engine), and the trimmed file reads back as zeros with no
#      block allocated (or, with holes, zeros exactly where it trimmed); iops and fio with the
#      null engine also print the same normal output (masked);
#   2. on a loop device (root and losetup only): fio and iops with psync and libaio, same
#      totals, same masked normal output, same JSON layout, same verbatim header lines;
#   3. bad combinations: same exit status and message as fio; a character device fails with
#      err=25 on both; iops refuses to trim a file it did not create or a device the job does
#      not allow, and changes nothing.
. "$(dirname "$0")/fio_common.sh"
FIO_PAR=${FIO_PAR:-6}

errors=()
add_err() { errors+=("$*"); }

# per-direction totals of every job: error r_ios r_bytes w_ios w_bytes t_ios t_bytes
totals() {
	json_doc "$1" | jq -r '.jobs[] | [.error, .read.total_ios, .read.io_bytes, .write.total_ios,
		.write.io_bytes, .trim.total_ios, .trim.io_bytes] | map(tostring) | join(" ")'
}

# ---- 1. files, against fio's null engine -----------------------------------------------------
# NAME|CHECK|ARGS (no spaces inside a value). CHECK: what the file holds afterwards:
#   zero   all zeros, no block allocated;   holes  4k trimmed, 4k kept, ... (rw=trim:4k);
#   -      data (written, or only partly trimmed).
# Punching a hole costs ext4 a few ms: block sizes are large where the count does not matter.
cases=(
	"trim-psync|zero|--rw=trim --size=1m --bs=64k --ioengine=psync"
	"trim-sync-4k|zero|--rw=trim --size=256k --ioengine=sync"
	"randtrim-libaio|zero|--rw=randtrim --size=1m --bs=64k --ioengine=libaio --iodepth=4"
	"randtrim-pvsync-nrfiles|zero|--rw=randtrim --size=1m --bs=32k --nrfiles=2 --ioengine=pvsync"
	"randtrim-uring|zero|--rw=randtrim --size=1m --bs=64k --ioengine=io_uring --iodepth=8"
	"trimwrite-psync|-|--rw=trimwrite --size=1m --bs=64k --ioengine=psync"
	"trimwrite-bs3|-|--rw=trimwrite --size=256k --bs=4k,16k,32k --ioengine=psync"
	"trimwrite-libaio-direct|-|--rw=trimwrite --size=1m --bs=64k --ioengine=libaio --iodepth=8 --direct=1"
	"randtrimwrite-psync|-|--rw=randtrimwrite --size=1m --bs=64k --ioengine=psync"
	"randtrimwrite-libaio|-|--rw=randtrimwrite --size=1m --bs=32k --ioengine=libaio --iodepth=4"
	"randtrimwrite-uring|-|--rw=randtrimwrite --size=512k --bs=64k --ioengine=io_uring --iodepth=4"
	"trim-io_size|-|--rw=trim --size=1m --bs=64k --io_size=256k --ioengine=psync"
	"trimwrite-loops|-|--rw=trimwrite --size=256k --bs=64k --loops=2 --ioengine=libaio"
	"trimwrite-io_size|-|--rw=trimwrite --size=512k --bs=64k --io_size=1m --ioengine=psync"
	"trim-holes|holes|--rw=trim:4k --size=256k --ioengine=psync"
	"randtrim-nr4|-|--rw=randtrim:4 --size=1m --bs=64k --ioengine=psync"
)
drop_refused cases
# on regular files a trim punches a hole: where the file system has none (probed), the trims fail
# as the kernel answers, and the part on files is a counted skip
if ! kernel_has punch_hole "$T"; then
	case_skip "trims of regular files: the file system refuses hole punching here ($PROBE_WHY)"
	cases=()
fi
if ! skip_if_fio "rw=trim on regular files (fio 3.33 fails with ENOTTY there)"; then
	for c in "${cases[@]}"; do
		IFS='|' read -r name check args <<<"$c"
		# shellcheck disable=SC2086
		par_run run_one ref "$name" --name=t $args --ioengine=null --output-format=json
		# shellcheck disable=SC2086
		par_run run_one ut "$name" --name=t $args --output-format=json
		[ "$check" = "-" ] && [[ "$name" != *write-psync ]] && continue
		# shellcheck disable=SC2086
		par_run run_one ref "$name-n" --name=t $args --ioengine=null
		# shellcheck disable=SC2086
		par_run run_one ut "$name-n" --name=t $args --ioengine=null
	done
	par_wait
	for c in "${cases[@]}"; do
		IFS='|' read -r name check args <<<"$c"
		case_ran
		want=$(totals "$T/$name.ref.out")
		got=$(totals "$T/$name.ut.out")
		if [ -z "$want" ] || [ "$want" != "$got" ] || [ "$(rc_of "$name" ut)" != 0 ]; then
			add_err "$name: totals (error r_ios r_bytes w_ios w_bytes t_ios t_bytes): fio null [$want], iops [$got] rc=$(rc_of "$name" ut) $(head -c 300 "$T/$name.ut.err")"
			continue
		fi
		assert_pure_json "$name" "$T/$name.ut.out"
		bad=$(json_sanity "$T/$name.ut.out")
		[ -z "$bad" ] || add_err "$name: $bad"
		# normal output, both with the null engine (a few cases)
		[ -e "$T/$name-n.ut.rc" ] && assert_eq "$name-n: rc" "$(rc_of "$name-n" ref)" "$(rc_of "$name-n" ut)"
		if [ -e "$T/$name-n.ut.rc" ] && ! diff <(normalise_normal sb <"$T/$name-n.ref.out") <(normalise_normal sb <"$T/$name-n.ut.out") >"$T/d"; then
			add_err "$name: normal output differs from fio's: $(head -30 "$T/d")"
		fi
		# the files: full size; zeros and no blocks where everything was trimmed
		for f in "$T/$name.ut.d"/t.0.*; do
			[ -f "$f" ] || { add_err "$name: no file left"; break; }
			size=$(stat -c %s "$f")
			case $check in
			zero)
				cmp -s -n "$size" "$f" /dev/zero || add_err "$name: $f does not read back as zeros"
				[ "$(stat -c %b "$f")" = 0 ] || add_err "$name: $f still has $(stat -c %b "$f") blocks"
				;;
			holes)	# every other 4k block punched: half of the (fallocated) file stays allocated
				alloc=$(($(stat -c %b "$f") * 512))	# (+ up to 16k of extent blocks)
				[ "$alloc" -ge $((size / 2)) ] && [ "$alloc" -le $((size / 2 + 16384)) ] ||
					add_err "$name: $alloc bytes allocated, want $((size / 2))"
				;;
			*)
				[ "$(stat -c %b "$f")" != 0 ] || add_err "$name: $f has no data left"
				;;
			esac
		done
	done
fi

# ---- 2. a loop device, beside the real fio -------------------------------------------------------
LOOP=
truncate -s 8M "$T/img"
loop_attach "$T/img" || LOOP=
if [ -n "$LOOP" ]; then
	trap 'rc=$?; losetup -d "$LOOP"; (exit $rc); _e2e_exit' EXIT
	allow=(--allow_overwrite=1)
	[ "$UT_IS_FIO" = 1 ] && allow=()
	# one run per side and case, normal and JSON together (the JSON document comes first);
	# the runs share the device: trims and writes of one run do not change another's totals
	split_json() { sed -n '/^{$/,/^}$/p' "$1"; }
	split_normal() { sed '/^{$/,/^}$/d' "$1"; }
	loop_cases=()
	for rw in trim randtrim trimwrite randtrimwrite; do
		for e in psync libaio; do
			[ "$e" = psync ] || needs_engine "loop-$rw-$e" "$e" || continue
			name=loop-$rw-$e
			loop_cases+=("$name")
			depth=()
			[ "$e" = libaio ] && depth=(--iodepth=4)
			par_run run_one ref "$name" --name=t --rw="$rw" --size=1m --bs=64k --ioengine="$e" "${depth[@]}" \
				--filename="$LOOP" --output-format=normal,json
			par_run run_one ut "$name" --name=t --rw="$rw" --size=1m --bs=64k --ioengine="$e" "${depth[@]}" \
				--filename="$LOOP" --output-format=normal,json "${allow[@]}"
		done
	done
	par_wait
	for name in "${loop_cases[@]}"; do
		case_ran
		split_json "$T/$name.ref.out" >"$T/$name.ref.json"
		split_json "$T/$name.ut.out" >"$T/$name.ut.json"
		split_normal "$T/$name.ref.out" >"$T/$name.ref.txt"
		split_normal "$T/$name.ut.out" >"$T/$name.ut.txt"
		want=$(totals "$T/$name.ref.json")
		got=$(totals "$T/$name.ut.json")
		[ -n "$want" ] && [ "$want" = "$got" ] || add_err "$name: totals: fio [$want], iops [$got] $(head -c 300 "$T/$name.ut.err")"
		[ "$(rc_of "$name" ref)" = "$(rc_of "$name" ut)" ] ||
			add_err "$name: exit status fio $(rc_of "$name" ref), iops $(rc_of "$name" ut)"
		# iops needs allow_overwrite=1 for the device: not a layout difference
		diff <(json_shape <"$T/$name.ref.json" | sed 's/,$//') \
			<(json_shape <"$T/$name.ut.json" | grep -v '"allow_overwrite" : ' | sed 's/,$//') >"$T/d" ||
			add_err "$name: JSON layout differs: $(head -20 "$T/d")"
		diff <(normalise_normal sb <"$T/$name.ref.txt") <(normalise_normal sb <"$T/$name.ut.txt") >"$T/d" ||
			add_err "$name: normal output differs: $(head -30 "$T/d")"
		diff <(exact_lines <"$T/$name.ref.txt") <(exact_lines <"$T/$name.ut.txt") >"$T/d" ||
			add_err "$name: header lines differ: $(head -10 "$T/d")"
	done
	if ! skip_if_fio "iops refuses to trim a device the job does not allow"; then
		sum0=$(md5sum <"$LOOP")
		run_one ut loop-refused --name=t --rw=trim --size=1m --filename="$LOOP"
		assert_eq "loop-refused: rc" 1 "$(rc_of loop-refused ut)"
		assert_eq "loop-refused: stderr" \
			"fio: refusing to trim device '$LOOP': its data would be destroyed (set allow_overwrite=1 to allow)" \
			"$(cat "$T/loop-refused.ut.err")"
		assert_eq "loop-refused: device unchanged" "$sum0" "$(md5sum <"$LOOP")"
	fi
else
	skip_note "block-device comparisons: no loop device here ($PROBE_WHY)"
fi

# ---- 3. bad combinations and errors ---------------------------------------------------------------
same_error() {	# NAME ARGS...: same exit status and stderr, nothing created
	local name=$1
	shift
	run_pair "$name" "$@"
	assert_eq "$name: exit status" "$(rc_of "$name" ref)" "$(rc_of "$name" ut)"
	diff "$T/$name.ref.err" "$T/$name.ut.err" >"$T/d" || add_err "$name: stderr differs: $(cat "$T/d")"
	assert_eq "$name: files left" "$(files_in "$T/$name.ref.d")" "$(files_in "$T/$name.ut.d")"
}
same_error small --name=t --rw=trim --size=2k --bs=4k
same_error small-trimwrite --name=t --rw=randtrimwrite --size=8k --bs=16k
same_error badrw --name=t --rw=trimread --size=1m
assert_eq "small: exit status" 1 "$(rc_of small ut)"

# a character device: BLKDISCARD fails with ENOTTY on both (err=25, exit status 1)
run_pair chardev --name=t --rw=randtrim --size=64k --filename=/dev/null --output-format=json
assert_eq "chardev: exit status" "$(rc_of chardev ref)" "$(rc_of chardev ut)"
assert_eq "chardev: error" "$(json_doc "$T/chardev.ref.out" | jq -c '[.jobs[0].error, .jobs[0].trim.total_ios]')" \
	"$(json_doc "$T/chardev.ut.out" | jq -c '[.jobs[0].error, .jobs[0].trim.total_ios]')"
# (fio prints the line on stdout, iops on stderr)
assert_match "chardev: message" "err=25/file:ioengines.c:399, func=td_io_queue" "$(cat "$T/chardev.ut.err" "$T/chardev.ut.out")"

if ! skip_if_fio "iops refuses to trim a file it did not create"; then
	mkdir -p "$T/foreign.ut.d"
	head -c 65536 /dev/urandom >"$T/foreign.ut.d/data"
	sum0=$(md5sum <"$T/foreign.ut.d/data")
	run_one ut foreign --name=t --rw=trimwrite --size=64k --filename=data
	assert_eq "foreign: rc" 1 "$(rc_of foreign ut)"
	assert_match "foreign: stderr" "^fio: refusing to write into existing file 'data'" "$(cat "$T/foreign.ut.err")"
	run_one ut foreign --name=t --rw=trim --size=64k --filename=data
	assert_eq "foreign: stderr" "fio: refusing to trim existing file 'data': iops did not create it (set allow_overwrite=1 to allow)" \
		"$(cat "$T/foreign.ut.err")"
	assert_eq "foreign: file unchanged" "$sum0" "$(md5sum <"$T/foreign.ut.d/data")"
	run_one ut foreign --name=t --rw=trim --size=64k --filename=data --allow_overwrite=1 --output-format=json
	assert_eq "foreign allowed: totals" "0 0 0 0 0 16 65536" "$(totals "$T/foreign.ut.out")"
	cmp -s -n 65536 "$T/foreign.ut.d/data" /dev/zero || fail "foreign allowed: not zeros after the trim"
	run_one ut ro --readonly --name=t --rw=trim --size=64k
	assert_eq "readonly: rc" 1 "$(rc_of ro ut)"
	assert_eq "readonly: files" "" "$(files_in "$T/ro.ut.d")"
fi

if [ ${#errors[@]} -gt 0 ]; then
	printf '%s\n' "${errors[@]}" >&2
	fail "${#errors[@]} trim checks differ from fio"
fi
echo "ok: ${#cases[@]} file cases${LOOP:+, 8 loop-device cases}, errors"
