#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# e2e: alone (status lines at fio's moments)
# The live status (ETA) line, against the real fio 3.33 run with the same options:
#   --eta=always: "Jobs: 1 (f=1)" lines ended by '\r', the bracket form once 3 s have passed,
#     the same line shapes as fio's, the last line left in place before the report;
#   --eta=never and --eta=auto without a terminal: no status line at all;
#   --output-format=json --eta=always: stdout stays one clean JSON document (fio prints no
#     status line either); with --output=FILE the lines go to stdout, the report to FILE;
#   --eta-interval / --eta-newline bounds: fio's messages and exit status.
. "$(dirname "$0")/fio_common.sh"

job=(--name=x --ioengine=null --size=64m --rw=randread --time_based)

# status_shapes FILE: the status lines of FILE, one per line, numbers and units masked,
# trailing padding removed, deduplicated.
status_shapes() {
	tr '\r' '\n' <"$1" | grep '^Jobs: ' | sed -E 's/ +$//; s/[0-9]+(\.[0-9]+)?([kMGTP]i?)?(B\/s|bit\/s)?/N/g' | sort -u
}

# run_tty SIDE NAME ARGS...: like run_one, with stdout a terminal (script(1)); the output keeps
# the terminal's "\r\n" line ends.
run_tty() {
	local side=$1 name=$2 bin cmd
	shift 2
	if [ "$side" = ref ]; then bin=$REF_FIO; else bin=$UT_FIO; fi
	mkdir -p "$T/$name.$side.d"
	cmd="cd $(printf %q "$T/$name.$side.d") && exec -a fio $(printf '%q ' "$bin" "$@")"
	SHELL=/bin/bash timeout -k 5 60 script -qfec "$cmd" /dev/null >"$T/$name.$side.out" 2>"$T/$name.$side.err" </dev/null
	echo $? >"$T/$name.$side.rc"
}
have_script=0
command -v script >/dev/null && have_script=1

par_run run_pair always "${job[@]}" --runtime=4 --eta=always
par_run run_pair jsonfile "${job[@]}" --runtime=2 --eta=always --output-format=json --output=rep.json
if [ "$have_script" = 1 ]; then
	par_run run_tty ref tty "${job[@]}" --runtime=4
	par_run run_tty ut tty "${job[@]}" --runtime=4
fi
par_wait
par_run run_pair never "${job[@]}" --runtime=1 --eta=never
par_run run_pair auto "${job[@]}" --runtime=1
par_run run_pair json "${job[@]}" --runtime=2 --eta=always --output-format=json
par_wait
for c in always never auto json jsonfile; do
	for side in ref ut; do
		[ "$(rc_of $c $side)" = 0 ] || { show_run $c $side >&2; fail "$c ($side): exit status $(rc_of $c $side)"; }
	done
done

# --eta=always: the first status line follows "Starting 1 process", every line ends with '\r'
for side in ref ut; do
	out=$T/always.$side.out
	assert_eq "always ($side): line 3" "Starting 1 process" "$(sed -n 3p "$out")"
	assert_eq "always ($side): line 4 starts" "Jobs: 1 (f=1)"$'\r' "$(sed -n 4p "$out" | head -c 14)"
	grep -qE $'Jobs: 1 \\(f=1\\): \\[r\\(1\\)\\]\\[[0-9]+\\.[0-9]%\\]\\[r=[0-9.]+[KMG]iB/s\\]\\[r=[0-9.]+[kM]? IOPS\\]\\[eta 00m:0[0-9]s\\] *\r' "$out" ||
		{ show_run always $side >&2; fail "always ($side): no bracket status line"; }
	# no bracket form in the first 3 seconds: the first line is always the short one
	first=$(tr '\r' '\n' <"$out" | grep -m1 '^Jobs: ')
	assert_eq "always ($side): first status line" "Jobs: 1 (f=1)" "$first"
	# the last line stays, the report's blank line follows it
	grep -q $'\\[eta 00m:00s\\] *\r$' "$out" || { show_run always $side >&2; fail "always ($side): last line is not the 100 % one"; }
	# every status line is one of the two forms
	odd=$(tr '\r' '\n' <"$out" | grep '^Jobs:' | grep -vE '^Jobs: 1 \(f=1\)(: \[r\(1\)\].*\[eta [0-9]{2}m:[0-9]{2}s\] *)?$' || true)
	assert_eq "always ($side): unexpected status lines" "" "$odd"
	# one a second: a loaded machine (both tools alike) may miss one; three show it updates
	[ "$(tr '\r' '\n' <"$out" | grep -c '^Jobs:')" -ge 3 ] || fail "always ($side): fewer than 3 status lines in 4 s"
