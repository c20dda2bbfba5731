"""Presenter mode: large fonts, theory collapsed, the visible figures as slides.

The toggle lives in the sidebar (:func:`sidebar`, called by ``app.py`` around every page) and
in the URL (``present=1``, through :func:`ui.state.set_presenter`). Pages use:

* :func:`theory_expander` — an expander that is open normally and collapsed for presenting;
* :func:`chart` — draws a plotly figure (through the lab's chart element, :mod:`ui.chart`;
  tests/test_layers.py checks that pages call nothing else); while presenter mode is on it
  also keeps the figure, and :func:`export_button` offers the page's figures as one zip of
  slide-ready PNG and SVG files (:func:`lab.export.export_figures`, offline).
"""

from __future__ import annotations

import re
from typing import Any

import streamlit as st

from lab.export import SLIDE_HEIGHT, SLIDE_WIDTH, ExportFailedError, projector_fonts

from . import chart as lab_chart
from . import state
from .text import plain

__all__ = [
    "CSS",
    "chart",
    "columns",
    "enabled",
    "export_button",
    "per_row",
    "recorded_figures",
    "sidebar",
    "theory_expander",
]

#: How much a table (a data frame is drawn on a canvas, its text cannot be restyled) is
#: zoomed for a projector: Streamlit's 14 px cells become 16 px, the presenter minimum.
TABLE_ZOOM = 1.15
#: The width under which the two sides of a :func:`columns` layout stack (rem of the
#: presenter's 20 px root: 560 px): narrower, prose with equations, a table or a figure is cut.
STACK_REM = 28

#: Large fonts for a projector: body text, widgets (labels, values, options, buttons), tables
#: and headings; a slider's value kept clear of its label; the page's side margins narrowed
#: so the enlarged content has the width;
#: :func:`columns` layouts stacked where their columns would be narrower than ``STACK_REM``.
#: A data frame is zoomed as a whole element (its container, which Streamlit sizes, so the
#: grid is laid out at the zoomed width and not cut on the right). Charts get their fonts
#: from :func:`lab.export.projector_fonts`.
CSS = f"""
<style>
html, body, [data-testid="stAppViewContainer"] {{ font-size: 20px; }}
[data-testid="stMainBlockContainer"] {{ padding-left: 2rem; padding-right: 2rem; }}
.stElementContainer:has(> [data-testid="stDataFrame"]) {{
  zoom: {TABLE_ZOOM}; width: calc(100% / {TABLE_ZOOM}) !important; }}
[class*="st-key-stack-"] > [data-testid="stLayoutWrapper"] > [data-testid="stHorizontalBlock"]
  > [data-testid="stColumn"] {{
  min-width: min(100%, {STACK_REM}rem); }}
[data-testid="stMarkdownContainer"] p, [data-testid="stMarkdownContainer"] li,
[data-testid="stCaptionContainer"], [data-testid="stWidgetLabel"] p,
[data-testid="stMetricValue"], [data-testid="stExpander"] summary p {{ font-size: 1.3rem; }}
[data-testid="stCaptionContainer"] {{ font-size: 1.1rem; }}
h1 {{ font-size: 3rem !important; }} h2 {{ font-size: 2.3rem !important; }}
h3 {{ font-size: 1.9rem !important; }}
[data-testid="stTable"] td, [data-testid="stTable"] th {{ font-size: 1.2rem; }}
[data-baseweb="select"] div, [data-baseweb="tag"] span, [data-baseweb="input"] input,
[data-testid="stNumberInputField"], [data-testid="stSliderThumbValue"],
[data-testid="stSliderTickBarMin"], [data-testid="stSliderTickBarMax"],
[data-testid="stBaseButton-primary"] p, [data-testid="stBaseButton-secondary"] p,
[data-testid="stRadio"] label p, [data-testid="stCheckbox"] label p,
[data-testid="stSidebarNav"] span {{ font-size: 1.2rem !important; }}
[data-testid="stSlider"] > label + div {{ padding-top: 1rem; }}
[data-testid="stBaseButton-primary"] p, [data-testid="stBaseButton-secondary"] p,
[data-testid="stMetricLabel"] p, [data-testid="stWidgetLabel"] p {{
  white-space: normal !important; overflow-wrap: break-word; word-break: normal; }}
</style>
"""

