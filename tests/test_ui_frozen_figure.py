"""ui.cache.frozen: a cached figure's specification is computed once and is the figure's own."""

from __future__ import annotations

import json

import plotly.graph_objects as go
import plotly.io as pio

from ui import cache


def _figure():
    fig = go.Figure(go.Scatter(x=[0, 1, 2], y=[2, 0, 1], marker={"color": [0, 1, 0]}))
    fig.frames = [go.Frame(data=[go.Scatter(marker={"color": [1, 1, 0]})], name="a")]
    fig.update_layout(title="t", height=300)
    return fig


def test_frozen_figure_draws_the_same_specification_once():
    reference = _figure().to_dict()
    fig = cache.frozen(_figure())
    first = fig.to_dict()
    assert json.dumps(first, sort_keys=True, default=str) == json.dumps(
        reference, sort_keys=True, default=str
    )
    assert fig.to_dict() is first  # computed once
    assert cache.frozen(fig) is fig
    # What st.plotly_chart sends: the same JSON as for the unfrozen figure.
    assert pio.to_json(fig.to_dict(), validate=False) == pio.to_json(reference, validate=False)
    # A copy for export is an ordinary, editable figure.
    copy = go.Figure(fig)
    copy.update_layout(height=500)
    assert copy.to_dict()["layout"]["height"] == 500 and fig.to_dict()["layout"]["height"] == 300
