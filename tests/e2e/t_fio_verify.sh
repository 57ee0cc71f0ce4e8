#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# verify= against fio 3.33: write+verify jobs do the same reads and writes as fio (JSON totals,
# exit status, error), the media format is fio's (a file written by one verifies with the other),
# a corrupted file fails a read-verify job with fio's messages and exit status, and bad values
# are refused like fio.
. "$(dirname "$0")/fio_common.sh"
FIO_PAR=${FIO_PAR:-12}	# fio spends ~1 s per run waiting: run many at once

errors=()
add_err() { errors+=("$*"); }

# ---- 1. totals: NAME|ARGS (word-split) ----------------------------------------------------
cases=(
	"write-crc32c|--name=v --size=2m --rw=write --verify=crc32c --verify_async=2 --verify_dump=0 --verify_fatal=1 --verify_state_save=1"
	"randwrite-md5-libaio|--name=v --size=2m --rw=randwrite --verify=md5 --ioengine=libaio --iodepth=8 --direct=1"
	"randwrite-xxhash-interval|--name=v --size=2m --rw=randwrite --verify=xxhash --verify_interval=1k --verify_offset=100"
	"write-sha256-8k|--name=v --size=2m --rw=write --bs=8k --verify=sha256"
	"randwrite-crc32-loops2|--name=v --size=1m --rw=randwrite --verify=crc32 --loops=2"
	"randwrite-meta-io_size|--name=v --size=1m --io_size=3m --rw=randwrite --verify=meta"
	"write-pattern|--name=v --size=1m --rw=write --verify=pattern --verify_pattern=0xdeadbeef%o"
	"randwrite-pattern-hdr|--name=v --size=1m --rw=randwrite --verify_pattern=0x1234"
	"randwrite-nrfiles3|--name=v --size=3m --nrfiles=3 --rw=randwrite --verify=crc32c --bs=8k"
	"write-null-engine|--name=v --size=4m --rw=write --verify=md5 --ioengine=null"
	"write-do_verify0|--name=v --size=1m --rw=write --verify=md5 --do_verify=0"
	"randwrite-seed001-shape|--name=rand-write --ioengine=libaio --iodepth=32 --rw=randwrite --invalidate=1 --bsrange=4k:4k,4k:4k --size=4m --do_verify=1 --direct=1 --verify=crc32c --group_reporting --numjobs=1"
)
# cross WRITER READER TYPE ARGS: WRITER writes (do_verify=0), READER read-verifies; a failure
# leaves $T/cross-fail.* behind (this runs in the background).
cross() {
	local w=$1 r=$2 t=$3 d
	shift 3
	d=$T/cross.$w.$r.$t.$#
	mkdir -p "$d"
	local wbin=$REF_FIO rbin=$REF_FIO
	[ "$w" = ut ] && wbin=$UT_FIO
	[ "$r" = ut ] && rbin=$UT_FIO
	if ! (cd "$d" && "$wbin" --name=x --size=256k --rw=randwrite --verify="$t" --do_verify=0 \
		--verify_state_save=0 "$@" >/dev/null 2>&1); then
		echo "cross $w->$r $t $*: write failed" >"$T/cross-fail.$w.$r.$t.$#"
	elif ! (cd "$d" && "$rbin" --name=x --size=256k --rw=read --verify="$t" --verify_state_save=0 "$@" \
		--output-format=terse >out 2>err); then
		echo "cross $w->$r $t $*: $(head -c 300 "$d/err")" >"$T/cross-fail.$w.$r.$t.$#"
	fi
}

# corrupt NAME OFFSET BYTE TYPE ARGS: write 64 KiB with TYPE, put BYTE at OFFSET, read-verify.
corrupt() {
	local name=$1 off=$2 byte=$3 t=$4 side
	shift 4
	for side in ref ut; do
		local bin=$REF_FIO d=$T/$name.$side.d
		[ "$side" = ut ] && bin=$UT_FIO
		mkdir -p "$d"
		(cd "$d" && "$bin" --name=v --size=64k --rw=write --verify="$t" --do_verify=0 --verify_state_save=0 \
			"$@" >/dev/null 2>&1)
		# (a byte that was already BYTE would corrupt nothing: the case is then void, and says so)
		[ "$(od -An -tx1 -j"$off" -N1 "$d/v.0.0" | tr -d ' ')" != "$byte" ] || echo "$name.$side" >>"$T/void-corruptions"
		printf "\\x$byte" | dd of="$d/v.0.0" bs=1 seek="$off" conv=notrunc status=none
		(cd "$d" && exec "$bin" --name=v --size=64k --rw=read --verify="$t" --verify_state_save=0 "$@") \
			>"$T/$name.$side.out" 2>"$T/$name.$side.err"
		echo $? >"$T/$name.$side.rc"
	done
}

