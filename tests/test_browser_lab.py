"""End-to-end checks of what a user reads across pages, in headless Chromium.

- The methods chosen survive every hop through the sidebar (every page, twice, and
  Cluster <-> Compare, which draw the list under one key).
- The layout holds at 1280x800 and 1920x1080, with two methods and with nine: no text box
  overlaps another, no table is cut on the right, no text under 11 px at 1280.

Uses the server and helpers of :mod:`test_browser`; skipped like it when Chromium or
Playwright is missing (failing under ``CI=true``).
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from test_browser import (
    CHROMIUM,
    CHROMIUM_ARGS,
    _assert_no_exception,
    _block_external,
    _require_browser,
    _wait_idle,
    server,  # noqa: F401  (the module's fixture)
)

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


def test_chosen_methods_survive_every_sidebar_hop(server):  # noqa: F811
    sync_playwright = _require_browser()
    chosen = ["MSPC (MPM)", "k-means", "Spectral clustering (NJW)"]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(viewport={"width": 1280, "height": 800})
            external = _block_external(context)
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
        finally:
            browser.close()
    assert not external, f"requests left the machine: {sorted(set(external))}"


#: Measures a page as a reader sees it: every visible text box (HTML text nodes, outside
#: KaTeX, whose glyphs overlap by design, and every plotly SVG text), pairs of boxes that
#: overlap by more than 1 px, texts under 11 px, and tables cut on the right (beyond the
#: window, or scrolling sideways; the Data page's raw-data spreadsheet scrolls by design).
MEASURE = (ROOT / "tests" / "measure_layout.js").read_text()

#: Nine methods that each run within the auto-run limit on the default data.
NINE = "mspc-mpm,mspc-gep,mspc-eig,mspc-rbf,kmeans,lda-kmeans,dis-kmeans,spectral,diffrac"
#: Pages whose layout depends on the number of methods chosen.
METHOD_PAGES = ("Cluster", "Feature_scaling", "Compare")


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


def test_layout_holds_at_1280_and_1920_with_two_and_nine_methods(server):  # noqa: F811
    sync_playwright = _require_browser()
    pages = ["", *(_url(p) for p in sorted((ROOT / "pages").glob("[0-9]*_*.py")))]
    problems = []
    report = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for width, height in ((1280, 800), (1920, 1080)):
                context = browser.new_context(viewport={"width": width, "height": height})
                external = _block_external(context)
                pg = context.new_page()
                for methods in ("mspc-mpm,kmeans", NINE):
                    for name in pages if methods != NINE else METHOD_PAGES:
                        pg.goto(f"{server}/{name}?algos={methods}")
                        _wait_long(pg)
                        _assert_no_exception(pg, name)
                        m = pg.evaluate(MEASURE)
                        n = methods.count(",") + 1
                        where = f"{name or 'Home'} at {width}x{height}, {n} methods"
                        report.append(
                            f"{where}: {m['boxes']} text boxes, {len(m['overlaps'])} overlapping, "
                            f"{len(m['small'])} under 11 px, {len(m['cut'])} tables cut"
                        )
                        assert m["boxes"] > 10, f"{where}: the page did not draw"
                        if m["overlaps"]:
                            problems.append(f"{where}: overlapping text {m['overlaps'][:4]}")
                        if m["cut"]:
                            problems.append(f"{where}: tables cut {m['cut']}")
                        if width == 1280 and m["small"]:
                            problems.append(f"{where}: text under 11 px {m['small'][:4]}")
                context.close()
                assert not external, f"requests left the machine: {sorted(set(external))}"
        finally:
            browser.close()
    print("\n".join(report))
    assert not problems, "\n".join(problems)


def _url(page: Path) -> str:
    return page.stem.split("_", 1)[1]
