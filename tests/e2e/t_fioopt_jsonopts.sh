#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The options as typed reach JSON "global options" / "job options" as fio 3.33 records them
# (canonical names, raw values, flags without a value dropped). null engine: no files.
. "$(dirname "$0")/lib.sh"

need_ref_fio
REF=$REF_FIO
command -v jq >/dev/null || fail "jq is required"
mkdir -p "$T/ours" "$T/ref"
filter='[."global options", (.jobs[] | [.jobname, ."job options"])]'
jc() {
	local a b
	a=$(cd "$T/ref" && "$REF" "$@" --output-format=json 2>/dev/null | jq -c "$filter")
	b=$(cd "$T/ours" && "$IOPS" fio "$@" --output-format=json 2>/dev/null | jq -c "$filter")
	[ -n "$a" ] || fail "reference fio gave no JSON for: $*"
	assert_eq "json options: $*" "$a" "$b"
}
jc --ioengine=null --size=1m --blocksize=4k --name=a --readwrite=randread --group_reporting --numjobs=2
printf '[global]\nioengine=null\nsize=1m\ntime_based=0\n[j]\nbs=8k\ntimeout=1\nthread\n[k]\nrw=write\n' >"$T/jj.fio"
jc "$T/jj.fio"
jc --bs=8k "$T/jj.fio"
jc "$T/jj.fio" --name=c --ioengine=null --size=1m --percentile_list=50:99
assert_eq "nothing created" "" "$(dir_listing "$T/ours")"
exit 0
