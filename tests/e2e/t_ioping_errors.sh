#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# ioping mode: bad input gives ioping 1.3's message and exit code, touches nothing.
. "$(dirname "$0")/lib.sh"

need_ref_ioping

D=$T/dir
mkdir "$D"
head -c 1048576 /dev/zero >"$D/file"
mkfifo "$D/fifo"
before=$(dir_listing "$D")
sum_before=$(md5sum <"$D/file")

# check LABEL ARGS...: same exit code and same first stderr line as ioping; when ioping
# prints its usage after the message, we do too (our usage text is our own wording).
check() {
	local label=$1; shift
	ref_ioping "$@" >"$T/ref.out" 2>"$T/ref.err"; local rc_ref=$?
	"$IOPS" ioping "$@" >"$T/our.out" 2>"$T/our.err"; local rc_our=$?
	assert_eq "$label: exit code" "$rc_ref" "$rc_our"
	assert_eq "$label: message" "$(head -1 "$T/ref.err")" "$(head -1 "$T/our.err")"
	if grep -q 'Usage: ioping' "$T/ref.err"; then
		assert_eq "$label: blank line before usage" "" "$(sed -n 2p "$T/our.err")"
		assert_eq "$label: usage on stderr" " Usage: ioping [options...] directory|file|device" \
			"$(sed -n 3p "$T/our.err")"
	else
		assert_eq "$label: one stderr line" "$(wc -l <"$T/ref.err")" "$(wc -l <"$T/our.err")"
	fi
	[ -s "$T/our.err" ] || fail "$label: no message"
	assert_eq "$label: directory untouched" "$before" "$(dir_listing "$D")"
}

check "missing path"       -c 1
check "nonexistent"        -c 1 "$D/nonexistent"
check "bad size 4x"        -s 4x "$D"
check "bad size abc"       -s abc "$D"
check "bad time 1y"        -i 1y "$D"
check "bad count 1x"       -c 1x "$D"
check "overflow -4k"       -s -4k "$D"
check "overflow -c -1"     -c -1 "$D"
check "overflow 9eb"       -s 9eb "$D"
check "overflow count 3G"  -c 3G "$D"
check "division by zero"   -s 4/0 "$D"
check "trailing garbage"   -c '3 ' "$D"
check "nan size"           -s nan -c 1 "$D"
check "exa count 1e"       -c 1e "$D"
check "inf count"          -c inf "$D"
check "no p suffix"        -s 1p "$D"
check "exponent garbage"   -c 1.5e0.5 "$D"
check "rate too high"      -r 1000000001 "$D"
check "two destinations"   "$D" "$D/file"
check "-W on a file"       -c 1 -W "$D/file"
check "-WW on a file"      -c 1 -WW "$D/file"
check "-G on a file"       -c 1 -G "$D/file"
check "-W on /dev/null"    -c 1 -W /dev/null
check "-E"                 -E "$D"
check "-U"                 -U "$D"
check "-Z"                 -Z "$D"
check "--bogus=5"          --bogus=5 "$D"
check "-c no argument"     -c
check "--e no argument"    --e
check "ambiguous -d"       -d "$D"
check "ambiguous -wo"      -wo 1 "$D"
check "flag with value"    --quiet=1 "$D"
check "invalid in cluster" -kZ "$D"
check "-sz 4k"             -sz 4k "$D"
check "-S too big"         -c 1 -S 2M "$D/file"
check "-s too big"         -c 1 -s 2M "$D/file"
check "-o at the end"      -c 1 -o 1M "$D/file"
check "-o past the end"    -c 1 -o 1052672 "$D/file"
check "-S smaller than -s" -c 1 -s 1k -S 100 "$D"
check "fifo"               -c 1 "$D/fifo"
check "/proc"              -c 1 /proc
if kernel_has odirect_align "$D"; then	# tmpfs takes the unaligned O_DIRECT requests
	check "-D unaligned dir"   -c 1 -D -s 1000 "$D"
	check "-D unaligned file"  -c 1 -D -o 100 "$D/file"
else
	skip_note "-D unaligned dir and file: nothing to refuse here ($PROBE_WHY)"
fi

assert_eq "file content untouched" "$sum_before" "$(md5sum <"$D/file")"

# No arguments: usage on stdout, exit 1. -h: usage on stdout, exit 0. -v: the version.
"$IOPS" ioping >"$T/out" 2>"$T/err"; rc=$?
assert_eq "no args rc" 1 "$rc"
assert_match "no args usage on stdout" 'Usage: ioping' "$(cat "$T/out")"
"$IOPS" ioping -h >"$T/out"; assert_eq "-h rc" 0 "$?"
assert_match "-h usage" 'Usage: ioping' "$(cat "$T/out")"
assert_eq "-v" "ioping 1.3" "$("$IOPS" ioping -v)"
assert_eq "--version" "ioping 1.3" "$("$IOPS" ioping --version)"

# strtod forms the static (musl) binary must read as glibc does: hex, exponent, fraction.
for c in 0x3 3e0 7/2 " 3"; do
	out=$("$IOPS" ioping -B -c "$c" -i 0 "$D") || fail "-c '$c' failed"
	assert_eq "-c '$c' request count" 3 "$(echo "$out" | cut -d' ' -f9)"
done
