"""ui.chart.SharedChart: a cached figure's JSON is made once, is the figure's own JSON, and
the figure stays an ordinary plotly figure (no class swapped at run time)."""

from __future__ import annotations

import json

import plotly.graph_objects as go

from ui.chart import SharedChart, figure_json


def _figure():
    fig = go.Figure(go.Scatter(x=[0, 1, 2], y=[2, 0, 1], marker={"color": [0, 1, 0]}))
    fig.frames = [go.Frame(data=[go.Scatter(marker={"color": [1, 1, 0]})], name="a")]
    fig.update_layout(title="t", height=300)
    return fig


def test_a_shared_chart_draws_the_figures_json_made_once():
    reference = figure_json(_figure())
    shared = SharedChart.of(_figure())
    assert shared.json == reference
    assert figure_json(shared) is shared.json  # no second serialisation on a rerun
    assert json.loads(shared.json)["layout"]["height"] == 300
    assert type(shared.figure) is go.Figure


def test_a_shared_charts_figure_copies_as_an_ordinary_figure():
    shared = SharedChart.of(_figure())
    copy = go.Figure(shared.figure)
    copy.update_layout(height=500)
    assert copy.layout.height == 500 and json.loads(shared.json)["layout"]["height"] == 300
