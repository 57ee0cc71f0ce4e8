#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# e2e: alone (total_ios of timed jobs within 15% of fio's)
# Size-bound jobs do exactly the I/O fio 3.33 does: for each case the reference fio and the
# binary under test run the same command line in fresh directories (JSON output), and per
# reported job we compare jobname, groupid, error, read/write total_ios and io_bytes, the sync
# count, the number of jobs and groups, the exit status and the files left behind (names and
# sizes). Every run directory starts with two empty subdirectories d1 and d2 (for directory=).
#
# Compare modes (4th field of a case):
#   exact    everything above equal.
#   mix:P    rw/randrw: fio picks each I/O's direction with its own RNG, so the read/write split
#            is not reproducible by another implementation. Compared: read+write ios and bytes
#            (exact), and the read share of the ios within P% +-10 points (both sides).
#   mixbytes per-direction bs with a mix: only read+write bytes are determined.
# Besides, two runs of a randrw job give the same split (randrepeat=1), on both sides.
#   bytes    bsrange: block sizes come from fio's RNG. io_bytes per direction exact, total_ios
#            within 15 %.
. "$(dirname "$0")/fio_common.sh"
FIO_PAR=${FIO_PAR:-6}	# small jobs: fio's ~0.3 s per run is mostly waiting

errors=()
add_err() { errors+=("$*"); }

# One case: NAME|MODE|ARGS (ARGS word-split; no spaces inside a value).
cases=(
	"seq-read-psync|exact|--name=a --size=4m --rw=read --ioengine=psync"
	"seq-write-sync-8k|exact|--name=a --size=4m --rw=write --ioengine=sync --bs=8k"
	"randread-pvsync|exact|--name=a --size=4m --rw=randread --ioengine=pvsync"
	"randwrite-16k|exact|--name=a --size=4m --rw=randwrite --bs=16k"
	"readwrite-alias|mix:50|--name=a --size=4m --readwrite=rw"
	"randrw-75|mix:75|--name=a --size=4m --rw=randrw --rwmixread=75"
	"randrw-mixwrite|mix:30|--name=a --size=4m --rw=randrw --rwmixwrite=70"
	"libaio-randread-qd8|exact|--name=a --size=4m --rw=randread --ioengine=libaio --direct=1 --iodepth=8"
	"libaio-write-64k-qd16|exact|--name=a --size=8m --rw=write --ioengine=libaio --direct=1 --iodepth=16 --bs=64k"
	"libaio-batch|exact|--name=a --size=4m --rw=randread --ioengine=libaio --direct=1 --iodepth=16 --iodepth_batch_submit=4 --iodepth_batch_complete_max=8"
	"uring-randwrite-qd4|exact|--name=a --size=4m --rw=randwrite --ioengine=io_uring --direct=1 --iodepth=4"
	"uring-read-buffered|exact|--name=a --size=4m --rw=read --ioengine=io_uring --iodepth=8"
	"null-randread|exact|--name=a --size=64m --rw=randread --ioengine=null"
	"null-write-qd16|exact|--name=a --size=64m --rw=write --ioengine=null --iodepth=16"
	"numjobs3|exact|--name=a --size=2m --rw=randread --numjobs=3"
	"numjobs2-group|exact|--name=a --size=2m --rw=write --numjobs=2 --group_reporting"
	"numjobs4-thread|exact|--name=a --size=1m --rw=randwrite --numjobs=4 --thread"
	"nrfiles3-randread|exact|--name=a --size=4m --rw=randread --nrfiles=3"
	"nrfiles3-write|exact|--name=a --size=3m --rw=write --nrfiles=3"
	"offset|exact|--name=a --size=4m --offset=1m --rw=read"
	"offset-randwrite|exact|--name=a --size=2m --offset=512k --rw=randwrite"
	"loops2|exact|--name=a --size=2m --loops=2 --rw=randwrite"
	"io_size|exact|--name=a --size=2m --io_size=8m --rw=randread"
	"bs-per-dir-write|exact|--name=a --size=4m --rw=write --bs=4k,8k"
	"bs-per-dir-rw|mixbytes|--name=a --size=4m --rw=rw --bs=4k,8k"
	"holes-read|exact|--name=a --size=4m --rw=read:4k"
	"holes-write|exact|--name=a --size=2m --rw=write:8k"
	"holes-exact-end|exact|--name=a --size=1m --rw=read:8k"
	"holes-exact-end-loops|exact|--name=a --size=1m --rw=write:8k --loops=2"
	"bsrange|bytes|--name=a --size=4m --bsrange=4k-16k --rw=randread"
	"bsrange-seed001|exact|--name=a --size=4m --bsrange=4k:4k,4k:4k --rw=randwrite"
	"filename-list|exact|--name=a --size=2m --filename=f1:f2 --rw=write"
	"fsync8|exact|--name=a --size=1m --rw=write --fsync=8"
	"norandommap|exact|--name=a --size=4m --rw=randread --norandommap"
	"randread-nr8|exact|--name=a --size=4m --rw=randread:8"
	"pct-random|exact|--name=a --size=4m --rw=randread --percentage_random=50"
	"unlink|exact|--name=a --size=2m --rw=write --unlink=1"
	"size-mib-decimal|exact|--name=a --size=4mib --rw=read"
	"size-mi-binary|exact|--name=a --size=4mi --rw=read"
	"kb_base1000|exact|--name=a --kb_base=1000 --size=4m --rw=read"
	"two-jobs-cmdline|exact|--size=1m --name=a --rw=write --name=b --rw=read --bs=8k"
	"offset_increment|exact|--name=a --filename=oi --size=2m --numjobs=3 --offset=1m --offset_increment=4m --rw=write --bs=64k"
	"number_ios|exact|--name=a --size=1m --rw=read --number_ios=10"
	"number_ios-loops|exact|--name=a --size=1m --rw=write --number_ios=10 --loops=3"
	"number_ios-over-pass|exact|--name=a --size=1m --rw=randwrite --number_ios=300 --loops=2"
	"number_ios-io_size|exact|--name=a --size=1m --io_size=4m --rw=read --number_ios=10"
	"number_ios-qd8|exact|--name=a --size=1m --rw=randread --number_ios=100 --ioengine=libaio --direct=1 --iodepth=8"
	"offset_increment-rand|exact|--name=a --filename=oi --size=1m --numjobs=2 --offset_increment=3m --rw=randwrite"
)
drop_refused cases

