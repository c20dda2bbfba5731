"""Presenter export: plotly figures as slide-ready PNG and SVG, offline.

:func:`export_figures` renders each figure with plotly's static export (``kaleido`` >= 1,
which drives a Chromium-family browser it finds on the machine; on Debian ``/usr/bin/chromium``
from the ``chromium`` package, the one the browser tests use). Nothing is fetched: plotly.js
comes from the installed ``plotly`` package, MathJax is switched off (kaleido would load it
from a CDN), and the browser's tabs are put offline (:func:`_offline`: the DevTools protocol's
network emulation, so a request from a figure fails inside the browser, loopback included);
every figure first goes through the lab's one sanitiser
(:func:`lab.plots.safe_text.safe_figure`: no attribute, link or other tag from a user's
names). One browser serves every figure of a call, and with ``keep=True`` (the app's
slide button) it stays open for the next call until ``IDLE_SECONDS`` pass without one: its
start was most of an export's time. :func:`slide_layout` is the pure part (16:9 size, large
fonts) and :func:`export_zip` packs the files for a one-click download.

Pure Python, no streamlit.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import io
import os
import re
import shutil
import threading
import zipfile
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import plotly.graph_objects as go

from lab.plots.safe_text import safe_figure

__all__ = [
    "FORMATS",
    "SLIDE_HEIGHT",
    "SLIDE_WIDTH",
    "ExportFailedError",
    "export_figures",
    "export_zip",
    "find_browser",
    "slide_layout",
]


class ExportFailedError(RuntimeError):
    """A figure could not be exported as an image (no browser for the static export, the
    export package missing, or the browser failed); the message says what to install or set."""


#: Formats the export writes.
FORMATS = ("png", "svg")
#: A 16:9 slide in CSS pixels (PNG is rendered at ``scale`` times this: 2 gives 2560 x 1440).
SLIDE_WIDTH, SLIDE_HEIGHT = 1280, 720
_BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")


def find_browser() -> str | None:
    """The browser the export drives: ``$BROWSER_PATH`` if set, else the first Chromium-family
    executable on ``PATH`` (Debian: ``/usr/bin/chromium``), else ``None``."""
    env = os.environ.get("BROWSER_PATH")
    if env:
        return env
    for name in _BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    return None


def slide_layout(
    fig: go.Figure, *, font_size: int = 20, width: int = SLIDE_WIDTH, height: int = SLIDE_HEIGHT
) -> go.Figure:
    """A copy of ``fig`` sized for a 16:9 slide with large fonts (``fig`` is not changed).

    Examples
    --------
    >>> import plotly.graph_objects as go
    >>> fig = go.Figure(go.Scatter(x=[0, 1], y=[1, 0]), layout={"height": 300})
    >>> big = slide_layout(fig)
    >>> big.layout.width, big.layout.height, big.layout.font.size, fig.layout.font.size
    (1280, 720, 20, None)
    """
    if font_size < 6 or width < 100 or height < 100:
        raise ValueError(
            f"A slide needs font_size >= 6 and at least 100 x 100 pixels, got font_size="
            f"{font_size}, {width} x {height}."
        )
    out = go.Figure(fig)
    title_size = round(font_size * 1.3)
    out.update_layout(
        width=width, height=height, font={"size": font_size}, title={"font": {"size": title_size}}
    )
    return out


#: Plotly's (and Streamlit's chart theme's) font sizes where a figure sets none.
_DEFAULT_SIZES = {"font": 12, "tick": 12, "axis_title": 14, "legend": 12, "title": 16}


def _bigger(font, default: int, scale: float, minimum: int) -> dict:
    size = getattr(font, "size", None) if not isinstance(font, dict) else font.get("size")
    return {"size": max(minimum, round((size or default) * scale))}


def projector_fonts(fig: go.Figure, *, scale: float = 1.5, minimum: int = 16) -> go.Figure:
    """A copy of ``fig`` whose every text is ``scale`` times larger and at least ``minimum``
    px (``fig`` is not changed): the base font, the title, each axis's tick labels and
    title, the legend, the annotations, the hover labels and the traces' text; the margins
    the figure sets grow by ``scale`` too (and its height by what the top and bottom margins
    grew). For a projector (presenter mode); a slide export uses :func:`slide_layout`.

    Examples
    --------
    >>> import plotly.graph_objects as go
    >>> fig = go.Figure(go.Scatter(x=[0, 1], y=[1, 0]), layout={"xaxis": {"title": "x"}})
    >>> big = projector_fonts(fig)
    >>> big.layout.font.size, big.layout.xaxis.tickfont.size, big.layout.xaxis.title.font.size
    (18, 18, 21)
    """
    out = go.Figure(fig)
    layout = out.layout
    d = _DEFAULT_SIZES
    update: dict = {
        "font": _bigger(layout.font, d["font"], scale, minimum),
        "title": {
            "font": _bigger(layout.title.font, d["title"], scale, minimum),
            "subtitle": {"font": _bigger(layout.title.subtitle.font, d["font"], scale, minimum)},
        },
        "legend": {"font": _bigger(layout.legend.font, d["legend"], scale, minimum)},
        "hoverlabel": {"font": _bigger(layout.hoverlabel.font, d["font"], scale, minimum)},
    }
    for name in layout:
        if name.startswith(("xaxis", "yaxis")) and layout[name] is not None:
            axis = layout[name]
            update[name] = {
                "tickfont": _bigger(axis.tickfont, d["tick"], scale, minimum),
                "title": {"font": _bigger(axis.title.font, d["axis_title"], scale, minimum)},
            }
            if name.startswith("xaxis"):
                # The larger lowest y label reaches further below the plot: the x labels
                # step down so the one at the left corner does not run into it.
                update[name]["ticklabelstandoff"] = (axis.ticklabelstandoff or 0) + round(4 * scale)
    # Margins set by hand hold text at the page's sizes (titles, tick labels, a legend
    # below the plot): they grow with it, and the figure by its top and bottom margins, so
    # the plot area keeps its height and the larger text does not run into it.
    margin = layout.margin
    grown = {
        side: round(getattr(margin, side) * scale)
        for side in ("t", "b", "l", "r")
        if getattr(margin, side) is not None
    }
    if grown:
        update["margin"] = grown
        if layout.height:
            extra = sum(
                grown.get(s, 0) - (getattr(margin, s) or 0) for s in ("t", "b") if s in grown
            )
            update["height"] = layout.height + extra
    out.update_layout(update)
    for annotation in out.layout.annotations:
        annotation.font.size = _bigger(annotation.font, d["font"], scale, minimum)["size"]
    for trace in out.data:
        if "textfont" in trace and trace.textfont.size is not None:
            trace.textfont.size = _bigger(trace.textfont, d["font"], scale, minimum)["size"]
    return out


def _plotly_js() -> Path:
    import plotly

    path = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"
    if not path.is_file():
        raise ExportFailedError(
            f"plotly.js is not where the plotly package keeps it ({path}); reinstall plotly."
        )
    return path


#: The DevTools protocol's network emulation with no network at all.
_NO_NETWORK = {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}


async def _offline(k) -> None:
    """Cut every tab of kaleido's browser ``k`` off the network: a request made by a figure
    (an image, a CSS ``url(...)``) fails inside the browser, to loopback addresses too.
    Kaleido's page and plotly.js are local files and still load."""
    for tab in list(k.tabs.values()):
        for command, params in (
            ("Network.enable", None),
            ("Network.emulateNetworkConditions", _NO_NETWORK),
        ):
            reply = await tab.send_command(command, params=params)
            if isinstance(reply, dict) and "error" in reply:
                raise ExportFailedError(
                    f"The export browser could not be taken offline ({command}: "
                    f"{reply['error'].get('message', reply['error'])}); nothing was rendered."
                )


