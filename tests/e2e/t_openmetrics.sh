#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# --output-format=openmetrics: the exposition of one run, parsed by a real parser (Debian's
# python3-prometheus-client: prometheus_client.openmetrics.parser, and its Prometheus-text
# parser, as node_exporter's textfile collector and a Pushgateway read it), with every sample
# equal to the JSON of the same run (json+,openmetrics: the document, then the exposition) and
# none left unchecked: fio mode (a plain json run: summaries exact, histograms consistent with
# the percentiles; a json+ run: histograms exact, job names to escape), quick, a preset, sweep
# and merge (json+ inputs: exact; plain json inputs: no histogram made up). --output=FILE: the
# old file stays whole until the new one replaces it, a failing write leaves neither a
# temporary file nor a changed file, an unwritable place creates nothing. The client: three
# servers on 127.0.0.2-.4, one exposition of every server's jobs (label host) and All clients,
# equal to the client's json+ of the same run; its --output written whole; a sweep across the
# same servers (its rows All clients', no host label).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/remote_common.sh"

PY=/usr/bin/python3	# Debian's, where python3-prometheus-client is (a pyenv one may be first on PATH)
[ -x "$PY" ] && "$PY" -c 'import prometheus_client.openmetrics.parser' 2>/dev/null ||
	missing_prereq "python3-prometheus-client is not installed (apt-get install python3-prometheus-client)"
errors=()
add_err() { errors+=("$*"); }
D=$T/vol
mkdir -p "$D"

# check.py MODE FILE [INPUT...]: FILE holds the JSON document then the exposition; every sample
# must be the JSON's (MODE fio, quick, merge or sweep; merge's INPUTs give the inputs' times).
cat >"$T/check.py" <<'PY'
import json, os, sys
from decimal import Decimal
from fractions import Fraction
from prometheus_client.openmetrics.parser import text_string_to_metric_families as om_parse
from prometheus_client.parser import text_string_to_metric_families as prom_parse

mode, path = sys.argv[1], sys.argv[2]
text = open(path, encoding="utf-8", errors="surrogateescape").read()
doc, end = json.JSONDecoder().raw_decode(text)
om = text[end:].lstrip("\n")
host = os.uname().nodename
errs = []
got, want, kinds = {}, {}, {}

for fam in om_parse(om):
    kinds[fam.name] = (fam.type, fam.unit)
    for s in fam.samples:
        k = (s.name, tuple(sorted(s.labels.items())))
        if k in got:
            errs.append("duplicate sample %s" % (k,))
        got[k] = s.value
if not om.endswith("# EOF\n"):
    errs.append("the exposition does not end with # EOF")
# the same text as the Prometheus text format (node_exporter, Pushgateway): every sample read
prom = {(s.name, tuple(sorted(s.labels.items()))) for f in prom_parse(om) for s in f.samples}
if prom != set(got):
    errs.append("the Prometheus text parser reads other samples: %d vs %d" % (len(prom), len(got)))

def key(name, labels):
    return (name, tuple(sorted((k, str(x)) for k, x in labels.items() if x is not None)))

def put(name, labels, v):
    want[key(name, labels)] = v

BOUNDS = [2, 4, 10, 20, 50, 100, 250, 500, 750, 1000, 2000, 4000, 10000, 20000, 50000, 100000, 250000,
          500000, 750000, 10**6, 2 * 10**6, 4 * 10**6, 10**7, 2 * 10**7, 5 * 10**7, 10**8, 25 * 10**7,
          5 * 10**8, 75 * 10**7, 10**9, 2 * 10**9]
hist_checked = [0]

