"""Where the time of a reload goes: the Cluster page's link, opened three ways, as a timeline.

The link is the one the breast demo leaves in the address bar (the ``reload`` rows of
``bench/bench_browser.py``). Each tree (``--app-dir``, several allowed, run interleaved) gets
a fresh server; the demo is opened once (so the server has imported everything and filled
its caches), then per repeat:

* ``fresh``: the link in a fresh browser profile (nothing cached);
* ``tab``: the link in a new tab of a profile that has opened it before;
* ``f5``: F5 in that tab.

Per load, times in ms from the navigation's start (the page's ``performance.now()``):

* ``html``: the document received; ``st-js``: the last of Streamlit's own scripts received
  (``/static/``; its size over the wire beside it, 0 when it came from the HTTP cache);
* ``ws``: Streamlit's websocket open; ``script``: the server's ``new_session`` message (the
  script started) and ``finished`` (``script_finished``) - the server's script time is their
  difference, plus the transport;
* ``h1``: the page's title drawn; ``chart0``: the first chart element in the DOM;
* ``plotly-req`` / ``plotly-got``: plotly.js requested and received (size over the wire),
  ``plotly-ok``: plotly.js evaluated (``window.Plotly`` set);
* ``draw0`` / ``done``: the first chart drawn and the last chart mutation (``done`` is what
  ``bench_browser`` reports).

From a Chromium trace of the same load (``--trace``): the main thread's busy time, the
top-level script evaluations (compile + run) by script, and whether V8's code cache was used
for plotly.js (``v8.compile`` events: produced / consumed / rejected).

Run: ``python bench/bench_reload.py --app-dir ../chart-base --app-dir . --repeats 3 --trace``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_browser import (
    _DRAWN_GRAPHS,
    CHROMIUM,
    INIT_JS,
    LAUNCH_ARGS,
    VIEWPORT,
    WireClock,
    _breast_link,
    _idle,
    _launch,
    interleaved,
    streamlit_server,
)

#: Page-side milestones, installed before any page script.
PROBE_JS = r"""
(() => {
  const m = (window.__probe = { ws: null, h1: null, chart0: null, draw0: null, plotly: null });
  const now = () => performance.now();
  const WS = window.WebSocket;
  window.WebSocket = function (...args) {
    const ws = new WS(...args);
    ws.addEventListener('open', () => { if (m.ws === null) m.ws = now(); });
    return ws;
  };
  window.WebSocket.prototype = WS.prototype;
  Object.assign(window.WebSocket, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 });
  let plotly;
  Object.defineProperty(window, 'Plotly', {
    configurable: true,
    get: () => plotly,
    set: (v) => { plotly = v; if (m.plotly === null) m.plotly = now(); },
  });
  const watch = () => new MutationObserver(() => {
    if (m.h1 === null && document.querySelector('[data-testid="stMain"] h1')) m.h1 = now();
    const chart = '.lab-chart, [data-testid="stPlotlyChart"]';
    if (m.chart0 === null && document.querySelector(chart)) m.chart0 = now();
    if (m.draw0 === null && document.querySelector('.main-svg')) m.draw0 = now();
  }).observe(document.documentElement, { subtree: true, childList: true });
  if (document.documentElement) watch(); else document.addEventListener('DOMContentLoaded', watch);
  m.origin = performance.mark('probe-origin').startTime;
})();
"""

MILESTONES = (
    "html",
    "st-js",
    "ws",
    "script",
    "finished",
    "h1",
    "chart0",
    "plotly-req",
    "plotly-got",
    "plotly-ok",
    "draw0",
    "done",
)

TRACE_CATEGORIES = [
    "devtools.timeline",
    "v8.execute",
    "blink.user_timing",
    "disabled-by-default-v8.compile",
    "toplevel",
    "disabled-by-default-v8.cpu_profiler",
]


class Messages(WireClock):
    """Wall-clock times (epoch ms) of the forward messages that start and end a script run."""

    def __init__(self, page):
        super().__init__(page)
        self.epoch: dict[str, float] = {}

    def _received(self, payload) -> None:
        super()._received(payload)
        if isinstance(payload, str):
            return
        msg = self._Forward()
        try:
            msg.ParseFromString(payload)
        except Exception:
            return
        kind = msg.WhichOneof("type")
        name = {"new_session": "script", "script_finished": "finished"}.get(kind)
        if name and name not in self.epoch:
            self.epoch[name] = time.time() * 1000.0


def _timeline(pg, msgs: Messages) -> dict[str, float]:
    data = pg.evaluate(
        """() => {
      const nav = performance.getEntriesByType('navigation')[0];
      const res = performance.getEntriesByType('resource').map(r => ({
        name: r.name, start: r.startTime, end: r.responseEnd, size: r.transferSize,
        body: r.decodedBodySize}));
      return { origin: performance.timeOrigin, html: nav.responseEnd, res, probe: window.__probe,
               done: window.__lastPlotMutation,
               charts: document.querySelectorAll('.js-plotly-plot').length };
    }"""
    )
    out = {"html": data["html"], "done": data["done"], "charts": data["charts"]}
    st_js = [
        r
        for r in data["res"]
        if "/static/" in r["name"] and r["name"].split("?")[0].endswith(".js")
    ]
    out["st-js"] = max((r["end"] for r in st_js), default=float("nan"))
    out["st-js-kB"] = sum(r["size"] for r in st_js) / 1024
    out["st-js-n"] = len(st_js)
    plotly = [r for r in data["res"] if "plotly" in r["name"].lower() and r["body"] > 1_000_000]
    if plotly:
        out["plotly-req"] = plotly[0]["start"]
        out["plotly-got"] = plotly[0]["end"]
        out["plotly-kB"] = plotly[0]["size"] / 1024
    probe = data["probe"] or {}
    for key, name in (("ws", "ws"), ("h1", "h1"), ("chart0", "chart0"), ("draw0", "draw0")):
        out[name] = probe.get(key) if probe.get(key) is not None else float("nan")
    out["origin-mark"] = probe.get("origin")
    out["plotly-ok"] = probe.get("plotly") if probe.get("plotly") is not None else float("nan")
    for name, epoch in msgs.epoch.items():
        out[name] = epoch - data["origin"]
    return out


PHASES = (
    ("to-ws", None, "ws"),
    ("script", "ws", "finished"),
    ("to-plotly", "finished", "plotly-ok"),
    ("drawing", "plotly-ok", "done"),
)


def _category(frame: dict) -> str:
    url = frame.get("url", "")
    name = frame.get("functionName", "")
    if "plotly" in url.lower():
        return "plotly"
    if "/static/" in url:
        return "streamlit"
    if url.startswith("blob:") or "lab_chart" in url or "bidi-components" in url:
        return "element"
    if name in ("(program)", "(garbage collector)"):
        return "native" if name == "(program)" else "gc"
    if name == "(idle)":
        return "idle"
    return "other-js" if url else "native"


def _trace_summary(raw: bytes, origin_ms: float | None) -> dict:
    """The renderer's sampled CPU profile from the trace, its samples counted by who ran
    (plotly.js, Streamlit's frontend, the chart element, native work: style, layout, paint,
    parsing; garbage collection) and by phase of the load; V8's code cache for plotly.js."""
    events = json.loads(raw)
    events = events.get("traceEvents", events) if isinstance(events, dict) else events
    mark = next((e for e in events if e.get("name") == "probe-origin"), None)
    nodes: dict[tuple, dict] = {}
    samples: list[tuple[float, str]] = []
    starts: dict[tuple, float] = {}
    for e in events:
        if e.get("name") == "Profile":
            starts[(e["pid"], e.get("id"))] = e["args"]["data"]["startTime"]
    clock: dict[tuple, float] = {}
    for e in events:
        if e.get("name") != "ProfileChunk":
            continue
        pid_key = (e["pid"], e.get("id"))
        data = e["args"]["data"]
        prof = data.get("cpuProfile", {})
        for n in prof.get("nodes", []) or []:
            nodes[(pid_key, n["id"])] = n.get("callFrame", {})
        t = clock.get(pid_key, starts.get(pid_key, e["ts"]))
        ticks = zip(prof.get("samples") or [], data.get("timeDeltas") or [], strict=False)
        for node, delta in ticks:
            t += delta
            samples.append((t, pid_key, node))
        clock[pid_key] = t
    out: dict = {}
    if mark is not None and origin_ms is not None and samples:
        # The renderer of this page: the process whose profile ran the probe's mark.
        zero = mark["ts"] / 1000.0 - origin_ms
        mine = [s for s in samples if s[1][0] == mark["pid"]]
        out["cpu"] = cpu = {}
        for t, key, node in mine:
            ms = t / 1000.0 - zero
            cat = _category(nodes.get((key, node), {}))
            cpu.setdefault(cat, []).append(ms)
    cache = []
    for e in events:
        name = e.get("name", "")
        if name.startswith("v8.") and ("Cache" in name or name == "v8.compile"):
            data = e.get("args", {}).get("data", {}) or {}
            url = data.get("url", "") if isinstance(data, dict) else ""
            if "plotly" in url.lower() or "Cache" in name:
                cache.append(
                    name
                    + ("(plotly)" if "plotly" in url.lower() else "")
                    + "".join(
                        f" {k}={v}"
                        for k, v in data.items()
                        if k not in ("url", "lineNumber", "columnNumber", "scriptId")
                    )
                )
    out["code-cache"] = cache
    return out


