# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# Helpers shared by the fio differential tests (tests/e2e/t_fio_*.sh). Source it instead of
# lib.sh:   . "$(dirname "$0")/fio_common.sh"
#
# The binary under test (IOPS_BIN) is either build/iops, invoked through a symlink named `fio`
# (the multi-call name the image uses), or the real fio itself: `IOPS_BIN=/usr/bin/fio
# tests/e2e/run.sh /usr/bin/fio` must pass too, which is how these tests are validated.
# Assertions about behaviour that is iops' own (refusing to overwrite files, clean JSON on
# stdout, our engine list) are skipped with a note when the binary under test is fio.
#
# Every comparison runs the reference fio and the binary under test with identical arguments,
# each in its own fresh directory, so they never share files.
set -u
_fio_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
_fio_repo=$(cd "$_fio_here/../.." && pwd)
REF_FIO=${REF_FIO:-/usr/bin/fio}

UT_IS_FIO=0
if [ "$("${IOPS_BIN:?IOPS_BIN must name the binary under test}" --version 2>/dev/null)" = "fio-3.33" ]; then
	UT_IS_FIO=1
	# lib.sh creates its scratch directory beside the binary: keep that out of /usr/bin.
	mkdir -p "$_fio_repo/build/e2e-realfio"
	ln -sfn "$(readlink -f "$IOPS_BIN")" "$_fio_repo/build/e2e-realfio/fio"
	IOPS_BIN=$_fio_repo/build/e2e-realfio/fio
fi
. "$_fio_here/lib.sh"

# The reference: fio 3.33 exactly (a missing or other fio is a skip here, a failure in CI).
need_ref_fio
command -v jq >/dev/null || fail "jq is required"

mkdir -p "$T/bin"
ln -s "$IOPS" "$T/bin/fio"
UT_FIO=$T/bin/fio

# skip_if_fio WHAT: true (and a note) when the binary under test is the real fio.
skip_if_fio() {
	if [ "$UT_IS_FIO" = 1 ]; then
		skip_note "real fio under test: $*"
		return 0
	fi
	return 1
}

# run_one SIDE NAME ARGS...: run fio (SIDE=ref) or the binary under test (SIDE=ut) in the fresh
# directory $T/NAME.SIDE.d; stdout, stderr and exit status land in $T/NAME.SIDE.{out,err,rc}.
# Both run with argv[0] = "fio", as a user types it (getopt messages start with argv[0]).
# FIO_WRAP (optional, no spaces inside its words): a command the run goes through, e.g. strace.
run_one() {
	local side=$1 name=$2 bin rc asan=${ASAN_OPTIONS:-}
	shift 2
	if [ "$side" = ref ]; then bin=$REF_FIO; else bin=$UT_FIO; fi
	mkdir -p "$T/$name.$side.d"
	# (the sanitizer build: LeakSanitizer cannot run under ptrace, and says so in a report)
	case ${FIO_WRAP:-} in strace*) asan="${asan:+$asan:}detect_leaks=0" ;; esac
	# shellcheck disable=SC2086 # FIO_WRAP is words on purpose
	(cd "$T/$name.$side.d" && ASAN_OPTIONS=$asan exec timeout -k 5 "${FIO_TIMEOUT:-60}" ${FIO_WRAP:-} bash -c 'exec -a fio "$0" "$@"' "$bin" "$@") \
		>"$T/$name.$side.out" 2>"$T/$name.$side.err" </dev/null
	rc=$?
	echo "$rc" >"$T/$name.$side.rc"
	[ "$rc" -ne 124 ] && [ "$rc" -ne 137 ] || echo "$name ($side): timed out: $bin $*" >>"$T/timeouts"
	return 0
}

# run_pair NAME ARGS...: run_one for both sides.
run_pair() {
	run_one ref "$@"
	run_one ut "$@"
}

# Parallel runs: fio spends ~0.3 s of wall time per run mostly waiting, so the differential
# tests start several runs at once. par_run CMD... runs CMD in the background, at most
# FIO_PAR (default 4) at a time; par_wait waits for all and fails on timeouts.
par_run() {
	while [ "$(jobs -rp | wc -l)" -ge "${FIO_PAR:-4}" ]; do wait -n; done
	"$@" &
}
par_wait() {
	wait
	[ ! -s "$T/timeouts" ] || fail "timed out: $(cat "$T/timeouts")"
}

