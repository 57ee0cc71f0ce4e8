#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# zonemode=strided (zonerange, zonesize, zoneskip) and the trimwrite / randtrimwrite op order
# beside fio 3.33, read from per-I/O logs (write_iops_log / write_bw_log with log_offset=1):
#   1. sequential strided jobs (null engine, and psync / sync on files) issue exactly fio's
#      offsets in fio's order, with numjobs, offset_increment, nrfiles, loops and io_size;
#   2. random strided jobs (random map, lfsr, norandommap) keep every I/O in the zone of the
#      moment (zonesize bytes per zone, zones every zonerange + zoneskip, wrapping at the end of
#      the file), each block once per visit with the map or lfsr, and do fio's totals;
#   3. trimwrite / randtrimwrite (bs, bs=8k,8k,8k, bsrange, bssplit, norandommap): each trim is
#      followed by a write of the same offset and length, fio's totals, and for sequential jobs
#      with fixed sizes fio's exact sequence;
#   4. bad zone options: fio's message and exit status, nothing created (zonemode=zbd:
#      t_fio_zbd.sh).
. "$(dirname "$0")/fio_common.sh"
FIO_PAR=${FIO_PAR:-6}

errors=()
add_err() { errors+=("$*"); }

# ops DIR LOG: "ddir offset len" per line of a per-I/O log
ops() { awk -F', ' '{ print $3, $5, $4 }' "$1/$2"; }
totals() { json_doc "$1" | jq -r '[.jobs[] | (.read.io_bytes, .write.io_bytes, .trim.io_bytes, .error)] | map(tostring) | join(" ")'; }

N="--ioengine=null --log_offset=1 --output-format=json"

# ---- 1. sequential strided: the same offsets as fio, in the same order --------------------------
# NAME|ARGS (the logs are z_iops.<job>.log)
seq_cases=(
	"skip|--rw=read --size=64k --bs=4k --zonemode=strided --zonerange=4k --zonesize=4k --zoneskip=4k"
	"part|--rw=read --size=64k --bs=4k --zonemode=strided --zonerange=8k --zonesize=4k"
	"twice|--rw=read --size=64k --bs=4k --zonemode=strided --zonerange=4k --zonesize=8k"
	"norange|--rw=read --size=64k --bs=4k --zonemode=strided --zonesize=16k --zoneskip=100k"
	"skipz|--rw=read --size=64k --bs=4k --zonemode=strided --zonesize=4k --zoneskip=2z"
	"bigrange|--rw=read --size=64k --bs=4k --zonemode=strided --zonerange=128k --zonesize=16k"
	"offset|--rw=read --filesize=64k --offset=16k --size=16k --bs=4k --zonemode=strided --zonerange=8k --zonesize=4k"
	"offwrap|--rw=read --offset=32k --size=64k --io_size=64k --filesize=64k --bs=4k --zonemode=strided --zonerange=4k --zonesize=4k"
	"nrfiles|--rw=read --filesize=64k --size=64k --bs=4k --zonemode=strided --zonerange=8k --zonesize=4k --nrfiles=2"
	"loops|--rw=read --size=64k --bs=4k --zonemode=strided --zonesize=4k --zonerange=8k --loops=2 --io_size=24k"
	"numjobs|--rw=read --size=64k --bs=4k --zonemode=strided --zonerange=8k --zonesize=4k --numjobs=2 --offset_increment=4k"
	"njwrite|--rw=write --size=32k --filesize=64k --bs=4k --zonemode=strided --zonerange=16k --zonesize=8k --numjobs=2 --offset_increment=32k"
	"smallrange|--rw=read --size=64k --bs=4k --zonemode=strided --zonesize=4k --zonerange=2k"
	"uneven|--rw=read --size=64k --bs=4k --zonemode=strided --zonesize=6k --zonerange=8k"
	"psync|--rw=write --size=256k --bs=16k --zonemode=strided --zonerange=64k --zonesize=32k --ioengine=psync"
	"sync-read|--rw=read --size=256k --bs=8k --zonemode=strided --zonerange=32k --zonesize=16k --zoneskip=32k --ioengine=sync"
)
for c in "${seq_cases[@]}"; do
	IFS='|' read -r name args <<<"$c"
	# shellcheck disable=SC2086
	par_run run_pair "$name" --name=z $N $args --write_iops_log=z
done

