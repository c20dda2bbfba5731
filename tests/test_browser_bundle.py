"""plotly.js's cartesian bundle in Chromium: it registers the trace types the chart element
reads from it (``ui.chart.registered_traces``), and a chart whose figure needs another trace
type (a WebGL scatter) is drawn by the full bundle, loaded then, while the page's other charts
keep theirs.

Skipped when Chromium or Playwright is missing, unless ``CI=true`` (then it fails).
"""

from __future__ import annotations

import textwrap
import time
from pathlib import Path

import pytest

import ui.chart as lab_chart
from tests.conftest import chromium, offline_context

ROOT = Path(__file__).resolve().parents[1]

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]


def _cartesian() -> tuple[Path, frozenset[str]]:
    bundle = lab_chart.cartesian_bundle()
    if bundle is None:
        pytest.skip("no cartesian bundle for the installed plotly (tests/test_ui_chart.py)")
    return bundle


def test_the_cartesian_bundle_registers_the_traces_read_from_its_file():
    path, traces = _cartesian()
    with chromium() as browser:
        pg = browser.new_page()
        pg.set_content("<div id='g' style='width:400px;height:300px'></div>")
        pg.add_script_tag(path=str(path))
        got = pg.evaluate(
            "() => [Plotly.version, Object.keys(Plotly.PlotSchema.get().traces).sort()]"
        )
    assert got == [lab_chart.plotlyjs_version(), sorted(traces)]


APP = """
import sys
sys.path.insert(0, {root!r})
import plotly.graph_objects as go
import streamlit as st
from ui import chart

gl = st.toggle("WebGL", key="gl")
trace = go.Scattergl if gl else go.Scatter
chart.chart(go.Figure(trace(x=[1, 2, 3], y=[3, 1, 2], mode="markers")), key="points")
chart.chart(go.Figure(go.Bar(x=["a", "b"], y=[2, 1])), key="bars")
"""

#: Per chart element: its key, the trace types it drew and its number of draws.
STATES = """() => [...document.querySelectorAll('.lab-chart-graph')].map(gd => {
  const key = [...gd.closest('[class*="st-key-"]').classList].find(c => c.startsWith('st-key-'));
  return [key, (gd._fullData || []).map(t => t.type).join(','), Number(gd.dataset.draws || 0)];
}).sort()"""


def _settle(pg, want: list) -> list:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        got = pg.evaluate(STATES)
        if got == want:
            return got
        pg.wait_for_timeout(100)
    return pg.evaluate(STATES)


def test_a_webgl_figure_loads_the_full_bundle_for_its_chart_alone(tmp_path):
    from bench.bench_browser import streamlit_server

    _cartesian()
    (tmp_path / "app.py").write_text(textwrap.dedent(APP.format(root=str(ROOT))))
    with streamlit_server(app_dir=tmp_path) as url, chromium() as browser:
        context, external = offline_context(browser, 900, 900)
        pg = context.new_page()
        errors: list[str] = []
        pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        scripts: list[str] = []
        pg.on("request", lambda r: scripts.append(r.url) if "plotly" in r.url else None)
        pg.goto(url)
        bars, points = "st-key-bars", "st-key-points"
        # Both drawn by the cartesian bundle, the only plotly.js fetched.
        want = [[bars, "bar", 1], [points, "scatter", 1]]
        assert _settle(pg, want) == want
        assert scripts and all("plotly-cartesian-" in u for u in scripts), scripts
        pg.locator(".st-key-gl label").click()
        # The WebGL scatter: the full bundle, for that chart; the bars are not redrawn.
        want = [[bars, "bar", 1], [points, "scattergl", 2]]
        assert _settle(pg, want) == want
        full = [u for u in scripts if "plotly-cartesian-" not in u]
        assert len(full) == 1 and full[0].endswith("plotly.min.js"), scripts
        assert pg.evaluate("() => window.__labChart.bundles.size") == 2
        fetched = len(scripts)
        pg.locator(".st-key-gl label").click()
        # Back to SVG: drawn by the full bundle it has now, nothing fetched again.
        want = [[bars, "bar", 1], [points, "scatter", 3]]
        assert _settle(pg, want) == want
        assert len(scripts) == fetched
        assert pg.locator(".st-key-points .main-svg").count() > 0
    assert not errors, errors
    assert not external, external
