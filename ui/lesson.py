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

from lab.plots.grid import rewrap_title

from . import presenter
from .shared import SharedCache

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
#: The least height of a lesson figure's plot area (px), margins aside.
MIN_PLOT_HEIGHT = 120
#: How much larger a lesson figure's text is on the projector (:func:`lab.export.
#: projector_fonts`), and the smaller factor of a figure whose legend rows would otherwise
#: leave less than MIN_PLOT_HEIGHT of plot: the legend stays in its rows in both viewports.
PROJECTOR_SCALE = 1.5
TIGHT_PROJECTOR_SCALE = 1.2
#: Characters of a lesson figure's title line: its width (about 540 px at 1280x800, 620 px
#: on the projector) in the projector's bold title font.
TITLE_CHARS = 48
#: Share of the lesson's width for its controls (the figure takes the rest).
CONTROLS_SHARE = 0.32

#: The lesson's first screen: the page starts right under Streamlit's header (its top
#: padding is 6rem by default), the lesson's title is a line, not a banner (also over the
#: presenter's 3rem headings), and the verdict reads as the lesson's conclusion.
CSS = """
<style>
[data-testid="stMainBlockContainer"] { padding-top: 4rem; }
.st-key-lesson-head h1 { font-size: 1.9rem !important; line-height: 1.3; padding: 0 0 0.2rem 0; }
.st-key-lesson-head [data-testid="stHeading"] [data-testid="stMarkdownContainer"] {
  margin-bottom: 0; }
.st-key-lesson-controls [data-testid^="stBaseButton"] p,
.st-key-lesson-head [data-testid^="stBaseButton"] p { font-size: 1rem !important; }
.st-key-lesson-head { gap: 0.1rem; }
.st-key-lesson-head [data-testid="stPageLink"] a { padding-top: 0; padding-bottom: 0; }
.st-key-lesson-verdict [data-testid="stMarkdownContainer"] p { font-weight: 600; }
.st-key-lesson-controls [data-testid="stWidgetLabel"] p { overflow-wrap: normal;
  word-break: normal; hyphens: none; }
</style>
"""
#: Presenter mode adds: no link to the Data page under the title (a projector does not
#: follow it), and the verdict in the presenter's caption size, so three lines fit.
PRESENTER_CSS = """
<style>
.st-key-lesson-head [data-testid="stPageLink"] { display: none; }
.st-key-lesson-verdict [data-testid="stMarkdownContainer"] p { font-size: 1.05rem !important; }
</style>
"""


def header(title: str, lede: str | None = None) -> Any:
    """The page's title on one line and, optionally, one sentence saying what the lesson
    asks (a caption; left out in presenter mode, where the lecturer says it); on a step of
    the Lecture, its Previous / Next beside the title (:func:`ui.lecture.nav`). Also applies
    the lesson's style. Returns the header's container, for the data caption::

        with lesson.header("Cluster", "..."):
            current = widgets.data_caption()
    """
    st.html(CSS + (PRESENTER_CSS if presenter.enabled() else ""))
    head = st.container(key="lesson-head", gap="small")
    from . import lecture

    if lecture.step_here():  # the Lecture's Previous / Next beside the title
        left, right = head.columns([3, 2], vertical_alignment="center")
        left.title(title, anchor=False)
        lecture.nav(right)
    else:
        head.title(title, anchor=False)
    if lede and not presenter.enabled():
        head.caption(lede)
    return head


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


