#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Hostile input: jobs that cannot mean what they say. Each case runs with fio 3.33 and with the
# binary under test, each in a fresh directory. The binary under test must refuse every
# `refuse` case: exit 1, one or two stderr lines ending in a `fio: ...` line (fio's own
# two-line `X: max value out of range` + `fio: failed parsing` counts), nothing on stdout,
# nothing created; where fio refuses too (exit 1), the statuses match. `accept` cases are
# values fio gives a documented meaning (a clamp): both must run them, exit 0. What fio 3.33
# does with each case is in the comment at its end (measured 2026-12-01); docs/fio-differences.md
# lists the refusals where fio accepts.
#
# Table: NAME|EXPECT|FIO|ARGS. FIO is `run` (fio runs the job, 5 s at most), `hang` (fio runs
# it for 2 s: it never ends) or `parse` (fio gets --parse-only: a run takes long or would
# exhaust the machine; the comment says what a run does). In ARGS `@JOB` is
# the path of $T/NAME.fio, written from the job text in jobs[NAME] (printf %b), where
# `@SELF` stands for that same path (jobs[NAME.inc], if any, is written to $T/NAME.fio.inc).
# Messages: fio's own words where it has them (`No new sections in included files`).
# Every job gives its --size (the later value wins in both programs).
. "$(dirname "$0")/fio_common.sh"

errors=()
add_err() { errors+=("$*"); }
long=$(head -c 20000 /dev/zero | tr '\0' a)
export HOSTILE_A='${HOSTILE_B}' HOSTILE_B='${HOSTILE_A}'	# a ${VAR} expansion loop

declare -A jobs=(
	[hdr-open]='[job\nsize=256k\n'			# fio: runs a job named "jo" (drops the last character)
	[hdr-empty]='[]\nsize=256k\n'			# fio: runs a job with an empty name
	[hdr-trail]='[job] x\nsize=256k\n'		# fio: runs a job named "job] "
	[hdr-second]='[a]\nsize=256k\n[b\nsize=256k\n'	# fio: runs "a" and ""
	[include-self]='[global]\ninclude @SELF\n[j]\nsize=256k\n'	# fio: "No new sections...", then runs j, exit 0
	[include-loop]='[j]\nsize=256k\ninclude @SELF.inc\n'	# fio: never ends (killed by the test's timeout)
	[include-loop.inc]='rw=read\ninclude @SELF\n'	# includes itself, for ever
	[var-loop]='[j]\nsize=${HOSTILE_A}\n'		# fio: failed parsing size=${A}, exit 1
	[long-line]="[j]\nsize=256k\ndescription=$long\n"	# fio: Bad option <aaa...>, exit 1
	[long-key]="[j]\nsize=256k\n$long=1\n"		# fio: Bad option, exit 1
	[numjobs-total]='[a]\nsize=64k\nnumjobs=4000\n[b]\nsize=64k\nnumjobs=200\n'	# fio: "maximum number of jobs reached" when run
)

