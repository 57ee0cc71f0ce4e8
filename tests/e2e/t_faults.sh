#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# e2e: early (one of the longest: started first, so that no long script is left running alone at the end)
# Failing storage: the same jobs with fio 3.33 and the binary under test on a FUSE file system
# that misbehaves on request (tests/faults/faultfs.c, rules in $T/rules): EIO at an offset,
# ENOSPC after N bytes, short writes, stalls, a mount that vanishes; continue_on_error and
# ignore_error; ioping on EIO against ioping 1.3; signals while I/O is stalled; signals at
# random points of a run (nothing the run created may stay). Buffered I/O only (the FUSE
# files are direct_io inside, so every read and write reaches the rules as issued).
. "$(dirname "$0")/fio_common.sh"
need_ref_ioping
[ "$(id -u)" = 0 ] || skip_script "needs root (FUSE mounts)"
command -v fusermount3 >/dev/null || missing_prereq "fusermount3 missing (Debian package fuse3)"
kernel_has fuse || skip_script "no FUSE here ($PROBE_WHY)"
FAULTFS=${FAULTFS_BIN:-$_fio_repo/build/faultfs}
[ -x "$FAULTFS" ] || make -s -C "$_fio_repo" build/faultfs >/dev/null || fail "cannot build faultfs"
VANISH=$_fio_repo/tests/faults/vanish.sh

errors=()
add_err() { errors+=("$*"); }
M=$T/mnt
mkdir -p "$T/back" "$M"
: >"$T/rules"
mounts=("$M")
_faults_exit() {
	local rc=$?
	: >"$T/rules.t" && mv -f "$T/rules.t" "$T/rules"	# releases any stall
	for m in "${mounts[@]}"; do fusermount3 -u -z "$m" 2>/dev/null; done
	(exit "$rc")
	_e2e_exit
}
trap _faults_exit EXIT
"$FAULTFS" "$T/back" "$M" "$T/rules" || fail "faultfs did not mount"

# set_rules 'RULES': replace the rules at once (a new file: the counters start again)
set_rules() { printf '%s\n' "$1" >"$T/rules.t" && mv -f "$T/rules.t" "$T/rules"; }

