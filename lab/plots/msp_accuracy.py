"""The MSP vs accuracy figure: an MSP against accuracy, one point per run or task, with the
least-squares line of each family drawn where it stays within accuracy [0, 1] (the MSPC
paper's Fig. 3). Both axes are fractions, as the lab's tables write them.

Pure plotly, pandas and numpy; never imports streamlit.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from lab.experiments.protocols import fit_line, pearson
from lab.plots._common import _LAYOUT, MARKERS, WEBGL_THRESHOLD, _color, _empty, msp_range
from lab.plots.grid import tidy_layout
from lab.plots.style import PAPER, relayout, series_color

__all__ = ["line_within_unit", "msp_accuracy_figure"]


def msp_accuracy_figure(
    table: pd.DataFrame,
    *,
    x: str = "msp",
    y: str = "accuracy",
    name: str = "name",
    title: str = "MSP against clustering accuracy",
    highlight: Sequence[str] = (),
    height: int = 460,
    x_label: str = "MSP",
    group: str | None = None,
) -> go.Figure:
    """Scatter of an MSP (x) against accuracy (y), one point per run, with the fitted line.

    Both axes are fractions in [0, 1], as the lab's tables write them, so the line's
    equation reads in the units of the axes. The least-squares line is drawn only where it
    stays within accuracy [0, 1], over the range of the points' MSPs.

    Parameters
    ----------
    table : DataFrame
        One row per run with columns ``x``, ``y`` and ``name`` (e.g. from
        :func:`lab.experiments.protocols.msp_accuracy_family`, or a ``lam_sweep`` table with
        ``name`` set to the ``lam``); rows with NaN are left out.
    x, y, name : str
        Column names.
    title : str
        Without ``group``, Pearson's r and the number of points are appended.
    highlight : sequence of str
        Names of points to mark with a star (e.g. the ``lam`` chosen by MSP).
    height : int
    x_label : str, default="MSP"
        What the x column is ("held-out MSP", "in-sample MSP"): the hover text and the x
        axis title.
    group : str or None
        A column naming each point's family: one colour, one line and one r per family
        (in the legend).

    Returns
    -------
    go.Figure
        WebGL (``go.Scattergl``) above ``WEBGL_THRESHOLD`` points.
    """
    if table is None or table.empty:
        return _empty(title, "No runs to plot.", height)
    columns = [name, x, y] + ([group] if group else [])
    data = table[columns].copy()
    data = data[np.isfinite(data[x].astype(float)) & np.isfinite(data[y].astype(float))]
    if data.empty:
        return _empty(title, "Every run failed or has no accuracy (no true classes).", height)
    trace = go.Scattergl if len(data) > WEBGL_THRESHOLD else go.Scatter
    fig = go.Figure()
    groups = list(dict.fromkeys(data[group])) if group else [None]
    for i, g in enumerate(groups):
        sub = data if g is None else data[data[group] == g]
        # A family named after a method (MSPC (MPM), MSPC (EIG)) in that method's colour.
        color = _color(i) if g is None else series_color(str(g), i)
        r = pearson(sub[x], sub[y])
        r_text = "r undefined" if np.isnan(r) else f"r = {r:.2f}"
        label = "runs" if g is None else f"{g} ({len(sub)}, {r_text})"
        fig.add_trace(
            trace(
                x=sub[x],
                y=sub[y].astype(float),
                mode="markers",
                name=label,
                legendgroup=str(i),
                text=sub[name].astype(str),
                marker={
                    "color": color,
                    "symbol": MARKERS[i % len(MARKERS)],
                    "size": 9,
                    "line": {"width": 1, "color": PAPER},
                },
                hovertemplate=f"<b>%{{text}}</b><br>{x_label} %{{x:.3f}}<br>"
                "accuracy %{y:.3f}<extra></extra>",
            )
        )
        slope, intercept = fit_line(sub[x], sub[y])
        xs = line_within_unit(slope, intercept, float(sub[x].min()), float(sub[x].max()))
        if xs is not None:
            fig.add_trace(
                go.Scatter(
                    x=xs,
                    y=slope * xs + intercept,
                    mode="lines",
                    name=f"least squares: accuracy = {slope:.2f}·MSP {intercept:+.2f}",
                    legendgroup=str(i),
                    showlegend=g is None,
                    line={
                        "color": color if g is not None else _color(3),
                        "dash": "dash",
                        "width": 2,
                    },
                    hoverinfo="skip",
                )
            )
    marked = data[data[name].astype(str).isin([str(h) for h in highlight])]
    if not marked.empty:
        fig.add_trace(
            go.Scatter(
                x=marked[x],
                y=marked[y].astype(float),
                mode="markers",
                name="highlighted",
                text=marked[name].astype(str),
                marker={"symbol": "star", "size": 16, "color": _color(1)},
                hovertemplate=f"<b>%{{text}}</b><br>{x_label} %{{x:.3f}}<br>"
                "accuracy %{y:.3f}<extra></extra>",
            )
        )
    if group is None:
        r = pearson(data[x], data[y])
        r_text = "r undefined (fewer than 3 points or no spread)" if np.isnan(r) else f"r = {r:.2f}"
        title = f"{title} — Pearson {r_text}, {len(data)} points"
    relayout(
        fig,
        **_LAYOUT,
        title={"text": title},
        height=height,
        xaxis={"title": f"{x_label} (no labels needed)", "range": msp_range(data[x])},
        yaxis={"title": "clustering accuracy", "range": msp_range(data[y])},
        hovermode="closest",
    )
    # A point at MSP or accuracy 1 sits on the axis' end: drawn whole, not cut in half.
    fig.update_traces(cliponaxis=False, selector={"type": "scatter"})
    tidy_layout(fig)
    return fig


def line_within_unit(slope: float, intercept: float, lo: float, hi: float) -> np.ndarray | None:
    """The x values (50, from ``lo`` to ``hi`` or less) where ``slope * x + intercept``
    lies in [0, 1]; ``None`` if nowhere or the line is undefined.

    Examples
    --------
    >>> xs = line_within_unit(2.0, -0.5, 0.0, 1.0)
    >>> float(xs[0]), float(xs[-1])
    (0.25, 0.75)
    """
    if not (np.isfinite(slope) and np.isfinite(intercept) and hi >= lo):
        return None
    if slope != 0:
        ends = sorted(((0.0 - intercept) / slope, (1.0 - intercept) / slope))
        lo, hi = max(lo, ends[0]), min(hi, ends[1])
    elif not 0.0 <= intercept <= 1.0:
        return None
    if hi < lo:
        return None
    return np.linspace(lo, hi, 50)
