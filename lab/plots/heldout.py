"""The in-sample and the held-out MSP of labelings side by side (the Learn page's held-out
section). Pure plotly; never imports streamlit."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from lab.plots._common import _LAYOUT, _color, _empty
from lab.plots.grid import tidy_layout
from lab.plots.style import relayout

__all__ = ["heldout_bars_figure"]


def heldout_bars_figure(
    table: pd.DataFrame,
    *,
    title: str = "In-sample against held-out MSP",
    height: int = 420,
) -> go.Figure:
    """Horizontal bars: each labeling's in-sample MSP and held-out MSP, top to bottom in
    the table's order.

    Parameters
    ----------
    table : DataFrame
        ``labeling``, ``msp``, ``msp_heldout`` and optionally ``accuracy`` (one row per
        labeling), e.g. from :func:`lab.theorems.nonsense_splits`.
    """
    if table is None or table.empty:
        return _empty(title, "No labelings to compare.", height)
    names = table["labeling"].astype(str).tolist()
    accuracy = table["accuracy"] if "accuracy" in table else pd.Series(np.nan, index=table.index)
    fig = go.Figure()
    for i, (column, label, pattern) in enumerate(
        (("msp", "in-sample MSP", ""), ("msp_heldout", "held-out MSP", "/"))
    ):
        fig.add_trace(
            go.Bar(
                y=names,
                x=table[column],
                orientation="h",
                name=label,
                marker={"color": _color(2 if i == 0 else 0), "pattern": {"shape": pattern}},
                customdata=accuracy,
                text=[f"{v:.3f}" if np.isfinite(v) else "—" for v in table[column]],
                textposition="outside",
                cliponaxis=False,
                hovertemplate=f"<b>%{{y}}</b><br>{label} %{{x:.3f}}"
                "<br>accuracy %{customdata:.3f}<extra></extra>",
            )
        )
    relayout(
        fig,
        **_LAYOUT,
        title=title,
        height=height,
        barmode="group",
        xaxis_title="MSP (no labels needed)",
        hovermode="closest",
    )
    fig.update_xaxes(range=[0, 1.22], tickvals=[0, 0.25, 0.5, 0.75, 1])
    fig.update_yaxes(autorange="reversed")
    tidy_layout(fig)
    return fig
