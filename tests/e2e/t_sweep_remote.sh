#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# iops sweep CONFIG --client=HOSTS: seed 004's sweep across three iops servers on 127.0.0.2-.4
# from a simple-fio config.file. A row per step, each All clients' with servers 3/3; the log
# has seed 004's header line per step and an All clients block with percentiles; --results
# keeps one ustar archive per step (fio_<bs>_<rw>_sample<N>_<date>.tar, prefill_<date>.tar)
# holding each server's json+ and All clients, whose sums are exact (merge_check.py) and
# whose figures are the row's; nothing is left in the servers' directories. Then a server
# killed mid-sweep: that step reports the failure, the others go on with the two left
# (rows with servers 2/3), exit 1, nothing left in the surviving servers' directories.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/remote_common.sh"
command -v jq >/dev/null || missing_prereq "jq is required"
command -v tar >/dev/null || missing_prereq "tar is required"

ADDRS=(127.0.0.2 127.0.0.3 127.0.0.4)
PORT=$(pick_port "${ADDRS[@]}")
: >"$T/hosts"
spid=()
for i in 0 1 2; do
	start_server "s$i" "$T/d$i" --server=ip:${ADDRS[$i]},$PORT
	spid[$i]=$SERVER_PID
	echo "${ADDRS[$i]},$PORT" >>"$T/hosts"
done
conf() {	# conf FILE RUNTIME
	printf '%s\n' "# simple-fio's config.file shape (seed 004)" storageclass=standard volumemode=Filesystem \
		server=3 sample=1 prefill=true 'storage(Gi)=1' 'rw=randread randwrite' 'bs=4k 16k' iodepth=1 \
		numjobs=2 size=4m ioengine=psync direct=0 time_based=1 "runtime=$2" >"$1"
}
conf "$T/config.file" 1

# 1. the whole sweep
"$IOPS" sweep "$T/config.file" --client="$T/hosts" --results="$T/res" --output-format=json >"$T/sw.json" 2>"$T/sw.log" ||
	fail "sweep: exit $?: $(tail -5 "$T/sw.log")"
assert_eq "rows" 4 "$(jq '.steps | length' "$T/sw.json")"
assert_eq "servers per row" "3 3 3 3" "$(jq -r '[.steps[].servers] | map(tostring) | join(" ")' "$T/sw.json")"
assert_eq "steps" "randread/4k randread/16k randwrite/4k randwrite/16k" \
	"$(jq -r '[.steps[] | "\(.rw)/\(.bs)"] | join(" ")' "$T/sw.json")"
for rw in randread randwrite; do
	for bs in 4k 16k; do
		grep -qE "^[A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9]{2} [0-9:]{8} [A-Z]+ [0-9]{4} Sample=1; Block_Size=$bs; job=$rw; numjobs=2; iodepth=1$" \
			"$T/sw.log" || fail "no header line for $rw $bs: $(grep Sample "$T/sw.log")"
	done
done
assert_eq "All clients blocks" 5 "$(grep -c '^All clients: (groupid=0, jobs=6)' "$T/sw.log")"
assert_eq "percentile blocks" 5 "$(grep -c '^    clat percentiles' "$T/sw.log")"
case_ran
# the archives: a real tar per step under simple-fio's names, exact sums inside
ls "$T/res" >"$T/res.list"
assert_eq "archives" 5 "$(wc -l <"$T/res.list")"
grep -qE '^prefill_[0-9_]{14}\.tar$' "$T/res.list" || fail "no prefill archive: $(cat "$T/res.list")"
k=0
for rw in randread randwrite; do
	for bs in 4k 16k; do
		tarf=$(grep -E "^fio_${bs}_${rw}_sample1_[0-9_]{14}\.tar$" "$T/res.list") || fail "no archive for $rw $bs: $(cat "$T/res.list")"
		mkdir -p "$T/x$k"
		tar -xf "$T/res/$tarf" -C "$T/x$k" || fail "$tarf: not a tar archive"
		assert_eq "$tarf members" "127.0.0.2_$PORT.json 127.0.0.3_$PORT.json 127.0.0.4_$PORT.json all_clients.json all_clients.txt" \
			"$(ls "$T/x$k" | tr '\n' ' ' | sed 's/ $//')"
		out=$(python3 "$(dirname "$0")/merge_check.py" "$T/x$k/all_clients.json" "$T/x$k"/127.*.json)
		[ -z "$out" ] || fail "$tarf: All clients is not the exact sum: $out"
		want=$(jq '.client_stats[-1] | .read.iops + .write.iops' "$T/x$k/all_clients.json")
		got=$(jq ".steps[$k].iops" "$T/sw.json")
		awk -v a="$want" -v b="$got" 'BEGIN { exit !(a - b < 0.01 && b - a < 0.01) }' || fail "$tarf: row iops $got, All clients $want"
		grep -q '^All clients: ' "$T/x$k/all_clients.txt" || fail "$tarf: all_clients.txt"
		k=$((k + 1))
	done
done
for i in 0 1 2; do wait_for dir_empty "$T/d$i" || fail "server $i keeps $(ls -A "$T/d$i")"; done
case_ran

# 2. a server killed mid-sweep: its step fails, the others go on without it
conf "$T/config2.file" 2
"$IOPS" sweep "$T/config2.file" --client="$T/hosts" --output-format=json >"$T/k.json" 2>"$T/k.log" &
swpid=$!
wait_for grep -q "Sample=1; Block_Size=16k; job=randread" "$T/k.log" || fail "sweep 2: the second step never started"
sleep 0.5
child=$(cat "/proc/${spid[2]}/task/${spid[2]}/children" 2>/dev/null)
# shellcheck disable=SC2086 # the session child's pid, if any
kill -9 "${spid[2]}" $child
wait "$swpid"
rc=$?
assert_eq "sweep with a dead server: exit" 1 "$rc"
grep -q "fio_16k_randread_sample1_[0-9_]*: ran on 2 of 3 servers" "$T/k.log" || fail "the failed step: $(grep -i 'ran on\|lost' "$T/k.log")"
grep -q "127.0.0.4,$PORT: connection lost" "$T/k.log" || fail "no connection lost line: $(grep 127.0.0.4 "$T/k.log")"
assert_eq "rows after the death" 4 "$(jq '.steps | length' "$T/k.json")"
assert_eq "servers after the death" "3 2 2 2" "$(jq -r '[.steps[].servers] | map(tostring) | join(" ")' "$T/k.json")"
assert_eq "failed servers" "0 1 1 1" "$(jq -r '[.steps[].servers_failed] | map(tostring) | join(" ")' "$T/k.json")"
for i in 0 1; do wait_for dir_empty "$T/d$i" || fail "surviving server $i keeps $(ls -A "$T/d$i")"; done
case_ran
echo "t_sweep_remote: $E2E_CASES_RUN cases"