def job(e, labels, ts=None):
    if ts is not None:
        put("iops_report_timestamp_seconds", labels, ts / 1000)
    put("iops_job_error", labels, abs(e["error"]))
    put("iops_job_runtime_seconds", labels, e["job_runtime"] / 1000)
    put("iops_cpu_utilization_ratio", dict(labels, mode="user"), e["usr_cpu"] / 100)
    put("iops_cpu_utilization_ratio", dict(labels, mode="system"), e["sys_cpu"] / 100)
    for d in ("read", "write", "trim", "mixed"):
        x = e.get(d)
        if not x or not x["total_ios"]:
            continue
        dl = dict(labels, direction=d)
        put("iops_io_bytes_total", dl, x["io_bytes"])
        put("iops_ios_total", dl, x["total_ios"])
        put("iops_runtime_seconds", dl, x["runtime"] / 1000)
        put("iops_bandwidth_bytes_per_second", dl, x["bw_bytes"])
        put("iops_operations_per_second", dl, x["iops"])
        for kind in ("slat", "clat", "lat"):
            l = x[kind + "_ns"]
            if not l["N"]:
                continue
            kl = dict(dl, kind=kind)
            s = l["mean"] * l["N"] / 1e9
            put("iops_latency_seconds_count", kl, l["N"])
            put("iops_latency_seconds_sum", kl, s)
            pcts = l.get("percentile", {})
            for k, v in pcts.items():
                put("iops_latency_seconds", dict(kl, quantile=repr(float(Decimal(k) / 100))), v / 1e9)
            if not pcts or mode == "merge-approx":
                continue
            hl = dict(kl)
            for name in ("_count", "_sum"):
                put("iops_latency_histogram_seconds" + name, hl, l["N"] if name == "_count" else s)
            put("iops_latency_histogram_seconds_bucket", dict(hl, le="+Inf"), l["N"])
            if "bins" in l:	# json+: the buckets are the bins' sums
                bins = {int(k): c for k, c in l["bins"].items()}
                for b in BOUNDS:
                    put("iops_latency_histogram_seconds_bucket", dict(hl, le=repr(b / 1e9)),
                        sum(c for v, c in bins.items() if v <= b))
                hist_checked[0] += 1
                continue
            # plain json: no bins to sum; each bucket must agree with every percentile fio printed
            # (fio's percentile is the first bin whose running count reaches p% of N)
            for b in BOUNDS:
                k_b = key("iops_latency_histogram_seconds_bucket", dict(hl, le=repr(b / 1e9)))
                cum = got.get(k_b)
                if cum is None:
                    errs.append("missing bucket %s" % (k_b,))
                    continue
                want[k_b] = cum
                for k, v in pcts.items():
                    thr = Fraction(float(k)) / 100 * l["N"]
                    if (cum >= thr) != (b >= v) and abs(cum - thr) > 1e-6 * l["N"]:
                        errs.append("%s: bucket le=%s holds %d, percentile %s is %d" % (kl, b, cum, k, v))
            hist_checked[0] += 1

put("iops_info", {"version": None, "fio_compat": "fio-3.33"}, 1)
info = [k for k in got if k[0] == "iops_info"]
if len(info) == 1:	# the version is the build's: take it as written, check it is one
    want.pop(next(k for k in want if k[0] == "iops_info"))
    want[info[0]] = 1

def occurrence(entries, i, same):
    return sum(1 for e in entries[:i] if same(e, entries[i]))

if mode in ("fio", "merge", "merge-approx", "client"):
    lst = doc.get("jobs") or doc.get("client_stats")
    times = {}
    for f in sys.argv[3:]:	# merge: each input's time
        d = json.loads(open(f).read())
        times[f.rsplit("/", 1)[-1]] = d["timestamp_ms"]
    for i, e in enumerate(lst):
        h = e.get("hostname")
        if mode == "fio":
            h, ts = host, doc["timestamp_ms"]
        elif e["jobname"] == "All clients":
            ts = doc["timestamp_ms"]
        elif mode == "client":	# a server's report time is not in the client's document
            ts = None
        else:
            ts = times.get(h)
        n = occurrence(lst, i, lambda a, b: a["jobname"] == b["jobname"] and a.get("hostname") == b.get("hostname"))
        job(e, {"host": h, "jobname": e["jobname"], "jobnum": n}, ts)
    if mode == "client":	# one report time per server's job, as got
        stamps = [k for k in got if k[0] == "iops_report_timestamp_seconds" and dict(k[1]).get("host")]
        for k in stamps:
            want[k] = got[k]
        if len(stamps) != len(lst) - 1:
            errs.append("%d report times for %d jobs of the servers" % (len(stamps), len(lst) - 1))
