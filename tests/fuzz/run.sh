#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs libFuzzer targets, FUZZ_JOBS at a time (default: one per CPU): run.sh BUILD SECONDS TARGET...
# Each gets a fresh writable corpus in a temp dir (new inputs never land in the repo), then the
# seeds of tests/fuzz/corpus/<target>/ (and, for jobfile, ../shared/conformance/fio-examples/
# when it exists), read-only. A crash, leak, timeout or sanitizer report is a finding: its input
# is written to BUILD/fuzz/findings/ and the script fails. One line per target, in the order
# given: execs, cov.
set -u
build=$1 secs=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
findings=$build/fuzz/findings
mkdir -p "$findings"
jobs=${FUZZ_JOBS:-$(nproc)}
out=$(mktemp -d "${TMPDIR:-/tmp}/iops-fuzz-out.XXXXXX")
trap 'rm -rf "$out"' EXIT

fuzz_one() {	# TARGET: its result line on stdout (a finding's details too), exit 1 on a finding
	local t=$1 bin=$build/fuzz/fuzz_$1 work log st execs cov
	local -a seeds dict
	work=$(mktemp -d "${TMPDIR:-/tmp}/iops-fuzz-$t.XXXXXX")
	log=$work/log
	seeds=("$here/corpus/$t")
	[ "$t" = jobfile ] && [ -d "$here/../../../shared/conformance/fio-examples" ] &&
		seeds+=("$here/../../../shared/conformance/fio-examples")
	dict=()
	case $t in fio_args|jobfile) dict=(-dict="$build/fuzz/fio.dict") ;; esac
	mkdir -p "$work/corpus"
	"$bin" -max_total_time="$secs" -timeout=25 -rss_limit_mb=2048 -max_len=8192 \
		-close_fd_mask=3 -print_final_stats=1 -artifact_prefix="$findings/$t-" \
		"${dict[@]}" "$work/corpus" "${seeds[@]}" >"$log" 2>&1
	st=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1)
	rm -rf "$work/corpus"
	if [ "$st" -eq 0 ]; then
		echo "fuzz $t: ok, ${secs} s, ${execs:-?} execs, ${cov:-cov: ?}"
		rm -rf "$work"
		return 0
	fi
	echo "fuzz $t: FINDING (exit $st), ${execs:-?} execs; input in $findings/:"
	grep -E 'ERROR|runtime error|SUMMARY|#[0-9]+ 0x|Test unit written' "$log" | head -n 30
	rm -rf "$work"
	return 1
}

n=0
for t in "$@"; do
	[ "$n" -ge "$jobs" ] && { wait -n; n=$((n - 1)); }
	(fuzz_one "$t" >"$out/$t" 2>&1; echo $? >"$out/$t.rc") &
	n=$((n + 1))
done
wait
rc=0
for t in "$@"; do
	if [ "$(cat "$out/$t.rc" 2>/dev/null)" = 0 ]; then
		cat "$out/$t"
	else
		cat "$out/$t" >&2
		rc=1
	fi
done
exit $rc
