"""A figure's axes say what they plot: for every figure function of ``lab.plots``, built from
inputs whose columns hold distinct known values, the data on each axis are the quantity its
title names (and not the other axis' quantity). Swapped axis titles, or data put on the
wrong axis, fail here; a new figure function fails the last test until it is checked here."""

from __future__ import annotations

import inspect

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest

from lab import plots
from lab.animation import MSPCStep, ScalingSweep
from lab.compare import CompareCell
from lab.experiments.protocols import LamSweep
from lab.projections import Projection


def _text(title) -> str:
    """An axis or annotation title as plain text (wrapped titles joined again)."""
    text = title if isinstance(title, str) else getattr(title, "text", None)
    return " ".join((text or "").replace("<br>", " ").split())


def _axis(fig: go.Figure, trace, letter: str):
    """The layout axis ``letter`` ("x" or "y") that ``trace`` is drawn on."""
    ref = getattr(trace, f"{letter}axis", None) or letter
    return fig.layout[f"{letter}axis{ref[1:]}"]


def _trace(fig: go.Figure, name: str):
    matches = [t for t in fig.data if t.name == name]
    assert len(matches) == 1, (name, [t.name for t in fig.data])
    return matches[0]


def assert_axes(fig, trace, x=None, x_word=None, y=None, y_word=None, *, exclusive=True):
    """``trace`` draws ``x`` and ``y``; its x axis title names ``x_word`` and not ``y_word``,
    its y axis title ``y_word`` and (``exclusive``) not ``x_word`` (a word ``None``: that
    axis has no title to check, only its data)."""
    for letter, values, word, other in (("x", x, x_word, y_word), ("y", y, y_word, x_word)):
        if values is not None:
            drawn = getattr(trace, letter)
            if np.asarray(values).dtype.kind in "fiu":
                assert np.allclose(np.asarray(drawn, dtype=float), values), letter
            else:
                assert list(drawn) == list(values), letter
        if word is not None:
            title = _text(_axis(fig, trace, letter).title).lower()
            assert word.lower() in title, (letter, title, word)
            if other is not None and (exclusive or letter == "x"):
                assert other.lower() not in title, (letter, title, other)


def _panel_title(fig: go.Figure, trace, letter: str) -> str:
    """The subplot title above (``"x"``) or beside (``"y"``) the panel of ``trace``."""
    domain = _axis(fig, trace, letter).domain
    position = "x" if letter == "x" else "y"
    found = []
    for note in fig.layout.annotations:
        at = note[position]
        if note.xref == "paper" and at is not None and domain[0] <= at <= domain[1]:
            rotated = note.textangle == 90
            if rotated == (letter == "y"):
                found.append(_text(note.text))
    assert len(found) == 1, (letter, found)
    return found[0]


def _in_units_of(fig, trace, letter: str, fractions) -> np.ndarray:
    """``fractions`` in the unit the axis title states: percent when it says "%"."""
    title = _text(_axis(fig, trace, letter).title)
    return np.asarray(fractions, dtype=float) * (100.0 if "%" in title else 1.0)


# ---- one check per figure function ------------------------------------------------------


def check_sensitivity_figure():
    summary = pd.DataFrame(
        {
            "method": ["kmeans"] * 3,
            "factor": [1.0, 4.0, 16.0],
            "accuracy_mean": [0.91, 0.72, 0.53],
            "accuracy_std": [0.01, 0.02, 0.03],
            "accuracy_sem": [0.005, 0.01, 0.015],
            "n_runs": [3, 3, 3],
        }
    )
    fig = plots.sensitivity_figure(summary)
    trace = _trace(fig, "kmeans")
    accuracy = _in_units_of(fig, trace, "y", summary["accuracy_mean"])
    assert_axes(fig, trace, [1, 4, 16], "factor", accuracy, "accuracy")


def check_msp_accuracy_figure():
    table = pd.DataFrame({"name": list("abcd"), "ho": [0.1, 0.2, 0.3, 0.4]})
    table["acc"] = [0.55, 0.65, 0.6, 0.9]
    fig = plots.msp_accuracy_figure(table, x="ho", y="acc", x_label="held-out MSP")
    runs = _trace(fig, "runs")
    accuracy = _in_units_of(fig, runs, "y", table["acc"])
    assert_axes(fig, runs, table["ho"], "held-out MSP", accuracy, "accuracy")


def check_lam_sweep_figure():
    table = pd.DataFrame(
        {
            "lam": [0.001, 0.1, 10.0],
            "msp": [0.9, 0.8, 0.7],
            "msp_heldout": [0.3, 0.6, 0.5],
            "accuracy": [0.55, 0.95, 0.75],
        }
    )
    fig = plots.lam_sweep_figure(LamSweep(table, 0.1, 0.1, 0.95, 0.95))
    heldout = next(t for t in fig.data if t.name.startswith("held-out MSP"))
    assert_axes(fig, heldout, table["lam"], "λ", table["msp_heldout"], "MSP")
    accuracy = next(t for t in fig.data if t.name.startswith("accuracy"))
    assert_axes(fig, accuracy, table["lam"], "λ", table["accuracy"], "accuracy")


