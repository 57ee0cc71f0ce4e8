#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# --output-format=json (and json+): for the same job, our document has exactly fio 3.33's keys,
# in fio's order and nesting, with the same value classes (string / %lld integer / %f float with
# 6 decimals) — compared line by line with json_shape; the deterministic values are equal
# (fio version, jobname, groupid, error, "job options"/"global options" as typed, latency_depth/
# target/percentile/window, percentile keys, sync count, totals of size-bound jobs, disk names);
# stdout is one clean JSON document (`| jq .` works); the values obey fio's invariants
# (json_sanity: mean within [min,max], lat = slat + clat, bw = bytes/runtime, ...). json+ bins add up to the clat sample
# count, --output=FILE puts the document in FILE, terse lines have fio's fields.
. "$(dirname "$0")/fio_common.sh"

errors=()
add_err() { errors+=("$*"); }

cat >"$T/globals.fio" <<'EOF'
[global]
ioengine=psync
size=2m
bs=8k
group_reporting

[w]
rw=randwrite
numjobs=2

[r]
rw=read
EOF

# NAME|TOTALS|ARGS   TOTALS: exact, sum (rw mix: read+write only) or none (time_based)
cases=(
	"psync-randrw|sum|--name=j --size=4m --ioengine=psync --rw=randrw --rwmixread=70"
	"libaio-timed|none|--name=js --size=16m --ioengine=libaio --direct=1 --bs=4k --rw=randread --iodepth=8 --runtime=1 --time_based"
	"null|exact|--name=n --size=64m --ioengine=null --rw=randread"
	"gtod-reduce|exact|--name=g --size=4m --ioengine=libaio --direct=1 --iodepth=16 --rw=write --gtod_reduce=1"
	"globals-jobfile|exact|$T/globals.fio"
	"percentile-list|exact|--name=p --size=2m --rw=read --lat_percentiles=1 --percentile_list=50:99:99.999"
	"numjobs-nogroup|exact|--name=nj --size=1m --rw=randread --numjobs=2 --description=two_clones"
	"jsonplus|exact|--name=jp --size=2m --rw=randread --output-format=json+"
	"slat-percentiles-plus|exact|--name=sp --size=2m --rw=randread --ioengine=libaio --iodepth=4 --slat_percentiles=1 --output-format=json+"
	"seed000-group|none|--randrepeat=1 --ioengine=libaio --direct=1 --gtod_reduce=1 --name=seq-read --filename=seq-read --bs=128k --iodepth=256 --size=16m --readwrite=read --runtime=1 --time_based --numjobs=4 --group_reporting"
	"cmdline-globals|exact|--size=1m --bs=8k --name=a --rw=read --name=b --rw=write"
)
drop_refused cases

for c in "${cases[@]}"; do
	IFS='|' read -r name tot args <<<"$c"
	fmt=--output-format=json
	[[ "$args" == *--output-format=* ]] && fmt=
	# The format goes first: fio prints the header line of every job parsed before it on
	# stdout, ahead of the document (checked for ours separately below).
	# shellcheck disable=SC2086 # args are word-split on purpose
	par_run run_pair "$name" $fmt $args
done
par_wait

