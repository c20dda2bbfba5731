"""Presenter export: slide-sized PNG and SVG through Debian's Chromium, with no network."""

from __future__ import annotations

import io
import os
import zipfile
from pathlib import Path

import numpy as np
import plotly.graph_objects as go
import pytest

from lab.export import ExportFailedError, export_figures, export_zip, find_browser, slide_layout


def _figure(colour="#0072B2"):
    return go.Figure(
        go.Scatter(x=[0, 1, 2], y=[2, 0, 1], mode="markers", marker={"color": colour, "size": 30}),
        layout={"title": {"text": "A figure"}, "height": 300},
    )


def test_slide_layout_is_a_16_9_copy_with_large_fonts():
    fig = _figure()
    big = slide_layout(fig, font_size=24)
    assert (big.layout.width, big.layout.height) == (1280, 720)
    assert big.layout.font.size == 24 and big.layout.title.font.size > 24
    assert fig.layout.height == 300 and fig.layout.width is None  # the input is unchanged
    with pytest.raises(ValueError, match="font_size >= 6"):
        slide_layout(fig, font_size=2)


def test_export_refuses_unknown_formats_and_missing_browser(tmp_path):
    with pytest.raises(ValueError, match="choose from png, svg"):
        export_figures([_figure()], formats=["pdf"])
    with pytest.raises(ExportFailedError, match="BROWSER_PATH"):
        export_figures([_figure()], browser=str(tmp_path / "no-such-browser"))
    assert export_figures([]) == []
    with pytest.raises(ValueError, match="One name per figure"):
        export_zip(["a", "b"], [{}])


def _require_export():
    in_ci = os.environ.get("CI", "").lower() == "true"
    browser = find_browser()
    missing = None
    try:
        import kaleido  # noqa: F401
    except ImportError:
        missing = "kaleido is not installed"
    if browser is None or not Path(browser).exists():
        missing = "no Chromium-family browser (tests/install_system_packages.sh)"
    if missing:
        if in_ci:
            pytest.fail(missing)
        pytest.skip(missing)


@pytest.mark.browser
@pytest.mark.timeout(300)
def test_png_and_svg_are_slide_sized_and_show_the_figure():
    from PIL import Image

    _require_export()
    files = export_figures([_figure("#D55E00"), _figure("#009E73")], scale=1.0)
    assert len(files) == 2
    for by_format, colour in zip(files, [(0xD5, 0x5E, 0x00), (0x00, 0x9E, 0x73)], strict=True):
        png = Image.open(io.BytesIO(by_format["png"])).convert("RGB")
        assert png.size == (1280, 720)
        pixels = np.asarray(png).reshape(-1, 3).astype(int)
        # The markers are drawn in the figure's own colour (not a blank or error page).
        assert (np.abs(pixels - colour).sum(axis=1) < 30).sum() > 500
        svg = by_format["svg"].decode()
        assert svg.startswith("<svg") and 'width="1280"' in svg and "A figure" in svg
        assert "http://" not in svg.replace("http://www.w3.org", "")
    data = export_zip(["first", "second figure"], files)
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    assert names == ["01-first.png", "01-first.svg", "02-second-figure.png", "02-second-figure.svg"]


@pytest.mark.browser
@pytest.mark.timeout(300)
def test_a_kept_browser_serves_the_next_export_and_reports_progress_in_the_caller_thread():
    import threading

    from lab import export

    _require_export()
    calls = []

    def progress(done, total):
        calls.append((done, total, threading.get_ident()))

    try:
        first = export_figures([_figure("#D55E00")], scale=1.0, keep=True, progress=progress)
        session = export._KEPT._kaleido
        assert session is not None  # still open after the export
        second = export_figures(
            [_figure("#009E73"), _figure()], formats=["svg"], keep=True, progress=progress
        )
        assert export._KEPT._kaleido is session  # the same browser served the second export
    finally:
        export._KEPT.close()
    assert export._KEPT._kaleido is None
    assert first[0]["png"].startswith(b"\x89PNG") and first[0]["svg"].startswith(b"<svg")
    assert [sorted(f) for f in second] == [["svg"], ["svg"]]
    me = threading.get_ident()
    assert [(d, t) for d, t, _ in calls] == [(0, 1), (1, 1), (0, 2), (1, 2), (2, 2)]
    assert all(thread == me for *_, thread in calls)
