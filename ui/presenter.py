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

from typing import Any

import streamlit as st

from clustering.exceptions import ExportFailedError
from lab.export import SLIDE_HEIGHT, SLIDE_WIDTH

from . import chart as lab_chart
from . import state

__all__ = [
    "CSS",
    "chart",
    "enabled",
    "export_button",
    "recorded_figures",
    "sidebar",
    "theory_expander",
]

#: Large fonts for a projector: body text, widgets' labels, tables and headings.
CSS = """
<style>
html, body, [data-testid="stAppViewContainer"] { font-size: 20px; }
[data-testid="stMarkdownContainer"] p, [data-testid="stMarkdownContainer"] li,
[data-testid="stCaptionContainer"], [data-testid="stWidgetLabel"] p,
[data-testid="stMetricValue"], [data-testid="stExpander"] summary p { font-size: 1.3rem; }
[data-testid="stCaptionContainer"] { font-size: 1.1rem; }
h1 { font-size: 3rem !important; } h2 { font-size: 2.3rem !important; }
h3 { font-size: 1.9rem !important; }
[data-testid="stDataFrame"] { font-size: 1.1rem; }
</style>
"""

_TOGGLE = "presenter.toggle"
_FIGURES = "presenter.figures"


def enabled() -> bool:
    """Whether presenter mode is on."""
    return state.get_presenter()


def theory_expander(label: str, *, expanded: bool = True, **kwargs: Any):
    """``st.expander`` for theory: ``expanded`` normally, collapsed in presenter mode."""
    return st.expander(label, expanded=expanded and not enabled(), **kwargs)


def recorded_figures() -> list[tuple[str, Any]]:
    """``(name, figure)`` of the figures drawn so far in this run (presenter mode only)."""
    return list(state.widget_value(_FIGURES, []) or [])


def _figure_name(figure: Any, index: int) -> str:
    try:
        text = figure.layout.title.text or ""
    except AttributeError:
        text = ""
    text = text.split("<br>")[0].strip()
    return text or f"figure {index}"


def _record(figure: Any) -> None:
    figures = state.widget_value(_FIGURES)
    if figures is not None:
        figures.append((_figure_name(figure, len(figures) + 1), figure))


def chart(figure: Any, *, where: Any = None, **kwargs: Any) -> Any:
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
    slide_layout`); the figure on the page is the same either way.
    """
    shared = isinstance(figure, lab_chart.SharedChart)
    if enabled():
        _record(figure.figure if shared else figure)
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
        st.html(CSS)
    return st.sidebar.empty()


def _slides_zip(figures: list[tuple[str, Any]]) -> bytes:
    from lab.export import export_figures, export_zip

    names = [name for name, _ in figures]
    files = export_figures([fig for _, fig in figures])
    return export_zip(names, files)


def export_button(container: Any = None) -> None:
    """A download button for this run's recorded figures as a zip of PNG and SVG slides
    (built only when pressed). Nothing is drawn outside presenter mode or without figures."""
    figures = recorded_figures()
    if not enabled() or not figures:
        return
    target = container if container is not None else st.sidebar

    def build() -> bytes:
        try:
            return _slides_zip(figures)
        except ExportFailedError as err:
            return f"The export failed: {err}\n".encode()

    with target.container():
        st.download_button(
            f"Slides: {len(figures)} figure{'s' if len(figures) != 1 else ''} (PNG + SVG)",
            data=build,
            file_name="slides.zip",
            mime="application/zip",
            key="presenter.export",
            on_click="ignore",
            type="primary",
            help=f"Every figure on this page, {SLIDE_WIDTH:d} x {SLIDE_HEIGHT:d} with large fonts: "
            "PNG and SVG.",
        )
