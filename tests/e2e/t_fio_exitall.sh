#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# e2e: alone (runtimes within 1 s of each other)
# exitall / exit_what / exitall_on_error: which jobs a finishing (or failing) job ends. Three
# jobs on the null engine: [a] would need 8 s (rate-limited), [b] is time_based for 3 s and
# ends first, [c] follows a stonewall. For each variant, fio and the binary under test: the
# exit code, each job's error, whether [a] was cut short with [b] (runtime within 1 s of b's),
# and whether [c] ran.
. "$(dirname "$0")/fio_common.sh"
FIO_PAR=${FIO_PAR:-4}

errors=()
add_err() { errors+=("$*"); }

cat >"$T/ea.fio" <<'JOB'
[global]
ioengine=null
[a]
size=64m
rate_iops=2000
[b]
size=1g
time_based
runtime=3
[c]
stonewall
size=16m
JOB
cat >"$T/eoe.fio" <<'JOB'
[global]
ioengine=null
exitall_on_error
[a]
size=1g
thinktime=10ms
rate_iops_min=1000
[b]
size=1g
time_based
runtime=6
[c]
stonewall
size=16m
JOB

# NAME|JOBFILE|ARGS
cases=(
	"group|ea.fio|--exitall"
	"stonewall|ea.fio|--exitall --exit_what=stonewall"
	"all|ea.fio|--exitall --exit_what=all"
	"on-error|eoe.fio|"
)
for c in "${cases[@]}"; do
	IFS='|' read -r name file args <<<"$c"
	# shellcheck disable=SC2086 # ARGS are words
	par_run run_pair "$name" "$T/$file" $args --output-format=json
done
par_wait

# per job: name error cut-short(a: runtime within 1 s of b's) ran(total_ios > 0)
summary() {
	json_doc "$1" | jq -r '(.jobs | map(select(.jobname == "b"))[0].job_runtime) as $b |
		.jobs[] | "\(.jobname) err=\(.error) short=\(if .jobname == "a" then ((.job_runtime - $b) | fabs < 1000) else "-" end) ran=\(.read.total_ios > 0)"'
}
for c in "${cases[@]}"; do
	IFS='|' read -r name _ _ <<<"$c"
	case_ran
	[ "$(rc_of "$name" ref)" = "$(rc_of "$name" ut)" ] ||
		add_err "$name: exit $(rc_of "$name" ref) (fio) / $(rc_of "$name" ut) (iops)"
	a=$(summary "$T/$name.ref.out" 2>&1 | tr '\n' ';')
	b=$(summary "$T/$name.ut.out" 2>&1 | tr '\n' ';')
	[ -n "$a" ] && [ "$a" = "$b" ] || add_err "$name: fio $a / iops $b"
done

run_pair bad-what --name=x --ioengine=null --size=1m --exitall --exit_what=some
[ "$(rc_of bad-what ref)" = 1 ] && [ "$(rc_of bad-what ut)" = 1 ] || add_err "bad-what: exit $(rc_of bad-what ref) / $(rc_of bad-what ut)"
grep -qF "$(head -n 1 "$T/bad-what.ref.err")" "$T/bad-what.ut.err" || add_err "bad-what: '$(head -n 1 "$T/bad-what.ut.err")'"

if [ ${#errors[@]} -gt 0 ]; then
	printf '%s\n' "${errors[@]}" >&2
	fail "${#errors[@]} problem(s)"
fi
echo "exitall: ${#cases[@]} variants end the same jobs as fio"
