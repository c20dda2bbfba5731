"""The comparison grid's figure: small multiples, rows = data sets, columns = methods.

Every panel of a row shares that row's axes (same data, same view), so only the clustering
changes from panel to panel; accuracy, MSP and time sit in each panel's top-left corner.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from lab.plots.clusters import MISCLUSTERED_COLOR, matched_classes, misclustered
from lab.plots.style import (
    DARK_GREY,
    ERROR_RED,
    LABEL_BACKDROP,
    MID_GREY,
    OKABE_ITO,
    TEMPLATE,
    method_name,
    relayout,
)

__all__ = ["compare_figure"]


#: Room above the points for a panel's two-line corner text, as a share of their y span.
CORNER_ROOM = 0.3


def _padded(v: np.ndarray, top: float = 0.0) -> list[float]:
    """The range of ``v`` with 6 % padding each side and ``top`` (a share of the span)
    more above."""
    lo, hi = float(np.min(v)), float(np.max(v))
    pad = 0.06 * (hi - lo) if hi > lo else 1.0
    return [lo - pad, hi + pad + top * (hi - lo)]


def compare_figure(
    rows: Sequence[tuple[str, np.ndarray, np.ndarray | None]],
    methods: Sequence[str],
    cells,
    *,
    panel_height: int = 210,
    font_size: int = 12,
) -> go.Figure:
    """The grid of scatters.

    Parameters
    ----------
    rows : sequence of (name, coords, y)
        Each data set's display name, its 2-D coordinates (``n x 2``) and true classes.
    methods : sequence of str
        Registry keys, one per column (titled with :func:`~lab.plots.style.method_name`).
    cells : list of list of CompareCell
        From :func:`lab.compare.compare_grid` (``cells[i][j]``: row ``i``, method ``j``).
    panel_height : int, default=210
        Height of one row in pixels.
    font_size : int, default=12
        Size of the titles; the corner texts are one point smaller (presenter mode passes
        a larger size).

    Returns
    -------
    go.Figure
        One scatter trace per panel (colour = cluster), a ring trace for the misclustered
        points, and one corner annotation per panel.
    """
    n_rows, n_cols = len(rows), len(methods)
    fig = make_subplots(
        rows=n_rows,
        cols=n_cols,
        column_titles=[method_name(k) for k in methods],
        row_titles=[name for name, _, _ in rows],
        horizontal_spacing=0.02,
        vertical_spacing=0.035,
    )
    for i, (_, coords, y) in enumerate(rows):
        coords = np.asarray(coords, dtype=float)
        # the corner text sits above the points, not over them
        xr, yr = _padded(coords[:, 0]), _padded(coords[:, 1], top=CORNER_ROOM)
        small = coords.shape[0] <= 2000
        for j, _key in enumerate(methods):
            cell = cells[i][j]
            r, c = i + 1, j + 1
            if cell.labels is not None:
                labels = np.asarray(cell.labels)
                clusters, codes = np.unique(labels, return_inverse=True)
                if y is not None:
                    # A cluster takes the colour of the class it matches, so colours agree
                    # across the panels of a row (cluster numbers are arbitrary).
                    classes = np.unique(np.asarray(y)).tolist()
                    match = matched_classes(y, labels)
                    spare = iter(range(len(classes), len(classes) + len(clusters)))
                    lookup = np.array(
                        [
                            classes.index(match[c]) if c in match else next(spare)
                            for c in clusters.tolist()
                        ]
                    )
                    codes = lookup[codes]
                colors = np.array(OKABE_ITO)[codes % len(OKABE_ITO)]
                fig.add_trace(
                    go.Scattergl(
                        x=coords[:, 0],
                        y=coords[:, 1],
                        mode="markers",
                        marker={"color": colors, "size": 4 if small else 3, "opacity": 0.75},
                        showlegend=False,
                        hoverinfo="skip",
                    )
                    if not small
                    else go.Scatter(
                        x=coords[:, 0],
                        y=coords[:, 1],
                        mode="markers",
                        marker={"color": colors, "size": 4, "opacity": 0.75},
                        showlegend=False,
                        hoverinfo="skip",
                    ),
                    row=r,
                    col=c,
                )
                if y is not None:
                    wrong = misclustered(y, labels)
                    if wrong.any():
                        fig.add_trace(
                            go.Scatter(
                                x=coords[wrong, 0],
                                y=coords[wrong, 1],
                                mode="markers",
                                marker={
                                    "symbol": "circle-open",
                                    "size": 7,
                                    "color": MISCLUSTERED_COLOR,
                                    "line": {"width": 1, "color": MISCLUSTERED_COLOR},
                                    "opacity": 0.8,
                                },
                                name="misclustered",
                                legendgroup="wrong",
                                showlegend=(i == 0 and j == 0) or False,
                                hoverinfo="skip",
                            ),
                            row=r,
                            col=c,
                        )
            fig.add_annotation(
                text=cell.corner(),
                xref="x domain" if (r, c) == (1, 1) else f"x{(i * n_cols + j + 1)} domain",
                yref="y domain" if (r, c) == (1, 1) else f"y{(i * n_cols + j + 1)} domain",
                x=0.02,
                y=0.98,
                xanchor="left",
                yanchor="top",
                showarrow=False,
                font={
                    "size": font_size - 1,
                    "color": ERROR_RED if cell.status != "ok" else DARK_GREY,
                },
                bgcolor=LABEL_BACKDROP,
            )
            bare = {"showticklabels": False, "ticks": "", "showgrid": False, "zeroline": False}
            fig.update_xaxes(range=xr, row=r, col=c, **bare)
            fig.update_yaxes(range=yr, row=r, col=c, **bare)
            # Shared axes within the row: every panel follows the first one's zoom.
            if j > 0:
                first = i * n_cols + 1
                fig.update_xaxes(matches=f"x{first}" if first > 1 else "x", row=r, col=c)
                fig.update_yaxes(matches=f"y{first}" if first > 1 else "y", row=r, col=c)
    # Row titles (right, rotated) and column titles (method names), readable and dark.
    fig.update_annotations(selector={"textangle": 90}, font={"size": font_size, "color": MID_GREY})
    for name in [method_name(k) for k in methods]:
        fig.update_annotations(
            selector={"text": name}, font={"size": font_size + 2, "color": DARK_GREY}
        )
    relayout(
        fig,
        template=TEMPLATE,
        height=max(300, panel_height * n_rows + 80),
        margin={"l": 10, "r": 40, "t": 50, "b": 40},
        showlegend=any(t.showlegend for t in fig.data),
        legend={"orientation": "h", "yanchor": "top", "y": -0.01, "x": 0},
        font={"size": font_size},
    )
    return fig
