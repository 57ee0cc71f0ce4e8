#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# write_bw_log / write_iops_log / write_lat_log against fio 3.33: for the same options both
# sides leave the same set of log files, the same line shape (numbers masked), one line per I/O
# and direction for per-I/O logs (and per-I/O bw/iops summary samples), about
# runtime/log_avg_msec lines for windowed logs; bad values give fio's messages and status.
# Then iops' own file safety (symlinks, non-log files, missing directories) and SIGTERM.
. "$(dirname "$0")/fio_common.sh"

FIO_PAR=${FIO_PAR:-6}	# small jobs: fio's time per run is mostly waiting

D="--ioengine=psync --rw=randread --size=1m"

# lists of "name lines shape" per run directory (shape: the first line, numbers masked)
logs_in() {
	(cd "$1" && for f in $(ls -A | grep '\.log$' | sort); do
		printf '%s %s %s\n' "$f" "$(wc -l <"$f")" "$(head -n1 "$f" | mask_numbers | tr -d ' ')"
	done)
}
names_in() { (cd "$1" && ls -A | grep '\.log$' | sort | tr '\n' ' '); }
ios_of() { json_doc "$T/$1.$2.out" | jq -r ".jobs[$3].$4.total_ios"; }
lines_of() { awk -F', ' -v d="$3" '$3 == d' "$T/$1.$2.d/$4" | wc -l; }

mkdir -p "$T/sub.ref.d/logs" "$T/sub.ut.d/logs" "$T/trunc.ref.d" "$T/trunc.ut.d" "$T/app.ref.d" "$T/app.ut.d"
for s in ref ut; do
	awk 'BEGIN { for (i = 0; i < 1000; i++) print i ", 1, 0, 4096, 0" }' >"$T/trunc.$s.d/t_bw.1.log"
	awk 'BEGIN { for (i = 0; i < 1000; i++) print i ", 1, 0, 4096, 0" }' >"$T/app.$s.d/t_bw.log"
done
cat >"$T/bare.fio" <<'EOF'
[global]
ioengine=psync
size=64k
write_iops_log
[first]
write_bw_log
[second]
write_lat_log=0
numjobs=2
per_job_logs=0
EOF

par_run run_pair unit --name=a $D --write_bw_log=a --write_iops_log=a --write_lat_log=a --output-format=json
set_aio "the async engine's logs (aio, win)"
par_run run_pair aio --name=a --ioengine=$AIO --iodepth=4 --rw=randwrite --size=1m --write_lat_log=q \
	--log_offset=1 --log_prio=1 --output-format=json
par_run run_pair nj --name=a $D --numjobs=2 --write_bw_log=p --write_iops_log=p2 --output-format=json
par_run run_pair pjl --name=a $D --numjobs=2 --per_job_logs=0 --write_bw_log=p --output-format=json
par_run run_pair sub --name=x $D --write_lat_log=logs/pre --write_bw_log=logs/pre --output-format=json
par_run run_pair win --name=w --ioengine=$AIO --iodepth=2 --rw=randrw --size=8m --time_based --runtime=1 \
	--log_avg_msec=100 --write_bw_log=w --write_iops_log=w --write_lat_log=w --output-format=json
par_run run_pair winmax --name=w --size=8m --time_based --runtime=1 --log_avg_msec=250 --log_max_value=1 \
	--write_iops_log=w --log_offset=1 --output-format=json
par_run run_pair trunc --name=t $D --write_bw_log=t --output-format=json
par_run run_pair app --name=t $D --write_bw_log=t --per_job_logs=0 --output-format=json
par_run run_pair bare "$T/bare.fio" --output-format=json
par_run run_pair gtod --name=g $D --gtod_reduce=1 --write_lat_log=g --write_bw_log=g --output-format=json
par_run run_pair bad1 --name=a $D --write_bw_log=a --log_avg_msec=abc
par_run run_pair bad2 --name=a $D --write_bw_log=a --log_offset=2
par_run run_pair bad3 --name=a $D --write_bw_log=a --per_job_logs=abc
par_run run_pair bad4 --name=a $D --write_bw_log=
par_run run_pair bad5 --name=a $D --write_lat_log=a --log_max_value=x
par_wait

# same file names, line counts where deterministic, line shapes
for c in unit aio nj pjl sub trunc app bare gtod; do
	assert_eq "$c: exit status" "$(rc_of $c ref)" "$(rc_of $c ut)"
	assert_eq "$c: log files" "$(names_in "$T/$c.ref.d") $(names_in "$T/$c.ref.d/logs" 2>/dev/null)" \
		"$(names_in "$T/$c.ut.d") $(names_in "$T/$c.ut.d/logs" 2>/dev/null)"
