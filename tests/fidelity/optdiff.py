#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""optdiff: differential option parsing, iops against fio 3.33 (issue 21).

For every option iops knows (`iops fio --cmdhelp=all`), values are generated from fio's own
description of the option (`fio --cmdhelp=NAME`, or `--enghelp=ENGINE,NAME` for an engine's
options: its type, range and valid values), then mutated (suffixes and their case, trailing
characters, `%` and `%%`, spaces, signs, empty, huge, ranges and lists with odd separators,
units on unitless options, `${VAR}` and math expressions). Each value is given to both tools
with `--parse-only --debug=parse`, on the command line (`--name=vN --OPTION=VALUE`, many jobs
per process) and in job files (a section per value). Compared: accepted or refused, and where
both accept, the values fio's parser reports (`out=` lines of --debug=parse, and fio's other
per-option debug lines: the percentage of an offset, a steady-state threshold).

A refusal ends a tool's parse, so each tool goes through the list on its own: a run takes the
values from where the last one stopped, until it refuses one (its "job vN dropped" line, or
the last value it was handling) or reaches the end; refused values are cheap runs, accepted
ones share one. Values iops refuses are put in short runs of fio, where each refusal is
expected.

Usage: optdiff.py [--seed N] [--count N] [--modes cmdline,jobfile] [--options a,b] [--jobs N]
                  [--fio PATH] [--iops PATH] [--work DIR] [--report FILE] [--verbose]
Closing line: "optdiff: N values (seed S): N agree, N listed differences, N disagree (P%
agreement outside the listed differences)"; exit 1 if any value disagrees outside the list of
known differences (tests/fidelity/differences.txt).
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import random
import re
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))

# Engines whose options iops knows, in the order their help is searched for an option fio does
# not list in its main table (fio --enghelp=ENGINE).
ENGINES = ["io_uring", "libaio", "pvsync2", "net", "netsplice", "cpuio", "exec", "e4defrag",
           "posixaio", "mmap", "splice", "filecreate", "filestat", "filedelete", "dircreate",
           "dirstat", "dirdelete", "falloc", "ftruncate", "null", "psync", "sync", "pvsync"]


def run(argv, stdin=None, timeout=120):
    """argv's exit status, stdout and stderr (text, bad bytes replaced)."""
    p = subprocess.run(argv, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=timeout)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


# ---- the options: names from iops, descriptions from fio -------------------------------------

HELP_LINE = re.compile(r"^ *([^:]*?) *: (.*)$")


def parse_cmdhelp(text):
    """fio's description of one option: {name, alias, type, default, min, max, choices}."""
    info = {"choices": []}
    key = None
    for line in text.splitlines():
        m = HELP_LINE.match(line)
        if not m:
            continue
        k, v = m.group(1), m.group(2)
        if k == "valid values" or (k == "" and key == "valid values"):
            key = "valid values"
            word = v.split(" ", 1)[0]
            if word:
                info["choices"].append(word)
            continue
        key = k
        if "name" not in info:
            info["name"] = k
            info["help"] = v
        elif k == "alias":
            info["alias"] = v
        elif k == "type":
            info["type"] = v
        elif k == "default":
            info["default"] = v
        elif k == "range":
            r = re.match(r"min=(-?[0-9.]+), max=(-?[0-9.]+)", v)
            if r:
                info["min"], info["max"] = float(r.group(1)), float(r.group(2))
            else:
                r = re.match(r"min=(-?[0-9.]+)", v)
                if r:
                    info["min"] = float(r.group(1))
    return info


def inventory(fio, iops, work, jobs):
    """The options to test: iops' names, each with fio's description and the engine it needs
    (None for the main table). Cached in WORK/inventory.json for the two binaries."""
    key = hashlib.sha256()
    for b in (fio, iops):
        st = os.stat(b)
        key.update(("%s %d %d\n" % (b, st.st_size, st.st_mtime_ns)).encode())
    cache = os.path.join(work, "inventory.json")
    try:
        with open(cache) as f:
            data = json.load(f)
        if data.get("key") == key.hexdigest():
            return data["options"]
    except (OSError, ValueError):
        pass
    rc, out, err = run([iops, "fio", "--cmdhelp=all"])
    names = []
    for line in out.splitlines():
        m = re.match(r"^ *([A-Za-z0-9_-]+) *: ", line)
        if m and m.group(1) not in names:
            names.append(m.group(1))
    engine_lists = {}

    def enghelp(e):
        rc, out, err = run([fio, "--enghelp=" + e])
        return e, [m.group(1) for m in (re.match(r"^([A-Za-z0-9_-]+) *: ", l) for l in out.splitlines()) if m]

    with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
        for e, opts in ex.map(enghelp, ENGINES):
            engine_lists[e] = opts

    def describe(name):
        rc, out, err = run([fio, "--cmdhelp=" + name])
        if "No such command" not in out + err and out.strip():
            return name, None, parse_cmdhelp(out)
        for e in ENGINES:
            if name in engine_lists.get(e, []):
                rc, out, err = run([fio, "--enghelp=%s,%s" % (e, name)])
                return name, e, parse_cmdhelp(out)
        return name, None, None

    options = []
    with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
        for name, engine, info in ex.map(describe, names):
            if info is None or "type" not in info:
                continue	# fio does not know it (an iops option of its own): not compared
            info["name"] = name
            info["engine"] = engine
            options.append(info)
    os.makedirs(work, exist_ok=True)
    with open(cache, "w") as f:
        json.dump({"key": key.hexdigest(), "options": options}, f, indent=1)
    return options