_TOGGLE = "presenter.toggle"
_FIGURES = "presenter.figures"


def enabled() -> bool:
    """Whether presenter mode is on."""
    return state.get_presenter()


def columns(spec: Any, *, key: str, where: Any = None, **kwargs: Any) -> list:
    """``st.columns(spec, **kwargs)`` for a layout whose sides hold prose, equations, tables
    or figures: side by side normally; in presenter mode they stack, one under the other,
    once a column would be narrower than ``STACK_REM`` (at 1280 px with the sidebar open),
    so that the enlarged text and figures keep their width. ``key`` names the layout (unique
    on the page); ``where`` is the container to draw in (default: the current one)."""
    target = st if where is None else where
    return target.container(key=f"stack-{key}").columns(spec, **kwargs)


def per_row(normal: int = 3, *, most: int = 2) -> int:
    """Items to a row of a grid: ``normal`` (three figures: a third of a 1280 px page each),
    at most ``most`` in presenter mode, whose text is 1.5 times larger (charts:
    :func:`lab.export.projector_fonts`) and needs columns 1.5 times wider."""
    return min(normal, most) if enabled() else normal


def theory_expander(label: str, *, expanded: bool = True, **kwargs: Any):
    """``st.expander`` for theory: ``expanded`` normally, collapsed in presenter mode."""
    return st.expander(label, expanded=expanded and not enabled(), **kwargs)


def recorded_figures() -> list[tuple[str, Any]]:
    """``(name, figure)`` of the figures drawn so far in this run (presenter mode only)."""
    return list(state.widget_value(_FIGURES, []) or [])


def _figure_name(figure: Any, index: int, key: str | None = None) -> str:
    """A slide's name: the page, the method the chart shows (found in its key), the data
    set and the figure's title, e.g. ``Cluster - MSPC (MPM) - breast - MSP 0.889``."""
    from clustering import ALGORITHMS

    try:
        text = figure.layout.title.text or ""
    except AttributeError:
        text = ""
    text = re.sub(r"<[^>]+>", " ", text.split("<br>")[0]).strip()
    parts = [str(state.get(state.KEYS.PAGE) or "Home").replace("_", " ")]
    bits = re.split(r"[.]", key or "")
    method = next((ALGORITHMS[b].name for b in bits if b in ALGORITHMS), None)
    if method:
        parts.append(method)
    parts.append(state.get_data_choice().label)
    parts.append(text or f"figure {index}")
    return " - ".join(parts)


def _record(figure: Any, key: str | None = None) -> None:
    figures = state.widget_value(_FIGURES)
    if figures is not None:
        figures.append((_figure_name(figure, len(figures) + 1, key), figure))


def chart(
    figure: Any, *, where: Any = None, slide: bool = True, font_scale: float = 1.5, **kwargs: Any
) -> Any:
    """Draw a plotly figure on the page; the only way pages draw one.

    ``figure`` is a plotly figure or a :class:`ui.chart.SharedChart` (a cached figure whose
    JSON is made once).
    ``where`` is a container (a column, an expander, ``st.sidebar``; default: the current
    one). With a ``key`` the figure is drawn by the lab's chart element (:mod:`ui.chart`:
    one graph per key, updated in place); ``kwargs`` (``key``, ``width``, ``on_select``,
    ``selection_mode``, ``config``) follow ``st.plotly_chart``, and so does the return value
    (a selection event with ``on_select="rerun"``). Without a key, ``st.plotly_chart``.
    In presenter mode the figure is also kept, in drawing order and named by its title, for
    :func:`export_button`'s slides (with large fonts there, :func:`lab.export.
    slide_layout`), and the page draws it with every text 1.5 times larger
    (:func:`lab.export.projector_fonts`; ``font_scale`` times larger, for a lesson figure
    whose legend rows would not fit otherwise). ``slide=False`` leaves a figure out of the
    slides (a placeholder shown before an experiment has run).
    """
    shared = isinstance(figure, lab_chart.SharedChart)
    if enabled():
        figure = figure.figure if shared else figure
        if slide:
            _record(figure, kwargs.get("key"))
        figure, shared = projector_fonts(figure, scale=font_scale), False
        if "key" in kwargs:
            # A graph of its own for presenter mode: pages lay their grids out differently
            # in it (per_row), and a graph the chart element moves into another column keeps
            # following the width of its first one (drawn past its new column at 1280 px).
            kwargs["key"] = f"{kwargs['key']}.presenter"
    if "key" in kwargs:
        return lab_chart.chart(figure, where=where, **kwargs)
    target = st if where is None else where
    return target.plotly_chart(figure.figure if shared else figure, **kwargs)