done
for c in unit aio nj pjl trunc app bare; do
	diff <(logs_in "$T/$c.ref.d") <(logs_in "$T/$c.ut.d") >"$T/$c.diff" ||
		fail "$c: logs differ (name lines shape):$(cat "$T/$c.diff")"
done
diff <(logs_in "$T/sub.ref.d/logs") <(logs_in "$T/sub.ut.d/logs") >"$T/sub.diff" || fail "sub: $(cat "$T/sub.diff")"

# per-I/O logs: one line per I/O; the bw/iops summary becomes per-I/O samples (as in fio 3.33)
for s in ref ut; do
	n=$(ios_of unit $s 0 read)
	assert_eq "unit $s: 1m of 4k" 256 "$n"
	for f in a_bw.1.log a_iops.1.log a_clat.1.log a_lat.1.log; do
		assert_eq "unit $s: $f lines" "$n" "$(lines_of unit $s 0 $f)"
	done
	assert_eq "unit $s: slat empty for psync" 0 "$(wc -l <"$T/unit.$s.d/a_slat.1.log")"
	assert_eq "unit $s: bw samples" "$n" "$(json_doc "$T/unit.$s.out" | jq '.jobs[0].read.bw_samples')"
	assert_eq "unit $s: iops per I/O" "1 1 $n" \
		"$(json_doc "$T/unit.$s.out" | jq -r '.jobs[0].read | "\(.iops_min) \(.iops_max) \(.iops_samples)"')"
	assert_eq "unit $s: bs column" "4096" "$(cut -d, -f4 "$T/unit.$s.d/a_clat.1.log" | sort -u | tr -d ' ')"
	assert_eq "aio $s: lines per I/O" "256 256 256" \
		"$(for f in q_clat.1.log q_slat.1.log q_lat.1.log; do lines_of aio $s 1 $f; done | tr '\n' ' ' | sed 's/ $//')"
	assert_eq "aio $s: offsets are block offsets" "" \
		"$(awk -F', ' '$5 % 4096 || $5 >= 1048576' "$T/aio.$s.d/q_clat.1.log")"
	assert_eq "aio $s: prio column" "0x0000" "$(cut -d, -f6 "$T/aio.$s.d/q_lat.1.log" | sort -u | tr -d ' ')"
	assert_eq "pjl $s: both jobs in one file" 512 "$(wc -l <"$T/pjl.$s.d/p_bw.log")"
	assert_eq "trunc $s: old log truncated" 256 "$(wc -l <"$T/trunc.$s.d/t_bw.1.log")"
	assert_eq "app $s: per_job_logs=0 appends" 1256 "$(wc -l <"$T/app.$s.d/t_bw.log")"
done

# windowed logs: ~runtime/log_avg_msec lines per direction, bs 0, value = window mean
for s in ref ut; do
	for f in w_bw.1.log w_iops.1.log w_clat.1.log w_lat.1.log w_slat.1.log; do
		for d in 0 1; do
			n=$(lines_of win $s $d $f)
			# a loaded machine (CI) stretches a window now and then: 5 is the floor
			[ "$n" -ge 5 ] && [ "$n" -le 12 ] || fail "win $s: $f ddir $d has $n lines, expected about 10"
		done
	done
	assert_eq "win $s: windowed bs" "0" "$(cut -d, -f4 "$T/win.$s.d/w_bw.1.log" "$T/win.$s.d/w_clat.1.log" | sort -u | tr -d ' ')"
	assert_eq "win $s: bw samples follow log_avg_msec" "$(lines_of win $s 0 w_bw.1.log)" \
		"$(json_doc "$T/win.$s.out" | jq '.jobs[0].read.bw_samples')"
	assert_eq "win $s: iops log = iops samples" "$(lines_of win $s 1 w_iops.1.log)" \
		"$(json_doc "$T/win.$s.out" | jq '.jobs[0].write.iops_samples')"
	# bw windows: ascending times, none before the first window ends
	awk -F', ' '$3 == 0 { if ($1 < 99 || $1 <= p) bad = bad " " p "->" $1; p = $1 }
		END { if (bad != "") { print "win: bw window times:" bad; exit 1 } }' \
		"$T/win.$s.d/w_bw.1.log" || fail "win $s: see above"
	n=$(wc -l <"$T/winmax.$s.d/w_iops.1.log")
	[ "$n" -ge 3 ] && [ "$n" -le 4 ] || fail "winmax $s: $n lines for 1 s / 250 ms"
	assert_eq "winmax $s: shape" "N,N,N,N,N,N" "$(head -n1 "$T/winmax.$s.d/w_iops.1.log" | mask_numbers | tr -d ' ')"
	assert_eq "winmax $s: summary samples" "$n" "$(json_doc "$T/winmax.$s.out" | jq '.jobs[0].read.iops_samples')"
