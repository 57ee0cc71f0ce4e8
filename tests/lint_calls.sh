#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# lint_calls.sh OBJDIR SOURCE.c...: the call graph between the given source files, read from
# their objects (`nm`; OBJDIR/x/y.o is the object of x/y.c): each file's undefined symbols
# resolved to the file that defines them, functions and data alike. Prints one "from to" line
# per edge, for tests/lint.sh's cycle check. Symbols none of the files defines (libc, libaio,
# zlib, ...) are no edges; a static inline function of a header is inlined and is no edge
# either (the include graph has it). A source without its object is reported on stderr and
# makes the exit status 2 (build first: make builds every object before lint runs).
set -u
objdir=${1:?usage: lint_calls.sh OBJDIR SOURCE.c...}
shift
rc=0
for src in "$@"; do
	[ -f "$objdir/${src%.c}.o" ] && continue
	echo "$src: no object $objdir/${src%.c}.o (build first)" >&2
	rc=2
done
[ "$rc" -eq 0 ] || exit "$rc"
for src in "$@"; do
	o=$objdir/${src%.c}.o
	nm -P "$o" | awk -v f="$src" '$2 ~ /^[TDBRCVW]$/ { print "D", $1, f } $2 == "U" { print "U", $1, f }'
done | awk '
	$1 == "D" { def[$2] = $3; next }
	{ und[NR] = $2 " " $3 }
	END {
		for (i in und) {
			split(und[i], a, " ")
			if ((a[1] in def) && def[a[1]] != a[2])
				print a[2], def[a[1]]
		}
	}' | sort -u
