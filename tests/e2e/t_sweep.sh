#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# sweep mode (simple-fio, seed 004): row counts = rw x bs x samples from options and from a
# config.file (with its Kubernetes keys and prefill), the result directories' names, CSV and
# JSON documents alone on stdout, every printed fio command line accepted by the real fio,
# SIGTERM mid-run (partial table, files removed), --keep, bad input creating nothing, and the
# directory left as it was.
. "$(dirname "$0")/lib.sh"
# the modes' fio jobs use libaio (fs-performance's and simple-fio's command lines): where the
# kernel refuses its queue (probed) they fail with iops' line naming psync, which t_fio_refused checks
! engine_refused libaio || skip_script "the jobs of this mode use libaio, which the kernel refuses here ($PROBE_WHY)"
need_ref_fio

D=$T/vol TMP=$T/tmp
mkdir "$D" "$TMP"
echo mine >"$D/keep.txt"
sweep() { (cd "$D" && TMPDIR=$TMP exec "$IOPS" sweep "$@"); }
left_as_it_was() {
	assert_eq "$1: directory as it was" "keep.txt" "$(dir_listing "$D")"
	assert_eq "$1: user file untouched" mine "$(cat "$D/keep.txt")"
	assert_eq "$1: no temporary left" "" "$(dir_listing "$TMP")"
}

# ---- options: 2 rw x 2 bs x 2 samples = 8 rows, CSV alone on stdout --------------------------
sweep --rw=read,randwrite --bs="4k 8k" --samples=2 --size=4m --runtime=1 --output-format=csv \
	>"$T/out" 2>"$T/err"; rc=$?
assert_eq "csv rc" 0 "$rc"
assert_eq "csv header" "rw,bs,sample,iops,bw_bytes,lat_mean_us,clat_p99_us,io_bytes,error,stopped" "$(head -n 1 "$T/out")"
assert_eq "csv rows" 8 "$(tail -n +2 "$T/out" | wc -l)"
assert_eq "csv order" "read,4k,1 read,4k,2 read,8k,1 read,8k,2 randwrite,4k,1 randwrite,4k,2 randwrite,8k,1 randwrite,8k,2" \
	"$(tail -n +2 "$T/out" | cut -d, -f1-3 | tr '\n' ' ' | sed 's/ $//')"
# size-bound steps: every step moved exactly 4 MiB, with no error
assert_eq "csv io_bytes" "4194304:0:0" "$(tail -n +2 "$T/out" | cut -d, -f8-10 | tr , : | sort -u)"
assert_eq "csv: headers on stderr" 8 "$(grep -c '^[A-Z][a-z][a-z] .* Sample=[12]; Block_Size=[48]k; job=[a-z]*; numjobs=1; iodepth=1$' "$T/err")"
left_as_it_was csv

# ---- a config.file as simple-fio users have it: prefill, Kubernetes keys, JSON, --results -----
cat >"$T/config.file" <<'CFG'
# OCS parameters
storage_type=ocs-storagecluster-ceph-rbd
# FIO execution parameters
server=3
sample=1
prefill=true
storage(Gi)=100
# FIO parameters
direct=0
rw=randwrite randread
bs=4K 16K
numjobs=2
time_based=0
runtime=1
size=4m
iodepth=4
log_avg_msec=100
CFG
sweep "$T/config.file" --output-format=json --results="$T/res" >"$T/out" 2>"$T/err"; rc=$?
assert_eq "config rc" 0 "$rc"
assert_eq "config: JSON steps" "4 randwrite/4K/1 randwrite/16K/1 randread/4K/1 randread/16K/1" "$(python3 -c '
import json,sys; d=json.load(open(sys.argv[1])); s=d["steps"]
print(len(s), " ".join("%s/%s/%d" % (x["rw"], x["bs"], x["sample"]) for x in s))' "$T/out")"
assert_eq "config: k8s note" "iops sweep: config keys for the Kubernetes renderer, not used here: server, storage_type, storage(Gi)" \
	"$(grep 'Kubernetes' "$T/err")"
