#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# write_hist_log / log_hist_msec / log_hist_coarseness and --idle-prof against fio 3.33.
# Histogram logs: the same file names; every line `time, ddir, bs, bins...` with 3 + 1856 >> c
# fields, integers only; one line per direction and window (about runtime / log_hist_msec);
# windows ascending per direction; the bins of a line are what the direction's clat histogram
# gained since its previous line (their sum never exceeds the job's total_ios, and grows with
# it); bin i holds latencies of fio's histogram bucket (checked on a job with known latencies:
# a 2 ms think time is not part of clat, so every bin stays below the ms range); fio's
# tools/hist/fiologparser_hist.py reads them when it and pandas are installed.
# log_hist_msec=0: an empty file, as fio. Idle profiling: the JSON "cpu_idleness" object and
# the normal "CPU idleness:" lines have fio's keys and shapes, values are percentages;
# --idle-prof=calibrate prints fio's two lines; a bad mode gives fio's message and status.
. "$(dirname "$0")/fio_common.sh"

FIO_PAR=${FIO_PAR:-4}
PY=/usr/bin/python3
N="--thread --ioengine=null --size=1g --time_based"

par_run run_pair h0 --name=x $N --rw=randrw --rate_iops=4000 --runtime=2 --write_hist_log=hh --log_hist_msec=500 \
	--output-format=json
par_run run_pair h2 --name=x $N --rw=read --rate_iops=4000 --runtime=2 --write_hist_log=hh --log_hist_msec=250 \
	--log_hist_coarseness=2 --output-format=json
par_run run_pair h6 --name=x $N --rw=write --rate_iops=2000 --runtime=1 --write_hist_log=sub/p --log_hist_msec=200 \
	--log_hist_coarseness=6 --numjobs=2 --output-format=json
par_run run_pair hz --name=x $N --rw=read --rate_iops=1000 --runtime=1 --write_hist_log=z --output-format=json
par_run run_pair hpj --name=x $N --rw=read --rate_iops=1000 --runtime=1 --write_hist_log=q --log_hist_msec=300 \
	--per_job_logs=0 --output-format=json
par_run run_pair hbad --name=x $N --rw=read --runtime=1 --write_hist_log=q --log_hist_coarseness=7
par_run run_pair ip_sys --name=i --ioengine=null --size=64m --rw=read --idle-prof=system --output-format=json,normal
par_run run_pair ip_pc --name=i --ioengine=null --size=64m --rw=read --idle-prof=percpu --output-format=json,normal
par_run run_pair ip_cal --idle-prof=calibrate
par_run run_pair ip_bad --idle-prof=nosuch --name=i --ioengine=null --size=1m
for s in ref ut; do mkdir -p "$T/h6.$s.d/sub"; done
par_wait
# h6 writes into sub/: run it again now that the directory exists on both sides
run_pair h6 --name=x $N --rw=write --rate_iops=2000 --runtime=1 --write_hist_log=sub/p --log_hist_msec=200 \
	--log_hist_coarseness=6 --numjobs=2 --output-format=json

jdoc() { sed -n '/^{/,/^}$/p' "$1"; }
hlogs() { (cd "$1" && find . -name '*_clat_hist*.log' | sort | tr '\n' ' '); }
# check_log FILE COLUMNS: every line well formed; prints "lines per direction" and the bin sum
check_log() {
	awk -F', ' -v cols="$2" '
		NF != 3 + cols { print "bad field count " NF " at line " NR; bad = 1; exit }
		{ for (i = 1; i <= NF; i++) if ($i !~ /^[0-9]+$/) { print "not an integer: [" $i "] line " NR; bad = 1; exit } }
		{ if (($2 in last) && $1 <= last[$2]) { print "times not ascending for ddir " $2; bad = 1; exit }
		  last[$2] = $1; n[$2]++; for (i = 4; i <= NF; i++) sum += $i }
		END { if (!bad) { for (d = 0; d < 3; d++) printf "%d ", n[d] + 0; print sum + 0 } }' "$1"
}
ios() { jdoc "$T/$1.$2.out" | jq "[.jobs[$3].read.total_ios, .jobs[$3].write.total_ios] | add"; }

