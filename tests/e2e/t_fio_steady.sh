#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# e2e: alone (jobs attaining steady state before their runtime, as fio's)
# Steady state (steadystate/ss, ss_dur, ss_ramp) and --debug against fio 3.33: the JSON
# "steadystate" block has fio's keys, order and value classes; a job that attains ends early
# (after ss_ramp + ss_dur, before its runtime) and one that cannot runs its whole runtime;
# the criterion printed is the one fio's own test computes from the printed window (slope
# of the least-squares line or max deviation, in % of the mean); with group_reporting the
# group is judged as one; the normal output's "steadystate  :" line has fio's shape; option
# errors give fio's messages. --debug=parse prints fio's lines for the options given (thread
# ids masked), --debug=? lists fio's categories, an unknown category gives fio's message.
. "$(dirname "$0")/fio_common.sh"

FIO_PAR=${FIO_PAR:-4}
PY=/usr/bin/python3
# rated null jobs: steady, and cheap for a shared machine
R="--thread --ioengine=null --size=1g --rw=read --rate_iops=2000 --time_based"

par_run run_pair att --name=a $R --runtime=20 --ss_dur=2 --ss=iops:10% --ss_ramp=1 --output-format=json,normal
par_run run_pair slope --name=s $R --runtime=20 --ss_dur=3 --ss=bw_slope:2% --output-format=json
par_run run_pair never --name=n $R --runtime=4 --ss_dur=2 --ss=iops_slope:0 --output-format=json,normal
par_run run_pair ramp --name=r $R --runtime=3 --ss_dur=2 --ss=bw:1m --ss_ramp=60 --output-format=json
par_run run_pair grp --name=g $R --runtime=20 --numjobs=2 --group_reporting --ss_dur=2 --ss=iops:10% \
	--ss_ramp=1 --output-format=json,normal
par_run run_pair nogrp --name=h $R --runtime=3 --numjobs=2 --ss_dur=2 --ss=iops_slope:0 --output-format=json
par_run run_pair nodur --name=x $R --runtime=1 --ss=iops:10% --output-format=json
for v in foo:1 iops iops: iops:abc bw:abc bw:abc% IOPS:1; do
	par_run run_pair "bad_$(echo "$v" | tr -c 'a-zA-Z0-9\n' _)" --name=b --ioengine=null --size=1m --ss="$v"
done
par_run run_pair debug --parse-only --debug=parse --ss_dur=10s --ss=iops:10 --ss_ramp=5 --name=d --bs=4k \
	--thread --runtime=3 --time_based
par_run run_pair dbgset --parse-only --debug=parse,io,file
par_run run_pair dbgrun --debug=process,file,io --name=r --size=16k --bs=4k --output-format=terse
par_run run_pair dbglist --debug=?
par_run run_pair dbghelp --debug=help
par_run run_pair dbgbad --debug=nosuch --parse-only
par_wait

# the JSON document alone (normal output may follow it)
jdoc() { sed -n '/^{/,/^}$/p' "$1"; }
ss_block() { jdoc "$T/$1.$2.out" | jq ".jobs[$3].steadystate"; }
# the block as printed (job N's), array entries collapsed, then fio's value classes
ss_shape() {
	jdoc "$T/$1.$2.out" | awk -v want="$3" '/"steadystate" : \{/ { if (k++ == want) on = 1 }
		on { print; d += gsub(/\{/, "{"); d -= gsub(/\}/, "}"); if (d == 0) on = 0 }' |
		sed -E 's/^( *)[0-9]+,?$/\1V/' | uniq | json_shape
}
# criterion_check NAME SIDE JOB: fio's test (t/steadystate_tests.py) rules, from the printed data
criterion_check() {
	ss_block "$1" "$2" "$3" | "$PY" -c '
import json, sys
b = json.load(sys.stdin)
ss = b["ss"]
crit, lim = ss.split(":")
pct = lim.endswith("%")
y = b["data"]["iops" if crit.startswith("iops") else "bw"]
n = len(y)
mean = sum(y) / n
if crit.endswith("_slope"):
    xm = (n - 1) / 2
    sxx = sum((i - xm) ** 2 for i in range(n))
    t = sum((i - xm) * v for i, v in enumerate(y)) / sxx if sxx else 0
else:
    t = max(abs(v - mean) for v in y)
if pct:
    t = t / mean * 100 if mean else 0
c = float(b["criterion"].rstrip("%"))
ok = abs(abs(t) - abs(c)) <= 0.005 * max(abs(c), 1e-9) + 1e-6
print("ok" if ok else "criterion %s, computed %f from %s" % (b["criterion"], t, y))'
}
runtime_of() { jdoc "$T/$1.$2.out" | jq ".jobs[$3].read.runtime"; }

