#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bssplit and random_distribution against fio 3.33 (lib/dist.c):
#   - size-bound jobs transfer the same io_bytes and total_ios as fio, per direction (iops
#     draws fio's random sequence: every case is "exact"; t_fio_randseq.sh compares I/Os);
#   - the job header line (`bs=(R) 4096B-64.0KiB, ...`) and JSON "job options" are fio's;
#   - bad values: fio's messages on stderr, exit 1, nothing created.
# Compare modes (2nd field of a case):
#   exact    read/write total_ios and io_bytes equal
#   bytes    read and write io_bytes equal (the size mix comes from each tool's RNG)
#   sum      read+write io_bytes equal (rwmix: the direction comes from each tool's RNG)
#   over     norandommap / non-uniform: both stop at the first I/O that reaches size, so
#            io_bytes >= size and < size + the largest block, on both sides
. "$(dirname "$0")/fio_common.sh"
FIO_PAR=${FIO_PAR:-8}	# fio waits ~1 s per run; ours takes a few ms

errors=()
add_err() { errors+=("$*"); }

base="--ioengine=null --name=a"
cases=(
	"seq-read|exact|--size=1028k --rw=read --bssplit=4k/50:64k/50"
	"seq-rounded|exact|--size=1100k --rw=read --bssplit=4k/50:6k/50"
	"seq-tail-too-small|exact|--size=1028k --rw=write --bssplit=8k/50:12k/50"
	"seq-blank-share|exact|--size=1m --rw=read --bssplit=4k/50:8k:16k"
	"seq-sum-below-100|exact|--size=2m --rw=read --bssplit=4k/30:8k/30"
	"rand-map|exact|--size=1028k --rw=randread --bssplit=4k/10:64k/50:32k/40"
	"rand-map-small|exact|--size=260k --rw=randwrite --bssplit=64k/90:4k/10"
	"rand-unit-8k|exact|--size=1028k --rw=randread --bssplit=8k/50:12k/50"
	"rand-norandommap|exact|--size=1028k --rw=randread --norandommap --bssplit=4k/50:64k/50"
	"randrw|exact|--size=1100k --rw=randrw --bssplit=4k/50:64k/50"
	"rw-per-dir|exact|--size=1m --rw=rw --bssplit=4k/50:8k/50,16k/50:32k/50"
	"write-per-dir|exact|--size=1m --rw=write --bssplit=,4k/25:8k/75"
	"read-empty-write-list|exact|--size=1m --rw=write --bssplit=4k/50:8k/50,,"
	"bs-then-bssplit|exact|--size=1m --rw=read --bs=8k --bssplit=4k/50:16k/50"
	"nrfiles|exact|--size=3m --nrfiles=3 --rw=randread --bssplit=4k/50:16k/50"
	"zipf|exact|--size=4m --rw=randread --random_distribution=zipf:1.2"
	"pareto-center|exact|--size=4m --rw=randread --random_distribution=pareto:0.3:0.5"
	"normal|exact|--size=4m --rw=randread --random_distribution=normal:10"
	"zoned|exact|--size=4m --rw=randread --random_distribution=zoned:60/10:30/20:10/70"
	"zoned_abs|exact|--size=4m --rw=randwrite --random_distribution=zoned_abs:50/1m:50/3m"
	"zoned-randrw|exact|--size=4m --rw=randrw --random_distribution=zoned:50/50:50/50"
	"zipf-bssplit|exact|--size=2m --rw=randread --bssplit=4k/50:64k/50 --random_distribution=zipf:0.8"
	"dist-seq-ignored|exact|--size=1m --rw=read --random_distribution=zipf:1.2"
	"dist-random|exact|--size=1m --rw=randread --bsrange=4k-4k --random_distribution=random"
)

for c in "${cases[@]}"; do
	IFS='|' read -r name mode args <<<"$c"
	# shellcheck disable=SC2086 # args are word-split on purpose
	par_run run_pair "$name" $base $args --output-format=json
done
par_wait

summary() {
	json_doc "$T/$1.$2.out" | jq -r '.jobs[] | [.error, .read.total_ios, .read.io_bytes,
		.write.total_ios, .write.io_bytes] | map(tostring) | join(" ")' 2>/dev/null
}

size_of() { sed -nE 's/.*--size=([0-9]+)k.*/\1/p; s/.*--size=([0-9]+)m.*/\1 1024/p' <<<"$1" | awk '{print $1 * ($2 ? $2 : 1) * 1024}'; }

