#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# ioping mode on a block device (a loop device over a scratch file), beside ioping 1.3:
# reads by default, -W refused without -WWW, "(block device 64 MiB)" label, -S/-o checks.
. "$(dirname "$0")/lib.sh"

need_ref_ioping
truncate -s 64M "$T/img"
loop_attach "$T/img" || skip_script "no loop device here ($PROBE_WHY)"
trap 'rc=$?; losetup -d "$LOOP"; (exit $rc); _e2e_exit' EXIT

mask_ioping() {
	sed -E -e 's/ \((fast|slow)\)$//' \
	       -e 's/[0-9]+(\.[0-9]+)?( (ns|us|ms|s|min|hour|B|KiB|MiB|GiB|TiB|PiB|k|M|G|T)([ ,/:)]|$))?/N\4/g'
}

compare() {
	local label=$1; shift
	ref_ioping "$@" >"$T/ref.out" 2>"$T/ref.err"; local rc_ref=$?
	"$IOPS" ioping "$@" >"$T/our.out" 2>"$T/our.err"; local rc_our=$?
	assert_eq "$label: exit code" "$rc_ref" "$rc_our"
	diff -u <(mask_ioping <"$T/ref.out") <(mask_ioping <"$T/our.out") >&2 || fail "$label: stdout differs"
	diff -u "$T/ref.err" "$T/our.err" >&2 || fail "$label: stderr differs"
}

sum0=$(md5sum <"$LOOP")
compare "read"          -c 3 -i 0 "$LOOP"
assert_match "label" '\(block device 64 MiB\)' "$(head -1 "$T/our.out")"
compare "-W refused"    -c 3 -i 0 -W "$LOOP"
compare "-S too big"    -c 3 -i 0 -S 65m "$LOOP"
compare "-o window"     -c 3 -i 0 -S 1m -o 1m -D "$LOOP"
compare "-J"            -c 2 -i 0 -J "$LOOP"
jq -e '.[0].target.fstype == "block" and .[0].target.device_size == 67108864' "$T/our.out" >/dev/null ||
	fail "-J block device target"
assert_eq "reads left the device unchanged" "$sum0" "$(md5sum <"$LOOP")"
compare "-WWW -D"       -c 3 -i 0 -WWW -D "$LOOP"
[ "$(md5sum <"$LOOP")" != "$sum0" ] || fail "-WWW did not write"