def _phase_table(tl: dict) -> dict[str, dict[str, float]]:
    """Sampled CPU ms per phase and category (one sample a ms by default)."""
    cpu = tl.get("cpu") or {}
    if not cpu:
        return {}
    steps = _sample_ms(cpu)
    table: dict[str, dict[str, float]] = {}
    for phase, a, b in PHASES:
        lo = 0.0 if a is None else tl.get(a, float("nan"))
        hi = tl.get(b, float("nan"))
        row = table.setdefault(phase, {"wall": hi - lo})
        for cat, times in cpu.items():
            row[cat] = sum(1 for t in times if lo <= t < hi) * steps
    return table


def _sample_ms(cpu: dict[str, list[float]]) -> float:
    times = sorted(t for ts in cpu.values() for t in ts)
    if len(times) < 2:
        return 1.0
    gaps = [b - a for a, b in itertools.pairwise(times) if b > a]
    return statistics.median(gaps) if gaps else 1.0


#: The renderer's own counters (CDP ``Performance.getMetrics``), in ms: the main thread's CPU
#: time (``ThreadTime``), its tasks, script, V8's compilation, style and layout.
METRICS = {
    "cpu": "ThreadTime",
    "tasks": "TaskDuration",
    "script-run": "ScriptDuration",
    "v8-compile": "V8CompileDuration",
    "style": "RecalcStyleDuration",
    "layout": "LayoutDuration",
}