rc_of() { cat "$T/$1.$2.rc"; }

# json_doc FILE: the JSON document in FILE. fio may print messages on stdout before it
# (an error line, say); for the binary under test stdout must be the document alone (see
# assert_pure_json).
json_doc() { sed -n '/^{/,$p' "$1"; }

# assert_pure_json WHAT FILE: FILE parses as exactly one JSON document (what `| jq` needs).
assert_pure_json() {
	jq -e 'type == "object"' "$2" >/dev/null 2>"$T/jq.err" ||
		fail "$1: stdout is not a clean JSON document: $(head -c 300 "$2") / $(cat "$T/jq.err")"
	local n
	n=$(jq -s 'length' "$2")
	assert_eq "$1: number of JSON documents" 1 "$n"
}

# json_totals FILE: one line per reported job:
#   jobname groupid error read_ios read_bytes write_ios write_bytes
json_totals() {
	json_doc "$1" | jq -r '.jobs[] | [.jobname, .groupid, .error,
		.read.total_ios, .read.io_bytes, .write.total_ios, .write.io_bytes] | map(tostring) | join(" ")'
}

# err_summary FILE_PREFIX DDIR: how a run that met an error or a short I/O ended, one line:
# exit status, the job's error line (fio prints it on stdout before a JSON document, iops on
# stderr; pid masked), the first io_u error line (file masked), then the JSON job's error,
# total_ios, short_ios and clat samples of DDIR and its completion map. FILE_PREFIX.{rc,out,err}
# are the run's.
err_summary() {
	printf 'rc=%s ' "$(cat "$1.rc")"
	grep -h -m1 '^fio: pid=.*err=' "$1.err" "$1.out" | sed -E 's/pid=[0-9]+/pid=P/' | tr '\n' ' '
	grep -h -m1 'io_u error' "$1.err" | sed 's/on file [^:]*:/on file F:/' | tr '\n' ' '
	json_doc "$1.out" | jq -r --arg d "$2" '.jobs[0] | "err=\(.error) ios=\(.[$d].total_ios) short=\(.[$d].short_ios) clat=\(.[$d].clat_ns.N) complete=\(.iodepth_complete | tostring)"'
}
# json_bytes FILE DDIR: the first job's io_bytes of DDIR
json_bytes() { json_doc "$1" | jq -r --arg d "$2" '.jobs[0][$d].io_bytes'; }

# files_in DIR: "size name" of every regular file under DIR (what a run left behind).
files_in() { (cd "$1" && find . -type f -printf '%s %P\n' | sort -k2); }

# show_run NAME SIDE: the run's outputs, for failure messages.
show_run() {
	echo "--- $1 ($2) rc=$(cat "$T/$1.$2.rc" 2>/dev/null) stdout:"
	head -c 2000 "$T/$1.$2.out" 2>/dev/null
	echo "--- stderr:"
	head -c 2000 "$T/$1.$2.err" 2>/dev/null
}

