"""The lab's chart element (``ui.chart``), Python side: what it sends to the browser and what
it returns. Its JavaScript is tested in Chromium (tests/test_browser.py)."""

from __future__ import annotations

import hashlib
import json
import re
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
    # plotly.js comes from the app's own server, not a CDN: the repository's cartesian
    # bundle for a scatter while it matches the package's plotly.js, else the package's file.
    src = charts["one"]["src"]
    package_file = lab_chart.PLOTLY_DIR / lab_chart.PLOTLY_FILE
    assert package_file.is_file()
    if lab_chart.cartesian_bundle() is not None:
        assert charts["one"]["bundle"] == "cartesian"
        name = f"plotly-cartesian-{lab_chart.plotlyjs_version()}.min.js"
        assert src in (f"/component/ui.chart.plotlyjs_cartesian/{name}", f"/app/static/{name}")
    else:
        assert charts["one"]["bundle"] == "full"
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
    monkeypatch.setattr(lab_chart, "_plotly_url", lambda bundle="full": "/plotly.min.js")
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
    monkeypatch.setattr(lab_chart, "_plotly_url", lambda bundle="full": "/plotly.min.js")
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


# --- plotly.js's cartesian bundle (static/, tools/fetch_plotly_cartesian.py) -------------


def test_the_cartesian_bundle_matches_the_plotly_package_or_is_not_used(monkeypatch):
    """The bundle in static/ is named after, and says in its header, the plotly.js version it
    is; the element uses it only while that is the plotly package's plotly.js version."""
    files = sorted(lab_chart.REPO_STATIC.glob("plotly-cartesian-*.min.js"))
    assert len(files) == 1, files
    (bundle,) = files
    named = bundle.name.removeprefix("plotly-cartesian-").removesuffix(".min.js")
    assert lab_chart.bundle_version(bundle) == named
    assert lab_chart.bundle_version(lab_chart.PLOTLY_DIR / lab_chart.PLOTLY_FILE) == (
        lab_chart.plotlyjs_version()
    )
    note = (lab_chart.REPO_STATIC / "PLOTLY_CARTESIAN.md").read_text()
    assert hashlib.sha256(bundle.read_bytes()).hexdigest() in note, "the file was changed"
    assert "MIT License" in note and "Licensed under the MIT license" in bundle.read_text()[:300]

    scatter = frozenset({"scatter"})
    lab_chart.cartesian_bundle.cache_clear()
    try:
        monkeypatch.setattr(lab_chart, "plotlyjs_version", lambda: "99.0.0")  # an upgrade
        assert lab_chart.cartesian_bundle() is None
        assert lab_chart.bundle_for(scatter) == "full"
        lab_chart.cartesian_bundle.cache_clear()
        monkeypatch.setattr(lab_chart, "plotlyjs_version", lambda: named)
        assert lab_chart.cartesian_bundle() is not None
        assert lab_chart.bundle_for(scatter) == "cartesian"
    finally:
        lab_chart.cartesian_bundle.cache_clear()
    if named != lab_chart.plotlyjs_version():
        pytest.skip(
            f"static/ holds the cartesian bundle of plotly.js {named}, the plotly package ships "
            f"{lab_chart.plotlyjs_version()}: every chart loads the full bundle until "
            "`python tools/fetch_plotly_cartesian.py` is run"
        )
    assert lab_chart.cartesian_bundle()[0] == bundle


def _lab_trace_types() -> dict[str, set[str]]:
    """Trace type -> the files whose code builds it (every ``go.<Trace>(`` in the lab)."""
    from plotly.basedatatypes import BaseTraceType

    root = Path(lab_chart.__file__).resolve().parents[2]
    found: dict[str, set[str]] = {}
    files = [root / "app.py", *(root / d for d in ("lab", "ui", "pages", "datasets"))]
    for path in [f for d in files for f in ([d] if d.is_file() else sorted(d.rglob("*.py")))]:
        for name in re.findall(r"\bgo\.([A-Z][A-Za-z0-9]*)\(", path.read_text()):
            cls = getattr(go, name)
            if isinstance(cls, type) and issubclass(cls, BaseTraceType):
                found.setdefault(cls().type, set()).add(str(path.relative_to(root)))
    return found


def test_every_trace_type_the_lab_draws_is_in_the_cartesian_bundle_but_webgl():
    """Every trace the lab's figures build is one the cartesian bundle registers, except
    WebGL scatters (large data), whose figures get the full bundle."""
    cartesian = lab_chart.cartesian_bundle()
    if cartesian is None:
        pytest.skip("no cartesian bundle for the installed plotly (see the test above)")
    lab = _lab_trace_types()
    assert {"scatter", "bar", "histogram"} <= lab.keys(), lab  # the scan finds them
    assert set(lab) - cartesian[1] == {"scattergl"}, {t: lab[t] for t in set(lab) - cartesian[1]}
    assert lab_chart.bundle_for(frozenset(lab) - {"scattergl"}) == "cartesian"
    assert lab_chart.bundle_for(frozenset({"scatter", "scattergl"})) == "full"


def test_trace_types_count_the_frames_and_untyped_traces():
    fig = go.Figure(go.Bar(x=[1], y=[2]), frames=[go.Frame(data=[go.Scattergl(x=[1], y=[1])])])
    assert lab_chart.trace_types(fig) == {"bar", "scattergl"}
    assert lab_chart.SharedChart.of(fig).types == {"bar", "scattergl"}
    as_dict = {"data": [{"x": [1]}, {"type": "histogram"}], "frames": [{"data": [{"x": [2]}]}]}
    assert lab_chart.trace_types(as_dict) == {"scatter", "histogram"}


def test_a_webgl_figure_is_sent_with_the_full_bundle(monkeypatch):
    sent = []
    monkeypatch.setattr(lab_chart, "use_component", lambda: True)
    monkeypatch.setattr(lab_chart, "_plotly_url", lambda bundle="full": f"/{bundle}.js")
    monkeypatch.setattr(lab_chart, "_component", lambda **kw: sent.append(kw["data"]))
    lab_chart.chart(go.Figure(go.Scattergl(x=[1], y=[1])), key="gl")
    assert (sent[-1]["bundle"], sent[-1]["src"]) == ("full", "/full.js")
    lab_chart.chart(go.Figure(go.Scatter(x=[1], y=[1])), key="svg")
    want = "cartesian" if lab_chart.cartesian_bundle() is not None else "full"
    assert (sent[-1]["bundle"], sent[-1]["src"]) == (want, f"/{want}.js")
