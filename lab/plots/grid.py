"""Small multiples: one figure of a grid of panels (three to a row at 1280 px) made readable.

A panel a third of the page wide has room for about 40 characters of title and a few
legend entries per row; :func:`grid_panel` wraps the long titles (figure and axes) onto
several lines and moves the legend below the x axis title, so nothing overlaps or clips.
"""

from __future__ import annotations

import re

import plotly.graph_objects as go

from lab.plots.style import TEMPLATE, relayout

__all__ = [
    "fit_title",
    "grid_panel",
    "grow_margins",
    "iteration_dtick",
    "legend_below",
    "legend_rows",
    "objective_grid",
    "objective_trace",
    "rewrap_title",
    "tidy_layout",
    "two_panels",
    "wrap_axis_titles",
    "wrap_title",
]

_TAG = re.compile(r"(<br>|<sup>|</sup>)")
_HTML = re.compile(r"<[^>]+>")

#: Pixels of one legend row, and what an entry takes besides its text (the symbol and gaps).
_LEGEND_ROW = 20
_ENTRY_EXTRA = 44
#: Below the plot area: the tick labels and the gap to the x axis title, and one title line.
_TICKS = 34
_TITLE_LINE = 18


def _legend_names(fig: go.Figure) -> list[str]:
    """The text of every legend entry plotly will draw (none for a lone trace by default)."""
    if fig.layout.showlegend is False:
        return []
    shown = [t for t in fig.data if t.showlegend is not False and t.name]
    if fig.layout.showlegend is None and len(fig.data) < 2:
        return []
    return [_HTML.sub("", str(t.name)) for t in shown]


def legend_rows(names, width: float, font_size: float = 13) -> int:
    """Rows a horizontal legend of ``names`` takes in ``width`` pixels (greedy, as plotly
    wraps; text width estimated at 0.52 em a character).

    >>> legend_rows(["cluster 0", "cluster 1"], 400), legend_rows(["a" * 40] * 3, 400)
    (1, 3)
    """
    rows, used = 0, None
    for name in names:
        w = _ENTRY_EXTRA + 0.52 * font_size * len(name)
        if used is None or used + w > width:
            rows, used = rows + 1, w
        else:
            used += w
    return rows


def legend_below(fig: go.Figure, *, width: float = 400, x_title_lines: int | None = None):
    """Put ``fig``'s legend under its x axis title, never on it (in place; returned).

    The legend sits at the bottom of the figure (``yref="container"``) and the bottom margin
    holds, from the top, the tick labels, the x axis title and the legend's rows, estimated
    for a figure ``width`` pixels wide (narrower than the real one errs on the safe side:
    a few empty pixels); the figure grows by the legend's rows so the plot area keeps its
    size. A legend at a fraction of the plot height below it (``y=-0.2``) lands on the axis
    title once the figure is short (330 px on the Learn page). Idempotent: the height
    without the legend is kept in ``layout.meta["base_height"]``.
    """
    layout = fig.layout
    meta = dict(layout.meta) if isinstance(layout.meta, dict) else {}
    base = meta.get("base_height", layout.height or 450)
    font = (layout.legend.font.size if layout.legend and layout.legend.font else None) or (
        layout.font.size if layout.font and layout.font.size else 13
    )
    if x_title_lines is None:
        title = layout.xaxis.title.text if layout.xaxis and layout.xaxis.title else None
        x_title_lines = (title.count("<br>") + 1) if title else 0
    rows = legend_rows(_legend_names(fig), width, font)
    bottom = _TICKS + _TITLE_LINE * x_title_lines + (_LEGEND_ROW * rows + 8 if rows else 0)
    relayout(
        fig,
        margin={"b": max(bottom, 40)},
        legend={
            "orientation": "h",
            "yref": "container",
            "y": 0,
            "yanchor": "bottom",
            "xanchor": "left",
            "x": 0,
        },
        height=base + _LEGEND_ROW * rows,
        meta={**meta, "base_height": base},
    )
    return fig