# normalise_normal [size_bound]: fio's normal output (stdin) reduced to its layout, so that two
# runs of the same job compare equal whatever the timing, while a missing, extra or reordered
# line, a different label or a different deterministic value is still a difference:
#   - the report date and pid are masked; every number (with its k/M/Ki/Mi... prefix) becomes N,
#     and the padding in front of it goes (fio pads with %5llu / %5.02f);
#   - the unit labels that follow the magnitude of a timing ((nsec)/(usec)/(msec), bw (KiB/s)
#     vs (MiB/s)) are masked;
#   - a percentile block becomes one line with the number of entries (how many entries fit on
#     a row depends on the widest value);
#   - a run of `lat (nsec|usec|msec)   :` distribution lines (which buckets are non-empty is
#     timing) collapses to one placeholder line;
#   - size_bound: the `bw (...)`/`iops :` sample lines are dropped, because they exist only
#     when a run lasts more than one 500 ms window, which a short size-bound run may not.
# The job header lines (`(g=N): rw=..., bs=..., ioengine=..., iodepth=N`), `...`, `fio-3.33`,
# `Starting N processes`, `Laying out ...`, `(groupid=N, jobs=N): err=N` are kept verbatim
# apart from pid/date: check them with exact_lines.
normalise_normal() {
	local size_bound=${1:-}
	sed -E \
		-e 's/pid=[0-9]+: [A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9][0-9] [0-9:]{8} [0-9]{4}$/pid=P: DATE/' |
	awk -v sb="$size_bound" '
		/^     \|/ { npct += gsub(/th=\[/, "&"); next }
		npct { print "     | <" npct " percentiles>"; npct = 0 }
		/^  lat \((nsec|usec|msec)\)   : / { if (!inlat) print "  lat (U)   : <distribution>"; inlat = 1; next }
		{ inlat = 0 }
		sb != "" && /^   (bw \(|iops        :)/ { next }
		{ print }
		END { if (npct) print "     | <" npct " percentiles>" }' |
	sed -E \
		-e '/\((g|groupid)=[0-9]+|^fio-3\.33$|^Starting |: Laying out IO file|^     \| </b' \
		-e 's/\((nsec|usec|msec)\)/(U)/g' \
		-e 's/\( *(KiB|MiB|GiB|kB|MB|GB)\/s\)/(U\/s)/g' \
		-e 's/[0-9]+(\.[0-9]+)?(Ki|Mi|Gi|Ti|Pi|k|K|M|G|T|P)?/N/g' \
		-e 's/(=|\[) +N/\1N/g'
}

# exact_lines: the lines of a normal report (stdin) that must be identical to fio's,
# pid and date masked.
exact_lines() {
	grep -E '\((g|groupid)=[0-9]+|^\.\.\.$|^fio-3\.33$|^Starting |: Laying out IO file|^Run status group|^Disk stats' |
		sed -E 's/pid=[0-9]+: .*/pid=P: DATE/'
}

# json_shape: a fio JSON document (stdin) reduced to its layout: one line per key or bracket,
# indentation and key order kept, scalar values replaced by their printed class: S (string),
# I (integer, %lld), F (float with exactly 6 decimals, fio's %f); anything else stays verbatim
# (and will show up in a diff). Keys whose names are values (json+ "bins") collapse to one line.
json_shape() {
	sed -E \
		-e 's/^( *"[^"]*" : )"([^"\\]|\\.)*"(,?)$/\1S\3/' \
		-e 's/^( *"[^"]*" : )-?[0-9]+(,?)$/\1I\2/' \
		-e 's/^( *"[^"]*" : )-?[0-9]+\.[0-9]{6}(,?)$/\1F\2/' |
	awk '/"bins" : \{$/ { print; inb = 1; next }
		inb && /^ *"[0-9]+" : I,?$/ { if (!shown) print "    <bins>"; shown = 1; next }
		{ inb = 0; shown = 0; print }'
}

# json_sanity FILE: print every violated invariant of a fio JSON document (nothing when sane).
# Holds for fio 3.33 itself; catches garbage that masked comparisons cannot see (an unsigned
# underflow printed as max=18447P, a mean outside [min,max], bw inconsistent with bytes/time,
# percentiles out of order or outside [min,max], lat that is not slat + clat, a runtime of 0
# beside bytes done: an I/O that failed at submission is counted, as fio counts it, with no
# bytes, bandwidth or runtime, and only in a job that reports the error).
json_sanity() {
	json_doc "$1" | jq -r '
	def approx($a; $b; $rel; $abs): (($a - $b) | fabs) <= ($abs + $rel * ([($a | fabs), ($b | fabs)] | max));
	def lat_ok($name; $s; $limit_ns):
		if ($s.N // 0) == 0 then empty else
		(if ($s.min <= $s.mean + 0.5 and $s.mean <= $s.max + 0.5) then empty else "\($name): mean \($s.mean) outside [\($s.min), \($s.max)]" end),
		(if $s.max <= $limit_ns then empty else "\($name): max \($s.max) ns is longer than the whole run" end),
		(if $s.stddev >= 0 then empty else "\($name): negative stddev" end),
		(if ($s.percentile // null) == null then empty else
			([$s.percentile[]] as $p |
			(if ([range(1; $p | length)] | all(. as $i | $p[$i] >= $p[$i - 1])) then empty else "\($name): percentiles not ascending" end),
			(if ($p | max) <= $s.max * 1.02 + 64 then empty else "\($name): percentile \($p | max) above max \($s.max)" end),
			(if ($p | min) >= $s.min * 0.98 - 64 then empty else "\($name): percentile \($p | min) below min \($s.min)" end))
		end)
		end;
	.jobs[] | . as $j | "job \(.jobname)" as $jn |
	((.elapsed + 2) * 1000000000) as $limit |
	(["read", "write", "trim"][] as $d | .[$d] as $x | select($x.total_ios > 0) | "\($jn) \($d)" as $n |
		(if $x.io_kbytes == ($x.io_bytes / 1024 | floor) then empty else "\($n): io_kbytes \($x.io_kbytes) != io_bytes/1024" end),
		(if $x.runtime > 0 then
			(if approx($x.bw_bytes; $x.io_bytes * 1000 / $x.runtime; 0.001; 2) then empty else "\($n): bw_bytes \($x.bw_bytes) != io_bytes*1000/runtime" end),
			(if $x.bw == ($x.bw_bytes / 1024 | floor) then empty else "\($n): bw \($x.bw) != bw_bytes/1024" end),
			(if approx($x.iops; $x.total_ios * 1000 / $x.runtime; 0.001; 1) then empty else "\($n): iops \($x.iops) != total_ios*1000/runtime" end)
		elif $x.io_bytes > 0 then "\($n): runtime is 0 with bytes done"
		# an I/O that failed at once (fio counts it, with no bytes and no runtime): nothing claimed
		elif $x.bw_bytes != 0 or $x.iops != 0 or $j.error == 0 then "\($n): runtime is 0 with I/O done and no error"
		else empty end),
		lat_ok("\($n) slat_ns"; $x.slat_ns; $limit), lat_ok("\($n) clat_ns"; $x.clat_ns; $limit), lat_ok("\($n) lat_ns"; $x.lat_ns; $limit),
		(if ($x.lat_ns.N // 0) > 0 and ($x.clat_ns.N // 0) > 0 then
			(if $x.lat_ns.mean + 1 >= $x.clat_ns.mean then empty else "\($n): lat mean \($x.lat_ns.mean) < clat mean \($x.clat_ns.mean)" end),
			(if ($x.slat_ns.N // 0) == 0 or approx($x.lat_ns.mean; $x.slat_ns.mean + $x.clat_ns.mean; 0.02; 200) then empty
			 else "\($n): lat mean \($x.lat_ns.mean) != slat mean \($x.slat_ns.mean) + clat mean \($x.clat_ns.mean)" end),
			# the lat of every I/O contains its clat: the fastest lat is no faster than the fastest clat
			(if $x.lat_ns.min + 1 >= $x.clat_ns.min then empty
			 else "\($n): lat min \($x.lat_ns.min) < clat min \($x.clat_ns.min)" end)
		else empty end),
		(if $x.bw_samples > 0 then
			(if $x.bw_min <= $x.bw_mean + 0.5 and $x.bw_mean <= $x.bw_max + 0.5 then empty else "\($n): bw_mean outside [bw_min, bw_max]" end),
			(if $x.iops_min <= $x.iops_mean + 0.5 and $x.iops_mean <= $x.iops_max + 0.5 then empty else "\($n): iops_mean outside [iops_min, iops_max]" end),
			(if $x.bw_agg >= 0 and $x.bw_agg <= 100 then empty else "\($n): bw_agg \($x.bw_agg) not a percentage" end)
		else empty end)),
	(([.read, .write, .trim] | map(.total_ios) | add) as $ios | if $ios > 0 then
		([.iodepth_level[]] | add) as $s |
		# fio counts syncs in the depth map but not in its denominator (1=103.1% with fsync=32)
		(101.5 + 100 * (.sync.total_ios // 0) / $ios) as $hi |
		(if $s >= 99 and $s <= $hi then empty else "\($jn): iodepth_level adds up to \($s)" end),
		(([.latency_ns[], .latency_us[], .latency_ms[]] | add) as $l |
			if $l == 0 or ($l >= 99 and $l <= 101) then empty else "\($jn): latency_ns/us/ms add up to \($l)" end)
	 else empty end),
	(if .usr_cpu >= 0 and .sys_cpu >= 0 and .usr_cpu + .sys_cpu <= 100 * 64 then empty else "\($jn): cpu \(.usr_cpu)/\(.sys_cpu)" end)
	' 2>&1
}