# --- the rules parser (faultfs --parse) ---------------------------------------------------
p=$("$FAULTFS" --parse 'eio op=read off=4k count=2; short max=1000
enospc bytes=1m;stall op=write after=3 hard=1')
assert_eq "parse: rules" 4 "$(wc -l <<<"$p")"
assert_match "parse: eio" '^eio op=read off=4096 after=0 count=2 ' "$(sed -n 1p <<<"$p")"
assert_match "parse: enospc" '^enospc op=write .*bytes=1048576 ' "$(sed -n 3p <<<"$p")"
assert_match "parse: stall" '^stall op=write off=-1 after=3 .*hard=1 ' "$(sed -n 4p <<<"$p")"
assert_match "parse: zero" '^zero op=read off=-1 .* from=102400$' "$("$FAULTFS" --parse 'zero op=read from=100k')"
for bad in 'eio off=-1' 'short' 'short max=0' 'delay ms=abc' 'eio op=trim' 'frobnicate' 'eio off=99999999999999999999k' 'enospc op=read bytes=1' 'stall hard=2' 'eio x' \
	'zero' 'zero from=' 'eio from=1' 'zero from=-1'; do
	"$FAULTFS" --parse "$bad" >/dev/null 2>&1 && add_err "parse: '$bad' accepted"
done
[ "$("$FAULTFS" --parse '' | wc -l)" = 0 ] || add_err "parse: empty rules"

# frun SIDE NAME ARGS...: fio (ref) or the binary under test (ut) in the fresh directory
# $M/NAME.SIDE (on the faulty mount); output in $T/NAME.SIDE.{out,err,rc}
frun() {
	local side=$1 name=$2 bin=$REF_FIO
	shift 2
	[ "$side" = ut ] && bin=$UT_FIO
	mkdir -p "$M/$name.$side"
	(cd "$M/$name.$side" && exec timeout -k 2 "${FTIMEOUT:-20}" bash -c 'exec -a fio "$0" "$@"' "$bin" "$@") \
		>"$T/$name.$side.out" 2>"$T/$name.$side.err" </dev/null
	echo $? >"$T/$name.$side.rc"
}
# error fields of a run: exit status, JSON error, io_u error line (first), write/read io_bytes
summary() {
	local f=$T/$1.$2
	printf 'rc=%s err=%s ' "$(cat "$f.rc")" "$(json_doc "$f.out" | jq -r '[.jobs[].error] | join(",")' 2>/dev/null)"
	printf 'msg=[%s] ' "$(grep -m1 'io_u error' "$f.err" | sed 's/on file [^:]*:/on file F:/')"
	[ "${3:-}" = bytes ] && json_doc "$f.out" | jq -r '[.jobs[0] | .read.io_bytes, .write.io_bytes, (.total_err // 0)] | join("/")'
	echo
}
# compare NAME [bytes]: the same summary from both tools
compare() {
	local a b
	a=$(summary "$1" ref "${2:-}")
	b=$(summary "$1" ut "${2:-}")
	case_ran
	[ "$a" = "$b" ] || add_err "$1: fio: $a / iops: $b"
}
JOB=(--name=j --filename=f --bs=4k --size=256k --output-format=json)

# --- EIO at an offset, continue_on_error, ignore_error (fio's semantics, compared) -----------
# The rules hold no count here: the runs can share them, several at a time.
# the engines: psync, and libaio where the kernel gives its queue (probed; a counted skip where not)
ENGS=(psync)
if engine_refused libaio; then
	case_skip "the libaio cases (EIO, ENOSPC): the kernel refuses libaio here ($PROBE_WHY)"
else
	ENGS+=(libaio)
fi
has_eng() { [[ $1 != *-libaio* ]] || [ "${#ENGS[@]}" = 2 ]; }
eio_cases=()
set_rules 'eio op=write off=64k'
for eng in "${ENGS[@]}"; do
	for coe in none read write io all; do
		eio_cases+=("eiow-$eng-$coe|--rw=write --ioengine=$eng --continue_on_error=$coe")
	done
	eio_cases+=("eiow-$eng-ignore|--rw=write --ioengine=$eng --continue_on_error=write --ignore_error=,EIO")
	# error_dump: the io_u error line of an error the job goes on after, and of a fatal one
	eio_cases+=("eiow-$eng-dump|--rw=write --ioengine=$eng --continue_on_error=write --error_dump=1")
	eio_cases+=("eiow-$eng-dumpnone|--rw=write --ioengine=$eng --error_dump=1")
done
for c in "${eio_cases[@]}"; do
	IFS='|' read -r n args <<<"$c"
	# shellcheck disable=SC2086 # args are words
	par_run frun ref "$n" "${JOB[@]}" $args
	# shellcheck disable=SC2086
	par_run frun ut "$n" "${JOB[@]}" $args
done
par_wait
# reads: the file is laid out first (writes pass), the read at 128 KiB fails
set_rules 'eio op=read off=128k'
for eng in "${ENGS[@]}"; do
	for coe in none read; do
		eio_cases+=("eior-$eng-$coe|")
		par_run frun ref "eior-$eng-$coe" "${JOB[@]}" --rw=read --ioengine=$eng --continue_on_error=$coe
		par_run frun ut "eior-$eng-$coe" "${JOB[@]}" --rw=read --ioengine=$eng --continue_on_error=$coe
	done
done
par_wait
for c in "${eio_cases[@]}"; do
	n=${c%%|*}
	case $n in *-psync-*) compare "$n" bytes ;; *) compare "$n" ;; esac	# libaio: timing decides how many follow
done
# error_dump: as many io_u error lines as fio, the same ones (one failing write: one line each)
for n in eiow-psync-dump eiow-psync-dumpnone eiow-libaio-dump eiow-libaio-dumpnone eiow-psync-write; do
	has_eng "$n" || continue
	a=$(grep 'io_u error on file' "$T/$n.ref.err" | sed 's/on file [^:]*:/on file F:/')
	b=$(grep 'io_u error on file' "$T/$n.ut.err" | sed 's/on file [^:]*:/on file F:/')
	[ "$a" = "$b" ] || add_err "$n: io_u error lines: fio [$a] / iops [$b]"
done
grep -q 'io_u error' "$T/eiow-psync-dump.ref.err" || add_err "eiow-psync-dump: fio printed no io_u error line"
if ! skip_if_fio "a failed run leaves nothing"; then
	for n in eiow-psync-none eiow-libaio-none eior-psync-none; do
		has_eng "$n" || continue
		[ -z "$(ls -A "$M/$n.ut")" ] || add_err "$n: iops left $(ls -A "$M/$n.ut")"
		[ -e "$M/$n.ref/f" ] || add_err "$n: fio did not keep its file (docs/safety.md says it does)"
	done
	for n in eiow-psync-all eiow-psync-ignore; do	# went on: success, the file stays
		[ -e "$M/$n.ut/f" ] || add_err "$n: a successful run lost its file"
	done