for c in "${cases[@]}"; do
	IFS='|' read -r name mode args <<<"$c"
	rr=$(rc_of "$name" ref) ru=$(rc_of "$name" ut)
	[ "$rr" = 0 ] || { add_err "$name: reference fio failed: $(head -c 200 "$T/$name.ref.err")"; continue; }
	[ "$ru" = 0 ] || { add_err "$name: exit status $ru: $(head -c 300 "$T/$name.ut.err")"; continue; }
	a=$(summary "$name" ref) b=$(summary "$name" ut)
	[ -n "$b" ] || { add_err "$name: no JSON job: $(head -c 200 "$T/$name.ut.out")"; continue; }
	case $mode in
	exact) sa=$a sb=$b ;;
	bytes) sa=$(awk '{print $1, $3, $5}' <<<"$a") sb=$(awk '{print $1, $3, $5}' <<<"$b") ;;
	sum) sa=$(awk '{print $1, $3 + $5}' <<<"$a") sb=$(awk '{print $1, $3 + $5}' <<<"$b") ;;
	over)
		size=$(size_of "$args")
		for side in ref ut; do
			line=$(summary "$name" $side)
			awk -v s="$size" '{ t = $3 + $5; if (t < s || t >= s + 65536) exit 1 }' <<<"$line" ||
				add_err "$name ($side): io_bytes not in [size, size + 64k): $line"
		done
		sa=x sb=x
		;;
	esac
	[ "$sa" = "$sb" ] || add_err "$name: totals differ ($mode)
    fio:  $a
    ours: $b"
	# the options as typed, in JSON
	oa=$(json_doc "$T/$name.ref.out" | jq -c '.jobs[0]["job options"]')
	ob=$(json_doc "$T/$name.ut.out" | jq -c '.jobs[0]["job options"]')
	[ "$oa" = "$ob" ] || add_err "$name: job options differ: fio $oa, ours $ob"
done

# The header line of the normal output: min-max of each direction's list.
headers=(
	"--bssplit=4k/10:64k/50:32k/40"
	"--bssplit=4k/10:64k/50:32k/40,8k/50:16k/50"
	"--bssplit=,4k/50:8k/50"
	"--bssplit=4k/50:8k/50,,"
	"--bs=8k --bssplit=4k/50:16k/50"
	"--bssplit=4k/50:6k/50 --kb_base=1000"
	"--kb_base=1000 --bssplit=4k/50:6k/50"
	"--bssplit=:8k/50"
)
i=0
for h in "${headers[@]}"; do
	i=$((i + 1))
	# shellcheck disable=SC2086
	par_run run_pair "hdr$i" $base --size=1m --rw=randrw $h
done
par_wait
i=0
for h in "${headers[@]}"; do
	i=$((i + 1))
	a=$(grep '(g=0)' "$T/hdr$i.ref.out") b=$(grep '(g=0)' "$T/hdr$i.ut.out")
	[ -n "$a" ] && [ "$a" = "$b" ] || add_err "header for $h: fio [$a], ours [$b]"
done

# Bad values: the same stderr lines and exit status, and no file created.
bad=(
	"--bssplit=4k/60:8k:16k:32k/60"
	"--bssplit=abc/10"
	"--bssplit=4k/50:8k/50,,,"
	"--random_distribution=zipf:1"
	"--random_distribution=pareto:0"
	"--random_distribution=normal:100"
	"--random_distribution=normal:10:50"
	"--random_distribution=zipf:1.2:-0.5"
	"--random_distribution=zipf:abc"
	"--random_distribution=foo"
	"--random_distribution=zoned"
	"--random_distribution=zoned:50/10"
	"--random_distribution=zoned:50/10:60/90"
	"--random_distribution=zoned:/10:100/90"
	"--random_distribution=zoned_abs:100/abc"
)
i=0
for v in "${bad[@]}"; do
	i=$((i + 1))
	par_run run_pair "bad$i" --name=a --size=1m --rw=randrw "$v"
done
par_wait
i=0
for v in "${bad[@]}"; do
	i=$((i + 1))
	assert_eq "$v: exit status" "$(rc_of "bad$i" ref)" "$(rc_of "bad$i" ut)"
	assert_eq "$v: stderr" "$(cat "$T/bad$i.ref.err")" "$(cat "$T/bad$i.ut.err")"
	[ -z "$(files_in "$T/bad$i.ut.d")" ] || add_err "$v: left files: $(files_in "$T/bad$i.ut.d")"
done

# 65 bssplit entries: fio warns once per direction and keeps 64.
many=$(printf '4k/1:%.0s' $(seq 64))8k/36
run_pair many $base --size=1m --rw=read "--bssplit=$many" --output-format=json
assert_eq "65 entries: stderr" "$(cat "$T/many.ref.err")" "$(cat "$T/many.ut.err")"
assert_eq "65 entries: totals" "$(summary many ref)" "$(summary many ut)"

if [ ${#errors[@]} -gt 0 ]; then
	printf '%s\n' "${errors[@]}" >&2
	fail "${#errors[@]} difference(s) with fio 3.33"
fi
echo "ok: ${#cases[@]} totals, ${#headers[@]} headers, ${#bad[@]} bad values, as fio 3.33"
