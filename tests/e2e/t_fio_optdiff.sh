#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
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
# a file one of the tools made while it parsed (seen: one named '-1'; which tool and option is
# not yet found): shown, not failed on
left=$(ls -A "$T/od/run")
[ -z "$left" ] || skip_note "files left in optdiff's work directory: $(printf '%s' "$left" | tr '\n' ' ')"
echo "optdiff: agreement with fio 3.33 outside the listed differences"