# The job file case: [global] + 2 jobs (one with numjobs=2) + stonewall.
cat >"$T/two.fio" <<'EOF'
; two groups: a writer pair, then a reader of the first writer's file
[global]
size=2m      # per job
bs=4k
ioengine=psync

[first]
rw=write
numjobs=2

[second]
stonewall
rw=randread
filename=first.0.0
EOF
# include (relative to the including file) and ${VAR} from the environment
cat >"$T/env.fio" <<'EOF2'
[global]
include common.inc

[e]
rw=${FIO_T_RW}
EOF2
printf 'size=1m\nbs=8k\n' >"$T/common.inc"
export FIO_T_RW=randwrite
cases+=("jobfile-include-env|exact|$T/env.fio")
cases+=("directory-roundrobin|exact|--name=rr --directory=d1:d2 --numjobs=2 --size=1m --rw=write")
cases+=("filename-subdirs|exact|--name=a --size=1m --filename=sub/dir/f --rw=write")
# size=N% / offset=N% of an existing file (the run directory gets an 8 MiB file "pre" first)
cases+=("pre-size-pct|exact|--name=a --filename=pre --size=50% --offset=25% --rw=read")
cases+=("pre-existing-read|exact|--name=a --filename=pre --rw=randread --bs=16k")
cases+=("pre-offset_increment-pct|exact|--name=a --filename=pre --size=1m --numjobs=3 --offset_increment=30% --rw=read --bs=64k")
cases+=("jobfile-stonewall|exact|$T/two.fio")
cases+=("jobfile-plus-cmdline|exact|--bs=8k $T/two.fio")