cases=(
	"hdr-open|refuse|run|@JOB"
	"hdr-empty|refuse|run|@JOB"
	"hdr-trail|refuse|run|@JOB"
	"hdr-second|refuse|run|@JOB"
	"include-self|refuse|run|@JOB"
	"include-loop|refuse|hang|@JOB"
	"var-loop|refuse|run|@JOB"
	"long-line|refuse|run|@JOB"
	"long-key|refuse|run|@JOB"
	"numjobs-total|refuse|parse|@JOB"
	"long-filename|refuse|run|--name=h --size=256k --filename=${long:0:5000}"	# fio: value exceeds max length of 4096, exit 1
	"zipf-neg|refuse|run|--name=h --size=256k --rw=randread --random_distribution=zipf:-1"	# fio: runs
	"fsvc-zipf-neg|refuse|run|--name=h --size=256k --nrfiles=2 --file_service_type=zipf:-1"	# fio: runs
	"zipf-1|refuse|run|--name=h --size=256k --rw=randread --random_distribution=zipf:1"	# fio: theta must different than 1.0
	"pareto-0|refuse|run|--name=h --size=256k --rw=randread --random_distribution=pareto:0"	# fio: out of range, exit 1
	"pareto-1|refuse|run|--name=h --size=256k --rw=randread --random_distribution=pareto:1"	# fio: out of range, exit 1
	"normal-neg|refuse|run|--name=h --size=256k --rw=randread --random_distribution=normal:-1"	# fio: out of range, exit 1
	"normal-100|refuse|run|--name=h --size=256k --rw=randread --random_distribution=normal:100"	# fio: out of range, exit 1
	"center-2|refuse|run|--name=h --size=256k --rw=randread --random_distribution=zipf:1.2:2"	# fio: center out of range, exit 1
	"zoned-over|refuse|run|--name=h --size=256k --rw=randread --random_distribution=zoned:60/10:60/90"	# fio: add to more than 100%, exit 1
	"zoned-under|refuse|run|--name=h --size=256k --rw=randread --random_distribution=zoned:50/10:40/90"	# fio: don't add up to 100, exit 1
	"zoned-150|refuse|run|--name=h --size=256k --rw=randread --random_distribution=zoned:150/100"	# fio: more than 100%, exit 1
	"zoned-abs-over|refuse|run|--name=h --size=256k --rw=randread --random_distribution=zoned_abs:60/64k:60/64k"	# fio: exit 1
	"rwmixread-101|refuse|run|--name=h --size=256k --rw=randrw --rwmixread=101"	# fio: max value out of range, exit 1
	"rwmixread-neg|accept|run|--name=h --size=256k --rw=randrw --rwmixread=-1"	# fio: the parts -1 and 1, 1 wins; iops the same
	"rwmixwrite-101|refuse|run|--name=h --size=256k --rw=randrw --rwmixwrite=101"	# fio: exit 1
	"pctrandom-neg|refuse|run|--name=h --size=256k --rw=randrw --percentage_random=-1"	# fio: runs
	"pctrandom-101|refuse|run|--name=h --size=256k --rw=randrw --percentage_random=101"	# fio: exit 1
	"bssplit-120|refuse|run|--name=h --size=256k --bssplit=4k/60:8k/60"	# fio: runs
	"bssplit-150|refuse|run|--name=h --size=256k --bssplit=4k/150"	# fio: runs (clamps to 100)
	"bssplit-blank|refuse|run|--name=h --size=256k --bssplit=4k/60:8k:16k/60"	# fio: runs (8k's share wraps to ~4e9)
	"bssplit-huge|refuse|run|--name=h --size=256k --bssplit=4k/99999999999999999999"	# fio: runs
	"bsrange-rev|accept|run|--name=h --size=256k --bsrange=8k-4k"	# fio: swaps, runs 4k-8k; iops the same
	"bsrange-rev-w|accept|run|--name=h --size=256k --bsrange=4k-8k,16k-8k"	# fio: swaps
	"filesize-rev|refuse|run|--name=h --size=256k --ioengine=null --nrfiles=2 --filesize=8k-4k"	# fio: swaps (with files, psync: hangs)
	"size-range|accept|run|--name=h --size=1m-256k"	# fio: 256k (its callback takes each part); iops the same
	"size-colon|accept|run|--name=h --size=64k:128k"	# fio: 128k
	"offset-range|accept|run|--name=h --size=256k --offset=0:64k"	# fio: runs
	"size-16e|refuse|run|--name=h --size=16E"	# fio: reads 16 (no E suffix): size too small, exit 1
	"size-overflow|refuse|run|--name=h --size=99999999999999999999"	# fio: failed parsing, exit 1
	"bs-overflow|refuse|run|--name=h --size=256k --bs=99999999999999999999"	# fio: failed parsing, exit 1
	"offset-wrap|refuse|run|--name=h --size=2e --offset=15e"	# fio: reads 2 and 15: size too small, exit 1
	"offset-past|accept|run|--name=h --size=256k --offset=8e"	# fio: reads 8 bytes (no 'e' suffix), runs; iops the same
	"offset-huge|refuse|run|--name=h --size=256k --offset=9223372036854775000"	# fio: runs (past every file)
	"offset-inc-wrap|accept|run|--name=h --size=256k --offset_increment=4e --numjobs=3"	# fio: reads 4 bytes, runs; iops the same
	"numjobs-1e9|refuse|parse|--name=h --size=256k --ioengine=null --numjobs=1000000000"	# fio run: "maximum number of jobs reached" after ~7 s, exit 1
	"nrfiles-1e9|refuse|parse|--name=h --size=256k --ioengine=null --nrfiles=1000000000"	# fio run: smalloc OOM, abort (134)
	"iodepth-1e8|refuse|hang|--name=h --size=256k --ioengine=null --iodepth=100000000"	# fio: hangs
	"mem-job|refuse|run|--name=h --size=64g --ioengine=null --iodepth=65536 --bs=64m"	# fio: the job fails at set-up (4 TiB), exit 1
	"mem-threads|refuse|parse|--name=h --size=1g --thread --numjobs=4096 --iodepth=4096 --bs=1m --ioengine=libaio"	# fio: 16 TiB of buffers (parse-only: 0)
	"iodepth-low|accept|run|--name=h --size=256k --ioengine=posixaio --iodepth=16 --iodepth_low=32"	# fio: clamps iodepth_low to iodepth
	"batch-over|accept|run|--name=h --size=256k --ioengine=posixaio --iodepth=16 --iodepth_batch=32"	# fio: clamps
	"zipf-0|accept|run|--name=h --size=256k --rw=randread --random_distribution=zipf:0"	# fio: uniform
)

