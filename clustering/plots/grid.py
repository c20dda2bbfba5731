"""Small multiples: one figure of a grid of panels (three to a row at 1280 px) made readable.

A panel a third of the page wide has room for about 40 characters of title and a few
legend entries per row; :func:`grid_panel` wraps the long titles (figure and axes) onto
several lines and moves the legend below the x axis title, so nothing overlaps or clips.
"""

from __future__ import annotations

import re

import plotly.graph_objects as go

__all__ = ["grid_panel", "objective_grid", "wrap_title"]

_TAG = re.compile(r"(<br>|<sup>|</sup>)")


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


def wrap_title(text: str, width: int = 42) -> str:
    """``text`` with lines longer than ``width`` characters broken at spaces; plotly's
    ``<br>`` and ``<sup>…</sup>`` are kept (a superscript is closed and reopened around
    each break).

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
            pieces = _wrap_plain(part, width)
            out.extend(f"<sup>{p}</sup>" if sup else p for p in pieces)
    return "<br>".join(out)


def grid_panel(fig: go.Figure, *, width: int = 42) -> go.Figure:
    """Make ``fig`` readable as a panel a third of a 1280 px page wide (in place; returned).

    Wraps the figure's and the axes' titles at ``width`` characters, gives the top margin
    room for the title's lines and puts the legend under the x axis title with the bottom
    margin it needs.
    """
    layout = fig.layout
    n_title = 1
    if layout.title and layout.title.text:
        wrapped = wrap_title(layout.title.text, width)
        n_title = wrapped.count("<br>") + 1
        fig.update_layout(title={"text": wrapped, "font": {"size": 13}})
    x_lines = 1
    for axis in ("xaxis", "yaxis"):
        ax = getattr(layout, axis)
        if ax and ax.title and ax.title.text:
            wrapped = wrap_title(ax.title.text, width)
            if axis == "xaxis":
                x_lines = wrapped.count("<br>") + 1
            fig.update_layout({axis: {"title": {"text": wrapped, "font": {"size": 11}}}})
    n_legend = sum(1 for t in fig.data if t.showlegend is not False)
    legend_rows = (n_legend + 1) // 2
    fig.update_layout(
        margin={
            "t": 30 + 18 * n_title,
            "b": 40 + 16 * x_lines + 20 * legend_rows,
            "l": 55,
            "r": 10,
        },
        legend={
            "orientation": "h",
            "yanchor": "bottom",
            "y": 0,
            "yref": "container",
            "xanchor": "left",
            "x": 0,
            "font": {"size": 11},
        },
        height=(layout.height or 420) + 20 * legend_rows,
    )
    return fig


def objective_grid(histories, *, per_row: int = 3, height_per_row: int = 260) -> go.Figure:
    """One small panel per method: its objective at each iteration (line with markers), each
    on its own y axis (the methods' objectives have different scales), in rows of at most
    ``per_row``. Methods with an empty history are left out.

    Examples
    --------
    >>> fig = objective_grid({"MSPC (MPM)": [0.5, 0.7], "k-means": [3.0]})
    >>> [t.name for t in fig.data], fig.layout.annotations[0].text
    (['MSPC (MPM)', 'k-means'], 'MSPC (MPM)')
    """
    import numpy as np
    from plotly.subplots import make_subplots

    from .clusters import TEMPLATE
    from .style import series_color

    items = [
        (name, np.asarray(v, dtype=float).ravel()) for name, v in histories.items() if np.size(v)
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
        fig.add_trace(
            go.Scatter(
                x=np.arange(1, values.size + 1),
                y=values,
                mode="lines+markers",
                name=name,
                line={"color": series_color(name, i), "width": 2},
                marker={"size": 8},
                showlegend=False,
            ),
            row=r + 1,
            col=c + 1,
        )
        fig.update_xaxes(
            title_text="iteration", dtick=1 if values.size <= 20 else None, row=r + 1, col=c + 1
        )
    fig.update_layout(
        template=TEMPLATE,
        height=height_per_row * rows + 40,
        margin={"t": 40, "b": 50, "l": 55, "r": 10},
        font={"size": 12},
    )
    return fig
