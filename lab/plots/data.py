"""The Data page's lesson: how far each feature spreads, in its own units.

- :func:`shown_spreads`: the features the figure shows (all of them up to
  :data:`MOST_FEATURES`, else the largest and the smallest spreads), with their standard
  deviations;
- :func:`feature_spread_figure`: those spreads as horizontal bars (a log axis when they span
  more than :data:`LOG_RATIO`);
- :func:`spread_sentence`: the verdict under the figure, computed from the same rows: the
  largest and the smallest spread, their ratio, and what that ratio weighs in the squared
  distances k-means minimises (the MSP ignores the units: Theorem 1).

Pure plotly, pandas and numpy; never imports streamlit.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from lab.plots._common import _LAYOUT, _color, _empty
from lab.plots.style import relayout

__all__ = [
    "LOG_RATIO",
    "MOST_FEATURES",
    "feature_spread_figure",
    "shown_spreads",
    "spread_sentence",
]

#: The most bars the figure draws: beyond, the largest and the smallest half of them.
MOST_FEATURES = 12
#: From this ratio of the largest to the smallest (non-zero) spread the axis is logarithmic.
LOG_RATIO = 20.0


def shown_spreads(
    names: Sequence[str], std: Sequence[float], most: int = MOST_FEATURES
) -> pd.DataFrame:
    """``feature`` and ``std`` of the features to draw, largest spread first: every feature
    when there are at most ``most``, else the ``most // 2`` largest and the ``most // 2``
    smallest spreads; ``of`` holds the number of features.

    >>> shown_spreads(["a", "b", "c"], [0.5, 2.0, 1.0])["feature"].tolist()
    ['b', 'c', 'a']
    >>> t = shown_spreads([f"x{j}" for j in range(30)], range(30), most=4)
    >>> t["feature"].tolist(), int(t["of"].iloc[0])
    (['x29', 'x28', 'x1', 'x0'], 30)
    """
    table = pd.DataFrame({"feature": [str(n) for n in names], "std": np.asarray(std, float)})
    table = table.sort_values("std", ascending=False, kind="stable").reset_index(drop=True)
    if len(table) > most:
        half = most // 2
        table = pd.concat([table.head(half), table.tail(half)], ignore_index=True)
    return table.assign(of=len(names))


def _number(x: float) -> str:
    return f"{x:,.0f}" if abs(x) >= 1000 else f"{x:.3g}"


def spread_sentence(spreads: pd.DataFrame) -> str:
    """The verdict under :func:`feature_spread_figure`, from its rows: the largest and the
    smallest spread and their ratio r; on average a feature adds its variance twice to the
    squared distance of two points, so the widest feature adds r² times what the narrowest
    does to the squared distances k-means minimises.

    >>> print(spread_sentence(shown_spreads(["signal", "noise"], [1.0, 10.0]))[:78])
    Standard deviations run from 1 ('signal') to 10 ('noise'), a factor of 10: on
    """
    finite = spreads[np.isfinite(spreads["std"])]
    if finite.empty:
        return "No feature has a finite spread."
    top, low = finite.iloc[0], finite.iloc[-1]
    if len(finite) == 1:
        return f"One feature, '{top['feature']}': standard deviation {_number(top['std'])}."
    if low["std"] <= 0:
        return (
            f"'{low['feature']}' is constant (standard deviation 0): it cannot separate "
            f"anything; the widest is '{top['feature']}' ({_number(top['std'])})."
        )
    ratio = float(top["std"] / low["std"])
    return (
        f"Standard deviations run from {_number(low['std'])} ('{low['feature']}') to "
        f"{_number(top['std'])} ('{top['feature']}'), a factor of {_number(ratio)}: on "
        f"average '{top['feature']}' adds {_number(ratio**2)} times as much as "
        f"'{low['feature']}' to the squared distances k-means minimises; the MSP does not "
        "depend on the units (Theorem 1)."
    )


def feature_spread_figure(
    spreads: pd.DataFrame, *, title: str = "How far each feature spreads", height: int = 400
) -> go.Figure:
    """Horizontal bars of :func:`shown_spreads`' standard deviations, largest on top, each
    labelled with its value; a log axis when the largest is more than :data:`LOG_RATIO`
    times the smallest non-zero one."""
    if spreads is None or spreads.empty:
        return _empty(title, "No features.", height)
    std = spreads["std"].to_numpy(dtype=float)
    positive = std[np.isfinite(std) & (std > 0)]
    log = positive.size > 1 and positive.max() / positive.min() > LOG_RATIO and (std > 0).all()
    of = int(spreads["of"].iloc[0]) if "of" in spreads else len(spreads)
    subtitle = "standard deviation, in each feature's own units"
    if of > len(spreads):
        subtitle += f"; the {len(spreads) // 2} widest and narrowest of {of} features"
    fig = go.Figure(
        go.Bar(
            x=std,
            y=spreads["feature"],
            orientation="h",
            marker={"color": _color(0)},
            text=[_number(v) for v in std],
            textposition="outside",
            cliponaxis=False,
            hovertemplate="%{y}: standard deviation %{x:.4g}<extra></extra>",
        )
    )
    relayout(
        fig,
        {**_LAYOUT, "margin": {"l": 10, "r": 50, "t": 70, "b": 50}},
        title={"text": title, "subtitle": {"text": subtitle}},
        height=height,
        showlegend=False,
        xaxis={"title": "standard deviation" + (" (log scale)" if log else "")},
        yaxis={"autorange": "reversed", "automargin": True},
    )
    if log:
        fig.update_xaxes(type="log", tickformat="~g")
    else:
        fig.update_xaxes(range=[0, float(np.nanmax(std)) * 1.15 or 1.0])
    return fig
