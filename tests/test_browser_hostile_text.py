"""User text that would make a browser fetch (issue 35 item 2), end to end in Chromium.

An upload's column names carry ``style="PROPERTY:url(...)"`` for every CSS property through
which Chromium fetched a URL in the report (cursor, mask-image, mask, fill, clip-path,
background-image, marker-start, stroke) and ``font-size:300px``; its class labels carry a
link and a style. The URLs point at a request catcher on a loopback port. Every page is
opened with the upload, the Cluster page's HTML figure download is opened in the browser,
and presenter mode's slides are exported by the server's own browser: the catcher must
receive no request at all, and the slides' SVG keeps no ``url(`` of the user's.
"""

from __future__ import annotations

import csv
import io
import re
import zipfile
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import chromium, offline_context
from tests.test_browser import _assert_no_exception, _token, _upload, _wait_idle
from tests.test_safe_text import PROPERTIES, request_catcher

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

PAGES = ("Data", "Cluster", "Feature_scaling", "MSP_vs_accuracy", "Learn", "Compare")


def _hostile_csv(path: Path, base: str) -> None:
    names = [f'<b style="{p}:url({base}/{p}.png)">{p}</b>' for p in PROPERTIES]
    names.append('<b style="font-size:300px">huge</b>')
    labels = [
        f'<a href="{base}/link">yes</a>',
        f'<span style="fill:url({base}/label.png)">no</span>',
    ]
    rng = np.random.default_rng(0)
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow([*names, "label"])
    for i in range(60):
        k = i % 2
        writer.writerow([f"{v:.3f}" for v in rng.normal(4 * k, 1, len(names))] + [labels[k]])
    path.write_text(buffer.getvalue())


def test_hostile_names_and_labels_fetch_nothing_on_any_page_download_or_export(server, tmp_path):
    with request_catcher() as (base, hits), chromium() as browser:
        data = tmp_path / "hostile.csv"
        _hostile_csv(data, base)
        context, external = offline_context(browser, 1400, 2000)
        context.set_default_timeout(120_000)
        page = context.new_page()
        page.goto(f"{server}/Data")
        _wait_idle(page)
        _upload(page, data)
        _assert_no_exception(page, "the upload")
        token = _token(page)
        assert token, page.url
        for name in PAGES:
            view = "&view=features:1,8" if name == "Cluster" else ""
            page.goto(f"{server}/{name}?upload={token}{view}")
            _wait_idle(page)
            _assert_no_exception(page, name)
            if name == "Cluster":  # the names are drawn, so a fetch they made would be seen
                drawn = page.eval_on_selector_all(
                    ".js-plotly-plot text", "els => els.map(e => e.textContent).join(' ')"
                )
                assert "mask-image" in drawn and "huge" in drawn and "yes" in drawn

        # The Cluster page's HTML figure download, opened in the browser.
        page.goto(f"{server}/Cluster?upload={token}&view=features:1,8")
        _wait_idle(page)
        page.locator("[data-testid='stExpander'] summary", has_text="Downloads").click()
        with page.expect_download() as info:
            page.get_by_role("button", name="Figure (HTML)").click()
        html = Path(info.value.path()).read_text()
        figure = html[html.index("Plotly.newPlot") :].split("</script>")[0]
        for code, char in (("\\u003c", "<"), ("\\u003e", ">"), ("\\u002f", "/")):
            figure = figure.replace(code, char)
        assert "mask-image" in figure  # the names are in the file, as text only:
        assert not re.search(r"<\s*[A-Za-z][A-Za-z0-9]*\s[^<>]*>", figure)  # no attribute
        viewer = context.new_page()
        viewer.set_content(html)
        viewer.wait_for_selector(".js-plotly-plot", timeout=60_000)
        viewer.wait_for_timeout(1500)

        # Presenter mode: the server's own browser renders the slides.
        page.goto(f"{server}/Cluster?upload={token}&view=features:1,8&present=1")
        _wait_idle(page)
        opener = page.locator(
            "[data-testid='stExpandSidebarButton'], "
            "[data-testid='stSidebarCollapsedControl'] button"
        )
        if opener.count():  # presenter mode starts with the sidebar collapsed
            opener.first.click()
        page.get_by_role("button", name=re.compile(r"^Prepare slides")).click()
        page.get_by_role("button", name=re.compile(r"^Download the \d+ slides")).wait_for(
            timeout=300_000
        )
        with page.expect_download() as info:
            page.get_by_role("button", name=re.compile(r"^Download the \d+ slides")).click()
        slides = zipfile.ZipFile(info.value.path())
        svgs = [slides.read(n).decode("utf-8", "replace") for n in slides.namelist()]
        svgs = [s for n, s in zip(slides.namelist(), svgs, strict=True) if n.endswith(".svg")]
        assert svgs
        page.wait_for_timeout(1500)
    assert hits == []
    assert external == []
    for svg in svgs:  # a user's url( or font size may show as text, never in a tag
        assert not re.search(r"<[^<>]*url\(\s*['\"]?http", svg)
        assert not re.search(r"<[^<>]*font-size:\s*300px", svg)
