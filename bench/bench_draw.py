"""What drawing the Cluster page's figures costs in the browser, figure by figure.

The reload's last phase is plotly.js drawing the page's seven figures (``bench_reload.py
--trace``). This takes those figures exactly as the chart element receives them (the JSON
and the theme of each graph, read from the page the breast demo's link opens) and draws them
again in a blank page with the same plotly.js bundle and the element's own theme code
(``ui/chart/chart.js``), at the widths they had, so each figure's cost can be measured alone
and variants of the drawing compared on identical input:

* ``sync ms``: ``Plotly.react``'s synchronous part per figure (where plotly draws the SVG);
* ``total ms``: all figures, from the first call until their promises resolved and the page
  has been laid out and painted once (a ``requestAnimationFrame`` after them);
* ``nodes``: SVG elements per figure.

Run: ``python bench/bench_draw.py [--app-dir DIR] [--repeats 15]``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_browser import (
    _DRAWN_GRAPHS,
    INIT_JS,
    WireClock,
    _breast_link,
    _idle,
    _launch,
    streamlit_server,
)

ROOT = Path(__file__).resolve().parents[1]

#: Per graph of the page: key, the figure JSON the element received, its theme, select mode,
#: width, the bundle that drew it.
CAPTURE = """() => [...window.__labChart.graphs].map(([key, e]) => ({
  key, spec: e.spec, look: e.look, bundle: e.bundle,
  select: ['lasso', 'select'].includes(e.gd._fullLayout.dragmode)
    ? e.gd._fullLayout.dragmode : null,
  width: e.gd.parentNode.clientWidth,
}))"""

#: Draws every captured figure once, as the element does (theme, then Plotly.react), and
#: returns the timings.
DRAW = """async ({ figs, variant }) => {
  const host = document.getElementById('host');
  host.innerHTML = '';
  const divs = figs.map((f) => {
    const d = document.createElement('div');
    d.style.width = f.width + 'px';
    host.appendChild(d);
    return d;
  });
  document.body.getBoundingClientRect();
  const sync = [];
  const t0 = performance.now();
  const done = figs.map((f, i) => {
    const t = JSON.parse(f.look);
    const fig = JSON.parse(replacePlaceholders(f.spec, t));
    applyTheme(fig, t);
    if (f.select) {
      fig.layout.hovermode = fig.layout.hovermode || 'closest';
      fig.layout.dragmode = fig.layout.dragmode || f.select;
      fig.layout.clickmode = fig.layout.clickmode || 'event';
    }
    const cfg = config({ select: f.select });
    window.__variant(variant, fig, cfg, f);
    const s = performance.now();
    const spec = { data: fig.data, layout: fig.layout, frames: fig.frames, config: cfg };
    const p = Plotly.react(divs[i], spec);
    sync.push(performance.now() - s);
    return p;
  });
  await Promise.all(done);
  await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  const total = performance.now() - t0;
  const nodes = divs.map((d) => d.querySelectorAll('svg *').length);
  divs.forEach((d) => Plotly.purge(d));
  return { sync, total, nodes };
}"""

#: Variants of the drawing: each edits the figure or config in place before Plotly.react.
VARIANTS = {
    "as is": "",
    # Diagnostics (they change what a figure does or shows, so not candidates as they are):
    "no automargin": """
      const off = (o) => { for (const k of Object.keys(o || {}))
        if (/^[xy]axis[0-9]*$/.test(k)) o[k].automargin = false; };
      off(fig.layout); off(fig.layout.template.layout);""",
    "staticPlot": "cfg.staticPlot = true;",
    "no hover": "fig.layout.hovermode = false;",
}


def _page_js() -> str:
    here = ROOT / "ui" / "chart"
    js = (here / "load_plotly.js").read_text() + "\n" + (here / "chart.js").read_text()
    js = js.replace("export default function", "function __mount")
    cases = "\n".join(f"    case {json.dumps(k)}: {{ {v} }} break;" for k, v in VARIANTS.items())
    switch = f"switch (variant) {{\n{cases}\n  }}"
    return js + f"\nwindow.__variant = (variant, fig, cfg, f) => {{\n  {switch}\n}};\n"


def capture(p, app_dir: Path) -> tuple[list[dict], Path | None]:
    """Open the breast link of ``app_dir``'s app and record every figure the Cluster page draws:
    ``(figure specs, the page's plotly.js bundle)``."""
    with streamlit_server(app_dir) as url:
        browser = _launch(p)
        try:
            ctx = browser.new_context(viewport={"width": 1400, "height": 1600})
            ctx.add_init_script(INIT_JS)
            pg = ctx.new_page()
            clock = WireClock(pg)
            link = _breast_link(pg, clock, url)
            pg2 = ctx.new_page()
            clock2 = WireClock(pg2)
            mark = clock2.mark()
            pg2.goto(link)
            _idle(pg2, clock2, mark, min_graphs=7)
            assert pg2.evaluate(_DRAWN_GRAPHS) >= 7
            figs = pg2.evaluate(CAPTURE)
            src = pg2.evaluate(
                "() => [...document.scripts].map(s => s.src).find(s => s.includes('plotly'))"
            )
            ctx.close()
        finally:
            browser.close()
    bundle = ROOT / "static" / Path(src).name if "cartesian" in src else None
    return figs, bundle


def main(argv: list[str] | None = None) -> int:
    """Capture the figures once, then draw them ``--repeats`` times in a blank page per
    ``--variant``; print the time per figure and variant."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--app-dir", type=Path, default=ROOT)
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--variant", action="append", choices=sorted(VARIANTS))
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    variants = args.variant or list(VARIANTS)
    with sync_playwright() as p:
        figs, bundle = capture(p, args.app_dir.resolve())
        if bundle is None:
            import plotly

            bundle = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"
        browser = _launch(p)
        try:
            pg = browser.new_page(viewport={"width": 1400, "height": 1600})
            pg.set_content("<div id='host'></div>")
            pg.add_script_tag(path=str(bundle))
            pg.add_script_tag(content=_page_js())
            results: dict[str, list[dict]] = {v: [] for v in variants}
            for _ in range(args.repeats):  # variants interleaved
                for v in variants:
                    results[v].append(pg.evaluate(DRAW, {"figs": figs, "variant": v}))
        finally:
            browser.close()
    print(f"{len(figs)} figures, plotly.js {bundle.name}, median of {args.repeats}")
    header = f"{'figure':<34}" + "".join(f"{v[:18]:>20}" for v in variants)
    print("\nsync ms per figure (Plotly.react's synchronous part)\n" + header)
    for i, f in enumerate(figs):
        row = [statistics.median(r["sync"][i] for r in results[v]) for v in variants]
        print(f"{f['key'][:33]:<34}" + "".join(f"{x:>20.1f}" for x in row))
    row = [statistics.median(sum(r["sync"]) for r in results[v]) for v in variants]
    print(f"{'sum':<34}" + "".join(f"{x:>20.1f}" for x in row))
    row = [statistics.median(r["total"] for r in results[v]) for v in variants]
    print(f"{'total, laid out and painted':<34}" + "".join(f"{x:>20.1f}" for x in row))
    row = [statistics.median(sum(r["nodes"]) for r in results[v]) for v in variants]
    print(f"{'SVG elements':<34}" + "".join(f"{x:>20.0f}" for x in row))
    load = os.getloadavg()
    print(f"(load average {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
