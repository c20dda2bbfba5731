"""End-to-end checks of what a user reads across pages, in headless Chromium.

- The methods chosen survive every hop through the sidebar (every page, twice, and
  Cluster <-> Compare, which draw the list under one key).
- The layout holds at 1280x800 and 1920x1080, with two methods and with nine: no text box
  overlaps another, nothing is cut on the right (tables, equations, chart text past its
  chart), no text under 11 px at 1280; and in presenter mode on a 1280x720 projector, with
  no text under the presenter's 16 px. Each page is loaded once and measured in the three
  views (the window resized, presenter mode switched on with its toggle).

The server and browser come from ``conftest`` (``server``, ``chromium``), page helpers from
:mod:`test_browser`; skipped like it when Chromium or Playwright is missing (failing under
``CI=true``).
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.conftest import chromium, offline_context
from tests.test_browser import _assert_no_exception, _wait_idle

ROOT = Path(__file__).resolve().parents[1]
pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

#: Widget keys of the sidebar's method list on the pages that draw it.
ALGORITHM_WIDGETS = ".st-key-algorithms, .st-key-fs-algorithms"


def _page_labels(pg) -> list[str]:
    nav = pg.locator("[data-testid='stSidebarNav'] a").all_inner_texts()
    return [t.split("\n")[-1].strip() for t in nav]


def _chosen_methods(pg) -> list[str] | None:
    """The method names shown in the page's method list (``None`` when it has none)."""
    box = pg.locator(ALGORITHM_WIDGETS)
    if not box.count():
        return None
    return box.first.evaluate(
        "b => [...(b.querySelector('.react-aria-ComboBox') || b).querySelectorAll('[data-tag]')]"
        ".map(t => t.getAttribute('aria-label'))"
    )


def _methods_settled(pg, expected: list[str], timeout: float = 10.0) -> list[str] | None:
    """The page's method list once it equals ``expected`` or ``timeout`` seconds passed (a
    page still drawing may show its list before the tags)."""
    deadline = time.monotonic() + timeout
    shown = _chosen_methods(pg)
    while shown is not None and shown != expected and time.monotonic() < deadline:
        pg.wait_for_timeout(250)
        shown = _chosen_methods(pg)
    return shown


def test_chosen_methods_survive_every_sidebar_hop(server):
    chosen = ["MSPC (MPM)", "k-means", "Spectral clustering (NJW)"]
    with chromium() as browser:
        context, external = offline_context(browser, 1280, 800)
        pg = context.new_page()
        pg.goto(f"{server}/Cluster?algos=mspc-mpm,kmeans,spectral")
        _wait_idle(pg)
        assert _methods_settled(pg, chosen) == chosen
        labels = _page_labels(pg)
        assert len(labels) >= 8, labels
        # Every page twice, and the hops between two pages that draw the list under the
        # same key (Cluster and Compare) both ways.
        walk = [*labels, "Compare", "Cluster", "Compare", *reversed(labels)]
        seen = 0
        for label in walk:
            pg.locator("[data-testid='stSidebarNav'] a").filter(has_text=label).first.click()
            _wait_idle(pg)
            _assert_no_exception(pg, label)
            shown = _methods_settled(pg, chosen)
            if shown is not None:
                seen += 1
                assert shown == chosen, f"{label}: the method list shows {shown}"
            assert "algos=mspc-mpm%2Ckmeans%2Cspectral" in pg.url, f"{label}: {pg.url}"
        assert seen >= 6  # Cluster, Feature scaling and Compare, twice
    assert not external, f"requests left the machine: {sorted(set(external))}"


#: Measures a page as a reader sees it: every visible text box (HTML text nodes, outside
#: KaTeX, whose glyphs overlap by design, and every plotly SVG text, at the size of its
#: smallest line), pairs of boxes that overlap by more than 1 px, texts under a minimum size,
#: and what is cut on the right: tables (past the window, their grid past their box, or
#: scrolling sideways; the Data page's raw-data spreadsheet scrolls by design), display
#: equations wider than their column, chart texts past their chart.
MEASURE = (ROOT / "tests" / "measure_layout.js").read_text()