elif mode == "quick":
    for e in doc["jobs"]:
        job(e, {"host": host, "step": e["jobname"], "jobname": e["jobname"], "jobnum": 0})
    for k in got:	# when each step's report was made is not in the quick document
        if k[0] == "iops_report_timestamp_seconds":
            want[k] = got[k]
    if len([k for k in got if k[0] == "iops_report_timestamp_seconds"]) != len(doc["jobs"]):
        errs.append("not one timestamp per step")
elif mode == "sweep":
    for s in doc["steps"]:
        if s["stopped"]:
            continue
        l = {"host": None if s.get("servers") else host,	# across servers: All clients', no host
             "step": "fio_%s_%s_sample%d" % (s["bs"], s["rw"], s["sample"]), "rw": s["rw"],
             "bs": s["bs"], "sample": s["sample"]}
        put("iops_job_error", l, abs(s["error"]))
        put("iops_io_bytes_total", l, s["io_bytes"])
        put("iops_ios_total", l, s["total_ios"])
        put("iops_bandwidth_bytes_per_second", l, s["bw_bytes"])
        put("iops_operations_per_second", l, s["iops"])
        put("iops_latency_seconds_count", dict(l, kind="lat"), s["total_ios"])
        put("iops_latency_seconds_sum", dict(l, kind="lat"), s["lat_mean_us"] * s["total_ios"] / 1e6)
        for q, k in (("0.5", "clat_p50_us"), ("0.99", "clat_p99_us"), ("0.999", "clat_p999_us")):
            if s[k] > 0:
                put("iops_latency_seconds", dict(l, kind="clat", quantile=q), s[k] / 1e6)

for k in sorted(set(want) | set(got), key=repr):
    if k not in got:
        errs.append("missing: %s" % (k,))
    elif k not in want:
        errs.append("not in the JSON: %s = %r" % (k, got[k]))
    elif got[k] != want[k]:
        errs.append("%s: %r, the JSON's %r" % (k, got[k], want[k]))
for name, (typ, unit) in kinds.items():
    if unit and not name.endswith("_" + unit):
        errs.append("%s: unit %s" % (name, unit))
if mode not in ("sweep", "merge-approx") and not hist_checked[0]:
    errs.append("no histogram checked")
print("\n".join(errs[:20]) if errs else "ok %d samples, %d histograms" % (len(got), hist_checked[0]))
PY
check() {	# check LABEL MODE FILE [INPUT...]
	local label=$1 out
	shift
	out=$("$PY" "$T/check.py" "$@" 2>&1)
	case $out in
	ok*) echo "$label: $out" ;;
	*) add_err "$label: $out" ;;
	esac
	case_ran
}
run() {	# run LABEL OUTFILE CMD...: stdout to OUTFILE, a non-zero exit is an error
	local label=$1 out=$2
	shift 2
	(cd "$D" && "$@") >"$out" 2>"$out.err" </dev/null || add_err "$label: exit $?: $(head -c 300 "$out.err")"
}

# --- 1. fio mode: a plain json run (two jobs of a numjobs=2, total latency percentiles) ---
run "fio json" "$T/fio.txt" "$IOPS" fio --output-format=json,openmetrics --name=a --ioengine=null --size=8m \
	--bs=4k --rw=randrw --numjobs=2 --lat_percentiles=1 --name=b --ioengine=psync --filename=fb --size=2m --rw=write
