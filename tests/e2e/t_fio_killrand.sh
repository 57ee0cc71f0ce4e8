#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Cleanup after a stop at a random point. 20 runs of the binary under test, each in a fresh
# directory holding a file that was there before (keep.dat), are stopped by SIGTERM or SIGINT
# after a pseudo-random delay: during the layout of four 4 MiB files, during the 1 s run, or
# in the last 300 ms of a whole run's length, measured first (the end of I/O, the report and
# the logs). Jobs: psync buffered, psync with sync=1, libaio
# with direct=1, each with write_bw_log and write_lat_log; and ioping -W on the directory.
# After each stop (docs/safety.md, Faults: what a stopped run keeps):
#   - the process has exited within 10 s, and nothing of its process group is left (/proc);
#   - fio mode: exit 128 (a stop: the report is printed), or 0 if the run ended first; 130 or
#     143 only if the signal came before iops could handle it;
#   - keep.dat is there, unchanged; a stopped fio-mode run leaves none of the files it laid
#     out (k.N.M), only the logs it was asked to write (k_bw.1.log ...); a run that ended keeps
#     its files, as fio; ioping leaves nothing (its working file is never visible), and exits
#     0 (summary), or 128+N when the signal came while it prepared that file.
# SIGKILL cannot be handled by any program: it is not tested (docs/safety.md says so).
# The seed (KILLRAND_SEED, default: the time) is printed: a failure is reproduced with it.
. "$(dirname "$0")/fio_common.sh"
skip_if_fio "iops' cleanup after a stop (fio keeps its files)" && exit 0

seed=${KILLRAND_SEED:-$(($(date +%s) % 100000))}
echo "seed $seed (KILLRAND_SEED=$seed to repeat)"
RANDOM=$seed
errors=()
add_err() { errors+=("$*"); }
LOGS=(--write_bw_log=k --write_lat_log=k --log_avg_msec=50)
# shellcheck disable=SC2054 # json,normal is one value
JOB=(--name=k --nrfiles=4 --filesize=4m --rw=randrw --bs=4k --time_based --runtime=1 "${LOGS[@]}"
	--output-format=json,normal)
IOPING=${IOPING_BIN:-$IOPS}

# one run to its end: it keeps its files, and its length places the third window on its end
mkdir -p "$T/whole"
for _ in 1 2; do	# the second run, with the files laid out, is the shorter
	t0=$(date +%s%N)
	(cd "$T/whole" && exec -a fio "$IOPS" "${JOB[@]}") >"$T/whole.out" 2>&1 </dev/null || fail "a whole run failed: $(tail -3 "$T/whole.out")"
	end_ms=$((($(date +%s%N) - t0) / 1000000))
done
[ "$(cd "$T/whole" && find . -name 'k.0.[0-3]' | wc -l)" = 4 ] || fail "a whole run did not keep its 4 files: $(ls "$T/whole")"
echo "a whole run takes $end_ms ms"

set_aio "the async job (requests in flight when the signal comes)"
for i in $(seq 20); do
	d=$T/k.$i
	mkdir -p "$d"
	head -c 10000 /dev/urandom >"$d/keep.dat"
	sum=$(cksum <"$d/keep.dat")
	sig=TERM
	[ $((RANDOM % 2)) = 0 ] && sig=INT
	case $((i % 4)) in
	1) what=psync args=("${JOB[@]}") ;;
	2) what=sync args=("${JOB[@]}" --sync=1) ;;
	3) what=$AIO args=("${JOB[@]}" --ioengine=$AIO --direct=1 --iodepth=8) ;;
	0) what=ioping args=(-W -c 30 -i 20ms -q .) ;;
	esac
	case $((i % 3)) in	# where the stop lands: layout, run, the end (report and logs)
	0) ms=$((RANDOM % 40)) ;;
	1) ms=$((100 + RANDOM % 800)) ;;
	2) ms=$((end_ms - 300 + RANDOM % 320)) ;;
	esac
	[ "$what" = ioping ] && ms=$((RANDOM % 700))	# 30 requests 20 ms apart
	delay=$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))
	if [ "$what" = ioping ]; then
		(cd "$d" && exec setsid bash -c 'exec -a ioping "$0" "$@"' "$IOPING" "${args[@]}") >"$T/k.$i.out" 2>&1 </dev/null &
	else
		(cd "$d" && exec setsid bash -c 'exec -a fio "$0" "$@"' "$IOPS" "${args[@]}") >"$T/k.$i.out" 2>&1 </dev/null &
	fi
	pid=$!
	sleep "$delay"
	kill -"$sig" "$pid" 2>/dev/null
	for _ in $(seq 100); do	# 10 s at most
		kill -0 "$pid" 2>/dev/null || break
		[ "$(ps -o stat= -p "$pid" 2>/dev/null | cut -c1)" = Z ] && break
		sleep 0.1
	done
	if kill -0 "$pid" 2>/dev/null && [ "$(ps -o stat= -p "$pid" | cut -c1)" != Z ]; then
		add_err "run $i ($what, SIG$sig after ${delay}s): still running 10 s later"
		kill -KILL -- -"$pid" 2>/dev/null
	fi
	wait "$pid"
	rc=$?
	case_ran
	left=$(pgrep -g "$pid" 2>/dev/null | tr '\n' ' ')
	[ -z "$left" ] || { add_err "run $i ($what): processes left in its group: $left"; kill -KILL -- -"$pid" 2>/dev/null; }
	all=$(dir_listing "$d")
	files=$(grep -v '^keep\.dat$' <<<"$all" | tr '\n' ' ')
	data=$(grep -E '^k\.[0-9]+\.[0-9]+$' <<<"$all" | tr '\n' ' ')
	other=$(grep -vE '^keep\.dat$|^k\.[0-9]+\.[0-9]+$|^k_(bw|lat|clat|slat)\.1\.log$' <<<"$all" | tr '\n' ' ')
	echo "run $i: $what, SIG$sig after ${delay}s: exit $rc, left: ${files:-nothing}"
	[ -f "$d/keep.dat" ] && [ "$(cksum <"$d/keep.dat")" = "$sum" ] || add_err "run $i ($what): keep.dat lost or changed"
	[ -z "$other" ] || add_err "run $i ($what): unexpected files: $other"
	case $what:$rc in
	ioping:0 | ioping:130 | ioping:143) [ -z "$files" ] || add_err "run $i (ioping): left $files" ;;
	ioping:*) add_err "run $i (ioping, SIG$sig after ${delay}s): exit $rc: $(tail -2 "$T/k.$i.out")" ;;
	*:0) [ -n "$data" ] || add_err "run $i ($what): a run that ended lost its files" ;;
	*:128 | *:130 | *:143) [ -z "$data" ] || add_err "run $i ($what, SIG$sig after ${delay}s, exit $rc): left $data" ;;
	*) add_err "run $i ($what, SIG$sig after ${delay}s): exit $rc: $(tail -3 "$T/k.$i.out")" ;;
	esac
	if [ "$rc" = 128 ] && ! grep -q "^fio: terminating on signal" "$T/k.$i.out"; then
		add_err "run $i ($what): exit 128 without fio's 'terminating on signal' line"
	fi
done

if [ ${#errors[@]} -gt 0 ]; then
	printf '%s\n' "${errors[@]}" >&2
	fail "${#errors[@]} problem(s) (seed $seed)"
fi
echo "ok: 20 stopped runs left what docs/safety.md says (seed $seed)"
