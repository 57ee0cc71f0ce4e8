#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make lint: the house rules that a compiler does not check (ARCHITECTURE.md, "Invariants").
#
#  1. layers: a file in lib/X includes only what X may use (the table below); lib/ never
#     includes cmd/; a quoted include names its folder ("core/parse.h"), so the rule can be
#     read from the line itself;
#  2. no include cycle between files, none between folders; no call cycle between files (two
#     files calling each other, directly or round a circle), read from the objects of lib/ and
#     cmd/ in LINT_OBJS (default build/musl; `make lint` builds them first);
#  3. none of the banned functions of our conventions (sprintf, strcpy, strcat, strncpy, atoi,
#     atol, sscanf, strtok, ...), no strerror() outside core/err.c (err_str() has glibc's words)
#     and no optimize(...) attribute;
#  4. no source file over 800 lines (generated files aside);
#  5. every relative link and #anchor of README.md, ARCHITECTURE.md and docs/ resolves
#     (tests/lint_links.sh; its own fixtures under tests/lint_links/ first); README.md is at
#     most 300 lines (the rest lives in docs/);
#  6. every source file carries "SPDX-License-Identifier: MIT" in its first lines (LICENSE).
# Prints one line per finding and a closing "lint: N problems"; exits 1 if there is any.
set -u
cd "$(dirname "$0")/.."

# Folder -> the folders its files may include (itself included). Folders point down only.
declare -A MAY=(
	[lib/core]="lib/core"
	[lib/sys]="lib/core lib/sys"
	[lib/engine]="lib/core lib/sys lib/engine"
	[lib/fio]="lib/core lib/sys lib/engine lib/fio"
	[lib/fio/offset]="lib/core lib/sys lib/fio lib/fio/offset"
	[lib/fio/data]="lib/core lib/sys lib/fio lib/fio/data"
	[lib/fio/log]="lib/core lib/sys lib/fio lib/fio/log"
	[lib/fio/file]="lib/core lib/sys lib/engine lib/fio lib/fio/offset lib/fio/file"
	[lib/fio/control]="lib/core lib/sys lib/fio lib/fio/control"
	[lib/fio/progress]="lib/core lib/sys lib/fio lib/fio/progress"
	[lib/fio/run]="lib/core lib/sys lib/engine lib/fio lib/fio/offset lib/fio/data lib/fio/log lib/fio/file lib/fio/control lib/fio/progress lib/fio/run"
	[lib/fio/conf]="lib/core lib/sys lib/engine lib/fio lib/fio/offset lib/fio/data lib/fio/log lib/fio/control lib/fio/conf"
	[lib/fio/report]="lib/core lib/sys lib/fio lib/fio/progress lib/fio/report"
	[lib/ioping]="lib/core lib/sys lib/ioping"
	[lib/suite]="lib/core lib/sys lib/engine lib/fio lib/fio/report lib/suite"
	[lib/merge]="lib/core lib/sys lib/fio lib/fio/report lib/merge"
	[lib/remote]="lib/core lib/sys lib/engine lib/fio lib/remote"
	[lib/k8s]="lib/core lib/suite lib/k8s"
	[lib/plot]="lib/core lib/plot"
	[lib/compare]="lib/core lib/merge lib/compare"
	[cmd]="lib/core lib/sys lib/engine lib/fio lib/fio/offset lib/fio/data lib/fio/log lib/fio/file lib/fio/control lib/fio/progress lib/fio/run lib/fio/conf lib/fio/report lib/ioping lib/suite lib/merge lib/remote lib/k8s lib/plot lib/compare cmd"
)
MAX_LINES=800
GENERATED="tests/unit/report_fixtures.h"

problems=0
say() { echo "lint: $*"; problems=$((problems + 1)); }

mapfile -t SRCS < <(find lib cmd -name '*.[ch]' | sort)
mapfile -t ALL < <(find lib cmd tests -name '*.[ch]' | sort)