def _run(coro_factory):
    """Run an async job from sync code, also when an event loop is already running."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro_factory())
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(lambda: asyncio.run(coro_factory())).result()


#: Seconds a kept browser (``export_figures(keep=True)``) stays open after its last export.
IDLE_SECONDS = 600.0


class _KeptSession:
    """One kaleido session, open in a thread of its own between exports; one export at a
    time (a second waits for the first); closed after ``IDLE_SECONDS`` without an export,
    when a render fails, and at exit."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._kaleido = None
        self._key: tuple | None = None
        self._timer: threading.Timer | None = None
        atexit.register(self.close)

    @contextlib.contextmanager
    def session(self, key: tuple, make, timeout: float):
        """Hold the open session (started by ``make()`` if there is none, or if ``key``, its
        browser and settings, changed) and yield ``call``: ``call(job)`` runs ``await
        job(kaleido)`` there and returns its result to the calling thread."""
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
            try:
                if self._kaleido is None or self._key != key:
                    self._close()
                    self._start(key, make, timeout)
                yield lambda job: self._call(job(self._kaleido), timeout)
            except BaseException:
                self._close()
                raise
            finally:
                if self._kaleido is not None:
                    self._timer = threading.Timer(IDLE_SECONDS, self.close)
                    self._timer.daemon = True
                    self._timer.start()

    def _call(self, coro, timeout: float):
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(timeout)

    def _start(self, key: tuple, make, timeout: float) -> None:
        self._loop = asyncio.new_event_loop()
        threading.Thread(target=self._loop.run_forever, daemon=True, name="kaleido").start()
        k = make()

        async def enter():
            entered = await k.__aenter__()
            await _offline(entered)
            return entered

        self._kaleido = self._call(enter(), timeout)
        self._key = key

    def _close(self) -> None:
        k, loop = self._kaleido, self._loop
        self._kaleido = self._loop = self._key = None
        if loop is None:
            return
        if k is not None:
            try:
                self._call_on(loop, k.__aexit__(None, None, None), 30)
            except Exception:  # the browser is gone already
                pass
        loop.call_soon_threadsafe(loop.stop)

    @staticmethod
    def _call_on(loop, coro, timeout: float):
        return asyncio.run_coroutine_threadsafe(coro, loop).result(timeout)

    def close(self) -> None:
        """Close the session (its browser) now."""
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
            self._close()


