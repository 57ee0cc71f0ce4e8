#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# e2e: alone (runtimes and process times against fio's)
# Timed jobs (--time_based --runtime, --ramp_time): our reported runtime is within 10 % of
# fio's and, like fio's, never below the runtime asked for; the whole process takes about as
# long as fio's; ramp time is excluded from the reported runtime. These are checks of the
# time-keeping, not benchmarks (make bench measures speed): ref and ours run one after the
# other.
. "$(dirname "$0")/fio_common.sh"

errors=()
add_err() { errors+=("$*"); }

# timed_case NAME DIR EXPECT_MS ARGS...: runs both sides sequentially, checks the runtime of
# direction DIR (read/write) against fio's and EXPECT_MS, and the wall time.
timed_case() {
	local name=$1 dir=$2 expect=$3 side t0 t1
	shift 3
	for side in ref ut; do
		t0=$(date +%s%N)
		run_one "$side" "$name" "$@" --output-format=json
		t1=$(date +%s%N)
		echo $(((t1 - t0) / 1000000)) >"$T/$name.$side.wall"
	done
	local rr ru
	rr=$(rc_of "$name" ref) ru=$(rc_of "$name" ut)
	[ "$rr" = 0 ] || { case_skip "$name: reference fio failed (rc $rr): $(head -1 "$T/$name.ref.err" | head -c 200)"; return 1; }
	case_ran
	[ "$ru" = 0 ] || { add_err "$name: exit status $ru: $(head -c 300 "$T/$name.ut.err")"; return 1; }
	local a b
	a=$(json_doc "$T/$name.ref.out" | jq ".jobs[0].$dir.runtime")
	b=$(json_doc "$T/$name.ut.out" | jq ".jobs[0].$dir.runtime" 2>/dev/null)
	[[ "$b" =~ ^[0-9]+$ ]] || { add_err "$name: no $dir.runtime in our JSON"; return 1; }
	# within 10 % of fio's runtime, and of the runtime asked for
	awk -v a="$a" -v b="$b" 'BEGIN { exit !(b >= 0.9 * a && b <= 1.1 * a) }' ||
		add_err "$name: runtime ${b} ms, fio ${a} ms (more than 10 % apart)"
	# fio runs until the runtime is reached, and rounds up: never less than asked
	awk -v e="$expect" -v b="$b" 'BEGIN { exit !(b >= e && b <= 1.1 * e) }' ||
		add_err "$name: runtime ${b} ms, asked for ${expect} ms (fio: ${a} ms)"
	local bad
	bad=$(json_sanity "$T/$name.ut.out")
	[ -z "$bad" ] || add_err "$name: impossible values in our JSON:
$bad"
	local wa wb
	wa=$(cat "$T/$name.ref.wall") wb=$(cat "$T/$name.ut.wall")
	[ -n "${IOPS_SAN:-}" ] || [ "$wb" -le $((wa + 1500)) ] || add_err "$name: took ${wb} ms, fio ${wa} ms"
	echo "$name: runtime fio ${a} ms ours ${b} ms; wall fio ${wa} ms ours ${wb} ms"
	return 0
}

# The null engine's IOPS are printed beside fio's, never compared: speed is `make bench`'s
# business, and a threshold here would fail on a loaded CI machine.
if timed_case null-2s read 2000 --name=n --ioengine=null --size=1g --bs=4k --rw=randread --time_based --runtime=2; then
	ia=$(json_doc "$T/null-2s.ref.out" | jq '.jobs[0].read.iops | floor')
	ib=$(jq '.jobs[0].read.iops | floor' "$T/null-2s.ut.out")
	echo "null-2s: IOPS fio $ia ours $ib"
	[ "${ib:-0}" -gt 0 ] || add_err "null-2s: no read IOPS in our JSON"
fi

# ramp_time: 1 s of ramp then 1 s measured; the 2 MiB file wraps around (time_based).
if timed_case ramp read 1000 --name=r --ioengine=psync --size=2m --bs=4k --rw=randread \
	--time_based --runtime=1 --ramp_time=1; then
	wb=$(cat "$T/ramp.ut.wall")
	[ "$wb" -ge 1900 ] || add_err "ramp: the run took ${wb} ms, ramp_time=1 runtime=1 needs about 2 s"
fi

# A write job with libaio: the runtime counts from the first I/O, not from the layout.
if needs_engine libaio-write libaio; then
	timed_case libaio-write write 1500 --name=w --ioengine=libaio --direct=1 --iodepth=8 --size=8m \
		--bs=16k --rw=randwrite --time_based --runtime=1500ms || true
fi

if [ ${#errors[@]} -gt 0 ]; then
	printf '%s\n' "${errors[@]}" >&2
	fail "${#errors[@]} timing differences from fio"
fi
echo "ok: timed jobs"
