#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# verify_state_save / verify_state_load, trim_percentage / trim_verify_zero / trim_backlog /
# trim_backlog_batch and block_error_percentiles against fio 3.33:
#   1. the state file a verifying writer leaves (local-<job>-<n>-verify.state) is fio's, byte
#      for byte (sequential, random, 64-bit generator, iodepth 4, two files, two clones);
#   2. a writer stopped early (rate-limited, runtime=1) leaves a state; a randread or a
#      verify_only job with verify_state_load=1 checks exactly what it wrote, whichever tool
#      wrote and whichever reads; a missing or damaged state file fails like fio (exit 1);
#   3. trims of verified blocks (a loop device: fio 3.33 trims files with BLKDISCARD, which
#      fails there): the same read, write and trim totals as fio and the same "trim entries
#      leaked" line; iops on a regular file (holes) does the same totals as fio on the device;
#   4. block_error_percentiles: accepted where fio reports nothing, refused with trims (fio
#      aborts on an assertion), and the other refusals.
. "$(dirname "$0")/fio_common.sh"
FIO_PAR=${FIO_PAR:-12}

errors=()
add_err() { errors+=("$*"); }
tot() { json_doc "$1" | jq -c '[.jobs[] | .error, .read.total_ios, .write.total_ios, .trim.total_ios]'; }

# ---- 1. the state file ------------------------------------------------------------------------
scases=(
	"s-write|--name=t --rw=write --bs=4k --size=64k --verify=crc32c"
	"s-rand|--name=t --rw=randwrite --bs=4k --size=64k --verify=md5"
	"s-rand64|--name=t --rw=randwrite --bs=4k --size=64k --verify=crc32c --random_generator=tausworthe64 --name=u --rw=write --size=8k --verify=sha1 --iodepth=4 --do_verify=0"
	"s-libaio|--name=t --rw=write --bs=4k --size=64k --verify=crc32c --iodepth=4 --ioengine=libaio"
	"s-files|--name=t --nrfiles=2 --rw=write --bs=4k --size=64k --verify=xxhash --iodepth=3 --numjobs=2"
	"s-lfsr|--name=t --rw=randwrite --bs=4k --size=64k --verify=crc32c --random_generator=lfsr"
	"s-off|--name=t --rw=write --bs=4k --size=64k --verify=crc32c --verify_state_save=0"
	"s-read|--name=t --rw=read --bs=4k --size=64k --verify=crc32c"
	"s-noverify|--name=t --rw=write --bs=4k --size=64k"
)
drop_refused scases
for c in "${scases[@]}"; do
	IFS='|' read -r name args <<<"$c"
	# shellcheck disable=SC2086
	par_run run_pair "$name" $args
done

# ---- 2. a writer stopped early, then verify_state_load -------------------------------------------
W=(--name=t --filename=vk --bs=4k --size=256k --verify=crc32c)
stopped() {	# SIDE: write ~40 blocks of 64, then check them with both tools, two ways
	local side=$1 bin=$REF_FIO d=$T/load.$1 r rb
	[ "$side" = ut ] && bin=$UT_FIO
	mkdir -p "$d"
	(cd "$d" && "$bin" "${W[@]}" --rw=randwrite --rate_iops=40 --runtime=1 --output-format=json >w.json 2>w.err)
	for r in ref ut; do
		rb=$REF_FIO
		[ "$r" = ut ] && rb=$UT_FIO
		for how in randread verify_only; do
			mkdir -p "$d/$r.$how"
			cp "$d/vk" "$d/local-t-0-verify.state" "$d/$r.$how/"
			local a=(--rw=randread)
			[ "$how" = verify_only ] && a=(--rw=randwrite --verify_only=1)
			(cd "$d/$r.$how" && "$rb" "${W[@]}" "${a[@]}" --verify_state_load=1 --output-format=json >out 2>err)
			echo $? >"$d/$r.$how/rc"
		done
	done
}
par_run stopped ref
par_run stopped ut