def chart(
    lesson: Lesson, figure: Any, *, key: str, title_lines: int | None = None, **kwargs: Any
) -> Any:
    """Draw ``figure`` (a plotly figure, or a shared chart, resized on a copy) in the lesson's
    figure place at :func:`figure_height`, through :func:`ui.presenter.chart`.
    ``title_lines``: drop the title's subtitle lines after its first ``title_lines`` (what
    the verdict under the figure says), giving their room back to the plot.

    A shared chart (:func:`ui.shared.figure`: one the class shares) is resized and
    serialised once per server for each height and ``title_lines`` (:data:`_SIZED`), so a
    student's rerun copies nothing; in presenter mode (the lecturer's screen) it is resized
    on a copy for that session."""
    import copy

    from .chart import SharedChart

    kwargs.setdefault("width", "stretch")
    target = figure_height()
    if isinstance(figure, SharedChart):
        if not presenter.enabled():
            shared_chart = figure
            sized = _SIZED.get(
                (shared_chart.json, target, title_lines),
                lambda: SharedChart.of(
                    _sized(copy.deepcopy(shared_chart.figure), target, title_lines)
                ),
            )
            return presenter.chart(sized, where=lesson.figure, key=key, **kwargs)
        figure = copy.deepcopy(figure.figure)
    figure = _sized(figure, target, title_lines)
    if presenter.enabled():
        # The projector's larger text grows the figure by its margins
        # (lab.export.projector_fonts): take that growth off the plot instead, keeping at
        # least MIN_PLOT_HEIGHT of plot (else only the title's first line stays).
        from lab.export import projector_fonts

        def fitted() -> tuple[int, bool]:
            # The projector keeps the plot's height and grows the margins by `growth`: drawn
            # at `target - growth` the figure ends at `target`; its plot keeps at least
            # MIN_PLOT_HEIGHT (then the figure ends lower: `tight`).
            base = figure.update_layout(height=target).layout
            grown = projector_fonts(figure, scale=scale).layout.height or target
            least = (base.margin.t or 0) + (base.margin.b or 0) + MIN_PLOT_HEIGHT
            return max(2 * target - grown, least), 2 * target - grown < least

        scale = PROJECTOR_SCALE
        height, tight = fitted()
        if tight and _keep_title_lines(figure, 1):  # the rest is the verdict's to say
            height, tight = fitted()
        if tight and figure.layout.legend.orientation == "h":
            # The legend keeps its rows where they are at 1280x800 (moved beside the plot it
            # squeezed the plot to a strip): the figure's text a little smaller instead.
            scale = TIGHT_PROJECTOR_SCALE
            height, tight = fitted()
        kwargs["font_scale"] = scale
        figure = figure.update_layout(height=height)
        _fit_y_title(figure, height)
    return presenter.chart(figure, where=lesson.figure, key=key, **kwargs)


def _sized(figure: Any, height: int, title_lines: int | None) -> Any:
    """``figure`` at ``height`` with its title rewrapped for the lesson's width and cut to
    ``title_lines`` (in place)."""
    # The lesson's figure is wider than a panel of three to a row: its title on fewer lines.
    figure = rewrap_title(figure, TITLE_CHARS, TITLE_CHARS + 12).update_layout(height=height)
    if title_lines:
        _keep_title_lines(figure, title_lines)
    return figure


#: Shared lesson figures at a lesson's height, keyed by the shared chart's JSON (the same
#: string object for every session: hashed once), the height and ``title_lines``.
_SIZED = SharedCache("ui.lesson.chart", max_entries=64)


#: The projector's axis titles: about this many pixels a character (1.5 times 12 px text).
_Y_TITLE_CHAR_PX = 10


def _fit_y_title(figure: Any, height: int) -> None:
    """A y axis title longer than the plot is tall runs into the figure's title: keep what
    comes before its parenthesis ("main residual direction (11% of the variance)")."""
    title = figure.layout.yaxis.title.text or ""
    plot = height - (figure.layout.margin.t or 0) - (figure.layout.margin.b or 0)
    if " (" in title and len(title) * _Y_TITLE_CHAR_PX > plot:
        figure.update_yaxes(title_text=title.split(" (")[0])


def _keep_title_lines(figure: Any, lines: int) -> bool:
    """Drop the title's subtitle lines (``<sup>``) after its first ``lines`` (a main title
    wrapped over several lines stays whole); the top margin shrinks in proportion. Whether
    any line was dropped."""
    parts = (figure.layout.title.text or "").split("<br>")
    kept = [p for i, p in enumerate(parts) if i < lines or not p.startswith("<sup>")]
    if len(kept) == len(parts):
        return False
    top = figure.layout.margin.t
    figure.update_layout(title_text="<br>".join(kept))
    if top:
        figure.update_layout(margin_t=round(top * len(kept) / len(parts)) + 24)
    return True


def more(label: str, *, expanded: bool = False, key: str | None = None) -> Any:
    """An expander for what follows the lesson (every run, tables, theorem checks): folded
    unless ``expanded``."""
    return st.expander(label, expanded=expanded, key=key)
