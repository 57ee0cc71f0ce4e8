#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Mutation tests: each tests/mutations/*.patch is one small deliberate bug that the test suite
# once let through. For each, in a scratch copy of the committed tree (git archive HEAD, under
# build/mutations/: the repo's file system, where O_DIRECT works), this applies the patch,
# builds from scratch (make -j2 build/iops build/check_unit) and runs the patch's caught-by
# command, which must FAIL: `KILLED name`; if it passes, `SURVIVED name` (a hole in the tests).
# A patch that does not apply, changes nothing or does not build is an ERROR, never a kill.
#
# Patch header (text before the first `diff --git`, which git apply ignores):
#   # mutation: <one line>          what the bug is
#   # find: <file>: <code line>      where it goes (to regenerate the patch when code moves)
#   # caught-by: <command>           the narrowest test that must fail, run from the copy's root
#   # env: VAR=value                 (any number) set for the build and the command; @ROOT@ is
#                                    the copy's root. A mutation of the environment (a wrong
#                                    reference tool) has env lines and no diff.
# First, unless MUTATION_BASELINE=0, every caught-by command runs once on the unmutated tree
# (without the env lines) and must pass there: a command that fails anyway kills nothing (ERROR).
#
# Usage: tests/mutations/run.sh [NAME-FILTER]   (MUTATION_FILTER works too)
# Closing line: "mutation: N killed, N survived, N errors"; exit 1 unless every mutation is killed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
filter=${1:-${MUTATION_FILTER:-}}
root=$repo/build/mutations
mkdir -p "$root"
# git must never take a scratch copy for a subdirectory of this repo (git apply would then
# silently skip every path outside it)
export GIT_CEILING_DIRECTORIES=$root
killed=0 survived=0 errors=0 current=
trap '[ -n "$current" ] && rm -rf "$current" "$current.log" "$current.log.test"; exit 130' INT TERM

hdr() { sed -n "/^diff --git /q; s/^# $1: //p" "$2"; }

# copy DIR: the committed tree in DIR, a git repo of its own (git apply --index needs one)
copy() {
	mkdir -p "$1" && (cd "$repo" && git archive HEAD) | tar -x -C "$1" &&
		(cd "$1" && git init -q && git add -A)
}

# build DIR LOG ENV...: make the two binaries from scratch
build() {
	local dir=$1 log=$2
	shift 2
	(cd "$dir" && env "$@" make -j2 build/iops build/check_unit) >>"$log" 2>&1
}

patches=()
for p in "$here"/*.patch; do
	name=$(basename "$p" .patch)
	[ -n "$filter" ] && [[ "$name" != *$filter* ]] && continue
	patches+=("$p")
done
[ ${#patches[@]} -gt 0 ] || { echo "mutation: no patch matches '$filter'"; exit 1; }

declare -A baseline_ok
if [ "${MUTATION_BASELINE:-1}" != 0 ]; then
	current=$(mktemp -d "$root/baseline.XXXXXX")
	log=$current.log
	if ! copy "$current" >"$log" 2>&1 || ! build "$current" "$log"; then
		echo "ERROR baseline: the unmutated tree does not build"
		tail -30 "$log" | sed 's/^/    | /'
		rm -rf "$current" "$log"
		echo "mutation: 0 killed, 0 survived, ${#patches[@]} errors"
		exit 1
	fi
	for p in "${patches[@]}"; do
		cmd=$(hdr caught-by "$p" | head -1)
		[ -n "$cmd" ] && [ -z "${baseline_ok[$cmd]:-}" ] || continue
		if (cd "$current" && timeout 900 bash -c "$cmd") >"$log" 2>&1; then
			baseline_ok[$cmd]=1
			echo "baseline passes: $cmd"
		else
			baseline_ok[$cmd]=0
			echo "baseline FAILS: $cmd"
			tail -30 "$log" | sed 's/^/    | /'
		fi
	done
	rm -rf "$current" "$log"
	current=
fi

for p in "${patches[@]}"; do
	name=$(basename "$p" .patch)
	cmd=$(hdr caught-by "$p" | head -1)
	if [ -z "$cmd" ]; then
		echo "ERROR $name: no '# caught-by:' line"
		errors=$((errors + 1))
		continue
	fi
	if [ "${baseline_ok[$cmd]:-1}" = 0 ]; then
		echo "ERROR $name: its caught-by command fails without the mutation too: $cmd"
		errors=$((errors + 1))
		continue
	fi
	current=$(mktemp -d "$root/$name.XXXXXX")
	log=$current.log
	envs=()
	while IFS= read -r e; do envs+=("${e//@ROOT@/$current}"); done < <(hdr env "$p")
	err=
	if ! copy "$current" >"$log" 2>&1; then
		err="cannot make the scratch copy"
	elif grep -q '^diff --git ' "$p"; then
		if ! (cd "$current" && git apply --index "$p") >>"$log" 2>&1; then
			err="the patch does not apply (regenerate it: see its '# find:' line)"
		elif (cd "$current" && git diff --cached --quiet); then
			err="the patch changes nothing"
		fi
	elif [ ${#envs[@]} = 0 ]; then
		err="neither a diff nor '# env:' lines: nothing is mutated"
	fi
	[ -n "$err" ] || build "$current" "$log" "${envs[@]}" || err="the mutant does not build"
	if [ -n "$err" ]; then
		echo "ERROR $name: $err"
		tail -20 "$log" | sed 's/^/    | /'
		errors=$((errors + 1))
	else
		start=$(date +%s)
		(cd "$current" && env "${envs[@]}" timeout 900 bash -c "$cmd") >"$log.test" 2>&1
		rc=$?
		secs=$(($(date +%s) - start))
		if [ "$rc" != 0 ]; then
			killed=$((killed + 1))
			printf 'KILLED %-36s %4ss  %s\n' "$name" "$secs" "$cmd"
			grep -E 'FAIL' "$log.test" | head -3 | cut -c1-220 | sed 's/^ */    /' 
		else
			survived=$((survived + 1))
			printf 'SURVIVED %-34s %4ss  %s\n' "$name" "$secs" "$cmd"
			tail -20 "$log.test" | sed 's/^/    | /'
		fi
		rm -f "$log.test"
	fi
	rm -rf "$current" "$log"
	current=
done
echo "mutation: $killed killed, $survived survived, $errors errors"
[ "$survived" = 0 ] && [ "$errors" = 0 ]
