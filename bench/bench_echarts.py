"""The lab's chart element against ``st.echarts_chart`` and ``st.plotly_chart`` on the same figures.

``bench/echarts_app.py`` draws the Feature scaling page's breast figures (the comparison bars
and six before/after scatter panels, 683 points each, built by the page's own cached
functions) through one route per server (``LAB_BENCH_ROUTE``):

* ``element``: the lab's chart element (plotly.js, SVG, ``Plotly.react`` in place);
* ``echarts``: ``st.echarts_chart`` with its default canvas renderer;
* ``echarts-svg``: ``st.echarts_chart(renderer="svg")``;
* ``plotly``: ``st.plotly_chart``.

Per route, in one server: ``step`` (one step of the slider: the three "after" panels and the
bars change), ``reload`` (the page in a fresh browser profile) and ``reload-tab`` (in a new
tab of a profile that opened it before). Routes run in turn, the order reversed every round,
so a change of the machine's load hits all of them.

The end of an interaction is the later of two stamps, each followed by ``QUIET_MS`` without
another: the last DOM mutation inside a chart element (SVG charts), and the last busy
animation frame (a frame that came more than ``BUSY_MS`` after the one before: canvas charts
draw without DOM mutations). Both are printed.

Run: ``python bench/bench_echarts.py --repeats 5 --rounds 2``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_browser import (  # noqa: E402
    CHROMIUM,
    VIEWPORT,
    WireClock,
    _launch,
    interleaved,
    streamlit_server,
)

ROUTES = ("element", "echarts", "echarts-svg", "plotly")
QUIET_MS = 400
BUSY_MS = 34
#: The charts the app draws: the bars and six panels.
N_CHARTS = 7

PROBE_JS = r"""
(() => {
  window.__lastMutation = 0;
  window.__lastBusy = 0;
  const sel = '[data-testid="stPlotlyChart"], [data-testid="stEChartsChart"], .lab-chart';
  const inChart = (n) => {
    for (; n; n = n.parentNode) if (n.matches && n.matches(sel)) return true;
    return false;
  };
  const start = () => new MutationObserver((rs) => {
    const hit = rs.some((r) => inChart(r.target));
    if (hit) window.__lastMutation = performance.now();
  }).observe(document.documentElement, { subtree: true, childList: true, attributes: true });
  if (document.documentElement) start(); else document.addEventListener('DOMContentLoaded', start);
  let prev = performance.now();
  const frame = (t) => {
    if (t - prev > %BUSY%) window.__lastBusy = t;
    prev = t;
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})();
""".replace("%BUSY%", str(BUSY_MS))

#: Drawn: every chart element holds its graph (an SVG or canvas inside).
DRAWN_JS = f"""() => {{
  const els = [...document.querySelectorAll(
    '[data-testid="stPlotlyChart"], [data-testid="stEChartsChart"], .lab-chart')];
  return els.length >= {N_CHARTS} && els.every(e => e.querySelector('svg.main-svg, canvas, svg'));
}}"""


def server(route: str):
    """The bench app serving ``route`` (:func:`bench.bench_browser.streamlit_server`)."""
    env = dict(os.environ, LAB_BENCH_ROUTE=route.split("-")[0])
    if route == "echarts-svg":
        env["LAB_BENCH_RENDERER"] = "svg"
    return streamlit_server(ROOT, script="bench/echarts_app.py", env=env)


def _settle(pg, clock, mark, t0: float) -> tuple[float, float, float]:
    """Wait for the rerun, every chart drawn, then quiet; (end, mutation end, busy end) in s
    after ``t0`` (page clock, ms)."""
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        busy = pg.locator("[data-testid='stStatusWidget']").count()
        if len(clock.finished) > mark[1] and not busy and pg.evaluate(DRAWN_JS):
            break
        pg.wait_for_timeout(25)
    else:
        raise TimeoutError("the app did not become idle")
    while time.monotonic() < deadline:
        now, mut, fr = pg.evaluate("[performance.now(), window.__lastMutation, window.__lastBusy]")
        if now - max(mut, fr) >= QUIET_MS:
            break
        pg.wait_for_timeout(50)
    mut_s, busy_s = max(0.0, mut - t0) / 1000, max(0.0, fr - t0) / 1000
    return max(mut_s, busy_s), mut_s, busy_s


def run_route(p, route: str, repeats: int, results: dict) -> None:
    with server(route) as url:
        browser = _launch(p)
        try:
            warm = browser.new_context(viewport=VIEWPORT)
            warm.add_init_script(PROBE_JS)
            pg = warm.new_page()
            clock = WireClock(pg)
            pg.goto(url)
            _settle(pg, clock, (0, 0), 0.0)
            thumb = pg.locator(".st-key-fs-factor-0").get_by_role("slider").first
            for _ in range(repeats):
                thumb.focus()
                mark = clock.mark()
                t0 = pg.evaluate("performance.now()")
                pg.keyboard.press("ArrowRight")
                end = _settle(pg, clock, mark, t0)
                results.setdefault((route, "step"), []).append(end)
                results.setdefault((route, "step-server"), []).append(
                    (clock.server_seconds(mark),) * 3
                )
            pg.close()
            for _ in range(repeats):
                fresh = browser.new_context(viewport=VIEWPORT)
                fresh.add_init_script(PROBE_JS)
                page = fresh.new_page()
                c = WireClock(page)
                page.goto(url)
                results.setdefault((route, "reload"), []).append(_settle(page, c, (0, 0), 0.0))
                fresh.close()
                page = warm.new_page()
                c = WireClock(page)
                page.goto(url)
                results.setdefault((route, "reload-tab"), []).append(_settle(page, c, (0, 0), 0.0))
                page.close()
            warm.close()
        finally:
            browser.close()
    print(f"  {route}: done", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--routes", nargs="*", default=list(ROUTES), choices=ROUTES)
    args = parser.parse_args(argv)
    if not Path(CHROMIUM).exists():
        print(f"{CHROMIUM} is missing", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    results: dict = {}
    with sync_playwright() as p:
        for route in interleaved(args.routes, args.rounds):
            run_route(p, route, args.repeats, results)
    n = args.repeats * args.rounds
    print(f"\nSeconds until the charts are drawn (median of {n}; in brackets: last chart DOM")
    print("mutation / last busy frame); ratio to the chart element in the last column")
    print(f"{'route':<13}{'what':<12}{'end s':>7}   {'(mutation / frame)':<20}{'x element':>9}")
    for what in ("step", "step-server", "reload", "reload-tab"):
        base = statistics.median(v[0] for v in results.get(("element", what), [(float("nan"),)]))
        for route in args.routes:
            rows = results.get((route, what), [])
            if not rows:
                continue
            med = [statistics.median(v[i] for v in rows) for i in range(3)]
            print(
                f"{route:<13}{what:<12}{med[0]:>7.2f}   ({med[1]:.2f} / {med[2]:.2f}){'':<7}"
                f"{med[0] / base:>9.2f}"
            )
    load = os.getloadavg()
    print(f"(load average at the end {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
