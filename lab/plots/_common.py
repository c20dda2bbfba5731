"""What the analysis figures share: marker shapes, the WebGL threshold, the layout, the
colour of the i-th series, the range of an MSP axis and the empty figure with a message."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from lab.plots.style import OKABE_ITO, TEMPLATE, relayout

#: Marker shapes, one per series (all available in WebGL traces too).
MARKERS = ("circle", "square", "diamond", "triangle-up", "x", "cross", "triangle-down", "star")

#: Above this many points a scatter is drawn with WebGL.
WEBGL_THRESHOLD = 500

_LAYOUT = {
    "template": TEMPLATE,
    "margin": {"l": 60, "r": 20, "t": 80, "b": 40},
    "font": {"size": 13},
}


def _color(i: int) -> str:
    return OKABE_ITO[i % len(OKABE_ITO)]


def _marker(i: int) -> str:
    return MARKERS[i % len(MARKERS)]


#: The narrowest MSP axis drawn: points that all score alike sit inside a tenth of [0, 1].
MIN_MSP_SPAN = 0.1


def msp_range(values) -> list[float]:
    """The range of an axis of MSPs (or any score in [0, 1]): the values' range with a 5 %
    margin, at least :data:`MIN_MSP_SPAN` wide, clipped to [0, 1]; [0, 1] without a finite
    value. Plotly's autorange spread one repeated value over −0.2 … 1.6.

    Examples
    --------
    >>> msp_range([0.7, 0.7])
    [0.65, 0.75]
    >>> msp_range([0.0, 1.0])
    [0.0, 1.0]
    >>> msp_range([float("nan")])
    [0.0, 1.0]
    """
    v = np.asarray(values, dtype=np.float64).ravel()
    v = v[np.isfinite(v)]
    if v.size == 0:
        return [0.0, 1.0]
    lo, hi = float(np.clip(v.min(), 0.0, 1.0)), float(np.clip(v.max(), 0.0, 1.0))
    pad = max(0.05 * (hi - lo), (MIN_MSP_SPAN - (hi - lo)) / 2)
    lo, hi = lo - pad, hi + pad
    if lo < 0.0:
        lo, hi = 0.0, min(1.0, hi - lo)
    if hi > 1.0:
        lo, hi = max(0.0, lo - (hi - 1.0)), 1.0
    return [round(lo, 6), round(hi, 6)]


def _empty(title: str, message: str, height: int, axes: bool = False) -> go.Figure:
    fig = go.Figure()
    fig.add_annotation(
        text=message, showarrow=False, xref="paper", yref="paper", x=0.5, y=0.5, font_size=14
    )
    relayout(fig, **_LAYOUT, title=title, height=height)
    fig.update_xaxes(visible=axes)
    fig.update_yaxes(visible=axes, range=[0, 1] if axes else None)
    return fig
