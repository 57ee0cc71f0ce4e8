#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs every tests/e2e/t_*.sh against the binary given as $1 (default build/iops).
# A test script exits 0 on success, 77 when it cannot run here (after one line
# `SKIP: <reason>`), anything else on failure. A passing script may skip some of its cases,
# one line `SKIP: <reason>` each. The output of a failing script is shown; of the others,
# every SKIP line is shown under the script's result line, so no skip goes unseen.
# Closing lines: the number of skipped cases (when there are any), then
# "e2e: N passed, N failed, N skipped" (scripts; exit 1 if any failed).
# E2E_JOBS=N (default: the number of CPUs): N scripts at a time, each in its own scratch
# directory, results shown as each ends. A script with a line `# e2e: alone (REASON)` runs
# after the others, with nothing beside it: its checks compare timings or rates with fio's
# on the same disk and CPUs (a second script's load would be measured too), or hold a
# resource of the whole machine. Scripts with a line `# e2e: early (REASON)` (the longest) start
# first, so that the last minutes are not one long script running alone.
# IOPS_SAN=1 (the sanitizer build, `make san`): ASan, LeakSanitizer and UBSan write every report
# to a file of their own (log_path, one directory per script), not to the output the scripts
# compare, and a script after which any report file exists FAILS, whatever its exit status (a
# test that expects exit 1 would not tell a sanitizer's exit from a refusal). A script adding
# its own options appends to ASAN_OPTIONS, never replaces it (t_ioping_rng.sh).
set -u
here=$(cd "$(dirname "$0")" && pwd)
bin=$(cd "$(dirname "${1:-build/iops}")" && pwd)/$(basename "${1:-build/iops}")
export IOPS_BIN="$bin"
pass=0 fail=0 skip=0 skipped_cases=0 failed=() skipped=()
filter=${E2E_FILTER:-}
# E2E_ONLY="t_a t_b": only these scripts (make check's sanitizer subset; a name that is no script
# fails); E2E_LABEL: the closing line's first word (default e2e).
only=${E2E_ONLY:-}
for n in $only; do
	[ -f "$here/$n.sh" ] || { echo "run.sh: E2E_ONLY: no script $n" >&2; exit 1; }
done
jobs_max=${E2E_JOBS:-$(nproc 2>/dev/null || echo 1)}
[[ "$jobs_max" =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: E2E_JOBS=$jobs_max: not a count of scripts (1, 2, ...)" >&2; exit 1; }
res=$(mktemp -d)
trap 'rm -rf "$res"' EXIT

# run_script NAME: runs it (in the background), leaving NAME.log, NAME.rc, NAME.secs and, under
# IOPS_SAN, NAME.san (every report of the sanitizers) in $res
run_script() {
	local name=$1 start rc
	if [ -n "${IOPS_SAN:-}" ]; then
		mkdir -p "$res/$name.sandir"
		export ASAN_OPTIONS="halt_on_error=1:exitcode=86:log_path=$res/$name.sandir/asan"
		export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:exitcode=86:log_path=$res/$name.sandir/ubsan"
	fi
	start=$(date +%s.%N)
	timeout 300 bash "$here/$name.sh" >"$res/$name.log" 2>&1 </dev/null
	rc=$?
	echo "$(date +%s.%N) - $start" | bc >"$res/$name.secs"
	if [ -n "${IOPS_SAN:-}" ] && [ -n "$(ls -A "$res/$name.sandir")" ]; then
		cat "$res/$name.sandir"/* >"$res/$name.san"
	fi
	echo "$rc" >"$res/$name.rc"
}

# report NAME: the result line of a script that ended, and its SKIP lines or its output
report() {
	local name=$1 log=$res/$1.log rc secs nskip san_rep=
	rc=$(cat "$res/$name.rc") secs=$(cat "$res/$name.secs")
	nskip=$(grep -c '^SKIP: ' "$log")
	if [ -f "$res/$name.san" ]; then
		san_rep=$(cat "$res/$name.san")
		[ "$rc" = 0 ] || san_rep="(the script also exited $rc)"$'\n'"$san_rep"
		rc=86
	fi
	if [ "$rc" = 0 ]; then
		pass=$((pass + 1))
		skipped_cases=$((skipped_cases + nskip))
		printf 'PASS %-40s %5.1fs%s\n' "$name" "$secs" "$([ "$nskip" = 0 ] || echo " ($nskip skipped)")"
		grep '^SKIP: ' "$log" | sed 's/^/    | /'
	elif [ "$rc" = 77 ] && [ "$nskip" -ge 1 ]; then
		skip=$((skip + 1))
		skipped+=("$name")
		printf 'SKIP %-40s %5.1fs\n' "$name" "$secs"
		grep '^SKIP: ' "$log" | sed 's/^/    | /'
	else
		fail=$((fail + 1))
		failed+=("$name")
		if [ -n "$san_rep" ]; then
			printf 'FAIL %s (sanitizer report)\n' "$name"
			echo "$san_rep" | head -60 | sed 's/^/    # /'
		elif [ "$rc" = 77 ]; then
			printf 'FAIL %s (exit 77 without a SKIP: line)\n' "$name"
		else
			printf 'FAIL %s (exit %s)\n' "$name" "$rc"
		fi
		sed 's/^/    | /' "$log" | tail -60
	fi
}

together=() alone=() early=()
for t in "$here"/t_*.sh; do
	name=$(basename "$t" .sh)
	[ -n "$filter" ] && [[ "$name" != *$filter* ]] && continue
	[ -n "$only" ] && [[ " $only " != *" $name "* ]] && continue
	if grep -q '^# e2e: alone' "$t"; then
		alone+=("$name")
	elif grep -q '^# e2e: early' "$t"; then
		early+=("$name")
	else
		together+=("$name")
	fi
done
together=(${early[@]+"${early[@]}"} ${together[@]+"${together[@]}"})

# the scripts that may share the machine, jobs_max at a time, each reported as it ends
declare -A running=()
for name in ${together[@]+"${together[@]}"}; do
	while [ "${#running[@]}" -ge "$jobs_max" ]; do
		wait -n -p done_pid "${!running[@]}"
		report "${running[$done_pid]}"
		unset "running[$done_pid]"
	done
	run_script "$name" &
	running[$!]=$name
done
while [ "${#running[@]}" -gt 0 ]; do
	wait -n -p done_pid "${!running[@]}"
	report "${running[$done_pid]}"
	unset "running[$done_pid]"
done
# then the scripts that run alone, one after another
for name in ${alone[@]+"${alone[@]}"}; do
	run_script "$name"
	report "$name"
done
[ ${#failed[@]} -gt 0 ] && echo "failed: ${failed[*]}"
[ ${#skipped[@]} -gt 0 ] && echo "skipped: ${skipped[*]}"
[ "$skipped_cases" -gt 0 ] && echo "skipped cases in passing scripts: $skipped_cases"
echo "${E2E_LABEL:-e2e}: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
