#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# ioping mode, directory targets: the working file is unnamed (O_TMPFILE); when O_TMPFILE is
# refused, a named ioping.tmp.XXXXXX is created and unlinked at once; when that fails too,
# ioping's message and exit 2. Failures are injected with strace (skipped without it).
. "$(dirname "$0")/lib.sh"

D=$T/dir
mkdir "$D"

# Default: O_TMPFILE, nothing ever named in the directory.
"$IOPS" ioping -c 3 -i 0 -q "$D" >/dev/null || fail "plain run failed"
assert_eq "nothing left" "" "$(dir_listing "$D")"

command -v strace >/dev/null || {
	[ "${CI:-}" != true ] || fail "strace not installed (CI=true, where it is installed)"
	skip_note "strace not installed: the O_TMPFILE fallback is not tested"
	exit 0
}
# (LeakSanitizer cannot run under ptrace: harmless for the static binary)
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

# The static binary opens with open(2), the sanitizer build with openat(2) (after its dynamic
# loader's own opens): find which open call is the O_TMPFILE one, then inject there.
strace -f -o "$T/st" -e trace=open,openat "$IOPS" ioping -c 1 -q "$D" >/dev/null 2>&1 ||
	fail "strace dry run failed"
sc=$(grep 'O_TMPFILE' "$T/st" | head -1 | grep -oE 'open(at)?\(' | tr -d '(')
[ -n "$sc" ] || fail "O_TMPFILE is not used"
n=$(grep -E " $sc\\(" "$T/st" | grep -n 'O_TMPFILE' | head -1 | cut -d: -f1)	# strace counts per syscall
strace -f -o "$T/st" -e trace=open,openat,unlink -e inject=$sc:error=EOPNOTSUPP:when=$n \
	"$IOPS" ioping -c 3 -i 0 -q "$D" >"$T/out" 2>"$T/err" || { cat "$T/err" >&2; fail "fallback run failed"; }
grep -q 'O_TMPFILE.*EOPNOTSUPP.*INJECTED' "$T/st" || fail "O_TMPFILE was not tried first"
name=$(grep -o '"[^"]*/ioping\.tmp\.[A-Za-z0-9]\{6\}", O_RDWR|O_CREAT|O_EXCL' "$T/st" | head -1 | cut -d'"' -f2)
[ -n "$name" ] || fail "no ioping.tmp.XXXXXX fallback file created"
grep -q "unlink(\"$name\") = 0" "$T/st" || fail "fallback file not unlinked"
assert_match "fallback run summary" 'ioping statistics' "$(cat "$T/out")"
assert_eq "fallback: nothing left" "" "$(dir_listing "$D")"

# Both refused: ioping's message, exit 2.
strace -f -o "$T/st" -e trace=open,openat -e inject=$sc:error=EACCES:when=$n..$((n + 1)) \
	"$IOPS" ioping -c 3 -i 0 -q "$D" >"$T/out" 2>"$T/err"; rc=$?
assert_eq "no temp file rc" 2 "$rc"
assert_eq "no temp file message" "ioping: failed to create temporary file at \"$D\": Permission denied" \
	"$(cat "$T/err")"
assert_eq "no temp file: nothing left" "" "$(dir_listing "$D")"
