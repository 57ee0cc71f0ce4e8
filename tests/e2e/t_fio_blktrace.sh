#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# shellcheck disable=SC2086,SC2015 # $B and $L are option words; a && b || fail
# read_iolog with blktrace binary traces, against fio 3.33. The traces are built here (python3,
# struct blk_io_trace: 48 bytes + payload, either byte order), every I/O redirected
# (replay_redirect) to a file of the test's own: fio and the binary under test replay the same
# trace and issue the same I/O in the same order (direction, offset, length from the clat log
# with log_offset=1, psync: one at a time; fio turns write_iolog off for a replay), the same
# totals and syncs; replay_scale/replay_align/replay_skip, read_iolog_chunked, one trace per
# clone, a traced device found in /dev (a loop device over a file of the test), the trace's
# timing (replay_no_stall, replay_time_scale; from the page cache) and iodepth (the note of a
# sync engine). Bad traces: exit 1, one line, nothing created (fio 3.33 crashes on a version
# other than 7 and ignores a cut record). merge_blktrace_file: fio 3.33 fails every merge
# ("iolog short read", an empty file, then replays the first trace): the merged file of the
# binary under test is compared byte for byte with a merge done here from fio's documentation
# (and read back by blkparse when it is installed), its replay with the events merged.
. "$(dirname "$0")/fio_common.sh"
command -v python3 >/dev/null || missing_prereq "python3 is required to build the traces"

FIO_PAR=${FIO_PAR:-4}
B="--name=j --ioengine=psync --replay_redirect=f"
D=$((7 << 20))			# device 7:0 (the redirect sends every I/O to f)
QR=10001 QW=20001 QF=40001 QD=20000001 CR=10008 CW=20008 MR=10002 NP=4000000 NT=4000001

# gen OUT [swap] < "time_ns sector bytes action(hex) device [pdu_len [magic(hex)]]" lines
cat >"$T/gen.py" <<'PY'
import struct, sys
out, swap = sys.argv[1], len(sys.argv) > 2 and sys.argv[2] == 'swap'
fmt = ('>' if swap else '<') + 'IIQQIIIIIHH'
with open(out, 'wb') as f:
    for seq, line in enumerate(l for l in sys.stdin if l.split()):
        p = line.split()
        pdu = int(p[5]) if len(p) > 5 else 0
        magic = int(p[6], 16) if len(p) > 6 else 0x65617407
        f.write(struct.pack(fmt, magic, seq, int(p[0]), int(p[1]), int(p[2]), int(p[3], 16), 4321, int(p[4]),
                            seq % 2, 0, pdu) + b'n' * pdu)
PY
# merge OUT SCALARS ITERS TRACE...: fio's documented merge (queue events of reads, writes and
# discards, times scaled in percent, each pass shifted by the trace's last such event, ordered
# by time then trace), written in this machine's order without payloads
cat >"$T/merge.py" <<'PY'
import struct, sys
out, scal, iters, traces = sys.argv[1], sys.argv[2].split(':'), sys.argv[3].split(':'), sys.argv[4:]
evs = []
for i, path in enumerate(traces):
    d, o, kept = open(path, 'rb').read(), 0, []
    e = '<' if struct.unpack_from('<I', d)[0] >> 8 == 0x656174 else '>'
    while o < len(d):
        r = list(struct.unpack_from(e + 'IIQQIIIIIHH', d, o))
        o += 48 + r[10]
        if r[5] & 0xffff == 1 and r[5] & (1 << 16 | 1 << 17 | 1 << 29):
            kept.append(r)
    for k in range(int(iters[i])):
        for n, r in enumerate(kept):
            t = (r[2] + k * kept[-1][2]) * int(scal[i]) // 100
            evs.append((t, i, k, n, r[:2] + [t] + r[3:10] + [0]))
with open(out, 'wb') as f:
    for ev in sorted(evs, key=lambda x: x[:4]):
        f.write(struct.pack('=IIQQIIIIIHH', *ev[4]))
PY
gen() { python3 "$T/gen.py" "$@"; }

mkdir -p "$T/tr"
# reads and writes of several sizes, with payloads (notifications), merges, completions, a flush
{
	echo "0 0 0 $NP $D 12"
	echo "1000 8 4096 $QR $D"
	echo "1500 0 0 $NT $D 8"
	echo "2000 100 8192 $QW $D"
	echo "2100 116 4096 $QW $D"
	echo "2200 116 4096 $MR $D"
	echo "2500 8 4096 $CR $D"
	echo "3000 40 512 $QR $D 16"
	echo "4000 0 0 $QF $D"
	echo "4500 1000 65536 $QW $((D + 1))"
	echo "5000 333 1024 $QR $D"
	echo "5100 100 8192 $CW $D"
	echo "6000 7 3584 $QW $D"
} >"$T/tr/basic.txt"
gen "$T/tr/basic.bin" <"$T/tr/basic.txt"
gen "$T/tr/swapped.bin" swap <"$T/tr/basic.txt"
# (4 KiB each: fio 3.33 aborts, realloc(): invalid pointer, when a chunk has larger I/O than bs)
awk -v r=$QR -v w=$QW -v d=$D 'BEGIN { for (i = 0; i < 3000; i++) print i * 10, (i * 7919 % 256) * 8, 4096, (i % 3 ? r : w), d }' |
	gen "$T/tr/big.bin"
