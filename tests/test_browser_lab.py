"""End-to-end checks of what a user reads across pages, in headless Chromium.

- The methods chosen survive every hop through the sidebar (every page, twice, and
  Cluster <-> Compare, which draw the list under one key).

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