# bad state files: NAME SETUP (what is done to fio's state file first)
badstate() {
	local name=$1 how=$2 side bin
	for side in ref ut; do
		bin=$REF_FIO
		[ "$side" = ut ] && bin=$UT_FIO
		mkdir -p "$T/$name.$side.d"
		(cd "$T/$name.$side.d" && "$REF_FIO" "${W[@]}" --rw=write --size=16k >/dev/null 2>&1)
		case $how in
		missing) rm "$T/$name.$side.d/local-t-0-verify.state" ;;
		version) printf '\x04' | dd of="$T/$name.$side.d/local-t-0-verify.state" bs=1 conv=notrunc status=none ;;
		corrupt) printf '\x01' | dd of="$T/$name.$side.d/local-t-0-verify.state" bs=1 seek=100 conv=notrunc status=none ;;
		short) truncate -s 100 "$T/$name.$side.d/local-t-0-verify.state" ;;
		esac
		(cd "$T/$name.$side.d" && "$bin" "${W[@]}" --rw=read --size=16k --verify_state_load=1 >../"$name.$side.out" \
			2>../"$name.$side.err")
		echo $? >"$T/$name.$side.rc"
	done
}
for b in missing version corrupt short; do
	par_run badstate "bad-$b" "$b"
done

# ---- 3. trims of verified blocks -----------------------------------------------------------------
tcases=(
	"t-backlog|--rw=trimwrite --bs=4k --size=256k --verify=crc32c --trim_percentage=50 --trim_backlog=8"
	"t-leak|--rw=trimwrite --bs=4k --size=256k --verify=crc32c --trim_percentage=50"
	"t-rand|--rw=randtrimwrite --bs=4k --size=256k --verify=crc32c --trim_percentage=30 --trim_backlog=5"
	"t-nozero|--rw=trimwrite --bs=4k --size=256k --verify=crc32c --trim_percentage=100 --trim_backlog=1 --trim_verify_zero=0"
	"t-batch|--rw=trimwrite --bs=4k --size=256k --verify=md5 --trim_percentage=70 --trim_backlog=4 --trim_backlog_batch=2"
	"t-batch1-nozero|--rw=trimwrite --bs=4k --size=256k --verify=md5 --trim_percentage=70 --trim_backlog=6 --trim_backlog_batch=1 --trim_verify_zero=0"
	"t-write-leak|--rw=write --bs=4k --size=256k --verify=crc32c --trim_percentage=50"
	"t-taus64|--rw=trimwrite --bs=4k --size=256k --verify=crc32c --trim_percentage=50 --trim_backlog=8 --random_generator=tausworthe64"
	"t-libaio|--rw=trimwrite --bs=4k --size=256k --verify=crc32c --trim_percentage=50 --trim_backlog=8 --ioengine=libaio --iodepth=4"
)
drop_refused tcases
LOOP=
truncate -s 8M "$T/img"
loop_attach "$T/img" || LOOP=
allow=(--allow_overwrite=1)
[ "$UT_IS_FIO" = 1 ] && allow=()
if [ -n "$LOOP" ]; then
	trap 'rc=$?; losetup -d "$LOOP"; (exit $rc); _e2e_exit' EXIT
	# one run at a time on the device: each run's trims and writes are its own
	for c in "${tcases[@]}"; do
		IFS='|' read -r name args <<<"$c"
		# shellcheck disable=SC2086
		run_one ref "$name" --name=t --filename="$LOOP" $args --output-format=json
		# shellcheck disable=SC2086
		run_one ut "$name" --name=t --filename="$LOOP" $args --output-format=json "${allow[@]}"
		# shellcheck disable=SC2086
		skip_if_fio "trims on a file" >/dev/null || par_run run_one ut "$name-file" --name=t $args --output-format=json
	done
else
	skip_note "trims of verified blocks: no loop device here ($PROBE_WHY)"
fi

# ---- 4. block_error_percentiles and refusals ------------------------------------------------------
par_run run_pair bep --name=t --rw=randwrite --size=256k --block_error_percentiles=1 --output-format=json
par_wait

for c in "${scases[@]}"; do
	IFS='|' read -r name args <<<"$c"
	assert_eq "$name: rc" "$(rc_of "$name" ref)" "$(rc_of "$name" ut)"
	want=$(cd "$T/$name.ref.d" && ls local-* 2>/dev/null | tr '\n' ' ')
	got=$(cd "$T/$name.ut.d" && ls local-* 2>/dev/null | tr '\n' ' ')
	[ "$want" = "$got" ] || add_err "$name: state files fio [$want], iops [$got]"
	for f in $want; do
		cmp -s "$T/$name.ref.d/$f" "$T/$name.ut.d/$f" ||
			add_err "$name: $f differs: $(cmp "$T/$name.ref.d/$f" "$T/$name.ut.d/$f" 2>&1 | head -1)"
	done