# summary NAME SIDE: json_totals plus the sync count, one line per job.
summary() {
	json_doc "$T/$1.$2.out" | jq -r '.jobs[] | [.jobname, .groupid, .error,
		.read.total_ios, .read.io_bytes, .write.total_ios, .write.io_bytes,
		(.sync.total_ios // "nosync")] | map(tostring) | join(" ")' 2>/dev/null
}

check_case() {
	local name=$1 mode=$2 a b
	local rr ru
	rr=$(rc_of "$name" ref) ru=$(rc_of "$name" ut)
	if [ "$rr" != 0 ]; then
		# The reference itself could not run this here (e.g. io_uring blocked): skip the case.
		case_skip "$name: reference fio failed (rc $rr): $(head -1 "$T/$name.ref.err" | head -c 200)"
		return
	fi
	case_ran
	[ "$ru" = 0 ] || { add_err "$name: exit status $ru (fio: 0): $(head -c 300 "$T/$name.ut.err")"; return; }
	a=$(summary "$name" ref)
	b=$(summary "$name" ut)
	[ -n "$b" ] || { add_err "$name: no parsable JSON jobs in output: $(head -c 300 "$T/$name.ut.out")"; return; }
	local na nb
	na=$(wc -l <<<"$a") nb=$(wc -l <<<"$b")
	[ "$na" = "$nb" ] || { add_err "$name: $nb reported jobs, fio has $na"; return; }
	local ga gb
	ga=$(awk '{print $2}' <<<"$a" | sort -u | wc -l) gb=$(awk '{print $2}' <<<"$b" | sort -u | wc -l)
	[ "$ga" = "$gb" ] || add_err "$name: $gb groups, fio has $ga"
	case $mode in
	exact)
		[ "$a" = "$b" ] || add_err "$name: totals differ
    fio:  $(tr '\n' '|' <<<"$a")
    ours: $(tr '\n' '|' <<<"$b")"
		;;
	mix:*)
		local p=${mode#mix:}
		local sa sb
		sa=$(awk '{print $1, $2, $3, $4 + $6, $5 + $7, $8}' <<<"$a")
		sb=$(awk '{print $1, $2, $3, $4 + $6, $5 + $7, $8}' <<<"$b")
		[ "$sa" = "$sb" ] || add_err "$name: read+write totals differ
    fio:  $(tr '\n' '|' <<<"$sa")
    ours: $(tr '\n' '|' <<<"$sb")"
		local side line
		for side in ref ut; do
			if [ $side = ref ]; then line=$a; else line=$b; fi
			awk -v p="$p" '{ t = $4 + $6; if (t == 0) exit 1; s = 100 * $4 / t;
				if (s < p - 10 || s > p + 10) exit 1 }' <<<"$line" ||
				add_err "$name ($side): read share of ios not within $p% +-10: $line"
		done
		;;
	mixbytes)
		local sa sb
		sa=$(awk '{print $1, $2, $3, $5 + $7}' <<<"$a")
		sb=$(awk '{print $1, $2, $3, $5 + $7}' <<<"$b")
		[ "$sa" = "$sb" ] || add_err "$name: read+write bytes differ: fio [$sa] ours [$sb]"
		;;
	bytes)
		local sa sb
		sa=$(awk '{print $1, $2, $3, $5, $7}' <<<"$a")
		sb=$(awk '{print $1, $2, $3, $5, $7}' <<<"$b")
		[ "$sa" = "$sb" ] || add_err "$name: io_bytes differ: fio [$sa] ours [$sb]"
		paste -d' ' <(awk '{print $4 + $6}' <<<"$a") <(awk '{print $4 + $6}' <<<"$b") |
			awk '{ if ($2 < 0.85 * $1 || $2 > 1.15 * $1) exit 1 }' ||
			add_err "$name: total_ios not within 15% of fio's: fio [$a] ours [$b]"
		;;
	esac
	local bad
	bad=$(json_sanity "$T/$name.ut.out")
	[ -z "$bad" ] || add_err "$name: impossible values in our JSON:
$bad"
	bad=$(json_sanity "$T/$name.ref.out")
	[ -z "$bad" ] || echo "note: $name: fio's own JSON breaks an invariant (check json_sanity): $bad"
	# The same files, with the same sizes, are left behind (the job file itself aside).
	local fa fb
	fa=$(files_in "$T/$name.ref.d") fb=$(files_in "$T/$name.ut.d")
	[ "$fa" = "$fb" ] || add_err "$name: files differ
    fio:  $(tr '\n' '|' <<<"$fa")
    ours: $(tr '\n' '|' <<<"$fb")"
	rm -rf "$T/$name.ref.d" "$T/$name.ut.d"
}

