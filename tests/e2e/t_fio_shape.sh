#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The fio command lines of the seeds (000: both lines, 001, 003: the three recipes and the
# FIO_COMMON_ARGS form, 004: its parameters as a job file), with sizes, runtimes and numjobs
# shrunk, print the same normal output as fio 3.33 once numbers and timing-dependent details
# are masked (normalise_normal in fio_common.sh), the deterministic lines (job headers,
# `fio-3.33`, `Starting ...`, `Laying out ...`, `(groupid=N, jobs=N): err=N`, group and disk
# headers) verbatim, the same stderr and exit status. A numjobs run without group_reporting and
# a two-group job file cover the per-job and per-group layouts; --output-format=normal,json
# prints the JSON document, then the normal report, on the same stream. A group prints every
# job line in the kb_base of its last job (kb_base-last-job: MB first for both jobs).
. "$(dirname "$0")/fio_common.sh"
FIO_PAR=${FIO_PAR:-6}	# mostly timed runs: the layout is compared, not the speed

errors=()
add_err() { errors+=("$*"); }

# Seed 004 (simple-fio): the job file its create_job_file.sh generates from config.file, for a
# filesystem volume (directory=, no prefill), with ${RW}/${BS} expanded from the environment.
cat >"$T/seed004.fio" <<'EOF'
[global]
ioengine=libaio
direct=1
numjobs=2
size=16m
directory=pvc

[fio_test]
rw=${RW}
bs=${BS}
time_based=1
runtime=2
iodepth=8
randrepeat=0
allrandrepeat=0
log_avg_msec=1000
group_reporting
EOF
cat >"$T/seed004w.fio" <<'EOF'
[global]
ioengine=libaio
direct=1
numjobs=2
size=8m
directory=pvc

[fio_test]
rw=${RW}
bs=${BS}
iodepth=8
fsync_on_close=1
create_on_open=1
log_avg_msec=1000
group_reporting
EOF
cat >"$T/groups.fio" <<'EOF'
[global]
ioengine=psync
size=4m
bs=4k

[writer]
rw=write

[reader]
stonewall
rw=randread
filename=writer.0.0
EOF

# NAME|KIND|ARGS  (KIND: timed or size = size-bound, whose bw/iops sample lines are dropped)
cases=(
	"seed000-seq-read|timed|--randrepeat=1 --ioengine=libaio --direct=1 --gtod_reduce=1 --name=seq-read --filename=seq-read --bs=128k --iodepth=256 --size=16m --readwrite=read --runtime=2 --time_based --numjobs=4 --group_reporting"
	"seed000-randrw|size|--randrepeat=1 --ioengine=libaio --direct=1 --gtod_reduce=1 --name=test --filename=testfile --bs=4k --iodepth=64 --size=16m --readwrite=randrw --rwmixread=75"
	"seed001|timed|--name=rand-write --ioengine=libaio --iodepth=32 --rw=randwrite --invalidate=1 --bsrange=4k:4k,4k:4k --size=16m --runtime=2 --time_based --do_verify=1 --direct=1 --group_reporting --numjobs=1"
	"seed003-latency|timed|--directory=netapp --ioengine=libaio --rw=randwrite --bs=4k --iodepth=1 --size=16m --fallocate=none --direct=1 --runtime=2 --time_based --ramp_time=1 --name=latency"
	"seed003-iops|timed|--directory=netapp --ioengine=libaio --rw=randread --bs=4k --iodepth=32 --size=16m --fallocate=none --direct=1 --runtime=2 --time_based --ramp_time=1 --name=iops"
	"seed003-throughput|timed|--directory=netapp --ioengine=libaio --rw=read --bs=64k --iodepth=32 --size=16m --fallocate=none --direct=1 --runtime=2 --time_based --ramp_time=1 --numjobs=2 --name=throughput"
	"seed003-common-args|timed|--size=16m --fallocate=none --direct=1 --runtime=2 --time_based --ramp_time=1 --directory=netapp --ioengine=libaio --rw=randwrite --bs=4k --iodepth=1 --name=nv"
	"seed004-randread|timed|$T/seed004.fio"
	"seed004-write|size|$T/seed004w.fio"
	"numjobs2-psync|size|--name=nj --size=4m --rw=randrw --ioengine=psync --numjobs=2"
	"psync-depth4-note|size|--name=pd --size=1m --rw=read --ioengine=psync --iodepth=4 --numjobs=2"
	"slat-percentiles|size|--name=sp --size=2m --rw=randrw --ioengine=libaio --iodepth=4 --direct=1 --slat_percentiles=1 --lat_percentiles=1"
	"two-groups|size|$T/groups.fio"
	"nrfiles-layout|size|--name=nf --size=8m --nrfiles=3 --rw=read"
	"threads-description|size|--name=th --size=1m --numjobs=2 --thread --rw=write --description=two_threads"
	"normal-and-json|size|--name=nj --size=2m --rw=randwrite --output-format=normal,json"
	"kb_base-last-job|size|--name=a --size=1m --rw=write --name=b --size=1m --rw=write --kb_base=1000"
)
drop_refused cases