fi

echo "[${SECONDS}s]"
# --- ENOSPC after 100 KiB: the error as fio, and the volume left as it was ------------------
for eng in "${ENGS[@]}"; do
	n=enospc-$eng
	set_rules 'enospc bytes=100k'
	frun ref "$n" "${JOB[@]}" --rw=write --ioengine="$eng"
	set_rules 'enospc bytes=100k'
	frun ut "$n" "${JOB[@]}" --rw=write --ioengine="$eng"
	[ "$eng" = psync ] && compare "$n" bytes || compare "$n"
	skip_if_fio "ENOSPC cleanup" || [ -z "$(ls -A "$M/$n.ut")" ] || add_err "$n: iops left a file on a full volume"
done

echo "[${SECONDS}s]"
# --- short writes: iops writes the rest and counts every byte (fio loses count) -------------
set_rules 'short op=write max=1000'
for eng in psync; do
	n=short-$eng
	frun ref "$n" "${JOB[@]}" --rw=write --ioengine="$eng" --verify=crc32c
	frun ut "$n" "${JOB[@]}" --rw=write --ioengine="$eng" --verify=crc32c
	case_ran
	if ! skip_if_fio "short writes counted"; then
		s=$(summary "$n" ut bytes)
		[ "$s" = "rc=0 err=0 msg=[] 262144/262144/0" ] || add_err "$n: iops: $s (want every byte written, then verified)"
		ref=$(json_doc "$T/$n.ref.out" | jq -r '.jobs[0].write.io_bytes')
		echo "short writes of 1000 bytes: fio counts $ref bytes written of 262144"
		[ "$ref" != 262144 ] || add_err "$n: fio counted 256 KiB: docs/safety.md says it loses count"
	fi
done
set_rules ''

echo "[${SECONDS}s]"
# --- the data ends inside a request (zero from=N): fio's "full resid" and its counts -----------
# Reads of a laid-out file whose data ends at 100,000 (inside the 25th 4 KiB read) or at 98,304
# (a block boundary), writes that stop there, and a short write whose rest fails: exit status,
# the job's error line, the io_u error line, total and short ios, clat samples, the completion
# map as fio's (at depth 1). io_bytes too, but for what fio's count loses (README, Differences): the bytes
# an asynchronous engine's short read moved before the end (1,696 here), and a request
# completed by its rest (the 4 KiB write before the failing one).
# eof_set 'RULES' DIR CASE...: each CASE "name|bytes fio|bytes iops|args" under RULES
eof_set() {
	local rules=$1 d=$2 c n bref but args a b
	shift 2
	set_rules "$rules"
	for c in "$@"; do
		IFS='|' read -r n bref but args <<<"$c"
		# shellcheck disable=SC2086 # args are words
		par_run frun ref "$n" "${JOB[@]}" --rw=$d $args
		# shellcheck disable=SC2086
		par_run frun ut "$n" "${JOB[@]}" --rw=$d $args
	done
	par_wait
	for c in "$@"; do
		IFS='|' read -r n bref but args <<<"$c"
		if [ "$but" != "$bref" ] && skip_if_fio "$n: the bytes iops counts"; then
			but=$bref
		fi
		a=$(err_summary "$T/$n.ref" "$d")
		b=$(err_summary "$T/$n.ut" "$d")
		if [[ "$args" == *iodepth* ]]; then	# how many one reap returns is timing
			a=${a%% complete=*} b=${b%% complete=*}
		fi
		case_ran
		[ "$a" = "$b" ] || add_err "$n: fio: $a / iops: $b"
		a=$(json_bytes "$T/$n.ref.out" "$d") b=$(json_bytes "$T/$n.ut.out" "$d")
		[ "$a/$b" = "$bref/$but" ] || add_err "$n: io_bytes fio $a (want $bref), iops $b (want $but)"
	done
}
eof_set 'zero op=read from=100000' read "eofr-psync|98304|98304|--ioengine=psync" \
	"eofr-libaio|98304|100000|--ioengine=libaio" "eofr-libaio8|98304|100000|--ioengine=libaio --iodepth=8" \
	"eofr-sync|98304|98304|--ioengine=sync"