# ---- 2. random strided ----------------------------------------------------------------------------
# NAME|ZONERANGE|ZONESIZE|ZONESKIP|UNIQUE(1: each block once per visit)|BASE|END|ARGS
# (BASE, END: the first zone's start and the end of the file, where the zones wrap)
rnd_cases=(
	"r-eq|4096|4096|0|1|0|65536|--size=64k --io_size=64k --bs=4k"
	"r-off|4096|4096|0|1|32768|65536|--offset=32k --size=64k --io_size=64k --filesize=64k --bs=4k"
	"r-over|4096|16384|0|1|0|65536|--size=64k --io_size=64k --bs=4k"
	"r-under|8192|4096|0|1|0|65536|--size=64k --io_size=64k --bs=4k"
	"r-big|16777216|8388608|0|1|0|268435456|--size=256m --io_size=16m --bs=4k"
	"r-skip|16384|8192|16384|1|0|65536|--size=64k --io_size=64k --bs=4k"
	"l-eq|4194304|4194304|0|1|0|67108864|--size=64m --io_size=16m --bs=4k --random_generator=lfsr"
	"l-over|1048576|4194304|0|1|0|16777216|--size=16m --io_size=16m --bs=4k --random_generator=lfsr"
	"l-off|1048576|1048576|0|1|8388608|16777216|--offset=8m --size=16m --io_size=16m --filesize=16m --bs=4k --random_generator=lfsr"
	"n-eq|4096|8192|0|0|0|65536|--size=64k --io_size=64k --bs=4k --norandommap"
	"n-big|16777216|33554432|0|0|0|268435456|--size=256m --io_size=16m --bs=4k --norandommap"
	"r-psync|65536|131072|65536|1|0|1048576|--size=1m --bs=4k --ioengine=psync --rw=randwrite"
)
for c in "${rnd_cases[@]}"; do
	IFS='|' read -r name zr zs zk uniq base end args <<<"$c"
	# shellcheck disable=SC2086
	par_run run_pair "$name" --name=z $N --rw=randread --randrepeat=0 --zonemode=strided \
		--zonerange=$zr --zonesize=$zs --zoneskip=$zk $args --write_iops_log=z
done

# ---- 3. trimwrite / randtrimwrite (fio's t0023 / t0024 jobs, the null engine) ---------------------
tw_cases=(
	"tw-basic|--rw=trimwrite"
	"tw-bs|--rw=trimwrite --bs=8k,8k,8k"
	"tw-bs3|--rw=trimwrite --bs=4k,8k,16k"
	"tw-bsrange|--rw=trimwrite --bsrange=512-4k"
	"tw-bssplit|--rw=trimwrite --bssplit=512/25:1k/25:2k/25:4k/25"
	"rtw-basic|--rw=randtrimwrite"
	"rtw-bs|--rw=randtrimwrite --bs=8k,8k,8k"
	"rtw-bsrange|--rw=randtrimwrite --bsrange=512-4k"
	"rtw-bssplit|--rw=randtrimwrite --bssplit=512/25:1k/25:2k/25:4k/25"
	"rtw-nrm|--rw=randtrimwrite --norandommap"
	"rtw-nrm-bs|--rw=randtrimwrite --bs=4k,4k,8k --norandommap"
	"rtw-nrm-bsrange|--rw=randtrimwrite --bsrange=512-4k --norandommap"
)
for c in "${tw_cases[@]}"; do
	IFS='|' read -r name args <<<"$c"
	# shellcheck disable=SC2086
	par_run run_pair "$name" --name=t $N --filesize=1m --randrepeat=0 --per_job_logs=0 $args --write_bw_log=t
done

# ---- 4. bad zone options ----------------------------------------------------------------------------
bad_cases=(
	"bad-none|--zonesize=8k"
	"bad-none2|--zonemode=none --zonesize=4k --zonerange=16k"
	"bad-nosize|--zonemode=strided"
	"bad-nosize2|--zonemode=strided --zonerange=16k --zonesize=0"
	"bad-mode|--zonemode=sometimes --zonesize=4k"
	"bad-size|--zonemode=strided --zonesize=abc"
	"bad-skip|--zonemode=strided --zonesize=4k --zoneskip=xz"
)
for c in "${bad_cases[@]}"; do
	IFS='|' read -r name args <<<"$c"
	# shellcheck disable=SC2086
	par_run run_pair "$name" --name=b --rw=read --size=64k --ioengine=psync $args
done
par_wait

for c in "${seq_cases[@]}"; do
	IFS='|' read -r name args <<<"$c"
	case_ran
	assert_eq "$name: exit status" "$(rc_of "$name" ref)" "$(rc_of "$name" ut)"
	assert_eq "$name: totals" "$(totals "$T/$name.ref.out")" "$(totals "$T/$name.ut.out")"
	for l in $(cd "$T/$name.ref.d" && ls z_iops.*.log); do
		[ -s "$T/$name.ref.d/$l" ] || add_err "$name: fio wrote no $l"
		diff <(ops "$T/$name.ref.d" "$l") <(ops "$T/$name.ut.d" "$l") >"$T/$name.diff" ||
			add_err "$name: $l: offsets differ from fio's (ddir offset len): $(head -20 "$T/$name.diff" | tr '\n' ' ')"
	done
