"""Figures for multi-class MSPC: the MSP curve used to choose the number of
clusters. Pure functions returning ``plotly.graph_objects.Figure``; no Streamlit."""

from __future__ import annotations

import plotly.graph_objects as go

from lab.plots.style import OKABE_ITO, relayout

__all__ = ["msp_curve_figure"]


def msp_curve_figure(curve: dict, *, title: str = "MSP against the number of clusters"):
    """Line of ``curve["msp"]`` against ``curve["k"]`` (from
    :func:`clustering.model_selection.msp_curve`) with the suggested ``k`` marked.

    Examples
    --------
    >>> from lab.plots import msp_curve_figure
    >>> fig = msp_curve_figure({"k": [2, 3, 4], "msp": [0.9, 0.84, 0.5], "suggested_k": 3})
    >>> [trace.name for trace in fig.data]
    ['MSP', 'suggested k = 3']
    """
    ks, msp, best = list(curve["k"]), list(curve["msp"]), int(curve["suggested_k"])
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(
            x=ks,
            y=msp,
            mode="lines+markers",
            name="MSP",
            line={"color": OKABE_ITO[0]},
            hovertemplate="k = %{x}<br>MSP = %{y:.3f}<extra></extra>",
        )
    )
    fig.add_trace(
        go.Scatter(
            x=[best],
            y=[msp[ks.index(best)]],
            mode="markers",
            name=f"suggested k = {best}",
            marker={"size": 14, "symbol": "star", "color": OKABE_ITO[3]},
        )
    )
    relayout(
        fig,
        title=title,
        xaxis_title="number of clusters k",
        yaxis_title="MSP (lower bound on accuracy)",
        yaxis_range=[0, 1],
        xaxis={"dtick": 1},
        legend={"orientation": "h", "yanchor": "bottom", "y": 1.02, "x": 0},
        margin={"t": 80},
    )
    return fig