done
if ! diff -u <(status_shapes "$T/always.ref.out") <(status_shapes "$T/always.ut.out") >"$T/shapes.diff"; then
	cat "$T/shapes.diff" >&2
	fail "always: status line shapes differ from fio's"
fi
# between the status lines and the report: '\r', the blank line, then the job block, as fio
for side in ref ut; do
	assert_eq "always ($side): after the status lines" "x: (groupid=0, jobs=1): err= 0: pid=N: ..." \
		"$(sed -n 5p "$T/always.$side.out" | sed -E 's/pid=[0-9]+: .*/pid=N: .../')"
	assert_eq "always ($side): line 4 ends" $'\r' "$(sed -n 4p "$T/always.$side.out" | tail -c 2 | head -c 1)"
done

# --eta=auto on a terminal: the same lines as --eta=always
if [ "$have_script" = 1 ]; then
	for side in ref ut; do
		[ "$(rc_of tty $side)" = 0 ] || { show_run tty $side >&2; fail "tty ($side): exit status $(rc_of tty $side)"; }
		assert_eq "tty ($side): first status line" "Jobs: 1 (f=1)" "$(tr '\r' '\n' <"$T/tty.$side.out" | grep -m1 '^Jobs: ')"
		grep -qE $'\\[eta 00m:0[0-9]s\\] *\r' "$T/tty.$side.out" || { show_run tty $side >&2; fail "tty ($side): no bracket status line"; }
	done
	if ! diff -u <(status_shapes "$T/tty.ref.out") <(status_shapes "$T/tty.ut.out") >"$T/shapes.diff"; then
		cat "$T/shapes.diff" >&2
		fail "tty: status line shapes differ from fio's"
	fi
else
	echo "note: script(1) not found: --eta=auto on a terminal not tested"
fi

# --eta=never, and --eta=auto when stdout is not a terminal: nothing of it
for c in never auto; do
	for side in ref ut; do
		if grep -q 'Jobs:' "$T/$c.$side.out"; then
			show_run $c $side >&2
			fail "$c ($side): a status line was printed"
		fi
	done
done
# the report starts the same way (header, version, "Starting", blank line)
for c in never auto; do
	assert_eq "$c: output head" "$(head -4 "$T/$c.ref.out" | mask_numbers)" "$(head -4 "$T/$c.ut.out" | mask_numbers)"
done

# --output-format=json --eta=always: fio prints no status line; ours stays pure JSON
for side in ref ut; do
	if grep -q 'Jobs:' "$T/json.$side.out"; then
		show_run json $side >&2
		fail "json ($side): status line on stdout"
	fi
done
skip_if_fio "pure JSON on stdout" || assert_pure_json "json --eta=always" "$T/json.ut.out"

# --output=FILE: the status lines still go to stdout (ending with '\r', no newline), the report
# to the file
for side in ref ut; do
	out=$T/jsonfile.$side.out
	grep -q '^Jobs: 1 (f=1)' "$out" || { show_run jsonfile $side >&2; fail "jsonfile ($side): no status line on stdout"; }
	assert_eq "jsonfile ($side): last byte of stdout" "0d" "$(tail -c1 "$out" | od -An -tx1 | tr -d ' ')"
	assert_eq "jsonfile ($side): stdout lines" 0 "$(wc -l <"$out" | tr -d ' ')"
	jq -e '.jobs[0].jobname == "x"' "$T/jsonfile.$side.d/rep.json" >/dev/null ||
		fail "jsonfile ($side): rep.json is not the JSON report"
done

# option bounds: same message, same stream, same exit status as fio
for a in --eta-interval=100ms --eta-interval=abc --eta-newline=0 --eta-newline=abc; do
	n=opt${a//[^a-z0-9]/_}
	run_pair "$n" --name=x --ioengine=null --size=1m "$a"
	assert_eq "$a: exit status" "$(rc_of "$n" ref)" "$(rc_of "$n" ut)"
	assert_eq "$a: stderr" "$(cat "$T/$n.ref.err")" "$(cat "$T/$n.ut.err")"
	assert_eq "$a: stdout" "$(cat "$T/$n.ref.out")" "$(cat "$T/$n.ut.out")"
done
# accepted values run (a 250 ms interval is the minimum; a plain number is seconds)
for a in --eta-interval=250ms --eta-interval=2 --eta-newline=1; do
	n=ok${a//[^a-z0-9]/_}
	run_one ut "$n" --name=x --ioengine=null --size=1m "$a"
	assert_eq "$a: exit status" 0 "$(rc_of "$n" ut)"
done
echo "ok: fio status line"
