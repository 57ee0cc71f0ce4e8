#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What writes carry: buffer_pattern, scramble_buffers (on by default), refill_buffers,
# buffer_compress_percentage / _chunk, dedupe_percentage / dedupe_mode /
# dedupe_working_set_percentage. For each case the reference fio and the binary under test
# write the same 4 MiB file (4k blocks); we compare, from the written file: the share of
# distinct 4k blocks and of distinct 512 B sectors, and how well it compresses (zlib).
# Deterministic layouts must be equal (pattern, zeros, the compress split); random draws
# within tolerance (dedupe: +-8 points of distinct blocks). At iodepth 8 which buffer serves
# which write depends on completion timing, and with it what zlib finds inside its 32 KiB
# window: fio reuses the buffer freed last (80-90% here), iops rotates them in completion
# order (about 90%), and on a loaded machine either may get several back-to-back writes from
# one buffer (CI saw iops at 74%, fio at 90%). A TOL of 'B/Z' allows B points on the distinct
# blocks and sectors and Z points, either way, on zlib's ratio.
. "$(dirname "$0")/fio_common.sh"
command -v python3 >/dev/null || missing_prereq "python3 is needed to read the written files"

errors=()
add_err() { errors+=("$*"); }

# NAME|TOL|ARGS: TOL is the allowed difference in percentage points (0: equal)
cases=(
	"default-scrambled|0|"
	"no-scramble|0|--scramble_buffers=0"
	"refill|0|--refill_buffers"
	"pattern-hex|0|--buffer_pattern=0xdeadbeef"
	"pattern-mixed|0|--buffer_pattern=0xab\"xyz\"12"
	"zero|0|--zero_buffers"
	"compress70|2|--buffer_compress_percentage=70"
	"compress30-chunk0|2|--buffer_compress_percentage=30 --buffer_compress_chunk=0"
	"compress50-pattern|2|--buffer_compress_percentage=50 --buffer_pattern=\"abcd\""
	"compress100|0|--buffer_compress_percentage=100"
	"dedupe50|8|--dedupe_percentage=50"
	"dedupe80-ws|8|--dedupe_percentage=80 --dedupe_mode=working_set"
	"dedupe50-compress50|8|--dedupe_percentage=50 --buffer_compress_percentage=50"
	"scramble-libaio-direct|0/30|--ioengine=libaio --direct=1 --iodepth=8"
)

stats() {	# FILE: "distinct-blocks% distinct-sectors% zlib%"
	python3 - "$1" <<'PY'
import sys, zlib
d = open(sys.argv[1], 'rb').read()
b = {d[i:i + 4096] for i in range(0, len(d), 4096)}
s = {d[i:i + 512] for i in range(0, len(d), 512)}
print(round(100 * len(b) / (len(d) // 4096)), round(100 * len(s) / (len(d) // 512)),
      round(100 * len(zlib.compress(d, 6)) / len(d)))
PY
}

drop_refused cases
for c in "${cases[@]}"; do
	IFS='|' read -r name tol args <<<"$c"
	# shellcheck disable=SC2086 # ARGS are words
	par_run run_pair "$name" --name=b --filename=bf --size=4m --bs=4k --rw=write $args
done
par_wait

for c in "${cases[@]}"; do
	IFS='|' read -r name tol args <<<"$c"
	for side in ref ut; do
		[ "$(rc_of "$name" $side)" = 0 ] || add_err "$name ($side): exit $(rc_of "$name" $side): $(head -c 300 "$T/$name.$side.err")"
	done
	[ -f "$T/$name.ref.d/bf" ] && [ -f "$T/$name.ut.d/bf" ] || { add_err "$name: no file written"; continue; }
	read -r rb rs rz <<<"$(stats "$T/$name.ref.d/bf")"
	read -r ub us uz <<<"$(stats "$T/$name.ut.d/bf")"
	case_ran
	awk -v t="$tol" -v a="$rb $rs $rz" -v b="$ub $us $uz" 'BEGIN {
		split(a, x, " "); split(b, y, " "); n = split(t, tt, "/"); if (n == 1) tt[2] = tt[1];
		for (i = 1; i <= 3; i++) {
			d = x[i] - y[i]; if (d < 0) d = -d; if (d > tt[i == 3 ? 2 : 1] + 0) exit 1 } }' ||
		add_err "$name: distinct blocks/sectors/zlib % fio: $rb/$rs/$rz, iops: $ub/$us/$uz (tolerance $tol)"
done

# fio's refusal of an impossible working set, and parse errors, with nothing created
for side in ref ut; do
	run_one "$side" ws-impossible --name=b --filename=bf --size=4m --rw=write --dedupe_percentage=80 \
		--dedupe_mode=working_set --dedupe_working_set_percentage=50
	run_one "$side" bad-pattern --name=b --filename=bf --size=4m --rw=write --buffer_pattern=12abc
done
for name in ws-impossible bad-pattern; do
	[ "$(rc_of $name ref)" = 1 ] && [ "$(rc_of $name ut)" = 1 ] ||
		add_err "$name: exit $(rc_of $name ref) (fio) / $(rc_of $name ut) (iops), expected 1"
	grep -qF "$(head -n 1 "$T/$name.ref.err")" "$T/$name.ut.err" ||
		add_err "$name: fio says '$(head -n 1 "$T/$name.ref.err")', iops '$(head -n 1 "$T/$name.ut.err")'"
	skip_if_fio "files left by a refused job" || [ ! -e "$T/$name.ut.d/bf" ] || add_err "$name: iops created bf"
done

if [ ${#errors[@]} -gt 0 ]; then
	printf '%s\n' "${errors[@]}" >&2
	fail "${#errors[@]} problem(s)"
fi
echo "buffers: ${#cases[@]} contents compared with fio's, 2 refusals"
