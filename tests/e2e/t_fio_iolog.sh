#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# e2e: alone (replay timing: the runtimes of a 400 ms trace, without stalls and at 200 %)
# write_iolog / read_iolog against fio 3.33: both sides write the same trace (format v3, the
# same I/O lines for deterministic jobs, one line per I/O), each side replays the other's log
# with the totals of the run that wrote it; replay timing (v3 timestamps, replay_no_stall,
# replay_time_scale), replay_scale/replay_align/replay_skip/replay_redirect give the same I/O
# as fio (offsets compared through the clat log's offset column); read_iolog_chunked reads a
# log longer than one chunk; rw=read:512k bs=1m ends at the end of the file (fio's t0007);
# bad logs: exit 1, one line, nothing created.
. "$(dirname "$0")/fio_common.sh"

FIO_PAR=${FIO_PAR:-4}
B="--ioengine=psync --filename=f --bs=4k"

totals() { json_doc "$T/$1.$2.out" | jq -r '.jobs[0] | "\(.error) \(.read.total_ios) \(.read.io_bytes) \(.write.total_ios) \(.write.io_bytes)"'; }
# the I/O lines of a log without their timestamps
io_lines() { awk 'NR > 1 && NF == 5 { print $2, $3, $4, $5 }' "$1"; }
# "ddir offset bs" of every I/O in a clat log (log_offset=1), sorted
offsets() { awk -F', ' '{ print $3, $5, $4 }' "$1" | sort; }

# ---- write_iolog -------------------------------------------------------------------------
par_run run_pair seq --name=s $B --rw=write --size=256k --fsync=8 --write_iolog=io.log --output-format=json
par_run run_pair rnd --name=r $B --rw=randread --size=256k --randrepeat=1 --write_iolog=io.log --output-format=json
par_run run_pair mix --name=m $B --rw=randrw --size=512k --randrepeat=1 --write_iolog=io.log --output-format=json
par_run run_pair loop --name=l $B --rw=read --size=64k --loops=2 --write_iolog=io.log --output-format=json
# (holes reads with O_DIRECT where the kernel allows it in $T; its offsets are the same buffered)
holes_direct=--direct=1
! direct_refused || { holes_direct=--direct=0; skip_note "holes: buffered, the kernel refuses O_DIRECT here ($PROBE_WHY)"; }
par_run run_pair holes --name=foo --size=32m --rw=read:512k --bs=1m --norandommap --write_iolog=log "$holes_direct" \
	--output-format=json
par_wait

for c in seq rnd mix loop holes; do
	assert_eq "$c: exit status" "$(rc_of $c ref)" "$(rc_of $c ut)"
	if [ "$c" = mix ]; then	# the read/write split is the random generator's: the sum is fio's
		assert_eq "$c: totals" "$(totals $c ref | awk '{ print $2 + $4, $3 + $5 }')" \
			"$(totals $c ut | awk '{ print $2 + $4, $3 + $5 }')"
	else
		assert_eq "$c: totals" "$(totals $c ref)" "$(totals $c ut)"
	fi
	lf=io.log
	[ "$c" = holes ] && lf=log
	for s in ref ut; do
		log=$T/$c.$s.d/$lf
		[ -f "$log" ] || fail "$c $s: no $lf"
		assert_eq "$c $s: header" "fio version 3 iolog" "$(head -n1 "$log")"
		# every line: a timestamp, a name, an action (and offset length); times never go back
		awk 'NR > 1 { if ($1 !~ /^[0-9]+$/ || $1 < p) bad = bad " " NR; p = $1
			if (!((NF == 3 && $3 ~ /^(add|open|close)$/) || (NF == 5 && $3 ~ /^(read|write|trim|sync|datasync)$/ &&
			      $4 ~ /^[0-9]+$/ && $5 ~ /^[0-9]+$/))) bad = bad " " NR }
			END { if (bad != "") { print "bad lines:" bad; exit 1 } }' "$log" || fail "$c $s: see above"
		read -r _ rios _ wios _ <<<"$(totals $c $s)"
		assert_eq "$c $s: read lines" "$rios" "$(io_lines "$log" | grep -c ' read ')"
		assert_eq "$c $s: write lines" "$wios" "$(io_lines "$log" | grep -c ' write ')"
	done
	# the file actions are the same (add, open, close: once per loop)
	assert_eq "$c: file lines" "$(awk 'NF == 3 { print $2, $3 }' "$T/$c.ref.d/$lf")" \
		"$(awk 'NF == 3 { print $2, $3 }' "$T/$c.ut.d/$lf")"
	case_ran
