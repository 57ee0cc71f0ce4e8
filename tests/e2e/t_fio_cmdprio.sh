#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# I/O priorities against fio 3.33: cmdprio_percentage / cmdprio_class / cmdprio /
# cmdprio_bssplit with libaio and io_uring give the same JSON "prios" shape (the priorities,
# their samples adding up to the direction's, clat_ns or lat_ns), the same normal-output
# "clat prio C/L" lines, the same log priority column; prio / prioclass set the job's; bad
# values give fio's messages and status. Per-request priorities need root for the RT class.
. "$(dirname "$0")/fio_common.sh"

FIO_PAR=${FIO_PAR:-4}
# the real-time class (root, and a kernel that takes it: probed) and libaio's queue
kernel_has ioprio_rt || skip_script "cmdprio's real-time class: $PROBE_WHY"
! engine_refused libaio || skip_script "cmdprio's jobs use libaio, which the kernel refuses here ($PROBE_WHY)"
have_uring=1
engine_refused io_uring && have_uring=0 uring_why=$PROBE_WHY

A="--ioengine=libaio --iodepth=4 --size=16m --io_size=2m --bs=4k"
par_run run_pair pct --name=c $A --rw=randread --cmdprio_percentage=50 --output-format=json
par_run run_pair uring --name=c $A --ioengine=io_uring --rw=randrw --cmdprio_percentage=40,60 --cmdprio_class=2 \
	--cmdprio=3 --output-format=json
par_run run_pair latp --name=c $A --rw=randwrite --cmdprio_percentage=50 --lat_percentiles=1 --output-format=json+
# bss: 16 MiB of I/O, not 2: its priorities are drawn afresh each run (as fio's, without
# allrandrepeat); 2 MiB gives 16 4k reads, which at 25 % drew no 1/1 once in a clean-clone CI
# (0.75^16: 1 % a run, 1 of 40 measured); 16 MiB gives 253 (0.75^253: 1e-32)
par_run run_pair bss --name=c $A --io_size=16m --rw=randrw --bssplit=4k/50:64k/50 --cmdprio_bssplit=4k/25/1/1:4k/75/3/2:64k/0 \
	--prio=4 --write_lat_log=l --log_prio=1 --output-format=json
par_run run_pair grp --name=c $A --rw=randrw --cmdprio_percentage=50 --numjobs=2 --group_reporting=1 \
	--unified_rw_reporting=1 --output-format=json
par_run run_pair norm --name=c $A --rw=randrw --cmdprio_percentage=50
par_run run_pair none --name=c $A --rw=randread --prioclass=2 --prio=6 --write_lat_log=l --log_prio=1 \
	--output-format=json
par_run run_pair bad1 --name=c $A --rw=randread --cmdprio_percentage=101
par_run run_pair bad2 --name=c $A --rw=randread --cmdprio_percentage=5 --cmdprio_class=4
par_run run_pair bad3 --name=c $A --rw=randread --cmdprio_percentage=5 --cmdprio=8
par_run run_pair bad4 --name=c $A --rw=randread --prio=8
par_run run_pair bad5 --name=c $A --rw=randread --prioclass=4
par_run run_pair bad6 --name=c $A --rw=randread --cmdprio_percentage=5 --cmdprio_bssplit=4k/5
par_wait

# the priorities of a direction: "class/level" list, and whether their samples add up
prios() { json_doc "$T/$1.$2.out" | jq -r ".jobs[0].$3.prios // [] | map(\"\(.prioclass)/\(.prio)\") | sort | join(\" \")"; }
adds_up() {
	json_doc "$T/$1.$2.out" | jq -r ".jobs[0].$3 | ([.prios[].$4.N] | add) == .$4.N and
		([.prios[].$4.min] | min) == .$4.min and ([.prios[].$4.max] | max) == .$4.max"
}
keys_of() { json_doc "$T/$1.$2.out" | jq -r ".jobs[0].$3.prios[0] | keys | join(\",\")"; }

[ "$have_uring" = 1 ] || case_skip "uring: needs io_uring, which the kernel refuses here ($uring_why)"
for c in pct uring latp bss grp norm none; do
	[ "$c" != uring ] || [ "$have_uring" = 1 ] || continue
	assert_eq "$c: exit status" 0 "$(rc_of $c ut)"
	assert_eq "$c: exit status (fio)" 0 "$(rc_of $c ref)"
	case_ran
