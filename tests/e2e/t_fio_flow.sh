#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# e2e: alone (flow ratios of timed jobs against fio's)
# Flow control, io_submit_mode=offload, serialize_overlap and the posixaio engine against
# fio 3.33: flow ratios (flow=1 at rate_iops=1000 beside flow=8; flow 1:2:3 with flow_sleep)
# within tolerance of the weights and of fio, offload totals of size-bound jobs equal to
# fio's (null, psync on a file, posixaio), posixaio totals and slat + clat = lat, overlapping
# random writes with serialize_overlap (totals, verify clean), and bad values (fio's messages
# and status, nothing created).
. "$(dirname "$0")/fio_common.sh"

errors=()
add_err() { errors+=("$*"); }
jq_of() { json_doc "$T/$1.$2.out" | jq -r "$3" 2>/dev/null; }
# between X LO HI
between() { awk -v x="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(x >= lo && x <= hi) }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "inf" }'; }

J=(--output-format=json)
# flows: timed, so fio and iops run one after the other (they would hold each other back)
run_pair flow18 --bs=4k --ioengine=null --size=100g --runtime=3 --flow_id=1 "${J[@]}" \
	--name=flow1 --flow=1 --rate_iops=1000 --name=flow2 --flow=8
run_pair flow123 --bs=4k --ioengine=null --size=100g --runtime=3 --flow_id=1 --flow_sleep=100 --thread "${J[@]}" \
	--name=flow1 --flow=1 --name=flow2 --flow=2 --name=flow3 --flow=3
# two flows side by side: ids keep them apart
run_pair flow2ids --bs=4k --ioengine=null --size=100g --runtime=2 --flow_sleep=50 "${J[@]}" \
	--name=a1 --flow_id=1 --flow=1 --name=a3 --flow_id=1 --flow=3 --name=b1 --flow_id=2 --flow=1 \
	--name=b1b --flow_id=2 --flow=1

# size-bound jobs: offload must do exactly what inline does (the same I/O, by our own inline
# run) and move fio's bytes (fio's offload mode is not run: fio 3.33 sometimes hangs with it
# on a busy machine; its inline run is the reference)
S=(--bs=4k "${J[@]}")
off_case() {	# NAME ARGS...: ut with offload, ut inline (NAME-in), ref inline
	local n=$1
	shift
	par_run run_one ut "$n" "$@" --io_submit_mode=offload "${S[@]}"
	par_run run_one ut "$n-in" "$@" "${S[@]}"
	par_run run_one ref "$n" "$@" "${S[@]}"
}
off_case off-null --name=a --ioengine=null --size=256m --iodepth=16
off_case off-psync --name=a --rw=randrw --size=8m
off_case off-paio --name=a --rw=randwrite --ioengine=posixaio --iodepth=8 --size=8m
aio_cases=(off-libaio ser-verify)
if engine_refused libaio; then
	aio_why=$PROBE_WHY aio_cases=()
	case_skip "off-libaio, ser-verify: need libaio, which the kernel refuses here ($aio_why)"
else
	off_case off-libaio --name=a --rw=randread --ioengine=libaio --iodepth=8 --size=8m
fi
off_case off-loops --name=a --ioengine=null --size=4k --loops=20000 --numjobs=4 --thread --serialize_overlap=1
# posixaio
par_run run_pair paio-read --name=a --ioengine=posixaio --size=1m --iodepth=16 "${S[@]}"
par_run run_pair paio-rw --name=a --ioengine=posixaio --rw=randrw --size=8m --iodepth=16 --fsync=7 "${S[@]}"
par_run run_pair paio-depth1 --name=a --ioengine=posixaio --rw=write --size=2m --bs=64k "${S[@]}"
# serialize_overlap: random writes over 16 blocks, offsets repeat (norandommap)
par_run run_pair ser-null --name=a --ioengine=null --rw=randwrite --norandommap --size=64k --iodepth=8 \
	--serialize_overlap=1 "${S[@]}"
[ ${#aio_cases[@]} = 0 ] || par_run run_pair ser-verify --name=a --ioengine=libaio --rw=randwrite --norandommap \
	--size=256k --iodepth=16 --serialize_overlap=1 --verify=crc32c --do_verify=1 "${S[@]}"
par_run run_pair ser-paio --name=a --ioengine=posixaio --rw=randwrite --norandommap --size=256k --iodepth=16 \
	--serialize_overlap=1 --verify=md5 "${S[@]}"
par_wait

# ---- flows ----
fl_check() {	# NAME JOBA JOBB LO HI: total_ios(JOBB) / total_ios(JOBA) in [LO, HI], for us; fio noted
	local n=$1 ja=$2 jb=$3 lo=$4 hi=$5 a b ra rb
	a=$(jq_of "$n" ut ".jobs[] | select(.jobname==\"$ja\") | .read.total_ios")
	b=$(jq_of "$n" ut ".jobs[] | select(.jobname==\"$jb\") | .read.total_ios")
	rb=$(ratio "$b" "$a")
	ra=$(ratio "$(jq_of "$n" ref ".jobs[] | select(.jobname==\"$jb\") | .read.total_ios")" \
		"$(jq_of "$n" ref ".jobs[] | select(.jobname==\"$ja\") | .read.total_ios")")
	echo "$n: $jb/$ja ours $rb ($b/$a), fio $ra"
	between "$rb" "$lo" "$hi" || add_err "$n: $jb/$ja = $rb ($b/$a), want $lo..$hi (fio: $ra)"
	between "$ra" "$lo" "$hi" || echo "note: $n: fio's own $jb/$ja $ra is outside $lo..$hi"
}
for n in flow18 flow123 flow2ids; do
	[ "$(rc_of $n ut)" = 0 ] || add_err "$n: exit status $(rc_of $n ut): $(head -c 300 "$T/$n.ut.err")"
	[ -s "$T/$n.ut.err" ] && add_err "$n: stderr: $(head -c 300 "$T/$n.ut.err")"
done
case_ran
fl_check flow18 flow1 flow2 6 10
i1=$(jq_of flow18 ut '.jobs[0].read.iops')
echo "flow18: flow1 iops ours $i1, fio $(jq_of flow18 ref '.jobs[0].read.iops') (rate_iops=1000)"
# (the sanitizer build's null engine, at ~6000 IOPS on a loaded 2-core machine, falls short of
# the 9000 of both jobs: the ratio above is checked, this absolute rate is not)
if [ -n "${IOPS_SAN:-}" ]; then
	skip_note "sanitizer build: flow18's absolute rate (rate_iops=1000) not checked, its ratio was"
else
	between "$i1" 850 1050 || add_err "flow18: flow1 iops $i1, rate_iops=1000"
fi
case_ran
fl_check flow123 flow1 flow2 1.6 2.4
fl_check flow123 flow1 flow3 2.4 3.6
case_ran
fl_check flow2ids a1 a3 2.4 3.6
fl_check flow2ids b1 b1b 0.8 1.25

# ---- offload, posixaio, serialize_overlap: totals ----
# bytes: read + write of every job, the one figure fio and iops share whatever their random
# read/write choices (iops' rwmix sequence is its own: docs/fio-differences.md)
bytes_of() { json_doc "$1" | jq -r '[.jobs[] | .read.io_bytes + .write.io_bytes] | map(tostring) | join(" ")'; }
for n in off-null off-psync off-paio "${aio_cases[@]:0:1}" off-loops paio-read paio-rw paio-depth1 ser-null \
	"${aio_cases[@]:1:1}" ser-paio; do
	case_ran
	[ "$(rc_of $n ref)" = 0 ] || { add_err "$n: reference fio failed: $(head -c 200 "$T/$n.ref.err")"; continue; }
	[ "$(rc_of $n ut)" = 0 ] || { add_err "$n: exit status $(rc_of $n ut): $(head -c 300 "$T/$n.ut.err")"; continue; }
	if [[ $n = ser-[pv]* ]]; then	# verify reads of overlapping writes: iops counts its own
		a=$(json_doc "$T/$n.ref.out" | jq -r '.jobs[0].write.io_bytes') b=$(json_doc "$T/$n.ut.out" | jq -r '.jobs[0].write.io_bytes')
	else
		a=$(bytes_of "$T/$n.ref.out") b=$(bytes_of "$T/$n.ut.out")
	fi
	[ "$a" = "$b" ] || add_err "$n: bytes [$b], fio [$a]"
	if [ -f "$T/$n-in.ut.out" ]; then
		a=$(json_totals "$T/$n-in.ut.out") b=$(json_totals "$T/$n.ut.out")
		[ "$a" = "$b" ] || add_err "$n: offload totals [$b], inline [$a]"
	fi
	echo "$n: $(json_totals "$T/$n.ut.out" | head -2 | tr '\n' ';')"
done
# io_submit_mode is reported among the options as typed
[ "$(jq_of off-null ut '.jobs[0]["job options"].io_submit_mode')" = offload ] ||
	add_err "off-null: job options lack io_submit_mode=offload"
# posixaio: slat + clat = lat (fio's t0017), and fio's depth distribution shape (mostly 16)
for d in read write; do
	for n in paio-read paio-rw; do
		v=$(jq_of "$n" ut ".jobs[0].$d | select(.total_ios > 0) | (.slat_ns.mean + .clat_ns.mean - .lat_ns.mean) | fabs")
		[ -z "$v" ] || between "$v" 0 1 || add_err "$n $d: slat + clat - lat = $v"
	done
done
d16=$(jq_of paio-read ut '.jobs[0].iodepth_level["16"]')
between "$d16" 50 100 || add_err "paio-read: iodepth 16 for $d16 % of the I/O"
# verify after overlapping writes: no error either side
for n in "${aio_cases[@]:1:1}" ser-paio; do
	e=$(jq_of "$n" ut '.jobs[0].error')
	[ "$e" = 0 ] || add_err "$n: error $e: $(head -c 300 "$T/$n.ut.err")"
done

# ---- bad values ----
nb=0
for bad in --flow=1001 --flow=abc --flow_sleep=x --io_submit_mode=foo --serialize_overlap=2; do
	nb=$((nb + 1))
	par_run run_pair bad$nb --name=x --size=1m $bad
done
par_wait
for i in $(seq 1 $nb); do
	case_ran
	for s in rc err; do
		a=$(cat "$T/bad$i.ref.$s") b=$(cat "$T/bad$i.ut.$s")
		[ "$a" = "$b" ] || add_err "bad$i ($(head -c 80 "$T/bad$i.ut.err")): $s [$b], fio [$a]"
	done
	[ -z "$(ls -A "$T/bad$i.ut.d")" ] || add_err "bad$i: left files: $(ls -A "$T/bad$i.ut.d")"
done

if [ ${#errors[@]} -gt 0 ]; then
	printf '%s\n' "${errors[@]}" >&2
	fail "${#errors[@]} differences from fio"
fi
echo "ok: flow, offload, serialize_overlap, posixaio"