# ---- everything runs at once (fio takes ~1 s per run, mostly waiting) ----------------------
drop_refused cases
for c in "${cases[@]}"; do
	IFS='|' read -r name args <<<"$c"
	# shellcheck disable=SC2086
	par_run run_pair "$name" $args --output-format=json
done
# randrw: the mixed phase's reads are not checked, the verify phase reads back every write
par_run run_pair randrw --name=v --size=2m --rw=randrw --verify=crc32c --output-format=json
# time_based write-only: fio's warning (fio prints it on stdout, iops on stderr), no verify phase
par_run run_pair timed --name=v --size=1m --rw=randwrite --verify=crc32c --time_based --runtime=1 --ioengine=null
# the media format is fio's: what one writes, the other verifies
par_run cross ref ut crc32c
par_run cross ut ref crc32c-intel
par_run cross ut ref crc32
par_run cross ref ut md5
par_run cross ut ref xxhash
par_run cross ref ut meta
par_run cross ref ut crc32c --verify_interval=512 --verify_offset=64 --bs=8k
par_run cross ut ref md5 --verify_interval=1k --bs=16k
par_run cross ut ref pattern --verify_pattern=0xff%o\"abcd\"-12
# a corrupted file: fio's messages, error and exit status
corr=(
	"c-magic|8192|55|crc32c"
	"c-len|8196|55|crc32c"
	"c-offset|8208|55|crc32c"
	"c-hdrcrc|8228|55|crc32c"
	"c-data-crc32c|8300|55|crc32c"
	"c-data-md5|12000|55|md5"
	"c-data-xxhash|100|55|xxhash"
	"c-interval|11400|00|crc32c|--verify_interval=1k"
	"c-pattern|4000|55|pattern|--verify_pattern=0xdeadbeef"
	"c-meta-hdr|4100|55|meta"
)
for c in "${corr[@]}"; do
	IFS='|' read -r name off byte t extra <<<"$c"
	# shellcheck disable=SC2086
	par_run corrupt "$name" "$off" "$byte" "$t" $extra
done
have_aio=1
needs_engine "c-libaio, c-fatal (verify failures of queued requests)" libaio || have_aio=0
if [ "$have_aio" = 1 ]; then
	par_run corrupt c-libaio 8300 55 crc32c --ioengine=libaio --iodepth=8
	par_run corrupt c-fatal 300 55 crc32c --ioengine=libaio --iodepth=8 --verify_fatal=1 --bs=1k
fi
# bad values
bad=(
	"--verify=foo"
	"--verify="
	"--verify_interval=79"
	"--verify_interval=0"
	"--verify_pattern=abc"
	"--verify_pattern=0x"
	"--verify_pattern=4294967295"
	"--verify_fatal=2"
	"--do_verify=3"
	"--verify_offset=10"
)
i=0
for a in "${bad[@]}"; do
	par_run run_pair "bad$i" --name=v --size=1m --rw=write "$a"
	i=$((i + 1))
done
# verify_backlog, experimental_verify: the same reads and writes as fio
bcases=(
	"bl-write|--size=1m --rw=write --verify=crc32c --verify_backlog=32"
	"bl-write-30|--size=1m --rw=write --verify=crc32c --verify_backlog=30"
	"bl-batch5|--size=1m --rw=write --verify=md5 --verify_backlog=16 --verify_backlog_batch=5"
	"bl-batch20|--size=1m --rw=write --verify=md5 --verify_backlog=8 --verify_backlog_batch=20"
	"bl-randwrite-libaio|--size=1m --rw=randwrite --verify=md5 --verify_backlog=64 --ioengine=libaio --iodepth=16 --direct=1"
	"bl-loops2|--size=1m --rw=randwrite --verify=xxhash --verify_backlog=10 --loops=2"
	"bl-io_size|--size=1m --io_size=3m --rw=write --verify=md5 --verify_backlog=16"
	"bl-do_verify0|--size=1m --rw=write --verify=md5 --verify_backlog=4 --do_verify=0"
	"bl-interval-nrfiles2|--size=1m --rw=randwrite --verify=crc32c --verify_backlog=7 --bs=8k --verify_interval=1k --nrfiles=2"
	"ev-randwrite|--size=1m --rw=randwrite --verify=md5 --experimental_verify=1"
	"ev-loops8|--size=256k --rw=write --verify=md5 --experimental_verify=1 --loops=8"
	"ev-io_size|--size=256k --io_size=1m --rw=randwrite --verify=sha256 --experimental_verify=1"
	"ev-backlog|--size=256k --rw=write --verify=md5 --experimental_verify=1 --verify_backlog=4"
)
drop_refused bcases
for c in "${bcases[@]}"; do
	IFS='|' read -r name args <<<"$c"
	# shellcheck disable=SC2086
	par_run run_pair "$name" --name=v $args --output-format=json
