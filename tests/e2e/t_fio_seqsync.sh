#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Sequencing and what writes ask of the kernel, fio and the binary under test side by side:
#   - rw_sequencer (sequential / identical with rw=randread:N) and bs_is_seq_rand: the
#     write_iolog traces (direction, offset, length of every I/O) must be the same;
#   - sync_file_range=flags:N: the trace's sync_file_range lines in the same places, and
#     (strace, when installed) the ranges and flags of the calls;
#   - write_hint: buffered, the job runs (fcntl F_SET_RW_HINT); with direct=1 Linux refuses
#     F_SET_FILE_RW_HINT and both fail the job the same way; atomic=1 opens with O_DIRECT;
#   - log_unix_epoch / log_alternate_epoch(_clock_id): log lines keep their shape and their
#     times count from the clock's epoch (within a generous minute of it);
#   - write_barrier, gtod_cpu, log_entries change nothing in a size-bound job's totals;
#   - iops' refusals of values fio 3.33 misbehaves with.
. "$(dirname "$0")/fio_common.sh"
FIO_PAR=${FIO_PAR:-4}

errors=()
add_err() { errors+=("$*"); }

# ---- traces ------------------------------------------------------------------------------------
# NAME|ARGS (each side writes its own file f and trace t in its directory)
tcases=(
	"seq-default|--rw=randread:4 --number_ios=40"
	"seq-sequential|--rw=randread:4 --rw_sequencer=sequential --number_ios=40"
	"seq-identical|--rw=randread:4 --rw_sequencer=identical --number_ios=40"
	"seq-identical-rw|--rw=randrw:3 --rw_sequencer=identical --bs=4k,8k --number_ios=60"
	"seq-identical-read|--rw=read:4k --rw_sequencer=identical"
	"bsr-rand|--rw=randread:3 --bs=4k,16k --bs_is_seq_rand=1 --number_ios=40"
	"bsr-seq|--rw=write --bs=4k,16k --bs_is_seq_rand=1"
	"bsr-pct|--rw=randwrite --percentage_random=50 --bs=8k,4k --bs_is_seq_rand=1 --number_ios=50"
	"bsr-range|--rw=randrw --bsrange=4k-16k,4k-32k --bs_is_seq_rand=1 --number_ios=50"
	"sfr|--rw=write --sync_file_range=wait_before,write:3"
	"sfr-every|--rw=randwrite --sync_file_range=write"
	"sfr-fsync|--rw=write --sync_file_range=wait_after:2 --fsync=3"
)
for c in "${tcases[@]}"; do
	IFS='|' read -r name args <<<"$c"
	# shellcheck disable=SC2086 # ARGS are words
	par_run run_pair "$name" --name=s --filename=f --size=256k $args --write_iolog=t
done
# the syscalls of sync_file_range (strace, when installed)
if command -v strace >/dev/null; then
	for s in ref ut; do
		FIO_WRAP="strace -f -qq -e trace=sync_file_range -o sys.$s" par_run run_one $s sfr-sys --name=s --filename=f \
			--size=64k --rw=write --sync_file_range=write,wait_after:4
	done
else
	missing_part "strace not installed: sync_file_range's calls"
fi
par_wait

trace() { grep -E ' (read|write|trim|sync|datasync|sync_file_range) ' "$1" | awk '{print $3, $4, $5}'; }
for c in "${tcases[@]}"; do
	IFS='|' read -r name _ <<<"$c"
	case_ran
	[ "$(rc_of "$name" ref)" = 0 ] && [ "$(rc_of "$name" ut)" = 0 ] ||
		{ add_err "$name: exit $(rc_of "$name" ref) / $(rc_of "$name" ut): $(head -n 2 "$T/$name.ut.err")"; continue; }
	trace "$T/$name.ref.d/t" >"$T/$name.ref.trace"
	trace "$T/$name.ut.d/t" >"$T/$name.ut.trace"
	[ -s "$T/$name.ref.trace" ] || add_err "$name: empty fio trace"
	cmp -s "$T/$name.ref.trace" "$T/$name.ut.trace" ||
		add_err "$name: traces differ: $(diff "$T/$name.ref.trace" "$T/$name.ut.trace" | head -n 6 | tr '\n' ' ')"
done
grep -q '^sync_file_range 8192 0$' "$T/sfr.ut.trace" || add_err "sfr: no sync_file_range line after the 3rd write"
if command -v strace >/dev/null; then
	calls() { grep -o 'sync_file_range(.*' "$T/sfr-sys.$1.d/sys.$1" | sed 's/([0-9]*, /(FD, /'; }
	a=$(calls ref) b=$(calls ut)
	[ -n "$a" ] && [ "$a" = "$b" ] || add_err "sfr-sys: calls: fio [$a] / iops [$b]"
fi

# ---- write_hint, atomic ----------------------------------------------------------------------
run_pair hint --name=h --filename=f --size=64k --rw=write --write_hint=short
run_pair hint-direct --name=h --filename=f --size=64k --rw=write --write_hint=extreme --direct=1
for n in hint hint-direct; do
	[ "$(rc_of $n ref)" = "$(rc_of $n ut)" ] || add_err "$n: exit $(rc_of $n ref) / $(rc_of $n ut)"