def check_scaling_comparison_figure():
    comparison = pd.DataFrame(
        {
            "method": ["mspc-mpm", "kmeans"],
            "accuracy_before": [0.91, 0.82],
            "accuracy_after": [0.93, 0.64],
            "msp_before": [0.71, 0.52],
            "msp_after": [0.73, 0.44],
        }
    )
    fig = plots.scaling_comparison_figure(comparison)
    for trace in fig.data:
        when = trace.name.split()[0]
        title = _panel_title(fig, trace, "x")
        metric = "accuracy" if "accuracy" in title else "msp"
        assert metric == "msp" or "MSP" not in title
        scale = 100.0 if "%" in title else 1.0
        assert np.allclose(trace.y, scale * comparison[f"{metric}_{when}"]), (title, when)
        assert list(trace.x) == list(comparison["method"])
    titles = {_panel_title(fig, t, "x") for t in fig.data}
    assert len(titles) == 2  # one panel per quantity


def check_feature_spread_figure():
    spreads = plots.shown_spreads(["signal", "noise", "other"], [3.0, 0.5, 1.0])
    fig = plots.feature_spread_figure(spreads)
    (bars,) = fig.data
    assert_axes(fig, bars, [3.0, 1.0, 0.5], "standard deviation", ["signal", "other", "noise"])


def check_theorem1_figure():
    checks = pd.DataFrame(
        {
            "setting": ["diag, λ=0.1", "identity, λ=0.1"],
            "msp_before": [0.81, 0.72],
            "msp_after": [0.81, 0.63],
            "relative_difference": [1e-13, 0.14],
        }
    )
    fig = plots.theorem1_figure(checks)
    for when in ("before", "after"):
        trace = _trace(fig, f"{when} rescaling")
        assert_axes(fig, trace, y=checks[f"msp_{when}"], y_word="MSP")
        assert [x.replace("<br>", ", ") for x in trace.x] == list(checks["setting"])


def check_lower_bound_figure():
    table = pd.DataFrame(
        {"name": ["a", "b"], "kappa_squared": [0.5, 4.0], "bound": [0.2, 3.0], "r1": [0.5, 0.3]}
    )
    fig = plots.lower_bound_figure(table)
    dots = _trace(fig, "labelings")
    assert_axes(fig, dots, table["kappa_squared"], "κ²", table["bound"], "bound")


def _data_2d():
    X = np.column_stack([np.linspace(-1, 1, 12), np.linspace(100, 400, 12), np.arange(12.0)])
    return X, np.repeat([0, 1], 6)


def check_mspc_steps_figure():
    X, y = _data_2d()
    steps = [
        MSPCStep(0, y, np.array([1.0, 0.0, 0.0]), 0.0, 0.41, 0),
        MSPCStep(1, y, np.array([1.0, 0.0, 0.0]), 0.0, 0.62, 2),
    ]
    names = ["width", "weight", "age"]
    fig = plots.mspc_steps_figure(steps, X, features=(2, 1), feature_names=names)
    assert_axes(fig, _trace(fig, "clusters"), X[:, 2], "age", X[:, 1], "weight")
    assert_axes(fig, _trace(fig, "MSP"), [0], "iteration", [0.41], "MSP")  # the first frame


def check_scaling_animation_figure():
    X, y = _data_2d()
    frames = 2
    sweep = ScalingSweep(
        feature=0,
        factors=np.array([1.0, 10.0]),
        base_factors=np.ones(3),
        methods=("k-means",),
        labels=np.tile(y, (1, frames, 1)),
        w=np.tile([1.0, 0.0, 0.0], (1, frames, 1)),
        b=np.zeros((1, frames)),
        accuracy=np.ones((1, frames)),
        msp=np.ones((1, frames)),
    )
    names = ["width", "weight", "age"]
    fig = plots.scaling_animation_figure(sweep, X, y, features=(1, 2), feature_names=names)
    assert_axes(fig, _trace(fig, "k-means"), X[:, 1], "weight", X[:, 2], "age")


def check_cluster_scatter():
    coords = np.column_stack([np.arange(6.0), 10 + np.arange(6.0)])
    projection = Projection(
        coords, np.arange(6), 6, False, "discriminant w'x", "residual direction", None, "pca"
    )
    labels = np.array([0, 0, 0, 1, 1, 1])
    fig = plots.cluster_scatter(projection, labels)
    trace = _trace(fig, "cluster 0")
    assert_axes(fig, trace, coords[:3, 0], "discriminant", coords[:3, 1], "residual")


def _margins():
    margins = np.array([-3.0, -2.0, -1.5, 1.0, 2.5, 4.0])
    return margins, np.array([0, 0, 0, 1, 1, 1])


def check_margin_histogram():
    margins, labels = _margins()
    signed, _, _ = plots.oriented_margins(margins, labels)
    fig = plots.margin_histogram(margins, labels, 0.8)
    trace = next(t for t in fig.data if t.name.startswith("cluster 1"))
    assert_axes(fig, trace, signed[labels == 1], "margin", None, "number of points")