done
# mixes: every write read back once (backlog=1 and readwrite: fio's t0008)
par_run run_pair bl-randrw --name=v --size=2m --rw=randrw --verify=crc32c --verify_backlog=16 --output-format=json
par_run run_pair bl-readwrite --name=v --size=4m --rw=readwrite --verify=crc32c --verify_backlog=1 --output-format=json
# time_based: read-backs all along, no warning, at most a backlog left unread at the end
par_run run_pair bl-timed --name=v --size=256k --rw=write --verify=crc32c --verify_backlog=8 --time_based \
	--runtime=1 --output-format=json
# verify_dump: a corrupted block's files (written by iops, read by both)
dump_case() {
	local name=$1 off=$2 side bin d
	mkdir -p "$T/$name.src"
	(cd "$T/$name.src" && "$UT_FIO" --name=v --size=64k --bs=8k --rw=write --verify=md5 --verify_interval=4k \
		--do_verify=0 --verify_state_save=0 >/dev/null 2>&1)
	for side in ref ut; do
		bin=$REF_FIO
		[ "$side" = ut ] && bin=$UT_FIO
		d=$T/$name.$side.d
		mkdir -p "$d"
		cp "$T/$name.src/v.0.0" "$d/v.0.0"
		printf '\x55\xaa' | dd of="$d/v.0.0" bs=1 seek="$off" conv=notrunc status=none
		(cd "$d" && exec "$bin" --name=v --size=64k --bs=8k --rw=read --verify=md5 --verify_interval=4k \
			--verify_dump=1 --verify_state_save=0) >"$T/$name.$side.out" 2>"$T/$name.$side.err"
		echo $? >"$T/$name.$side.rc"
	done
}
par_run dump_case dump-data $((16384 + 4096 + 900))
par_run dump_case dump-hdr 24576
par_wait

# totals NAME SIDE: per job: name, error, read ios and bytes, write ios and bytes, and whether the
# reads got a runtime. One jq run per file (jq is slow to start on a busy machine); the binary
# under test must print the JSON document alone (fio may print messages before it).
totals() {
	local f=$T/$1.$2.out
	if [ "$2" = ref ] || [ "$UT_IS_FIO" = 1 ]; then json_doc "$f"; else cat "$f"; fi |
		jq -r '.jobs[] | [.jobname, .error, .read.total_ios, .read.io_bytes, .write.total_ios,
			.write.io_bytes, (.read.total_ios == 0 or .read.runtime > 0)] | map(tostring) | join(" ")' 2>/dev/null
}
# files left behind, without fio's verify state files (iops writes none)
left() { files_in "$T/$1.$2.d" | grep -v -- '-verify\.state$'; }

for c in "${cases[@]}"; do
	IFS='|' read -r name _ <<<"$c"
	rr=$(rc_of "$name" ref) ru=$(rc_of "$name" ut)
	if [ "$rr" != 0 ]; then
		case_skip "$name: reference fio failed (rc $rr): $(head -1 "$T/$name.ref.err" | head -c 200)"
		continue
	fi
	case_ran
	[ "$ru" = 0 ] || { add_err "$name: exit status $ru: $(head -c 300 "$T/$name.ut.err")"; continue; }
	a=$(totals "$name" ref) b=$(totals "$name" ut)
	[ -n "$b" ] && [ "$a" = "$b" ] || add_err "$name: totals differ
    fio:  $(tr '\n' '|' <<<"$a")
    ours: $(tr '\n' '|' <<<"$b")"
	[ "$(left "$name" ref)" = "$(left "$name" ut)" ] || add_err "$name: files left differ"
	[ "$UT_IS_FIO" = 1 ] || [ ! -s "$T/$name.ut.err" ] || add_err "$name: stderr: $(head -c 300 "$T/$name.ut.err")"