class Counters:
    """The renderer's CPU counters (Chrome DevTools ``Performance`` domain) read before and
    after a reload."""

    def __init__(self, pg):
        self.cdp = pg.context.new_cdp_session(pg)
        self.cdp.send("Performance.enable", {"timeDomain": "threadTicks"})
        self.start = self._read()

    def _read(self) -> dict[str, float]:
        got = {m["name"]: m["value"] for m in self.cdp.send("Performance.getMetrics")["metrics"]}
        return {k: got.get(name, float("nan")) * 1000.0 for k, name in METRICS.items()}

    def delta(self) -> dict[str, float]:
        end = self._read()
        return {k: end[k] - self.start[k] for k in METRICS}


def _timed(browser, pg, navigate, trace: bool, graphs: int):
    """Run ``navigate`` (a load or a reload of ``pg``) and time it until the page is idle."""
    msgs = Messages(pg)
    trace = trace and browser is not None
    if trace:
        browser.start_tracing(page=pg, categories=TRACE_CATEGORIES)
    counters = Counters(pg)
    mark = msgs.mark()
    navigate()
    _idle(pg, msgs, mark, min_graphs=graphs)
    tl = _timeline(pg, msgs)
    tl.update(counters.delta())
    if trace:
        tl.update(_trace_summary(browser.stop_tracing(), tl.get("origin-mark")))
    return msgs, tl


def _load(browser, context, link: str, trace: bool, graphs: int = 0):
    pg = context.new_page()
    msgs, tl = _timed(browser, pg, lambda: pg.goto(link), trace, graphs)
    return pg, msgs, tl


def _f5(browser, pg, trace: bool, graphs: int = 0):
    return _timed(browser, pg, pg.reload, trace, graphs)[1]


def _context(browser):
    ctx = browser.new_context(viewport=VIEWPORT)
    ctx.add_init_script(INIT_JS)
    ctx.add_init_script(PROBE_JS)
    return ctx


