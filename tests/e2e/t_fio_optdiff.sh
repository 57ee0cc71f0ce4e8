#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# e2e: early (one of the longest: started first, so that no long script is left running alone at the end)
# Differential option parsing against fio 3.33 (issue 21), the short run: tests/fidelity/optdiff.py
# generates OPTDIFF_COUNT values (default 6,000: about a minute here) over every option both
# tools know, on the command line and in job files, from OPTDIFF_SEED (default 1: the seed the
# Check cases in tests/unit/fio/check_opt_fidelity.c were found with), and compares fio's and
# iops' parse of each (accepted or refused, the values --debug=parse shows). Any disagreement
# outside tests/fidelity/differences.txt fails; its closing line (the agreement rate) is shown.
# The full set (100,000 values and more): make fidelity.
. "$(dirname "$0")/lib.sh"

need_ref_fio
command -v python3 >/dev/null || missing_prereq "python3 is required"
here=$(cd "$(dirname "$0")" && pwd)
out=$(python3 "$here/../fidelity/optdiff.py" --seed "${OPTDIFF_SEED:-1}" --count "${OPTDIFF_COUNT:-6000}" \
	--jobs 2 --fio "$REF_FIO" --iops "$IOPS" --work "$T/od" --report "$T/od.json" 2>&1); rc=$?
printf '%s\n' "$out" | tail -1
[ "$rc" = 0 ] || fail "optdiff exit $rc: $(printf '%s\n' "$out" | tail -20)"
assert_match "agreement" "^optdiff: [0-9]+ values \(seed ${OPTDIFF_SEED:-1}, [0-9]+ options, cmdline\+jobfile\): .* 0 disagree \(100\.000% agreement" "$(printf '%s\n' "$out" | tail -1)"
# each run of either tool has a fresh directory of its own: a file iops leaves there (while it
# only parses) fails; fio's (merge_blktrace_file= creates the file its value names, and the
# merged file of the merge_blktrace_* cases) are listed in its output
left_iops=$(printf '%s\n' "$out" | grep '^optdiff: iops left ' || true)
[ -z "$(ls -A "$T/od/run" 2>/dev/null)" ] || fail "optdiff's work directory not emptied: $(ls -A "$T/od/run" | tr '\n' ' ')"
[ -z "$left_iops" ] || fail "iops left files while parsing: $left_iops"
printf '%s\n' "$out" | grep '^optdiff: fio left ' | sed 's/^optdiff: fio left /optdiff: fio 3.33 left (removed): /; s/;.*//' | sort -u || true
echo "optdiff: agreement with fio 3.33 outside the listed differences"
