#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every verify= checksum and verify_only against fio 3.33: what one tool writes (randwrite,
# do_verify=1: its own check passes), the other verifies, with a read job and with
# verify_only=1 (the same writer job, no writes: the blocks are read back and checked), both
# ways; a corrupted block fails on both; write+verify jobs do fio's reads and writes; a
# verify_only job reports fio's totals (writes counted, none done: the file is unchanged).
. "$(dirname "$0")/fio_common.sh"
FIO_PAR=${FIO_PAR:-24}	# fio spends most of a run waiting: many at once

errors=()
add_err() { errors+=("$*"); }
types=(md5 crc64 crc32 crc32c crc16 crc7 sha1 sha256 sha512 sha3-224 sha3-256 sha3-384 sha3-512 xxhash)
J=(--name=x --size=128k --bs=4k --verify_state_save=0)

# cross WRITER CHECKER TYPE ARGS: WRITER writes and checks its own blocks, CHECKER read-verifies
# them, then verifies them again with verify_only=1; the file must be unchanged by that.
cross() {
	local w=$1 r=$2 t=$3 d wbin=$REF_FIO rbin=$REF_FIO sum
	shift 3
	d=$T/cross.$w.$r.$t.$#
	mkdir -p "$d"
	[ "$w" = ut ] && wbin=$UT_FIO
	[ "$r" = ut ] && rbin=$UT_FIO
	if ! (cd "$d" && "$wbin" "${J[@]}" --rw=randwrite --verify="$t" "$@" --output-format=json >wout 2>werr); then
		echo "cross $w->$r $t $*: the writer's own verify failed: $(head -c 300 "$d/werr")" >"$T/fail.$w.$r.$t.$#"
		return
	fi
	sum=$(md5sum <"$d/x.0.0")
	if ! (cd "$d" && "$rbin" "${J[@]}" --rw=read --verify="$t" "$@" >rout 2>rerr); then
		echo "cross $w->$r $t $*: read-verify: $(head -c 300 "$d/rerr")" >"$T/fail.$w.$r.$t.$#"
	elif ! (cd "$d" && "$rbin" "${J[@]}" --rw=randwrite --verify="$t" --verify_only=1 "$@" \
		--output-format=json >vout 2>verr); then
		echo "cross $w->$r $t $*: verify_only: $(head -c 300 "$d/verr")" >"$T/fail.$w.$r.$t.$#"
	elif [ "$(json_doc "$d/vout" | jq -c '.jobs[0] | [.error, .read.io_bytes, .write.io_bytes, .write.runtime]')" != \
		"$(json_doc "$d/wout" | jq -c '.jobs[0] | [.error, .write.io_bytes, .write.io_bytes, 0]')" ]; then
		echo "cross $w->$r $t $*: verify_only totals (error, read, write bytes, write runtime) $(json_doc "$d/vout" | jq -c '.jobs[0] | [.error, .read.io_bytes, .write.io_bytes, .write.runtime]')" \
			>"$T/fail.$w.$r.$t.$#"
	elif [ "$(md5sum <"$d/x.0.0")" != "$sum" ]; then
		echo "cross $w->$r $t $*: verify_only changed the file" >"$T/fail.$w.$r.$t.$#"
	fi
}

for t in "${types[@]}"; do
	par_run cross ref ut "$t"
	par_run cross ut ref "$t"
done
# intervals and offsets (fio's sha256 field with a last block of 56 and 0 data bytes, sha512
# with fewer than 128 after the first block)
par_run cross ref ut sha256 --bs=4256
par_run cross ut ref sha256 --bs=4200
par_run cross ref ut sha512 --bs=4264
par_run cross ut ref sha512 --verify_interval=512 --verify_offset=200 --bs=8k
set_aio "crc7 across the tools, queued"
par_run cross ref ut crc7 --verify_interval=512 --verify_offset=64 --bs=8k --ioengine=$AIO --iodepth=8

# write+verify: the same totals as fio
for t in crc64 sha1 sha512 sha3-256; do
	par_run run_pair "wv-$t" --name=v --size=512k --rw=randwrite --verify="$t" --bs=8k --output-format=json
done
par_run run_pair wv-backlog --name=v --size=512k --rw=write --verify=crc16 --verify_backlog=7 --output-format=json
# verify_only without verify=: writes counted, nothing read (as fio)
par_run run_pair vo-none --name=v --size=256k --rw=write --verify_only --output-format=json