done

# check_zones LOG ZONERANGE ZONESIZE ZONESKIP UNIQUE START END: every I/O inside its zone
check_zones() {
	awk -F', ' -v zr="$2" -v zs="$3" -v zk="$4" -v uniq="$5" -v base="$6" -v end="$7" '
	BEGIN { zstart = base; bytes = 0 }
	{
		off = $5; len = $4
		if (bytes >= zs) {
			bytes = 0; zstart += zr + zk
			if (zstart >= end) zstart = base
			delete seen; nseen = 0
		}
		if (off < zstart || off + len > zstart + zr || off + len > end) {
			printf "I/O %d at %d+%d outside the zone at %d\n", NR, off, len, zstart; exit 1
		}
		if (uniq) {
			if (nseen == zr / len) { delete seen; nseen = 0 }
			if (off in seen) { printf "I/O %d: block %d twice in one visit\n", NR, off; exit 1 }
			seen[off] = 1; nseen++
		}
		bytes += len
	}' "$1"
}
for c in "${rnd_cases[@]}"; do
	IFS='|' read -r name zr zs zk uniq base end args <<<"$c"
	case_ran
	assert_eq "$name: exit status" "$(rc_of "$name" ref)" "$(rc_of "$name" ut)"
	assert_eq "$name: totals" "$(totals "$T/$name.ref.out")" "$(totals "$T/$name.ut.out")"
	for s in ref ut; do
		out=$(check_zones "$T/$name.$s.d/z_iops.1.log" "$zr" "$zs" "$zk" "$uniq" "$base" "$end") ||
			add_err "$name ($s): $out"
	done
done

# tw_pairs LOG: trims and writes alternate, each write at the offset and length of its trim
tw_pairs() {
	awk -F', ' '
	{
		if (!pend) {
			if ($3 != 2) { printf "line %d: ddir %s where a trim was due\n", NR, $3; exit 1 }
			off = $5; len = $4; pend = 1
		} else {
			if ($3 != 1 || $5 != off || $4 != len) {
				printf "line %d: %s@%s+%s does not rewrite the trim %s+%s\n", NR, $3, $5, $4, off, len; exit 1
			}
			pend = 0
		}
	}
	END { if (pend) { print "a trim without its write at the end"; exit 1 } }' "$1"
}
for c in "${tw_cases[@]}"; do
	IFS='|' read -r name args <<<"$c"
	case_ran
	assert_eq "$name: exit status" "$(rc_of "$name" ref)" "$(rc_of "$name" ut)"
	if [ "$name" = rtw-nrm-bsrange ]; then	# the last size is random: 1m to 1m + 4k, trims = writes
		for s in ref ut; do
			read -r r w t e <<<"$(totals "$T/$name.$s.out")"
			[ "$r" = 0 ] && [ "$e" = 0 ] && [ "$w" = "$t" ] && [ "$w" -ge 1048576 ] && [ "$w" -lt 1052672 ] ||
				add_err "$name ($s): totals (read write trim error) $r $w $t $e"
		done
	else
		assert_eq "$name: totals (read write trim error)" "$(totals "$T/$name.ref.out")" "$(totals "$T/$name.ut.out")"
	fi
	if [ "$name" = tw-bs3 ]; then	# distinct sizes: fio's own interleaving, exactly
		diff <(ops "$T/$name.ref.d" t_bw.log) <(ops "$T/$name.ut.d" t_bw.log) >"$T/$name.diff" ||
			add_err "$name: sequence differs from fio's: $(head -10 "$T/$name.diff" | tr '\n' ' ')"
		continue
	fi
	for s in ref ut; do
		out=$(tw_pairs "$T/$name.$s.d/t_bw.log") || add_err "$name ($s): $out"
	done
	case "$name" in
	tw-basic | tw-bs)
		diff <(ops "$T/$name.ref.d" t_bw.log) <(ops "$T/$name.ut.d" t_bw.log) >"$T/$name.diff" ||
			add_err "$name: sequence differs from fio's: $(head -10 "$T/$name.diff" | tr '\n' ' ')" ;;
	esac
done

for c in "${bad_cases[@]}"; do
	IFS='|' read -r name args <<<"$c"
	case_ran
	assert_eq "$name: exit status" "$(rc_of "$name" ref)" "$(rc_of "$name" ut)"
	assert_eq "$name: stderr" "$(grep -v '^fio-3' "$T/$name.ref.err")" "$(cat "$T/$name.ut.err")"
	assert_eq "$name: nothing created" "" "$(dir_listing "$T/$name.ut.d")"
done

[ ${#errors[@]} -eq 0 ] || fail "$(printf '%s\n' "${errors[@]}")"
echo "ok: zones and trimwrite order match fio 3.33"
