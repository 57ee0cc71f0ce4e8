#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# ioping mode: -e SEED reproduces ioping's offsets and data. Observable without tracing:
# with -k the working file ioping.tmp keeps the prepared random data, and -W then writes
# fresh random data at random offsets, so both tools must leave byte-identical files.
# With strace available, the read offsets of `-e 42 -c 4 -i 0 -q DIR` are compared too.
. "$(dirname "$0")/lib.sh"

need_ref_ioping

mkdir "$T/ref" "$T/our"
ref_ioping -e 42 -k -W -c 4 -i 0 -q -S 256k "$T/ref" >/dev/null || fail "ioping -k -W failed"
"$IOPS" ioping -e 42 -k -W -c 4 -i 0 -q -S 256k "$T/our" >/dev/null || fail "iops -k -W failed"
cmp -s "$T/ref/ioping.tmp" "$T/our/ioping.tmp" || fail "-e 42 -k -W: working files differ"

# A regular file written with -WWW at random offsets (4 KiB and an odd size with a tail).
for s in 4k 12; do
	head -c 262144 /dev/zero >"$T/ref/f"
	cp "$T/ref/f" "$T/our/f"
	ref_ioping -e 0x2a -WWW -s "$s" -c 6 -i 0 -q "$T/ref/f" >/dev/null || fail "ioping -WWW failed"
	"$IOPS" ioping -e 0x2a -WWW -s "$s" -c 6 -i 0 -q "$T/our/f" >/dev/null || fail "iops -WWW failed"
	cmp -s "$T/ref/f" "$T/our/f" || fail "-e 0x2a -WWW -s $s: files differ"
	cmp -s "$T/our/f" <(head -c 262144 /dev/zero) && fail "-WWW -s $s wrote nothing"
done

# Different seeds give different data (the comparison above can fail).
rm -f "$T/our/ioping.tmp"
"$IOPS" ioping -e 43 -k -W -c 4 -i 0 -q -S 256k "$T/our" >/dev/null || fail "iops -e 43 failed"
cmp -s "$T/ref/ioping.tmp" "$T/our/ioping.tmp" && fail "-e 43 gave the same data as -e 42"

if command -v strace >/dev/null; then
	mkdir "$T/d"
	# (LeakSanitizer cannot run under ptrace: harmless for the static binary)
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -e trace=pread64 -o "$T/st" "$IOPS" ioping -e 42 -c 4 -i 0 -q "$T/d" >/dev/null ||
		fail "strace run failed"
	offsets=$(grep -o ', [0-9]*) = 4096' "$T/st" | tr -dc '0-9 \n' | awk '{print $1}' | tr '\n' ' ')
	assert_eq "-e 42 read offsets" "57344 962560 245760 942080 " "$offsets"
fi