for c in "${cases[@]}"; do
	IFS='|' read -r name mode args <<<"$c"
	mkdir -p "$T/$name.ref.d/d1" "$T/$name.ref.d/d2" "$T/$name.ut.d/d1" "$T/$name.ut.d/d2"
	if [[ $name == pre-* ]]; then
		head -c 8388608 /dev/urandom >"$T/$name.ref.d/pre"
		cp "$T/$name.ref.d/pre" "$T/$name.ut.d/pre"
	fi
	# shellcheck disable=SC2086 # args are word-split on purpose
	par_run run_pair "$name" $args --output-format=json
done
par_wait
for c in "${cases[@]}"; do
	IFS='|' read -r name mode args <<<"$c"
	check_case "$name" "$mode"
done

# randrepeat=1 (the default) makes a run reproducible: fio gives the same read/write split of a
# mixed job every time, so must we (our split differs from fio's, but not from run to run).
for side in ref ut; do
	for i in 1 2; do
		run_one $side "repro$i" --name=a --size=4m --rw=randrw --rwmixread=60 --bs=4k,8k --output-format=json
	done
	a=$(summary repro1 $side) b=$(summary repro2 $side)
	[ -n "$a" ] && [ "$a" = "$b" ] || add_err "randrepeat=1 ($side): two runs of the same randrw job differ: [$a] vs [$b]"
done

# The other ways of calling iops must behave the same (not applicable to the real fio):
# `iops fio ARGS`, and a job file as the first argument.
if ! skip_if_fio "iops fio ... / iops job.fio invocation forms"; then
	mkdir "$T/forms" && cd "$T/forms" || fail "cd"
	out=$("$IOPS" fio --name=a --size=1m --rw=write --output-format=json 2>"$T/forms.err") ||
		add_err "iops fio ...: exit status $?: $(cat "$T/forms.err")"
	got=$(jq -r '.jobs[0] | "\(.jobname) \(.write.total_ios)"' <<<"$out" 2>/dev/null)
	[ "$got" = "a 256" ] || add_err "iops fio ...: expected [a 256], got [$got]"
	out=$("$IOPS" "$T/two.fio" --output-format=json 2>"$T/forms.err") ||
		add_err "iops job.fio: exit status $?: $(cat "$T/forms.err")"
	got=$(jq -r '[.jobs[] | "\(.jobname):\(.groupid)"] | join(" ")' <<<"$out" 2>/dev/null)
	[ "$got" = "first:0 first:0 second:1" ] || add_err "iops job.fio: expected jobs [first:0 first:0 second:1], got [$got]"
	# the README's container line: an option first, then a job file
	out=$("$IOPS" --output-format=json "$T/two.fio" 2>"$T/forms.err") ||
		add_err "iops --output-format=json job.fio: exit status $?: $(cat "$T/forms.err")"
	got=$(jq -r '[.jobs[] | "\(.jobname):\(.groupid)"] | join(" ")' <<<"$out" 2>/dev/null)
	[ "$got" = "first:0 first:0 second:1" ] || add_err "iops --output-format=json job.fio: got [$got]"
	out=$("$IOPS" --name=a --size=1m --rw=read --output-format=json 2>"$T/forms.err") ||
		add_err "iops --name=...: exit status $?: $(cat "$T/forms.err")"
	got=$(jq -r '.jobs[0] | "\(.jobname) \(.read.total_ios)"' <<<"$out" 2>/dev/null)
	[ "$got" = "a 256" ] || add_err "iops --name=...: expected [a 256], got [$got]"
	cd "$T" || fail "cd"
fi

if [ ${#errors[@]} -gt 0 ]; then
	printf '%s\n' "${errors[@]}" >&2
	fail "${#errors[@]} of ${#cases[@]} size-bound cases differ from fio"
fi
echo "ok: ${#cases[@]} size-bound cases"
