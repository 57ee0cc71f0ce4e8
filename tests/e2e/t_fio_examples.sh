#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# fio's example job files that a kernel interface alone serves and that iops took last
# (issue 21), run beside fio 3.33 in scratch directories, never on the devices they name:
# - cmdprio-bssplit.fio, its /dev/sda replaced by a 32 MiB scratch file (buffered): per job
#   log, the entries of each direction and block size, and the priorities logged (log_prio=1)
#   among those the job's lines allow. fio 3.33 reads four fields of each entry and ignores the
#   priority hint after them (its cmdprio-hints job logs class 2 level 0: 0x4000).
# - filecreate-ioengine.fio: its first job (--section=t0) with nrfiles cut from 31,250 to
#   2,000 (the full file parses: t_fioopt_corpus compares its --showcmd with fio's): totals,
#   error, and the files each tool leaves.
. "$(dirname "$0")/fio_common.sh"

corpus=$(cd "$(dirname "$0")/../.." && pwd)/../shared/conformance/fio-examples
[ -d "$corpus" ] || missing_prereq "$corpus not found (CI copies shared/ beside the repo)"

# run_ex SIDE FILE ARGS...: SIDE (ref or ut) runs FILE in $T/SIDE, JSON to $T/SIDE.json
run_ex() {
	local side=$1 bin=$REF_FIO
	shift
	[ "$side" = ut ] && bin=$UT_FIO
	mkdir -p "$T/$side" && (cd "$T/$side" && "$bin" "$@" --output-format=json >"$T/$side.json" 2>"$T/$side.err")
	echo $? >"$T/$side.rc"
}

# --- cmdprio-bssplit.fio ------------------------------------------------------------------------
if out=$("$(tool probe)" libaio "$T"); then
	sed -e 's|^filename=/dev/sda|filename=f\nsize=32m|' -e 's|^direct=1|direct=0|' \
		"$corpus/cmdprio-bssplit.fio" >"$T/cmdprio.fio"
	grep -q '^filename=f$' "$T/cmdprio.fio" || fail "cmdprio-bssplit.fio: no filename line to replace"
	for side in ref ut; do
		run_ex "$side" "$T/cmdprio.fio"
		assert_eq "cmdprio $side rc" 0 "$(cat "$T/$side.rc")"
	done
	# the priorities each job's lines allow, per direction (0 read, 1 write): which of them a
	# share draws is a random choice of each tool's own
	allowed=([1]="0 0x0000|0 0x2000|1 0x0000" [2]="0 0x0000|0 0x2001|0 0x6002|1 0x0000"
		[3]="0 0x4007|0 0x2001|0 0x6002|1 0x4007" [4]="0 0x4000")
	# and what must be there: a share of 100% (or 75% of many), with its size
	required=([1]="0 65536 0x2000" [2]="0 65536 0x6002" [3]="0 65536 0x6002|1 1048576 0x4007"
		[4]="0 1048576 0x4000|0 2097152 0x4000")
	for n in 1 2 3 4; do
		for side in ref ut; do
			f=$T/$side/prio-run.log_clat.$n.log
			[ -f "$f" ] || fail "cmdprio: $side wrote no $f"
			awk -F', ' '{print $3, $4}' "$f" | sort | uniq -c >"$T/$side.sizes.$n"
			awk -F', ' '{print $3, $5}' "$f" | sort -u >"$T/$side.prios.$n"
			while read -r line; do
				[[ "|${allowed[$n]}|" == *"|$line|"* ]] || fail "cmdprio job $n: $side logged priority '$line' (allowed: ${allowed[$n]})"
			done <"$T/$side.prios.$n"
			IFS='|' read -r -a want <<<"${required[$n]}"
			for w in "${want[@]}"; do
				awk -F', ' '{print $3, $4, $5}' "$f" | grep -qx "$w" || fail "cmdprio job $n: $side logged no '$w'"
			done
		done
		assert_eq "cmdprio job $n: entries by direction and size" "$(cat "$T/ref.sizes.$n")" "$(cat "$T/ut.sizes.$n")"
	done
	# the hints job: class 2 level 0 for every read, as fio 3.33 (no hint bits)
	assert_eq "cmdprio-hints priorities" "0 0x4000" "$(cat "$T/ut.prios.4")"
	case_ran
	rm -rf "$T/ref" "$T/ut"
else
	case_skip "cmdprio-bssplit.fio: libaio unavailable here ($out)"
fi

# --- filecreate-ioengine.fio ---------------------------------------------------------------------
sed -e 's|^nrfiles=31250$|nrfiles=2000|' "$corpus/filecreate-ioengine.fio" >"$T/filecreate.fio"
grep -q '^nrfiles=2000$' "$T/filecreate.fio" || fail "filecreate-ioengine.fio: no nrfiles=31250 line"
for side in ref ut; do
	run_ex "$side" --section=t0 "$T/filecreate.fio"
	assert_eq "filecreate $side rc" 0 "$(cat "$T/$side.rc")"
	json_doc "$T/$side.json" | jq -c '.jobs[] | [.jobname, .error, .read.total_ios, .read.io_bytes,
		.write.total_ios, .write.io_bytes]' >"$T/$side.tot"
	(cd "$T/$side" && find . -type f -name 't0.*' | wc -l) >"$T/$side.files"
done
assert_eq "filecreate totals" "$(cat "$T/ref.tot")" "$(cat "$T/ut.tot")"
assert_eq "filecreate totals (fio's)" '["t0",0,2000,8192000,0,0]' "$(cat "$T/ref.tot")"
assert_eq "filecreate files left" "$(cat "$T/ref.files")" "$(cat "$T/ut.files")"
case_ran
echo "examples: cmdprio-bssplit and filecreate-ioengine as fio 3.33"