check "fio json" fio "$T/fio.txt"
# --- 2. fio mode json+: histograms from the bins; names to escape (quote, backslash, line feed, not UTF-8) ---
run "fio json+" "$T/fiop.txt" "$IOPS" fio --output-format=json+,openmetrics --name='q"x\y z' --ioengine=null \
	--size=4m --rw=randread --numjobs=3 --group_reporting --name=$'two\nlines\xff' --ioengine=null --size=1m --rw=read
check "fio json+" fio "$T/fiop.txt"
grep -q 'jobname="q\\"x\\\\y z"' "$T/fiop.txt" || add_err "fio json+: the escaped name is not in the exposition"
grep -q 'jobname="two\\nlines'$'\xef\xbf\xbd''"' "$T/fiop.txt" || add_err "fio json+: line feed or U+FFFD not written as expected"
# openmetrics alone: the exposition is the whole output
run "fio alone" "$T/alone.txt" "$IOPS" fio --output-format=openmetrics --name=a --ioengine=null --size=1m
head -1 "$T/alone.txt" | grep -q '^# TYPE iops_info gauge$' || add_err "openmetrics alone: first line $(head -1 "$T/alone.txt")"
[ "$(tail -1 "$T/alone.txt")" = "# EOF" ] || add_err "openmetrics alone: last line $(tail -1 "$T/alone.txt")"
"$PY" -c 'import sys; from prometheus_client.openmetrics.parser import text_string_to_metric_families as p; list(p(open(sys.argv[1]).read()))' \
	"$T/alone.txt" || add_err "openmetrics alone: not parsed"
case_ran
# --status-interval: the periodic reports leave the metrics out (one exposition, the final one's)
"$IOPS" fio --name=s --ioengine=null --size=100g --time_based --runtime=2 --status-interval=1 \
	--output-format=json,openmetrics >"$T/st.txt" 2>"$T/st.err" || add_err "status-interval: $(cat "$T/st.err")"
[ "$(grep -c '^# EOF$' "$T/st.txt")" = 1 ] && [ "$(grep -c '"fio version"' "$T/st.txt")" -ge 2 ] ||
	add_err "status-interval: $(grep -c '^# EOF$' "$T/st.txt") expositions, $(grep -c '"fio version"' "$T/st.txt") JSON documents"
case_ran
# a format fio does not know is fio's error
"$IOPS" fio --output-format=openmetric --name=a --ioengine=null --size=1m >"$T/bad.out" 2>"$T/bad.err"
rc=$?
[ "$rc" = 1 ] && grep -q '^fio: invalid output format openmetric$' "$T/bad.err" && [ ! -s "$T/bad.out" ] ||
	add_err "bad format: exit $rc, $(cat "$T/bad.err")"
case_ran

# --- 3. quick and 4. a preset ---
run quick "$T/quick.txt" "$IOPS" quick . --runtime=1 --size=16m --output-format=json+,openmetrics
check quick quick "$T/quick.txt"
run preset "$T/preset.txt" "$IOPS" latency . --runtime=1 --ramp_time=0 --size=16m --output-format=json+,openmetrics
check preset fio "$T/preset.txt"
[ -z "$(ls -A "$D" | grep -v '^fb$')" ] || add_err "quick/preset left files: $(ls -A "$D")"

# --- 5. sweep (two steps, the second of two samples) ---
run sweep "$T/sweep.txt" "$IOPS" sweep --rw=randread,write --bs=4k --size=4m --ioengine=psync --directory=. \
	--output-format=json,openmetrics
check sweep sweep "$T/sweep.txt"

