#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# iops merge: the exact merge of fio JSON results. Three json+ results of iops fio (null and a
# file, different numjobs, one with group_reporting), merged from files and from one stream
# with noise lines: All clients' total_ios, io_bytes and every clat_ns bin are the sums of the
# inputs', its percentiles those of the summed bins (computed here in python3), jobs= counts
# every job; the same for the real fio's json+ results of the same jobs; plain json inputs
# are marked approximate (the count-weighted means, on fio's buckets); the normal All clients
# block has the reference client/server sample's layout plus the percentile block; bad inputs
# are one line on stderr, exit 1, nothing on stdout.
. "$(dirname "$0")/fio_common.sh"
command -v python3 >/dev/null || missing_prereq "python3 is required"
REF_SAMPLE=$_fio_repo/../shared/reference/fio-client-server/normal.txt

errors=()
add_err() { errors+=("$*"); }

# the three jobs: NAME|ARGS
jobs=(
	"a|--name=a --ioengine=null --size=4m --bs=4k --rw=randread --numjobs=2"
	"b|--name=b --ioengine=psync --filename=data --size=4m --bs=4k --rw=randwrite"
	"c|--name=c --ioengine=null --size=4m --bs=16k --rw=randrw --numjobs=3 --group_reporting"
)
gen() {	# gen SIDE FORMAT: $T/SIDE/<name>.json for every job
	local side=$1 fmt=$2 bin=$IOPS name args
	[ "$side" = fio ] && bin=$REF_FIO
	mkdir -p "$T/$side"
	for j in "${jobs[@]}"; do
		IFS='|' read -r name args <<<"$j"
		# shellcheck disable=SC2086 # ARGS are words
		(cd "$T/$side" && if [ "$bin" = "$IOPS" ]; then "$bin" fio $args --output-format="$fmt"; else "$bin" $args --output-format="$fmt"; fi) \
			>"$T/$side/$name.json" 2>"$T/$side/$name.err" || add_err "$side $name: exit $? $(head -c 200 "$T/$side/$name.err")"
		rm -f "$T/$side/data"
	done
}
gen ut json+
gen fio json+
gen plain json

# merge_check.py (beside this script) MERGED INPUT...: the sums, bins and percentiles of All
# clients (exact mode), or the approximate marking and weighted values (plain inputs: APPROX=1)
cp "$(dirname "$0")/merge_check.py" "$T/check.py"
merge_check() {	# merge_check LABEL MERGED INPUT...
	local label=$1 out
	shift
	out=$(python3 "$T/check.py" "$@" 2>&1)
	[ -z "$out" ] || add_err "$label: $out"
	case_ran
}

names=(a b c)
for side in ut fio plain; do eval "$side=(\"\$T/$side/a.json\" \"\$T/$side/b.json\" \"\$T/$side/c.json\")"; done
# 1. iops' json+ from files
"$IOPS" merge --output-format=json+ "${ut[@]}" >"$T/m.json" 2>"$T/m.err" || add_err "merge files: exit $?: $(cat "$T/m.err")"
merge_check files "$T/m.json" "${ut[@]}"
[ "$(jq -r '[.client_stats[:-1][].hostname] | unique | join(",")' "$T/m.json")" = "$T/ut/a.json,$T/ut/b.json,$T/ut/c.json" ] ||
	add_err "hostnames: $(jq -c '[.client_stats[].hostname]' "$T/m.json")"

# 2. the same as one stream, noise around and between the documents
{ echo "pod a starting"; cat "$T/ut/a.json"; echo "fio: some message"; echo "} stray"; cat "$T/ut/b.json" "$T/ut/c.json"; echo "done"; } |
	"$IOPS" merge --output-format=json+ - >"$T/s.json" 2>"$T/s.err" || add_err "merge stream: exit $?: $(cat "$T/s.err")"
merge_check stream "$T/s.json" "${ut[@]}"
[ "$(jq -c '.client_stats[-1]' "$T/s.json")" = "$(jq -c '.client_stats[-1]' "$T/m.json")" ] || add_err "stream: All clients differs from the files'"
[ "$(jq -r '[.client_stats[:-1][].hostname] | unique | join(",")' "$T/s.json")" = "stdin:1,stdin:2,stdin:3" ] ||
	add_err "stream hostnames: $(jq -c '[.client_stats[].hostname]' "$T/s.json")"

# 3. the real fio's json+ results
"$IOPS" merge --output-format=json+ "${fio[@]}" >"$T/f.json" 2>"$T/f.err" || add_err "merge fio: exit $?: $(cat "$T/f.err")"
merge_check real-fio "$T/f.json" "${fio[@]}"

# 4. plain json: approximate, marked in JSON and in the normal output
"$IOPS" merge --output-format=json "${plain[@]}" >"$T/p.json" 2>"$T/p.err" || add_err "merge plain: exit $?: $(cat "$T/p.err")"
APPROX=1 merge_check plain "$T/p.json" "${plain[@]}"
"$IOPS" merge "${plain[@]}" >"$T/p.out" 2>&1 || add_err "merge plain normal: exit $?"
grep -q '^  note         : approximate percentiles' "$T/p.out" || add_err "plain normal: no note line"

# 5. normal: per-input lines, then the All clients block in the layout of fio's (the reference
# client/server sample), plus the percentile block fio does not print there
"$IOPS" merge "${ut[@]}" >"$T/m.out" 2>"$T/m.err" || add_err "merge normal: exit $?: $(cat "$T/m.err")"
grep -q note "$T/m.out" && add_err "exact merge says approximate"
for n in "${names[@]}"; do
	grep -qE "^$T/ut/$n.json: jobs=[0-9]+, first completion [0-9-]+ [0-9:.]+, last completion" "$T/m.out" || add_err "no input line for $n"
