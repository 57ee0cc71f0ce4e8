#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make conformance: fio 3.33's own test suite (t/run-fio-tests.py) against build/iops called
# as fio. Not part of `make check` (about 5 minutes, and it needs fio's test files, which are
# GPL-2.0 and not part of this repository).
#
# Where the suite comes from, first found:
#   FIO_SRC=DIR      a fio-3.33 source tree (e.g. `apt-get source fio` on a Debian 12 with
#                    deb-src lines, or fio's fio-3.33 release tarball): runs DIR/t/run-fio-tests.py
#   ../shared/fio-tests/run.sh beside the repository (the project's development machines:
#                    the same files, with a wrapper that adds per-test timeouts and cleanup)
# Tests skipped here, as fio's own runner does on a small machine: 9 (needs 4 CPUs),
# 1000 1001 1002 1005 1009 (C programs built from fio's sources that test fio's internals),
# 1007 1008 (zoned null_blk devices). Needs python3 with scipy and six (python3-scipy,
# python3-six). Prints one line per test and run-fio-tests.py's closing line
# ("N test(s) passed, N failed, N skipped"); exits 1 if any test failed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
bin=$(readlink -f "${1:-$repo/build/iops}")
[ -x "$bin" ] || { echo "conformance: $bin is not built (run make first)" >&2; exit 2; }
skip=(9 1000 1001 1002 1005 1007 1008 1009)

work=$(mktemp -d /var/tmp/iops-conformance.XXXXXX)
trap 'rm -rf "$work"' EXIT
ln -s "$bin" "$work/fio"	# iops answers to the name fio

py=/usr/bin/python3
[ -x "$py" ] || py=python3
"$py" -c 'import scipy, six' 2>/dev/null || {
	echo "conformance: python3-scipy and python3-six are needed: apt-get install -y python3-scipy python3-six" >&2
	exit 2
}
# fio's Python tests start with `#!/usr/bin/env python3`: the first python3 on PATH (a pyenv
# or venv one without scipy, on some machines) must be the one checked above.
mkdir -p "$work/bin"
ln -s "$(command -v "$py")" "$work/bin/python3"
export PATH="$work/bin:$PATH"
if [ -n "${FIO_SRC:-}" ]; then
	[ -f "$FIO_SRC/t/run-fio-tests.py" ] || { echo "conformance: $FIO_SRC/t/run-fio-tests.py not found (FIO_SRC must be a fio-3.33 source tree)" >&2; exit 2; }
	log="$work/run.log"
	(cd "$FIO_SRC" && "$py" t/run-fio-tests.py -r "$FIO_SRC" -f "$work/fio" -a "$work/artifacts" --skip "${skip[@]}") >"$log" 2>&1
	grep -E '^Test [0-9]+ (PASSED|FAILED|SKIPPED)' "$log"
	summary=$(tail -n 1 "$log")
elif [ -x "$repo/../shared/fio-tests/run.sh" ]; then
	out=$("$repo/../shared/fio-tests/run.sh" "$work/fio" "$work/artifacts" 2>&1)
	echo "$out" | sed '$d'
	summary=$(echo "$out" | tail -n 1)
else
	echo "conformance: no fio test suite: set FIO_SRC to a fio-3.33 source tree (docs/development.md, fio's own test suite)" >&2
	exit 2
fi
echo "$summary"
case "$summary" in
*" 0 failed"*) exit 0 ;;
*) exit 1 ;;
esac
