#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every fio command line of seeds 000, 001, 003 and 004 parses (--parse-only, as the image
# gets them: options straight after the image name), seed 004's parameters work as a job file,
# and the Windows command lines get a clear one-line error. Nothing is created.
. "$(dirname "$0")/lib.sh"

cd "$T" || fail "cd"
check_ok() {
	local label=$1; shift
	# --parse-only first: fio (and iops) check the options before it as a run would
	# (a directory= must exist)
	if [ "$1" = fio ]; then
		out=$("$IOPS" fio --parse-only "${@:2}" 2>"$T/err"); rc=$?
	else
		out=$("$IOPS" --parse-only "$@" 2>"$T/err"); rc=$?
	fi
	assert_eq "$label rc" 0 "$rc"
	assert_eq "$label stdout" "" "$out"
	assert_eq "$label stderr" "" "$(cat "$T/err")"
	assert_eq "$label created nothing" "err" "$(dir_listing "$T")"
}

# seed 000 (docker-iops: options passed straight to the image)
check_ok seed000-seq "--randrepeat=1" --ioengine=libaio --direct=1 --gtod_reduce=1 --name=seq-read \
	--filename=seq-read --bs=128k --iodepth=256 --size=100m --readwrite=read --runtime=600 \
	--time_based --numjobs=8 --group_reporting
check_ok seed000-randrw --randrepeat=1 --ioengine=libaio --direct=1 --gtod_reduce=1 --name=test \
	--filename=testfile --bs=4k --iodepth=64 --size=4G --readwrite=randrw --rwmixread=75
# seed 001 (Linux)
check_ok seed001 fio --name=rand-write --ioengine=libaio --iodepth=32 --rw=randwrite --invalidate=1 \
	--bsrange=4k:4k,4k:4k --size=512m --runtime=120 --time_based --do_verify=1 --direct=1 \
	--group_reporting --numjobs=1
# seed 003 (Linux): latency, IOPS, throughput and the FIO_COMMON_ARGS example
common="--size=10g --fallocate=none --direct=1 --runtime=60 --time_based --ramp_time=5"
# shellcheck disable=SC2086
check_ok seed003-nv fio $common --directory=/netapp --ioengine=libaio --rw=randwrite --bs=4k --iodepth=1 --name=nv
for spec in "randwrite 4k 1 1 latency" "randread 4k 32 1 iops" "read 64k 32 16 throughput"; do
	set -- $spec
	check_ok "seed003-$5" fio --directory=/netapp --ioengine=libaio --rw="$1" --bs="$2" --iodepth="$3" \
		--size=10g --fallocate=none --direct=1 --runtime=60 --time_based --ramp_time=5 --numjobs="$4" --name="$5"
done

# the Windows command lines: one clear line, status 1
err=$("$IOPS" fio --name=rand-write --ioengine=windowsaio --iodepth=32 --rw=randwrite --invalidate=1 \
	--bsrange=4k:4k,4k:4k --size=512m --runtime=120 --time_based --do_verify=1 --direct=1 \
	--group_reporting --numjobs=1 2>&1 >/dev/null); rc=$?
assert_eq "seed001 windows rc" 1 "$rc"
assert_eq "seed001 windows" "fio: engine windowsaio is Windows' native AIO, which this build does not include (Linux: libaio, io_uring)" "$err"
err=$("$IOPS" fio '--directory=Z\:\' --ioengine=windowsaio --thread --rw=randread --bs=4k --iodepth=32 \
	--size=10g --fallocate=none --direct=1 --runtime=60 --time_based --ramp_time=5 --numjobs=16 --name=iops 2>&1 >/dev/null); rc=$?
assert_eq "seed003 windows rc" 1 "$rc"
assert_eq "seed003 windows lines" 1 "$(printf '%s\n' "$err" | wc -l)"
assert_match "seed003 windows" "windowsaio is Windows' native AIO, which this build does not include" "$err"
err=$("$IOPS" fio '--directory=Z\:\' --ioengine=libaio --thread --name=latency --size=1m 2>&1 >/dev/null); rc=$?
assert_eq "windows path rc" 1 "$rc"
assert_match "windows path" "^fio: directory 'Z:\\\\' is a Windows path" "$err"
assert_eq "nothing created" "err" "$(dir_listing "$T")"

# seed 004 (simple-fio): its parameters as a job file, one job per workload
cat >"$T/seed004.fio" <<'JOB'
[global]
direct=1
time_based=1
runtime=120
size=1g
iodepth=8
numjobs=4
log_avg_msec=1000   ; 5 seconds for 5/10 minute jobs
bs=8k

[write]
rw=write
fsync_on_close=1
create_on_open=1

[randread]
stonewall
rw=randread
bs=16k
randrepeat=0
allrandrepeat=0

[randrw]
stonewall
rw=randrw
randrepeat=0
allrandrepeat=0
JOB
out=$("$IOPS" "$T/seed004.fio" --parse-only 2>&1); rc=$?
assert_eq "seed004 job file rc" 0 "$rc"
assert_eq "seed004 job file output" "" "$out"
out=$("$IOPS" fio --showcmd "$T/seed004.fio")
assert_eq "seed004 showcmd" "fio --direct=1 --time_based=1 --runtime=120 --size=1g --iodepth=8 --numjobs=4 --log_avg_msec=1000 --bs=8k --name=write --rw=write --fsync_on_close=1 --create_on_open=1 --name=randread --stonewall --rw=randread --bs=16k --randrepeat=0 --allrandrepeat=0 --name=randrw --stonewall --rw=randrw --randrepeat=0 --allrandrepeat=0 " "$out"
rm -f "$T/seed004.fio" "$T/err"
assert_eq "nothing left" "" "$(dir_listing "$T")"
exit 0
