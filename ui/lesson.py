"""One page, one lesson: its controls beside the figure they move, the figure, and one
verdict sentence, together on the first screen (1280x800, and 1024x768 in presenter mode);
everything else below, folded.

A page uses it like this::

    from ui import lesson

    lesson.header("Feature scaling", "Change a feature's units: who changes its answer?")
    box = lesson.layout()
    with box.controls:
        factor = st.select_slider(...)          # the lesson's controls, first one first
    lesson.chart(box, figure, key="fs.lesson")  # the figure, at the lesson's height
    box.verdict(sentence)                       # one sentence computed from the figure
    with lesson.more("Every run, the tables and Theorem 1"):
        ...                                     # the rest of the page, folded

The containers carry fixed keys (``lesson-head``, ``lesson-controls``, ``lesson-figure``,
``lesson-verdict``), which the browser tests measure: the figure and the verdict must end
within the first viewport, and moving the first control must redraw a figure there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import streamlit as st

from . import presenter

__all__ = [
    "CSS",
    "FIGURE_HEIGHT",
    "PRESENTER_FIGURE_HEIGHT",
    "Lesson",
    "chart",
    "figure_height",
    "header",
    "layout",
    "more",
]

#: The lesson figure's height (px) at 1280x800: the app's header (60 px), the lesson's title
#: line (about 60 px), the figure and a two-line verdict end above 800 px.
FIGURE_HEIGHT = 440
#: The same in presenter mode on a 1024x768 projector (its text is 1.25 to 1.5 times larger:
#: a taller title and verdict).
PRESENTER_FIGURE_HEIGHT = 400
#: Share of the lesson's width for its controls (the figure takes the rest).
CONTROLS_SHARE = 0.3

#: The lesson's first screen: the page starts right under Streamlit's header (its top
#: padding is 6rem by default), the lesson's title is a line, not a banner (also over the
#: presenter's 3rem headings), and the verdict reads as the lesson's conclusion.
CSS = """
<style>
[data-testid="stMainBlockContainer"] { padding-top: 3.5rem; }
.st-key-lesson-head h1 { font-size: 1.9rem !important; padding: 0 0 0.1rem 0; }
.st-key-lesson-head [data-testid="stCaptionContainer"] { margin-top: -0.4rem; }
.st-key-lesson-verdict [data-testid="stMarkdownContainer"] p { font-weight: 600; }
.st-key-lesson-controls [data-testid="stWidgetLabel"] p { overflow-wrap: normal;
  word-break: normal; hyphens: none; }
</style>
"""


def header(title: str, lede: str | None = None) -> None:
    """The page's title on one line and, optionally, one sentence saying what the lesson
    asks (a caption). Also applies the lesson's style."""
    st.html(CSS)
    with st.container(key="lesson-head"):
        st.title(title, anchor=False)
        if lede:
            st.caption(lede)


@dataclass(frozen=True)
class Lesson:
    """The first screen's three places: ``controls`` (a column left of the figure),
    ``figure`` and the verdict under it (:meth:`verdict`)."""

    controls: Any
    figure: Any
    verdict_slot: Any

    def verdict(self, text: str, *, help: str | None = None) -> None:
        """The lesson's one verdict sentence, computed by the caller from the figure's
        numbers (shown in bold under the figure)."""
        self.verdict_slot.markdown(text, help=help)


def layout(controls_share: float = CONTROLS_SHARE) -> Lesson:
    """Draw the lesson's frame: a column of controls beside the figure, and the verdict's
    place under the figure. Call once per page, right after :func:`header`."""
    box = st.container(key="lesson")
    left, right = box.columns(
        [controls_share, 1 - controls_share], gap="medium", vertical_alignment="top"
    )
    return Lesson(
        controls=left.container(key="lesson-controls"),
        figure=right.container(key="lesson-figure"),
        verdict_slot=right.container(key="lesson-verdict"),
    )


def figure_height() -> int:
    """The lesson figure's height for the current mode (normal or presenter)."""
    return PRESENTER_FIGURE_HEIGHT if presenter.enabled() else FIGURE_HEIGHT


def chart(lesson: Lesson, figure: Any, *, key: str, **kwargs: Any) -> Any:
    """Draw ``figure`` (a plotly figure; a shared chart is drawn as cached) in the lesson's
    figure place at :func:`figure_height`, through :func:`ui.presenter.chart`."""
    from .chart import SharedChart

    if not isinstance(figure, SharedChart):
        figure = figure.update_layout(height=figure_height())
    kwargs.setdefault("width", "stretch")
    return presenter.chart(figure, where=lesson.figure, key=key, **kwargs)


def more(label: str, *, expanded: bool = False, key: str | None = None) -> Any:
    """An expander for what follows the lesson (every run, tables, theorem checks): folded
    unless ``expanded``."""
    return st.expander(label, expanded=expanded, key=key)