done
case_ran
for w in ref ut; do
	d=$T/load.$w
	n=$(json_doc "$d/w.json" | jq '.jobs[0].write.total_ios')
	[ -n "$n" ] && [ "$n" -gt 0 ] && [ "$n" -lt 64 ] || add_err "load.$w: the writer wrote $n blocks (want a part of 64)"
	for r in ref ut; do
		for how in randread verify_only; do
			got=$(json_doc "$d/$r.$how/out" | jq -c '.jobs[0] | [.error, .read.total_ios]')
			[ "$(cat "$d/$r.$how/rc")" = 0 ] && [ "$got" = "[0,$n]" ] ||
				add_err "load: written by $w, $how by $r: rc $(cat "$d/$r.$how/rc") [error, reads] $got, want [0,$n] $(head -c 200 "$d/$r.$how/err")"
		done
	done
done
for b in missing version corrupt short; do
	assert_eq "bad-$b: rc" 1 "$(rc_of "bad-$b" ref)"
	assert_eq "bad-$b: rc" 1 "$(rc_of "bad-$b" ut)"
	# fio's words (iops names the file in the open error, on one line)
	want=$(head -1 "$T/bad-$b.ref.err")
	[ "$UT_IS_FIO" = 1 ] || want=${want/open state file: /open state file local-t-0-verify.state: }
	assert_eq "bad-$b: message" "$want" "$(head -1 "$T/bad-$b.ut.err")"
done
if [ -n "$LOOP" ]; then
	for c in "${tcases[@]}"; do
		IFS='|' read -r name args <<<"$c"
		want=$(tot "$T/$name.ref.out")
		got=$(tot "$T/$name.ut.out")
		[ -n "$want" ] && [ "$want" = "$got" ] || add_err "$name: [error, reads, writes, trims] fio [$want], iops [$got] $(head -c 200 "$T/$name.ut.err")"
		assert_eq "$name: leak line" "$(grep leaked "$T/$name.ref.err")" "$(grep leaked "$T/$name.ut.err")"
		if [ -e "$T/$name-file.ut.out" ]; then
			got=$(tot "$T/$name-file.ut.out")
			[ "$want" = "$got" ] || add_err "$name: on a file, iops [$got], fio on the device [$want]"
		fi
	done
fi
assert_eq "bep: totals" "$(tot "$T/bep.ref.out")" "$(tot "$T/bep.ut.out")"
assert_eq "bep: job option" "$(json_doc "$T/bep.ref.out" | jq -c '.jobs[0]["job options"].block_error_percentiles')" \
	"$(json_doc "$T/bep.ut.out" | jq -c '.jobs[0]["job options"].block_error_percentiles')"

if ! skip_if_fio "iops refusals"; then
	refuse() {
		local want=$1
		shift
		mkdir -p "$T/refuse"
		(cd "$T/refuse" && "$UT_FIO" --name=v --size=64k "$@" >out 2>err)
		assert_eq "$* rc" 1 "$?"
		assert_eq "$* message" "$want" "$(tail -1 "$T/refuse/err")"
		assert_eq "$* nothing created" "err out" "$(ls "$T/refuse" | tr '\n' ' ' | sed 's/ $//')"
		rm -rf "$T/refuse"
	}
	refuse "fio: block_error_percentiles is not supported with trims (fio 3.33 aborts on an assertion when it reports them)" \
		--rw=randtrim --block_error_percentiles=1
	refuse "fio: trim_backlog needs a job that trims (rw=trimwrite or randtrimwrite): fio 3.33 aborts on an assertion at its first trim" \
		--rw=randwrite --verify=crc32c --trim_percentage=10 --trim_backlog=4
	refuse "fio: iops cannot trim verified blocks whose writes may overlap: drop norandommap, rw=...:N or percentage_random" \
		--rw=randtrimwrite --verify=crc32c --trim_percentage=10 --trim_backlog=4 --norandommap
	refuse "fio: verify_offset=50 overlaps the 56 header bytes it moves: fio 3.33 fails every block so written" \
		--rw=write --verify=md5 --verify_offset=50
	refuse "fio: trim_backlog=-1: fio 3.33 reads 18446744073709551615, past 2^63 - 1 (a negative number, wrapped): iops refuses it" --rw=trimwrite --verify=md5 --trim_percentage=10 --trim_backlog=-1
	refuse "fio: open state file local-v-0-verify.state: No such file or directory" --rw=read --verify=md5 --verify_state_load=1
fi

if [ ${#errors[@]} -gt 0 ]; then
	printf '%s\n' "${errors[@]}" >&2
	fail "${#errors[@]} checks differ from fio"
fi
echo "ok: ${#scases[@]} state files, loads both ways, ${#tcases[@]} trim cases${LOOP:+ (loop device)}, refusals"