def _wrap_plain(text: str, width: int) -> list[str]:
    lines, line = [], ""
    for word in text.split(" "):
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return lines


def wrap_title(text: str, width: int = 42, sup_width: int | None = None) -> str:
    """``text`` with lines longer than ``width`` characters broken at spaces; plotly's
    ``<br>`` and ``<sup>…</sup>`` are kept (a superscript is closed and reopened around
    each break); ``sup_width``, if given, is the width of superscript lines.

    Examples
    --------
    >>> wrap_title("MSP 0.849<br><sup>Theorem 5 (MSP 0.849): at least 26% beyond</sup>", 20)
    'MSP 0.849<br><sup>Theorem 5 (MSP</sup><br><sup>0.849): at least 26%</sup><br><sup>beyond</sup>'
    >>> wrap_title("short")
    'short'
    """
    out: list[str] = []
    sup = False
    for part in _TAG.split(text):
        if part == "<sup>":
            sup = True
        elif part == "</sup>":
            sup = False
        elif part == "<br>" or not part:
            continue
        else:
            pieces = _wrap_plain(part, sup_width or width if sup else width)
            out.extend(f"<sup>{p}</sup>" if sup else p for p in pieces)
    return "<br>".join(out)


def _split_subtitle(text: str) -> tuple[str, str]:
    """A wrapped title's plain lines and its ``<sup>`` lines (without the tags), each
    joined by ``<br>``: plotly draws a ``<sup>`` at 70 % of the title's size (9 px under a
    13 px panel title), so a panel's sub-lines go to ``title.subtitle`` at their own size.

    >>> _split_subtitle("MSP 0.849<br><sup>Theorem 5</sup><br><sup>holds</sup>")
    ('MSP 0.849', 'Theorem 5<br>holds')
    """
    lines = text.split("<br>")
    sub = [x for x in lines if x.startswith("<sup>") and x.endswith("</sup>")]
    main = [x for x in lines if x not in sub]
    return "<br>".join(main), "<br>".join(x[5:-6] for x in sub)


def _panel_top(lines: list[str]) -> int:
    """The top margin of a :func:`grid_panel` whose wrapped title has ``lines`` (the
    ``<sup>`` ones drawn as its subtitle, which plotly starts 1.6 of its size below the
    title: 18 px, where a line takes 15).

    >>> _panel_top(["MSP 0.9"]), _panel_top(["MSP 0.9", "<sup>Theorem 5</sup>"])
    (36, 56)
    """
    sub = sum(1 for x in lines if x.startswith("<sup>"))
    return _title_margin(lines, line=18, sup=15) + (2 * 3 if sub else 0)


def _title_margin(lines: list[str], line: int = 26, sup: int = 19) -> int:
    """The top margin that holds a title of ``lines`` (plotly centres the first baseline in
    the margin; ``sup`` pixels for a superscript line, ``line`` for another, enough for
    presenter mode's fonts, 1.25 times larger)."""
    below = sum(sup if "<sup>" in x or "</sup>" in x else line for x in lines[1:])
    return 2 * max(line, below + 10)


def rewrap_title(fig: go.Figure, width: int, sup_width: int | None = None) -> go.Figure:
    """Wrap ``fig``'s title as written (before :func:`tidy_layout` wrapped it for a panel
    400 px wide) at ``width`` characters, for a wider figure such as a lesson's; the top
    margin shrinks by the lines saved, and the figure with it (in place; returned).

    >>> fig = go.Figure(layout={"title": {"text": "MSP 0.825 · held-out 0.812 · accuracy 0.974"}})
    >>> tidy_layout(fig).layout.title.text.count("<br>")
    1
    >>> rewrap_title(fig, 48).layout.title.text.count("<br>")
    0
    """
    layout = fig.layout
    meta = layout.meta if isinstance(layout.meta, dict) else {}
    if not meta.get("title") or not layout.title.text:
        return fig
    before = layout.title.text.split("<br>")
    after = wrap_title(meta["title"], width, sup_width).split("<br>")
    if len(after) >= len(before):
        return fig
    saved = _title_margin(before) - _title_margin(after)
    top = layout.margin.t if layout.margin.t is not None else 80
    relayout(
        fig,
        title={"text": "<br>".join(after)},
        margin={"t": max(top - saved, 40)},
        height=(layout.height or 450) - min(saved, top - 40),
    )
    return fig


