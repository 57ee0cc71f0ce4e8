#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# e2e: alone (request times against ioping's on the same disk)
# ioping mode: the measured numbers, not only their layout (t_ioping_compare masks them all).
#   - invariants, in ours and (to check the checks) in ioping 1.3's output: JSON -- the
#     statistics are those of the requests listed as not ignored (count, time = their sum, min,
#     max, avg = time / count, iops = count / time), the time of the valid requests is within
#     the wall time of all of them; text -- "N requests completed in T" is within "generated M
#     requests in W", avg within [min, max] and T / N, and the summary is that of the printed
#     request times;
#   - values against ioping 1.3 on the same device-bound target (-D: O_DIRECT 4k reads of a
#     written file in the build dir, where that is on a block device), interleaved: the best round (lowest stat.min and lowest
#     median request time) of each side within a factor 1.5 of the other's (2 to 5 rounds).
. "$(dirname "$0")/lib.sh"

need_ref_ioping
command -v jq >/dev/null || fail "jq is required"

errors=()
add_err() { errors+=("$*"); }
FACTOR=1.5

D=$T/dir
mkdir "$D"
head -c 4194304 /dev/urandom >"$D/file" || fail "cannot write the data file"
sync "$D/file" 2>/dev/null

# run SIDE NAME ARGS...: ioping (ref) or ours (ut); stdout in $T/NAME.SIDE
run() {
	local side=$1 name=$2
	shift 2
	if [ "$side" = ref ]; then ref_ioping "$@"; else "$IOPS" ioping "$@"; fi >"$T/$name.$side" 2>"$T/$name.$side.err" ||
		fail "$name ($side): exit status $?: $(head -c 300 "$T/$name.$side.err")"
}
who() { if [ "$1" = ref ]; then echo "ioping's own output (the check is wrong?)"; else echo "our output"; fi; }

# json_check FILE: the violated invariants of an ioping -J document (nothing when sane)
json_check() {
	jq -r '
	def approx($a; $b; $rel; $abs): (($a - $b) | fabs) <= ($abs + $rel * ([($a | fabs), ($b | fabs)] | max));
	[.[] | select(.io) | .io] as $io | [$io[] | select(.ignored | not) | .time] as $t |
	(.[-1].stat) as $s | (.[-1].load) as $l |
	if $s == null or $l == null then "no closing stat/load object" else
	(if $s.count == ($t | length) then empty else "stat.count \($s.count), \($t | length) requests not ignored" end),
	(if $l.count == ($io | length) then empty else "load.count \($l.count), \($io | length) requests" end),
	(if ($t | length) == 0 then empty else
		(if approx($s.time; $t | add; 0; ($t | length)) then empty else "stat.time \($s.time) != sum of the valid request times \($t | add)" end),
		(if $s.min == ($t | min) and $s.max == ($t | max) then empty else "stat min/max \($s.min)/\($s.max), requests \($t | min)/\($t | max)" end),
		(if approx($s.avg; $s.time / $s.count; 0; 1) then empty else "stat.avg \($s.avg) != time / count" end),
		(if $s.min <= $s.avg and $s.avg <= $s.max then empty else "stat.avg \($s.avg) outside [\($s.min), \($s.max)]" end),
		(if approx($s.iops; $s.count * 1e9 / $s.time; 0.001; 0.01) then empty else "stat.iops \($s.iops) != count / time" end),
		(if $s.time <= $l.time then empty else "valid requests took \($s.time) ns, longer than all requests together (\($l.time) ns)" end)
	end)
	end' "$1" 2>&1
}

# text_check FILE: the same for the text output (numbers as printed: 3-4 digits, so 2 %)
text_check() {
	awk '
	function ns(v, u) { gsub(/[^a-z]/, "", u); return v * (u == "ns" ? 1 : u == "us" ? 1e3 : u == "ms" ? 1e6 : u == "s" ? 1e9 : u == "min" ? 6e10 : -1e30) }
	function near(a, b) { d = a - b; if (d < 0) d = -d; return d <= 0.02 * (a > b ? a : b) + 100 }
	/ request=[0-9]+ time=/ && !/\((warmup|too fast|too slow)\)/ {
		for (i = 1; i <= NF; i++) if ($i ~ /^time=/) { sub(/^time=/, "", $i); sum += ns($i, $(i + 1)); n++ }
	}
	/ requests completed in / { for (i = 1; i <= NF; i++) if ($i == "in") { done_ns = ns($(i + 1), $(i + 2)); done_n = $1 * ($2 == "k" ? 1000 : 1) } }
	/^generated [0-9.]+ (k )?requests in / { for (i = 1; i <= NF; i++) if ($i == "in") wall_ns = ns($(i + 1), $(i + 2)) }
	/^min\/avg\/max\/mdev = / { mn = ns($3, $4); av = ns($6, $7); mx = ns($9, $10) }
	END {
		if (done_ns == "" || wall_ns == "" || av == "") { print "summary lines missing"; exit }
		if (done_ns > wall_ns * 1.02 + 100) print "requests completed in " done_ns " ns, generated in " wall_ns " ns: more than the wall time"
		if (av < mn * 0.98 || av > mx * 1.02) print "avg " av " outside [" mn ", " mx "]"
		if (!near(av * done_n, done_ns)) print "avg " av " x " done_n " requests != " done_ns " ns"
		if (n != done_n) print n " valid request lines, summary says " done_n
		else if (!near(sum, done_ns)) print "the valid request lines add up to " sum " ns, the summary says " done_ns " ns"
	}' "$1"
}

