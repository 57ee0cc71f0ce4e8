#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# e2e: alone (latency and IOPS against fio's on the same disk)
# The measured values, not only their layout: the same device-bound job (4k random reads with
# O_DIRECT at depth 1 from one file in the build dir, psync and libaio, 1 s) run by fio 3.33 and
# by the binary under test, interleaved, a few rounds.
#   - invariants of every JSON document (ours and fio's): json_sanity (mean within [min, max],
#     percentiles ascending and within [min, max], bw x runtime = io_bytes, lat = slat + clat),
#     and, without slat (psync), lat = clat within what the time between start and issue adds;
#   - values against fio's: the best of the rounds (lowest latency, highest IOPS) of each side
#     within a factor 1.5 of the other's: psync's clat median and mean, lat mean and IOPS;
#     libaio's lat median and mean and IOPS. libaio's clat is not compared: when the virtual
#     disk completes a read inside io_submit (seen on this machine at times: lat 55 us, clat
#     median 3 us, mean 21 us), clat is mostly the reap's own cost, a system call for fio, a
#     read of the ring mapped in user space for iops (0.4 us), and says nothing of the device
#     (the invariant lat = slat + clat still ties it to lat). The best
#     of several rounds is what the device gives when the machine leaves it alone, on both
#     sides: a loaded machine slows single rounds, not all of them; a halved or doubled
#     latency is out whatever the load.
# Rounds stop once every value is within its factor (at least 2 rounds, at most 5).
# The sanitizer build (IOPS_SAN=1, make san) is slower at every I/O by design: one round, its
# invariants checked, the comparison with fio's values skipped (a SKIP line, counted).
. "$(dirname "$0")/fio_common.sh"

errors=()
add_err() { errors+=("$*"); }
FACTOR=1.5

# what the machine offers (probed): O_DIRECT in the scratch directory, libaio's queue, and a
# block device under it (elsewhere, tmpfs, the reads are memory copies: the values are not
# compared, the invariants are)
kernel_has odirect "$T" || skip_script "O_DIRECT reads: the kernel refuses O_DIRECT here ($PROBE_WHY)"
ENGS=(psync)
if engine_refused libaio; then
	skip_note "libaio's values: the kernel refuses libaio here ($PROBE_WHY)"
else
	ENGS+=(libaio)
fi
compare_values=1
kernel_has blockdev "$T" || { compare_values=0; skip_note "values against fio: $PROBE_WHY: not device-bound, only the invariants are checked"; }
# fresh data: O_DIRECT reads of written blocks go to the device (unwritten extents would not)
head -c 33554432 /dev/urandom >"$T/data" || fail "cannot write the data file"
sync "$T/data" 2>/dev/null
J=(--name=v --filename="$T/data" --size=32m --rw=randread --bs=4k --direct=1 --iodepth=1
	--time_based --runtime=1 --lat_percentiles=1 --output-format=json)

# vals NAME SIDE: "p50 clat_mean lat_mean iops" of the run (p50: clat's for psync, lat's for
# libaio)
vals() {
	json_doc "$T/$1.$2.out" | jq -r --arg e "${1%%.*}" '.jobs[0].read |
		[(if $e == "libaio" then .lat_ns else .clat_ns end).percentile["50.000000"], .clat_ns.mean,
		.lat_ns.mean, .iops] | map(tostring) | join(" ")' 2>/dev/null
}