printf '%s\n' "1000 0 4096 $QR $D" "100001000 8 4096 $QR $D" "200001000 16 4096 $QR $D" "300001000 24 4096 $QR $D" \
	"400001000 32 4096 $QR $D" | gen "$T/tr/timed.bin"
printf '%s\n' "10 0 4096 $QR $D" "20 8 4096 $QR $D" "30 16 4096 $QR $D" "40 0 4096 $CR $D" "50 24 4096 $QW $D" |
	gen "$T/tr/deep.bin"
printf '%s\n' "10 0 4096 $QR $D" "20 8 0 $QR $D" "30 16 4096 $QW $D" | gen "$T/tr/zero.bin"
printf '%s\n' "10 0 4096 $QR $D" "20 8 4096 $QR $D 0 65617406" | gen "$T/tr/badver.bin"
head -c 70 "$T/tr/deep.bin" >"$T/tr/cut.bin"
printf '%s\n' "10 0 4096 $QR $((4095 << 20 | 77))" | gen "$T/tr/nodev.bin"
printf '%s\n' "10 0 4096 $CR $D" "20 0 0 $NT $D 4" | gen "$T/tr/noio.bin"

printf '%s\n' "100 0 4096 $QR $D" "300 8 4096 $QW $D 8" "350 8 4096 $CW $D" "400 0 0 $QF $D" "500 16 4096 $QR $D" |
	gen "$T/tr/ma.bin"
printf '%s\n' "50 64 512 $QR $((8 << 20))" "200 72 1024 $QW $((8 << 20))" "260 0 0 $NT $D 12" \
	"300 80 4096 $QD $((8 << 20))" "300 96 4096 $QR $((8 << 20))" | gen "$T/tr/mb.bin" swap
M="$T/tr/ma.bin:$T/tr/mb.bin"

# every run in its own directory; fio reads the f that is there, iops lays out its own
prep() {
	local s
	for s in ref ut; do
		mkdir -p "$T/$1.$s.d"
		if [ "$s" = ref ] || [ "$UT_IS_FIO" = 1 ]; then head -c 2m /dev/zero >"$T/$1.$s.d/f"; fi
	done
}
totals() { json_doc "$T/$1.$2.out" | jq -r '.jobs[] | "\(.error) \(.read.total_ios) \(.read.io_bytes) \(.write.total_ios) \(.write.io_bytes) \(.sync.total_ios // 0)"'; }
# "ddir length offset" of every I/O, in the order they completed (one at a time: issued)
ios() { awk -F', ' '{ print $3, $4, $5 }' "$T/$1.$2.d/q_clat.1.log"; }
note() { cat "$T/$1.$2.out" "$T/$1.$2.err" | grep -c '^note: both iodepth'; }

L="--write_lat_log=q --log_offset=1 --output-format=json"
for c in basic swapped; do prep "$c"; par_run run_pair "$c" $B --read_iolog="$T/tr/$c.bin" $L; done
prep scale && par_run run_pair scale $B --read_iolog="$T/tr/basic.bin" --replay_scale=3 --replay_align=4096 $L
prep skip && par_run run_pair skip $B --read_iolog="$T/tr/basic.bin" --replay_skip=read,sync $L
prep chunk && par_run run_pair chunk $B --read_iolog="$T/tr/big.bin" --read_iolog_chunked=1 $L
prep clones && par_run run_pair clones $B --read_iolog="$T/tr/basic.bin:$T/tr/deep.bin" --numjobs=2 \
	--output-format=json
for c in plain:--replay_no_stall=0 nostall:--replay_no_stall=1 fast:--replay_time_scale=200; do
	prep "tm_${c%%:*}" && par_run run_pair "tm_${c%%:*}" $B --read_iolog="$T/tr/timed.bin" "${c#*:}" --invalidate=0 --output-format=json
done
prep deep && par_run run_pair deep $B --read_iolog="$T/tr/deep.bin" $L
prep deep1 && par_run run_pair deep1 $B --read_iolog="$T/tr/deep.bin" --iodepth=1 $L
prep zero && par_run run_pair zero $B --read_iolog="$T/tr/zero.bin" $L
for b in nodev noio; do	# fio: "did not find replay device(s)", "found no ios in blktrace data"
	par_run run_pair "bad_$b" --name=j --ioengine=psync --read_iolog="$T/tr/$b.bin"