done
assert_match "All clients line" '^All clients: \(groupid=0, jobs=6\): err= 0: pid=0: [A-Z]' "$(grep '^All clients' "$T/m.out")"
grep -q '^    clat percentiles (' "$T/m.out" || add_err "normal: no clat percentile block"
if [ -f "$REF_SAMPLE" ]; then
	# a job with every line of the sample's (slat, bw and iops samples): libaio (posixaio where
	# the kernel refuses it: slat too), 1 s, twice
	set_aio "the timed inputs of the sample's merge"
	for i in 1 2; do
		(cd "$T" && "$IOPS" fio --name=t --ioengine=$AIO --direct=1 --filename=data$i --size=4m --bs=4k \
			--rw=randread --iodepth=4 --time_based --runtime=1 --numjobs=2 --group_reporting \
			--output-format=json+ >t$i.json 2>t$i.err && rm -f data$i) || add_err "timed input $i: $(cat "$T/t$i.err")"
	done
	"$IOPS" merge "$T/t1.json" "$T/t2.json" | sed -n '/^All clients/,$p' >"$T/ours.blk"
	sed -n '/^All clients/,$p' "$REF_SAMPLE" | sed '/^$/d' >"$T/ref.blk"
	# fio prints BW=249Mi (261M) there (no B/s): ours is fio's usual BW=...MiB/s (...MB/s)
	sed -i -E 's/BW=([0-9.]+)([KMG]i)? \(([0-9.]+)([kMG])?\)/BW=\1\2B\/s (\3\4B\/s)/' "$T/ref.blk"
	# and it says jobs=2 where four ran (ours: jobs=4, checked above)
	normalise_normal <"$T/ref.blk" | sed 's/jobs=[0-9]*/jobs=J/' >"$T/ref.shape"
	normalise_normal <"$T/ours.blk" | sed 's/jobs=[0-9]*/jobs=J/' | grep -v '^    clat percentiles\|^     | <' >"$T/ours.shape"
	diff -u "$T/ref.shape" "$T/ours.shape" >"$T/shape.diff" || add_err "All clients layout differs from fio's: $(cat "$T/shape.diff")"
	case_ran
else
	missing_part "reference sample $REF_SAMPLE not found (CI copies shared/ beside the repo)"
fi

# 6. fio's own client output (client_stats, its All clients entry left out): 4 jobs on 2 servers
REF_JSON=${REF_SAMPLE%/*}/client.json
if [ -f "$REF_JSON" ]; then
	"$IOPS" merge --output-format=json "$REF_JSON" >"$T/c.json" 2>"$T/c.err" || add_err "merge client.json: $(cat "$T/c.err")"
	[ "$(jq '.client_stats | length' "$T/c.json")" = 3 ] || add_err "client.json: $(jq '.client_stats | length' "$T/c.json") entries"
	[ "$(jq '.client_stats[-1].read.total_ios' "$T/c.json")" = "$(jq '.client_stats[-1].read.total_ios' "$REF_JSON")" ] ||
		add_err "client.json: total_ios $(jq '.client_stats[-1].read.total_ios' "$T/c.json"), fio's All clients $(jq '.client_stats[-1].read.total_ios' "$REF_JSON")"
	"$IOPS" merge "$REF_JSON" | grep -q '^All clients: (groupid=0, jobs=4)' || add_err "client.json: not jobs=4"
	case_ran
else
	missing_part "reference sample $REF_JSON not found (CI copies shared/ beside the repo)"
fi

# 7. bad inputs: one line on stderr, exit 1, nothing on stdout
printf 'just text\n' >"$T/text.txt"
echo '{"a" : 1}' >"$T/other.json"
printf '{\n  "fio version" : "fio-3.33",\n  "jobs" : [ ]\n}\n' >"$T/nojobs.json"
head -c 2000 "$T/ut/a.json" >"$T/trunc.json"
python3 - "$T/ut/a.json" "$T/badbins.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
b = d["jobs"][0]["read"]["clat_ns"]["bins"]
b[next(iter(b))] += 1
json.dump(d, open(sys.argv[2], "w"))
PY
bad=(
	"missing|$T/nope.json|nope.json: No such file or directory"
	"text|$T/text.txt|no JSON document"
	"other|$T/other.json|not fio's JSON output"
	"nojobs|$T/nojobs.json|no jobs"
	"truncated|$T/trunc.json|not a JSON document"
	"bins|$T/badbins.json|do not add up"
	"noinput||no input"
	"format|--output-format=csv $T/ut/a.json|bad --output-format"
	"option|--bogus $T/ut/a.json|unknown option"
)
for c in "${bad[@]}"; do
	IFS='|' read -r name args want <<<"$c"
	# shellcheck disable=SC2086 # ARGS are words
	"$IOPS" merge $args >"$T/bad.out" 2>"$T/bad.err"
	rc=$?
	[ "$rc" = 1 ] || add_err "bad $name: exit $rc"
	[ ! -s "$T/bad.out" ] || add_err "bad $name: stdout not empty"
	[ "$(wc -l <"$T/bad.err")" = 1 ] && grep -q "^iops merge: .*$want" "$T/bad.err" || add_err "bad $name: '$(cat "$T/bad.err")'"
	case_ran
done

if [ ${#errors[@]} -gt 0 ]; then
	printf '%s\n' "${errors[@]}" >&2
	fail "${#errors[@]} problem(s)"
fi
echo "PASS: t_merge ($E2E_CASES_RUN cases)"
