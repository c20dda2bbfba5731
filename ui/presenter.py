"""Presenter mode: large fonts, theory collapsed, the visible figures as slides.

The toggle lives in the sidebar (:func:`sidebar`, called by ``app.py`` around every page) and
in the URL (``present=1``, through :func:`ui.state.set_presenter`). Pages use:

* :func:`theory_expander` — an expander that is open normally and collapsed for presenting;
* nothing else: while presenter mode is on, every ``plotly_chart`` a page draws is recorded
  (:func:`install_recorder`) and :func:`export_button` offers them as one zip of slide-ready
  PNG and SVG files (:func:`clustering.export.export_figures`, offline).
"""

from __future__ import annotations

from typing import Any

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from clustering.exceptions import ExportFailedError

from . import state

__all__ = [
    "CSS",
    "enabled",
    "export_button",
    "install_recorder",
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


# The unpatched functions, kept on the class so that a reload of this module (Streamlit's
# file watcher) does not wrap the wrappers.
if not hasattr(DeltaGenerator, "_dcl_plotly_chart"):
    DeltaGenerator._dcl_plotly_chart = DeltaGenerator.plotly_chart
    DeltaGenerator._dcl_st_plotly_chart = st.plotly_chart
_ORIGINAL = DeltaGenerator._dcl_plotly_chart


def _record(figure_or_data: Any) -> None:
    try:
        if enabled():
            figures = state.widget_value(_FIGURES)
            if figures is not None:
                figures.append((_figure_name(figure_or_data, len(figures) + 1), figure_or_data))
    except Exception:  # recording must never break a page (e.g. outside a script run)
        pass


def _recording_plotly_chart(self, figure_or_data, *args, **kwargs):
    _record(figure_or_data)
    return _ORIGINAL(self, figure_or_data, *args, **kwargs)


_ORIGINAL_ST = DeltaGenerator._dcl_st_plotly_chart  # bound to the main area at import


def _recording_st_plotly_chart(figure_or_data, *args, **kwargs):
    _record(figure_or_data)
    return _ORIGINAL_ST(figure_or_data, *args, **kwargs)


def install_recorder() -> None:
    """Record every ``plotly_chart`` of the session's runs (``st.plotly_chart`` and the
    containers' own; installed once per process, the record is per session and only kept
    while presenter mode is on)."""
    if DeltaGenerator.plotly_chart is not _recording_plotly_chart:
        DeltaGenerator.plotly_chart = _recording_plotly_chart
    if st.plotly_chart is not _recording_st_plotly_chart:
        st.plotly_chart = _recording_st_plotly_chart


def sidebar() -> Any:
    """Draw the presenter toggle in the sidebar, apply the large fonts when it is on and
    start recording this run's figures. Returns a sidebar placeholder for
    :func:`export_button` (to fill after the page has drawn its figures)."""
    state.init()
    install_recorder()
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
    from clustering.export import export_figures, export_zip

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
            help="Every figure on this page, 1280 x 720 with large fonts: PNG (2x) and SVG.",
        )