done
# fio prints the job's error line on stdout, iops on stderr (stdout is for results)
a=$(cat "$T/hint-direct.ref.out" "$T/hint-direct.ref.err" | grep -o 'err=.*')
b=$(cat "$T/hint-direct.ut.out" "$T/hint-direct.ut.err" | grep -o 'err=.*')
[ "$a" = "$b" ] || add_err "hint-direct: fio [$a] / iops [$b]"
if command -v strace >/dev/null; then
	for s in ref ut; do
		FIO_WRAP="strace -f -qq -e trace=openat,open -o sys.$s" run_one $s atomic --name=a --filename=f --size=64k \
			--rw=write --atomic=1
		grep -q '"f", O_RDWR.*O_DIRECT' "$T/atomic.$s.d/sys.$s" || add_err "atomic ($s): f not opened O_DIRECT"
	done
fi

# ---- log times -------------------------------------------------------------------------------
# NAME|ARGS|CLOCK (where the times count from: real = date, mono = /proc/uptime)
lcases=(
	"unix|--log_unix_epoch=1|real"
	"alt|--log_alternate_epoch=1|real"
	"alt-mono|--log_alternate_epoch=1 --log_alternate_epoch_clock_id=1|mono"
	"unix-mono|--log_unix_epoch=1 --log_alternate_epoch_clock_id=1|mono"
	"plain|--log_alternate_epoch_clock_id=1|job"
)
for c in "${lcases[@]}"; do
	IFS='|' read -r name args _ <<<"$c"
	# shellcheck disable=SC2086 # ARGS are words
	par_run run_pair "log-$name" --name=l --filename=f --size=64k --write_lat_log=l $args
done
par_wait
for c in "${lcases[@]}"; do
	IFS='|' read -r name _ clk <<<"$c"
	case_ran
	case $clk in
	real) now=$(date +%s%3N) ;;
	mono) now=$(awk '{printf "%d", $1 * 1000}' /proc/uptime) ;;
	job) now=0 ;;
	esac
	for s in ref ut; do
		f="$T/log-$name.$s.d/l_clat.1.log"
		[ -s "$f" ] || { add_err "log-$name ($s): no clat log"; continue; }
		# every time within a minute of the clock now (the job's own: under a minute)
		bad=$(awk -F', ' -v now="$now" '{ d = $1 - now; if (d < 0) d = -d; if (d > 60000) { print; exit } }' "$f")
		[ -z "$bad" ] || add_err "log-$name ($s): time off its clock's epoch: [$bad] (now $now)"
	done
	for l in clat lat; do
		a=$(mask_numbers <"$T/log-$name.ref.d/l_$l.1.log" | sort -u) b=$(mask_numbers <"$T/log-$name.ut.d/l_$l.1.log" | sort -u)
		[ "$a" = "$b" ] || add_err "log-$name: $l line shapes: fio [$a] / iops [$b]"
	done
done

# ---- accepted without effect: the totals of fio without the option (fio 3.33 itself sometimes
# crashes with gtod_cpu) ------------------------------------------------------------------------
for a in --write_barrier=8 --write_barrier=-1 --gtod_cpu=0 --log_entries=4096; do
	n=acc${a%%=*}
	run_one ref "$n" --name=x --ioengine=null --size=2m --rw=randwrite --output-format=json
	run_one ut "$n" --name=x --ioengine=null --size=2m --rw=randwrite "$a" --output-format=json
	x=$(json_totals "$T/$n.ref.out") y=$(json_totals "$T/$n.ut.out")
	[ -n "$x" ] && [ "$x" = "$y" ] || add_err "$a: fio [$x] / iops [$y]"
done

# ---- values fio 3.33 takes and misbehaves with: iops refuses them --------------------------------
if ! skip_if_fio "fio runs these"; then
	refused=(
		"--sync_file_range=write:0"	# fio: never syncs
		"--sync_file_range=write:abc"	# fio: reads 0, never syncs
		"--gtod_cpu=100000"		# fio: its clock stands still, garbage report
		"--log_alternate_epoch_clock_id=99"	# fio: garbage log times
	)
	for i in "${!refused[@]}"; do
		run_one ut "ref$i" --name=x --filename=f --size=64k --rw=write "${refused[$i]}"
		[ "$(rc_of "ref$i" ut)" = 1 ] || add_err "${refused[$i]}: exit $(rc_of "ref$i" ut)"
		[ -s "$T/ref$i.ut.err" ] || add_err "${refused[$i]}: no message"
		[ -z "$(ls -A "$T/ref$i.ut.d")" ] || add_err "${refused[$i]}: created $(ls -A "$T/ref$i.ut.d")"
	done
fi
# fio's own parse errors
for a in --rw_sequencer=same --write_hint=forever --sync_file_range=flush --log_entries=100 --bs_is_seq_rand=2; do
	n=bad${a%%=*}
	run_pair "$n" --name=x --ioengine=null --size=1m "$a"
	[ "$(rc_of "$n" ref)" = 1 ] && [ "$(rc_of "$n" ut)" = 1 ] || add_err "$a: exit $(rc_of "$n" ref) / $(rc_of "$n" ut)"
	grep -qF "$(grep -m1 'failed parsing' "$T/$n.ref.err")" "$T/$n.ut.err" || add_err "$a: '$(head -n 3 "$T/$n.ut.err" | tr '\n' ' ')'"
done

if [ ${#errors[@]} -gt 0 ]; then
	printf '%s\n' "${errors[@]}" >&2
	fail "${#errors[@]} problem(s)"
fi