def fit_title(fig: go.Figure) -> go.Figure:
    """Give ``fig``'s title the top margin its lines need (in place; returned).

    Plotly puts the title's first baseline at the middle of the top margin and the other
    lines below it, so a two- or three-line title (Theorem 5's guarantee over the margin
    histogram) ran into the plot area and its annotations. Leading empty lines are dropped
    and the top margin grows (never shrinks: subplot titles live there too) until the last
    line ends above the plot.
    """
    layout = fig.layout
    text = layout.title.text if layout.title and layout.title.text else ""
    lines = text.split("<br>")
    while lines and not _HTML.sub("", lines[0]).strip():
        lines.pop(0)
    if not lines:
        return fig
    # Subplot titles sit just above the plot area, in the same margin: one more line.
    subplot_titles = any(
        a.yref == "paper" and a.y is not None and a.y >= 1 for a in layout.annotations or ()
    )
    needed = _title_margin([*lines, ""] if subplot_titles else lines)
    current = layout.margin.t if layout.margin and layout.margin.t is not None else 80
    # The figure grows by what the margin grows, so the plot area keeps its height.
    grow = max(0, needed - current)
    relayout(
        fig,
        title={"text": "<br>".join(lines)},
        margin={"t": current + grow},
        height=(layout.height or 450) + grow,
    )
    return fig


#: Characters of a title line (at about 10 px a character in presenter mode's larger fonts,
#: a figure half a 1280 px page wide) and of a superscript line.
_TITLE_CHARS = 40
_SUP_CHARS = 52


def wrap_axis_titles(fig: go.Figure, *, width: float = 400) -> go.Figure:
    """Break axis titles longer than their axis onto several lines (in place; returned): a
    y title longer than a short plot ran into the figure title ("main residual direction
    (10% of the variance)" over 250 px in presenter mode)."""
    layout = fig.layout
    height = layout.height or 450
    top = layout.margin.t if layout.margin and layout.margin.t is not None else 80
    # The plot's width and height, at about 8 px a character (presenter mode's fonts).
    lengths = {"xaxis": (width - 40) / 8, "yaxis": (height - top - 80) / 8}
    for axis, chars in lengths.items():
        ax = getattr(layout, axis)
        if ax and ax.title and ax.title.text:
            chars = max(16, int(chars))
            relayout(fig, {axis: {"title": {"text": wrap_title(ax.title.text, chars)}}})
    return fig


def tidy_layout(fig: go.Figure, *, width: float = 400) -> go.Figure:
    """The layout of every single-panel figure: titles wrapped to fit a figure ``width``
    pixels wide in presenter mode's fonts (:func:`wrap_axis_titles`, :func:`fit_title`),
    the legend under the x axis title (:func:`legend_below`) and bar labels hidden rather
    than overlapping."""
    layout = fig.layout
    if layout.title and layout.title.text:
        meta = dict(layout.meta) if isinstance(layout.meta, dict) else {}
        # The title as written, for grid_panel to wrap at its own width.
        meta.setdefault("title", layout.title.text)
        text = wrap_title(meta["title"], _TITLE_CHARS, _SUP_CHARS)
        relayout(fig, title={"text": text}, meta=meta)
    if any(t.type == "bar" and t.text is not None for t in fig.data):
        relayout(fig, uniformtext={"minsize": 9, "mode": "hide"})
    fit_title(fig)
    wrap_axis_titles(fig, width=width)
    return legend_below(fig, width=width)


