#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The page cache as fio 3.33 handles it: invalidate=1 drops a file's cached pages when it is
# opened and again each time the job starts the file over (each loop, each pass of io_size
# beyond size, each time_based wrap of a buffered job), and fadvise_hint gives
# POSIX_FADV_RANDOM or _SEQUENTIAL at open and at each new pass. Without the drops a buffered
# time_based job on a small file reads from memory after its first pass (GB/s where fio
# reports the disk's MB/s).
#
# Checked with strace: the posix_fadvise calls (fd aside: advice, offset, length, in order)
# are fio's exactly on size-bound jobs; on time_based ones, each tool drops the pages once per
# pass it made (total_ios / I/Os per pass). Then the throughput of a buffered time_based
# randread on a 16 MiB file is fio's order of magnitude (not 25x it).
. "$(dirname "$0")/fio_common.sh"

command -v strace >/dev/null || missing_prereq "strace is required (Debian package strace)"
# the direct=1 cases need O_DIRECT in the scratch directory (tmpfs before Linux 6.6 refuses it)
have_direct=1
kernel_has odirect "$T" || { have_direct=0 direct_why=$PROBE_WHY; }

errors=()
add_err() { errors+=("$*"); }

# fadvise_calls FILE: "ADVICE OFFSET LEN" per posix_fadvise call in strace output FILE.
fadvise_calls() {
	grep -o 'fadvise64([0-9]*, [0-9]*, [0-9]*, POSIX_FADV_[A-Z]*)' "$1" |
		sed -E 's/fadvise64\([0-9]+, ([0-9]+), ([0-9]+), POSIX_FADV_([A-Z]+)\)/\3 \1 \2/'
}

# traced SIDE NAME ARGS...: lay a 20 MiB file out first (untraced: offset=4m needs 20), then
# run the job under strace in the same directory (run_one's); calls in $T/NAME.SIDE.calls,
# JSON in $T/NAME.SIDE.out.
traced() {
	local side=$1 name=$2
	shift 2
	run_one "$side" "$name" --name=lay --filename=c16 --size=20m --rw=write --bs=1m --output-format=terse
	[ "$(rc_of "$name" "$side")" = 0 ] || add_err "$name ($side): laying out the file failed: $(head -c 200 "$T/$name.$side.err")"
	FIO_WRAP="strace -f -qq -o $T/$name.$side.strace -e trace=fadvise64" \
		run_one "$side" "$name" --name=t --filename=c16 --size=16m --output-format=json "$@"
	fadvise_calls "$T/$name.$side.strace" >"$T/$name.$side.calls"
}

# exact NAME ARGS...: a size-bound job; both tools make the same calls in the same order.
exact() {
	local name=$1
	shift
	traced ref "$name" "$@"
	traced ut "$name" "$@"
	[ "$(rc_of "$name" ref)" = 0 ] || { add_err "$name: reference fio failed: $(head -c 200 "$T/$name.ref.err")"; return; }
	[ "$(rc_of "$name" ut)" = 0 ] || { add_err "$name: exit $(rc_of "$name" ut): $(head -c 300 "$T/$name.ut.err")"; return; }
	if ! diff -u "$T/$name.ref.calls" "$T/$name.ut.calls" >"$T/$name.diff"; then
		add_err "$name: posix_fadvise calls differ from fio's (-fio +iops):
$(cat "$T/$name.diff")"
	fi
}

exact loops3-seq --rw=read --bs=64k --loops=3
if [ $have_direct = 1 ]; then
	exact loops2-rand-direct --rw=randrw --bs=4k --direct=1 --loops=2
else
	skip_note "loops2-rand-direct: the kernel refuses O_DIRECT here ($direct_why)"
fi
exact hint-seq-on-random --rw=randread --bs=4k --loops=2 --fadvise_hint=sequential
exact hint-random-on-seq --rw=write --bs=64k --fadvise_hint=random
exact no-invalidate-no-hint --rw=randread --bs=4k --invalidate=0 --loops=2 --fadvise_hint=0
exact offset-range --offset=4m --rw=randread --bs=4k --percentage_random=50 --loops=2
exact io_size-passes --io_size=40m --rw=read --bs=1m

# wraps NAME PER_PASS ARGS...: a time_based job; every pass over the file (PER_PASS I/Os)
# after the first starts with one more DONTNEED, in both tools.
wraps() {
	local name=$1 per=$2 side ios drops want
	shift 2
	for side in ref ut; do
		traced "$side" "$name" --runtime=1 --time_based "$@"
		[ "$(rc_of "$name" "$side")" = 0 ] || { add_err "$name ($side): exit $(rc_of "$name" "$side")"; continue; }
		ios=$(json_doc "$T/$name.$side.out" | jq '.jobs[0].read.total_ios + .jobs[0].write.total_ios')
		drops=$(grep -c '^DONTNEED' "$T/$name.$side.calls")
		want=$(( ios / per + 1 ))	# the open's, then one per wrap
		# the last I/O handed out may start a pass that ends unissued: one more is fine
		[ "$drops" -ge "$want" ] && [ "$drops" -le $((want + 1)) ] ||
			add_err "$name ($side): $drops cache drops for $ios I/Os ($per per pass): expected $want"
	done
}

wraps tb-randread 4096 --rw=randread --bs=4k
wraps tb-seqread 64 --rw=read --bs=256k
# direct=1: no drop on a wrap (only at open)
if [ $have_direct = 1 ]; then
	wraps tb-direct 1000000000 --rw=randread --bs=4k --direct=1
else
	skip_note "tb-direct: the kernel refuses O_DIRECT here ($direct_why)"
fi

# The numbers: buffered 4k randread on a 16 MiB file for 2 s reads from the disk in both.
for side in ref ut; do
	run_one "$side" speed --name=t --filename=c16 --size=16m --rw=randread --bs=4k --runtime=2 \
		--time_based --output-format=json
done
if [ "$(rc_of speed ref)" = 0 ] && [ "$(rc_of speed ut)" = 0 ]; then
	a=$(json_doc "$T/speed.ref.out" | jq '.jobs[0].read.bw_bytes')
	b=$(json_doc "$T/speed.ut.out" | jq '.jobs[0].read.bw_bytes')
	# the same order of magnitude: a job served from memory is 20-30x fio's here
	awk -v a="$a" -v b="$b" 'BEGIN { exit !(a > 0 && b > 0 && b < 5 * a && a < 5 * b) }' ||
		add_err "speed: buffered time_based randread: iops $b B/s, fio $a B/s (more than 5x apart)"
else
	add_err "speed: exit $(rc_of speed ref) (fio) / $(rc_of speed ut) (iops)"
fi

if [ ${#errors[@]} -gt 0 ]; then
	printf '%s\n' "${errors[@]}" >&2
	fail "${#errors[@]} problem(s)"
fi
echo "page cache: $((6 + have_direct)) size-bound call sequences equal to fio's, $((2 + have_direct)) time_based drop counts, throughput"