# corrupt NAME OFFSET TYPE ARGS: write with TYPE (fio), flip a byte, read-verify with both
corrupt() {
	local name=$1 off=$2 t=$3 side bin d
	shift 3
	d=$T/$name.src
	mkdir -p "$d"
	(cd "$d" && "$REF_FIO" --name=v --size=64k --rw=write --verify="$t" --do_verify=0 --verify_state_save=0 \
		"$@" >/dev/null 2>&1)
	printf '\xa5' | dd of="$d/v.0.0" bs=1 seek="$off" conv=notrunc status=none
	for side in ref ut; do
		bin=$REF_FIO
		[ "$side" = ut ] && bin=$UT_FIO
		mkdir -p "$T/$name.$side.d"
		cp "$d/v.0.0" "$T/$name.$side.d/"
		(cd "$T/$name.$side.d" && exec "$bin" --name=v --size=64k --rw=read --verify="$t" --verify_state_save=0 "$@") \
			>"$T/$name.$side.out" 2>"$T/$name.$side.err"
		echo $? >"$T/$name.$side.rc"
	done
}
# (bytes 4096+: the second block; its header is 40 bytes, then the checksum field: byte 100 of
# sha512's holds data byte 100, which fio compares; data bytes 0..87 of a block it never does)
par_run corrupt k-crc64 8000 crc64
par_run corrupt k-crc16 8000 crc16
par_run corrupt k-crc7 8000 crc7
par_run corrupt k-sha1 8000 sha1
par_run corrupt k-sha256 8000 sha256
par_run corrupt k-sha512-tail 8191 sha512
par_run corrupt k-sha512-field 4236 sha512
par_run corrupt k-sha3 8000 sha3-512

par_wait

for f in "$T"/fail.*; do
	[ -e "$f" ] && add_err "$(cat "$f")"
done
for t in crc64 sha1 sha512 sha3-256 backlog; do
	name=wv-$t
	want=$(json_totals "$T/$name.ref.out")
	got=$(json_totals "$T/$name.ut.out")
	[ -n "$want" ] && [ "$want" = "$got" ] || add_err "$name: totals fio [$want], iops [$got] $(head -c 200 "$T/$name.ut.err")"
done
q='.jobs[0] | [.error, .read.total_ios, .read.io_bytes, .write.total_ios, .write.io_bytes, .write.runtime]'
assert_eq "vo-none: totals" "$(json_doc "$T/vo-none.ref.out" | jq -c "$q")" "$(json_doc "$T/vo-none.ut.out" | jq -c "$q")"
for name in k-crc64 k-crc16 k-crc7 k-sha1 k-sha256 k-sha512-tail k-sha512-field k-sha3; do
	assert_eq "$name: exit status" "$(rc_of "$name" ref)" "$(rc_of "$name" ut)"
	assert_eq "$name: exit status" 1 "$(rc_of "$name" ut)"
	# the first message line (the check that failed, the block) is fio's, word for word
	assert_eq "$name: message" "$(grep -m1 'verify failed' "$T/$name.ref.err")" "$(grep -m1 'verify failed' "$T/$name.ut.err")"
	assert_eq "$name: checksums" "$(grep -E 'Expected|Received' "$T/$name.ref.err")" \
		"$(grep -E 'Expected|Received' "$T/$name.ut.err")"
done

if ! skip_if_fio "iops refuses sha512 on blocks fio cannot verify"; then
	mkdir -p "$T/refuse"
	(cd "$T/refuse" && "$UT_FIO" --name=v --size=64k --bs=256 --rw=write --verify=sha512 >out 2>err)
	assert_eq "sha512 small: rc" 1 "$?"
	assert_eq "sha512 small: message" \
		"fio: verify=sha512 needs blocks (or verify_interval) of at least 296 bytes: fio 3.33 fails every smaller one" \
		"$(cat "$T/refuse/err")"
	assert_eq "sha512 small: nothing created" "err out" "$(ls "$T/refuse" | tr '\n' ' ' | sed 's/ $//')"
fi

if [ ${#errors[@]} -gt 0 ]; then
	printf '%s\n' "${errors[@]}" >&2
	fail "${#errors[@]} verify checks differ from fio"
fi
echo "ok: ${#types[@]} types both ways (read-verify and verify_only), totals, corrupted blocks"