assert_eq "config: prefill" 1 "$(grep -c '^\*\*\*\*\*\*\*\*\*Prefill' "$T/err")"
assert_match "config: prefill command" $'\nfio --name=prefill [^\n]* --rw=write --bs=256k --iodepth=1 --fsync_on_close=1 --create_on_open=1 ' "$(cat "$T/err")"
assert_match "config: write step options" $'\nfio --name=sweep [^\n]*--rw=randwrite --bs=4K --fsync_on_close=1 --create_on_open=1 --randrepeat=0 --allrandrepeat=0 ' "$(cat "$T/err")"
assert_match "config: read step options" $'\nfio --name=sweep [^\n]*--rw=randread --bs=16K --randrepeat=0 --allrandrepeat=0 --write_bw_log' "$(cat "$T/err")"
assert_eq "config: headers" 4 "$(grep -c 'Sample=1; Block_Size=[0-9]*K; job=rand[a-z]*; numjobs=2; iodepth=4$' "$T/err")"
(cd "$T/res" && ls) >"$T/dirs"
assert_eq "results: 5 directories" 5 "$(wc -l <"$T/dirs")"
assert_eq "results: names" "" "$(grep -vE '^(fio_(4K|16K)_rand(write|read)_sample1|prefill)_[0-9]{2}_[0-9]{2}_[0-9]{2}_[0-9]{2}_[0-9]{2}$' "$T/dirs")"
for d in $(cat "$T/dirs"); do
	python3 -c 'import json,sys; json.load(open(sys.argv[1]))["jobs"][0]' "$T/res/$d/fio.json" ||
		fail "results: $d/fio.json is not fio JSON"
	ls "$T/res/$d" | grep -q '_bw\.' || fail "results: $d has no bw log (log_avg_msec given)"
done
left_as_it_was config

# ---- every printed fio command line is accepted by the real fio --------------------------------
sweep --rw=randrw,write --bs=4k --size=4m --runtime=1 --numjobs=2 --prefill --rwmixread=70 >"$T/out" 2>"$T/err"; rc=$?
assert_eq "normal rc" 0 "$rc"
assert_eq "normal: table rows" 2 "$(sed -n '/^rw  *bs  *sample/,$p' "$T/out" | tail -n +2 | wc -l)"
grep '^fio --name=' "$T/out" >"$T/cmds"
assert_eq "commands printed" 3 "$(wc -l <"$T/cmds")"
n=0
while read -r line; do
	n=$((n + 1))
	line=$(printf '%s\n' "$line" | sed "s|--output=[^ ]*\$|--output=$T/ref$n.json|")
	eval "set -- ${line#fio }"
	(cd "$D" && "$REF_FIO" "$@") >"$T/ref.out" 2>&1 ||
		fail "real fio refused step $n: $line: $(cat "$T/ref.out")"
	python3 -c 'import json,sys; json.load(open(sys.argv[1]))["jobs"][0]' "$T/ref$n.json" ||
		fail "real fio step $n: no JSON"
done <"$T/cmds"
rm -f "$D"/iops-sweep.*
left_as_it_was "real fio"

# ---- --keep: the data files stay, under iops' names --------------------------------------------
sweep --rw=write --bs=64k --size=4m --numjobs=2 --keep >"$T/out" 2>"$T/err"; rc=$?
assert_eq "keep rc" 0 "$rc"
assert_match "keep: files" $'^iops-sweep\\.[0-9]+\\.0\niops-sweep\\.[0-9]+\\.1\nkeep\\.txt$' "$(dir_listing "$D")"
assert_match "keep: said so" "kept the data files" "$(cat "$T/err")"
rm -f "$D"/iops-sweep.*
left_as_it_was keep