grep -q 'func=full resid' "$T/eofr-psync.ref.out" || add_err "eofr-psync: fio did not fail with full resid"
eof_set 'zero op=read from=98304' read "eofr0-psync|98304|98304|--ioengine=psync" "eofr0-libaio|98304|98304|--ioengine=libaio"
eof_set 'zero op=write from=100000' write "eofw-psync|98304|98304|--ioengine=psync" "eofw-libaio|98304|98304|--ioengine=libaio"
eof_set 'short op=write max=1000; eio op=write off=6000' write "restfail-psync|96|4096|--ioengine=psync"
grep -q 'write offset=5096, buflen=3096' "$T/restfail-psync.ref.err" || add_err "restfail-psync: fio's line is not the rest's"
# continue_on_error=read over "full resid": fio 3.33 aborts on an assertion (README,
# Differences); iops counts each failed read (the short one's rest and the 39 after it) and
# goes on
if ! skip_if_fio "full resid with continue_on_error"; then
	set_rules 'zero op=read from=100000'
	frun ut eofr-coe "${JOB[@]}" --rw=read --ioengine=psync --continue_on_error=read
	s=$(json_doc "$T/eofr-coe.ut.out" | jq -r '.jobs[0] | "\(.error) \(.total_err) \(.first_error) \(.read.io_bytes) \(.read.total_ios) \(.read.short_ios)"')
	case_ran
	[ "$(cat "$T/eofr-coe.ut.rc")" = 0 ] && [ "$s" = "5 40 5 98304 65 1" ] ||
		add_err "eofr-coe: iops exit $(cat "$T/eofr-coe.ut.rc"), reported [$s] (want 5 40 5 98304 65 1)"
fi
set_rules ''

echo "[${SECONDS}s]"
# --- ioping on EIO, as ioping 1.3 -----------------------------------------------------------
set_rules 'eio op=read'
mkdir -p "$M/ioping"
ref_ioping -c 3 -i 0.1 "$M/ioping" >"$T/ip.ref" 2>&1; echo "rc=$?" >>"$T/ip.ref"
(exec -a ioping "$IOPS" -c 3 -i 0.1 "$M/ioping") >"$T/ip.ut" 2>&1; echo "rc=$?" >>"$T/ip.ut"
case_ran
[ "$(cat "$T/ip.ref")" = "$(cat "$T/ip.ut")" ] || add_err "ioping EIO: ioping: $(cat "$T/ip.ref") / iops: $(cat "$T/ip.ut")"
[ -z "$(ls -A "$M/ioping")" ] || add_err "ioping EIO: left $(ls -A "$M/ioping")"
set_rules ''

echo "[${SECONDS}s]"
# --- stalls ---------------------------------------------------------------------------------
# sig_stalled SIDE NAME SIG: a writer whose 21st write stalls gets SIG 1 s in; seconds to exit
sig_stalled() {
	local side=$1 n=$2 sig=$3 rw=${4:-write} size=${5:-256k} bin=$REF_FIO pid t0
	[ "$side" = ut ] && bin=$UT_FIO
	set_rules 'stall op=write after=20'
	mkdir -p "$M/$n.$side"
	(cd "$M/$n.$side" && exec -a fio "$bin" "${JOB[@]}" --rw="$rw" --size="$size" --ioengine=psync) \
		>"$T/$n.$side.out" 2>"$T/$n.$side.err" </dev/null &
	pid=$!
	sleep 1
	t0=$(date +%s%N)
	kill -"$sig" "$pid"
	for _ in $(seq 15); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
	echo $((($(date +%s%N) - t0) / 1000000)) >"$T/$n.$side.ms"
	set_rules ''	# release whatever still waits
	wait "$pid"
	echo $? >"$T/$n.$side.rc"
}
for sig in TERM INT; do
	n=stall-$sig
	sig_stalled ref "$n" "$sig"
	sig_stalled ut "$n" "$sig"
	echo "stall + SIG$sig: fio exit $(cat "$T/$n.ref.rc") after $(cat "$T/$n.ref.ms") ms, iops exit $(cat "$T/$n.ut.rc") after $(cat "$T/$n.ut.ms") ms"
	case_ran
	skip_if_fio "stalled I/O abandoned" && continue
	[ "$(cat "$T/$n.ut.ms")" -lt 1000 ] || add_err "$n: iops took $(cat "$T/$n.ut.ms") ms to end"
	[ "$(cat "$T/$n.ut.rc")" = 128 ] || add_err "$n: iops exit $(cat "$T/$n.ut.rc")"
	grep -q '^fio: j: 1 I/O stalled, abandoned (not counted)$' "$T/$n.ut.err" || add_err "$n: no abandoned-I/O line: $(cat "$T/$n.ut.err")"
	w=$(json_doc "$T/$n.ut.out" | jq -r '.jobs[0] | "\(.error) \(.write.io_bytes) \(.write.total_ios)"')
	# the stalled write counts as issued (as in fio), not its bytes
	[ "$w" = "0 81920 21" ] || add_err "$n: iops reported [$w], want the 20 writes done and 1 issued"
