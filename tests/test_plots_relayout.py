"""``lab.plots.relayout`` gives the figure plotly's ``update_layout`` gives (issue 13:
the fast path for the lab's figures must not change one property of them)."""

from __future__ import annotations

import json

import pandas as pd
import plotly.graph_objects as go
import pytest

from lab import plots
from lab.evaluation import evaluate, fit_and_evaluate
from lab.plots import TEMPLATE, relayout
from tests.conftest import two_gaussians

MODULES = ("style", "grid", "clusters", "analysis", "animation", "compare", "multiclass")


def _json(fig: go.Figure) -> str:
    return json.dumps(fig.to_plotly_json(), sort_keys=True, default=str)


def _base() -> go.Figure:
    fig = go.Figure(go.Scatter(x=[0, 1, 2], y=[1, 3, 2], name="a"))
    fig.add_trace(go.Bar(x=[0, 1], y=[2, 1], name="b"))
    fig.update_layout(
        title={"text": "old", "font": {"size": 20}},
        xaxis={"title": {"text": "x", "font": {"size": 9}}, "range": [0, 2]},
        legend={"orientation": "h", "x": 0.5, "font": {"size": 10, "color": "red"}},
        annotations=[{"text": "n", "x": 0, "y": 0, "showarrow": False}],
        margin={"l": 10, "r": 10},
    )
    return fig


#: Update sequences covering what the lab's figures do: nested merges, replacements, None,
#: an axis title given as a string, path keys, lists of objects, a template, a dict argument.
UPDATES = [
    [{"title": {"text": "new"}}],
    [{"margin": {"t": 70, "b": 40}}, {"margin": {"t": 90}}, {"height": 500}],
    [{"legend": {"orientation": "v", "title": None, "font": {"size": 11}}}],
    [{"xaxis": {"title": "plain string", "zeroline": False}}],
    [{"xaxis": {"range": [1, 5]}}, {"yaxis": {"range": [0, 1], "title": {"text": "y"}}}],
    [{"yaxis_title": "MSP", "xaxis_title_font_size": 14}],
    [{"annotations": [{"text": "changed"}]}],
    [{"annotations": []}],
    [{"template": TEMPLATE, "font": {"size": 13}, "dragmode": "lasso"}],
    [{"meta": {"base_height": 420, "title": "kept"}}, {"meta": {"base_height": 400}}],
    [{"uniformtext": {"minsize": 9, "mode": "hide"}, "barmode": "group"}],
    [{"showlegend": False}, {"legend": None}],
    # A path key and its property in one call: applied in the order given.
    [{"yaxis": {"title": {"text": "first"}}, "yaxis_title_text": "second"}],
    [{"yaxis_title_text": "first", "yaxis": {"title": {"text": "second"}}}],
]


@pytest.mark.parametrize("updates", UPDATES, ids=[str(i) for i in range(len(UPDATES))])
def test_relayout_equals_update_layout(updates):
    slow, fast = _base(), _base()
    for update in updates:
        slow.update_layout(**update)
        relayout(fast, **update)
    assert _json(fast) == _json(slow)
    # The dict argument form too.
    fast = _base()
    for update in updates:
        assert relayout(fast, dict(update)) is fast
    assert _json(fast) == _json(slow)


def test_relayout_refuses_what_update_layout_refuses():
    with pytest.raises(ValueError):
        relayout(_base(), margin={"t": "not a number"})
    with pytest.raises(ValueError):
        relayout(_base(), not_a_property=1)


@pytest.fixture
def slow_relayout(monkeypatch):
    """Every figure module's ``relayout`` replaced by plotly's ``update_layout``."""
    import importlib

    def slow(fig, layout=None, **props):
        return fig.update_layout(layout, **props)

    def use():
        for name in MODULES:
            module = importlib.import_module(f"lab.plots.{name}")
            monkeypatch.setattr(module, "relayout", slow)

    return use


def _figures():
    X, y = two_gaussians(n_per=60, d=4, gap=5.0, seed=3)
    result = fit_and_evaluate("mspc-mpm", {"lam": 0.1, "n_init": 2}, X, y)
    from lab import projections

    proj = projections.discriminant_view(X, result.w, result.b)
    comparison = pd.DataFrame(
        {
            "method": ["mspc-mpm", "kmeans"],
            "accuracy_before": [0.9, 0.8],
            "accuracy_after": [0.9, 0.6],
            "msp_before": [0.8, 0.7],
            "msp_after": [0.8, 0.7],
        }
    )
    checks = pd.DataFrame(
        {
            "setting": ["diag, λ=0.1", "identity, λ=0.1"],
            "msp_before": [0.8, 0.7],
            "msp_after": [0.8, 0.6],
            "relative_difference": [1e-13, 0.14],
        }
    )
    row = evaluate(X, result.labels, y)
    styled = go.Figure(go.Bar(x=["a", "b"], y=[1, 2], name="mspc-mpm", text=[1.234, 2.345]))
    styled.add_trace(go.Scatter(x=[0, 1], y=[1, 0], name="kmeans"))
    return {
        "panel": lambda: plots.grid_panel(
            plots.cluster_scatter(proj, result.labels, y, ["a", "b"], title="after · MSP 0.9")
        ),
        "histogram": lambda: plots.margin_histogram(result.margins(X), result.labels, 0.8),
        "guarantee": lambda: plots.guarantee_curve(result.margins(X), result.labels, 0.8),
        "objective": lambda: plots.objective_plot({"a": [0.5, 0.7, 0.8]}),
        "objective grid": lambda: plots.objective_grid({"a": [0.5, 0.7], "b": [0.1, 0.4, 0.6]}),
        "metrics": lambda: plots.metrics_bar([row], ["m"]),
        "comparison": lambda: plots.scaling_comparison_figure(comparison),
        "theorem 1": lambda: plots.theorem1_figure(checks),
        "method style": lambda: plots.apply_method_style(go.Figure(styled)),
    }


@pytest.mark.parametrize("name", list(_figures()))
def test_lab_figures_are_unchanged_by_the_fast_path(name, slow_relayout):
    fast = _json(_figures()[name]())
    slow_relayout()
    assert fast == _json(_figures()[name]())


def test_fast_path_is_used(slow_relayout, monkeypatch):
    """The comparison above compares two code paths, not one with itself: the fast path
    leaves plotly's ``update_layout`` fewer calls (only for path keys such as
    ``yaxis_title``)."""
    calls = []
    original = go.Figure.update_layout

    def counting(self, *a, **k):
        calls.append(1)
        return original(self, *a, **k)

    monkeypatch.setattr(go.Figure, "update_layout", counting)
    checks = pd.DataFrame(
        {"setting": ["d"], "msp_before": [0.5], "msp_after": [0.5], "relative_difference": [0]}
    )
    plots.theorem1_figure(checks)
    fast_calls = len(calls)
    slow_relayout()
    calls.clear()
    plots.theorem1_figure(checks)
    assert len(calls) > fast_calls