def run_tree(
    p, app_dir: Path, repeats: int, trace: bool, results: dict, persistent: bool = False
) -> None:
    """Reload the Cluster link of ``app_dir``'s app three ways, ``repeats`` times, appending
    each timeline (and the renderer's CPU) to ``results``."""
    with streamlit_server(app_dir) as url:
        browser = _launch(p)
        try:
            ctx = _context(browser)
            pg = ctx.new_page()
            clock = WireClock(pg)
            link = _breast_link(pg, clock, url)
            ctx.close()
            if persistent:
                # A profile on disk, as a user's browser: Chromium keeps V8's code cache
                # only there (a Playwright context without a user data dir is off the
                # record). Not traced.
                profile = tempfile.mkdtemp(prefix="lab-reload-")
                warm = p.chromium.launch_persistent_context(
                    profile, executable_path=CHROMIUM, args=LAUNCH_ARGS, viewport=VIEWPORT
                )
                warm.add_init_script(INIT_JS)
                warm.add_init_script(PROBE_JS)
                warm_browser = None
            else:
                warm = _context(browser)
                warm_browser = browser
            for _ in range(2):  # the second load produces V8's code cache, if it may
                first, _, _ = _load(None, warm, link, False)
                graphs = first.evaluate(_DRAWN_GRAPHS)
                first.close()
            for _ in range(repeats):
                fresh = _context(browser)
                page, _, tl = _load(browser, fresh, link, trace, graphs)
                results.setdefault(("fresh", app_dir.name), []).append(tl)
                fresh.close()
                page, _, tl = _load(warm_browser, warm, link, trace, graphs)
                results.setdefault(("tab", app_dir.name), []).append(tl)
                tl = _f5(warm_browser, page, trace, graphs)
                results.setdefault(("f5", app_dir.name), []).append(tl)
                page.close()
                print(f"  {app_dir.name}: done one round", flush=True)
            warm.close()
        finally:
            browser.close()


def _med(rows: list[dict], key: str) -> float:
    vals = [r[key] for r in rows if isinstance(r.get(key), (int, float)) and r[key] == r[key]]
    return statistics.median(vals) if vals else float("nan")


def main(argv: list[str] | None = None) -> int:
    """Run the reload timelines for each ``--app-dir`` (interleaved) and print the phases'
    medians."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--app-dir", type=Path, action="append")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=1, help="tree order alternates per round")
    parser.add_argument("--trace", action="store_true")
    parser.add_argument(
        "--persistent", action="store_true", help="new tabs and F5 in a profile kept on disk"
    )
    parser.add_argument("--json", type=Path, help="write every load's timeline here")
    args = parser.parse_args(argv)
    dirs = [d.resolve() for d in (args.app_dir or [Path(__file__).resolve().parents[1]])]
    if not Path(CHROMIUM).exists():
        print(f"{CHROMIUM} is missing", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    results: dict = {}
    with sync_playwright() as p:
        for d in interleaved(dirs, args.rounds):
            run_tree(p, d, args.repeats, args.trace, results, args.persistent)
    if args.json:
        args.json.write_text(
            json.dumps({f"{k[0]}|{k[1]}": v for k, v in results.items()}, default=str)
        )
    keys = list(MILESTONES) + ["st-js-kB", "plotly-kB", "charts", *METRICS]
    names = [d.name for d in dirs]
    n = args.repeats * args.rounds
    print(f"\nReload timeline, ms from navigation start (median of {n})")
    cols = [(mode, name) for mode in ("fresh", "tab", "f5") for name in names]
    print(f"{'':<12}" + "".join(f"{m + ':' + t[:10]:>17}" for m, t in cols))
    for key in keys:
        print(f"{key:<12}" + "".join(f"{_med(results.get(c, []), key):>17.0f}" for c in cols))
    if args.trace:
        cats = ("plotly", "streamlit", "element", "other-js", "native", "gc")
        print(f"\nSampled renderer CPU per phase, ms (median of {n} traced loads)")
        print(f"{'':<22}{'wall':>7}" + "".join(f"{c:>10}" for c in cats))
        for c in cols:
            tables = [_phase_table(r) for r in results.get(c, [])]
            for phase, _, _ in PHASES:
                rows = [t[phase] for t in tables if phase in t]
                line = f"{c[0] + ' ' + c[1][:6] + ' ' + phase:<22}{_med(rows, 'wall'):>7.0f}"
                print(line + "".join(f"{_med(rows, cat):>10.0f}" for cat in cats))
        for c in cols:
            events = sorted({e for r in results.get(c, []) for e in r.get("code-cache", [])})
            print(f"V8 code cache, {c[0]} {c[1]}: {events}")
    load = os.getloadavg()
    print(f"(load average at the end {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