done
# sequential jobs: the same I/O in the same order (syncs included)
for c in seq loop holes; do
	lf=io.log
	[ "$c" = holes ] && lf=log
	diff <(io_lines "$T/$c.ref.d/$lf") <(io_lines "$T/$c.ut.d/$lf") >"$T/$c.diff" ||
		fail "$c: I/O lines differ: $(head -20 "$T/$c.diff")"
done
assert_eq "seq: syncs (fsync=8: before the write after each 8th, 64 writes)" 7 "$(io_lines "$T/seq.ut.d/io.log" | grep -c ' sync ')"
# the random map: every block once, whatever the order
assert_eq "rnd: same blocks" "$(io_lines "$T/rnd.ref.d/io.log" | sort)" "$(io_lines "$T/rnd.ut.d/io.log" | sort)"
assert_eq "mix: same blocks" "$(io_lines "$T/mix.ref.d/io.log" | awk '{ print $3, $4 }' | sort)" \
	"$(io_lines "$T/mix.ut.d/io.log" | awk '{ print $3, $4 }' | sort)"
# fio's t0007 (rw=read:512k bs=1m, each I/O 1.5 MiB after the last, no wrap): 21 I/Os in 32 MiB
assert_eq "holes: t0007 I/Os" "0 21 22020096 0 0" "$(totals holes ut)"

# ---- each side replays the other's log -----------------------------------------------------
# prep_replay NAME SRC_CASE SRC_SIDE: the log (and for fio, the data file it reads) in place
prep_replay() {
	local name=$1 c=$2 s=$3 side
	for side in ref ut; do
		mkdir -p "$T/$name.$side.d"
		cp "$T/$c.$s.d/io.log" "$T/$name.$side.d/in.log"
		# fio reads what is there (a missing file is created empty); iops lays out its own
		if [ "$side" = ref ] || [ "$UT_IS_FIO" = 1 ]; then cp "$T/$c.$s.d/f" "$T/$name.$side.d/f"; fi
	done
}
for c in seq rnd mix loop; do
	for s in ref ut; do
		prep_replay "rp_${c}_$s" "$c" "$s"
		par_run run_pair "rp_${c}_$s" --name=r --read_iolog=in.log --output-format=json
	done
done
par_wait
for c in seq rnd mix loop; do
	for s in ref ut; do
		n=rp_${c}_$s
		for side in ref ut; do
			assert_eq "$n $side: replays $c's $s log: totals" "$(totals "$c" "$s")" "$(totals "$n" "$side")"
		done
		assert_eq "$n: syncs" "$(json_doc "$T/$n.ref.out" | jq '.jobs[0].sync.lat_ns.N // 0')" \
			"$(json_doc "$T/$n.ut.out" | jq '.jobs[0].sync.lat_ns.N // 0')"
	done
	case_ran
done

# ---- timing, offsets, skip, redirect, chunks -------------------------------------------------
for s in ref ut; do
	mkdir -p "$T/logs.$s"
	printf 'fio version 3 iolog\n10 f add\n20 f open\n100 f read 0 4096\n100000 f read 4096 4096\n200000 f read 8192 4096\n300000 f read 12288 4096\n400000 f read 16384 4096\n400100 f close\n' >"$T/logs.$s/t.log"
	printf 'fio version 2 iolog\nf add\nf open\nf read 1048576 4096\nf write 12345 4096\nf read 3000000 8192\nf sync 0 0\nf trim 0 4096\nf write 2000001 4096\nf datasync 0 0\nf read 123 512\nf close\n' >"$T/logs.$s/v2.log"
	awk 'BEGIN { print "fio version 2 iolog"; print "f add"; print "f open"
		for (i = 0; i < 3000; i++) print "f", (i % 3 ? "read" : "write"), (i * 7919 % 1024) * 4096, 4096 * (1 + i % 2)
		print "f close" }' >"$T/logs.$s/big.log"
done
for name in tm_plain tm_nostall tm_fast sc_scale sc_skip sc_redir ch_big hdr; do
	for s in ref ut; do
		mkdir -p "$T/$name.$s.d"
		# fio needs the data there; iops lays it out (only when it is fio under test, copy)
		if [ "$s" = ref ] || [ "$UT_IS_FIO" = 1 ]; then
			head -c 8m /dev/urandom >"$T/$name.$s.d/f"
			cp "$T/$name.$s.d/f" "$T/$name.$s.d/g"
		fi
	done
