#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# e2e: early (one of the longest: started first, so that no long script is left running alone at the end)
# The quick suite (iops quick, and iops with no arguments), shortened: the six summary lines
# of seed 002 with sane values, the table and the equivalent fio command lines, each of which
# the real fio runs (at a tiny size) and accepts; JSON output; a directory left as it was (a
# user file beside the test file untouched); SIGTERM in the middle: the test file removed and
# the partial summary printed; a 64 MiB loop-mounted ext4: the free-space error and nothing
# created; bad values: one line, exit 1.
. "$(dirname "$0")/fio_common.sh"
# the checks here are of the libaio runs (fs-performance's command lines); where the kernel
# refuses libaio's queue (probed), quick runs psync instead, which t_suite_fallback checks on
# every machine under a seccomp filter
! engine_refused libaio || skip_script "the jobs of this mode use libaio, which the kernel refuses here ($PROBE_WHY): its psync fallback is t_suite_fallback's"

FIO_PAR=${FIO_PAR:-3}
skip_if_fio "the quick suite is iops' own" && exit 0
errors=()
add_err() { errors+=("$*"); }

D=$T/vol
mkdir -p "$D"
echo "user data" >"$D/iops-quick.keep"
listing() { (cd "$D" && ls -lA --time-style=+%s && md5sum iops-quick.keep); }
before=$(listing)
unchanged() { [ "$(listing)" = "$before" ]; }

# --- 1. a short run: six lines, table, fio command lines ---
"$IOPS" quick "$D" --runtime=1 --size=16m >"$T/q.out" 2>"$T/q.err" </dev/null
rc=$?
case_ran
[ "$rc" = 0 ] || add_err "quick: exit $rc: $(head -3 "$T/q.err")"
[ ! -s "$T/q.err" ] || add_err "quick: stderr not empty: $(head -3 "$T/q.err")"
unchanged || add_err "quick: the directory changed: $(ls -A "$D")"
sed -n '/^Max write bandwidth/,/^Max read throughput/p' "$T/q.out" >"$T/six"
[ "$(wc -l <"$T/six")" = 6 ] || add_err "quick: summary is not six lines: $(cat "$T/six")"
i=0
for re in '^Max write bandwidth: [0-9]+ MiB/s$' '^Max read bandwidth: [0-9]+ MiB/s$' \
	'^Write I/O latency: [0-9]+\.[0-9]{3} ms$' '^Read I/O latency: [0-9]+\.[0-9]{3} ms$' \
	'^Max write throughput: [0-9]+ IOPS$' '^Max read throughput: [0-9]+ IOPS$'; do
	i=$((i + 1))
	line=$(sed -n "${i}p" "$T/six")
	[[ "$line" =~ $re ]] || add_err "quick: line $i '$line' !~ /$re/"
done
# sane: every figure positive, latencies under 10 s, IOPS consistent with QD1 latency
awk '{ v = $(NF-1) + 0; if (v <= 0) { print "not positive: " $0; bad = 1 } }
     /latency/ && $(NF-1) + 0 > 10000 { print "latency over 10 s: " $0 }' "$T/six" >"$T/insane"
[ ! -s "$T/insane" ] || add_err "quick: $(cat "$T/insane")"
[ "$(grep -cE '^\[[1-6]/6\] [a-z0-9-]+: [0-9.]+ MiB/s, [0-9]+ IOPS, lat [0-9.]+ ms' "$T/q.out")" = 6 ] ||
	add_err "quick: not one plain line per step on a pipe"
grep -q $'\r' "$T/q.out" && add_err "quick: live (\\r) lines on a pipe"
[ "$(grep -cE '^(seq|rand)(read|write)' "$T/q.out")" = 6 ] || add_err "quick: the table has not six rows"
grep '^fio ' "$T/q.out" >"$T/cmds"
[ "$(wc -l <"$T/cmds")" = 6 ] || add_err "quick: $(wc -l <"$T/cmds") fio command lines, not 6"
grep -q -- "--filename=iops-quick\.[0-9]*\.[0-9]* " "$T/cmds" || add_err "quick: no iops-quick.<pid>.<n> file name"
[ "$(grep -c -- '--numjobs=' "$T/cmds")" -le 2 ] || add_err "quick: numjobs outside the QD32 steps"

# --- 2. the real fio accepts every printed line (tiny size, 1 s, a fresh directory each);
# meanwhile a run whose stdout pipe closes early (| head -1) still removes its file ---
mkdir -p "$T/pipe.d"
("$IOPS" quick "$T/pipe.d" --runtime=1 --size=8m </dev/null 2>"$T/pipe.err" | head -1 >/dev/null) &
n=0
while IFS= read -r cmdline; do
	n=$((n + 1))
	eval "set -- $cmdline"
	shift
	args=()
	for a in "$@"; do
		case $a in
		--directory=*) args+=("--directory=$T/ref$n") ;;
		--size=*) args+=("--size=4m") ;;
		*) args+=("$a") ;;
		esac
	done
	mkdir -p "$T/ref$n"
	par_run bash -c '"$0" "${@:2}" >"$1.out" 2>"$1.err" </dev/null; echo $? >"$1.rc"' "$REF_FIO" "$T/ref$n" "${args[@]}"
	echo "$cmdline" >"$T/ref$n.cmd"