def sidebar() -> Any:
    """Draw the presenter toggle in the sidebar, apply the large fonts when it is on and
    start this run's list of figures (filled by :func:`chart`). Returns a sidebar placeholder for
    :func:`export_button` (to fill after the page has drawn its figures)."""
    state.init()
    lab_chart.preload(st.sidebar)
    state.seed(_TOGGLE, state.KEYS.PRESENTER)
    on = st.sidebar.toggle(
        "Presenter mode",
        key=_TOGGLE,
        help="Large fonts, theory collapsed, and a one-click download of this page's "
        "figures as slide-ready PNG and SVG. Kept in the link (present=1).",
    )
    state.record(state.KEYS.PRESENTER, bool(on))
    state.set_widget(_FIGURES, [])
    if on:
        # A projector's width goes to the lesson: the sidebar starts collapsed (its arrow,
        # top left, opens it again for the toggle and the slides).
        st.set_page_config(initial_sidebar_state="collapsed")
        st.html(CSS)
    return st.sidebar.empty()


def _slides_zip(figures: list[tuple[str, Any]], progress=None) -> bytes:
    from lab.export import export_figures, export_zip

    names = [name for name, _ in figures]
    files = export_figures([fig for _, fig in figures], progress=progress, keep=True)
    return export_zip(names, files)


_ZIP = "presenter.zip"


def export_button(container: Any = None) -> None:
    """Slides of this run's recorded figures: a button renders them (PNG and SVG, with a
    progress bar, figure by figure), then a download button offers the zip, its files named
    by page, method, data set and title. Nothing is drawn outside presenter mode or without
    figures."""
    figures = recorded_figures()
    if not enabled() or not figures:
        return
    target = container if container is not None else st.sidebar
    names = tuple(name for name, _ in figures)
    n = len(figures)
    with target.container():
        if st.button(
            f"Prepare slides: {n} figure{'s' if n != 1 else ''} (PNG + SVG)",
            key="presenter.prepare",
            type="primary",
            help=f"Every figure on this page, {SLIDE_WIDTH:d} x {SLIDE_HEIGHT:d} with large "
            "fonts, PNG and SVG, named by page, method and data set. The first export starts "
            "a browser for the rendering; later ones reuse it.",
        ):
            bar = st.progress(0.0, text=f"Rendering {n} figures…")

            def progress(done: int, total: int) -> None:
                bar.progress(done / max(total, 1), text=f"Rendered {done} of {total} figures…")

            try:
                state.set_widget(_ZIP, (names, _slides_zip(figures, progress)))
            except ExportFailedError as err:
                st.error(f"The export failed: {plain(err)}", icon=":material/warning:")
            bar.empty()
        ready = state.widget_value(_ZIP)
        if ready is not None and ready[0] == names:
            st.download_button(
                f"Download the {n} slides (zip)",
                data=ready[1],
                file_name=f"slides-{_slug(names[0].split(' - ')[0])}.zip",
                mime="application/zip",
                key="presenter.export",
                on_click="ignore",
            )


def _slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-").lower() or "slides"