done
for b in badver cut; do par_run run_one ut "bad_$b" $B --read_iolog="$T/tr/$b.bin"; done
prep mg && par_run run_pair mg $B --read_iolog="$M" --merge_blktrace_file=m.bin --replay_skip=trim --output-format=json
prep mg_si && par_run run_pair mg_si $B --read_iolog="$M" --merge_blktrace_file=m.bin --merge_blktrace_scalars=50:200 \
	--merge_blktrace_iters=3:2 --replay_skip=trim --output-format=json
for c in "count|--merge_blktrace_file=m.bin --merge_blktrace_scalars=50" "nofile|--merge_blktrace_iters=2:1" \
	"input|--merge_blktrace_file=$T/tr/ma.bin" "text|--merge_blktrace_file=keep" "redirect|--merge_blktrace_file=f"; do
	mkdir -p "$T/mbad_${c%%|*}.ut.d"
	echo precious >"$T/mbad_${c%%|*}.ut.d/keep"
	# shellcheck disable=SC2086 # the options are words
	par_run run_one ut "mbad_${c%%|*}" $B --read_iolog="$M" ${c#*|}
done
mkdir -p "$T/mbad_noread.ut.d" && echo precious >"$T/mbad_noread.ut.d/keep"
par_run run_one ut mbad_noread --name=j --ioengine=null --size=64k --merge_blktrace_file=m.bin
par_wait

for c in basic swapped scale skip chunk deep deep1 zero; do
	assert_eq "$c: exit status" "$(rc_of $c ref)" "$(rc_of $c ut)"
	assert_eq "$c: totals" "$(totals $c ref)" "$(totals $c ut)"
	diff <(ios $c ref) <(ios $c ut) >"$T/$c.diff" || fail "$c: I/O differs (< fio, > ours): $(head -20 "$T/$c.diff")"
	case_ran
done
assert_eq "basic: the trace's I/O (flush: a sync; the second device redirected too)" \
	"0 3 5632 4 81408 1" "$(totals basic ut)"
assert_eq "scale: offsets /3 aligned down, lengths up to 4096" "0 4096 0|1 8192 16384|1 4096 16384|0 4096 4096|1 65536 167936|0 4096 53248|1 4096 0" \
	"$(ios scale ut | tr '\n' '|' | sed 's/|$//')"
assert_eq "skip: writes only" "0 0 0 4 81408 0" "$(totals skip ut)"
assert_eq "chunk: 3000 I/Os" "0 2000 8192000 1000 4096000 0" "$(totals chunk ut)"
assert_eq "clones: one trace each" "$(totals clones ref)" "$(totals clones ut)"
assert_eq "clones: two jobs" 2 "$(totals clones ut | wc -l)"
# the trace's depth (3 queued before a completion) is the job's iodepth unless given
assert_eq "deep: note (fio)" 1 "$(note deep ref)"
assert_eq "deep: note" 1 "$(note deep ut)"
assert_eq "deep1: no note (fio)" 0 "$(note deep1 ref)"
assert_eq "deep1: no note" 0 "$(note deep1 ut)"
for c in plain nostall fast; do
	assert_eq "tm_$c: exit status" "$(rc_of tm_$c ref)" "$(rc_of tm_$c ut)"
	assert_eq "tm_$c: totals" "$(totals tm_$c ref)" "$(totals tm_$c ut)"
	case_ran
done
for s in ref ut; do
	# 400 ms of trace: about that, no stall at all, half of it at 200%
	rt() { json_doc "$T/$1.$s.out" | jq '.jobs[0].read.runtime'; }
	p=$(rt tm_plain) n=$(rt tm_nostall) f=$(rt tm_fast)
	[ "$p" -ge 380 ] && [ "$p" -le 1500 ] || fail "tm_plain $s: runtime $p ms for a 400 ms trace"
	[ "$n" -le 250 ] || fail "tm_nostall $s: runtime $n ms, expected no stalls"
	[ "$f" -ge 180 ] && [ "$f" -le 1000 ] || fail "tm_fast $s: runtime $f ms for 400 ms at 200%"
done

# ---- no redirect: the traced device is found in /dev (a loop device over a file of the test) --
truncate -s 4m "$T/img"
if loop_attach "$T/img"; then
	read -r ma mi <<<"$(stat -c '%t %T' "$LOOP")"
	LD=$((16#$ma << 20 | 16#$mi))
	printf '%s\n' "1000 8 4096 $QR $LD" "2000 100 8192 $QW $LD" "3000 16 4096 $QR $LD" "4000 0 0 $QF $LD" | gen "$T/tr/loop.bin"
	ut_extra=--allow_overwrite=1	# iops writes to a device only when told to
	skip_if_fio "no allow_overwrite for fio" && ut_extra=
	run_one ref dev --name=j --ioengine=psync --read_iolog="$T/tr/loop.bin" $L
	run_one ut dev --name=j --ioengine=psync --read_iolog="$T/tr/loop.bin" $ut_extra $L
	losetup -d "$LOOP"
	assert_eq "dev: exit status" "$(rc_of dev ref)" "$(rc_of dev ut)"
	assert_eq "dev: totals" "$(totals dev ref)" "$(totals dev ut)"
	assert_eq "dev: the trace's I/O" "0 2 8192 1 8192 1" "$(totals dev ut)"
	diff <(ios dev ref) <(ios dev ut) >"$T/dev.diff" || fail "dev: I/O differs (< fio, > ours): $(head -20 "$T/dev.diff")"
	case_ran
else
	case_skip "the traced device in /dev: no loop device here ($PROBE_WHY)"
fi

# ---- bad traces --------------------------------------------------------------------------------
for b in nodev noio; do
	assert_eq "bad_$b: exit status" "$(rc_of "bad_$b" ref)" "$(rc_of "bad_$b" ut)"
done
if ! skip_if_fio "iops refuses bad traces before the run"; then
	for b in nodev:"no block device 4095:77 in /dev" noio:"found no ios in blktrace" \
		badver:"version 6 is not supported \\(7 is\\) at byte 48" cut:"truncated record at byte 48"; do
		n=bad_${b%%:*}
		assert_eq "$n: exit 1" 1 "$(rc_of "$n" ut)"
		assert_eq "$n: one line" 1 "$(wc -l <"$T/$n.ut.err")"
		assert_match "$n: message" "^fio: j: .*${b#*:}" "$(cat "$T/$n.ut.err")"
		assert_eq "$n: nothing created" "" "$(dir_listing "$T/$n.ut.d")"
	done
	assert_match "zero: a warning" "ignoring 1 zero byte events" "$(cat "$T/zero.ut.err")"
fi

# ---- merge_blktrace_file ------------------------------------------------------------------------
# fio 3.33: every merge fails its first read, leaves the file empty and replays the first trace
assert_match "mg: fio's merge fails" "iolog short read" "$(cat "$T/mg.ref.err" "$T/mg.ref.out")"
assert_eq "mg: fio's merged file" 0 "$(stat -c %s "$T/mg.ref.d/m.bin")"
if ! skip_if_fio "the merge of fio 3.33 does not work"; then
	python3 "$T/merge.py" "$T/mg.want" 100:100 1:1 "$T/tr/ma.bin" "$T/tr/mb.bin"
	python3 "$T/merge.py" "$T/mg_si.want" 50:200 3:2 "$T/tr/ma.bin" "$T/tr/mb.bin"
	for c in mg mg_si; do
		assert_eq "$c: exit 0" 0 "$(rc_of $c ut)"
		cmp "$T/$c.want" "$T/$c.ut.d/m.bin" || fail "$c: the merged trace differs from fio's documented merge"
		case_ran
	done
	assert_eq "mg: 7 events merged" $((7 * 48)) "$(stat -c %s "$T/mg.ut.d/m.bin")"
	assert_eq "mg: the merge replayed (trims skipped)" "0 4 12800 2 5120 0" "$(totals mg ut)"
	assert_eq "mg_si: 3 and 2 passes replayed" "0 10 33792 5 14336 0" "$(totals mg_si ut)"
	if command -v blkparse >/dev/null; then
		assert_eq "mg_si: blkparse reads the merge (queue events, discards)" "17 2" \
			"$(blkparse -i - -f '%a %3d\n' <"$T/mg_si.ut.d/m.bin" 2>/dev/null | awk '$1 == "Q" { n++ } $2 == "D" { d++ } END { print n, d }')"
	fi
	for c in "count|merge_blktrace_scalars\\(1\\) != nr_logs\\(2\\)" "nofile|merge_blktrace_iters needs merge_blktrace_file" \
		"input|is one of the traces it merges" "text|it exists and is not a blktrace" \
		"redirect|is the replay_redirect target" "noread|merge_blktrace_\\* needs read_iolog"; do
		n=mbad_${c%%|*}
		assert_eq "$n: exit 1" 1 "$(rc_of "$n" ut)"
		assert_eq "$n: one line" 1 "$(wc -l <"$T/$n.ut.err")"
		assert_match "$n: message" "^fio: j: .*${c#*|}" "$(cat "$T/$n.ut.err")"
		assert_eq "$n: nothing created" "keep" "$(dir_listing "$T/$n.ut.d")"
		assert_eq "$n: untouched" precious "$(cat "$T/$n.ut.d/keep")"
	done
fi
echo "t_fio_blktrace: ok"