for c in att slope never ramp grp nogrp nodur; do
	assert_eq "$c: exit status" "$(rc_of $c ref)" "$(rc_of $c ut)"
	assert_eq "$c: jobs reported" "$(jdoc "$T/$c.ref.out" | jq '.jobs | length')" \
		"$(jdoc "$T/$c.ut.out" | jq '.jobs | length')"
done
assert_eq "no ss_dur: no steadystate block" "null null" \
	"$(ss_block nodur ref 0) $(ss_block nodur ut 0)"
for c in att slope never ramp grp nogrp; do
	n=$(jdoc "$T/$c.ref.out" | jq '.jobs | length')
	for ((j = 0; j < n; j++)); do
		diff <(ss_shape $c ref $j) <(ss_shape $c ut $j) >"$T/$c.diff" || fail "$c job $j: block shapes differ: $(cat "$T/$c.diff")"
		assert_eq "$c job $j: job keys" "$(jdoc "$T/$c.ref.out" | jq -c ".jobs[$j] | keys_unsorted")" \
			"$(jdoc "$T/$c.ut.out" | jq -c ".jobs[$j] | keys_unsorted")"
		for s in ref ut; do
			assert_eq "$c $s job $j: ss string" \
				"$(jdoc "$T/$c.ref.out" | jq -r ".jobs[$j].steadystate.ss")" "$(ss_block $c $s $j | jq -r .ss)"
			assert_eq "$c $s job $j: window" "$(ss_block $c ref $j | jq '.duration')" \
				"$(ss_block $c $s $j | jq '.data.iops | length')"
		done
	done
done
# attained: early end, after ramp + window, criterion from the data below the limit
for c in att slope grp; do
	for s in ref ut; do
		assert_eq "$c $s: attained" 1 "$(ss_block $c $s 0 | jq .attained)"
		rt=$(runtime_of $c $s 0)
		d=$(ss_block $c $s 0 | jq .duration)
		ramp=$(jdoc "$T/$c.$s.out" | jq -r '.jobs[0]["job options"].steadystate_ramp_time // "0"')
		# fio's checks run on their own once-a-second clock: its first sample may come early
		lo=$(((d + ramp - 1) * 1000))
		[ "$rt" -ge "$lo" ] && [ "$rt" -lt 15000 ] ||
			fail "$c $s: runtime $rt ms, expected between $lo and 15000"
		assert_eq "$c $s: criterion" ok "$(criterion_check $c $s 0)"
	done
done
# not attained: the whole runtime, the criterion computed all the same
for s in ref ut; do
	assert_eq "never $s: attained" 0 "$(ss_block never $s 0 | jq .attained)"
	rt=$(runtime_of never $s 0)
	[ "$rt" -ge 3950 ] && [ "$rt" -le 4100 ] || fail "never $s: runtime $rt, expected 4000"
	assert_eq "never $s: criterion" ok "$(criterion_check never $s 0)"
	# ss_ramp longer than the run: no sample, criterion 0
	assert_eq "ramp $s: nothing judged" '0 0.000000 [0,0]' \
		"$(ss_block ramp $s 0 | jq -c '[.attained, .criterion, .data.bw] | map(tostring) | join(" ")' | tr -d '"' |
			sed 's/\\//g')"
	assert_eq "nogrp $s: each job its own block" "2" "$(jdoc "$T/nogrp.$s.out" | jq '[.jobs[].steadystate] | length')"
done
# normal output: the steadystate line's shape
for c in att never grp; do
	assert_eq "$c: normal line" "$(grep 'steadystate  :' "$T/$c.ref.out" | mask_numbers | sed 's/=-N/=N/')" \
		"$(grep 'steadystate  :' "$T/$c.ut.out" | mask_numbers | sed 's/=-N/=N/')"
