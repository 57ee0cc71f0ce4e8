#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Conformance over fio's example job files (shared/conformance/fio-examples, parsed, NEVER run):
# each file is either accepted like fio 3.33 accepts it (same --showcmd line) or refused with
# one line naming what iops lacks (or fails where fio fails too). Also --showcmd with several
# files and with stdin. The reference fio takes ~0.5 s per call here, so it is only asked
# about the files where its answer matters, several at a time.
. "$(dirname "$0")/lib.sh"

repo=$(cd "$(dirname "$0")/../.." && pwd)
corpus=$repo/../shared/conformance/fio-examples
[ -d "$corpus" ] || missing_prereq "$corpus not found (CI copies shared/ beside the repo)"
REF=${REF_FIO:-/usr/bin/fio}
have_ref=0
[ -x "$REF" ] && [ "$("$REF" --version 2>/dev/null)" = "fio-3.33" ] && have_ref=1
if [ "$have_ref" = 0 ]; then
	[ "${CI:-}" != true ] || fail "no reference fio 3.33 at $REF (CI=true, where it is installed)"
	skip_note "no reference fio 3.33 at $REF: checking refusals only"
fi

mkdir -p "$T/run" "$T/res"
cd "$T/run" || fail "cd"
accepted=() fio_style=() refused=0
for f in "$corpus"/*.fio; do
	name=$(basename "$f" .fio)
	"$IOPS" fio --parse-only "$f" >"$T/o" 2>"$T/e"; rc=$?
	# fio's "valid values" list of a bad choice is on stdout in fio too; nothing else may be
	grep -v -E '^ +(valid values|) *: |^$' "$T/o" >"$T/o2"
	[ -s "$T/o2" ] && fail "$name: --parse-only printed on stdout: $(head -2 "$T/o2")"
	if [ "$rc" = 0 ]; then
		[ -s "$T/e" ] && fail "$name: accepted with messages: $(cat "$T/e")"
		"$IOPS" fio --showcmd "$f" >"$T/res/$name.ours" 2>&1
		accepted+=("$f")
	else
		refused=$((refused + 1))
		assert_eq "$name status" 1 "$rc"
		if grep -q 'not supported by iops\|which this build does not include' "$T/e"; then
			assert_eq "$name: refusal is one line" 1 "$(wc -l <"$T/e")"
		else
			fio_style+=("$f")
		fi
	fi
	[ -z "$(ls -A "$T/run")" ] || fail "$name: files created: $(ls -A "$T/run")"
done
echo "corpus: ${#accepted[@]} accepted, $refused refused (${#fio_style[@]} with fio's own errors)"
[ "${#accepted[@]}" -ge 10 ] || fail "only ${#accepted[@]} example files accepted"
[ "$have_ref" = 1 ] || exit 0

# ask fio: accepted files must parse in fio and give the same --showcmd; files we refuse
# with fio-style errors must be refused by fio too.
ref_one() {
	local f=$1 name
	name=$(basename "$f" .fio)
	"$REF" --parse-only "$f" >/dev/null 2>&1
	echo $? >"$T/res/$name.rc"
	(exec -a fio "$REF" --showcmd "$f") >"$T/res/$name.ref" 2>&1
}
export -f ref_one
export REF T
printf '%s\0' "${accepted[@]}" "${fio_style[@]}" | xargs -0 -n1 -P4 bash -c 'ref_one "$0"'
for f in "${accepted[@]}"; do
	name=$(basename "$f" .fio)
	assert_eq "$name: fio accepts it too" 0 "$(cat "$T/res/$name.rc")"
	if ! cmp -s "$T/res/$name.ref" "$T/res/$name.ours"; then
		diff "$T/res/$name.ref" "$T/res/$name.ours" >&2
		fail "$name: --showcmd differs"
	fi
done
for f in "${fio_style[@]}"; do
	name=$(basename "$f" .fio)
	[ "$(cat "$T/res/$name.rc")" != 0 ] || fail "$name: refused with fio-style errors fio does not give"
done
[ -z "$(ls -A "$T/run")" ] || fail "files created: $(ls -A "$T/run")"

# several files and stdin
files=("$corpus/null.fio" "$corpus/waitfor.fio" "$corpus/tiobench-example.fio")
assert_eq "--showcmd 3 files" "$(exec -a fio "$REF" --showcmd "${files[@]}")" "$("$IOPS" fio --showcmd "${files[@]}")"
assert_eq "--showcmd stdin" "$(exec -a fio "$REF" --showcmd - <"$corpus/null.fio")" \
	"$("$IOPS" fio --showcmd - <"$corpus/null.fio")"
printf '[global]\nbs=4k ; c\n# x\n[a]\nsize=1m\nio_limit=512k\n[b]\nstonewall\nfilename=x\\:y\nkb_base=1000\n' >"$T/q.fio"
assert_eq "--showcmd quirks" "$(exec -a fio "$REF" --showcmd "$T/q.fio")" "$("$IOPS" fio --showcmd "$T/q.fio")"
# a section header without ']' (fio drops its last character: "[a" is job "") is refused
printf '[a\nsize=1m\n' >"$T/q2.fio"
"$IOPS" fio --showcmd "$T/q2.fio" >/dev/null 2>&1 && fail "--showcmd: '[a' accepted"
exit 0
