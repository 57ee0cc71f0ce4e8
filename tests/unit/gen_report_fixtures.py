#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Turn real fio 3.33 runs (--output-format=terse,json+,normal) into C fixtures for check_report.c.

Each tests/unit/fixtures/report_<id>.out holds what fio printed: the job header lines, the
json+ document, then the normal report of the SAME run. The json+ numbers (stats, histogram
bins, bw/iops samples, maps) are turned back into a struct job_result; the test then prints it
with lib/out_normal and lib/out_json and compares with fio's own text byte for byte.

Usage: tests/unit/gen_report_fixtures.py > tests/unit/report_fixtures.h
"""
import json, os, re, sys

HERE = os.path.dirname(os.path.abspath(__file__))
RW = {'read': 'RW_READ', 'write': 'RW_WRITE', 'trim': 'RW_TRIM', 'randread': 'RW_RANDREAD',
      'randwrite': 'RW_RANDWRITE', 'randtrim': 'RW_RANDTRIM', 'rw': 'RW_RW',
      'readwrite': 'RW_RW', 'randrw': 'RW_RANDRW'}


def cstr(s):
    out = []
    for line in s.splitlines(True):
        esc = line.replace('\\', '\\\\').replace('"', '\\"').replace('\n', '\\n')
        out.append('\t"%s"' % esc)
    return '\n'.join(out) if out else '\t""'


def counts(pcts, total, floor):
    """Percentages back to counts over total; a floored entry becomes 1 (any small count)."""
    res = []
    for p in pcts:
        if p == 0:
            res.append(0)
        elif abs(p - floor) < 1e-9:
            res.append(1)
        else:
            res.append(int(round(p * total / 100.0)))
    return res


def lat(name, o):
    sd = o['stddev']
    n = o['N']
    return 'fx_lat(&%s, %dull, %dull, %.6f, %.6f, %dull);' % (name, o['min'], o['max'],
                                                              o['mean'], sd, n)


def gen(fid, path):
    text = open(path).read()
    start = text.index('\n{\n') + 1
    end = text.index('\n}\n', start) + 3
    header, doc, normal = text[:start], text[start:end], text[end:]
    js = json.loads(doc)
    job = js['jobs'][0]
    opts = job.get('job options', {})
    first = header.splitlines()[0] + '\n'
    m = re.search(r'^[2-5];.*', header, re.M | re.S)
    terse = m.group(0) if m else ''
    tver = int(terse.split(';')[0]) if terse else 3
    pid = int(re.search(r': pid=(\d+)', normal).group(1))
    L = []
    w = L.append
    w('/* %s: %s */' % (fid, ' '.join('--%s=%s' % kv for kv in opts.items())))
    w('static const char %s_header[] =\n%s;' % (fid, cstr(first)))
    w('static const char %s_normal[] =\n%s;' % (fid, cstr(normal)))
    w('static const char %s_json[] =\n%s;' % (fid, cstr(doc)))
    w('static const char %s_terse[] =\n%s;' % (fid, cstr(terse)))
    # plain json is json+ without the "bins" objects (and the comma before them)
    plain = re.sub(r',\n( *)"bins" : \{\n.*?\n\1\}', '', doc, flags=re.S)
    w('static const char %s_json_plain[] =\n%s;' % (fid, cstr(plain)))
    w('static void %s_fill(struct fx *f)\n{' % fid)
    w('\tstruct job *j = &f->job;')
    w('\tstruct job_result *r = f->res;')
    w('')
    w('\tf->now.tv_sec = %d;' % js['timestamp'])
    w('\tf->now.tv_nsec = %d;' % ((js['timestamp_ms'] % 1000) * 1000000))
    w('\tfx_job_defaults(j, "%s");' % job['jobname'])
    w('\tj->rw = %s;' % RW[opts.get('rw', 'read')])
    w('\tj->iodepth = %d;' % job['latency_depth'])
    w('\tsnprintf(j->ioengine, sizeof(j->ioengine), "%%s", "%s");' % opts.get('ioengine', 'psync'))
    bs = opts.get('bs', '4k').lower()
    mult = {'k': 1024, 'm': 1024 ** 2}.get(bs[-1], 1)
    bsv = int(bs.rstrip('km')) * mult
    w('\tfor (unsigned d = 0; d < DDIR_NR; d++)')
    w('\t\tj->bs_min[d] = j->bs_max[d] = %d;' % bsv)
    if 'kb_base' in opts:
        w('\tj->kb_base = %s;' % opts['kb_base'])
    if 'unit_base' in opts:
        w('\tj->unit_base = %s;' % opts['unit_base'])
    if 'significant_figures' in opts:
        w('\tj->sig_figs = %s;' % opts['significant_figures'])
    if opts.get('lat_percentiles') == '1':
        w('\tj->lat_percentiles = true;')
    if opts.get('clat_percentiles') == '0':
        w('\tj->clat_percentiles = false;')
    if opts.get('gtod_reduce') == '1':
        w('\tj->gtod_reduce = j->disable_clat = j->disable_slat = j->disable_lat = true;')
    if 'description' in opts:
        w('\tj->description = (char *)"%s";' % opts['description'])
    nj = int(opts.get('numjobs', '1'))
    w('\tf->numjobs = %d;' % nj)
    if nj > 1:
        w('\tj->group_reporting = true;')
    pl = None
    for d in ('read', 'write', 'trim'):
        for s in ('clat_ns', 'lat_ns'):
            if pl is None and 'percentile' in job[d][s]:
                pl = [float(k) for k in job[d][s]['percentile']]
    if pl is not None:
        prec = 2
        if 'percentile_list' in opts:
            prec = max(len(x.split('.')[1]) if '.' in x else 0
                       for x in opts['percentile_list'].split(':'))
        w('\tj->nr_percentiles = %d;' % len(pl))
        for i, p in enumerate(pl):
            w('\tj->percentiles[%d] = %r;' % (i, p))
        w('\tj->percentile_precision = %d;' % prec)
    w('\tf->nr_opts = %d;' % len(opts))
    for i, (k, v) in enumerate(opts.items()):
        w('\tf->opts[%d].key = (char *)"%s";' % (i, k))
        w('\tf->opts[%d].value = (char *)"%s";' % (i, v))
    w('\tr->pid = %d;' % pid)
    w('\tr->error = %d;' % job['error'])
    ve = re.search(r'err=\s*\d+ \((.*)\): pid=', normal)
    if ve:
        w('\tsnprintf(r->verror, sizeof(r->verror), "%%s", "%s");' % ve.group(1))
    w('\tr->elapsed_s = %d;' % job['elapsed'])
    total = 0
    for di, d in enumerate(('read', 'write', 'trim')):
        o = job[d]
        total += o['total_ios']
        dd = 'r->ddir[%d]' % di
        if not o['total_ios'] and not o['io_bytes']:
            continue
        w('\t%s.io_bytes = %dull;' % (dd, o['io_bytes']))
        w('\t%s.total_ios = %s.issued_ios = %dull;' % (dd, dd, o['total_ios']))
        w('\t%s.short_ios = %d;' % (dd, o['short_ios']))
        w('\t%s.drop_ios = %d;' % (dd, o['drop_ios']))
        w('\t%s.runtime_us = %dull;' % (dd, max(0, o['runtime'] * 1000 - 500)))
        for s in ('slat', 'clat', 'lat'):
            w('\t' + lat('%s.%s' % (dd, s), o[s + '_ns']))
            for v, c in o[s + '_ns'].get('bins', {}).items():
                w('\tfx_bin(&%s.%s_hist, %sull, %dull);' % (dd, s, v, c))
        if o['bw_samples']:
            w('\tfx_lat(&%s.bw_kib, %dull, %dull, %.6f, %.6f, %dull);' % (
                dd, o['bw_min'], o['bw_max'], o['bw_mean'], o['bw_dev'], o['bw_samples']))
        if o['iops_samples']:
            w('\tfx_lat(&%s.iops, %dull, %dull, %.6f, %.6f, %dull);' % (
                dd, o['iops_min'], o['iops_max'], o['iops_mean'], o['iops_stddev'],
                o['iops_samples']))
    sy = job['sync']
    if sy['total_ios']:
        w('\tr->sync_ios = %d;' % sy['total_ios'])
    if sy['lat_ns']['N']:
        w('\t' + lat('r->sync_lat', sy['lat_ns']))
        for v, c in sy['lat_ns'].get('bins', {}).items():
            w('\tfx_bin(&r->sync_hist, %sull, %dull);' % (v, c))
    rt = job['job_runtime']
    w('\tr->run_ms = %d;' % rt)
    w('\tr->usr_us = %dull * 1000;' % round(job['usr_cpu'] * rt / 100.0))
    w('\tr->sys_us = %dull * 1000;' % round(job['sys_cpu'] * rt / 100.0))
    w('\tr->ctx = %d;' % job['ctx'])
    w('\tr->majf = %d;' % job['majf'])
    w('\tr->minf = %d;' % job['minf'])
    for name, key, den, floor in (('depth_map', 'iodepth_level', total, 0.1),
                                  ('submit_map', 'iodepth_submit', 10**8, 0.1),
                                  ('complete_map', 'iodepth_complete', 10**8, 0.1),
                                  ('lat_n', 'latency_ns', total, 0.01),
                                  ('lat_u', 'latency_us', total, 0.01),
                                  ('lat_m', 'latency_ms', total, 0.01)):
        vals = list(job[key].values())
        if den == 10**8:
            cs = [1 if abs(p - floor) < 1e-9 else int(round(p * 10**6)) for p in vals]
        else:
            cs = counts(vals, total, floor)
        for i, c in enumerate(cs):
            if c:
                w('\tr->%s[%d] = %d;' % (name, i, c))
    w('\tr->nr_submit_calls = r->nr_complete_calls = 100000000ull;')
    # Floored entries (shown as 0.01%) hide their counts; terse v3's lat_2us field sums the
    # nsec table and usec[0]: use it to size them so the sum prints like fio's.
    tf = terse.rstrip('\n').split(';')
    lat2 = (4 if tver == 2 else 5) + (2 if tver == 3 else 3) * (47 if tver == 5 else 41) + 12
    if len(tf) > lat2 and total:
        target = round(float(tf[lat2].rstrip('%')) * total / 100.0)
        vals = list(job['latency_ns'].values()) + [list(job['latency_us'].values())[0]]
        cs = counts(vals, total, 0.01)
        floored = [i for i, p in enumerate(vals) if abs(p - 0.01) < 1e-9]
        rest = target - sum(c for i, c in enumerate(cs) if i not in floored)
        if floored and rest > len(floored):
            cap = max(1, (total - 1) // 10000)
            for n, i in enumerate(floored):
                share = rest // len(floored) + (rest % len(floored) if n == 0 else 0)
                cs[i] = max(1, min(cap, share))
            for i in floored:
                name = 'lat_n[%d]' % i if i < 10 else 'lat_u[0]'
                w('\tr->%s = %d;' % (name, cs[i]))
    for i, dk in enumerate(js.get('disk_util', [])):
        w('\tsnprintf(f->disks[%d].name, sizeof(f->disks[%d].name), "%s");' % (i, i, dk['name']))
        for k in ('read_ios', 'write_ios', 'read_merges', 'write_merges', 'read_ticks',
                  'write_ticks', 'in_queue'):
            w('\tf->disks[%d].%s = %d;' % (i, k, dk[k]))
        w('\tf->disks[%d].util = %.6f;' % (i, dk['util']))
        w('\tf->nr_disks = %d;' % (i + 1))
    w('\tf->header = %s_header;' % fid)
    w('\tf->normal = %s_normal;' % fid)
    w('\tf->json = %s_json;' % fid)
    w('\tf->json_plain = %s_json_plain;' % fid)
    w('\tf->terse = %s_terse;' % fid)
    w('\tf->terse_version = %d;' % tver)
    w('}')
    return '\n'.join(L) + '\n'


def main():
    fdir = os.path.join(HERE, 'fixtures')
    ids = sorted(f[len('report_'):-4] for f in os.listdir(fdir)
                 if f.startswith('report_') and f.endswith('.out'))
    print('/* Generated by tests/unit/gen_report_fixtures.py from tests/unit/fixtures/report_*.out')
    print(' * (real fio 3.33 output). Do not edit. */')
    for i in ids:
        print(gen(i, os.path.join(fdir, 'report_%s.out' % i)))
    print('static void (*const fx_all[])(struct fx *) = { %s };' %
          ', '.join('%s_fill' % i for i in ids))
    print('static const char *const fx_names[] = { %s };' % ', '.join('"%s"' % i for i in ids))


main()
