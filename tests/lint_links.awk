# SPDX-License-Identifier: MIT
# Markdown scanner for tests/lint_links.sh (make lint), POSIX awk (mawk: no {n,m} intervals).
#   -v mode=links    "LINE<TAB>DESTINATION" for every link outside code: [text](dest), ![alt](src),
#                    [label]: dest definitions, href="..." and src="..." of HTML tags;
#   -v mode=anchors  every anchor a link may name with #: headings by GitHub's rules (lowercase,
#                    punctuation dropped but - and _, spaces to -, duplicates -1, -2, ...),
#                    <a id="..."> / <a name="...">, and <!-- section:NAME --> markers.
# Fenced code blocks, code spans and HTML comments hold no links. Non-ASCII: the common
# punctuation GitHub drops (dashes, quotes, x, arrows, ...) is dropped, other bytes are kept as
# they are (mawk's tolower is ASCII-only).
function lead(s,   n) { n = 0; while (n < 4 && substr(s, n + 1, 1) == " ") n++; return n }
function strip_code(s, keep,   out, i, j, k, n, run, rest, span) {	# code spans: blanks, or (keep) their text without < >
	out = ""
	while ((i = index(s, "`")) > 0) {
		n = 0; while (substr(s, i + n, 1) == "`") n++
		run = substr(s, i, n); rest = substr(s, i + n)
		k = 0
		while ((j = index(substr(rest, k + 1), run)) > 0) {
			k += j	# k: start of a candidate closing run in rest
			if (substr(rest, k + n, 1) != "`" && (k == 1 || substr(rest, k - 1, 1) != "`")) break
			k += n - 1; j = 0
		}
		if (j == 0) { out = out substr(s, 1, i + n - 1); s = rest; continue }
		span = " "
		if (keep) { span = substr(rest, 1, k - 1); gsub(/[<>]/, "", span) }
		out = out substr(s, 1, i - 1) span; s = substr(rest, k + n)
	}
	return out s
}
function strip_comments(s,   i, out2) {	# HTML comments (incom: inside one across lines)
	out2 = ""
	while (length(s)) {
		if (incom) {
			i = index(s, "-->"); if (!i) return out2
			s = substr(s, i + 3); incom = 0; continue
		}
		i = index(s, "<!--"); if (!i) break
		out2 = out2 substr(s, 1, i - 1); s = substr(s, i + 4); incom = 1
	}
	return out2 s
}
function slug(t,   s, c, i, n, u) {
	while (match(t, /<[^>]*>/)) t = substr(t, 1, RSTART - 1) substr(t, RSTART + RLENGTH)
	while (match(t, /!?\[[^]]*\]\([^)]*\)/)) {
		s = substr(t, RSTART, RLENGTH); sub(/^!?\[/, "", s); sub(/\]\(.*$/, "", s)
		t = substr(t, 1, RSTART - 1) s substr(t, RSTART + RLENGTH)
	}
	t = tolower(t)
	# non-ASCII punctuation and symbols GitHub drops (other non-ASCII bytes are kept)
	n = split("\342\200\224 \342\200\223 \342\200\230 \342\200\231 \342\200\234 \342\200\235 \342\200\246 \303\227 \342\206\222 \342\211\245 \342\211\244 \302\267 \302\253 \302\273 \302\260 \302\261 \302\251 \302\256 \302\247", u, " ")
	for (i = 1; i <= n; i++) while ((c = index(t, u[i])) > 0) t = substr(t, 1, c - 1) substr(t, c + length(u[i]))
	gsub(/\t/, " ", t)
	gsub(/[]!"#$%&'()*+,.\/:;<=>?@[\\^`{|}~]/, "", t)
	gsub(/ /, "-", t)
	return t
}
function anchor(a,   n, c) {	# GitHub's duplicates: a, a-1, a-2, ...
	if (!(a in seen)) { seen[a] = 1; cnt[a] = 0; print a; return }
	n = cnt[a]
	do { n++; c = a "-" n } while (c in seen)
	cnt[a] = n; seen[c] = 1; print c
}
function dest_at(s,   d, depth, c, i) {	# the destination that starts s (after "(")
	sub(/^[ \t]+/, "", s)
	if (substr(s, 1, 1) == "<") { i = index(s, ">"); return i ? substr(s, 2, i - 2) : "" }
	d = ""; depth = 0
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (c == " " || c == "\t") break
		if (c == "\\") { d = d substr(s, i + 1, 1); i++; continue }
		if (c == "(") depth++
		if (c == ")") { if (!depth) break; depth-- }
		d = d c
	}
	return d
}
function links(s, nr,   i, d, t) {
	t = s
	while ((i = index(t, "](")) > 0) {
		if (index(substr(t, 1, i), "[")) { d = dest_at(substr(t, i + 2)); if (d != "") print nr "\t" d }
		t = substr(t, i + 2)
	}
	t = s
	while (match(t, /(href|src)="[^"]*"/)) {
		d = substr(t, RSTART, RLENGTH); sub(/^[a-z]*="/, "", d); sub(/"$/, "", d)
		if (d != "") print nr "\t" d
		t = substr(t, RSTART + RLENGTH)
	}
	if (match(s, /^ ? ? ?\[[^]]+\]:[ \t]*/)) { d = dest_at(substr(s, RLENGTH + 1)); if (d != "") print nr "\t" d }
}
FNR == 1 { fence = ""; incom = 0; prev = "" }
{
	line = $0; n = lead(line); body = substr(line, n + 1)
	if (fence != "") {	# inside a fenced block: only its closing fence matters
		if (n < 4 && index(body, fence) == 1) { rest = substr(body, length(fence) + 1); c = substr(fence, 1, 1); while (substr(rest, 1, 1) == c) rest = substr(rest, 2); if (rest ~ /^[ \t]*$/) fence = "" }
		prev = ""; next
	}
	if (n < 4 && (body ~ /^```/ || body ~ /^~~~/)) {
		c = substr(body, 1, 1); fence = ""; while (substr(body, length(fence) + 1, 1) == c) fence = fence c
		prev = ""; next
	}
	if (mode == "anchors") {
		t = line
		while (match(t, /<!--[ \t]*section:[^ \t>]+/)) { a = substr(t, RSTART, RLENGTH); sub(/^<!--[ \t]*section:/, "", a); print a; t = substr(t, RSTART + RLENGTH) }
		t = strip_comments(line)
		while (match(t, /<a[ \t][^>]*(id|name)="[^"]+"/)) { a = substr(t, RSTART, RLENGTH); sub(/^.*(id|name)="/, "", a); sub(/"$/, "", a); print a; t = substr(t, RSTART + RLENGTH) }
		if (n < 4 && body ~ /^#+([ \t]|$)/) {
			h = body; sub(/^#+/, "", h)
			if (length(body) - length(h) <= 6) {
				sub(/[ \t]+#+[ \t]*$/, "", h); sub(/^[ \t]+/, "", h); sub(/[ \t]+$/, "", h)
				anchor(slug(strip_code(h, 1))); prev = ""; next
			}
		}
		if (n < 4 && prev != "" && (body ~ /^=+[ \t]*$/ || body ~ /^-+[ \t]*$/)) { anchor(slug(strip_code(prev, 1))); prev = ""; next }
		p = line; sub(/^[ \t]+/, "", p); sub(/[ \t]+$/, "", p)
		prev = (p == "" || p ~ /^([-*+>|]|[0-9]+[.)])/ || incom) ? "" : p
		next
	}
	links(strip_code(strip_comments(line), 0), FNR)
}
