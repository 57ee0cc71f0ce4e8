#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Dispatcher: --version, --help, no args (the quick suite), unknown mode, multi-call names.
. "$(dirname "$0")/lib.sh"

out=$("$IOPS" --version); rc=$?
assert_eq "--version rc" 0 "$rc"
# the platform is the binary's own (an arm64 build runs here under qemu-user)
case $(file -b "$IOPS") in
*x86-64*) platform=linux/amd64 ;;
*aarch64*) platform=linux/arm64 ;;
*) fail "file(1) does not know the architecture of $IOPS: $(file -b "$IOPS")" ;;
esac
assert_match "--version" "^iops [0-9.]+ $platform \\(compatible with fio-3\\.33 and ioping 1\\.3\\)\$" "$out"

out=$("$IOPS" --help); rc=$?
assert_eq "--help rc" 0 "$rc"
assert_match "--help lists ioping" 'ioping +latency prober' "$out"
assert_match "--help lists fio" 'fio +load generator' "$out"

"$IOPS" -h >/dev/null; assert_eq "-h rc" 0 "$?"
# No arguments: the quick suite on the working directory (/proc: no free space, so the
# free-space refusal, naming '.', proves the dispatch without a run).
err=$(cd /proc && "$IOPS" 2>&1 >/dev/null); rc=$?
assert_eq "no-args rc" 1 "$rc"
assert_match "no-args is 'iops quick .'" "^iops: quick: not enough free space in '\.': 0 MiB free" "$err"
assert_match "--help lists quick" 'quick +six fio steps' "$out"

err=$("$IOPS" nosuchmode 2>&1 >/dev/null); rc=$?
assert_eq "unknown mode rc" 1 "$rc"
assert_match "unknown mode message" "^iops: unknown mode 'nosuchmode'" "$err"

# Multi-call: a link named ioping is the ioping mode.
ln -s "$IOPS" "$T/ioping"
out=$("$T/ioping" -v); rc=$?
assert_eq "ioping link -v rc" 0 "$rc"
assert_eq "ioping link -v" "ioping 1.3" "$out"
out=$("$IOPS" ioping -v)
assert_eq "iops ioping -v" "ioping 1.3" "$out"

# A message on stderr is one write(2), however long: a log that merges stdout and stderr
# (kubectl logs, podman run 2>&1) never shows it cut by a stdout line (musl writes an
# unbuffered stream in 80-byte pieces). strace sees the writes where ptrace is allowed.
if ! command -v strace >/dev/null; then
	missing_part "strace is required to count the writes of a message (Debian package strace)"
elif ! strace -o /dev/null true 2>/dev/null; then
	skip_note "stderr lines: ptrace is refused here (strace cannot trace true): the writes are not counted"
else
	d=$(mktemp -d)
	# (musl's stdio writes with writev: the line and its newline in one call return len + 1)
	(cd "$d" && strace -f -e trace=write,writev -e signal=none -s 300 -o "$d/trace" "$IOPS" fio --name=v \
		--size=1m --verify=sha512 --bs=256 --rw=write >/dev/null 2>&1)
	want='fio: verify=sha512 needs blocks (or verify_interval) of at least 296 bytes: fio 3.33 fails every smaller one'
	assert_eq "a long stderr line in one write" 1 \
		"$(grep -F "$want" "$d/trace" | grep -cE "^[0-9]+ +writev?\(2, .* = $((${#want} + 1))\$")"
	rm -rf "$d"
fi