# --- 6. merge: json+ inputs (exact), plain json inputs (approximate: no histogram) ---
mkdir -p "$T/m"
"$IOPS" fio --name=a --ioengine=null --size=8m --rw=randread --numjobs=2 --group_reporting --output-format=json+ >"$T/m/n1.json"
"$IOPS" fio --name=a --ioengine=null --size=4m --rw=randread --numjobs=2 --output-format=json+ >"$T/m/n2.json"
"$IOPS" fio --name=a --ioengine=null --size=4m --rw=randread --output-format=json >"$T/m/p1.json"
(cd "$T/m" && "$IOPS" merge --output-format=json+,openmetrics n1.json n2.json) >"$T/merge.txt" 2>"$T/merge.err" ||
	add_err "merge: $(cat "$T/merge.err")"
check merge merge "$T/merge.txt" "$T/m/n1.json" "$T/m/n2.json"
(cd "$T/m" && "$IOPS" merge --output-format=json,openmetrics n1.json p1.json) >"$T/mergea.txt" 2>"$T/mergea.err" ||
	add_err "merge approx: $(cat "$T/mergea.err")"
check "merge approx" merge-approx "$T/mergea.txt" "$T/m/n1.json" "$T/m/p1.json"
grep -q '^iops_latency_histogram_seconds_bucket' "$T/mergea.txt" && add_err "merge approx: a histogram made up"

# --- 7. --output=FILE: whole or not at all ---
O=$T/out
mkdir -p "$O"
"$IOPS" fio --name=old --ioengine=null --size=1m --output-format=openmetrics --output="$O/iops.prom" 2>"$T/o.err" ||
	add_err "--output: $(cat "$T/o.err")"
old=$(cat "$O/iops.prom")
[ "$(tail -1 "$O/iops.prom")" = "# EOF" ] || add_err "--output: the file is not whole"
[ "$(stat -c %a "$O/iops.prom")" = "$(printf '%o' $((0666 & ~$(umask))))" ] || add_err "--output: mode $(stat -c %a "$O/iops.prom")"
# a 2 s run: while it runs the old file is there, whole; the temporary file is beside it, hidden
"$IOPS" fio --name=new --ioengine=null --size=100g --time_based --runtime=2 --output-format=openmetrics \
	--output="$O/iops.prom" 2>"$T/o2.err" &
pid=$!
seen_tmp=0 polls=0
while kill -0 "$pid" 2>/dev/null; do
	c=$(cat "$O/iops.prom" 2>/dev/null)
	[ "$c" = "$old" ] || { [ "$(tail -1 <<<"$c")" = "# EOF" ] && grep -q 'jobname="new"' <<<"$c"; } ||
		{ add_err "--output: a reader saw a partial file"; break; }
	ls -A "$O" | grep -q '^\.iops\.prom\.iops-' && seen_tmp=1
	polls=$((polls + 1))
	sleep 0.05
done
wait "$pid" || add_err "--output run: exit $?: $(cat "$T/o2.err")"
[ "$seen_tmp" = 1 ] || add_err "--output: no temporary file seen in $polls polls"
grep -q 'jobname="new"' "$O/iops.prom" && [ "$(tail -1 "$O/iops.prom")" = "# EOF" ] || add_err "--output: not replaced by the new run"
[ "$(ls -A "$O")" = iops.prom ] || add_err "--output: left behind: $(ls -A "$O")"
case_ran
# a write that fails (file size limit, SIGXFSZ ignored: EFBIG): exit 1, the old file as it was, no temporary file
cp "$O/iops.prom" "$T/before.prom"
(trap '' XFSZ; ulimit -f 4; exec "$IOPS" fio --name=big --ioengine=null --size=8m --rw=randrw --numjobs=4 \
	--output-format=json+,openmetrics --output="$O/iops.prom") 2>"$T/o3.err"
rc=$?
[ "$rc" = 1 ] || add_err "failing write: exit $rc"
grep -q 'File too large' "$T/o3.err" || add_err "failing write: message $(cat "$T/o3.err")"
cmp -s "$T/before.prom" "$O/iops.prom" || add_err "failing write: the old file changed"
[ "$(ls -A "$O")" = iops.prom ] || add_err "failing write: left behind: $(ls -A "$O")"
case_ran
# the same for quick, sweep and merge's --output; an unwritable place: one line, exit 1, nothing made
(cd "$T/m" && "$IOPS" merge --output-format=openmetrics --output="$O/merge.prom" n1.json n2.json) 2>"$T/o4.err" ||
	add_err "merge --output: $(cat "$T/o4.err")"
