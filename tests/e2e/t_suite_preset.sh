#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The presets (iops latency | iops | throughput [DIR] [fio options]), shortened by options
# after the preset (which override the recipe): the equivalent fio command line first on
# stderr, then fio's normal or JSON report; the same line run by the real fio gives the same
# job header (rw, bs, ioengine, iodepth) and job set; files removed at the end unless --keep,
# and on SIGTERM; the size lowered to fit the free space (said on stderr) on a small ext4;
# bad input: one line, exit 1, nothing created.
. "$(dirname "$0")/fio_common.sh"
# the checks here are of the libaio runs (fs-performance's command lines); where the kernel
# refuses libaio's queue (probed), the presets run psync instead, which t_suite_fallback checks on
# every machine under a seccomp filter
! engine_refused libaio || skip_script "the jobs of this mode use libaio, which the kernel refuses here ($PROBE_WHY): its psync fallback is t_suite_fallback's"

skip_if_fio "the presets are iops' own" && exit 0
errors=()
add_err() { errors+=("$*"); }
SHORT=(--runtime=1 --ramp_time=0 --size=8m)

# --- 1. each preset: command line on stderr, fio's report, directory left empty; real fio ---
for p in latency iops throughput; do
	D=$T/$p.d
	mkdir -p "$D"
	extra=()
	[ "$p" = throughput ] && extra=(--numjobs=2 --group_reporting)
	"$IOPS" "$p" "$D" "${SHORT[@]}" "${extra[@]}" >"$T/$p.out" 2>"$T/$p.err" </dev/null
	rc=$?
	case_ran
	[ "$rc" = 0 ] || add_err "$p: exit $rc: $(head -3 "$T/$p.err")"
	first=$(head -1 "$T/$p.err") direct=1
	# where the kernel refuses O_DIRECT in $T (probed), the preset says so and runs buffered
	if direct_refused; then
		direct=0
		assert_eq "$p: the note where the kernel refuses O_DIRECT ($PROBE_WHY)" \
			"iops: $p: '$D': no O_DIRECT, buffered I/O (--direct=0)" "$first"
		first=$(sed -n 2p "$T/$p.err")
	fi
	[[ "$first" == "fio --directory=$D --name=$p --ioengine=libaio "* ]] || add_err "$p: stderr starts '$first'"
	[[ "$first" == *" --size=10g --fallocate=none --direct=$direct --runtime=60 --time_based --ramp_time=5 "* ]] ||
		add_err "$p: the recipe's common arguments are not in '$first'"
	[[ "$first" == *" --unlink=1 --runtime=1 --ramp_time=0 --size=8m"* ]] || add_err "$p: overrides not last: '$first'"
	grep -q "^$p: (groupid=0, jobs=" "$T/$p.out" || add_err "$p: no fio job report on stdout"
	grep -q "^Run status group 0 (all jobs):" "$T/$p.out" || add_err "$p: no group line"
	assert_eq "$p: files left" "" "$(ls -A "$D")"
	# the same line through the real fio, in its own directory
	eval "set -- $first"
	shift
	args=()
	for a in "$@"; do
		case $a in
		--directory=*) args+=("--directory=$T/$p.ref") ;;
		*) args+=("$a") ;;
		esac
	done
	mkdir -p "$T/$p.ref"
	"$REF_FIO" "${args[@]}" >"$T/$p.ref.out" 2>"$T/$p.ref.err" </dev/null
	rc=$?
	[ "$rc" = 0 ] || add_err "$p: real fio refuses the line ($rc): $(head -2 "$T/$p.ref.err")"
	a=$(grep ': (g=0): rw=' "$T/$p.ref.out")
	b=$(grep ': (g=0): rw=' "$T/$p.out")
	[ -n "$a" ] && [ "$a" = "$b" ] || add_err "$p: job header: fio [$a] / iops [$b]"
	a=$(grep -oE '^[a-z]+: \(groupid=0, jobs=[0-9]+\)' "$T/$p.ref.out")
	b=$(grep -oE '^[a-z]+: \(groupid=0, jobs=[0-9]+\)' "$T/$p.out")
	[ "$a" = "$b" ] || add_err "$p: jobs: fio [$a] / iops [$b]"
	[ -z "$(ls -A "$T/$p.ref")" ] || add_err "$p: real fio left files: the line lacks unlink"
done