# invariants NAME SIDE: what must hold in any one run
invariants() {
	local name=$1 side=$2 who bad
	if [ "$side" = ref ]; then who="fio's own JSON (the check is wrong?)"; else who="our JSON"; fi
	bad=$(json_sanity "$T/$name.$side.out")
	[ -z "$bad" ] || add_err "$name: $who: $bad"
	# without slat, lat and clat time the same I/Os from nearly the same instant: lat is clat
	# plus the time from start to issue (offset choice, a clock read): < 3 % + 1 us on average
	bad=$(json_doc "$T/$name.$side.out" | jq -r '.jobs[0].read as $r |
		if ($r.slat_ns.N // 0) > 0 or ($r.clat_ns.N // 0) == 0 then empty
		elif $r.lat_ns.N != $r.clat_ns.N then "lat N \($r.lat_ns.N) != clat N \($r.clat_ns.N)"
		elif ($r.lat_ns.mean - $r.clat_ns.mean) > 0.03 * $r.lat_ns.mean + 1000 or
		     $r.lat_ns.mean < $r.clat_ns.mean - 1 then
			"no slat: lat mean \($r.lat_ns.mean) != clat mean \($r.clat_ns.mean)"
		elif $r.lat_ns.min < $r.clat_ns.min then "lat min \($r.lat_ns.min) < clat min \($r.clat_ns.min)"
		else empty end' 2>&1)
	[ -z "$bad" ] || add_err "$name: $who: $bad"
}

declare -A best
# keep BEST KEY VALUE DIR: best[KEY] = the lower (DIR=min) or higher (DIR=max) of the two
keep() {
	local k=$1 v=$2 dir=$3
	if [ -z "${best[$k]:-}" ]; then best[$k]=$v; return; fi
	best[$k]=$(awk -v a="${best[$k]}" -v b="$v" -v d="$dir" 'BEGIN { if ((d == "min") == (b < a)) print b; else print a }')
}

metrics=(p50 clat_mean lat_mean iops)
declare -A compared=([psync]="p50 clat_mean lat_mean iops" [libaio]="p50 lat_mean iops")
dirs=(min min min max)
rounds=0 nr_rounds=5
[ -z "${IOPS_SAN:-}" ] && [ "$compare_values" = 1 ] || nr_rounds=1
for round in $(seq "$nr_rounds"); do
	rounds=$round
	for e in "${ENGS[@]}"; do
		name=$e.$round
		run_one ref "$name" "${J[@]}" --ioengine="$e"
		run_one ut "$name" "${J[@]}" --ioengine="$e"
		for side in ref ut; do
			rc=$(rc_of "$name" "$side")
			[ "$rc" = 0 ] || fail "$name ($side): exit status $rc: $(show_run "$name" "$side")"
			[ "$round" != 1 ] || invariants "$name" "$side"
			read -r -a v <<<"$(vals "$name" "$side")"
			[ "${#v[@]}" = 4 ] || fail "$name ($side): values missing: $(show_run "$name" "$side")"
			for i in 0 1 2 3; do keep "$e.$side.${metrics[$i]}" "${v[$i]}" "${dirs[$i]}"; done
		done
	done
	[ "$round" -ge 2 ] || continue
	out=0
	for e in "${ENGS[@]}"; do
		for m in ${compared[$e]}; do
			awk -v a="${best[$e.ut.$m]}" -v b="${best[$e.ref.$m]}" -v f="$FACTOR" \
				'BEGIN { exit !(b > 0 && a >= b / f && a <= b * f) }' || out=1
		done
	done
	[ "$out" = 1 ] || break
done

[ -z "${IOPS_SAN:-}" ] || skip_note "sanitizer build: latency and IOPS not compared with fio's (the invariants were checked)"
for e in "${ENGS[@]}"; do
	[ -z "${IOPS_SAN:-}" ] && [ "$compare_values" = 1 ] || break
	for m in ${compared[$e]}; do
		a=${best[$e.ut.$m]} b=${best[$e.ref.$m]}
		r=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
		echo "$e $m: fio $b ours $a (x$r, best of $rounds rounds)"
		awk -v r="$r" -v f="$FACTOR" 'BEGIN { exit !(r >= 1 / f && r <= f) }' ||
			add_err "$e: $m ours $a, fio $b: x$r, outside a factor $FACTOR (best of $rounds rounds)"
	done
done

if [ ${#errors[@]} -gt 0 ]; then
	printf '%s\n' "${errors[@]}" >&2
	fail "${#errors[@]} measured values wrong"
fi
echo "ok: measured values ($rounds rounds)"