# --- 1. layers, and the include graph for 2 ---
edges=$(mktemp)
trap 'rm -f "$edges"' EXIT
for f in "${SRCS[@]}"; do
	dir=${f%/*}
	if [ -z "${MAY[$dir]+x}" ]; then
		say "$f: folder $dir is not in the layer table of tests/lint.sh (add it with what it may use)"
		continue
	fi
	while IFS=: read -r line inc; do
		if [[ "$inc" != */* ]]; then
			# cmd/ headers sit beside their users; lib/ includes always name the folder.
			if [ "$dir" = cmd ] && [ -f "cmd/$inc" ]; then
				target="cmd/$inc"
			else
				say "$f:$line: include \"$inc\" does not name its folder (write \"core/$inc\", \"fio/$inc\", ...)"
				continue
			fi
		elif [ -f "lib/$inc" ]; then
			target="lib/$inc"
		else
			say "$f:$line: include \"$inc\" not found under lib/"
			continue
		fi
		tdir=${target%/*}
		case " ${MAY[$dir]} " in
		*" $tdir "*) ;;
		*) say "$f:$line: includes $target: $dir may use only ${MAY[$dir]}" ;;
		esac
		echo "$f $target" >>"$edges"
	done < <(grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]+"' "$f" | sed -E 's/^([0-9]+):.*"([^"]+)".*/\1:\2/')
done

# --- 2. cycles: files, then folders (an edge between two folders is a folder edge) ---
find_cycles() {	# stdin: "from to" edges; prints one line per cycle found
	awk '
	{ if ($1 != $2) { adj[$1] = adj[$1] " " $2; nodes[$1]; nodes[$2] } }
	function dfs(n,   i, k, m, parts) {
		state[n] = 1; stack[++depth] = n
		k = split(adj[n], parts, " ")
		for (i = 1; i <= k; i++) {
			m = parts[i]
			if (state[m] == 1) {
				path = m
				for (j = depth; j >= 1 && stack[j] != m; j--) path = stack[j] " -> " path
				print m " -> " path
			} else if (!state[m]) dfs(m)
		}
		depth--; state[n] = 2
	}
	END { for (n in nodes) if (!state[n]) dfs(n) }'
}
while read -r c; do say "include cycle: $c"; done < <(find_cycles <"$edges")
while read -r c; do say "folder cycle: $c"; done < <(
	while read -r a b; do echo "${a%/*} ${b%/*}"; done <"$edges" | sort -u | find_cycles)
calls=$(mktemp)
trap 'rm -f "$edges" "$calls"' EXIT
mapfile -t CSRCS < <(find lib cmd -name '*.c' | sort)
if tests/lint_calls.sh "${LINT_OBJS:-build/musl}" "${CSRCS[@]}" >"$calls" 2>"$calls.err"; then
	while read -r c; do say "call cycle: $c"; done < <(find_cycles <"$calls")
else
	say "call graph: no objects to read ($(head -1 "$calls.err"); $(wc -l <"$calls.err") missing): run make first"
fi
rm -f "$calls.err"

# --- 3. banned functions and attributes (comments and string literals stripped first) ---
strip_c() {	# FILE...: "FILE:LINE:TEXT" for every line, comments and literals dropped
	# Drop /* ... */ (across lines), // comments and "..." / '...' literals, keep line numbers.
	awk '
	FNR == 1 { incom = 0 }
	{
		out = ""; s = $0
		while (length(s)) {
			if (incom) {
				k = index(s, "*/"); if (!k) { s = ""; break }
				s = substr(s, k + 2); incom = 0; continue
			}
			c = substr(s, 1, 1); c2 = substr(s, 1, 2)
			if (c2 == "/*") { incom = 1; s = substr(s, 3); continue }
			if (c2 == "//") break
			if (c == "\"" || c == "\047") {
				q = c; i = 2
				while (i <= length(s) && substr(s, i, 1) != q) i += (substr(s, i, 1) == "\\") ? 2 : 1
				out = out q q; s = substr(s, i + 1); continue
			}
			out = out c; s = substr(s, 2)
		}
		print FILENAME ":" FNR ":" out
	}' "$@"
}
BANNED='(^|[^[:alnum:]_])(sprintf|vsprintf|strcpy|strcat|strncpy|atoi|atol|atoll|sscanf|strtok|gets)[[:space:]]*\('
stripped=$(strip_c "${SRCS[@]}")
while IFS=: read -r f line text; do
	[[ "$text" =~ $BANNED ]] && fn=${BASH_REMATCH[2]}
	say "$f:$line: $fn() is banned (ARCHITECTURE.md, Invariants: use snprintf/memcpy/strtoull with checks)"
done < <(grep -E "^[^:]*:[0-9]*:.*$BANNED" <<<"$stripped")
while IFS=: read -r f line _; do
	say "$f:$line: optimize(...) attribute: choose build flags per folder or file in the Makefile"
done < <(grep -E '^[^:]*:[0-9]*:.*__attribute__[[:space:]]*\(\(.*optimize[[:space:]]*\(' <<<"$stripped")
while IFS=: read -r f line _; do
	[ "$f" = lib/core/err.c ] && continue
	say "$f:$line: strerror() words messages as musl does: use err_str() (core/err.h), glibc's words, as fio prints them"
done < <(grep -E '^[^:]*:[0-9]*:(.*[^[:alnum:]_])?strerror[[:space:]]*\(' <<<"$stripped")
while IFS=: read -r f line _; do
	say "$f:$line: setlocale(LC_ALL, \"\") changes number formats under the user's locale"
done < <(grep -nE 'setlocale[[:space:]]*\([[:space:]]*LC_ALL[[:space:]]*,[[:space:]]*""' "${SRCS[@]}")

# --- 4. file length ---
while read -r n f; do
	[ "$f" = total ] && continue
	case " $GENERATED " in *" $f "*) continue ;; esac
	[ "$n" -gt "$MAX_LINES" ] && say "$f: $n lines (more than $MAX_LINES: split it along its seams)"