done
par_run run_pair tm_plain --name=t --read_iolog="$T/logs.ref/t.log" --output-format=json
par_run run_pair tm_nostall --name=t --read_iolog="$T/logs.ref/t.log" --replay_no_stall=1 --output-format=json
par_run run_pair tm_fast --name=t --read_iolog="$T/logs.ref/t.log" --replay_time_scale=200 --output-format=json
par_run run_pair sc_scale --name=t --read_iolog="$T/logs.ref/v2.log" --replay_scale=3 --replay_align=4096 \
	--write_lat_log=q --log_offset=1 --output-format=json
par_run run_pair sc_skip --name=t --read_iolog="$T/logs.ref/v2.log" --replay_skip=write,trim,sync \
	--write_lat_log=q --log_offset=1 --output-format=json
par_run run_pair ch_big --name=t --read_iolog="$T/logs.ref/big.log" --read_iolog_chunked=1 \
	--write_lat_log=q --log_offset=1 --output-format=json
par_run run_pair hdr --name=t --read_iolog="$T/logs.ref/v2.log"
par_wait
# the job header shows the job's rw and bs, whatever the log does (as fio)
assert_eq "hdr: job line" "$(grep '(g=0)' "$T/hdr.ref.out")" "$(grep '(g=0)' "$T/hdr.ut.out")"
# redirect: every I/O of the log goes to g (f is not touched by it); g must exist for fio
run_one ref sc_redir --name=t --read_iolog="$T/logs.ref/big.log" --replay_redirect=g --output-format=json
if [ "$UT_IS_FIO" = 1 ]; then
	run_one ut sc_redir --name=t --read_iolog="$T/logs.ref/big.log" --replay_redirect=g --output-format=json
else
	run_one ut sc_redir --name=t --read_iolog="$T/logs.ref/big.log" --replay_redirect=g --output-format=json
	[ ! -e "$T/sc_redir.ut.d/f" ] || fail "sc_redir: the log's own file was created"
	[ -f "$T/sc_redir.ut.d/g" ] || fail "sc_redir: g was not used"
fi
for c in tm_plain tm_nostall tm_fast sc_scale sc_redir ch_big; do
	assert_eq "$c: exit status" "$(rc_of $c ref)" "$(rc_of $c ut)"
	assert_eq "$c: totals" "$(totals $c ref)" "$(totals $c ut)"
	case_ran
done
# fio 3.33 applies replay_skip to blktrace replays only (a text log replays everything) and
# drops the trims of a text log ("bad ddir: 2"); iops skips what replay_skip names and trims
if ! skip_if_fio "replay_skip and trims of text logs (iops' own)"; then
	assert_eq "sc_skip: reads only" "0 3 12800 0 0" "$(totals sc_skip ut)"
	assert_eq "sc_skip: no sync" "0" "$(json_doc "$T/sc_skip.ut.out" | jq '.jobs[0].sync.lat_ns.N // 0')"
	assert_eq "sc_scale: the trim" "1 4096" "$(json_doc "$T/sc_scale.ut.out" | jq -r '.jobs[0].trim | "\(.total_ios) \(.io_bytes)"')"
	assert_eq "sc_scale: syncs" "2" "$(json_doc "$T/sc_scale.ut.out" | jq '.jobs[0].sync.lat_ns.N // 0')"
fi
assert_eq "tm_plain: 5 reads" "0 5 20480 0 0" "$(totals tm_plain ut)"
assert_eq "ch_big: 3000 I/Os" "2000 1000" "$(totals ch_big ut | awk '{ print $2, $4 }')"
for c in sc_scale ch_big; do	# (trims: see above)
	diff <(offsets "$T/$c.ref.d/q_clat.1.log" | grep -v '^2 ') <(offsets "$T/$c.ut.d/q_clat.1.log" | grep -v '^2 ') \
		>"$T/$c.diff" || fail "$c: offsets differ: $(head -20 "$T/$c.diff")"
