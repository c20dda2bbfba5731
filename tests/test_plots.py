"""Pure figure and projection functions: what they draw is what the data say."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import pytest

from clustering.metrics import chebyshev_fraction, clustering_accuracy, relative_margin
from lab import plots, projections
from lab.evaluation import evaluate, fit_and_evaluate
from tests.conftest import two_gaussians


@pytest.fixture(scope="module")
def fitted():
    X, y = two_gaussians(n_per=80, d=4, gap=5.0, seed=1)
    result = fit_and_evaluate("mspc-mpm", {"lam": 0.1, "n_init": 2}, X, y)
    assert result.ok
    return X, y, result


def test_discriminant_view_line_separates_exactly_the_clusters(fitted):
    X, _, result = fitted
    p = projections.discriminant_view(X, result.w, result.b)
    a, c, v = p.line
    side = (a * p.coords[:, 0] + c * p.coords[:, 1] - v) >= 0
    # MSPC's labels are sign(w'x - b): the drawn line reproduces them point by point.
    np.testing.assert_array_equal(side.astype(int), result.labels[p.index])


def _orthogonal_columns(n, scales, seed=0):
    """Centred data whose features are exactly uncorrelated, with the given spreads."""
    Z = np.random.default_rng(seed).normal(size=(n, len(scales)))
    Q, _ = np.linalg.qr(Z - Z.mean(axis=0))
    return Q * np.sqrt(n) * np.asarray(scales)


def test_residual_direction_is_orthogonal_to_w_and_maximises_residual_spread():
    X = _orthogonal_columns(300, [1.0, 5.0, 2.0])
    w = np.array([1.0, 0.0, 0.0])
    p = projections.discriminant_view(X, w, 0.0)
    # The residual spread is largest along feature 1 (std 5), which is orthogonal to w.
    np.testing.assert_allclose(np.abs(p.coords[:, 1]), np.abs(X[:, 1] - X[:, 1].mean()))


def test_pca_view_draws_line_only_when_exact():
    X = _orthogonal_columns(200, [10.0, 5.0, 0.1])
    in_plane = projections.pca_view(X, w=[1.0, 0.0, 0.0], b=0.5)
    assert in_plane.line is not None
    a, c, v = in_plane.line
    side = a * in_plane.coords[:, 0] + c * in_plane.coords[:, 1] - v >= 0
    np.testing.assert_array_equal(side, X[:, 0] - 0.5 >= 0)
    off_plane = projections.pca_view(X, w=[0.0, 0.0, 1.0], b=0.0)
    assert off_plane.line is None and "cannot be drawn" in off_plane.note


def test_feature_view_line_and_refusal():
    X = np.arange(24.0).reshape(8, 3)
    assert projections.feature_view(X, 0, 2, w=[1, 0, 1], b=1).line is not None
    assert projections.feature_view(X, 0, 2, w=[1, 1, 1], b=1).line is None
    with pytest.raises(ValueError, match="out of range"):
        projections.feature_view(X, 0, 5)


def test_subsampling_above_the_limit_is_flagged():
    X = np.random.default_rng(0).normal(size=(500, 2))
    p = projections.pca_view(X, max_points=100)
    assert p.subsampled and p.coords.shape == (100, 2) and p.n_total == 500
    assert "100" in p.note and "500" in p.note
    assert not projections.pca_view(X).subsampled


def test_project_dispatch_and_fallback():
    X = np.random.default_rng(0).normal(size=(50, 3))
    assert projections.project(X, "features:2,0").view == "features:2,0"
    p = projections.project(X, "discriminant")  # no hyperplane: PCA with a note
    assert p.view == "pca" and "no separating direction" in p.note
    with pytest.raises(ValueError, match="Unknown view"):
        projections.project(X, "tsne")


def test_misclustered_count_matches_accuracy():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 200)
    labels = np.where(rng.random(200) < 0.2, 1 - y, y)
    wrong = plots.misclustered(y, labels)
    assert wrong.sum() == round((1 - clustering_accuracy(y, labels)) * 200)


def test_cluster_scatter_traces(fitted):
    X, y, result = fitted
    p = projections.discriminant_view(X, result.w, result.b)
    fig = plots.cluster_scatter(p, result.labels, y, ("a", "b"), title="t")
    assert isinstance(fig, go.Figure)
    points = [t for t in fig.data if t.mode == "markers" and not t.name.startswith("mis")]
    assert {t.type for t in points} == {"scatter"}  # SVG below SVG_MAX_POINTS
    # Every sample appears once, colour by cluster, symbol by class, customdata = row.
    rows = np.sort(np.concatenate([t.customdata for t in points]))
    np.testing.assert_array_equal(rows, np.arange(X.shape[0]))
    assert {t.marker.color for t in points} <= set(plots.OKABE_ITO)
    assert len({t.marker.symbol for t in points}) == 2
    mis = [t for t in fig.data if t.name.startswith("misclustered")]
    n_wrong = plots.misclustered(y, result.labels).sum()
    assert (len(mis[0].x) if mis else 0) == n_wrong
    assert any(t.name == "separating hyperplane" for t in fig.data)


def test_cluster_scatter_without_classes_uses_shape_for_cluster():
    X = np.random.default_rng(0).normal(size=(40, 2))
    labels = (X[:, 0] > 0).astype(int)
    fig = plots.cluster_scatter(projections.pca_view(X), labels)
    symbols = {t.name: t.marker.symbol for t in fig.data}
    assert symbols["cluster 0"] != symbols["cluster 1"]
    assert not any(t.name.startswith("misclustered") for t in fig.data)


def test_margin_histogram_matches_theorem_5(fitted):
    X, _, result = fitted
    m = result.margins(X)
    signed, own, _delta = plots.oriented_margins(m, result.labels)
    # |signed| is the paper's relative margin.
    np.testing.assert_allclose(
        np.abs(signed), relative_margin(X, result.labels, result.w, result.b), rtol=1e-10
    )
    fig = plots.margin_histogram(m, result.labels, result.msp, rho=0.4)
    guarantee = chebyshev_fraction(result.msp, 0.4)
    assert f"{100 * guarantee:.0f}%" in fig.layout.title.text
    for trace, c in zip(fig.data, (0, 1), strict=True):
        frac = np.mean(own[result.labels == c] >= 0.2)
        assert f"{100 * frac:.0f}% beyond" in trace.name


def test_guarantee_curve_is_theorem_5():
    rng = np.random.default_rng(0)
    m = np.concatenate([rng.normal(-2, 1, 100), rng.normal(2, 1, 100)])
    labels = np.repeat([0, 1], 100)
    fig = plots.guarantee_curve(m, labels, msp=0.8, n_points=11)
    expected = [chebyshev_fraction(0.8, r) for r in np.linspace(0, 1, 11)]
    np.testing.assert_allclose(fig.data[0].y, expected)
    # Observed fractions decrease with rho.
    assert np.all(np.diff(fig.data[1].y) <= 0)


def test_margin_plots_refuse_one_cluster():
    with pytest.raises(ValueError, match="two clusters"):
        plots.margin_histogram(np.arange(5.0), np.zeros(5))


def test_objective_and_metrics_plots():
    fig = plots.objective_plot({"a": [0.5, 0.7, 0.8], "empty": []})
    assert [t.name for t in fig.data] == ["a"]
    np.testing.assert_array_equal(fig.data[0].x, [1, 2, 3])
    row = evaluate(np.eye(4), [0, 0, 1, 1], [0, 0, 1, 1])
    bars = plots.metrics_bar([row], ["m"])
    assert list(bars.data[0].x)[1:] == ["accuracy", "NMI", "Rand", "F"]


# ---- layout: legends and titles that do not overlap (issue 13, audit at 1280 / 1920 px) ----


def test_legend_sits_below_the_axis_title_at_any_height(fitted):
    X, _, result = fitted
    margins = X @ result.w - result.b
    for height in (300, 330, 600):
        fig = plots.margin_histogram(margins, result.labels, 0.8, 0.5, height=height)
        legend, margin = fig.layout.legend, fig.layout.margin
        # Anchored to the figure's bottom edge, not a fraction of the plot height (y=-0.2
        # put it on the x axis title in a 330 px figure).
        assert (legend.yref, legend.y, legend.yanchor) == ("container", 0, "bottom")
        rows = plots.legend_rows([t.name for t in fig.data], 400)
        assert rows >= 1
        # The bottom margin holds the tick labels, the axis title and every legend row, and
        # the figure grew by the rows (and the title's extra lines) so the plot area kept
        # its height.
        assert margin.b >= 34 + 18 + 20 * rows
        grown = height + 20 * rows + (margin.t - 80)
        assert fig.layout.height == grown
        plots.tidy_layout(fig)  # idempotent
        assert fig.layout.height == grown


def test_multi_line_title_gets_the_top_margin_it_needs(fitted):
    X, _, result = fitted
    margins = X @ result.w - result.b
    fig = plots.margin_histogram(margins, result.labels, 0.8, 0.5, height=330)
    text = fig.layout.title.text
    assert not text.startswith("<br>")  # no empty first line pushing the rest down
    lines = text.split("<br>")
    # wrapped so that each line fits half a 1280 px page in presenter mode's fonts
    assert len(lines) == 3 and all(len(line) <= 52 + len("<sup></sup>") for line in lines)
    # plotly centres the first baseline in the margin: the rest must fit in its lower half
    assert fig.layout.margin.t / 2 >= 16 * (len(lines) - 1) + 10
    panel = plots.grid_panel(
        plots.margin_histogram(margins, result.labels, 0.8, 0.5, title="MSPC (MPM)")
    )
    title = panel.layout.title
    n = title.text.count("<br>") + 1 + title.subtitle.text.count("<br>") + 1
    assert n >= 3 and panel.layout.margin.t / 2 >= 15 * (n - 1) + 10
    # A panel's Theorem 5 lines are its subtitle, at 11 px (as <sup> plotly drew them at 9).
    assert "Theorem 5" in title.subtitle.text and "<sup>" not in title.subtitle.text
    assert title.subtitle.font.size >= 11


def test_method_legend_fits_in_the_figure():
    fig = go.Figure(
        [go.Bar(name=f"kmeans ({w})", x=["a"], y=[1]) for w in ("ours", "paper")]
        + [
            go.Bar(name=f"mspc-mpm{s} ({w})", x=["a"], y=[1])
            for s in ("", "-monotone")
            for w in ("ours", "paper")
        ]
        * 4,
        layout={"height": 450},
    )
    plots.apply_method_style(fig)
    entries = len(fig.data)
    assert fig.layout.legend.tracegroupgap <= 2
    assert fig.layout.height >= 70 + 60 + 22 * entries


def test_grid_panel_margins_hold_what_plotly_would_grow_them_to(fitted):
    # grid_panel sizes the margins itself so plotly lays a panel out once (an automargin
    # push redraws the whole panel); the numbers are measured in Chromium (bench/RESULTS.md).
    X, y, result = fitted
    proj = projections.project(X, "discriminant", w=result.w, b=result.b)
    fig = plots.cluster_scatter(proj, result.labels, y, title="MSP 0.9 · accuracy 0.9", height=420)
    plots.grid_panel(fig)
    layout = fig.layout
    entries = [t for t in fig.data if t.showlegend is not False and t.name]
    assert (layout.legend.orientation, layout.legend.yref, layout.legend.y) == ("v", "container", 0)
    # Every legend entry has its row under the tick labels and the x axis title ...
    assert layout.margin.b >= 66 + 19 * len(entries)
    # ... the y title (2 lines here at most) and tick labels fit on the left ...
    assert layout.margin.l >= 17 + 7 * 2 + 22 + 15
    # ... and the figure grew by the legend, so the plot area keeps its height.
    assert layout.height - layout.margin.t - layout.margin.b == 420 - layout.margin.t - 66


def test_grow_margins_keeps_the_plot_area():
    fig = go.Figure(go.Bar(x=["a"], y=[1]), layout={"height": 300, "margin": {"t": 40, "b": 50}})
    plots.grow_margins(fig, l=72, b=84, t=30)
    margin = fig.layout.margin
    assert (margin.l, margin.b, margin.t) == (72, 84, 40)  # raised, never lowered
    assert fig.layout.height - margin.t - margin.b == 300 - 40 - 50


def test_two_panels_is_the_layout_make_subplots_gives():
    from plotly.subplots import make_subplots

    from lab.plots.grid import two_panels

    titles = ("clustering accuracy (%)", "MSP")
    want = make_subplots(rows=1, cols=2, subplot_titles=titles).layout.to_plotly_json()
    got = go.Figure(layout=two_panels(titles)).layout.to_plotly_json()
    want.pop("template", None)
    got.pop("template", None)
    assert got == want