done
for s in ref ut; do
	assert_eq "pct $s: prios" "0/0 1/0" "$(prios pct $s read)"
	assert_eq "pct $s: adds up" true "$(adds_up pct $s read clat_ns)"
	assert_eq "pct $s: keys" "clat_ns,prio,prioclass" "$(keys_of pct $s read)"
	assert_eq "pct $s: no write prios" "" "$(prios pct $s write)"
	if [ "$have_uring" = 1 ]; then
		assert_eq "uring $s: read prios" "0/0 2/3" "$(prios uring $s read)"
		assert_eq "uring $s: write adds up" true "$(adds_up uring $s write clat_ns)"
	fi
	assert_eq "latp $s: lat_ns per prio" "lat_ns,prio,prioclass" "$(keys_of latp $s write)"
	assert_eq "latp $s: adds up" true "$(adds_up latp $s write lat_ns)"
	assert_eq "latp $s: bins" true "$(json_doc "$T/latp.$s.out" | jq '.jobs[0].write.prios | all(.lat_ns.bins | length > 0)')"
	assert_eq "bss $s: prios" "1/1 2/4 3/2" "$(prios bss $s read)"
	assert_eq "bss $s: adds up" true "$(adds_up bss $s write clat_ns)"
	assert_eq "bss $s: log priorities" "0x2001 0x4004 0x6002" \
		"$(cut -d, -f5 "$T/bss.$s.d/l_clat.1.log" | tr -d ' ' | sort -u | tr '\n' ' ' | sed 's/ $//')"
	assert_eq "bss $s: 64k never raised" "0x4004" \
		"$(awk -F', ' '$4 == 65536 { print $5 }' "$T/bss.$s.d/l_clat.1.log" | sort -u)"
	assert_eq "grp $s: mixed prios" "0/0 1/0" "$(prios grp $s mixed)"
	assert_eq "grp $s: adds up" true "$(adds_up grp $s mixed clat_ns)"
	assert_eq "grp $s: both jobs" 1024 "$(json_doc "$T/grp.$s.out" | jq '[.jobs[0].mixed.prios[].clat_ns.N] | add')"
	assert_eq "none $s: no prios" "" "$(prios none $s read)"
	assert_eq "none $s: log priority" "0x4006" "$(cut -d, -f5 "$T/none.$s.d/l_clat.1.log" | tr -d ' ' | sort -u)"
done
# normal output: the same prio lines (numbers masked)
for s in ref ut; do
	grep -E '^ +c?lat prio ' "$T/norm.$s.out" | sed -E 's/:.*//; s/\(([0-9.]+)% of IOs\)/(P)/; s/\((nsec|usec|msec)\)/(U)/' \
		>"$T/norm.$s.prio"
done
diff "$T/norm.ref.prio" "$T/norm.ut.prio" >"$T/norm.diff" || fail "norm: prio lines differ: $(cat "$T/norm.diff")"
assert_eq "norm: 4 stat lines and 4 percentile blocks" 8 "$(wc -l <"$T/norm.ut.prio")"

# bad values: fio's status and messages, nothing created
for c in bad1 bad2 bad3 bad4 bad5; do
	assert_eq "$c: exit status" "$(rc_of $c ref)" "$(rc_of $c ut)"
	assert_eq "$c: stderr" "$(cat "$T/$c.ref.err")" "$(cat "$T/$c.ut.err")"
	assert_eq "$c: nothing created" "" "$(dir_listing "$T/$c.ut.d")"
done
assert_eq "bad6: exit status" "$(rc_of bad6 ref)" "$(rc_of bad6 ut)"
assert_match "bad6: message" "c: cmdprio_percentage and cmdprio_bssplit options are mutually exclusive" \
	"$(cat "$T/bad6.ut.err")"
if ! skip_if_fio "iops refuses cmdprio before the run"; then
	assert_eq "bad6: nothing created" "" "$(dir_listing "$T/bad6.ut.d")"
	run_one ut bad7 --name=c --ioengine=psync --size=1m --cmdprio_percentage=5
	assert_eq "bad7: exit status" 1 "$(rc_of bad7 ut)"
	assert_match "bad7: message" "need ioengine=libaio or io_uring" "$(cat "$T/bad7.ut.err")"
fi
echo "PASS"