#: Nine methods that each run within the auto-run limit on the default data.
NINE = "mspc-mpm,mspc-gep,mspc-eig,mspc-rbf,kmeans,lda-kmeans,dis-kmeans,spectral,diffrac"
#: Pages whose layout depends on the number of methods chosen.
METHOD_PAGES = ("Cluster", "Feature_scaling", "Compare")
#: The smallest text presenter mode may show (px): chart text is 1.5 times the page's and
#: at least this (lab.export.projector_fonts), tables are zoomed to it (ui.presenter).
PRESENTER_MIN_PX = 16
#: (name, width, height, presenter mode, smallest text allowed in px; 0: not checked).
VIEWS = (
    ("1920x1080", 1920, 1080, False, 0),
    ("1280x800", 1280, 800, False, 11),
    ("presenter 1280x720", 1280, 720, True, PRESENTER_MIN_PX),
)

#: The width every chart is drawn at.
_CHART_WIDTHS = """() => [...document.querySelectorAll('.js-plotly-plot .main-svg')]
  .map(svg => Math.round(svg.getBoundingClientRect().width))"""


def _charts_settled(pg, timeout: float = 30.0) -> None:
    """Wait until the charts keep their widths for half a second (they follow a resized
    window one by one)."""
    deadline = time.monotonic() + timeout
    widths = pg.evaluate(_CHART_WIDTHS)
    while time.monotonic() < deadline:
        pg.wait_for_timeout(500)
        now = pg.evaluate(_CHART_WIDTHS)
        if now == widths:
            break
        widths = now


def _wait_long(pg, timeout: float = 300.0) -> None:
    """:func:`_wait_idle`, then until the app stops running (nine methods on Compare are
    54 fits on a loaded machine)."""
    _wait_idle(pg)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not pg.locator("[data-testid='stStatusWidget']").count():
            break
        pg.wait_for_timeout(500)
    pg.wait_for_timeout(1500)


def _presenter_on(pg) -> None:
    """Switch presenter mode on with its sidebar toggle and wait for the page to redraw in
    it: its style sheet (a 20 px root font) and every chart drawn again (the chart element
    counts its draws in ``data-draws``) with the larger text."""
    pg.evaluate(
        "() => document.querySelectorAll('.js-plotly-plot')"
        ".forEach(gd => { gd.dataset.before = gd.dataset.draws || '0'; })"
    )
    pg.locator(".st-key-presenter-toggle label").first.click()
    pg.wait_for_function(
        "() => getComputedStyle(document.documentElement).fontSize === '20px'", timeout=60_000
    )
    _wait_long(pg)
    pg.wait_for_function(
        "() => [...document.querySelectorAll('.js-plotly-plot')].every(gd => !gd.isConnected"
        " || gd.dataset.before === undefined || +gd.dataset.draws > +gd.dataset.before)",
        timeout=60_000,
    )
    _charts_settled(pg)


def test_layout_holds_at_1280_and_1920_and_for_a_projector_with_two_and_nine_methods(server):
    pages = ["", *(_url(p) for p in sorted((ROOT / "pages").glob("[0-9]*_*.py")))]
    problems = []
    report = []
    with chromium() as browser:
        _, width, height, *_ = VIEWS[0]
        context, external = offline_context(browser, width, height)
        pg = context.new_page()
        for methods in ("mspc-mpm,kmeans", NINE):
            for name in pages if methods != NINE else METHOD_PAGES:
                pg.goto(f"{server}/{name}?algos={methods}")
                _wait_long(pg)
                for view, width, height, presenter, least in VIEWS:
                    if presenter:
                        _presenter_on(pg)
                    if pg.viewport_size != {"width": width, "height": height}:
                        pg.set_viewport_size({"width": width, "height": height})
                        # charts and tables follow the window
                        pg.wait_for_timeout(1000)
                        _charts_settled(pg)
                    _assert_no_exception(pg, name)
                    m = pg.evaluate(MEASURE, least or 1)
                    n = methods.count(",") + 1
                    where = f"{name or 'Home'} at {view}, {n} methods"
                    report.append(
                        f"{where}: {m['boxes']} text boxes, {len(m['overlaps'])} "
                        f"overlapping, {len(m['small'])} under {least} px, "
                        f"{len(m['cut'])} cut"
                    )
                    assert m["boxes"] > 10, f"{where}: the page did not draw"
                    if m["overlaps"]:
                        problems.append(f"{where}: overlapping text {m['overlaps'][:4]}")
                    if m["cut"]:
                        problems.append(f"{where}: cut on the right {m['cut'][:4]}")
                    if least and m["small"]:
                        problems.append(f"{where}: text under {least} px {m['small'][:4]}")
        context.close()
        assert not external, f"requests left the machine: {sorted(set(external))}"
    print("\n".join(report))
    assert not problems, "\n".join(problems)


def _url(page: Path) -> str:
    return page.stem.split("_", 1)[1]