done
# do_verify=0: no read at all; the others read back every block they wrote
assert_eq "do_verify=0 reads" "v 0 0 0 256 1048576 true" "$(totals write-do_verify0 ut)"
[[ " ${cases[*]} " != *" randwrite-seed001-shape|"* ]] ||
	assert_eq "seed 001 (verify on) reads" "rand-write 0 1024 4194304 1024 4194304 true" "$(totals randwrite-seed001-shape ut)"

for side in ref ut; do
	read -r _ e ri rb wi wb _ <<<"$(totals randrw "$side")"
	assert_eq "randrw ($side) error" 0 "$e"
	# reads: the mixed phase's, plus one per write in the verify phase = every mixed I/O
	assert_eq "randrw ($side): reads" "512 2097152" "$ri $rb"
	[ "$wi" -gt 150 ] && [ "$wi" -lt 362 ] || add_err "randrw ($side): $wi writes"
	[ "$wb" = $((wi * 4096)) ] || add_err "randrw ($side): write bytes"
done

assert_eq "timed warning" "$(grep '^fio: verification' "$T/timed.ref.out" "$T/timed.ref.err" -h)" \
	"$(grep '^fio: verification' "$T/timed.ut.out" "$T/timed.ut.err" -h)"
assert_eq "timed rc" 0 "$(rc_of timed ut)"
grep -q '^  read:' "$T/timed.ut.out" && add_err "timed: a verify phase ran"

# ---- 2. the media format is fio's ---------------------------------------------------------
for f in "$T"/cross-fail.*; do
	[ -e "$f" ] && add_err "$(cat "$f")"
done

# ---- 3. a corrupted file ------------------------------------------------------------------
# the verify lines (fio prints its "fio: pid=" line on stdout, iops on stderr: left out)
# (header crcs cover the write time, data checksums the data, which is random: hex digits masked)
vlines() {
	grep -v '^fio: pid=' "$T/$1.$2.err" | sed -E -e 's/^(verify: bad header crc )[0-9a-f]+, calculated [0-9a-f]+/\1X, calculated Y/' \
		-e ':a' -e 's/(CRC: x*)[0-9a-f]/\1x/' -e 'ta' \
		-e 's/^(pattern: verify failed at file .* offset [0-9]+, length )[0-9]+ \(/\1L (/' \
		-e '/^fio: verify type mismatch \([0-9]+ media, 18 given\)$/d'
	# (fio reads a header that verify=pattern does not write: a length and a type made of the
	# pattern's bytes; iops prints the block's length and no type line)
}
errline() { grep -h 'err=' "$T/$1.$2.out" "$T/$1.$2.err" | grep groupid | sed -E 's/pid=[0-9]+: .*/pid=P/'; }
for c in "${corr[@]}"; do
	IFS='|' read -r name _ <<<"$c"
	assert_eq "$name rc" "$(rc_of "$name" ref)" "$(rc_of "$name" ut)"
	assert_eq "$name rc is 1" 1 "$(rc_of "$name" ut)"
	assert_eq "$name messages" "$(vlines "$name" ref)" "$(vlines "$name" ut)"
	assert_eq "$name job line" "$(errline "$name" ref)" "$(errline "$name" ut)"
	assert_eq "$name issued" "$(grep 'issued rwts' "$T/$name.ref.out")" "$(grep 'issued rwts' "$T/$name.ut.out")"
done
assert_match "magic message" '^verify: bad magic header ac55, wanted acca at file v.0.0 offset 8192, length 4096' \
	"$(vlines c-magic ut)"
assert_match "err=84" 'err=84 \(file:io_u.c:2152, func=io_u_sync_complete, error=Invalid or incomplete multibyte or wide character\)' \
	"$(errline c-magic ut)"
if [ "$have_aio" = 1 ]; then
	# libaio: the same first message and err=84 with fio's queued-completion site
	assert_eq "libaio rc" 1 "$(rc_of c-libaio ut)"
	assert_eq "libaio first message" "$(vlines c-libaio ref | head -3)" "$(vlines c-libaio ut | head -3)"
	assert_eq "libaio job line" "$(errline c-libaio ref)" "$(errline c-libaio ut)"
	# verify_fatal=1: one failure reported, whatever else is in flight
	assert_eq "verify_fatal rc" 1 "$(rc_of c-fatal ut)"
	assert_eq "verify_fatal: one failure" 1 "$(grep -c 'verify failed' "$T/c-fatal.ut.err")"