sed -n '/^# TYPE/,$p' "$T/merge.txt" | grep -v '^iops_\(info\|report_timestamp\)' >"$T/a" 
grep -v '^iops_\(info\|report_timestamp\)' "$O/merge.prom" >"$T/b"
cmp -s "$T/a" "$T/b" || add_err "merge --output: not the exposition merge writes on stdout"
for cmd in "fio --name=x --ioengine=null --size=1m --output-format=openmetrics --output=$T/none/x.prom" \
	"quick . --runtime=1 --size=16m --output-format=openmetrics --output=$T/none/x.prom" \
	"sweep --size=4m --ioengine=psync --directory=. --output-format=openmetrics --output=$T/none/x.prom" \
	"merge --output-format=openmetrics --output=$T/none/x.prom $T/m/n1.json"; do
	# shellcheck disable=SC2086 # words
	(cd "$D" && "$IOPS" $cmd) >"$T/u.out" 2>"$T/u.err"
	rc=$?
	[ "$rc" = 1 ] && [ "$(wc -l <"$T/u.err")" = 1 ] && grep -q 'No such file or directory' "$T/u.err" ||
		add_err "${cmd%% *} --output to a missing directory: exit $rc, $(cat "$T/u.err")"
	[ ! -e "$T/none" ] && [ -z "$(ls -A "$D" | grep -v '^fb$')" ] || add_err "${cmd%% *}: created $(ls -A "$D" "$T/none" 2>&1)"
	case_ran
done
(cd "$D" && "$IOPS" quick . --runtime=1 --size=16m --output-format=openmetrics --output="$O/quick.prom") >"$T/q.out" 2>"$T/q.err" ||
	add_err "quick --output: $(cat "$T/q.err")"
grep -q '^\[6/6\]' "$T/q.out" || add_err "quick --output: no progress lines on stdout"
[ "$(tail -1 "$O/quick.prom")" = "# EOF" ] || add_err "quick --output: not whole"
(cd "$D" && "$IOPS" sweep --size=4m --ioengine=psync --directory=. --output-format=openmetrics,csv --output="$O/sweep.prom") \
	>"$T/s.out" 2>"$T/s.err" && add_err "sweep: openmetrics,csv taken (openmetrics is last)"
(cd "$D" && "$IOPS" sweep --size=4m --ioengine=psync --directory=. --output-format=openmetrics --output="$O/sweep.prom") \
	>"$T/s.out" 2>"$T/s.err" || add_err "sweep --output: $(cat "$T/s.err")"
[ ! -s "$T/s.out" ] || add_err "sweep --output: stdout not empty"
[ "$(tail -1 "$O/sweep.prom")" = "# EOF" ] || add_err "sweep --output: not whole"
[ "$(ls -A "$O" | tr '\n' ' ')" = "iops.prom merge.prom quick.prom sweep.prom " ] || add_err "--output: left $(ls -A "$O")"
case_ran

# --- 8. the client: three servers, one exposition (every server's jobs, host label; All clients) ---
ADDRS=(127.0.0.2 127.0.0.3 127.0.0.4)
PORT=$(pick_port "${ADDRS[@]}")
printf '[cj]\nioengine=null\nsize=8m\nrw=randread\nnumjobs=2\n[cw]\nioengine=null\nsize=2m\nrw=write\n' >"$T/cjob.fio"
for i in 0 1 2; do
	printf '%s,%s\n' "${ADDRS[$i]}" "$PORT" >>"$T/chosts"
	start_server "s$i" "$T/cd$i" --server=ip:${ADDRS[$i]},$PORT