prepare() { # the directories the seed command lines point at exist on the volume
	local side
	for side in ref ut; do mkdir -p "$T/$1.$side.d/netapp" "$T/$1.$side.d/pvc"; done
}

for c in "${cases[@]}"; do
	IFS='|' read -r name kind args <<<"$c"
	prepare "$name"
	case $name in
	seed004-write) export RW=write BS=16k ;;
	*) export RW=randread BS=8k ;;
	esac
	# shellcheck disable=SC2086 # args are word-split on purpose
	par_run run_one ref "$name" $args
	# shellcheck disable=SC2086
	par_run run_one ut "$name" $args
done
par_wait

for c in "${cases[@]}"; do
	IFS='|' read -r name kind args <<<"$c"
	rr=$(rc_of "$name" ref) ru=$(rc_of "$name" ut)
	if [ "$rr" != 0 ]; then
		case_skip "$name: reference fio failed (rc $rr): $(head -1 "$T/$name.ref.err" | head -c 200)"
		continue
	fi
	case_ran
	[ "$ru" = "$rr" ] || { add_err "$name: exit status $ru (fio: $rr): $(head -c 300 "$T/$name.ut.err")"; continue; }
	sb=; [ "$kind" = size ] && sb=1
	if ! diff -u <(exact_lines <"$T/$name.ref.out") <(exact_lines <"$T/$name.ut.out") >"$T/$name.exact.diff"; then
		add_err "$name: deterministic lines differ (- fio, + ours):
$(cat "$T/$name.exact.diff")"
		continue
	fi
	if ! diff -u <(normalise_normal $sb <"$T/$name.ref.out") <(normalise_normal $sb <"$T/$name.ut.out") \
		>"$T/$name.shape.diff"; then
		add_err "$name: output layout differs (- fio, + ours):
$(cat "$T/$name.shape.diff")"
	fi
	# Masking hides values; an impossible one (an unsigned underflow printed as 18447P, a
	# 16-digit average) must still fail.
	bad=$(grep -nE '[=\[ ][0-9.]+[PE]([,\] ]|$)|[0-9]{16}' "$T/$name.ut.out")
	[ -z "$bad" ] || add_err "$name: impossible values in our output:
$bad"
	if ! diff -u <(mask_numbers <"$T/$name.ref.err") <(mask_numbers <"$T/$name.ut.err") >"$T/$name.err.diff"; then
		add_err "$name: stderr differs (- fio, + ours):
$(cat "$T/$name.err.diff")"
	fi
done

# The masks above hide the unit labels; which comes first (MB or MiB) is kb_base's doing and
# must be fio's on every bandwidth and io figure of the two-job group.
# (Which prefix a figure gets follows its magnitude, timing: only binary or decimal counts.)
units() { grep -E '^  (write|WRITE): ' | grep -oE '[0-9.]+(KiB|MiB|GiB|kB|MB|GB)' | sed -E 's/.*iB$/bin/; s/.*[kMG]B$/dec/'; }
[ "$(units <"$T/kb_base-last-job.ref.out" | tr '\n' ' ')" = "$(units <"$T/kb_base-last-job.ut.out" | tr '\n' ' ')" ] ||
	add_err "kb_base-last-job: unit labels fio [$(units <"$T/kb_base-last-job.ref.out" | tr '\n' ' ')], ours [$(units <"$T/kb_base-last-job.ut.out" | tr '\n' ' ')]"

if [ ${#errors[@]} -gt 0 ]; then
	printf '%s\n' "${errors[@]}" >&2
	fail "${#errors[@]} of ${#cases[@]} seed command lines differ from fio's output"
fi
echo "ok: ${#cases[@]} seed command lines"