fi
# a file that was never written with headers
mkdir -p "$T/zero.ut.d"
(cd "$T/zero.ut.d" && "$UT_FIO" --name=v --size=64k --rw=write --zero_buffers >/dev/null 2>&1 &&
	"$UT_FIO" --name=v --size=64k --rw=randread --verify=md5 >out 2>err)
assert_eq "unverified file rc" 1 "$?"
assert_match "unverified file" '^verify: bad magic header 0, wanted acca at file v.0.0 offset [0-9]+, length 4096' \
	"$(head -1 "$T/zero.ut.d/err")"

assert_eq "corruptions that changed a byte" "" "$(cat "$T/void-corruptions" 2>/dev/null)"

# verify's data is repeatable, as fio's: the same job writes the same data run after run (only
# the headers' write time differs), unless randrepeat=0 without a randseed
vdata() {	# SIDE ARGS: the data bytes 8240-8703 of block 2 (past any header) after a verify write
	local bin=$REF_FIO d=$T/vdata
	[ "$1" = ut ] && bin=$UT_FIO
	shift
	rm -rf "$d" && mkdir -p "$d"
	(cd "$d" && "$bin" --name=v --size=64k --rw=write --verify=crc32c --do_verify=0 --verify_state_save=0 \
		"$@" >/dev/null 2>&1) && od -An -tx1 -j8240 -N464 "$d/v.0.0" | tr -d ' \n'
}
for side in ref ut; do
	assert_eq "$side: verify data repeatable" "$(vdata $side)" "$(vdata $side)"
	[ "$have_aio" = 0 ] || assert_eq "$side: verify data repeatable (libaio, depth 8)" \
		"$(vdata $side --ioengine=libaio --iodepth=8)" "$(vdata $side --ioengine=libaio --iodepth=8)"
	a=$(vdata $side --randrepeat=0) b=$(vdata $side --randrepeat=0)
	[ -n "$a" ] && [ "$a" != "$b" ] || fail "$side: verify data with randrepeat=0 is the same twice"
done
assert_eq "verify data: randseed moves it (iops)" 1 "$([ "$(vdata ut --randseed=7)" != "$(vdata ut)" ] && echo 1)"

# ---- 4. bad values like fio -----------------------------------------------------------------
i=0
for a in "${bad[@]}"; do
	assert_eq "$a rc" "$(rc_of "bad$i" ref)" "$(rc_of "bad$i" ut)"
	assert_eq "$a stderr" "$(cat "$T/bad$i.ref.err")" "$(cat "$T/bad$i.ut.err")"
	assert_eq "$a stdout (valid values, descriptions masked)" "$(help_fields mask <"$T/bad$i.ref.out")" "$(help_fields mask <"$T/bad$i.ut.out")"
	assert_eq "$a: nothing created" "" "$(ls -A "$T/bad$i.ut.d")"
	i=$((i + 1))
done

# iops' own refusals (fio accepts these, or crashes on them): one line, status 1, nothing created
if ! skip_if_fio "iops refusals"; then
	refuse() {
		local want=$1
		shift
		mkdir -p "$T/refuse"
		(cd "$T/refuse" && "$UT_FIO" --name=v --size=1m "$@" >out 2>err)
		assert_eq "$* rc" 1 "$?"
		assert_eq "$* message" "$want" "$(tail -1 "$T/refuse/err")"
		assert_eq "$* nothing created" "err out" "$(ls "$T/refuse" | tr '\n' ' ' | sed 's/ $//')"
		rm -rf "$T/refuse"
	}
	refuse "fio: verify=sha512 needs blocks (or verify_interval) of at least 296 bytes: fio 3.33 fails every smaller one" \
		--verify=sha512 --bs=256 --rw=write
	refuse "fio: verify=pattern needs a verify_pattern" --verify=pattern --rw=write
	refuse "fio: verify_offset too large (4060 + 44 header bytes > 4096)" --verify=crc32c --verify_offset=4060 --rw=write
	refuse "fio: iops cannot verify overlapping writes of variable size: drop norandommap or use a single block size" \
		--verify=crc32c --rw=randwrite --norandommap --bsrange=1k-8k
fi