done
"$IOPS" --client="$T/chosts" --output-format=json+,openmetrics "$T/cjob.fio" >"$T/client.txt" 2>"$T/client.err" ||
	add_err "client: exit $?: $(cat "$T/client.err")"
check client client "$T/client.txt"
for a in "${ADDRS[@]}"; do
	[ "$(grep -c "^iops_ios_total{host=\"$a\",jobname=\"c[jw]\"" "$T/client.txt")" = 3 ] ||
		add_err "client: not three job series of host $a"
done
grep -q '^iops_ios_total{jobname="All clients",jobnum="0",direction="read"} 12288$' "$T/client.txt" ||
	add_err "client: All clients' reads: $(grep '^iops_ios_total{jobname="All clients"' "$T/client.txt")"
[ "$(grep -c '^# EOF$' "$T/client.txt")" = 1 ] || add_err "client: not one exposition"
# openmetrics alone into --output: the same exposition, whole; a missing directory: one line, nothing made
"$IOPS" --client="$T/chosts" --output-format=openmetrics --output="$O/client.prom" "$T/cjob.fio" >"$T/co.out" 2>"$T/co.err" ||
	add_err "client --output: exit $?: $(cat "$T/co.err")"
[ ! -s "$T/co.out" ] || add_err "client --output: stdout not empty: $(head -3 "$T/co.out")"
[ "$(tail -1 "$O/client.prom")" = "# EOF" ] && [ "$(head -1 "$O/client.prom")" = "# TYPE iops_info gauge" ] ||
	add_err "client --output: not whole"
"$PY" -c 'import sys; from prometheus_client.openmetrics.parser import text_string_to_metric_families as p; list(p(open(sys.argv[1]).read()))' \
	"$O/client.prom" || add_err "client --output: not parsed"
[ "$(grep -c '^iops_ios_total{host=' "$O/client.prom")" = 9 ] || add_err "client --output: not nine job series"
[ "$(ls -A "$O" | tr '\n' ' ')" = "client.prom iops.prom merge.prom quick.prom sweep.prom " ] || add_err "client --output: left $(ls -A "$O")"
"$IOPS" --client="$T/chosts" --output-format=openmetrics --output="$T/none/c.prom" "$T/cjob.fio" >"$T/cu.out" 2>"$T/cu.err"
rc=$?
[ "$rc" = 1 ] && [ "$(wc -l <"$T/cu.err")" = 1 ] && grep -q 'No such file or directory' "$T/cu.err" && [ ! -e "$T/none" ] ||
	add_err "client --output to a missing directory: exit $rc, $(cat "$T/cu.err")"
# a sweep across the same servers: its rows are All clients' (no host label), into --output whole
"$IOPS" sweep --client="$T/chosts" --rw=randread,write --bs=4k --size=4m --ioengine=psync \
	--output-format=json,openmetrics --output="$T/csweep.txt" >"$T/csweep.out" 2>"$T/csweep.err" ||
	add_err "sweep --client: exit $?: $(tail -3 "$T/csweep.err")"
check "sweep --client" sweep "$T/csweep.txt"
[ "$("$PY" -c 'import json,sys; d=json.JSONDecoder().raw_decode(open(sys.argv[1]).read())[0]; print(sum(s["servers"] for s in d["steps"]))' "$T/csweep.txt")" = 6 ] ||
	add_err "sweep --client: not two steps on three servers"
[ ! -s "$T/csweep.out" ] || add_err "sweep --client --output: stdout not empty"
for i in 0 1 2; do wait_for dir_empty "$T/cd$i" || add_err "client: files left on server $i: $(ls -A "$T/cd$i")"; done
stop_servers
case_ran

if [ ${#errors[@]} -gt 0 ]; then
	printf 'FAIL: %s\n' "${errors[@]}" >&2
	exit 1
fi
echo "openmetrics: all checks passed"
