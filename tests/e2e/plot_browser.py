#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Render pages in one headless Chromium (DevTools protocol over --remote-debugging-pipe) and
report, per page: every console message, page error and log entry, what the browser parsed of
the charts (each [data-series] element: its chart, name, category and the <title>s of its
points or of itself), and the charts' rendered sizes. Optionally screenshots: the whole page,
or each chart's <figure> (--figures), in the light or the dark colour scheme (--dark).

usage: plot_browser.py [--chromium PATH] [--shots DIR] [--figures] [--dark] [--width N]
                       PAGE.html[#dark]... > report.json
(PAGE#dark: that page in the dark scheme; its report is under the same key, "#dark" included)
Exit status: 0 when every page loaded (the caller judges the report), 2 when the browser
could not start or a page did not load."""
import argparse
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time
import base64

EXTRACT = r"""(() => {
  const series = [];
  for (const el of document.querySelectorAll('[data-series]')) {
    const svg = el.closest('svg');
    const titles = [];
    for (const c of el.children) {
      if (c.tagName === 'title') { titles.push(c.textContent); continue; }
      const t = c.querySelector(':scope > title');
      if (t) titles.push(t.textContent);
    }
    const line = el.querySelector('polyline');
    series.push({chart: svg ? svg.id : null, series: el.getAttribute('data-series'),
                 category: el.getAttribute('data-category'), titles: titles,
                 points: line ? line.getAttribute('points').trim().split(/\s+/).length : 0});
  }
  const charts = [...document.querySelectorAll('svg.chart')].map(s => {
    const r = s.getBoundingClientRect();
    return {id: s.id, width: r.width, height: r.height};
  });
  return {title: document.title, series: series, charts: charts,
          scripts: document.scripts.length, elements: document.getElementsByTagName('*').length,
          background: getComputedStyle(document.body || document.documentElement).backgroundColor,
          height: document.documentElement.scrollHeight};
})()"""


class Browser:
    def __init__(self, chromium, width):
        self.profile = tempfile.mkdtemp(prefix="iops-plot-chromium.")
        to_b_r, to_b_w = os.pipe()
        from_b_r, from_b_w = os.pipe()
        # fds 3 and 4 of the child: its commands in, its answers out
        def child_fds():
            os.dup2(to_b_r, 3)
            os.dup2(from_b_w, 4)
        args = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--disable-extensions", "--disable-default-apps", "--mute-audio",
                "--user-data-dir=" + self.profile, "--remote-debugging-pipe",
                "--window-size=%d,1000" % width, "about:blank"]
        self.proc = subprocess.Popen(args, preexec_fn=child_fds, pass_fds=(3, 4),
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, close_fds=True)
        os.close(to_b_r)
        os.close(from_b_w)
        self.wr, self.rd = to_b_w, from_b_r
        self.buf = b""
        self.next_id = 0
        self.events = []
        self.session = None

    def _read_msg(self, deadline):
        while b"\0" not in self.buf:
            left = deadline - time.time()
            if left <= 0:
                raise TimeoutError("no answer from the browser")
            r, _, _ = select.select([self.rd], [], [], left)
            if not r:
                continue
            chunk = os.read(self.rd, 1 << 20)
            if not chunk:
                raise EOFError("the browser closed its pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params=None, session=True, timeout=30):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            msg["sessionId"] = self.session
        os.write(self.wr, json.dumps(msg).encode() + b"\0")
        deadline = time.time() + timeout
        while True:
            m = self._read_msg(deadline)
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise RuntimeError("%s: %s" % (method, m["error"]))
                return m.get("result", {})
            self.events.append(m)

    def wait_event(self, method, timeout=30):
        deadline = time.time() + timeout
        for i, e in enumerate(self.events):
            if e.get("method") == method:
                return self.events.pop(i)
        while True:
            m = self._read_msg(deadline)
            if m.get("method") == method:
                return m
            self.events.append(m)

    def drain(self, secs):
        deadline = time.time() + secs
        try:
            while True:
                self.events.append(self._read_msg(deadline))
        except TimeoutError:
            pass

    def close(self):
        try:
            self.call("Browser.close", session=False, timeout=5)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self.wr)
        os.close(self.rd)
        shutil.rmtree(self.profile, ignore_errors=True)


def problems(events):
    """Console messages, exceptions and log entries: the page must have none."""
    out = []
    for e in events:
        m, p = e.get("method"), e.get("params", {})
        if m == "Runtime.consoleAPICalled":
            out.append("console.%s: %s" % (p.get("type"), " ".join(
                str(a.get("value", a.get("description", ""))) for a in p.get("args", []))))
        elif m == "Runtime.exceptionThrown":
            d = p.get("exceptionDetails", {})
            out.append("exception: %s" % (d.get("exception", {}).get("description") or d.get("text")))
        elif m == "Log.entryAdded":
            en = p.get("entry", {})
            out.append("log %s (%s): %s %s" % (en.get("level"), en.get("source"), en.get("text"),
                                                en.get("url", "")))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    ap.add_argument("--shots", help="directory for the PNG screenshots")
    ap.add_argument("--figures", action="store_true", help="a screenshot per chart and card, not per page")
    ap.add_argument("--dark", action="store_true", help="prefers-color-scheme: dark")
    ap.add_argument("--width", type=int, default=900)
    ap.add_argument("pages", nargs="+")
    a = ap.parse_args()
    try:
        b = Browser(a.chromium, a.width)
        target = b.call("Target.createTarget", {"url": "about:blank"}, session=False)
        b.session = b.call("Target.attachToTarget", {"targetId": target["targetId"], "flatten": True},
                           session=False)["sessionId"]
        for m in ("Page.enable", "Runtime.enable", "Log.enable"):
            b.call(m)
        b.call("Emulation.setDeviceMetricsOverride", {"width": a.width, "height": 1000,
                                                      "deviceScaleFactor": 1, "mobile": False})
    except Exception as e:  # no browser: the caller skips or fails
        print("plot_browser: cannot drive %s: %s" % (a.chromium, e), file=sys.stderr)
        return 2
    report = {}
    rc = 0
    try:
        for page in a.pages:
            b.events = []
            path, dark = (page[:-5], True) if page.endswith("#dark") else (page, a.dark)
            b.call("Emulation.setEmulatedMedia", {"features": [
                {"name": "prefers-color-scheme", "value": "dark" if dark else "light"}]})
            url = "file://" + os.path.abspath(path)
            nav = b.call("Page.navigate", {"url": url})
            if nav.get("errorText"):
                report[page] = {"load": nav["errorText"]}
                rc = 2
                continue
            b.wait_event("Page.loadEventFired")
            b.drain(0.3)	# late console messages
            res = b.call("Runtime.evaluate", {"expression": EXTRACT, "returnByValue": True})
            info = res.get("result", {}).get("value", {})
            info["problems"] = problems(b.events)
            if "exceptionDetails" in res:
                info["problems"].append("reading the page back failed: %s" % res["exceptionDetails"].get("text"))
            info["load"] = "ok"
            if a.shots:
                os.makedirs(a.shots, exist_ok=True)
                base = os.path.splitext(os.path.basename(path))[0] + ("-dark" if dark else "")
                shots = []
                if a.figures:
                    rects = b.call("Runtime.evaluate", {"returnByValue": True, "expression":
                        "[...document.querySelectorAll('figure, section.card')].map((f, i) => {"
                        " const r = f.getBoundingClientRect(), s = f.querySelector('svg');"
                        " return [s ? s.id : 'card' + i, r.x + scrollX - 8, r.y + scrollY - 8, r.width + 16,"
                        " r.height + 16];})"
                    })["result"]["value"]
                    clips = [(i, {"x": x, "y": y, "width": w, "height": h, "scale": 1}) for i, x, y, w, h in rects]
                else:
                    clips = [("page", {"x": 0, "y": 0, "width": a.width, "height": info["height"], "scale": 1})]
                for name, clip in clips:
                    png = b.call("Page.captureScreenshot", {"format": "png", "clip": clip,
                                                            "captureBeyondViewport": True})["data"]
                    path = os.path.join(a.shots, "%s-%s.png" % (base, name))
                    with open(path, "wb") as f:
                        f.write(base64.b64decode(png))
                    shots.append(path)
                info["shots"] = shots
            report[page] = info
    finally:
        b.close()
    json.dump(report, sys.stdout, indent=1)
    print()
    return rc


if __name__ == "__main__":
    sys.exit(main())