# ---- values ------------------------------------------------------------------------------------

SUFFIXES = ["k", "K", "m", "M", "g", "G", "t", "T", "p", "P", "e", "E", "b", "B", "kb", "KB", "kB",
            "Kb", "kib", "KiB", "KIB", "Ki", "mib", "MiB", "Mi", "gib", "GiB", "tib", "pib", "eib",
            "mb", "MB", "gb", "GB", "tb", "pb", "eb", "kk", "ki", "KiBB", "i", "x"]
TIME_UNITS = ["us", "usec", "ms", "msec", "s", "sec", "m", "min", "h", "hour", "d", "day",
              "US", "MS", "S", "M", "H", "D", "Us", "mS", "ns", "y", "w"]
HUGE = ["2147483647", "2147483648", "4294967295", "4294967296", "9223372036854775807",
        "9223372036854775808", "18446744073709551615", "18446744073709551616",
        "99999999999999999999999", "1e19", "1e30", "0x7fffffffffffffff", "0xffffffffffffffff",
        "0x10000000000000000", "16383p", "16384p", "16e", "15e", "17179869184g", "1125899906842624k"]
JUNK_TAIL = ["x", " ", "\t", "%", "%%", ",", ":", "-", ".", "0", "k", "K", "#", ";", "/", "=",
             "\"", "'", "(", ")", " x", "  ", "$", "e", "+1", "-1", "..", "::", ",,", "/1"]
JUNK_HEAD = [" ", "\t", "+", "-", "0", "=", "\"", "'", "00", "+-", "--", ":", ",", "%"]
SEP_SWAPS = [(",", ":"), (":", ","), ("-", ":"), (":", "-"), ("/", ":"), (":", "/"), (",", ";"),
             ("-", ","), (",", " "), (":", " : "), ("-", " - "), (",", ", "), ("/", "%")]

# Values that mean something for string options without a list of words (fio's syntax, from
# its documentation); the generator mutates them like any other value.
EXAMPLES = {
    "bssplit": ["4k/50:8k/50", "4k/10:64k/50:32k/40", "4k/50:8k/50,16k/100", "4k/50:8k/50,,1m/100",
                "4k:8k", "4k/", "/50", "4k/100", "4k/50/1", "1k/0:4k/100", "4k/33:8k/33:16k/34"],
    "cpus_allowed": ["0", "0-1", "0,1", "0-1,1", "1-0", "0-0", "0,0", "1", "0-1023", "1024", "0-1:2"],
    "numa_cpu_nodes": ["0", "0-1", "all", "0,1"],
    "numa_mem_policy": ["default", "prefer:0", "bind:0", "interleave:0-1", "local", "bind"],
    "steadystate": ["iops:5%", "iops_slope:0.1%", "bw:10", "bw_slope:1", "iops:5%x", "iops:0",
                    "bw:1m", "iops:5%%", "iops", "iops:", "IOPS:5", "bw_slope:0.01%"],
    "random_distribution": ["zipf:1.2", "pareto:0.5", "normal:50", "gauss:10", "zoned:50/10:50/90",
                            "zoned_abs:50/1m:50/9m", "random", "zipf", "zipf:0", "zipf:1.2:0.5",
                            "normal:50:0.1", "zoned:100/100", "zoned:50/10"],
    "filename": ["f", "a:b", "a\\:b", "/tmp/x", "f1:f2:f3", "-", "a b", "~/x", "$jobname"],
    "filename_format": ["$jobname.$jobnum.$filenum", "f.$filenum", "%s", "$clientuid.x", "x"],
    "directory": ["/tmp", "a:b", ".", "/tmp/x:/tmp/y"],
    "ignore_error": ["EIO", "EIO,ENOSPC", "5", "EIO:EILSEQ", "EIO,5,ENOSPC", ",EIO", "EIO,,EINVAL",
                     "EIO|ENOSPC", "eio", "ENOTEXIST", "-5", "0"],
    "buffer_pattern": ["0xdeadbeef", "\"abc\"", "'abc'", "0x0", "0xdead\"x\"", "1", "0xzz", "abc"],
    "verify_pattern": ["0xdeadbeef", "\"abc\"", "0x0", "%o", "0xaa%o", "1", "0xzz"],
    "percentage_random": ["100", "50,50", "10,20,30", "0", "101"],
    "rate": ["1m", "1m,2m", ",1m", "1m,", "1m,2m,3m", "100"],
    "rate_min": ["1m", "1m,2m", ",1m"],
    "rate_iops": ["100", "100,200", ",100"],
    "rate_iops_min": ["10", "10,20"],
    "bs": ["4k", "4k,8k", "4k,8k,16k", ",8k"],
    "ba": ["4k", "4k,8k"],
    "rwmixread": ["50", "0", "100", "101"],
    "continue_on_error": ["none", "read", "write", "io", "verify", "all", "0", "1", "read,write"],
    "cpumask": ["1", "3", "0xff", "0"],
    "exitall_on_error": ["1"],
    "number_ios": ["10", "1k", "0"],
    "trim_backlog_batch": ["1"],
    "ioscheduler": ["none", "mq-deadline", "bfq", "kyber"],
    "ioengine": ["psync", "libaio", "io_uring", "null", "sync", "rbd", "external:x.so"],
    "mem": ["malloc", "mmap", "mmaphuge", "mmapshared", "shm", "shmhuge", "cudamalloc", "mmap:f",
            "mmaphuge:/tmp/x"],
    "write_iolog": ["x.log"],
    "read_iolog": ["x.log"],
    "cgroup": ["a", "a/b"],
    "pre_read": ["1"],
    "zonemode": ["none", "strided", "zbd"],
    "cmdprio_bssplit": ["64k/100:1024k/0,1024k/0", "64k/25/1/1:64k/75/3/2:1024k/0,1024k/0",
                        "1M/10/2/0/1:1M/30/2/0/2", "4k/50", "4k/50/8/0"],
    "hostname": ["localhost", "127.0.0.1", "::1"],
    "interface": ["lo", "127.0.0.1"],
    "exec_prerun": ["true", "echo x"],
    "exec_postrun": ["true"],
    "program": ["/bin/true"],
    "arguments": ["%r", "a b"],
    "donorname": ["d"],
    "lockfile": ["none", "exclusive", "readwrite", "rw", "excl"],
    "log_alternate_epoch_clock_id": ["0", "1", "4"],
}