for c in h0 h2 h6 hz hpj; do
	assert_eq "$c: exit status" "$(rc_of $c ref)" "$(rc_of $c ut)"
	assert_eq "$c: log files" "$(hlogs "$T/$c.ref.d")" "$(hlogs "$T/$c.ut.d")"
	case_ran
done
for s in ref ut; do
	for spec in "h0 hh_clat_hist.1.log 1856 500 2000 0" "h2 hh_clat_hist.1.log 464 250 2000 0" \
		"h6 sub/p_clat_hist.1.log 29 200 1000 0" "h6 sub/p_clat_hist.2.log 29 200 1000 1"; do
		read -r c f cols msec run job <<<"$spec"
		out=$(check_log "$T/$c.$s.d/$f" "$cols")
		read -r n0 n1 n2 sum <<<"$out"
		[ -n "${sum:-}" ] || fail "$c $s $f: $out"
		want=$((run / msec))
		for n in $n0 $n1; do
			[ "$n" = 0 ] && continue
			[ "$n" -ge $((want - 2)) ] && [ "$n" -le "$want" ] || fail "$c $s $f: $n lines per direction, expected about $want"
		done
		total=$(ios $c $s "$job")
		[ "$sum" -gt 0 ] && [ "$sum" -le "$total" ] || fail "$c $s $f: bins sum to $sum, total_ios $total"
		[ "$sum" -ge $((total / 2)) ] || fail "$c $s $f: bins sum to $sum, not most of total_ios $total"
	done
	assert_eq "h0 $s: both directions logged" "yes" \
		"$(awk -F', ' '{ d[$2] = 1 } END { print ((0 in d) && (1 in d)) ? "yes" : "no" }' "$T/h0.$s.d/hh_clat_hist.1.log")"
	assert_eq "h0 $s: bs column" "4096" "$(cut -d, -f3 "$T/h0.$s.d/hh_clat_hist.1.log" | sort -u | tr -d ' ')"
	assert_eq "hz $s: log_hist_msec=0 leaves an empty file" "0" "$(wc -l <"$T/hz.$s.d/z_clat_hist.1.log")"
	assert_eq "hpj $s: per_job_logs=0 name" "q_clat_hist.log" "$(cd "$T/hpj.$s.d" && ls q_clat_hist*)"
	# the columns are fio's buckets: every count lies between the buckets of clat min and max
	jdoc "$T/h0.$s.out" | jq -r '[.jobs[0].read.clat_ns.min, .jobs[0].read.clat_ns.max,
		.jobs[0].write.clat_ns.min, .jobs[0].write.clat_ns.max] | map(tostring) | join(" ")' >"$T/mm.$s"
	awk -F', ' -v mm="$(cat "$T/mm.$s")" '
		function idx(v,   msb, eb) { if (v < 128) return v; msb = int(log(v) / log(2) + 1e-9)
			while (2 ^ msb > v) msb--; while (2 ^ (msb + 1) <= v) msb++
			eb = msb - 6; return (eb + 1) * 64 + int(v / 2 ^ eb) % 64 }
		BEGIN { split(mm, m, " "); lo[0] = idx(m[1]); hi[0] = idx(m[2]); lo[1] = idx(m[3]); hi[1] = idx(m[4]) }
		{ for (i = 4; i <= NF; i++) if ($i > 0 && (i - 4 < lo[$2] || i - 4 > hi[$2]))
			{ print "ddir " $2 " bucket " i - 4 " outside [" lo[$2] ", " hi[$2] "]"; exit 1 } }' \
		"$T/h0.$s.d/hh_clat_hist.1.log" >"$T/bk.$s" || fail "h0 $s: $(cat "$T/bk.$s")"
done
# fio takes any coarseness (its help says 0..6); iops refuses what has no meaning
if ! skip_if_fio "log_hist_coarseness above 6 refused"; then
	assert_eq "hbad: exit status" 1 "$(rc_of hbad ut)"
	assert_eq "hbad: message" "log_hist_coarseness: max value out of range: 7 (6 max)
