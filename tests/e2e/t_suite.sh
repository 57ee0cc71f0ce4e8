#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# suite mode (fs-performance, seed 002): the configuration echo in the seed's form, the meta
# benchmark's lines, the fio benchmark's six lines (the quick suite, shortened), bad values as
# one-line errors naming the variable with nothing created, DELETE_FIRST removing only what an
# earlier iops run left, and SIGTERM mid-run: partial output, exit 0, nothing left.
. "$(dirname "$0")/lib.sh"
# the fio benchmark is the quick suite, on libaio; where the kernel refuses libaio's queue
# (probed) it runs quick's psync fallback, says so in one line on stderr (t_suite_fallback checks
# the fallback itself) and everything else here holds the same
aio_line=
! engine_refused libaio ||
	aio_line='iops: quick: libaio is not available here (io_setup: '

D=$T/vol
mkdir "$D"
suite() { (cd "$D" && env "$@" "$IOPS" suite); }

# ---- configuration echo and the meta benchmark --------------------------------------------
suite BENCHMARKS=meta FIO_CAPACITY_MB=64 FIO_RUNTIME=1 >"$T/out" 2>"$T/err"; rc=$?
assert_eq "meta rc" 0 "$rc"
assert_eq "meta stderr" "" "$(cat "$T/err")"
assert_eq "configuration" "Configuration:
List of benchmarks to run: meta (BENCHMARKS)
Target path for tests: $D (TARGET_PATH)
Number of test iterations to run: 1 (ITERATIONS)
Random startup delay (s): 0 (STARTUP_DELAY)
Random delay between iterations (s): 0 (RAND_THINK)
Delete contents of target dir on startup: 0 (DELETE_FIRST)
File size for fio benchmark: 64 (FIO_CAPACITY_MB)
Runtime for individual fio tests (s): 1 (FIO_RUNTIME)
Benchmark: meta" "$(head -n 10 "$T/out")"
assert_match "meta: create" $'\nTime to create files: [0-9]+\\.[0-9]{2} s\nTime to remove files: [0-9]+\\.[0-9]{2} s\n' "$(cat "$T/out")"
assert_match "meta: tree" $'\nFiles in the tree: 2560 in 192 directories \\([0-9.]+ MiB\\)\n' "$(cat "$T/out")"
for w in Create Stat Remove; do
	assert_match "meta: $w rate" $'\n'"$w rate: [1-9][0-9]* files/s" "$(cat "$T/out")"
done
assert_eq "meta: nothing left" "" "$(dir_listing "$D")"

# ---- the fio benchmark: the quick suite's six lines -----------------------------------------
suite BENCHMARKS=fio FIO_CAPACITY_MB=64 FIO_RUNTIME=1 >"$T/out" 2>"$T/err"; rc=$?
assert_eq "fio rc" 0 "$rc"
if [ -n "$aio_line" ]; then
	assert_eq "fio stderr: the psync fallback line alone" "1 1" "$(grep -cF "$aio_line" "$T/err") $(wc -l <"$T/err")"
else
	assert_eq "fio stderr" "" "$(cat "$T/err")"
fi
sed -n '/^Benchmark: fio$/,$p' "$T/out" >"$T/fio"
assert_eq "fio: lines" 7 "$(wc -l <"$T/fio")"
assert_match "fio: six lines" $'^Benchmark: fio\nMax write bandwidth: [0-9.]+ [KMG]iB/s\nMax read bandwidth: [0-9.]+ [KMG]iB/s\nWrite I/O latency: [0-9.]+ ms\nRead I/O latency: [0-9.]+ ms\nMax write throughput: [0-9]+ IOPS\nMax read throughput: [0-9]+ IOPS$' "$(cat "$T/fio")"
assert_eq "fio: nothing left" "" "$(dir_listing "$D")"

# ---- bad values: one line naming the variable, exit 1, nothing created ----------------------
while IFS='|' read -r var msg; do
	suite "$var" >"$T/out" 2>"$T/err"; rc=$?
	assert_eq "$var: rc" 1 "$rc"
	assert_eq "$var: message" "iops suite: $msg" "$(cat "$T/err")"
	assert_eq "$var: stdout" "" "$(cat "$T/out")"
	assert_eq "$var: nothing created" "" "$(dir_listing "$D")"