# values NAME SIDE TOTALS: the deterministic values of a document, one per line.
values() {
	local tot=$3
	json_doc "$T/$1.$2.out" | jq -c --arg tot "$tot" '
		def totals($d): if $tot == "exact" then [$d.total_ios, $d.io_bytes, $d.io_kbytes, $d.short_ios, $d.drop_ios]
			else [$d.short_ios, $d.drop_ios] end;
		["version", ."fio version"],
		["global options", ."global options"],
		(.jobs[] | (
			["job", .jobname, .groupid, .error, .desc],	# (eta: INT_MAX if the run took < 3 s, timing)
			["job options", ."job options"],
			["read", totals(.read)], ["write", totals(.write)], ["trim", totals(.trim)],
			(if $tot == "sum" then ["read+write", .read.total_ios + .write.total_ios,
				.read.io_bytes + .write.io_bytes] else empty end),
			["sync", .sync.total_ios],
			["percentile keys", (.read.clat_ns.percentile // {} | keys_unsorted),
				(.read.lat_ns.percentile // {} | keys_unsorted)],
			["latency", .latency_depth, .latency_target, .latency_percentile, .latency_window])),
		["disks", [.disk_util[]?.name]]'
}

for c in "${cases[@]}"; do
	IFS='|' read -r name tot args <<<"$c"
	rr=$(rc_of "$name" ref) ru=$(rc_of "$name" ut)
	if [ "$rr" != 0 ]; then
		case_skip "$name: reference fio failed (rc $rr): $(head -1 "$T/$name.ref.err" | head -c 200)"
		continue
	fi
	case_ran
	[ "$ru" = 0 ] || { add_err "$name: exit status $ru (fio: 0): $(head -c 300 "$T/$name.ut.err")"; continue; }
	if ! jq -e . "$T/$name.ut.out" >/dev/null 2>&1 || [ "$(jq -s length "$T/$name.ut.out")" != 1 ]; then
		add_err "$name: stdout is not exactly one JSON document: $(head -c 300 "$T/$name.ut.out")"
		continue
	fi
	if ! diff -u <(json_doc "$T/$name.ref.out" | json_shape) <(json_shape <"$T/$name.ut.out") >"$T/$name.shape.diff"; then
		add_err "$name: JSON layout differs (- fio, + ours):
$(head -80 "$T/$name.shape.diff")"
	fi
	bad=$(json_sanity "$T/$name.ut.out")
	[ -z "$bad" ] || add_err "$name: impossible values in our JSON:
$bad"
	bad=$(json_sanity "$T/$name.ref.out")
	[ -z "$bad" ] || add_err "$name: fio's own JSON breaks an invariant (json_sanity is wrong?): $bad"
	if ! diff -u <(values "$name" ref "$tot") <(values "$name" ut "$tot") >"$T/$name.values.diff"; then
		add_err "$name: deterministic values differ (- fio, + ours):
$(cat "$T/$name.values.diff")"
	fi
done

# json+: every completion is in exactly one bin.
for side in ref ut; do
	[ "$(rc_of jsonplus ref)" = 0 ] || break
	got=$(json_doc "$T/jsonplus.$side.out" | jq -r '.jobs[0].read.clat_ns | "\(.N) \([.bins[]?] | add)"' 2>/dev/null)
	read -r n sum <<<"$got"
	[ -n "${n:-}" ] && [ "$n" != 0 ] && [ "$n" = "${sum:-}" ] ||
		add_err "jsonplus ($side): clat bins must add up to N: [$got]"
done

# --output=FILE: the document goes to the file, stdout keeps nothing of it.
run_pair outfile --name=o --size=1m --rw=write --output-format=json --output=res.json
for side in ref ut; do
	[ "$(rc_of outfile $side)" = 0 ] || { add_err "--output ($side): exit status $(rc_of outfile $side)"; continue; }
	jq -e '.jobs[0].write.total_ios == 256' "$T/outfile.$side.d/res.json" >/dev/null 2>&1 ||
		add_err "--output ($side): res.json is not the expected document: $(head -c 200 "$T/outfile.$side.d/res.json" 2>&1)"
	[ ! -s "$T/outfile.$side.out" ] || add_err "--output ($side): stdout not empty: $(head -c 200 "$T/outfile.$side.out")"
done

# Terse (--minimal, --terse-version=2/3/5): the same number of ';' fields (121 + 9 per disk
# for v3) and the same leading fields (version, fio version, jobname, groupid, error, kb).
# ($47 is write_kb in v3 only: v5 inserts sample fields after each bw block.)
terse_key() { awk -F';' -v v="$2" '{ if (v == 2) print NF, $1, $2, $3, $4, $5
	else if (v == 3) print NF, $1, $2, $3, $4, $5, $6, $47
	else print NF, $1, $2, $3, $4, $5, $6 }' "$1"; }
run_pair terse3 --name=t --size=2m --rw=write --minimal
run_pair terse5 --name=t --size=2m --rw=randread --output-format=terse --terse-version=5
run_pair terse2 --name=t --size=2m --rw=randread --output-format=terse --terse-version=2
for v in 3 5 2; do
	a=$(terse_key "$T/terse$v.ref.out" $v) b=$(terse_key "$T/terse$v.ut.out" $v)
	[ "$(rc_of terse$v ut)" = "$(rc_of terse$v ref)" ] || add_err "terse v$v: exit status $(rc_of terse$v ut)"
	[ "$a" = "$b" ] || add_err "terse v$v: fields differ: fio [$a] ours [$b]"
done

# A job that fails with an I/O error: fio prints "fio: pid=N, err=22/..." on stdout before the
# document; ours keeps stdout clean. Both exit with the number of failed jobs.
set_aio "the job with an I/O error"
run_pair ioerr --name=x --size=1m --ioengine=$AIO --direct=1 --bs=1000 --rw=read --output-format=json
assert_eq "I/O error job: exit status like fio" "$(rc_of ioerr ref)" "$(rc_of ioerr ut)"
a=$(json_doc "$T/ioerr.ref.out" | jq -c '[.jobs[] | .jobname, .error]')
b=$(json_doc "$T/ioerr.ut.out" | jq -c '[.jobs[] | .jobname, .error]' 2>&1)
[ "$a" = "$b" ] || add_err "I/O error job: jobs/errors differ: fio $a ours $b"
if ! skip_if_fio "fio prints error messages on stdout before the JSON document"; then
	jq -e . "$T/ioerr.ut.out" >/dev/null 2>&1 || add_err "I/O error job: stdout is not clean JSON: $(head -c 300 "$T/ioerr.ut.out")"
fi

# --output-format=json after the job options: fio has already printed the jobs' header lines
# on stdout by then, which breaks the document; ours never does.
if ! skip_if_fio "fio prints job header lines before a late --output-format=json"; then
	run_one ut lateformat --size=1m --name=a --rw=read --name=b --rw=write --output-format=json
	assert_pure_json "--output-format=json after the job options" "$T/lateformat.ut.out"
fi

# A job name with a tab, a quote and a backslash: fio writes the tab raw (invalid JSON); ours
# escapes it and the name survives the round trip.
if ! skip_if_fio "fio does not escape control characters in JSON strings"; then
	weird=$'t\tq"b\\'
	run_one ut escape --name="$weird" --size=1m --ioengine=null --output-format=json
	got=$(jq -r '.jobs[0].jobname' "$T/escape.ut.out" 2>&1)
	[ "$got" = "$weird" ] || add_err "JSON escaping: job name [$weird] came back as [$got]"
fi

if [ ${#errors[@]} -gt 0 ]; then
	printf '%s\n' "${errors[@]}" >&2
	fail "${#errors[@]} JSON differences from fio"
fi
echo "ok: ${#cases[@]} JSON cases"