def grow_margins(fig: go.Figure, **least: int) -> go.Figure:
    """Raise ``fig``'s margins to at least ``least`` (``l``, ``r``, ``t``, ``b`` in pixels)
    and grow the figure by what the top and bottom margins grew, so the plot area keeps its
    height (in place; returned). For figures whose text has a fixed size: margins set to
    what plotly's automargin would grow them to spare Chromium a second layout pass."""
    margin = fig.layout.margin
    new = {k: max(int(v), getattr(margin, k) or 0) for k, v in least.items()}
    grow = sum(new[k] - (getattr(margin, k) or 0) for k in ("t", "b") if k in new)
    relayout(fig, margin=new, height=(fig.layout.height or 450) + grow)
    return fig


def _base_height(layout, default: int) -> int:
    meta = layout.meta if isinstance(layout.meta, dict) else {}
    return meta.get("base_height", layout.height or default)


def _tick_chars(lo: float, hi: float, n: int = 10) -> int:
    """Characters of the longest tick label on an axis from ``lo`` to ``hi`` at a 1-2-5
    step giving at most ``n`` intervals (plotly aims at up to 10 on a tall axis, fewer on a
    short one: the estimate errs on the long side).

    >>> _tick_chars(-2.55, 3.88), _tick_chars(-2.3, 1.9), _tick_chars(0.0, 683.0)
    (2, 4, 3)
    """
    import math

    span = hi - lo
    if not (math.isfinite(span) and span > 0):
        return 4
    raw = span / n
    mag = 10.0 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw * (1 - 1e-9))
    decimals = max(0, -math.floor(math.log10(step) + 1e-9))
    first = math.ceil(lo / step - 1e-9)
    last = math.floor(hi / step + 1e-9)
    labels = [f"{k * step:.{decimals}f}" for k in range(first, last + 1)] or ["0"]
    return max(len(label) for label in labels)


def _y_extent(fig: go.Figure) -> tuple[float, float]:
    """The y axis' range: the layout's, else the data's (a histogram's counts are at most
    its number of samples)."""
    import numpy as np

    yr = fig.layout.yaxis.range if fig.layout.yaxis else None
    if yr is not None and len(yr) == 2 and None not in yr:
        return float(yr[0]), float(yr[1])
    lo, hi = np.inf, -np.inf
    for t in fig.data:
        if t.type == "histogram":
            lo, hi = min(lo, 0.0), max(hi, float(np.size(t.x)))
        elif getattr(t, "y", None) is not None and np.size(t.y):
            y = np.asarray(t.y, dtype=float)
            lo, hi = min(lo, float(np.nanmin(y))), max(hi, float(np.nanmax(y)))
    return (lo, hi) if lo < hi else (0.0, 1.0)


#: What plotly's automargin needs around a panel's plot area (pixels, measured in Chromium
#: with the Streamlit theme's 12 px tick labels and 11 px axis titles, rounded up): below
#: it the tick labels, their gap and the first x-title line; left of it the ticks' gap,
#: each tick-label character and, for a y title, its standoff and each of its lines.
_BELOW_PLOT = 66
_LEFT_FIXED, _LEFT_TICK_CHAR, _LEFT_TITLE, _LEFT_TITLE_LINE = 17, 7, 22, 15


def _left_margin(tick_chars: int, title_lines: int) -> int:
    title = _LEFT_TITLE + _LEFT_TITLE_LINE * title_lines if title_lines else 0
    return _LEFT_FIXED + _LEFT_TICK_CHAR * tick_chars + title


#: One row of a vertical legend: with a marker symbol, and with a line or bar sample.
_ROW_MARKER, _ROW_PLAIN, _LEGEND_PAD = 20, 19, 10


