#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Check what Chromium read of iops plot's pages (plot_browser.py's report) against the inputs
the pages were drawn from: every plotted value must read back exactly from the data-series
elements' <title>s.

usage: plot_check.py REPORT.json PAGE=KIND:INPUT[,INPUT...] ...
KIND: fio (fio JSON/json+, client_stats, quick: percentiles, bins, IOPS and bandwidth bars),
logs (bw/iops/lat logs: every entry, or every decimated column's count, min and max), sweep
(each step's samples and mean), suite (each figure's iterations), compare (iops compare's JSON
document: every verdict's value, baseline, change and threshold from its bar's <title>). Prints one line per problem
and "plot_check: N pages, N values checked, N problems"; exit 1 on any problem."""
import json
import math
import os
import re
import sys

COLS = 712	# the charts' pixel columns (PLOT_SVG_COLS, lib/plot/plot_svg.h)
problems = []
checked = 0


def bad(page, msg):
    problems.append("%s: %s" % (page, msg))


def same(a, b):
    global checked
    checked += 1
    return float(a) == float(b)


def load_json(path):
    text = open(path).read()
    return json.loads(text[text.index("\n{") + 1 if not text.startswith("{") else 0:])


def series_of(rep, chart, name):
    return [s for s in rep["series"] if s["chart"] == chart and s["series"] == name]


def titles_of(page, rep, chart, name):
    s = series_of(rep, chart, name)
    if not s:
        bad(page, "chart %s has no series '%s' (has: %s)" % (chart, name, sorted({x["series"] for x in rep["series"] if x["chart"] == chart})))
        return []
    return [t for x in s for t in x["titles"]]


def job_label(j):
    if j["jobname"] == "All clients" or "hostname" not in j:
        return j["jobname"]
    if j.get("port"):
        return "%s:%d %s" % (j["hostname"], j["port"], j["jobname"])
    return "%s %s" % (j["hostname"], j["jobname"])


def check_fio(page, rep, path):
    doc = load_json(path)
    jobs = doc.get("client_stats") or doc["jobs"]
    dirs = [(j, d) for j in jobs for d in ("read", "write", "trim") if j.get(d, {}).get("total_ios", 0) > 0]
    for j, d in dirs:
        name = "%s %s" % (job_label(j), d)
        dd = j[d]
        for kind in ("clat", "lat", "slat"):
            st = dd.get(kind + "_ns", {})
            pct = st.get("percentile")
            if pct:
                got = {}
                for t in titles_of(page, rep, "lat-" + kind, name):
                    m = re.match(r"^(.*): p([0-9.]+) = (\S+) ns \(", t)
                    if m and m.group(1) == name:
                        got[m.group(2)] = m.group(3)
                for key, v in pct.items():
                    if key not in got:
                        bad(page, "%s %s: p%s not plotted" % (name, kind, key))
                    elif not same(got[key], v):
                        bad(page, "%s %s: p%s plotted %s, the JSON has %s" % (name, kind, key, got[key], v))
            bins = st.get("bins")
            if bins:
                got = {}
                for t in titles_of(page, rep, "hist-" + kind, name):
                    m = re.match(r"^(.*): bin (\S+) ns \(.*\): (\S+) of (\S+) I/Os", t)
                    if m:
                        got[float(m.group(2))] = (m.group(3), m.group(4))
                if len(got) != len(bins):
                    bad(page, "%s %s: %d bins plotted, the JSON has %d" % (name, kind, len(got), len(bins)))
                for k, n in bins.items():
                    g = got.get(float(k))
                    if not g or not same(g[0], n) or not same(g[1], st["N"]):
                        bad(page, "%s %s: bin %s plotted %s, the JSON has %s of %s" % (name, kind, k, g, n, st["N"]))
        if len(dirs) >= 2:
            for chart, key, unit in (("fio-iops", "iops", "IOPS"), ("fio-bw", "bw_bytes", "B/s")):
                t = titles_of(page, rep, chart, name)
                m = re.match(r"^(.*): (\S+) %s \(" % re.escape(unit), t[0]) if t else None
                if not m or not same(m.group(2), dd[key]):
                    bad(page, "%s: %s bar %s, the JSON has %s" % (name, chart, t[:1], dd[key]))


def log_name(path):
    base = os.path.basename(path)
    m = re.match(r"^(.*)_(bw|iops|lat|clat|slat)(\.[0-9]+)?\.log$", base)
    return (m.group(1) + (m.group(3) or ""), m.group(2)) if m else (base, "value")


def check_log(page, rep, path):
    label, kind = log_name(path)
    rows = [tuple(int(x, 0) for x in ln.split(",")) for ln in open(path) if ln.strip()]
    for dnum, d in enumerate(("read", "write", "trim", "sync")):
        ent = [(r[0], r[1]) for r in rows if r[2] == dnum]
        if not ent:
            continue
        name = "%s %s" % (label, d)
        ts = titles_of(page, rep, "log-" + kind, name)
        if len(ent) <= COLS:
            got = []
            for t in ts:
                m = re.match(r"^(.*): time (\S+) ms: (\S+) ", t)
                if m:
                    got.append((float(m.group(2)), float(m.group(3))))
            want = [(float(a), float(b)) for a, b in ent]
            global checked
            checked += len(want)
            if got != want:
                bad(page, "%s: %d entries plotted, the log has %d; first differences %s" % (
                    name, len(got), len(want), [(g, w) for g, w in zip(got, want) if g != w][:3]))
            continue
        total = 0
        t0 = ent[0][0] if min(e[0] for e in ent) > 1e11 else 0	# log_unix_epoch: shown from the first
        for t in ts:
            m = re.match(r"^(.*): time (\S+) to (\S+) ms: (\d+) entries, min (\S+), max (\S+) ", t)
            if not m:
                bad(page, "%s: a point of a decimated line without its column: %s" % (name, t))
                continue
            a, b, n = float(m.group(2)) + t0, float(m.group(3)) + t0, int(m.group(4))
            vals = [v for tt, v in ent if a <= tt <= b]
            total += n
            if len(vals) != n or not same(m.group(5), min(vals)) or not same(m.group(6), max(vals)):
                bad(page, "%s: column %s..%s: %s, the log has %d entries, min %s, max %s" % (
                    name, a, b, m.groups()[3:], len(vals), min(vals or [0]), max(vals or [0])))
        if total != len(ent) or len(ts) > COLS:
            bad(page, "%s: %d columns hold %d entries, the log has %d" % (name, len(ts), total, len(ent)))


def check_bars(page, rep, chart, name, values, unit, what):
    ts = titles_of(page, rep, chart, name)
    if not ts:
        return
    t = ts[0]
    if len(values) == 1:
        m = re.match(r"^(.*): (\S+) %s \(" % re.escape(unit), t)
        if not m or not same(m.group(2), values[0]):
            bad(page, "%s %s: %s, the input has %s" % (chart, name, t, values[0]))
        return
    m = re.match(r"^(.*): mean (\S+) %s \(.*\) over (\d+) %s: (.*); min (\S+), max (\S+)$" % (re.escape(unit), what), t)
    if not m:
        bad(page, "%s %s: no samples in '%s'" % (chart, name, t))
        return
    listed = [float(x.split(" ")[0]) for x in m.group(4).split(", ")]
    mean = sum(values) / len(values)
    if listed != [float(v) for v in values] or int(m.group(3)) != len(values) or \
            not math.isclose(float(m.group(2)), mean, rel_tol=1e-12) or \
            not same(m.group(5), min(values)) or not same(m.group(6), max(values)):
        bad(page, "%s %s: '%s', the input has %s" % (chart, name, t, values))


def check_sweep(page, rep, path):
    steps = json.load(open(path))["steps"]
    keys = []
    for s in steps:
        if (s["rw"], s["bs"]) not in keys:
            keys.append((s["rw"], s["bs"]))
    for rw, bs in keys:
        mine = [s for s in steps if s["rw"] == rw and s["bs"] == bs]
        for chart, key, unit in (("sweep-iops", "iops", "IOPS"), ("sweep-bw", "bw_bytes", "B/s"),
                                 ("sweep-lat", "lat_mean_us", "us"), ("sweep-p99", "clat_p99_us", "us")):
            check_bars(page, rep, chart, "%s %s" % (rw, bs), [s[key] for s in mine], unit, "samples")


def check_suite(page, rep, path):
    units = {"MiB/s": "suite-bw", "ms": "suite-lat", "IOPS": "suite-iops", "files/s": "suite-rates", "s": "suite-times"}
    figs = {}
    for ln in open(path):
        m = re.match(r"^([^:]+): (\S+) (MiB/s|ms|IOPS|files/s|s)$", ln.rstrip("\n"))
        if m and not ln.startswith(("Iteration", "Benchmark")):
            figs.setdefault((m.group(1), m.group(3)), []).append(float(m.group(2)))
    if not figs:
        bad(page, "no figure in %s" % path)
    for (name, unit), vals in figs.items():
        check_bars(page, rep, units[unit], name, vals, unit, "iterations")


COMPARE_TITLE = re.compile(r"^(\S+) (.*) against (\S+) (.*) of (.+), change (\S+) %, threshold (\S+) % \((.*)\): (.+)$")


def check_compare(page, rep, path):
    doc = json.load(open(path))
    base = [i["name"] for i in doc["inputs"] if i["baseline"]][0]
    n = 0
    for row in doc["rows"]:
        cat = "%s %s" % (row.get("job", row.get("step")), row["direction"])
        for fig, f in row["figures"].items():
            for a in f["against"]:
                prefix = "%s %s %s: " % (a["input"], cat, fig)
                ts = [t for s in series_of(rep, "verdict-" + fig, a["input"]) if s["category"] == cat
                      for t in s["titles"] if t.startswith(prefix)]
                if len(ts) != 1:
                    bad(page, "verdict-%s: %d bars for %s" % (fig, len(ts), prefix.strip()))
                    continue
                m = COMPARE_TITLE.match(ts[0][len(prefix):])
                if not m:
                    bad(page, "verdict-%s: title %r" % (fig, ts[0]))
                    continue
                val, unit, b, unit2, of, chg, thr, noise, verdict = m.groups()
                n += 1
                if not (same(val, a["value"]) and same(b, f["baseline"]) and same(chg, a["change_pct"])
                        and same(thr, a["threshold_pct"])) or of != base or unit != f["unit"] \
                        or noise != a["noise"] or verdict != a["verdict"]:
                    bad(page, "verdict-%s: %r, the JSON has %r" % (fig, ts[0], a))
    if not n:
        bad(page, "no verdict in %s" % path)


def main():
    report = json.load(open(sys.argv[1]))
    pages = 0
    for arg in sys.argv[2:]:
        page, spec = arg.split("=", 1)
        kind, inputs = spec.split(":", 1)
        rep = report.get(page)
        pages += 1
        if not rep or rep.get("load") != "ok":
            bad(page, "did not load: %s" % (rep or {}).get("load"))
            continue
        for p in rep["problems"]:
            bad(page, "browser: %s" % p)
        if rep["scripts"]:
            bad(page, "%d scripts" % rep["scripts"])
        for c in rep["charts"]:
            if c["width"] < 100 or c["height"] < 100:
                bad(page, "chart %s rendered %gx%g" % (c["id"], c["width"], c["height"]))
        for path in inputs.split(","):
            {"fio": check_fio, "logs": check_log, "sweep": check_sweep, "suite": check_suite,
             "compare": check_compare}[kind](page, rep, path)
    for p in problems:
        print(p)
    print("plot_check: %d pages, %d values checked, %d problems" % (pages, checked, len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
