"""Figures for multi-class MSPC: the MSP curve used to choose the number of
clusters. Pure functions returning ``plotly.graph_objects.Figure``; no Streamlit."""

from __future__ import annotations

import plotly.graph_objects as go

from lab.plots.style import OKABE_ITO, relayout

__all__ = ["msp_curve_figure"]


def msp_curve_figure(curve: dict, *, title: str = "Held-out separation against k"):
    """The score the suggested ``k`` comes from (``curve["score"]``: the smallest pairwise
    held-out MSP of :func:`lab.model_selection.msp_curve`) against ``curve["k"]``,
    with the suggested ``k`` marked, and the in-sample MSP (``curve["msp"]``) for comparison.
    A curve without ``"score"`` draws ``"msp"`` as the score.

    Examples
    --------
    >>> from lab.plots import msp_curve_figure
    >>> curve = {"k": [2, 3, 4], "score": [0.9, 0.84, 0.4], "msp": [0.9, 0.8, 0.6],
    ...          "suggested_k": 3}
    >>> [trace.name for trace in msp_curve_figure(curve).data]
    ['smallest pairwise held-out MSP', 'in-sample MSP', 'suggested k = 3']
    """
    ks, best = list(curve["k"]), int(curve["suggested_k"])
    msp = list(curve.get("score", curve["msp"]))
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(
            x=ks,
            y=msp,
            mode="lines+markers",
            name="smallest pairwise held-out MSP" if "score" in curve else "MSP",
            line={"color": OKABE_ITO[0]},
            hovertemplate="k = %{x}<br>score = %{y:.3f}<extra></extra>",
        )
    )
    if "score" in curve:
        fig.add_trace(
            go.Scatter(
                x=ks,
                y=list(curve["msp"]),
                mode="lines+markers",
                name="in-sample MSP",
                line={"color": OKABE_ITO[1], "dash": "dot"},
                hovertemplate="k = %{x}<br>in-sample MSP = %{y:.3f}<extra></extra>",
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
        yaxis_title="MSP (worst-case accuracy bound)",
        yaxis_range=[0, 1],
        xaxis={"dtick": 1},
        legend={"orientation": "h", "yanchor": "bottom", "y": 1.02, "x": 0},
        margin={"t": 80},
    )
    return fig
