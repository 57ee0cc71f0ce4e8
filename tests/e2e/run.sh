#!/usr/bin/env bash
# Runs every tests/e2e/t_*.sh against the binary given as $1 (default build/iops).
# Each test script exits 0 on success; its output is shown only on failure.
# Closing line: "N passed, N failed" (exit 1 if any failed).
set -u
here=$(cd "$(dirname "$0")" && pwd)
bin=$(cd "$(dirname "${1:-build/iops}")" && pwd)/$(basename "${1:-build/iops}")
export IOPS_BIN="$bin"
pass=0 fail=0 failed=()
filter=${E2E_FILTER:-}
for t in "$here"/t_*.sh; do
	name=$(basename "$t" .sh)
	[ -n "$filter" ] && [[ "$name" != *$filter* ]] && continue
	log=$(mktemp)
	start=$(date +%s.%N)
	if timeout 300 bash "$t" >"$log" 2>&1; then
		pass=$((pass + 1))
		printf 'PASS %-40s %5.1fs\n' "$name" "$(echo "$(date +%s.%N) - $start" | bc)"
	else
		fail=$((fail + 1))
		failed+=("$name")
		printf 'FAIL %s\n' "$name"
		sed 's/^/    | /' "$log" | tail -60
	fi
	rm -f "$log"
done
[ ${#failed[@]} -gt 0 ] && echo "failed: ${failed[*]}"
echo "e2e: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