done < <(wc -l "${ALL[@]}")

# --- 5. links in the documentation: the checker on its fixtures, then the real pages ---
# Pages written by the scale-out/plot/arm64 work; remove when it lands. A link to a page named
# here passes while the page is missing; once the page exists, its entry here is a finding.
LINKS_PENDING=""
. tests/lint_links.sh
while IFS= read -r l; do say "link checker self-test (tests/lint_links/): $l"; done < <(links_selftest tests/lint_links)
mapfile -t DOCS < <(ls README.md ARCHITECTURE.md; find docs -name '*.md' | sort)
while IFS= read -r l; do say "$l"; done < <(LINKS_PENDING=$LINKS_PENDING links_check . "${DOCS[@]}")

README_MAX=300
n=$(wc -l <README.md)
[ "$n" -gt "$README_MAX" ] && say "README.md: $n lines (more than $README_MAX: move the details to docs/)"

# --- 6. the licence line in every source file ---
while IFS= read -r f; do
	[ -L "$f" ] && continue
	head -5 "$f" | grep -q 'SPDX-License-Identifier: MIT' || say "$f: no 'SPDX-License-Identifier: MIT' in its first lines"
done < <(git ls-files -- '*.c' '*.h' '*.sh' '*.py' '*.cjs' '*.awk' '*.yaml' '*.conf' Makefile Containerfile \
	docker/Containerfile .ci/run make.sh 'tests/mutations/fake/*' 2>/dev/null | grep -vE '^tests/(lint_links|fuzz/corpus)/')

echo "lint: $problems problems (${#SRCS[@]} sources, ${#ALL[@]} with tests, ${#DOCS[@]} pages)"
[ "$problems" -eq 0 ]
