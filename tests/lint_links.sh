#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The documentation's relative links, for make lint (tests/lint.sh sources this file).
#
# links_check ROOT FILE...   FILE: a Markdown file, its path relative to ROOT. Prints
#   "FILE:LINE: ..." for each relative link that does not resolve: a file or directory that does
#   not exist (from FILE's folder; "/x" from ROOT), or a #anchor that no heading, <a id=...> or
#   <!-- section:... --> marker of the target Markdown file makes (GitHub's anchor rules:
#   tests/lint_links.awk). Links with a scheme (https:, mailto:) are not checked, nor code.
#   A file named in LINKS_PENDING (paths from ROOT, blank-separated) may be missing: a link to it
#   passes, anchor and all, until it exists; once it does, its entry is reported as stale.
# links_selftest DIR   runs links_check on DIR/clean (no finding expected) and DIR/broken
#   (exactly the lines marked <!-- lint: broken --> expected); prints what differs.
#
# Run alone: tests/lint_links.sh [ROOT [FILE...]] (default: this repository's README.md,
# ARCHITECTURE.md and docs/).

LINKS_AWK="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lint_links.awk"

links_decode() {	# percent-decoding, into the variable named $1
	local s=$2
	[[ $s == *%* ]] && s=$(printf '%b' "${s//%/\\x}")
	printf -v "$1" '%s' "$s"
}

links_check() {
	local root=$1; shift
	local f line dest path frag target dir rel p scan
	local -A anchors=() pending=()
	for p in ${LINKS_PENDING-}; do
		pending[$p]=1
		[ -e "$root/$p" ] && echo "tests/lint.sh: $p exists now: remove it from LINKS_PENDING"
	done
	for f in "$@"; do
		if ! scan=$(awk -v mode=links -f "$LINKS_AWK" "$root/$f"); then
			echo "$f:0: the link scanner (tests/lint_links.awk) failed on it"
			continue
		fi
		while IFS=$'\t' read -r line dest; do
			[ -n "$line" ] || continue
			[[ $dest =~ ^[A-Za-z][A-Za-z0-9+.-]*: || $dest == //* ]] && continue
			path=${dest%%#*}
			frag=
			[[ $dest == *'#'* ]] && frag=${dest#*#}
			path=${path%%\?*}
			links_decode path "$path"
			links_decode frag "$frag"
			if [ -z "$path" ]; then
				target=$f
			elif [[ $path == /* ]]; then
				target=${path#/}
			else
				dir=${f%/*}
				[ "$dir" = "$f" ] && dir=.
				target=$dir/$path
			fi
			rel=$(realpath -m --relative-to="$root" "$root/$target")
			if [ ! -e "$root/$target" ]; then
				[ -n "${pending[$rel]+x}" ] && continue
				echo "$f:$line: link to '$dest': no such file or directory ($rel)"
				continue
			fi
			[ -z "$frag" ] && continue
			if [ -d "$root/$target" ]; then
				echo "$f:$line: link to '$dest': an anchor on a directory ($rel)"
			elif [[ $rel == *.md ]]; then
				if [ -z "${anchors[$rel]+x}" ]; then
					scan=$(awk -v mode=anchors -f "$LINKS_AWK" "$root/$rel") ||
						echo "$f:$line: the anchor scanner (tests/lint_links.awk) failed on $rel"
					anchors[$rel]=$'\n'$scan$'\n'
				fi
				[[ ${anchors[$rel]} == *$'\n'"$frag"$'\n'* ]] ||
					echo "$f:$line: link to '$dest': no heading or anchor '#$frag' in $rel"
			elif [[ ! $frag =~ ^L[0-9]+(-L[0-9]+)?$ ]]; then
				echo "$f:$line: link to '$dest': '#$frag' in $rel, which is not Markdown (only #L<line> there)"
			fi
		done <<<"$scan"
	done
}

links_selftest() {
	local dir=$1 f found expected
	local -a files
	mapfile -t files < <(cd "$dir/clean" && find . -name '*.md' | sed 's|^\./||' | sort)
	found=$(LINKS_PENDING="pending/later.md" links_check "$dir/clean" "${files[@]}")
	[ -n "$found" ] && sed 's|^|clean fixture, unexpected: |' <<<"$found"
	mapfile -t files < <(cd "$dir/broken" && find . -name '*.md' | sed 's|^\./||' | sort)
	found=$(LINKS_PENDING="" links_check "$dir/broken" "${files[@]}" | cut -d: -f1,2 | sort -u)
	expected=$(cd "$dir/broken" && grep -n -- '<!-- lint: broken -->' "${files[@]}" /dev/null | cut -d: -f1,2 | sort -u)
	comm -13 <(echo "$expected") <(echo "$found") | sed '/^$/d; s|^|broken fixture, unexpected finding: |'
	comm -23 <(echo "$expected") <(echo "$found") | sed '/^$/d; s|^|broken fixture, not caught: |'
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	set -u
	root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
	shift $(($# > 0 ? 1 : 0))
	if [ $# -eq 0 ]; then
		mapfile -t docs < <(cd "$root" && { ls README.md ARCHITECTURE.md 2>/dev/null; find docs -name '*.md' 2>/dev/null | sort; })
		set -- "${docs[@]}"
	fi
	out=$(links_check "$root" "$@")
	[ -z "$out" ] || { echo "$out"; exit 1; }
fi