done

# a reader whose layout stalls: the stop still ends the run within 1 s (the layout's file is
# removed if the storage answers by then; this one does not, so the message names it)
n=stall-layout
sig_stalled ref "$n" TERM read 16m
sig_stalled ut "$n" TERM read 16m
echo "layout stall + SIGTERM: fio exit $(cat "$T/$n.ref.rc") after $(cat "$T/$n.ref.ms") ms, iops exit $(cat "$T/$n.ut.rc") after $(cat "$T/$n.ut.ms") ms"
case_ran
if ! skip_if_fio "stalled layout abandoned"; then
	[ "$(cat "$T/$n.ut.ms")" -lt 1000 ] || add_err "$n: iops took $(cat "$T/$n.ut.ms") ms to end"
	[ "$(cat "$T/$n.ut.rc")" = 128 ] || add_err "$n: iops exit $(cat "$T/$n.ut.rc")"
	grep -q '^fio: I/O stalled while laying out files: abandoned; removing what this run created (if the storage answers): f$' \
		"$T/$n.ut.err" || add_err "$n: no abandoned-layout line: $(cat "$T/$n.ut.err")"
fi

# a runtime-bound job whose writes stall: it ends at its runtime (plus 2 s of grace)
n=stall-runtime
for side in ref ut; do
	set_rules 'stall op=write after=20'
	t0=$(date +%s%N)
	FTIMEOUT=$([ "$side" = ref ] && echo 3 || echo 5) frun "$side" "$n" "${JOB[@]}" --rw=write --ioengine=psync --time_based --runtime=1 --fallocate=none
	echo $((($(date +%s%N) - t0) / 1000000)) >"$T/$n.$side.ms"
	set_rules ''
done
echo "stall past runtime=1: fio exit $(cat "$T/$n.ref.rc") after $(cat "$T/$n.ref.ms") ms, iops exit $(cat "$T/$n.ut.rc") after $(cat "$T/$n.ut.ms") ms"
case_ran
if ! skip_if_fio "stall past the runtime"; then
	[ "$(cat "$T/$n.ut.ms")" -lt 4500 ] || add_err "$n: iops took $(cat "$T/$n.ut.ms") ms"
	w=$(json_doc "$T/$n.ut.out" | jq -r '.jobs[0] | "\(.error) \(.job_runtime) \(.write.total_ios > 0)"')
	[ "$w" = "110 1000 true" ] || add_err "$n: iops reported [$w] (want ETIMEDOUT, the 1 s runtime, what completed)"
	[ "$(cat "$T/$n.ut.rc")" = 1 ] || add_err "$n: iops exit $(cat "$T/$n.ut.rc")"
fi

# a slow end_fsync after the runtime is the job's own work, not a stall: it is waited for (fio
# waits too), the job ends well
n=slow-endfsync
for side in ref ut; do
	set_rules 'delay op=fsync ms=3500'
	frun "$side" "$n" "${JOB[@]}" --rw=write --ioengine=psync --time_based --runtime=1 --fallocate=none --end_fsync=1
	set_rules ''
done
case_ran
for side in ref ut; do
	w=$(json_doc "$T/$n.$side.out" | jq -r '.jobs[0] | "\(.error) \(.write.io_bytes > 0)"')
	[ "$w" = "0 true" ] && [ "$(cat "$T/$n.$side.rc")" = 0 ] ||
		add_err "$n ($side): exit $(cat "$T/$n.$side.rc"), reported [$w], want a clean end after the 3.5 s fsync"
done

# a second signal ends at once, even while the layout itself is stalled (the first only asks)
if ! skip_if_fio "second signal"; then
	set_rules 'stall op=write after=2'
	mkdir -p "$M/second.ut"
	(cd "$M/second.ut" && exec -a fio "$UT_FIO" --name=j --filename=f --size=4m --rw=read) >/dev/null 2>"$T/second.err" &
	pid=$!
	sleep 0.5
	kill -TERM "$pid"
	sleep 0.3
	kill -0 "$pid" 2>/dev/null || add_err "second signal: the first one ended a stalled layout?"
	t0=$(date +%s%N)
	kill -TERM "$pid"
	for _ in $(seq 20); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
	ms=$((($(date +%s%N) - t0) / 1000000))
	set_rules ''
	wait "$pid"
	rc=$?
	case_ran
	[ "$ms" -lt 500 ] && [ "$rc" = 128 ] || add_err "second signal: exit $rc after $ms ms"
