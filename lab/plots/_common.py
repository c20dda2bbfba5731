"""What the analysis figures share: marker shapes, the WebGL threshold, the layout, the
colour of the i-th series and the empty figure with a message."""

from __future__ import annotations

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


def _empty(title: str, message: str, height: int, axes: bool = False) -> go.Figure:
    fig = go.Figure()
    fig.add_annotation(
        text=message, showarrow=False, xref="paper", yref="paper", x=0.5, y=0.5, font_size=14
    )
    relayout(fig, **_LAYOUT, title=title, height=height)
    fig.update_xaxes(visible=axes)
    fig.update_yaxes(visible=axes, range=[0, 1] if axes else None)
    return fig