def uniq(seq):
    seen, out = set(), []
    for v in seq:
        if v is not None and "\n" not in v and "\0" not in v and v not in seen:
            seen.add(v)
            out.append(v)
    return out


def numbers(info, rng):
    """Plain numbers around an option's range and default."""
    lo = info.get("min", 0.0)
    hi = info.get("max", -1.0)
    out = ["0", "1", "2", "3", "7", "8", "10", "16", "64", "100", "128", "512", "1000", "1023",
           "1024", "4096", "65536", "1000000", "1048576"]
    if lo != -1:
        out += ["%d" % lo, "%d" % (lo - 1), "%d" % (lo + 1)]
    if hi not in (-1.0, 0.0):
        out += ["%d" % hi, "%d" % (hi + 1), "%d" % (hi - 1), "%d" % (hi // 2)]
        out += [str(rng.randint(int(lo), int(hi))) for _ in range(3)]
    d = info.get("default", "")
    if d and d != "no default":
        out.append(d)
    out += [str(rng.randint(0, 1 << rng.choice([4, 10, 20, 31, 40]))) for _ in range(4)]
    return out


def base_values(info, rng):
    """Valid-looking values from the option's type, range, choices and examples."""
    t = info.get("type", "")
    name = info["name"]
    out = []
    nums = numbers(info, rng)
    if "integer" in t or "k/m/g" in t:
        out += nums
        out += [n + s for n in ("1", "4", "16", "3", "0", "1.5", "0.5", "1024") for s in SUFFIXES[:12]]
        out += [rng.choice(nums) + rng.choice(SUFFIXES) for _ in range(6)]
        out += ["0x10", "0X1F", "0x0", "010", "0b11", "0x", "1.5", ".5", "1.", "1e3", "1E3", "1e-3",
                "-1", "-0", "+1", "50%", "0%", "100%", "101%", "1%", "50.5%", "-5%", "%", "%%", "50%%",
                "1-4", "4-1", "1:4", "1,2", "1,2,3", "1,2,3,4", ",1", "1,", ",", "1,,2", "1;2", "1/2",
                "(1+1)", "(4k*2)", "(2^10)", "(10/3)", "(1-2)", "(0x10)", "( 3 )", "(1k)", "(1m/2)",
                "1+1", "(1+", "()", "(-1)", "(3%2)", "(2*(3+4))", "$mb_memory", "$ncpus", "$pagesize",
                "($ncpus*2)", "10s", "10ms", "1h", "1us"]
        out += HUGE
    elif "time" in t:
        out += nums
        out += [n + u for n in ("1", "10", "0", "1.5", "0.5", "100", "3600") for u in TIME_UNITS]
        out += ["-1s", "+1s", "1s2", "s", "1 s", " 1s", "1s ", "inf", "1e3", "1e3ms", "0x10", "0x10s",
                "(1+1)", "(1+1)s", "(2*30)m", "$ncpus", "1k", "1m", "1ks"] + HUGE
        out += ["%s%s" % (rng.randint(0, 10 ** rng.randint(1, 12)), rng.choice(TIME_UNITS + [""]))
                for _ in range(6)]
    elif "floating point" in t:
        out += ["1:5:99.5", "50", "99.99", "100", "100.0", "0", "0.0", "100.1", "1.5e1", "-1", "1::2",
                ":1", "1:", "1,2", "1;2", "1%", "nan", "inf", "0x10", "1e-3", "5.9:7.8",
                ":".join(str(x) for x in range(1, 21)), ":".join(str(x) for x in range(1, 22)),
                "1:2:3:4:5:6:7:8:9:10:11:12:13:14:15:16:17:18:19:20:21:22:23:24:25:26:27:28:29:30:31:32:33",
                "50.123456789", "1e2", "1E2", "+5", " 5", "5 "]
        out += [":".join("%.*f" % (rng.randint(0, 3), rng.uniform(0, 100)) for _ in range(rng.randint(1, 5)))
                for _ in range(6)]
    elif "ranges" in t:
        out += ["1k-4k", "4k-1k", "1k:4k", "1k-4k,2k-8k", "1k-4k,2k-8k,4k-16k", "1k-4k,2k-8k,4k-16k,1k-2k",
                "1k", "-4k", "1k-", "1k--4k", "1k-4k,", ",1k-4k", "0-4k", "1-2", "1k-4kk", "512-1m",
                "4k-4k", "1K-4K", "1kib-4kib", "1k - 4k", "1k-4k:8k", "1m-2m,,4k-8k"]
        out += ["%d%s-%d%s" % (rng.randint(1, 64), rng.choice(["", "k", "m"]), rng.randint(1, 64),
                               rng.choice(["", "k", "m"])) for _ in range(6)]
    elif "boolean" in t:
        out += ["0", "1", "2", "-1", "", " 1", "1 ", "true", "false", "yes", "no", "on", "off", "01",
                "0x1", "1k", "1.0", "10", "00", "1x", "0 ", "2147483648", "Y", "(1)", "(0+1)"]
        if "empty" in t:
            out.append(None)	# the bare option, without '='
    else:	# a string, with or without a list of words
        ch = info.get("choices", [])
        for c in ch:
            out += [c, c.upper(), c.capitalize(), c[:3], c + "x", c + " ", " " + c, c + ":", c + ",",
                    c + ":1", c + ":8", c + ":abc", c + "=1", c + "%"]
        if len(ch) >= 2:
            out += ["%s,%s" % (ch[0], ch[1]), "%s:%s" % (ch[0], ch[1]), "%s|%s" % (ch[0], ch[1]),
                    "%s %s" % (ch[0], ch[1]), "%s,%s" % (ch[1], ch[0])]
        out += ["", "0", "1", "-1", "x", "abc", "ABC", "a b", "1k", "none", "all", "yes", "%", "%%",
                "${OD_UNSET}", "$jobname", "a,b", "a:b", "100"]
        d = info.get("default", "")
        if d and d != "no default":
            out.append(d)
    out += EXAMPLES.get(name, [])
    return uniq(out)


def mutate(v, rng):
    """One random mutation of v."""
    k = rng.randrange(12)
    if k == 0:
        return v.upper()
    if k == 1:
        return v.lower() if rng.random() < 0.5 else v.capitalize()
    if k == 2:
        return v + rng.choice(JUNK_TAIL)
    if k == 3:
        return rng.choice(JUNK_HEAD) + v
    if k == 4:
        a, b = rng.choice(SEP_SWAPS)
        return v.replace(a, b)
    if k == 5:
        return v + rng.choice([",", ":", "-", "/"]) + v
    if k == 6:
        return "(" + v + rng.choice(["", "+0", "*1", "+1", "-1", "*2", "/2", ")+(1"]) + ")"
    if k == 7:
        return v + rng.choice(SUFFIXES + TIME_UNITS)
    if k == 8:
        i = rng.randrange(len(v) + 1)
        return v[:i] + rng.choice([" ", "%", ",", ":", "x", "0", "-", "."]) + v[i:]
    if k == 9:
        i = rng.randrange(len(v) + 1)
        return v[:i]
    if k == 10:
        return rng.choice(["", "-", "+"]) + v + rng.choice(["%", "%%", "", " "])
    return rng.choice(HUGE) if rng.random() < 0.5 else v + rng.choice(HUGE)


def option_rng(seed, name):
    return random.Random("%d/%s" % (seed, name))


def values_for(info, seed, count):
    """count values for one option: its base values first (all of them, up to count), then
    mutations of them and of each other (seeded: the same seed gives the same values)."""
    rng = option_rng(seed, info["name"])
    base = base_values(info, rng)
    out = list(base[:count])
    seen = set(out)
    pool = [b for b in base if b is not None] or [""]
    tries = 0
    while len(out) < count and tries < count * 20:
        tries += 1
        v = mutate(rng.choice(pool), rng)
        if rng.random() < 0.3:
            v = mutate(v, rng)
        if "\n" in v or "\0" in v or v in seen or len(v) > 200:
            continue
        seen.add(v)
        out.append(v)
        if rng.random() < 0.2:
            pool.append(v)
    return out


# ---- runs --------------------------------------------------------------------------------------

# What --debug=parse says that is not about an option's value (fio's bookkeeping).
NOISE = re.compile(r"^(dup options|free options|init options|filling default options|"
                   r"Parsing ini file .*|Parsing section \[.*\]|\[.*\])$")


# In the child, no file may grow (RLIMIT_FSIZE 0), so a tool that starts a job by mistake ends at
# its first write. Set by prlimit(1), not a preexec_fn: a preexec_fn makes Python fork() instead of
# vfork(), and a fork copies the page tables of this process, which holds the debug output of
# thousands of runs: 256 ms a run at 4.6 GB against 5 ms (the 100,000 values took over an hour).
NO_WRITES = ["prlimit", "--fsize=0:0", "--"]


def debug_messages(stdout):
    """The messages of the --debug=parse lines ("parse    PID  msg": pid padded to 5)."""
    out = []
    for line in stdout.splitlines():
        if not line.startswith("parse    "):
            continue
        m = re.match(r"\d+", line[9:])
        if not m:
            continue
        out.append(line[9 + max(5, len(m.group(0))) + 1:])
    return out


class Item:
    """One value of one option, given one way: text after "OPTION=" (None: the bare option),
    env: the environment it needs (job files: ${VAR}); id: its job's name is v<id>."""
    __slots__ = ("opt", "text", "env", "label", "mode", "id", "res")

    def __init__(self, opt, text, mode, ident, env=None, label=None):
        self.opt, self.text, self.mode, self.id, self.env = opt, text, mode, ident, env or {}
        self.label = label if label is not None else ("<bare>" if text is None else text)
        self.res = {}	# tool -> ("ok", [payload lines]) or ("refused", first error line)


# Options whose values are checked against others: the other options a job needs so that the
# value alone decides (fio checks these when the job starts, iops when it plans the run).
CONTEXT = {
    "net": ["hostname=localhost", "port=8888", "rw=write"], "netsplice": ["hostname=localhost", "port=8888", "rw=write"],
    "cpuio": ["cpuload=50", "runtime=1"],
    "exec": ["program=/bin/true"],
    "zonesize": ["zonemode=strided"], "zonerange": ["zonemode=strided", "zonesize=1m"],
    "zoneskip": ["zonemode=strided", "zonesize=1m"], "zonecapacity": ["zonemode=strided", "zonesize=1m"],
    "merge_blktrace_scalars": ["read_iolog=od.trace", "merge_blktrace_file=od.merged"],
    "merge_blktrace_iters": ["read_iolog=od.trace", "merge_blktrace_file=od.merged"],
    "merge_blktrace_file": ["read_iolog=od.trace"],
}
SIZE_OPTIONS = {"size", "io_size", "filesize", "offset", "offset_increment", "number_ios"}


def context(opt):
    """The global options of a job testing opt: its engine, and what its checks need."""
    ctx = []
    if opt["engine"]:
        ctx.append("ioengine=" + opt["engine"])
        ctx += CONTEXT.get(opt["engine"], [])
    ctx += CONTEXT.get(opt["name"], [])
    if opt["name"] in SIZE_OPTIONS:
        ctx.append("bs=1")	# a size below the block size is refused when the job starts
    return [c for c in ctx if c.split("=")[0] not in (opt["name"], opt.get("alias"))]


def sentinel(opt, tool):
    """fio's --parse-only skips its options' callbacks (they return at once when parsing dry),
    so it takes values its runs refuse (ignore_error=x, cpus_allowed=x). Both tools' parses are
    read without --parse-only instead, with a last job they refuse: the run stops there, before
    any job starts (iops refuses a whole run for one bad option; fio runs the jobs it has only
    when a job is rejected after its options parsed, and then can write nothing: NO_WRITES).
    fio checks a job when it is added, so its last job fails at bs=0; iops checks the jobs
    after they are all parsed (a wait_for= name, an opendir= walk), so its last job fails at
    the last of those checks: an opendir= that does not exist, in a job that repeats the last
    value (so that it passes the checks of a job the last value passed). None where that is unsafe:
    numjobs (fio past 4096 jobs runs what it has)."""
    if opt["name"] == "numjobs":
        return None
    if tool == "iops":
        return "opendir=" + IOPS_STOP
    return "iodepth=0" if opt["name"] in ("bs", "blocksize") else "bs=0"


IOPS_STOP = "/nonexistent-optdiff/stop"


def build_run(tool_bin, opt, items, mode, workdir, tool):
    """argv and environment for one run of items (a job file in workdir for mode jobfile)."""
    name = opt["name"]
    env = dict(os.environ)
    for it in items:
        env.update(it.env)
    stop = sentinel(opt, tool)	# iops too: its option parse, with what it looks at, as fio's
    argv = [tool_bin, "--debug=parse"] + ([] if stop else ["--parse-only"])
    if mode == "cmdline":
        argv += ["--" + c for c in context(opt)]
        for it in items:
            argv.append("--name=v%d" % it.id)
            argv.append("--" + name if it.text is None else "--%s=%s" % (name, it.text))
        if stop:
            argv += ["--name=vEND"] + ([argv[-1]] if tool == "iops" and items else []) + ["--" + stop]
        return argv, env, None, set()
    lines = ["[global]"] + context(opt)
    for it in items:
        lines.append("[v%d]" % it.id)
        lines.append(name if it.text is None else "%s=%s" % (name, it.text))
    if stop:
        lines += ["[vEND]"] + ([lines[-1]] if tool == "iops" and items else []) + [stop]
    fd, path = tempfile.mkstemp(prefix="od-", suffix=".fio", dir=workdir)
    with os.fdopen(fd, "w") as f:
        f.write("\n".join(lines) + "\n")
    return argv + [path], env, path, set(l.strip() for l in lines)


# Files a run left in its directory (a run's cwd is a fresh directory of its own): which tool,
# option and values made them.
LEFT = []
LEFT_LOCK = threading.Lock()


class Hung(Exception):
    """A run that did not end: fio 3.33 on the command line expands $jobname in a job's own
    name for ever (name=$jobname:$jobname), printing without end."""


OUTPUT_CAP = 256 << 20	# a run's output past this is one that prints without end


def capture(p, timeout, name):
    """Both pipes of p read to their end, as communicate(), but the run is killed, and Hung
    raised, at the timeout or once it has printed OUTPUT_CAP bytes: a hung fio prints GBs."""
    bufs = {p.stdout: [], p.stderr: []}
    total = 0
    deadline = time.monotonic() + timeout
    sel = selectors.DefaultSelector()
    for f in bufs:
        sel.register(f, selectors.EVENT_READ)
    why = None
    while sel.get_map() and why is None:
        left = deadline - time.monotonic()
        if left <= 0:
            why = "did not end in %d s" % timeout
            break
        for key, _ in sel.select(left):
            chunk = os.read(key.fd, 1 << 16)
            if not chunk:
                sel.unregister(key.fileobj)
                continue
            bufs[key.fileobj].append(chunk)
            total += len(chunk)
            if total > OUTPUT_CAP:
                why = "printed over %d MiB" % (OUTPUT_CAP >> 20)
    sel.close()
    if why is not None:
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
        p.stdout.close()
        p.stderr.close()
        raise Hung("%s %s" % (name, why))
    p.wait()
    p.stdout.close()
    p.stderr.close()
    return b"".join(bufs[p.stdout]), b"".join(bufs[p.stderr])


def one_run(tool_bin, opt, items, mode, workdir, tool, timeout=60):
    """Run items through one tool. Returns the results of a prefix of items: ("ok", payload)
    or ("refused", first error line); the parse stops at the first refusal."""
    rundir = tempfile.mkdtemp(prefix="r-", dir=workdir)	# what the run leaves is its own
    argv, env, path, file_lines = build_run(tool_bin, opt, items, mode, rundir, tool)
    try:
        # fio runs the jobs it has when a later one is rejected after its options parsed
        # (steadystate options inconsistent in a group): no file may grow (SIGXFSZ ends it
        # at the first write), and the whole process group goes at the timeout
        p = subprocess.Popen(NO_WRITES + argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=rundir,
                             start_new_session=True)
        sout, serr = capture(p, timeout, os.path.basename(tool_bin))
    finally:
        if path:
            os.unlink(path)
        left = sorted(os.listdir(rundir))
        if left:
            with LEFT_LOCK:
                LEFT.append({"tool": tool, "option": opt["name"], "mode": mode, "files": left,
                             "values": [it.label for it in items][:5]})
        shutil.rmtree(rundir, ignore_errors=True)
    out = sout.decode("utf-8", "replace")
    err = serr.decode("utf-8", "replace")
    names = {opt["name"], opt.get("alias", "")} - {""}
    blocks, cur = [], None
    msgs = debug_messages(out)
    # fio fills an engine's defaults when the job's ioengine is read, with the option's own
    # lines: what counts starts at the first job (its name on the command line, its section)
    first = next((k for k, msg in enumerate(msgs) if msg.startswith("handle_option=name, ptr=v")
                  or msg.startswith("Parsing section [v")), 0)
    # fio filled the engine's defaults: an option with a default has its next block from that
    has_default = opt.get("default", "no default") not in ("no default", "")
    fill = False
    for msg in msgs[first:]:
        if msg == "filling default options":
            fill = has_default
            continue
        m = re.match(r"handle_option=([^,]*), ptr=", msg)
        if m:
            cur = [] if m.group(1) in names else None
            if cur is not None:
                if fill:
                    cur, fill = None, False
                else:
                    blocks.append(cur)
            continue
        if cur is None or msg.startswith("__handle_option=") or NOISE.match(msg) or msg.strip() in file_lines:
            continue
        cur.append(msg.strip())
    first_err = next((l for l in err.splitlines() if l.strip() and "set debug option" not in l), "")
    # the parse reached the last job (fio's, which it refuses): every value was taken
    if tool == "iops" and sentinel(opt, tool):
        reached = IOPS_STOP in err	# its warnings (time_based without runtime) come first
    else:
        reached = "handle_option=name, ptr=vEND" in msgs or re.search(r"job vEND dropped", err)
    if p.returncode == 0 or reached:
        # a value that printed no block was taken without a parse (a bare flag, say)
        return [("ok", blocks[k] if k < len(blocks) else []) for k in range(len(items))]
    bad = None
    dropped = re.search(r"job v(\d+) dropped", err)
    if dropped:
        ids = [it.id for it in items]
        if int(dropped.group(1)) in ids:
            bad = ids.index(int(dropped.group(1)))
    named = re.match(r"v(\d+): ", first_err)	# iops' checks after the parse name the job
    if bad is None and named and int(named.group(1)) in [it.id for it in items]:
        bad = [it.id for it in items].index(int(named.group(1)))
    if bad is None and tool == "iops" and len(blocks) >= len(items) > 1:
        return None	# refused after every value parsed, by a check that names no job
    if bad is None:
        bad = min(max(len(blocks) - 1, 0), len(items) - 1)
    res = [("ok", blocks[k] if k < len(blocks) else []) for k in range(bad)]
    # the line that decided may follow lines fio prints and goes past (bs=-1%: the first part's
    # "min value out of range", then the refusal of the second): a listed refusal is looked for
    # in all of them
    res.append(("refused", first_err, "\n".join(err.splitlines()[:400])))
    return res


def one_alone(tool_bin, opt, it, mode, workdir, tool):
    """One item alone: a run that does not end counts as a refusal that says so."""
    try:
        return one_run(tool_bin, opt, [it], mode, workdir, tool, timeout=20)[0]
    except Hung as e:
        return ("refused", "%s (hangs)" % e)


def run_tool(tool, tool_bin, opt, items, mode, workdir, chunk):
    """Every item through one tool, a run restarting after each refusal."""
    i = 0
    while i < len(items):
        batch = items[i:i + chunk]
        try:
            res = one_run(tool_bin, opt, batch, mode, workdir, tool)
        except Hung:
            res = None
        if res is None:	# which value it refused, or hung on, is not known: each alone
            res = [one_alone(tool_bin, opt, it, mode, workdir, tool) for it in batch]
        for it, r in zip(batch, res):
            it.res[tool] = r
        i += len(res)


# ---- items, comparison, the listed differences -------------------------------------------------

def items_for(opt, mode, seed, count):
    """count items of one option for one mode; job files also take values through ${VAR}."""
    vals = values_for(opt, seed + (0 if mode == "cmdline" else 7919), count)
    items = [Item(opt, v, mode, k) for k, v in enumerate(vals)]
    if mode == "jobfile" and opt["type"] != "(null)":
        rng = option_rng(seed, opt["name"] + "/env")
        pool = [v for v in vals if v is not None][:40] or [""]
        n = max(1, count // 20)
        for j in range(n):
            k = len(items)
            v = rng.choice(pool)
            var = "OD_%d" % k
            form = rng.choice(["${%s}", "${%s}k", "(${%s}+1)", "${%s},${%s}", " ${%s} ", "${OD_UNSET_%d}"])
            text = form.replace("%s", var) if "%s" in form else form % k
            items.append(Item(opt, text, mode, k, env={var: v}, label="%s [%s=%r]" % (text, var, v)))
    return items[:max(count, 1)] if len(items) > count else items


def compare(it):
    """'agree', or the kind of disagreement: 'iops refuses', 'iops accepts', 'value'."""
    f, i = it.res.get("fio"), it.res.get("iops")
    if f is None or i is None:
        return "not run"
    if f[0] == "refused" and i[0] == "refused":
        return "agree"
    if f[0] != i[0]:
        return "iops refuses" if i[0] == "refused" else "iops accepts"
    return "agree" if f[1] == i[1] else "value"


def load_differences(path):
    """The listed differences: lines "OPTION<TAB>KIND<TAB>REGEX<TAB>reason" (# comments)."""
    out = []
    try:
        with open(path) as f:
            for line in f:
                if not line.strip() or line.startswith("#"):
                    continue
                parts = line.rstrip("\n").split("\t")
                if len(parts) >= 3:
                    out.append((parts[0], parts[1], re.compile(parts[2]), parts[3] if len(parts) > 3 else ""))
    except OSError:
        pass
    return out


def listed(diffs, it, kind):
    """The reason a disagreement is a listed difference, or None. KIND "unsupported": iops
    refuses the value as not supported ("... is not supported by iops ...")."""
    said = it.res["iops"][-1]	# every line iops printed where it refused
    unsupported = kind == "iops refuses" and ("not supported by iops" in said
                                              or "which this build does not include" in said)
    for name, k, rx, why in diffs:
        if name not in (it.opt["name"], "*") or not rx.fullmatch(it.label or ""):
            continue
        if k in (kind, "any") or (k == "unsupported" and unsupported):
            return why or "listed"
        if k.startswith("refuses~") and kind == "iops refuses" and re.search(k[8:], said):
            return why or "listed"
    return None


def work_unit(args, opt, mode, count, workdir):
    """All the items of one option in one mode, through both tools."""
    items = items_for(opt, mode, args.seed, count)
    run_tool("iops", args.iops, opt, items, mode, workdir, 400)
    ok = [it for it in items if it.res["iops"][0] == "ok"]
    bad = [it for it in items if it.res["iops"][0] != "ok"]
    run_tool("fio", args.fio, opt, ok, mode, workdir, 400)
    run_tool("fio", args.fio, opt, bad, mode, workdir, 3)
    # a disagreement is run again alone on both sides: the verdict of a value, not of its batch
    for it in items:
        if compare(it) != "agree":
            for tool, b in (("iops", args.iops), ("fio", args.fio)):
                it.res[tool] = one_alone(b, opt, it, mode, workdir, tool)
    return items


def main():
    ap = argparse.ArgumentParser(description="differential option parsing, iops against fio 3.33")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=100000, help="values in all (spread over the options and modes)")
    ap.add_argument("--modes", default="cmdline,jobfile")
    ap.add_argument("--options", default="", help="only these options (comma separated)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--fio", default="/usr/bin/fio")
    ap.add_argument("--iops", default=os.path.join(REPO, "build", "iops"))
    ap.add_argument("--work", default=os.path.join(REPO, "build", "fidelity"))
    ap.add_argument("--differences", default=os.path.join(HERE, "differences.txt"))
    ap.add_argument("--report", default="", help="write every disagreement here (JSON)")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--progress", action="store_true", help="a line on stderr every 5%%")
    args = ap.parse_args()
    args.fio = os.path.abspath(args.fio)
    args.iops = os.path.abspath(args.iops)
    rc, out, err = run([args.fio, "--version"])
    if out.strip() != "fio-3.33":
        print("optdiff: %s is '%s', not fio-3.33" % (args.fio, out.strip()), file=sys.stderr)
        return 2
    workdir = os.path.join(args.work, "run")
    os.makedirs(workdir, exist_ok=True)
    opts = inventory(args.fio, args.iops, args.work, args.jobs)
    if args.options:
        want = set(args.options.split(","))
        opts = [o for o in opts if o["name"] in want]
    modes = [m for m in args.modes.split(",") if m]
    per = max(1, -(-args.count // max(1, len(opts) * len(modes))))	# at least count in all
    diffs = load_differences(args.differences)
    units = [(o, m) for o in opts for m in modes]
    results = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        futs = [ex.submit(work_unit, args, o, m, per, workdir) for o, m in units]
        for k, fu in enumerate(concurrent.futures.as_completed(futs)):
            results.extend(fu.result())
            if args.progress and (k + 1) % max(1, len(units) // 20) == 0:
                print("optdiff: %d of %d options x modes done" % (k + 1, len(units)), file=sys.stderr, flush=True)
    agree = listed_n = 0
    bad = []
    for it in results:
        k = compare(it)
        if k == "agree":
            agree += 1
        elif listed(diffs, it, k):
            listed_n += 1
        else:
            bad.append((it, k))
    by_opt = {}
    for it, k in bad:
        by_opt.setdefault((it.opt["name"], k), []).append(it)
    for (name, k), its in sorted(by_opt.items()):
        print("%-28s %-12s %5d  e.g. %s" % (name, k, len(its), "; ".join(
            "%s %r: fio %s / iops %s" % (it.mode[0], it.label, fmt_res(it.res["fio"]), fmt_res(it.res["iops"]))
            for it in its[:2 if not args.verbose else 50])))
    if args.report:
        with open(args.report, "w") as f:
            json.dump([{"option": it.opt["name"], "mode": it.mode, "value": it.label, "kind": k,
                        "env": it.env, "fio": it.res["fio"], "iops": it.res["iops"]} for it, k in bad], f, indent=1)
        with open(os.path.splitext(args.report)[0] + ".left.json", "w") as f:
            json.dump(LEFT, f, indent=1)
    for tool in ("fio", "iops"):
        runs = [l for l in LEFT if l["tool"] == tool]
        for l in runs[:20 if not args.verbose else len(runs)]:
            print("optdiff: %s left %s (%s, %s; values %s)" % (tool, " ".join(l["files"]), l["option"], l["mode"],
                                                             ", ".join(repr(v) for v in l["values"])))
    n = len(results)
    outside = n - listed_n
    pct = 100.0 * (outside - len(bad)) / outside if outside else 100.0
    print("optdiff: %d values (seed %d, %d options, %s): %d agree, %d listed differences, %d disagree "
          "(%.3f%% agreement outside the listed differences)" % (n, args.seed, len(opts), "+".join(modes),
                                                                agree, listed_n, len(bad), pct))
    return 1 if bad else 0


def fmt_res(r):
    if r[0] == "ok":
        return "ok" + ("[" + " | ".join(r[1]) + "]" if r[1] else "")
    return "refused (%s)" % r[1][:80]


if __name__ == "__main__":
    sys.exit(main())