for side in ref ut; do
	run "$side" js -J -c 8 -i 0 -D "$D"
	bad=$(json_check "$T/js.$side")
	[ -z "$bad" ] || add_err "-J: $(who "$side"): $(tr '\n' ';' <<<"$bad")"
	run "$side" jsq -J -q -c 8 -i 0 -D "$D/file"
	bad=$(jq -r '.[-1] | if .stat.time <= .load.time and .stat.min <= .stat.avg and .stat.avg <= .stat.max then empty
		else "valid time \(.stat.time) vs wall \(.load.time), min/avg/max \(.stat.min)/\(.stat.avg)/\(.stat.max)" end' "$T/jsq.$side" 2>&1)
	[ -z "$bad" ] || add_err "-J -q: $(who "$side"): $bad"
	for args in "-c 8 -i 0 -D $D" "-c 6 -i 0 $D/file" "-c 5 -i 10ms -C $D"; do
		# shellcheck disable=SC2086 # args are word-split on purpose
		run "$side" txt $args
		bad=$(text_check "$T/txt.$side")
		[ -z "$bad" ] || add_err "$args: $(who "$side"): $(tr '\n' ';' <<<"$bad")"
	done
done

# values: -D reads of the 4 MiB file, 30 valid requests a round
declare -A best
keep() {
	if [ -z "${best[$1]:-}" ] || [ "$2" -lt "${best[$1]}" ]; then best[$1]=$2; fi
}
# device-bound only where the scratch directory is on a block device (probed): on tmpfs an
# O_DIRECT read is a memory copy of a few hundred ns, where fixed costs decide the ratio
if ! kernel_has blockdev "$D"; then
	skip_note "values against ioping: $PROBE_WHY, so -D reads are not device-bound: times not compared"
	[ ${#errors[@]} = 0 ] || { printf '%s\n' "${errors[@]}" >&2; fail "${#errors[@]} measured values wrong"; }
	echo "ok: ioping values (invariants only)"
	exit 0
fi
rounds=0
for round in 1 2 3 4 5; do
	rounds=$round
	for side in ref ut; do
		run "$side" v -J -c 31 -i 0 -D "$D/file"
		# stat.min (the statistics) and the median of the valid request times listed (the
		# mean of 30 is one stall away from anything)
		read -r mn md <<<"$(jq -r '.[-1].stat.min as $m | [.[] | select(.io) | .io | select(.ignored | not) | .time] |
			sort | "\($m) \(.[length / 2 | floor])"' "$T/v.$side")"
		[[ "$mn$md" =~ ^[0-9]+$ ]] || fail "values ($side): no stat: $(head -c 300 "$T/v.$side")"
		keep "$side.min" "$mn"
		keep "$side.median" "$md"
	done
	[ "$round" -ge 2 ] || continue
	out=0
	for m in min median; do
		awk -v a="${best[ut.$m]}" -v b="${best[ref.$m]}" -v f="$FACTOR" 'BEGIN { exit !(b > 0 && a >= b / f && a <= b * f) }' || out=1
	done
	[ "$out" = 1 ] || break
done
for m in min median; do
	a=${best[ut.$m]} b=${best[ref.$m]}
	r=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
	echo "-D request time $m: ioping $b ns, ours $a ns (x$r, best of $rounds rounds)"
	awk -v r="$r" -v f="$FACTOR" 'BEGIN { exit !(r >= 1 / f && r <= f) }' ||
		add_err "request time $m: ours $a ns, ioping $b ns: x$r, outside a factor $FACTOR (best of $rounds rounds)"
done

if [ ${#errors[@]} -gt 0 ]; then
	printf '%s\n' "${errors[@]}" >&2
	fail "${#errors[@]} measured values wrong"
fi
echo "ok: ioping values ($rounds rounds)"