fi

echo "[${SECONDS}s]"
# --- the mount vanishes mid-run: a clear error, no hang -------------------------------------
for side in ref ut; do
	V=$T/vmnt.$side
	mkdir -p "$T/vback.$side" "$V"
	mounts+=("$V")
	"$FAULTFS" "$T/vback.$side" "$V" "$T/vrules" || fail "faultfs (vanish) did not mount"
	fspid=$(pgrep -n -f "faultfs $T/vback.$side") || fail "no faultfs process"
	bin=$REF_FIO
	[ "$side" = ut ] && bin=$UT_FIO
	(cd "$V" && exec timeout -k 2 10 bash -c 'exec -a fio "$0" "$@"' "$bin" "${JOB[@]}" --rw=randwrite --ioengine=psync --time_based --runtime=3) \
		>"$T/vanish.$side.out" 2>"$T/vanish.$side.err" </dev/null &
	pid=$!
	sleep 1
	"$VANISH" "$V" "$fspid"
	t0=$(date +%s%N)
	wait "$pid"
	echo $? >"$T/vanish.$side.rc"
	echo $((($(date +%s%N) - t0) / 1000000)) >"$T/vanish.$side.ms"
done
echo "vanish: fio exit $(cat "$T/vanish.ref.rc") after $(cat "$T/vanish.ref.ms") ms: $(head -3 "$T/vanish.ref.err" | tr '\n' '|')"
echo "vanish: iops exit $(cat "$T/vanish.ut.rc") after $(cat "$T/vanish.ut.ms") ms: $(grep -m1 'io_u error' "$T/vanish.ut.err")"
case_ran
# in-flight requests end ECONNABORTED, later ones ENOTCONN: which one a tool meets is timing
for side in ref ut; do
	s=$(summary vanish $side | sed -E 's/err=(103|107) /err=gone /; s/: (Software caused connection abort|Transport endpoint is not connected): write offset=[0-9]+, buflen=4096/: GONE/')
	# fio may meet the loss in a file call (fstat) first, without an io_u error line
	[ "$s" = "rc=1 err=gone msg=[fio: io_u error on file F: GONE] " ] ||
		{ [ $side = ref ] && [ "$s" = "rc=1 err=gone msg=[] " ]; } || add_err "vanish ($side): $s"
done
[ "$(cat "$T/vanish.ut.ms")" -lt 1500 ] || add_err "vanish: iops took $(cat "$T/vanish.ut.ms") ms after the mount went"

echo "[${SECONDS}s]"
# --- signals at random points (layout, run, report): nothing new is left --------------------
if ! skip_if_fio "cleanup after signals"; then
	RANDOM=${FAULTS_SEED:-11}
	for i in $(seq 8); do
		d=$T/kill.$i
		mkdir -p "$d"
		sig=TERM
		[ $((i % 2)) = 0 ] && sig=INT
		delay=$(printf '0.%03d' $((RANDOM % 1000)))
		(cd "$d" && exec -a fio "$UT_FIO" --name=k --nrfiles=2 --filesize=8m --rw=randrw --bs=4k \
			--time_based --runtime=1 --output-format=json,normal) >"$T/kill.$i.out" 2>&1 &
		pid=$!
		sleep "$delay"
		kill -"$sig" "$pid" 2>/dev/null
		wait "$pid"
		rc=$?
		case_ran
		left=$(ls -A "$d")
		# ended by the signal (128, or killed before it could handle it), or done before it came
		case $rc in
		0) [ -n "$left" ] || add_err "kill $i: a finished run lost its files" ;;
		128 | 130 | 143) [ -z "$left" ] || add_err "kill $i (SIG$sig after ${delay}s, exit $rc): left $left" ;;
		*) add_err "kill $i (SIG$sig after ${delay}s): exit $rc: $(tail -3 "$T/kill.$i.out")" ;;
		esac
	done
fi

if [ ${#errors[@]} -gt 0 ]; then
	printf '%s\n' "${errors[@]}" >&2
	fail "${#errors[@]} problem(s)"
fi
echo "faults: all cases agree"