def _has_marker_sample(trace) -> bool:
    mode = getattr(trace, "mode", None)
    return trace.type in ("scatter", "scattergl") and (mode is None or "markers" in mode)


def grid_panel(fig: go.Figure, *, width: int = 42) -> go.Figure:
    """Make ``fig`` readable as a panel a third of a 1280 px page wide (in place; returned).

    Wraps the figure's and the axes' titles at ``width`` characters, gives the top margin
    room for the title's lines and puts the legend, one entry a row, under the x axis
    title. The margins are what plotly's automargin would grow them to (tick labels, axis
    titles, legend), so plotly lays the panel out once instead of drawing it, growing the
    margins and drawing it again (the second pass was half of a panel's drawing time in
    Chromium); the figure grows by the legend's rows so the plot area keeps its height.
    """
    layout = fig.layout
    title_lines = [""]
    if layout.title and layout.title.text:
        meta = layout.meta if isinstance(layout.meta, dict) else {}
        wrapped = wrap_title(meta.get("title", layout.title.text), width)
        title_lines = wrapped.split("<br>")
        main, sub = _split_subtitle(wrapped)
        title = {"text": main, "font": {"size": 13}}
        if sub:
            title["subtitle"] = {"text": sub, "font": {"size": 11}}
        relayout(fig, title=title)
    x_lines, y_lines = 1, 0
    for axis in ("xaxis", "yaxis"):
        ax = getattr(layout, axis)
        if ax and ax.title and ax.title.text:
            wrapped = wrap_title(ax.title.text, width)
            if axis == "xaxis":
                x_lines = wrapped.count("<br>") + 1
            else:
                y_lines = wrapped.count("<br>") + 1
            relayout(fig, {axis: {"title": {"text": wrapped, "font": {"size": 11}}}})
    shown = [t for t in fig.data if t.showlegend is not False and t.name]
    if fig.layout.showlegend is False or (fig.layout.showlegend is None and len(fig.data) < 2):
        shown = []
    row = _ROW_MARKER if any(_has_marker_sample(t) for t in shown) else _ROW_PLAIN
    legend = _LEGEND_PAD + row * len(shown) if shown else 0
    below = _BELOW_PLOT + 16 * (x_lines - 1)
    left = _left_margin(_tick_chars(*_y_extent(fig)), y_lines)
    relayout(
        fig,
        margin={
            "t": _panel_top(title_lines),
            "b": below + legend,
            "l": left,
            "r": 16,
        },
        legend={
            "orientation": "v",
            "tracegroupgap": 0,
            "yanchor": "bottom",
            "y": 0,
            "yref": "container",
            "xanchor": "left",
            "x": 0,
            "font": {"size": 11},
        },
        height=_base_height(layout, 420) + legend + 16 * (x_lines - 1),
    )
    return fig


def objective_trace(name: str, index: int, values) -> go.Scatter:
    """One method's objective at each iteration (line with markers, iterations from 1), in
    the method's colour (:func:`lab.plots.style.series_color`): the trace of
    :func:`objective_grid` and of :func:`lab.plots.clusters.objective_plot`."""
    import numpy as np

    from lab.plots.style import series_color

    values = np.asarray(values, dtype=np.float64).ravel()
    return go.Scatter(
        x=np.arange(1, values.size + 1),
        y=values,
        mode="lines+markers",
        name=name,
        line={"color": series_color(name, index), "width": 2},
        marker={"size": 8},
    )


def iteration_dtick(n_iterations: int) -> int | None:
    """A tick per iteration up to 20 iterations, plotly's choice beyond."""
    return 1 if n_iterations <= 20 else None


