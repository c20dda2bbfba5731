"""End-to-end, in Chromium: one labeling shows one MSP on every page (issue 33, item 4).

Home's breast demo gives k-means, MSPC (MPM) and MSPC (EIG) on breast with their accuracy and
held-out MSP. The same three methods on the same data then show the same numbers on Cluster
(its metrics table), Feature scaling (the table's "before" columns), Compare (the corners of
the breast row, three decimals) and MSP vs accuracy (the breast row of the view across
tasks, MSPC (MPM)). The numbers are read from what the browser shows: a data frame's
accessible table (the values it holds) and the chart's annotations.

Skipped when Chromium or Playwright is missing, unless ``CI=true`` (then it fails).
"""

from __future__ import annotations

import time

import pytest

from tests.conftest import chromium, offline_context

pytestmark = [pytest.mark.browser, pytest.mark.timeout(400)]

QUERY = "data=breast&norm=1&algos=kmeans,mspc-mpm,mspc-eig"
METHODS = ("k-means", "MSPC (MPM)", "MSPC (EIG)")
TIMEOUT_S = 150
#: How every page names the one λ and Λ of its MSPs (ui.widgets.msp_note).
NAMED = "λ = 0.2 and Λ = diag"


def _idle(pg, frames: int = 1) -> None:
    """Wait until the page has drawn ``frames`` data frames or charts and stopped running."""
    pg.wait_for_selector("[data-testid='stApp']", timeout=TIMEOUT_S * 1000)
    deadline = time.monotonic() + TIMEOUT_S
    while time.monotonic() < deadline:
        running = pg.locator("[data-testid='stStatusWidget']").count()
        drawn = pg.locator("[data-testid='stDataFrame'], .js-plotly-plot").count()
        if not running and drawn >= frames:
            break
        pg.wait_for_timeout(400)
    pg.wait_for_timeout(1200)
    assert not pg.locator("[data-testid='stException']").count(), pg.url


def _expand_all(pg) -> None:
    """Open every folded section (the lesson pages fold their tables): a grid draws its
    accessible table only when it is shown."""
    closed = pg.locator("[data-testid='stExpander'] details:not([open]) > summary")
    for _ in range(closed.count()):
        closed.nth(0).click()
        pg.wait_for_timeout(300)
    pg.wait_for_timeout(1200)


def _tables(pg) -> list[list[list[str]]]:
    """Every data frame on the page as rows of cell texts (header first), read from the
    accessible table the grid keeps beside its canvas (sections unfolded first)."""
    _expand_all(pg)
    out = []
    frames = pg.locator("[data-testid='stDataFrame']")
    for i in range(frames.count()):
        rows = frames.nth(i).locator("tr")
        out.append([rows.nth(j).locator("th, td").all_inner_texts() for j in range(rows.count())])
    return out


def _table_with(pg, *headers: str) -> dict[str, dict[str, float]]:
    """The data frame whose header holds ``headers``: ``{first cell: {header: value}}``."""
    for rows in _tables(pg):
        if rows and all(h in rows[0] for h in headers):
            head = rows[0]
            return {
                r[0]: {h: float(r[head.index(h)]) for h in headers}
                for r in rows[1:]
                if len(r) == len(head)
            }
    raise AssertionError(f"no table with {headers} on {pg.url}: {_tables(pg)}")


def _same(a: float, b: float) -> bool:
    return abs(a - b) < 1e-9


def test_one_labeling_shows_one_msp_on_every_page(server):
    with chromium() as browser:
        context, external = offline_context(browser, width=1280, height=800)
        pg = context.new_page()
        pg.goto(server)
        _idle(pg, frames=3)
        home = _table_with(pg, "accuracy", "held-out")
        assert set(METHODS) <= set(home), home
        assert NAMED in pg.inner_text("[data-testid='stMain']")

        pg.goto(f"{server}/Cluster?{QUERY}")
        _idle(pg)
        cluster = _table_with(pg, "accuracy", "held-out MSP")
        assert NAMED in pg.inner_text("[data-testid='stMain']")
        for m in METHODS:
            assert _same(cluster[m]["held-out MSP"], home[m]["held-out"]), (m, cluster, home)
            assert _same(cluster[m]["accuracy"], home[m]["accuracy"]), (m, cluster, home)

        pg.goto(f"{server}/Feature_scaling?{QUERY}")
        _idle(pg)
        scaling = _table_with(pg, "acc. before", "held-out before")
        assert NAMED in pg.inner_text("[data-testid='stMain']")
        for m in METHODS:
            assert _same(scaling[m]["held-out before"], home[m]["held-out"]), (m, scaling)
            assert _same(scaling[m]["acc. before"], home[m]["accuracy"]), (m, scaling)

        pg.goto(f"{server}/Compare?{QUERY}")
        _idle(pg)
        assert NAMED in pg.inner_text("[data-testid='stMain']")
        corners = pg.evaluate(
            "() => [...document.querySelectorAll('.js-plotly-plot')]"
            ".flatMap(gd => (gd.layout.annotations || []).map(a => a.text))"
        )
        for m in METHODS:
            want = (
                f"acc {home[m]['accuracy']:.3f} · MSP ",
                f"held-out {home[m]['held-out']:.3f}",
            )
            assert any(want[0] in c and want[1] in c for c in corners), (m, want, corners)

        pg.goto(f"{server}/MSP_vs_accuracy?data=breast&norm=1")
        _idle(pg, frames=1)
        tasks = _table_with(pg, "held-out MSP", "accuracy")
        assert _same(tasks["breast"]["held-out MSP"], home["MSPC (MPM)"]["held-out"]), tasks
        assert _same(tasks["breast"]["accuracy"], home["MSPC (MPM)"]["accuracy"]), tasks
        assert NAMED in pg.inner_text("[data-testid='stMain']")
        assert not external, external
        context.close()