# --- 2. JSON and --keep ---
D=$T/keep.d
mkdir -p "$D"
"$IOPS" iops "$D" "${SHORT[@]}" --keep --output-format=json >"$T/k.out" 2>"$T/k.err" </dev/null
rc=$?
case_ran
[ "$rc" = 0 ] || add_err "keep: exit $rc"
got=$(jq -r '.jobs | [length, .[0]."job options".rw, .[0]."job options".iodepth, .[0].read.io_bytes > 0] | @tsv' "$T/k.out" 2>&1)
assert_eq "json: jobs rw iodepth read" "$(printf '1\trandread\t32\ttrue')" "$got"
kept=$(ls -A "$D")
[[ "$kept" =~ ^iops-iops\.[0-9]+\.0\.0$ ]] || add_err "keep: files '$kept'"
assert_eq "keep: size" 8388608 "$(stat -c %s "$D/$kept" 2>/dev/null)"
grep -q -- "--unlink" "$T/k.err" && add_err "keep: --unlink in the line"
rm -f "$D"/iops-iops.*

# --- 3. SIGTERM: the report of what ran, files removed ---
D=$T/term.d
mkdir -p "$D"
"$IOPS" latency "$D" --runtime=20 --ramp_time=0 --size=8m >"$T/t.out" 2>"$T/t.err" </dev/null &
pid=$!
for _ in $(seq 1 50); do
	[ -n "$(ls -A "$D")" ] && break
	sleep 0.1
done
sleep 0.7
kill -TERM "$pid"
wait "$pid"
rc=$?
case_ran
[ "$rc" -ge 128 ] || add_err "sigterm: exit $rc"
grep -q "fio: terminating on signal 15" "$T/t.err" || add_err "sigterm: no signal line"
grep -q '^  write: IOPS=' "$T/t.out" || add_err "sigterm: no report"
assert_eq "sigterm: files left" "" "$(ls -A "$D")"

# --- 4. bad input: one line, exit 1, nothing created ---
D=$T/bad.d
mkdir -p "$D"
for bad in "latency $D job.fio" "iops $T/none" "throughput $D --rw=bogus" "latency $D --bs=0x"; do
	# shellcheck disable=SC2086 # words
	"$IOPS" $bad >"$T/b.out" 2>"$T/b.err" </dev/null
	rc=$?
	case_ran
	[ "$rc" = 1 ] || add_err "bad '$bad': exit $rc: $(cat "$T/b.err")"
	[ "$(grep -vc '^fio --directory' "$T/b.err")" -ge 1 ] || add_err "bad '$bad': no message"
	assert_eq "bad '$bad': files" "" "$(ls -A "$D")"
done

# --- 5. the size lowered to fit a small file system, said on stderr ---
M=$T/mnt
mkdir -p "$M"
truncate -s 192m "$T/small.img"
if loop_mount_ext4 "$T/small.img" "$M"; then
	trap 'rc=$?; umount "$M" 2>/dev/null; (exit $rc); _e2e_exit' EXIT
	ls0=$(ls -A "$M")
	"$IOPS" throughput "$M" --runtime=1 --ramp_time=0 --numjobs=2 --bs=1m --iodepth=4 >"$T/s.out" 2>"$T/s.err" </dev/null
	rc=$?
	case_ran
	[ "$rc" = 0 ] || add_err "small: exit $rc: $(cat "$T/s.err")"
	grep -qE "^iops: throughput: --size lowered from 10g to [0-9]+m per job \(2 jobs\)" "$T/s.err" ||
		add_err "small: no lowering note: $(head -2 "$T/s.err")"
	sz=$(grep -oE -- '--size=[0-9]+m' "$T/s.err" | head -1 | tr -dc 0-9)
	[ -n "$sz" ] && [ "$sz" -ge 32 ] && [ "$sz" -le 48 ] || add_err "small: size ${sz}m per job"
	assert_eq "small: contents" "$ls0" "$(ls -A "$M")"
	"$IOPS" latency "$M/lost+found/.." --size=1g --runtime=1 --ramp_time=0 >/dev/null 2>"$T/s2.err" </dev/null
	rc=$?
	[ "$rc" = 1 ] || add_err "small: 1g on 192m: exit $rc"
	assert_eq "small: contents after a refused size" "$ls0" "$(ls -A "$M")"
	umount "$M"
else
	skip_note "no loop ext4 here ($PROBE_WHY)"
fi

if [ ${#errors[@]} -gt 0 ]; then
	printf '%s\n' "${errors[@]}" >&2
	fail "${#errors[@]} problem(s)"
fi
echo "ok"