def objective_range(values, least: float = 0.01) -> list[float]:
    """A y range for an objective's course that spans at least ``least`` of its size
    (relative, at least ``least`` absolute), so that a rise of 0.0002 on 0.8886 does not fill
    the panel as if it were steep: ``[0.8831, 0.8941]`` rather than ``[0.8885, 0.8887]``.

    Examples
    --------
    >>> [round(v, 4) for v in objective_range([0.8885, 0.8887])]
    [0.8831, 0.8941]
    >>> objective_range([0.0, 10.0])
    [-0.5, 10.5]
    """
    import numpy as np

    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    if not v.size:
        return [0.0, 1.0]
    low, high = float(v.min()), float(v.max())
    span = max(high - low, least * max(abs(low), abs(high)), least)
    middle = (low + high) / 2
    half = max(span / 2, (high - low) / 2) * 1.1
    return [middle - half, middle + half]


def objective_grid(histories, *, per_row: int = 3, height_per_row: int = 260) -> go.Figure:
    """One small panel per method: its objective at each iteration (line with markers), each
    on its own y axis (the methods' objectives have different scales), in rows of at most
    ``per_row``, each y axis spanning at least 1 % of its values (:func:`objective_range`).
    Methods with fewer than two values are left out.

    Examples
    --------
    >>> fig = objective_grid({"MSPC (MPM)": [0.5, 0.7], "MSPC (EIG)": [3.0]})
    >>> [t.name for t in fig.data], fig.layout.annotations[0].text
    (['MSPC (MPM)'], 'MSPC (MPM)')
    """
    import numpy as np
    from plotly.subplots import make_subplots

    # A method with a single value (MSPC (EIG): one eigenproblem, no iterations) has no
    # course to draw: it is left out (the page's caption gives its value).
    items = [
        (name, np.asarray(v, dtype=float).ravel())
        for name, v in histories.items()
        if np.size(v) > 1
    ]
    n = max(len(items), 1)
    cols = min(per_row, n)
    rows = -(-n // cols)
    fig = make_subplots(
        rows=rows,
        cols=cols,
        subplot_titles=[name for name, _ in items],
        horizontal_spacing=0.08,
        vertical_spacing=0.5 / rows if rows > 1 else 0.0,
    )
    for i, (name, values) in enumerate(items):
        r, c = divmod(i, cols)
        trace = objective_trace(name, i, values)
        trace.showlegend = False
        fig.add_trace(trace, row=r + 1, col=c + 1)
        fig.update_xaxes(
            title_text="iteration", dtick=iteration_dtick(values.size), row=r + 1, col=c + 1
        )
        fig.update_yaxes(range=objective_range(values), row=r + 1, col=c + 1)
    relayout(
        fig,
        template=TEMPLATE,
        height=height_per_row * rows + 40,
        # The margins plotly's automargin would grow to (see grid_panel): one layout pass.
        margin={
            "t": 40,
            "b": _BELOW_PLOT + 2,
            # Only the first column's tick labels sit in the left margin.
            "l": _left_margin(
                _tick_chars(float(items[0][1].min()), float(items[0][1].max())) if items else 4, 0
            ),
            "r": 16,
        },
        font={"size": 12},
    )
    return fig


def two_panels(titles: tuple[str, str]) -> dict:
    """The layout ``make_subplots(rows=1, cols=2, subplot_titles=titles)`` starts from."""
    title = {"font": {"size": 16}, "showarrow": False, "xref": "paper", "yref": "paper",
             "xanchor": "center", "yanchor": "bottom", "y": 1.0}  # fmt: skip
    return {
        "xaxis": {"anchor": "y", "domain": [0.0, 0.45]},
        "yaxis": {"anchor": "x", "domain": [0.0, 1.0]},
        "xaxis2": {"anchor": "y2", "domain": [0.55, 1.0]},
        "yaxis2": {"anchor": "x2", "domain": [0.0, 1.0]},
        "annotations": [
            {**title, "text": titles[0], "x": 0.225},
            {**title, "text": titles[1], "x": 0.775},
        ],
        "template": TEMPLATE,
    }