# ---- 5. verify_backlog, experimental_verify, verify_dump -----------------------------------
# (fio's read runtime of a backlog job is not the time of its reads: left out)
btotals() {
	local f=$T/$1.$2.out
	if [ "$2" = ref ] || [ "$UT_IS_FIO" = 1 ]; then json_doc "$f"; else cat "$f"; fi |
		jq -r '.jobs[] | [.jobname, .error, .read.total_ios, .read.io_bytes, .write.total_ios,
			.write.io_bytes] | map(tostring) | join(" ")' 2>/dev/null
}
for c in "${bcases[@]}"; do
	IFS='|' read -r name _ <<<"$c"
	case_ran
	assert_eq "$name rc" "$(rc_of "$name" ref)" "$(rc_of "$name" ut)"
	[ "$UT_IS_FIO" = 1 ] || [ ! -s "$T/$name.ut.err" ] || add_err "$name: stderr: $(head -c 300 "$T/$name.ut.err")"
	a=$(btotals "$name" ref) b=$(btotals "$name" ut)
	[ -n "$b" ] && [ "$a" = "$b" ] || add_err "$name: totals differ
    fio:  $a
    ours: $b"
done
assert_eq "backlog, do_verify=0: no read" "v 0 0 0 256 1048576" "$(btotals bl-do_verify0 ut)"
assert_eq "experimental, loops=8: the read-back counts as a loop" "v 0 64 262144 448 1835008" "$(btotals ev-loops8 ut)"
for side in ref ut; do
	read -r _ e ri rb wi wb <<<"$(btotals bl-randrw "$side")"
	assert_eq "bl-randrw ($side) error" 0 "$e"
	assert_eq "bl-randrw ($side): reads (the mix's and one per write)" "512 2097152" "$ri $rb"
	[ "$wi" -gt 150 ] && [ "$wi" -lt 362 ] && [ "$wb" = $((wi * 4096)) ] || add_err "bl-randrw ($side): $wi writes"
	read -r _ e ri rb wi _ <<<"$(btotals bl-readwrite "$side")"
	assert_eq "bl-readwrite ($side): reads" "1024 4194304 0" "$ri $rb $e"
	[ "$wi" -gt 400 ] && [ "$wi" -lt 624 ] || add_err "bl-readwrite ($side): $wi writes"
	read -r _ e ri _ wi _ <<<"$(btotals bl-timed "$side")"
	assert_eq "bl-timed ($side) rc, error" "0 0" "$(rc_of bl-timed "$side") $e"
	[ "$ri" -gt 0 ] && [ $((wi - ri)) -ge 0 ] && [ $((wi - ri)) -le 8 ] || add_err "bl-timed ($side): $ri reads, $wi writes"
	assert_eq "bl-timed ($side): no warning" 0 "$(cat "$T/bl-timed.$side.out" "$T/bl-timed.$side.err" | grep -c '^fio: verification')"
done
# dump files: fio's names, sizes and lines; the block as read is the same; ours expects what
# was written (fio rebuilds the expected data with its own generator: not compared)
dumped() { files_in "$T/$1.$2.d" | grep -v -e ' v\.0\.0$' -e -- '-verify\.state$'; }
for name in dump-data dump-hdr; do
	assert_eq "$name rc" "1 1" "$(rc_of $name ref) $(rc_of $name ut)"
	assert_eq "$name files" "$(dumped $name ref)" "$(dumped $name ut)"
	assert_eq "$name lines" "$(grep 'dumped as' "$T/$name.ref.err")" "$(grep 'dumped as' "$T/$name.ut.err")"
	for f in $(cd "$T/$name.ut.d" && ls v.0.0.*.received v.0.0.*.hdr_fail 2>/dev/null); do
		cmp -s "$T/$name.ref.d/$f" "$T/$name.ut.d/$f" || add_err "$name: $f differs from fio's"
	done
done
assert_eq "dump-data files" "4096 v.0.0.20480.expected
4096 v.0.0.20480.received" "$(dumped dump-data ut)"
assert_eq "dump-hdr files" "4096 v.0.0.24576.hdr_fail" "$(dumped dump-hdr ut)"
if ! skip_if_fio "expected data rebuilt"; then
	cmp -s <(dd if="$T/dump-data.src/v.0.0" bs=4096 skip=5 count=1 status=none) "$T/dump-data.ut.d/v.0.0.20480.expected" ||
		add_err "dump-data: .expected is not the block as written"
fi

if [ ${#errors[@]} -gt 0 ]; then
	printf '%s\n' "${errors[@]}" >&2
	fail "${#errors[@]} verify case(s) differ from fio"
fi
echo "ok: verify (${#cases[@]} totals, cross-tool formats, ${#corr[@]} corruptions, ${#bad[@]} bad values)"
