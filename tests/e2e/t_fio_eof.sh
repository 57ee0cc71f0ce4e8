#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A file that ends inside a request, on the local file system, beside fio 3.33: reads of a file
# another process truncates during the run (the 64 MiB file of issue 22, truncated to
# 33,554,555 bytes while a 1 MiB reader at 16 MiB/s is at about 11 MiB), and writes that meet
# the file size limit (RLIMIT_FSIZE, `ulimit -f`, SIGXFSZ ignored: the write across the limit is
# short, the rest fails with EFBIG). psync and libaio, buffered and direct. Compared: exit
# status, the job's error and its line, the io_u error line, total_ios, short_ios, clat
# samples, the completion map, and io_bytes (the one difference, README "Differences": iops
# counts the bytes a short read moved before the end of the file, which fio's count loses).
# faultfs's `zero` rule (t_faults.sh) is the same on FUSE.
. "$(dirname "$0")/fio_common.sh"

errors=()
add_err() { errors+=("$*"); }

# check NAME DDIR BYTES_FIO BYTES_IOPS MUST: the run's summary as fio's, the bytes each counted,
# and fio's summary containing MUST (what the case is about)
check() {
	local n=$1 d=$2 want_ut=$4 a b ra rb
	a=$(err_summary "$T/$n.ref" "$d")
	b=$(err_summary "$T/$n.ut" "$d")
	ra=$(json_bytes "$T/$n.ref.out" "$d") rb=$(json_bytes "$T/$n.ut.out" "$d")
	echo "$n: fio: $a, $ra bytes"
	case_ran
	[ "$a" = "$b" ] || add_err "$n: fio: $a / iops: $b"
	if [ "$want_ut" != "$3" ] && skip_if_fio "$n: the bytes of a short read counted"; then
		want_ut=$3
	fi
	[ "$ra/$rb" = "$3/$want_ut" ] || add_err "$n: io_bytes: fio $ra (want $3), iops $rb (want $want_ut)"
	[[ "$a" == *"$5"* ]] || add_err "$n: fio's run is not what the case is about ($5): $a"
}

# --- reads of a file truncated during the run -------------------------------------------------
# truncate_when_open FILE: truncate FILE to 33,554,555 bytes once a process has it open (the job
# has sized it and started: at 16 MiB/s it is 2 s from the end), after 0.3 s more
truncate_when_open() {
	local f=$1 l
	for _ in $(seq 300); do
		for l in /proc/[0-9]*/fd/*; do
			[ "$l" -ef "$f" ] && { sleep 0.3; truncate -s 33554555 "$f"; return; }
		done
		sleep 0.03
	done
	echo "$f: never opened" >>"$T/timeouts"
}
# trunc_run SIDE NAME ARGS...: a 64 MiB sparse file, truncated under the running job
trunc_run() {
	local side=$1 name=$2 d=$T/$2.$1.d
	shift 2
	mkdir -p "$d" && truncate -s 64M "$d/f"
	truncate_when_open "$(cd "$d" && pwd -P)/f" &
	FIO_TIMEOUT=30 run_one "$side" "$name" --name=j --filename=f --rw=read --bs=1m --rate=16m --output-format=json "$@"
	wait
}
# run_all RUN PREFIX: RUN for both tools, psync and libaio, buffered and direct, at most
# FIO_PAR at a time; the case names (PREFIX-ENGINE-dDIRECT) in cases
run_all() {
	local eng direct
	cases=()
	for eng in psync libaio; do
		for direct in 0 1; do
			cases+=("$2-$eng-d$direct")
			par_run "$1" ref "$2-$eng-d$direct" --ioengine=$eng --direct=$direct
			par_run "$1" ut "$2-$eng-d$direct" --ioengine=$eng --direct=$direct
		done
	done
	par_wait
}
FIO_PAR=8 run_all trunc_run trunc
for n in "${cases[@]}"; do
	case $n in
	# the read that met the end failed: none of its bytes count, on both
	trunc-psync-*) check "$n" read 33554432 33554432 "func=full resid" ;;
	# the short read's 123 bytes moved: iops counts them, fio's count loses them
	*) check "$n" read 33554432 33554555 "err=0 ios=65 short=1 clat=64" ;;
	esac
done

# --- writes that meet the file size limit ------------------------------------------------------
# fsize_run SIDE NAME ARGS...: the file laid out by a first run, then written under a 98 KiB
# limit (100,352 bytes: inside the 25th write)
printf '#!/usr/bin/env bash\ntrap "" XFSZ\nulimit -f 98\nexec "$@"\n' >"$T/fsize.sh"
chmod +x "$T/fsize.sh"
fsize_run() {
	local side=$1 name=$2
	shift 2
	run_one "$side" "$name" --name=j --filename=f --bs=4k --size=256k --rw=write "$@"
	[ "$(rc_of "$name" "$side")" = 0 ] || { echo "layout failed" >"$T/$name.$side.out"; return; }
	FIO_WRAP=$T/fsize.sh run_one "$side" "$name" --name=j --filename=f --bs=4k --size=256k --rw=write \
		--output-format=json "$@"
}
run_all fsize_run fsize
for n in "${cases[@]}"; do
	check "$n" write 98304 98304 "File too large: write offset=100352, buflen=2048"
done

if [ ${#errors[@]} -gt 0 ]; then
	printf '%s\n' "${errors[@]}" >&2
	fail "${#errors[@]} problem(s)"
fi
echo "eof: all cases agree"
