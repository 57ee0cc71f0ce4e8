#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs every tests/e2e/t_*.sh against the binary given as $1 (default build/iops).
# A test script exits 0 on success, 77 when it cannot run here (after one line
# `SKIP: <reason>`), anything else on failure. A passing script may skip some of its cases,
# one line `SKIP: <reason>` each. The output of a failing script is shown; of the others,
# every SKIP line is shown under the script's result line, so no skip goes unseen.
# Closing lines: the number of skipped cases (when there are any), then
# "e2e: N passed, N failed, N skipped" (scripts; exit 1 if any failed).
# IOPS_SAN=1 (the sanitizer build, `make san`): ASan, LeakSanitizer and UBSan write every report
# to a file of their own (log_path), not to the output the scripts compare, and a script after
# which any report file exists FAILS, whatever its exit status (a test that expects exit 1
# would not tell a sanitizer's exit from a refusal). A script adding its own options appends to
# ASAN_OPTIONS, never replaces it (t_ioping_rng.sh).
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
san_dir=
if [ -n "${IOPS_SAN:-}" ]; then
	san_dir=$(mktemp -d)
	trap 'rm -rf "$san_dir"' EXIT
	export ASAN_OPTIONS="halt_on_error=1:exitcode=86:log_path=$san_dir/asan"
	export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:exitcode=86:log_path=$san_dir/ubsan"
fi
for t in "$here"/t_*.sh; do
	name=$(basename "$t" .sh)
	[ -n "$filter" ] && [[ "$name" != *$filter* ]] && continue
	[ -n "$only" ] && [[ " $only " != *" $name "* ]] && continue
	log=$(mktemp)
	start=$(date +%s.%N)
	timeout 300 bash "$t" >"$log" 2>&1
	rc=$?
	secs=$(echo "$(date +%s.%N) - $start" | bc)
	nskip=$(grep -c '^SKIP: ' "$log")
	san_rep=
	if [ -n "$san_dir" ] && [ -n "$(ls -A "$san_dir")" ]; then
		san_rep=$(cat "$san_dir"/*)
		rm -f "$san_dir"/*
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
	rm -f "$log"
done
[ ${#failed[@]} -gt 0 ] && echo "failed: ${failed[*]}"
[ ${#skipped[@]} -gt 0 ] && echo "skipped: ${skipped[*]}"
[ "$skipped_cases" -gt 0 ] && echo "skipped cases in passing scripts: $skipped_cases"
echo "${E2E_LABEL:-e2e}: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
