#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# merge_check.py MERGED [INPUT...]: the All clients entry (the last of MERGED's client_stats) is
# the exact sum of the inputs' jobs (the INPUT files' "jobs", or without INPUT files MERGED's
# own other entries, as a client run writes them): total_ios, io_bytes, short_ios, clat N and
# every clat_ns bin, and its percentiles are those of the summed bins. APPROX=1: plain json
# inputs, percentiles the count-weighted means. Prints one line per difference, nothing when
# all agree. (t_merge.sh, t_client.sh, t_sweep_remote.sh)
import json, os, sys
merged = json.load(open(sys.argv[1]))
ins = []
for f in sys.argv[2:]:
    d = json.loads(open(f).read()[open(f).read().index('{'):])
    ins += d["jobs"]
cs = merged["client_stats"]
if len(sys.argv) == 2:   # a client run's document: its own entries are the inputs
    ins = cs[:-1]
errs = []
allc = cs[-1]
if allc["jobname"] != "All clients" or len(cs) != len(ins) + 1:
    errs.append("client_stats: %d entries, last %s" % (len(cs), allc["jobname"]))
for e in cs[:-1]:
    if "hostname" not in e or "port" not in e:
        errs.append("entry without hostname/port")
approx = os.environ.get("APPROX") == "1"
if allc.get("percentiles_approximate") != (1 if approx else 0):
    errs.append("percentiles_approximate=%s" % allc.get("percentiles_approximate"))
def bucket(v):   # fio's histogram: value -> the bucket's value
    if v < 128:
        return v
    e = v.bit_length() - 1 - 6
    idx = (e + 1) * 64 + ((v >> e) & 63)
    e, k = (idx >> 6) - 1, idx % 64
    return (1 << (e + 6)) + k * (1 << e) + (1 << (e - 1))
for d in ("read", "write", "trim"):
    a = allc[d]
    for key in ("total_ios", "io_bytes", "short_ios"):
        s = sum(j[d][key] for j in ins)
        if a[key] != s:
            errs.append("%s %s: %d, inputs %d" % (d, key, a[key], s))
    n = sum(j[d]["clat_ns"]["N"] for j in ins)
    if a["clat_ns"]["N"] != n:
        errs.append("%s clat N %d != %d" % (d, a["clat_ns"]["N"], n))
    if not n:
        continue
    pk = list(ins[0]["read"]["clat_ns"]["percentile"].keys())
    got = a["clat_ns"]["percentile"]
    if list(got.keys()) != pk:
        errs.append("%s percentile keys %s" % (d, list(got.keys())))
    if approx:
        if "bins" in a["clat_ns"]:
            errs.append("approximate merge with bins")
        for p in pk:
            w = [(j[d]["clat_ns"]["N"], j[d]["clat_ns"]["percentile"][p]) for j in ins if j[d]["clat_ns"]["N"]]
            want = bucket(int(sum(c * v for c, v in w) / sum(c for c, _ in w) + 0.5))
            if got[p] != want:
                errs.append("%s p%s: %d, weighted %d" % (d, p, got[p], want))
        continue
    bins = {}
    for j in ins:
        for k, v in j[d]["clat_ns"].get("bins", {}).items():
            bins[int(k)] = bins.get(int(k), 0) + v
    mb = {int(k): v for k, v in a["clat_ns"]["bins"].items()}
    if mb != bins:
        errs.append("%s bins differ: %d vs %d keys" % (d, len(mb), len(bins)))
    tot, run, order = sum(bins.values()), 0, sorted(bins)
    for p in pk:
        run, i = 0, 0
        for v in order:
            run += bins[v]
            if run >= float(p) / 100.0 * tot:
                break
        if got[p] != v:
            errs.append("%s p%s: %d, from the bins %d" % (d, p, got[p], v))
print("\n".join(errs))