def check_guarantee_curve():
    margins, labels = _margins()
    fig = plots.guarantee_curve(margins, labels, 0.8, n_points=5)
    trace = _trace(fig, "guarantee (Theorem 5)")
    rhos = np.linspace(0, 1, 5)
    from clustering.metrics import chebyshev_fraction

    guaranteed = [chebyshev_fraction(0.8, r) for r in rhos]
    # The y title speaks of ρ too ("fraction with relative margin ≥ ρ/2"): only the x title
    # is held to naming one of the two.
    assert_axes(fig, trace, rhos, "ρ", guaranteed, "fraction", exclusive=False)


def check_objective_plot():
    fig = plots.objective_plot({"MSPC": [0.2, 0.5, 0.7]}, y_title="MSP objective")
    assert_axes(fig, _trace(fig, "MSPC"), [1, 2, 3], "iteration", [0.2, 0.5, 0.7], "objective")


def check_objective_grid():
    fig = plots.objective_grid({"MSPC": [0.2, 0.5], "k-means": [9.0, 7.0, 6.5]})
    for name, values in (("MSPC", [0.2, 0.5]), ("k-means", [9.0, 7.0, 6.5])):
        trace = _trace(fig, name)
        assert_axes(fig, trace, np.arange(1, len(values) + 1), "iteration", values)
        assert _panel_title(fig, trace, "x") == name


def check_metrics_bar():
    rows = [{"msp": 0.11, "accuracy": 0.22, "nmi": 0.33, "rand": 0.44, "f": None}]
    fig = plots.metrics_bar(rows, ["MSPC"])
    bar = _trace(fig, "MSPC")
    names = {"MSP": "msp", "accuracy": "accuracy", "NMI": "nmi", "Rand": "rand", "F": "f"}
    assert [rows[0][names[x]] for x in bar.x] == list(bar.y)
    assert len(bar.x) == 4  # the missing F is left out, not drawn under another name


def check_heldout_bars_figure():
    table = pd.DataFrame(
        {"labeling": ["classes", "random"], "msp": [0.9, 0.8], "msp_heldout": [0.7, 0.05]}
    )
    fig = plots.heldout_bars_figure(table)
    for column, name in (("msp", "in-sample MSP"), ("msp_heldout", "held-out MSP")):
        trace = _trace(fig, name)
        assert_axes(fig, trace, table[column], "MSP", list(table["labeling"]))


def check_msp_curve_figure():
    curve = {"k": [2, 3, 4], "score": [0.9, 0.84, 0.4], "msp": [0.95, 0.8, 0.6], "suggested_k": 3}
    fig = plots.msp_curve_figure(curve)
    score = _trace(fig, "smallest pairwise held-out MSP")
    assert_axes(fig, score, curve["k"], "number of clusters", curve["score"], "MSP")
    assert_axes(fig, _trace(fig, "in-sample MSP"), curve["k"], None, curve["msp"], None)


def check_compare_figure():
    rng = np.random.default_rng(0)
    rows = [
        ("blobs", rng.normal(0, 1, (20, 2)), np.repeat([0, 1], 10)),
        ("moons", rng.normal(50, 1, (20, 2)), np.repeat([0, 1], 10)),
    ]
    methods = ["kmeans", "mspc-mpm"]
    cells = [
        [CompareCell(name, key, "ok", labels=np.repeat([0, 1], 10)) for key in methods]
        for name, _, _ in rows
    ]
    fig = plots.compare_figure(rows, methods, cells)
    panels = [t for t in fig.data if t.name != "misclustered"]
    assert len(panels) == 4
    for trace in panels:
        name = _panel_title(fig, trace, "y")
        coords = next(c for n, c, _ in rows if n == name)
        assert np.allclose(trace.x, coords[:, 0]) and np.allclose(trace.y, coords[:, 1])
        assert _panel_title(fig, trace, "x") in {plots.method_name(k) for k in methods}
    columns = [_panel_title(fig, t, "x") for t in panels]
    assert columns == [plots.method_name(k) for _ in rows for k in methods]


CHECKS = {name[len("check_") :]: f for name, f in globals().items() if name.startswith("check_")}


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_every_axis_says_what_it_plots(name):
    CHECKS[name]()


def _figure_functions() -> set[str]:
    """Public functions of ``lab.plots`` that draw a figure from data (not a layout helper
    taking a figure)."""
    found = set()
    for name in plots.__all__:
        obj = getattr(plots, name)
        if not inspect.isfunction(obj) or not obj.__module__.startswith("lab.plots"):
            continue
        params = list(inspect.signature(obj).parameters)
        returns = str(inspect.signature(obj).return_annotation)
        draws = "Figure" in returns or name.endswith("_figure")
        if draws and (not params or params[0] != "fig"):
            found.add(name)
    return found


def test_every_figure_function_has_its_axes_checked():
    assert _figure_functions() == set(CHECKS)
