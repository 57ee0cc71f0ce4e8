# Helpers shared by the end-to-end tests. Source it: . "$(dirname "$0")/lib.sh"
set -u
IOPS=${IOPS_BIN:?IOPS_BIN must name the binary under test}

# A fresh scratch directory under the repo's build dir (O_DIRECT works there), removed at exit.
scratch_root=$(cd "$(dirname "$IOPS")" && pwd)/e2e-tmp
mkdir -p "$scratch_root"
T=$(mktemp -d "$scratch_root/t.XXXXXX")
trap 'rm -rf "$T"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }

# assert_eq WHAT EXPECTED ACTUAL
assert_eq() { [ "$2" = "$3" ] || fail "$1: expected [$2], got [$3]"; }

# assert_match WHAT REGEX ACTUAL
assert_match() { [[ "$3" =~ $2 ]] || fail "$1: [$3] does not match /$2/"; }

# Replace every number (with optional decimals) by N, so output shapes can be diffed.
mask_numbers() { sed -E 's/[0-9]+(\.[0-9]+)?/N/g'; }

# diff_shapes LABEL FILE_A FILE_B: diff after masking numbers; prints the diff on failure.
diff_shapes() {
	local label=$1
	if ! diff -u <(mask_numbers <"$2") <(mask_numbers <"$3") >"$T/shape.diff"; then
		cat "$T/shape.diff" >&2
		fail "$label: output shapes differ"
	fi
}

# dir_listing DIR: names in DIR, sorted, one per line (to check nothing was left behind).
dir_listing() { (cd "$1" && ls -A | sort); }

# help_fields MODE: the "name: text" lines of --cmdhelp and of a "valid values" list (the key
# right-aligned in 20 columns, then ": "). iops words its descriptions itself (fio's are GPL
# text), so MODE=mask replaces each description by "~" and keeps everything else (key, alias,
# default, range, value names and their padding); MODE=desc prints, line for line, only the
# description that mask hides (an empty line where there is none).
help_fields() {
	awk -v mode="$1" '
	length($0) > 22 && substr($0, 21, 2) == ": " {
		key = substr($0, 1, 20); sub(/^ +/, "", key); rest = substr($0, 23); d = ""
		if (key == "valid values" || key == "") {
			n = index(rest, " "); w = n ? n - 1 : length(rest); if (w < 10) w = 10
			d = substr(rest, w + 2)
			if (d != "" && substr(d, 1, 1) != " ") rest = substr(rest, 1, w + 1) "~"	# padding kept
		} else if (key != "alias" && key != "default" && key != "range") {
			d = rest; rest = "~"
		}
		if (mode == "mask") print substr($0, 1, 22) rest; else print d
		next
	}
	{ if (mode == "mask") print; else print "" }'
}