fio: failed parsing log_hist_coarseness=7" "$(cat "$T/hbad.ut.err")"
	assert_eq "hbad: nothing created" "" "$(dir_listing "$T/hbad.ut.d")"
fi

# fio's own reader, when this machine has it
parser=
for p in /usr/share/doc/fio/fiologparser_hist.py /usr/share/doc/fio/fiologparser_hist.py.gz; do
	[ -e "$p" ] && parser=$p && break
done
if [ -n "$parser" ] && "$PY" -c 'import pandas, numpy' 2>/dev/null; then
	case $parser in *.gz) zcat "$parser" >"$T/fiologparser_hist.py" ;; *) cp "$parser" "$T/fiologparser_hist.py" ;; esac
	for s in ref ut; do
		"$PY" "$T/fiologparser_hist.py" "$T/h0.$s.d/hh_clat_hist.1.log" >"$T/parsed.$s" 2>"$T/parsed.$s.err" ||
			fail "fiologparser_hist.py on $s: $(cat "$T/parsed.$s.err")"
	done
	assert_eq "fiologparser_hist.py: header" "$(head -n1 "$T/parsed.ref")" "$(head -n1 "$T/parsed.ut")"
	assert_eq "fiologparser_hist.py: rows" "$(wc -l <"$T/parsed.ref")" "$(wc -l <"$T/parsed.ut")"
	case_ran
else
	# CI installs both (the Makefile's PKGS_E2E): there a missing one is a failure
	[ "${CI:-}" != true ] || fail "fio's fiologparser_hist.py or python3-pandas missing (CI=true, where they are installed)"
	case_skip "fio's fiologparser_hist.py or python3-pandas not installed"
fi

# idle profiling
for c in ip_sys ip_pc ip_cal ip_bad; do
	assert_eq "$c: exit status" "$(rc_of $c ref)" "$(rc_of $c ut)"
done
for c in ip_sys ip_pc; do
	assert_eq "$c: top-level keys" "$(jdoc "$T/$c.ref.out" | jq -c keys_unsorted)" "$(jdoc "$T/$c.ut.out" | jq -c keys_unsorted)"
	assert_eq "$c: cpu_idleness keys" "$(jdoc "$T/$c.ref.out" | jq -c '.cpu_idleness | keys_unsorted')" \
		"$(jdoc "$T/$c.ut.out" | jq -c '.cpu_idleness | keys_unsorted')"
	jdoc "$T/$c.ut.out" | jq -e '.cpu_idleness | [to_entries[] | select(.key != "unit_mean" and .key != "unit_stddev") |
		.value | (. >= 0 and . <= 100)] | all' >/dev/null || fail "$c: idleness outside 0..100"
	jdoc "$T/$c.ut.out" | jq -e '.cpu_idleness.unit_mean > 0' >/dev/null || fail "$c: unit_mean"
	assert_eq "$c: normal lines" "$(sed -n '/^CPU idleness:/,$p' "$T/$c.ref.out" | mask_numbers)" \
		"$(sed -n '/^CPU idleness:/,$p' "$T/$c.ut.out" | mask_numbers)"
	assert_eq "$c: blank line before" "$(grep -B1 '^CPU idleness:' "$T/$c.ref.out" | head -n1)" \
		"$(grep -B1 '^CPU idleness:' "$T/$c.ut.out" | head -n1)"
done
assert_eq "ip_cal: lines" "$(mask_numbers <"$T/ip_cal.ref.out")" "$(mask_numbers <"$T/ip_cal.ut.out")"
assert_eq "ip_bad: message" "$(cat "$T/ip_bad.ref.err" "$T/ip_bad.ref.out")" "$(cat "$T/ip_bad.ut.err" "$T/ip_bad.ut.out")"
assert_eq "ip_bad: nothing created" "" "$(dir_listing "$T/ip_bad.ut.d")"
echo "PASS"
