#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# ioping mode: one SIGINT or SIGTERM ends the run with the summary (or a closed JSON array)
# and exit 0; a second signal exits 4 at once. Nothing is left in the target directory.
. "$(dirname "$0")/lib.sh"

D=$T/dir
mkdir "$D"

# signal_run SIGNAL ARGS...: run in the background, signal after ~1 s, wait.
signal_run() {
	local sig=$1; shift
	"$IOPS" ioping "$@" >"$T/out" 2>"$T/err" &
	local pid=$!
	sleep 1
	kill -"$sig" "$pid"
	wait "$pid"
}

for sig in INT TERM; do
	signal_run "$sig" -i 0.2 "$D"; rc=$?
	assert_eq "SIG$sig rc" 0 "$rc"
	out=$(cat "$T/out")
	assert_match "SIG$sig: requests printed" 'request=3 time=' "$out"
	assert_match "SIG$sig: summary" $'\n\n--- .* ioping statistics ---\n[0-9.]+( k)? requests completed in .*\ngenerated [0-9]+ requests in .*\nmin/avg/max/mdev = ' "$out"
	assert_eq "SIG$sig: stderr" "" "$(cat "$T/err")"
	assert_eq "SIG$sig: nothing left" "" "$(dir_listing "$D")"
done

signal_run INT -i 0.2 -J "$D"; rc=$?
assert_eq "JSON SIGINT rc" 0 "$rc"
jq -e '.[-1].load.count >= 3' "$T/out" >/dev/null || fail "JSON after SIGINT: not a closed, valid array"

signal_run INT -i 0.2 -B "$D"; rc=$?
assert_eq "-B SIGINT rc" 0 "$rc"
assert_match "-B SIGINT raw line" '^[0-9]+( [0-9]+){9}$' "$(cat "$T/out")"

# A second signal before the end exits 4 (ioping: a second SIGINT). SIGINT and SIGTERM are
# sent while the process is stopped, so both are pending when it goes on (two different
# signals are never merged): the signal thread has the second one at once, however fast the
# run would print and exit after the first (on tmpfs its clean-up took less time than the
# second kill, which then found no process).
n4=0
for i in 1 2 3; do
	"$IOPS" ioping -i 0.2 "$D" >"$T/out" 2>"$T/err" &
	pid=$!
	sleep 0.5
	kill -STOP "$pid"; kill -INT "$pid"; kill -TERM "$pid"; kill -CONT "$pid"
	wait "$pid"; rc=$?
	case $rc in
	4) n4=$((n4 + 1)) ;;
	0) ;;
	*) fail "double signal rc: $rc" ;;
	esac
done
[ "$n4" -ge 1 ] || fail "double signal never exited 4"
assert_eq "double signal: nothing left" "" "$(dir_listing "$D")"
