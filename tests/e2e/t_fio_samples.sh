#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# e2e: alone (sample counts of timed jobs, off the window boundaries by a margin a loaded CPU eats)
# bw / iops samples and log entries as fio 3.33 counts them, beside fio on the same jobs:
# time-based and size-bound jobs, a run ending inside a window, ramp_time, both directions,
# several jobs with and without group_reporting, bw/iops logs with log_avg_msec, and
# issue 21's case (seed 000's seq-read line for 2 s: a deep libaio queue drains into the 4th
# 500 ms window, which fio samples: 4 samples per job). The jobs are rate-limited (little CPU)
# and their lengths are off the window boundaries (where the count is timing), but for the
# issue's case, whose drain is long. Compared: bw_samples and iops_samples per job, the per=
# share (bw_agg) within 15 points for the jobs that read, and the entries of each log file.
. "$(dirname "$0")/fio_common.sh"

errors=()
add_err() { errors+=("$*"); }

# counts NAME SIDE: one line per reported job: name, bw and iops samples of each direction that
# moved, and the per= share rounded to 5 points (bw_agg, the group's share of this job)
counts() {
	json_doc "$T/$1.$2.out" | jq -r '.jobs[] | [.jobname] + ([.read, .write] | map(select(.io_bytes > 0) |
		"\(.bw_samples)/\(.iops_samples)")) | join(" ")'
}
shares() { json_doc "$T/$1.$2.out" | jq -r '[.jobs[] | [.read, .write][] | select(.io_bytes > 0) | .bw_agg] | map(tostring) | join(" ")'; }
# logs NAME SIDE: each log file the run wrote, with its number of entries
logs() { (cd "$T/$1.$2.d" && for f in *.log; do [ -e "$f" ] && echo "$f $(wc -l <"$f")"; done) | sort; }

R=(--ioengine=psync --filename=f --size=16m --bs=4k --output-format=json)
cases=(
	"timed|--name=j --rw=read --rate_iops=400 --time_based --runtime=2300ms"
	"timed-write|--name=j --rw=randwrite --rate_iops=400 --time_based --runtime=1700ms"
	"sized|--name=j --rw=read --rate=512k --io_size=1100k"
	"ramp|--name=j --rw=read --rate_iops=400 --time_based --runtime=1700ms --ramp_time=1100ms"
	"mixed|--name=j --rw=randrw --rate_iops=300,200 --time_based --runtime=1800ms"
	"jobs|--name=j --rw=read --rate_iops=200 --time_based --runtime=1800ms --numjobs=3"
	"group|--name=j --rw=read --rate_iops=200 --time_based --runtime=1800ms --numjobs=3 --group_reporting"
	"logs|--name=j --rw=read --rate_iops=400 --time_based --runtime=1800ms --write_bw_log=j --write_iops_log=j --log_avg_msec=400"
	"logs2|--name=j --rw=randrw --rate_iops=400 --time_based --runtime=1400ms --numjobs=2 --write_bw_log=j --write_iops_log=j --write_lat_log=j --log_avg_msec=400"
)
for c in "${cases[@]}"; do
	IFS='|' read -r n args <<<"$c"
	# shellcheck disable=SC2086 # args are words
	par_run run_pair "$n" "${R[@]}" $args
done
# issue 21: seed 000's seq-read line (8 jobs of 128 KiB reads at depth 256 through libaio,
# direct, one 100 MiB file, group_reporting), 2 s instead of 600
seq=(--randrepeat=1 --ioengine=libaio --direct=1 --gtod_reduce=1 --name=seq-read --filename=seq-read --bs=128k
	--iodepth=256 --size=100m --readwrite=read --runtime=2 --time_based --numjobs=8 --group_reporting --output-format=json)
par_wait
run_pair seq "${seq[@]}"
cases+=("seq|")

for c in "${cases[@]}"; do
	n=${c%%|*}
	case_ran
	for s in ref ut; do
		[ "$(rc_of "$n" "$s")" = 0 ] || add_err "$n ($s): exit $(rc_of "$n" "$s"): $(head -3 "$T/$n.$s.err")"
	done
	a=$(counts "$n" ref) b=$(counts "$n" ut)
	a=${a//$'\n'/, } b=${b//$'\n'/, }
	echo "$n: fio [$a] iops [$b]"
	[ "$a" = "$b" ] || add_err "$n: samples: fio [$a] / iops [$b]"
	# per=: the jobs that read only (two directions of rate-limited random I/O on a busy machine
	# make the shares timing)
	sa=() sb=()
	if [[ "$c" != *randrw* ]]; then
		read -ra sa <<<"$(shares "$n" ref)"
		read -ra sb <<<"$(shares "$n" ut)"
	fi
	[ "${#sa[@]}" = "${#sb[@]}" ] || add_err "$n: per= shares: fio [${sa[*]}] / iops [${sb[*]}]"
	for i in "${!sa[@]}"; do
		awk -v a="${sa[$i]}" -v b="${sb[$i]:-0}" 'BEGIN { d = a - b; exit !(d <= 15 && d >= -15) }' ||
			add_err "$n: per= share $i: fio ${sa[$i]}%, iops ${sb[$i]:-none}%"
	done
	a=$(logs "$n" ref) b=$(logs "$n" ut)
	[ "$a" = "$b" ] || add_err "$n: log entries: fio [${a//$'\n'/, }] / iops [${b//$'\n'/, }]"
done
# the issue's numbers: 4 samples of each kind per job, 32 in the group
[ "$(counts seq ref)" = "seq-read 32/32" ] || add_err "seq: fio counted [$(counts seq ref)], not the issue's 32/32"

if [ ${#errors[@]} -gt 0 ]; then
	printf '%s\n' "${errors[@]}" >&2
	fail "${#errors[@]} problem(s)"
fi
echo "samples: all cases agree"