_KEPT = _KeptSession()


def export_figures(
    figures: Sequence[go.Figure],
    *,
    formats: Sequence[str] = FORMATS,
    slide: bool = True,
    font_size: int = 20,
    scale: float = 2.0,
    browser: str | None = None,
    timeout: float = 120.0,
    progress=None,
    keep: bool = False,
) -> list[dict[str, bytes]]:
    """Render figures as PNG and SVG without the network.

    Parameters
    ----------
    figures : sequence of go.Figure
    formats : sequence of {"png", "svg"}, default=("png", "svg")
    slide : bool, default=True
        Apply :func:`slide_layout` first (1280 x 720, ``font_size``); otherwise keep each
        figure's own size.
    font_size : int, default=20
    scale : float, default=2.0
        PNG pixel density (2: a 2560 x 1440 PNG for a slide); SVG is vector.
    browser : str, optional
        Browser executable; default :func:`find_browser`.
    timeout : float, default=120
        Seconds the browser may take per call.
    progress : callable, optional
        Called as ``progress(done, total)`` after each figure (and with 0 before the first).
    keep : bool, default=False
        Keep the browser open for the next call (closed after ``IDLE_SECONDS`` without one,
        and at exit): a call then costs the renders only, not the browser's start.

    Returns
    -------
    list of dict
        One ``{format: bytes}`` per figure, in order.

    Raises
    ------
    ExportFailedError
        No browser, kaleido missing, or the render failed; the message says what to do.
    """
    figures = list(figures)
    bad = [f for f in formats if f not in FORMATS]
    if bad:
        raise ValueError(f"Unknown export format {bad[0]!r}; choose from {', '.join(FORMATS)}.")
    if not figures:
        return []
    path = browser or find_browser()
    if not path or not Path(path).exists():
        raise ExportFailedError(
            "No Chromium-family browser for the static export: install one (Debian: "
            "apt-get install chromium) or set BROWSER_PATH to its executable."
        )
    try:
        import kaleido
    except ImportError as exc:
        raise ExportFailedError(
            "The static export needs the kaleido package (pip install 'kaleido>=1')."
        ) from exc
    prepared = [
        slide_layout(safe_figure(f), font_size=font_size) if slide else go.Figure(safe_figure(f))
        for f in figures
    ]
    plotly_js = _plotly_js()

    def make():
        return kaleido.Kaleido(n=1, timeout=timeout, path=path, mathjax=False, plotlyjs=plotly_js)

    async def render(k, fig):
        files = {}
        for fmt in formats:
            opts = {"format": fmt, "scale": scale if fmt == "png" else 1}
            if fig.layout.width and fig.layout.height:
                opts.update(width=fig.layout.width, height=fig.layout.height)
            files[fmt] = await k.calc_fig(fig, opts=opts)
        return files

    def each(call):
        # ``progress`` is called from the caller's thread (Streamlit's progress bar needs it).
        out = []
        if progress is not None:
            progress(0, len(prepared))
        for fig in prepared:
            out.append(call(lambda k, fig=fig: render(k, fig)))
            if progress is not None:
                progress(len(out), len(prepared))
        return out

    async def job():
        async with make() as k:
            await _offline(k)
            out = []
            if progress is not None:
                progress(0, len(prepared))
            for fig in prepared:
                out.append(await render(k, fig))
                if progress is not None:
                    progress(len(out), len(prepared))
            return out

    try:
        if keep:
            with _KEPT.session((path, str(plotly_js), timeout), make, timeout) as call:
                return each(call)
        return _run(job)
    except ExportFailedError:
        raise
    except Exception as exc:  # the browser or kaleido failed: say which and what to try
        raise ExportFailedError(
            f"The static export with {path} failed ({type(exc).__name__}: {exc}). Check that "
            "the browser starts headless (e.g. run it with --headless --no-sandbox)."
        ) from exc


def _slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-") or "figure"


def export_zip(names: Sequence[str], files: Sequence[dict[str, bytes]]) -> bytes:
    """A zip archive of exported figures, ``01-<name>.png``, ``01-<name>.svg``, ...

    Examples
    --------
    >>> import zipfile, io
    >>> data = export_zip(["MSP vs accuracy"], [{"svg": b"<svg/>"}])
    >>> zipfile.ZipFile(io.BytesIO(data)).namelist()
    ['01-MSP-vs-accuracy.svg']
    """
    if len(names) != len(files):
        raise ValueError(f"One name per figure: got {len(names)} names for {len(files)} figures.")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for i, (name, by_format) in enumerate(zip(names, files, strict=True), start=1):
            for fmt, data in by_format.items():
                zf.writestr(f"{i:02d}-{_slug(name)}.{fmt}", data)
    return buffer.getvalue()