done
for s in ref ut; do
	# 400 ms of trace: about 400 ms, as fast as possible without stalls, half with twice the rate
	rt() { json_doc "$T/$1.$s.out" | jq '.jobs[0].read.runtime'; }
	p=$(rt tm_plain) n=$(rt tm_nostall) f=$(rt tm_fast)
	[ "$p" -ge 380 ] && [ "$p" -le 1500 ] || fail "tm_plain $s: runtime $p ms for a 400 ms trace"
	[ "$n" -le 150 ] || fail "tm_nostall $s: runtime $n ms, expected no stalls"
	[ "$f" -ge 180 ] && [ "$f" -le 1000 ] || fail "tm_fast $s: runtime $f ms for 400 ms at 200%"
done

# ---- bad logs and options ---------------------------------------------------------------------
mkdir -p "$T/bad"
: >"$T/bad/empty.log"
echo garbage >"$T/bad/garbage.log"
printf 'fio version 2 iolog\nnf add\nnf open\nnf frob 0 4096\n' >"$T/bad/action.log"
printf 'fio version 2 iolog\nnf add\nnf open\nnf read abc 4096\n' >"$T/bad/number.log"
printf 'fio version 2 iolog\nnf add\nnf open\n' >"$T/bad/noio.log"
printf 'fio version 3 iolog\nnf add\n' >"$T/bad/nots.log"
printf 'fio version 2 iolog\nnf add\nnf read 18446744073709551615 4096\n' >"$T/bad/huge.log"
for b in empty garbage action number noio nots missing; do
	par_run run_pair "bad_$b" --name=b --read_iolog="$T/bad/$b.log"
done
par_run run_pair opt_align --name=b --read_iolog="$T/logs.ref/t.log" --replay_align=3
par_run run_pair opt_skip --name=b --read_iolog="$T/logs.ref/t.log" --replay_skip=flush
par_run run_pair opt_tscale --name=b --read_iolog="$T/logs.ref/t.log" --replay_time_scale=0
par_run run_pair opt_chunk --name=b --read_iolog="$T/logs.ref/t.log" --read_iolog_chunked=2
par_wait
for b in empty garbage action number noio nots missing; do
	assert_eq "bad_$b: exit status" "$(rc_of "bad_$b" ref)" "$(rc_of "bad_$b" ut)"
	assert_eq "bad_$b: exit 1" 1 "$(rc_of "bad_$b" ut)"
	if ! skip_if_fio "iops' own messages for bad logs"; then
		assert_eq "bad_$b: one line" 1 "$(wc -l <"$T/bad_$b.ut.err")"
		assert_match "bad_$b: message" "^fio: b: .*read_iolog" "$(cat "$T/bad_$b.ut.err")"
		assert_eq "bad_$b: nothing created" "" "$(dir_listing "$T/bad_$b.ut.d")"
	fi
done
if ! skip_if_fio "iops refuses a huge offset before creating anything"; then
	run_one ut bad_huge --name=b --read_iolog="$T/bad/huge.log"
	assert_eq "bad_huge: exit 1" 1 "$(rc_of bad_huge ut)"
	assert_eq "bad_huge: nothing created" "" "$(dir_listing "$T/bad_huge.ut.d")"
fi
for c in opt_align opt_skip opt_tscale opt_chunk; do
	assert_eq "$c: exit status" "$(rc_of $c ref)" "$(rc_of $c ut)"
	assert_eq "$c: stderr" "$(cat "$T/$c.ref.err")" "$(cat "$T/$c.ut.err")"
done
# iops' own safety for write_iolog: refused before anything is created, targets untouched
if ! skip_if_fio "write_iolog file safety (iops' own)"; then
	mkdir -p "$T/safe"
	echo precious >"$T/safe/keep"
	ln -s "$T/safe/keep" "$T/safe/link.log"
	for c in "nodir/x.log|No such file or directory" "link.log|it is a symbolic link" \
		"keep|it exists and is not a fio iolog"; do
		(cd "$T/safe" && "$UT_FIO" --name=s $B --rw=write --size=64k --write_iolog="${c%%|*}" >/dev/null 2>"$T/safe.err")
		assert_eq "safe ${c%%|*}: exit status" 1 "$?"
		assert_eq "safe ${c%%|*}: message" "fio: cannot write write_iolog '${c%%|*}': ${c#*|}" "$(cat "$T/safe.err")"
		assert_eq "safe ${c%%|*}: nothing created" "keep link.log" "$(dir_listing "$T/safe" | tr '\n' ' ' | sed 's/ $//')"
		assert_eq "safe ${c%%|*}: target untouched" precious "$(cat "$T/safe/keep")"
	done
fi
echo "t_fio_iolog: ok"
