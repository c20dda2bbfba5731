"""The lab's chart element (``ui.chart``), Python side: what it sends to the browser and what
it returns. Its JavaScript is tested in Chromium (tests/test_browser.py)."""

from __future__ import annotations

import json
from pathlib import Path

import plotly
import plotly.graph_objects as go
import plotly.io as pio
import pytest

import ui.chart as lab_chart

AppTest = pytest.importorskip("streamlit.testing.v1").AppTest


def _script():
    import plotly.graph_objects as go
    import streamlit as st

    from ui import presenter

    fig = go.Figure(go.Scatter(x=[1, 2, 3], y=[3, 1, 2], mode="markers", customdata=[7, 8, 9]))
    fig.update_layout(height=300, title="three points")
    event = presenter.chart(fig, key="one", on_select="rerun", selection_mode="lasso")
    st.write(f"selected {len(event.selection['points'])}")
    presenter.chart(fig, key="two", width="stretch")


def _elements(at):
    out = {}
    for el in at.main:
        proto = getattr(el, "proto", None)
        if getattr(proto, "component_name", "") == "lab_chart":
            data = json.loads(proto.json)
            out[data.get("key")] = data
    return out


def test_the_element_sends_the_figure_and_plotly_js_address(monkeypatch):
    monkeypatch.setattr(lab_chart, "use_component", lambda: True)  # AppTest: st.plotly_chart
    at = AppTest.from_function(_script, default_timeout=60).run()
    assert not at.exception, at.exception
    charts = _elements(at)
    assert set(charts) == {"one", "two"}
    fig = go.Figure(go.Scatter(x=[1, 2, 3], y=[3, 1, 2], mode="markers", customdata=[7, 8, 9]))
    fig.update_layout(height=300, title="three points")
    assert json.loads(charts["one"]["figure"]) == json.loads(pio.to_json(fig, validate=False))
    assert charts["one"]["select"] == "lasso" and charts["two"]["select"] is None
    assert charts["one"]["height"] == 300
    # plotly.js comes from the app's own server: the plotly package's file, not a CDN.
    src = charts["one"]["src"]
    package_file = lab_chart.PLOTLY_DIR / lab_chart.PLOTLY_FILE
    assert package_file.is_file()
    assert src in (
        "/component/ui.chart.plotlyjs/plotly.min.js",
        f"/app/static/plotly-{plotly.__version__}.min.js",
    ), src
    # No selection yet: the same empty event st.plotly_chart returns.
    assert "selected 0" in [m.value for m in at.markdown]


def test_plotly_js_is_copied_into_the_static_folder_once(tmp_path, monkeypatch):
    """With the app's static folder served, plotly.js is the package's file copied there
    (same bytes and modification time, so its Last-Modified is the package's)."""
    from types import SimpleNamespace

    from streamlit.runtime.scriptrunner_utils import script_run_context

    ctx = SimpleNamespace(main_script_path=str(tmp_path / "app.py"))
    monkeypatch.setattr(script_run_context, "get_script_run_ctx", lambda **kw: ctx)
    monkeypatch.setattr(lab_chart.config, "get_option", lambda name: name.endswith("Serving"))
    name = lab_chart._static_copy()
    copy = tmp_path / "static" / name
    package_file = lab_chart.PLOTLY_DIR / lab_chart.PLOTLY_FILE
    assert copy.read_bytes() == package_file.read_bytes()
    assert copy.stat().st_mtime == package_file.stat().st_mtime
    before = copy.stat().st_ino
    assert lab_chart._static_copy() == name and copy.stat().st_ino == before  # not copied again
    assert [p.name for p in (tmp_path / "static").iterdir()] == [name]


def test_pages_under_apptest_get_st_plotly_chart():
    def script():
        import plotly.graph_objects as go

        from ui import presenter

        presenter.chart(go.Figure(go.Bar(x=[1], y=[2])), key="bar")

    at = AppTest.from_function(script, default_timeout=60).run()
    assert not at.exception
    assert len(at.get("plotly_chart")) == 1 and not _elements(at)


def test_a_selection_comes_back_in_st_plotly_charts_shape(monkeypatch):
    """The component's state (what chart.js's selectionState sends) becomes the event pages
    read: ``event.selection["points"]`` with ``curve_number``, ``point_index``, ``customdata``."""
    from streamlit.components.v2.bidi_component import ComponentResult

    chosen = {
        "selection": {
            "points": [{"curve_number": 0, "point_index": 2, "point_number": 2, "customdata": 9}],
            "point_indices": [2],
            "box": [],
            "lasso": [{"xref": "x", "yref": "y", "x": [0, 1, 1], "y": [0, 0, 1]}],
        }
    }
    monkeypatch.setattr(lab_chart, "use_component", lambda: True)
    monkeypatch.setattr(lab_chart, "_plotly_url", lambda: "/plotly.min.js")
    monkeypatch.setattr(
        lab_chart, "_component", lambda **kw: ComponentResult({"selection": chosen})
    )
    event = lab_chart.chart(go.Figure(), key="k", on_select="rerun", selection_mode="lasso")
    assert event.selection["points"][0]["customdata"] == 9
    assert event.selection.point_indices == [2]
    assert event.selection["lasso"][0]["x"] == [0, 1, 1]
    monkeypatch.setattr(lab_chart, "_component", lambda **kw: ComponentResult({"selection": None}))
    empty = lab_chart.chart(go.Figure(), key="k", on_select="rerun", selection_mode="lasso")
    assert empty.selection["points"] == [] and empty.selection["lasso"] == []


def test_a_shared_chart_is_sent_as_its_json_made_once(monkeypatch):
    """A :class:`ui.chart.SharedChart` goes out as the JSON it carries (no new
    serialisation per rerun); a plain figure is serialised as it is now."""
    shared = lab_chart.SharedChart.of(go.Figure(go.Scatter(x=[1, 2], y=[2, 1])))
    assert lab_chart.figure_json(shared) is shared.json
    sent = []
    monkeypatch.setattr(lab_chart, "use_component", lambda: True)
    monkeypatch.setattr(lab_chart, "_plotly_url", lambda: "/plotly.min.js")
    monkeypatch.setattr(lab_chart, "_component", lambda **kw: sent.append(kw["data"]))
    lab_chart.chart(shared, key="s")
    assert sent[-1]["figure"] is shared.json
    plain = go.Figure(go.Scatter(x=[1, 2], y=[2, 1]))
    plain.data[0].y = [5, 6]
    lab_chart.chart(plain, key="p")
    assert json.loads(sent[-1]["figure"])["data"][0]["y"] == [5, 6]


def test_the_javascript_is_small_and_loads_nothing_from_outside():
    js = (Path(lab_chart.__file__).parent / "chart.js").read_text()
    assert len(js.splitlines()) < 250
    for needle in ("cdn.", "https://", "http://"):
        assert needle not in js, needle