done <"$T/cmds"
par_wait
for k in $(seq 1 "$n"); do
	case_ran
	rc=$(cat "$T/ref$k.rc")
	[ "$rc" = 0 ] || add_err "fio refuses step $k ($rc): $(head -2 "$T/ref$k.err") [$(cat "$T/ref$k.cmd")]"
	grep -q "err= 0" "$T/ref$k.out" || add_err "fio step $k: no 'err= 0' job"
	[ ! -s "$T/ref$k.err" ] || add_err "fio step $k: stderr: $(head -2 "$T/ref$k.err")"
done
wait
case_ran
assert_eq "closed pipe: files left" "" "$(ls -A "$T/pipe.d")"

# --- 3. JSON: the document only on stdout, the summary and six fio job entries ---
"$IOPS" quick "$D" --runtime=1 --size=8m --output-format=json >"$T/j.out" 2>"$T/j.err" </dev/null
rc=$?
case_ran
[ "$rc" = 0 ] || add_err "json: exit $rc"
jq -e . "$T/j.out" >/dev/null 2>&1 || add_err "json: stdout is not one JSON document"
got=$(jq -r '[(.summary | keys | length), (.jobs | length), (.steps | length),
	([.jobs[].jobname] | join(",")), (.summary.write_iops > 0), (.jobs[0].read.io_bytes > 0)] | @tsv' "$T/j.out" 2>&1)
assert_eq "json: summary keys, jobs, steps, names, sane" \
	"$(printf '6\t6\t6\tseqread,seqwrite,randread-qd1,randwrite-qd1,randread-qd32,randwrite-qd32\ttrue\ttrue')" "$got"
grep -q '^\[6/6\]' "$T/j.err" || add_err "json: the step lines are not on stderr"
unchanged || add_err "json: the directory changed"

# --- 4. SIGTERM in the middle: partial summary, file removed ---
"$IOPS" quick "$D" --runtime=2 --size=16m >"$T/s.out" 2>"$T/s.err" </dev/null &
pid=$!
for _ in $(seq 1 100); do
	grep -q '^\[2/6\]' "$T/s.out" 2>/dev/null && break
	sleep 0.1
done
sleep 0.5	# inside step 3
kill -TERM "$pid"
wait "$pid"
rc=$?
case_ran
assert_eq "sigterm: exit" 143 "$rc"
grep -q "stopped by signal 15" "$T/s.err" || add_err "sigterm: no stop message: $(cat "$T/s.err")"
grep -q '^Max read bandwidth: [0-9]* MiB/s$' "$T/s.out" || add_err "sigterm: no partial summary"
grep -q '^Max read throughput' "$T/s.out" && add_err "sigterm: the last step's line without its step"
unchanged || add_err "sigterm: the directory changed: $(ls -A "$D")"

# --- 5. bad input: one line, exit 1, nothing created ---
for bad in "--runtime=0" "--size=lots" "--output-format=xml" "--bs=4k" "$T/none" "$D/iops-quick.keep"; do
	"$IOPS" quick "$bad" >"$T/b.out" 2>"$T/b.err" </dev/null
	rc=$?
	case_ran
	[ "$rc" = 1 ] && [ "$(wc -l <"$T/b.err")" = 1 ] && [ ! -s "$T/b.out" ] ||
		add_err "bad '$bad': exit $rc, $(wc -l <"$T/b.err") lines: $(cat "$T/b.err")"
done
unchanged || add_err "bad input: the directory changed"
assert_eq "not a directory" "iops: quick: '$D/iops-quick.keep': Not a directory" \
	"$("$IOPS" quick "$D/iops-quick.keep" 2>&1 </dev/null)"
"$IOPS" --help | grep -qE '^  quick +.+' || add_err "--help does not list quick"
[ "$("$IOPS" --help | grep -cE '^  (quick|latency|iops|throughput|ioping|fio) ')" = 6 ] ||
	add_err "--help does not list every mode"

# --- 6. a 64 MiB file system: the free-space error, nothing created (also for 'iops' alone) ---
M=$T/mnt
mkdir -p "$M"
truncate -s 64m "$T/small.img"
if loop_mount_ext4 "$T/small.img" "$M"; then
	trap 'rc=$?; umount "$M" 2>/dev/null; (exit $rc); _e2e_exit' EXIT
	ls0=$(ls -A "$M")
	"$IOPS" quick "$M" >"$T/f.out" 2>"$T/f.err" </dev/null
	rc=$?
	(cd "$M" && "$IOPS" >"$T/f0.out" 2>"$T/f0.err" </dev/null)
	rc0=$?
	case_ran
	assert_eq "64m: exit" 1 "$rc"
	assert_eq "64m: no-args exit" 1 "$rc0"
	grep -qE "^iops: quick: not enough free space in '$M': [0-9]+ MiB free" "$T/f.err" ||
		add_err "64m: message: $(cat "$T/f.err")"
	grep -qE "^iops: quick: not enough free space in '\.': " "$T/f0.err" ||
		add_err "64m no args: message: $(cat "$T/f0.err")"
	[ "$(cat "$T/f.err" "$T/f0.err" | wc -l)" = 2 ] || add_err "64m: not one line each"
	[ ! -s "$T/f.out" ] || add_err "64m: stdout not empty"
	assert_eq "64m: contents" "$ls0" "$(ls -A "$M")"
	umount "$M"
else
	skip_note "no loop ext4 here ($PROBE_WHY)"
fi

if [ ${#errors[@]} -gt 0 ]; then
	printf '%s\n' "${errors[@]}" >&2
	fail "${#errors[@]} problem(s)"
fi
echo "ok"