done
assert_eq "win: same shapes" "$(logs_in "$T/win.ref.d" | cut -d' ' -f1,3)" "$(logs_in "$T/win.ut.d" | cut -d' ' -f1,3)"

# bad values: fio's messages and exit status, nothing written
for c in bad1 bad2 bad3 bad4 bad5; do
	assert_eq "$c: exit status" "$(rc_of $c ref)" "$(rc_of $c ut)"
	assert_eq "$c: stderr" "$(cat "$T/$c.ref.err")" "$(cat "$T/$c.ut.err")"
	assert_eq "$c: nothing created" "" "$(dir_listing "$T/$c.ut.d")"
done

# iops' own safety: refuse before any I/O, nothing created, targets untouched
if ! skip_if_fio "log file safety"; then
	mkdir -p "$T/safe"
	echo precious >"$T/safe/keep"
	ln -s "$T/safe/keep" "$T/safe/s_bw.1.log"
	(cd "$T/safe" && "$UT_FIO" --name=s $D --write_bw_log=s >"$T/safe.out" 2>"$T/safe.err")
	assert_eq "symlink: exit status" 1 "$?"
	assert_match "symlink: message" "cannot write log file 's_bw.1.log': it is a symbolic link" "$(cat "$T/safe.err")"
	assert_eq "symlink: target untouched" precious "$(cat "$T/safe/keep")"
	assert_eq "symlink: no data file" "keep s_bw.1.log" "$(dir_listing "$T/safe" | tr '\n' ' ' | sed 's/ $//')"
	cp "$T/safe/keep" "$T/safe/k_lat.1.log"
	(cd "$T/safe" && "$UT_FIO" --name=s $D --write_lat_log=k >/dev/null 2>"$T/safe.err")
	assert_eq "non-log file: exit status" 1 "$?"
	assert_match "non-log file: message" "'k_clat.1.log'|'k_lat.1.log'" "$(cat "$T/safe.err")"
	assert_eq "non-log file untouched" precious "$(cat "$T/safe/k_lat.1.log")"
	(cd "$T/safe" && "$UT_FIO" --name=s $D --write_iops_log=nodir/x >/dev/null 2>"$T/safe.err")
	assert_eq "missing dir: exit status" 1 "$?"
	assert_eq "missing dir: message" "fio: cannot write log file 'nodir/x_iops.1.log': No such file or directory" \
		"$(cat "$T/safe.err")"
fi

# SIGTERM: the run stops early, and the logs of what was done are still written. The signal
# goes 1 s after the data file is laid out (timeout forwards it to the binary).
pids=()
for s in ref ut; do
	if [ $s = ref ]; then bin=$REF_FIO; else bin=$UT_FIO; fi
	mkdir -p "$T/term.$s.d"
	(cd "$T/term.$s.d" && exec timeout -k 5 40 "$bin" --name=t --ioengine=psync --rw=randread --size=4m \
		--time_based --runtime=30 --write_lat_log=t --output-format=json >"$T/term.$s.out" 2>"$T/term.$s.err") &
	pids+=($!)
done
for s in ref ut; do
	for _ in $(seq 200); do
		[ "$(stat -c %s "$T/term.$s.d/t.0.0" 2>/dev/null)" = 4194304 ] && break
		sleep 0.1
	done
done
# the size is set before the layout writes the data: for the binary under test (one process,
# its job a thread) wait until it has read a MiB, i.e. the run itself has begun
c=$(pgrep -P "${pids[1]}" | head -n 1)
for _ in $(seq 200); do
	[ "$(awk '/^rchar/ { print $2 }' "/proc/$c/io" 2>/dev/null || echo 0)" -ge 1048576 ] && break
	sleep 0.1
done
sleep 1
kill -TERM "${pids[@]}"
wait
for s in ref ut; do
	n=$(ios_of term $s 0 read)
	[ "${n:-0}" -gt 0 ] || fail "term $s: no I/O reported: $(head -c 400 "$T/term.$s.err") / $(head -c 600 "$T/term.$s.out")"
	assert_eq "term $s: one clat line per I/O" "$n" "$(wc -l <"$T/term.$s.d/t_clat.1.log")"
done
echo "PASS"