done <<EOF
ITERATIONS=abc|ITERATIONS=abc: not a whole number
FIO_CAPACITY_MB=-1|FIO_CAPACITY_MB=-1: not a whole number
FIO_RUNTIME=0|FIO_RUNTIME=0: at least 1
DELETE_FIRST=2|DELETE_FIRST=2: 0 or 1
BENCHMARKS=clone fio kernel|BENCHMARKS: clone needs the network (it downloads a Git repository); use meta, which creates, stats and removes a source-like file tree offline
BENCHMARKS=disk|BENCHMARKS: unknown benchmark 'disk' (iops has fio, meta)
TARGET_PATH=$T/none|TARGET_PATH=$T/none: not a writable directory
EOF
"$IOPS" suite extra >"$T/out" 2>"$T/err"; rc=$?
assert_eq "argument: rc" 1 "$rc"
assert_eq "argument: message" "iops suite: no arguments (it reads the environment): 'extra'" "$(tail -n 1 "$T/err")"

# ---- DELETE_FIRST: an earlier run's tree (marker, iops' names) goes; nothing else does ------
mkdir -p "$D/iops-suite.99.1/d1" "$D/iops-suite.98.1" "$D/mine"
echo "iops meta tree 99" >"$D/iops-suite.99.1/.iops-layout"
echo x >"$D/iops-suite.99.1/d1/f3"
echo y >"$D/iops-suite.99.1/f4"
echo keep >"$D/iops-suite.98.1/f1"	# no marker: not iops'
echo keep >"$D/keep.txt"
suite BENCHMARKS=meta FIO_CAPACITY_MB=64 DELETE_FIRST=1 >"$T/out" 2>"$T/err"; rc=$?
assert_eq "delete_first rc" 0 "$rc"
assert_match "delete_first: says what" $'\nRemoved an earlier iops run\'s tree: '"$D"$'/iops-suite.99.1 \\(2 files\\)\n' "$(cat "$T/out")"
assert_eq "delete_first: the rest stays" "iops-suite.98.1
keep.txt
mine" "$(dir_listing "$D")"
assert_eq "delete_first: untouched" keep "$(cat "$D/iops-suite.98.1/f1")"
rm -rf "${D:?}"/*

# ---- SIGTERM in the middle of meta (the full tree) and of fio ---------------------------------
for b in meta fio; do
	(cd "$D" && exec env BENCHMARKS=$b FIO_CAPACITY_MB=500 FIO_RUNTIME=30 "$IOPS" suite) >"$T/out" 2>"$T/err" &
	pid=$!
	# mid-run: the quick child has written its 500 MiB test file (a loaded machine takes
	# longer), then four seconds of the next step, past its ramp; meta: as soon as the tree's
	# first entries exist (a fast disk makes its 20000 files in 1.5 s: a fixed delay may fall
	# after them)
	if [ "$b" = fio ]; then
		for _ in $(seq 240); do
			c=$(pgrep -P "$pid" | head -n 1)
			[ -n "$c" ] && [ "$(awk '/^wchar/ { print $2 }' "/proc/$c/io" 2>/dev/null || echo 0)" -ge $((500 << 20)) ] && break
			sleep 0.5
		done
		sleep 4
	else
		for _ in $(seq 600); do
			compgen -G "$D/iops-suite.*/*" >/dev/null && break
			sleep 0.05
		done
	fi
	kill -TERM "$pid"
	wait "$pid"; rc=$?
	assert_eq "SIGTERM $b: rc" 0 "$rc"
	assert_match "SIGTERM $b: benchmark line" $'\nBenchmark: '"$b"$'\n' "$(cat "$T/out")"
	assert_eq "SIGTERM $b: nothing left" "" "$(dir_listing "$D")"
	if [ "$b" = meta ]; then
		assert_match "SIGTERM meta: partial" $'\nStopped after [0-9]+ of 20000 files\nTime to create files: ' "$(cat "$T/out")"
	else
		assert_match "SIGTERM fio: partial summary" $'\nMax (read|write) bandwidth: ' "$(cat "$T/out")"
	fi
done
echo "t_suite: ok"
