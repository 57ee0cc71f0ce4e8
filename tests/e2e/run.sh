#!/usr/bin/env bash
# Runs every tests/e2e/t_*.sh against the binary given as $1 (default build/iops).
# A test script exits 0 on success, 77 when it cannot run here (after one line
# `SKIP: <reason>`), anything else on failure. A passing script may skip some of its cases,
# one line `SKIP: <reason>` each. The output of a failing script is shown; of the others,
# every SKIP line is shown under the script's result line, so no skip goes unseen.
# Closing lines: the number of skipped cases (when there are any), then
# "e2e: N passed, N failed, N skipped" (scripts; exit 1 if any failed).
set -u
here=$(cd "$(dirname "$0")" && pwd)
bin=$(cd "$(dirname "${1:-build/iops}")" && pwd)/$(basename "${1:-build/iops}")
export IOPS_BIN="$bin"
pass=0 fail=0 skip=0 skipped_cases=0 failed=() skipped=()
filter=${E2E_FILTER:-}
for t in "$here"/t_*.sh; do
	name=$(basename "$t" .sh)
	[ -n "$filter" ] && [[ "$name" != *$filter* ]] && continue
	log=$(mktemp)
	start=$(date +%s.%N)
	timeout 300 bash "$t" >"$log" 2>&1
	rc=$?
	secs=$(echo "$(date +%s.%N) - $start" | bc)
	nskip=$(grep -c '^SKIP: ' "$log")
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
		if [ "$rc" = 77 ]; then
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
echo "e2e: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
