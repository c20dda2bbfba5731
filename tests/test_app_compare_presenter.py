"""AppTest for the Compare page and presenter mode (issue 13 items 3 and 4)."""

from __future__ import annotations

import numpy as np
import pytest

from lab.compare import CompareRow, compare_grid, standard_rows
from tests.conftest import open_app
from ui import url
from ui.model import DataChoice

AppTest = pytest.importorskip("streamlit.testing.v1").AppTest

TIMEOUT = 180


def open_page(page: str | None = None, query: dict | None = None):
    return open_app(page, query, timeout=TIMEOUT)


def test_compare_grid_reproduces_the_afs_story_and_respects_the_cost_guard():
    rows = standard_rows()[:2]
    cells = compare_grid(rows, ["kmeans", "mspc-mpm"], n_jobs=1)
    (km1, ms1), (km10, ms10) = cells
    # k-means follows the units (the documented AFS trap); MSPC does not move.
    assert km1.accuracy >= 0.95 and km10.accuracy <= 0.6
    assert ms1.accuracy >= 0.95 and ms10.accuracy >= 0.95
    assert "acc" in km1.corner() and "MSP" in km1.corner() and " s" in km1.corner()
    # A panel predicted above the auto-run limit is never started.
    big = CompareRow("big", np.zeros((20000, 50)), None)
    (cell,) = compare_grid([big], ["mmc-nmi"], n_jobs=1)[0]
    assert cell.status == "skipped" and cell.labels is None
    assert cell.corner().startswith("not run")


def test_compare_page_renders_the_grid_with_corners():
    at = open_page("pages/7_Compare.py", {"algos": "kmeans,mspc-mpm"})
    assert not at.exception, [e.message for e in at.exception]
    assert at.title[0].value == "Compare"
    charts = {c.key: c for c in at.get("plotly_chart")}
    # The lesson's row (the first data set) above the full grid.
    assert set(charts) == {"compare.lesson", "compare.grid.0"}
    import json

    lesson = json.loads(charts["compare.lesson"].proto.spec)
    lesson_corners = [
        a.get("text", "")
        for a in lesson["layout"]["annotations"]
        if a.get("text", "").startswith("acc ")
    ]
    assert len(lesson_corners) == 2
    spec = json.loads(charts["compare.grid.0"].proto.spec)
    texts = [a.get("text", "") for a in spec["layout"]["annotations"]]
    corners = [t for t in texts if t.startswith(("acc ", "not run", "failed"))]
    # five standard rows + the current data, two methods: one corner per panel
    assert len(corners) == 6 * 2
    # Column titles are display names (from lab.plots.style), not registry keys.
    assert "MSPC (MPM)" in texts and "mspc-mpm" not in texts
    # The AFS rows tell the story in the corners: k-means at chance after x10, MSPC not.
    row2 = sorted(corners[2:4])
    accs = [float(c.split()[1]) for c in row2]  # three decimals, as every table
    assert accs[0] < 0.6 and accs[1] > 0.99, row2


def test_presenter_mode_round_trips_through_the_url():
    base = dict(
        choice=DataChoice.make("bundled", "breast", None, True),
        algorithms=["kmeans"],
        lam=0.2,
        regularizer="diag",
        params={},
        scale={},
        view="pca",
    )
    on = url.encode(**base, presenter=True)
    assert on["present"] == "1" and url.decode(on).presenter is True
    assert "present" not in url.encode(**base)
    bad = url.decode({"present": "maybe"})
    assert bad.presenter is None and "present" in bad.warnings[0]

    at = open_page(None, {"present": "1"})
    assert at.session_state["dcl.presenter"] is True
    assert at.toggle(key="presenter.toggle").value is True
    assert at.query_params["present"] == ["1"] or at.query_params["present"] == "1"
    at.toggle(key="presenter.toggle").set_value(False).run()
    assert not at.exception
    assert at.session_state["dcl.presenter"] is False
    assert "present" not in at.query_params
    at.toggle(key="presenter.toggle").set_value(True).run()
    assert at.session_state["dcl.presenter"] is True
    assert "present" in at.query_params


def _slides_script():
    import plotly.graph_objects as go
    import streamlit as st

    from ui import presenter

    slides = presenter.sidebar()
    with presenter.theory_expander("Theory"):
        st.write("The MSP is a lower bound on the accuracy.")
    presenter.chart(go.Figure(go.Scatter(x=[0, 1], y=[1, 0]), layout={"title": "Two points"}))
    cols = st.columns(2)
    presenter.chart(go.Figure(go.Bar(x=[0, 1], y=[1, 2])), where=cols[1], key="bars")
    st.plotly_chart(go.Figure(go.Bar(x=[1], y=[1])))  # not through the helper: not a slide
    empty = go.Figure(layout={"title": "Press Run"})
    presenter.chart(empty, key="placeholder", slide=False)  # drawn, but not a slide
    presenter.export_button(slides)


def _export_buttons(at):
    return [b for b in at.button if "presenter" in (b.proto.id or "")]


def test_presenter_mode_offers_the_drawn_figures_as_slides():
    at = AppTest.from_function(_slides_script, default_timeout=60)
    at.query_params["present"] = "1"
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    assert at.toggle(key="presenter.toggle").value is True
    # Both figures drawn by the helper (one inside a column) are kept, in drawing order,
    # named by page, data set and title; the placeholder drawn with slide=False is not a
    # slide; all four are on the page.
    figures = at.session_state["presenter.figures"]
    assert [name for name, _ in figures] == [
        "Home - breast - Two points",
        "Home - breast - figure 2",
    ]
    assert len(at.get("plotly_chart")) == 4
    (button,) = _export_buttons(at)
    assert "2 figures" in button.proto.label
    assert at.expander[0].proto.expanded is False  # theory collapsed
    at.toggle(key="presenter.toggle").set_value(False).run()
    assert not _export_buttons(at)
    assert at.expander[0].proto.expanded is True