# hrun SIDE NAME FIOMODE ARGS...: like run_one, with a short timeout for fio (some cases hang)
hrun() {
	local side=$1 name=$2 mode=$3 bin=$UT_FIO lim=20 extra=()
	shift 3
	if [ "$side" = ref ]; then
		bin=$REF_FIO lim=5
		[ "$mode" = hang ] && lim=2
		[ "$mode" = parse ] && extra=(--parse-only)
	fi
	[ "$mode" = hang ] && [ "$UT_IS_FIO" = 1 ] && lim=2	# fio under test
	mkdir -p "$T/$name.$side.d"
	(cd "$T/$name.$side.d" && exec timeout -k 2 "$lim" bash -c 'exec -a fio "$0" "$@"' "$bin" "$@" "${extra[@]}") \
		>"$T/$name.$side.out" 2>"$T/$name.$side.err" </dev/null
	echo $? >"$T/$name.$side.rc"
}

for c in "${cases[@]}"; do
	IFS='|' read -r name expect mode args <<<"$c"
	if [ -n "${jobs[$name]:-}" ]; then
		j=${jobs[$name]//@SELF/$T/$name.fio}
		printf '%b' "$j" >"$T/$name.fio"
		[ -z "${jobs[$name.inc]:-}" ] || printf '%b' "${jobs[$name.inc]//@SELF/$T/$name.fio.inc}" >"$T/$name.fio.inc"
		args=${args//@JOB/$T/$name.fio}
	fi
	# shellcheck disable=SC2086 # args are words on purpose
	{ par_run hrun ref "$name" "$mode" $args; par_run hrun ut "$name" "$mode" $args; }
done
wait

for c in "${cases[@]}"; do
	IFS='|' read -r name expect mode args <<<"$c"
	rr=$(rc_of "$name" ref) ru=$(rc_of "$name" ut)
	e=$T/$name.ut.err
	case_ran
	left=$(dir_listing "$T/$name.ut.d")
	printf '%-16s fio: exit %-3s  iops: exit %s  %s\n' "$name" "$rr" "$ru" "$(tail -1 "$e" | cut -c1-90)"
	if [ "$expect" = accept ]; then
		[ "$ru" = 0 ] && [ "$rr" = 0 ] || add_err "$name: fio exit $rr, iops exit $ru, both should run it: $(head -c 300 "$e")"
		continue
	fi
	[ "$UT_IS_FIO" = 1 ] && continue	# fio accepts many of these: nothing to assert about fio
	[ "$ru" = 1 ] || add_err "$name: exit $ru, expected 1 (fio: $rr): $(head -c 300 "$e")"
	n=$(wc -l <"$e")
	last=$(tail -1 "$e")
	[ "$n" -ge 1 ] && [ "$n" -le 2 ] && [[ $last == "fio: "* || $last == "No new sections in included files" ]] ||
		add_err "$name: expected one or two stderr lines ending in 'fio: ...', got $n: $(head -c 300 "$e")"
	[ ! -s "$T/$name.ut.out" ] || add_err "$name: stdout not empty: $(head -c 200 "$T/$name.ut.out")"
	[ -z "$left" ] || add_err "$name: files were created: $left"
	[ "$rr" != 1 ] || [ "$ru" = 1 ] || add_err "$name: fio exits 1, iops $ru"
done

if [ ${#errors[@]} -gt 0 ]; then
	printf '%s\n' "${errors[@]}" >&2
	fail "${#errors[@]} hostile input(s) not refused cleanly"
fi
echo "ok: ${#cases[@]} hostile inputs"