done
# option errors: fio's message lines and exit status
for f in "$T"/bad_*.ref.rc; do
	c=$(basename "$f" .ref.rc)
	assert_eq "$c: exit status" "$(rc_of "$c" ref)" "$(rc_of "$c" ut)"
	# iops names an option by its main name (docs/fio-differences.md: "Smaller differences")
	assert_eq "$c: messages" "$(sort "$T/$c.ref.err" "$T/$c.ref.out" | sed 's/ss=/steadystate=/')" \
		"$(sort "$T/$c.ut.err" "$T/$c.ut.out" | sed 's/ss=/steadystate=/')"
	assert_eq "$c: nothing created" "" "$(dir_listing "$T/$c.ut.d")"
done

# --debug=parse: fio's lines for the options given (thread ids masked; "free options" and
# "dup options" are fio's own bookkeeping)
dbg() { grep -E '^parse +[0-9]+ ' "$T/$1.$2.out" | sed -E 's/^parse +[0-9]+ /parse TID /' | grep -v 'free options\|dup options'; }
for s in ref ut; do
	assert_match "debug $s: ss line" 'set steady state IOPS threshold to 10\.000000' "$(cat "$T/debug.$s.out")"
done
assert_eq "debug: note" "$(head -n1 "$T/debug.ref.out")" "$(head -n1 "$T/debug.ut.out")"
diff <(dbg debug ref | grep -E 'steadystate|runtime|set steady| ret=') \
	<(dbg debug ut | grep -E 'steadystate|runtime|set steady| ret=') >"$T/dbg.diff" ||
	fail "debug=parse lines differ: $(cat "$T/dbg.diff")"
assert_eq "debug: handle_option lines for every option" "$(dbg debug ref | grep -c '^parse TID handle_option=')" \
	"$(dbg debug ut | grep -c '^parse TID handle_option=')"
assert_eq "debug: line layout" "$(grep -m1 handle_option "$T/debug.ref.out" | sed -E 's/[0-9]+/N/')" \
	"$(grep -m1 handle_option "$T/debug.ut.out" | sed -E 's/[0-9]+/N/')"
assert_eq "debug: set notes" "$(grep '^fio: ' "$T/dbgset.ref.out")" "$(grep '^fio: ' "$T/dbgset.ut.out")"
for c in dbglist dbghelp; do
	assert_eq "$c: list" "$(cat "$T/$c.ref.out")" "$(cat "$T/$c.ut.out")"
	assert_eq "$c: status" "$(rc_of $c ref)" "$(rc_of $c ut)"
done
assert_eq "dbgbad: message" "$(cat "$T/dbgbad.ref.err")" "$(cat "$T/dbgbad.ut.err")"
if ! skip_if_fio "unknown debug category exit status"; then
	assert_eq "dbgbad: exit status (fio: 0, iops: bad input)" 1 "$(rc_of dbgbad ut)"
fi
# --debug=process,file,io of a run: the lines fio prints for each I/O and for the job's life
drun() { grep -E "^$3 +[0-9]+ " "$T/dbgrun.$1.out" | sed -E 's/^[a-z]+ +[0-9]+ +//; s/0x[0-9a-f]+:/P:/' | grep -E "$2"; }
for pat in '^(queue|complete): io_u P: off=0x[0-9a-f]+,len=0x1000,ddir=0,file=r\.0\.0$'; do
	assert_eq "dbgrun: io lines" "$(drun ref "$pat" io | sort)" "$(drun ut "$pat" io | sort)"
done
for pat in '^(fd open|fd close) r\.0\.0$' '^(load|close|free) ioengine psync$'; do
	assert_eq "dbgrun: $pat" "$(drun ref "$pat" '(file|io)' | sort -u)" "$(drun ut "$pat" '(file|io)' | sort -u)"
done
for st in 'CREATED -> INITIALIZED' 'INITIALIZED -> RUNNING' 'RUNNING -> FINISHING' 'FINISHING -> EXITED' \
	'EXITED -> REAPED'; do
	assert_match "dbgrun: runstate $st" "pid=[0-9]+: runstate $st" "$(drun ut . process)"
	assert_match "dbgrun ref: runstate $st" "pid=[0-9]+: runstate $st" "$(drun ref . process)"
done
[ "$(drun ut "^queue:" io | wc -l)" = 4 ] || fail "dbgrun: 4 queue lines: $(head -c 1500 "$T/dbgrun.ut.out")"

# debug off: not one debug line
run_one ut quiet --name=q --ioengine=null --size=64k --output-format=terse
assert_eq "no debug: no debug line" "" "$(grep -E '^(parse|io|file|process) +[0-9]+ ' "$T/quiet.ut.out")"
echo "PASS"