# ---- --filename: a new one is created and removed; the user's own is read and kept ------------
sweep --filename="$D/new.dat" --rw=write,read --bs=64k --size=4m --output-format=csv >"$T/out" 2>"$T/err"; rc=$?
assert_eq "new filename rc" 0 "$rc"
assert_eq "new filename rows" "4194304 4194304" "$(tail -n +2 "$T/out" | cut -d, -f8 | tr '\n' ' ' | sed 's/ $//')"
left_as_it_was "new filename"
head -c 4194304 /dev/zero >"$D/user.dat"
sweep --filename="$D/user.dat" --rw=read --bs=64k --size=4m --output-format=csv >"$T/out" 2>"$T/err"; rc=$?
assert_eq "user filename rc" 0 "$rc"
assert_eq "user filename row" 4194304 "$(tail -n +2 "$T/out" | cut -d, -f8)"
assert_eq "user filename kept" "$(printf 'keep.txt\nuser.dat')" "$(dir_listing "$D")"
assert_eq "user filename untouched" 4194304 "$(head -c 4194304 /dev/zero | cmp - "$D/user.dat" && stat -c %s "$D/user.dat")"
rm -f "$D/user.dat"
left_as_it_was "user filename"

# ---- SIGTERM mid-run: the child stops, the partial table, nothing left --------------------------
(cd "$D" && TMPDIR=$TMP exec "$IOPS" sweep --rw=randread --bs=4k --samples=3 --size=8m --runtime=20 --time_based) \
	>"$T/out" 2>"$T/err" &
pid=$!
for _ in $(seq 50); do
	grep -q 'Sample=1' "$T/out" 2>/dev/null && break
	sleep 0.1
done
sleep 0.5
kill -TERM "$pid"
wait "$pid"; rc=$?
assert_eq "SIGTERM rc" 0 "$rc"
assert_match "SIGTERM: partial" $'\nStopped after 1 of 3 steps\nrw  *bs  *sample[^\n]*\nrandread +4k +1 [^\n]*\\(stopped\\)$' "$(cat "$T/out")"
assert_eq "SIGTERM: one step started" 1 "$(grep -c 'Sample=' "$T/out")"
left_as_it_was SIGTERM

# ---- bad input: one line, exit 1, nothing created -----------------------------------------------
printf 'rw=read\nbs=4k\nthis is not a setting\n' >"$T/bad.file"
while IFS='|' read -r args msg; do
	eval "set -- $args"
	sweep "$@" >"$T/out" 2>"$T/err"; rc=$?
	assert_eq "$args: rc" 1 "$rc"
	assert_eq "$args: message" "iops sweep: $msg" "$(cat "$T/err")"
	assert_eq "$args: stdout" "" "$(cat "$T/out")"
	left_as_it_was "$args"
done <<EOF
--rw=read,bogus|rw: 'bogus' is not one of read, write, randread, randwrite, rw, readwrite, randrw
--bs=0|bs: '0' is not a block size (1 byte to 256m, e.g. 4k)
--samples=0|samples: '0' is not a whole number from 1 to 1000
--numjobs=65|numjobs: '65' is not a whole number from 1 to 64
--directory=$T/none|directory=$T/none: not a writable directory
--output-format=terse|output-format: 'terse' is not normal, csv, json or openmetrics (json,openmetrics for both)
--iodepth|iodepth: a value is needed (--iodepth=...)
-x|unknown option '-x' (see 'iops sweep --help')
--server=3|unknown option 'server' (see 'iops sweep --help')
$T/bad.file|$T/bad.file:3: not a key=value line
$T/none.file|cannot read the config file $T/none.file: No such file or directory
a b|one config file only: 'a' and 'b'
EOF
sweep --size=1p >"$T/out" 2>"$T/err"; rc=$?
assert_eq "no space: rc" 1 "$rc"
assert_match "no space: message" "^iops sweep: $D has [0-9]+ MiB free; the files need 1073741824 MiB \\(size x numjobs\\) and a tenth of the free space stays free \\(lower size or numjobs\\)$" "$(cat "$T/err")"
assert_eq "no space: stdout" "" "$(cat "$T/out")"
left_as_it_was "no space"
"$IOPS" sweep --help >"$T/out"; rc=$?
assert_eq "help rc" 0 "$rc"
assert_match "help" '^Usage: iops sweep \[CONFIG\] \[options\]' "$(cat "$T/out")"
echo "t_sweep: ok"
