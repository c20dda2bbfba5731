"""Tests of lab.experiments.protocols and lab.theorems: the experiments behind
the analysis pages and Figs. 1-3."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from clustering import ALGORITHMS
from clustering.metrics import chebyshev_fraction, msp_heldout_score, msp_score
from lab import theorems
from lab.experiments import protocols as analysis

LAM = 0.1
INVARIANT = ("mspc-mpm", {"lam": LAM, "init": "kmeans-standardized", "n_init": 3})
PAPER = ("mspc-mpm", {"lam": LAM, "init": "kmeans", "n_init": 3})


def afs_trap(n: int = 160, seed: int = 0):
    """Two clusters along feature 0; feature 1 is unimodal noise of the same spread."""
    rng = np.random.default_rng(seed)
    y = np.repeat([0, 1], n // 2)
    signal = np.where(y == 1, 3.0, -3.0) + rng.standard_normal(n)
    noise = 3.0 * rng.standard_normal(n)
    return np.column_stack([signal, noise]), y


def gaussians(n_per: int = 60, d: int = 4, gap: float = 3.0, seed: int = 0):
    rng = np.random.default_rng(seed)
    X = np.vstack([rng.normal(0, 1, (n_per, d)), rng.normal(0, 1, (n_per, d)) + gap / np.sqrt(d)])
    X *= rng.uniform(0.5, 2.0, d)
    return X, np.repeat([0, 1], n_per)


# ---------------------------------------------------------------------------------------------
# afs_sensitivity
# ---------------------------------------------------------------------------------------------


def test_invariant_start_does_not_move_while_the_paper_pipeline_does():
    X, y = afs_trap()
    methods = {"paper": PAPER, "invariant": INVARIANT}
    if "kmeans" in ALGORITHMS:
        methods["k-means"] = ("kmeans", {})
    runs, _ = analysis.afs_sensitivity(
        X, y, methods, factors=(1, 4, 16, 64), features=[1], random_state=0
    )
    assert (runs["error"] == "").all()
    inv = runs[runs["method"] == "invariant"]
    # Exactly invariant: the same accuracy and the same MSP at every factor.
    assert inv["accuracy"].nunique() == 1
    assert inv["accuracy"].iloc[0] > 0.95
    np.testing.assert_allclose(inv["msp"], inv["msp"].iloc[0], rtol=1e-9)
    # The k-means start follows the inflated noise feature and the local search keeps it.
    paper = runs[runs["method"] == "paper"].set_index("factor")["accuracy"]
    assert paper[1.0] > 0.95
    assert paper[64.0] < 0.8
    if "k-means" in methods:
        km = runs[runs["method"] == "k-means"].set_index("factor")["accuracy"]
        assert km[64.0] < km[1.0] - 0.2


def test_protocol_scales_distinct_features_and_all_of_them_when_d_is_small():
    X, y = gaussians(d=8, n_per=25)
    runs, _ = analysis.afs_sensitivity(
        X, y, {"eig": ("mspc-eig", {"lam": LAM})}, factors=(1, 2), n_repeats=10, random_state=3
    )
    # d = 8 < 10 repeats: every feature is scaled exactly once (the paper's diabetes case).
    assert sorted(runs.loc[runs["factor"] == 2, "feature"]) == list(range(8))
    assert runs["repeat"].nunique() == 8
    assert len(runs) == 16

    X, y = gaussians(d=12, n_per=25)
    runs, _ = analysis.afs_sensitivity(
        X, y, {"eig": ("mspc-eig", {"lam": LAM})}, factors=(2,), n_repeats=10, random_state=3
    )
    assert runs["feature"].nunique() == 10


def test_summary_agrees_with_the_runs_and_the_progress_reaches_one():
    X, y = gaussians(d=5, n_per=30)
    calls = []
    runs, summary = analysis.afs_sensitivity(
        X,
        y,
        {"a": ("mspc-eig", {"lam": LAM}), "b": ("mspc-gep", {"lam": 1.0, "n_init": 2})},
        factors=(1, 8),
        n_repeats=3,
        progress=lambda f, m: calls.append((f, m)),
    )
    assert calls[-1][0] == 1.0
    fractions = [f for f, _ in calls]
    assert fractions == sorted(fractions) and 0 <= fractions[0]
    expected = runs.groupby(["method", "factor"], sort=False)["accuracy"].mean()
    got = summary.set_index(["method", "factor"])["accuracy_mean"]
    pd.testing.assert_series_equal(got.sort_index(), expected.sort_index(), check_names=False)
    assert list(summary["method"].unique()) == ["a", "b"]
    # Factor 1 is the unscaled data: one fit shared by every repetition.
    one = runs[(runs["factor"] == 1) & (runs["method"] == "b")]
    assert one["accuracy"].nunique() == 1 and len(one) == 3
    assert (summary["n_runs"] == 3).all() and (summary["n_failed"] == 0).all()


def test_failures_are_recorded_not_raised():
    X, y = gaussians(d=3, n_per=20)
    runs, summary = analysis.afs_sensitivity(
        X, y, {"bad": ("no-such-method", {})}, factors=(1, 2), n_repeats=2
    )
    assert runs["error"].str.contains("No algorithm is registered").all()
    # Factor 1 is fitted once (and fails once); factor 2 fails in each of the 2 repeats.
    assert summary.set_index("factor")["n_failed"].to_dict() == {1.0: 2, 2.0: 2}
    assert summary["n_runs"].sum() == 0


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"factors": (1, 0)}, "positive"),
        ({"n_repeats": 0}, "n_repeats"),
        ({"features": [7]}, "features"),
    ],
)
def test_invalid_arguments_are_rejected(kwargs, match):
    X, y = gaussians(d=3, n_per=10)
    with pytest.raises(ValueError, match=match):
        analysis.afs_sensitivity(X, y, {"eig": ("mspc-eig", {})}, **kwargs)


# ---------------------------------------------------------------------------------------------
# lam_sweep, evaluate_fit
# ---------------------------------------------------------------------------------------------


def test_lam_sweep_argmaxes_match_its_table_and_msp_is_on_one_scale():
    X, y = gaussians(d=4, n_per=40, gap=2.5)
    lams = [1e-3, 1e-1, 10.0, 1e3]
    sweep = analysis.lam_sweep(X, y, "mspc-gep", lams=lams, params={"n_init": 2})
    table = sweep.table
    assert table["lam"].tolist() == lams
    # The label-free choice is by the held-out MSP; lam_choice gives the in-sample one.
    assert sweep.best_msp_lam == table.loc[table["msp_heldout"].idxmax(), "lam"]
    assert analysis.lam_choice(table, "msp").lam == table.loc[table["msp"].idxmax(), "lam"]
    assert sweep.best_accuracy_lam == table.loc[table["accuracy"].idxmax(), "lam"]
    assert sweep.best_accuracy == table["accuracy"].max()
    assert (
        sweep.accuracy_at_best_msp
        == table.loc[table["lam"] == sweep.best_msp_lam, "accuracy"].iloc[0]
    )
    # Every labeling's MSP is measured with lam = SWEEP_MSP_LAM; own_msp with its own lam,
    # which falls as lam grows (bigger regularised covariances).
    model = ALGORITHMS["mspc-gep"].make(lam=1e3, n_init=2, random_state=0).fit(X)
    row = table.iloc[-1]
    assert row["msp"] == pytest.approx(
        msp_score(X, model.labels_, lam=analysis.SWEEP_MSP_LAM), rel=1e-9
    )
    assert row["own_msp"] == pytest.approx(model.msp_, rel=1e-9)
    assert row["msp_heldout"] == pytest.approx(
        msp_heldout_score(X, model.labels_, lam=analysis.SWEEP_MSP_LAM, random_state=0),
        rel=1e-9,
    )
    assert table["own_msp"].iloc[0] > table["own_msp"].iloc[-1]


def test_lam_sweep_without_labels_selects_by_msp_only():
    X, _ = gaussians(d=3, n_per=30)
    sweep = analysis.lam_sweep(X, None, "mspc-eig", lams=[0.01, 1.0])
    assert sweep.table["accuracy"].isna().all()
    assert np.isnan(sweep.best_accuracy_lam)
    assert sweep.best_msp_lam in (0.01, 1.0)


def test_evaluate_fit_turns_a_solver_failure_into_a_message(monkeypatch):
    from clustering import mspc
    from clustering.exceptions import SolverFailedError

    def boom(*args, **kwargs):
        raise SolverFailedError("The solver gave up; try a larger lam.")

    monkeypatch.setitem(mspc.SOLVERS, "eig", boom)
    X, y = gaussians(d=3, n_per=10)
    outcome = analysis.evaluate_fit("mspc-eig", {}, X, y)
    assert outcome.error == "The solver gave up; try a larger lam."
    assert outcome.labels is None and np.isnan(outcome.accuracy)


def test_methods_without_lam_are_scored_at_the_one_reference_lam():
    """k-means' MSP (app column, lam sweep, cells) is the MSP at MSP_REFERENCE_LAM, and the
    outcome serialises to what a cell stores."""
    from lab.evaluation import MSP_REFERENCE_LAM

    X, y = gaussians(d=3, n_per=30)
    outcome = analysis.evaluate_fit("kmeans", {}, X, y)
    assert outcome.ok and outcome.msp_lam == MSP_REFERENCE_LAM == analysis.SWEEP_MSP_LAM
    assert outcome.msp == pytest.approx(
        msp_score(X, outcome.labels, lam=MSP_REFERENCE_LAM, regularizer="diag"), rel=1e-12
    )
    stored = outcome.to_dict()
    assert stored["status"] == "ok" and stored["msp"] == outcome.msp
    assert stored["accuracy"] == outcome.accuracy
    bad = analysis.evaluate_fit("kmeans", {"n_init": -1}, X, y).to_dict()
    assert bad["status"] == "failed" and "n_init" in bad["error"]


# ---------------------------------------------------------------------------------------------
# msp_accuracy_family, pearson, fit_line
# ---------------------------------------------------------------------------------------------


def test_family_has_one_row_per_task_and_better_separated_tasks_score_higher():
    tasks = [(f"gap {g}", *gaussians(d=3, n_per=40, gap=g, seed=1)) for g in (1.0, 3.0, 6.0)]
    table = analysis.msp_accuracy_family(tasks, "mspc-mpm", {"lam": LAM, "n_init": 2})
    assert table["name"].tolist() == ["gap 1.0", "gap 3.0", "gap 6.0"]
    assert (table["error"] == "").all()
    assert table["msp"].is_monotonic_increasing
    assert table["accuracy"].iloc[-1] == 1.0
    assert analysis.pearson(table["msp"], table["accuracy"]) > 0.8
    # The held-out MSP and the smallest cluster of each task's own fit.
    for (_name, X, y), (_, row) in zip(tasks, table.iterrows(), strict=True):
        fit = analysis.evaluate_fit("mspc-mpm", {"lam": LAM, "n_init": 2}, X, y)
        assert row["msp_heldout"] == pytest.approx(fit.msp_heldout, abs=1e-12)
        assert row["smallest"] == np.bincount(fit.labels).min()


def test_pearson_and_fit_line_agree_with_scipy_and_skip_missing_values():
    rng = np.random.default_rng(0)
    x, y = rng.random(20), rng.random(20)
    assert analysis.pearson(x, y) == pytest.approx(stats.pearsonr(x, y).statistic, rel=1e-12)
    slope, intercept = analysis.fit_line(x, y)
    fit = stats.linregress(x, y)
    assert (slope, intercept) == pytest.approx((fit.slope, fit.intercept), rel=1e-10)
    x2, y2 = np.append(x, np.nan), np.append(y, 0.5)
    assert analysis.pearson(x2, y2) == pytest.approx(analysis.pearson(x, y))
    assert np.isnan(analysis.pearson([1, 2], [3, 4]))
    assert np.isnan(analysis.pearson([1, 1, 1], [1, 2, 3]))
    assert all(np.isnan(analysis.fit_line([1], [2])))


# ---------------------------------------------------------------------------------------------
# Theorems 1, 2, 5
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_theorem1_diag_regularizer_is_invariant_to_any_positive_scaling(seed):
    rng = np.random.default_rng(seed)
    X, _ = gaussians(d=5, n_per=30, seed=seed)
    labels = rng.integers(0, 2, X.shape[0])
    factors = 10.0 ** rng.uniform(-3, 3, X.shape[1])
    check = theorems.theorem1_check(X, labels, factors, lam=LAM, regularizer="diag")
    assert check.expected_invariant
    assert check.relative_difference < 1e-9
    assert check.msp_before == pytest.approx(msp_score(X, labels, lam=LAM), rel=1e-12)


def test_theorem1_identity_regularizer_is_not_invariant():
    X, y = gaussians(d=3, n_per=40)
    check = theorems.theorem1_check(X, y, [1.0, 1000.0, 1.0], lam=1.0, regularizer="identity")
    assert not check.expected_invariant
    assert check.relative_difference > 1e-3


def test_theorem1_general_invertible_map_needs_lam_zero_or_total():
    X, y = gaussians(d=3, n_per=40)
    P = np.array([[2.0, 1.0, 0.0], [0.0, 1.0, 3.0], [1.0, 0.0, 1.0]])
    for lam, regularizer in [(0.0, "diag"), (1.0, "total")]:
        check = theorems.theorem1_check(X, y, P, lam=lam, regularizer=regularizer)
        assert check.expected_invariant and check.relative_difference < 1e-9
    check = theorems.theorem1_check(X, y, P, lam=1.0, regularizer="diag")
    assert not check.expected_invariant and check.relative_difference > 1e-6
    with pytest.raises(ValueError, match="singular"):
        theorems.theorem1_check(X, y, np.zeros((3, 3)), lam=0.0)


@pytest.mark.parametrize("seed", range(4))
def test_lower_bound_4_never_exceeds_kappa_squared(seed):
    rng = np.random.default_rng(seed)
    X, y = gaussians(d=3, n_per=50, seed=seed)
    labels = y if seed == 0 else (rng.random(X.shape[0]) < rng.uniform(0.1, 0.9)).astype(int)
    check = theorems.lower_bound_check(X, labels, lam=LAM)
    assert 0 <= check.bound <= check.kappa_squared * (1 + 1e-9)
    assert check.r1 == pytest.approx(labels.mean())


def test_lower_bound_4_is_tight_for_balanced_clusters_with_equal_covariances():
    # Bound (4) equals kappa^2 when r1 = r2 and the two clusters have the same covariance.
    rng = np.random.default_rng(0)
    A = rng.normal(size=(200, 2))
    X = np.vstack([A, A + np.array([3.0, 1.0])])
    labels = np.repeat([0, 1], 200)
    check = theorems.lower_bound_check(X, labels, lam=0.0, regularizer="none")
    assert check.bound == pytest.approx(check.kappa_squared, rel=1e-6)


def test_margin_guarantee_holds_on_the_sample_for_lam_zero():
    # With lam = 0 the sample's own distribution has exactly the moments MSP uses, so
    # Theorem 5's fraction must hold on the sample for the MPM hyperplane.
    X, _ = gaussians(d=2, n_per=200, gap=4.0, seed=4)
    model = ALGORITHMS["mspc-mpm"].make(lam=0.0, regularizer="none", random_state=0).fit(X)
    rhos = np.linspace(0, 1, 6)
    table = theorems.margin_guarantee(X, model.labels_, model.w_, model.b_, model.msp_, rhos)
    assert table["guarantee"].tolist() == [chebyshev_fraction(model.msp_, r) for r in rhos]
    assert table["guarantee"].is_monotonic_decreasing
    assert (table["fraction_min"] >= table["guarantee"] - 1e-12).all()


# ---------------------------------------------------------------------------------------------
# The evaluator hook and the figures
# ---------------------------------------------------------------------------------------------


def test_evaluator_hook_replaces_every_fit_and_factor_one_is_fitted_once_per_method():
    X, y = gaussians(d=3, n_per=20)
    calls = []

    def counting(key, params, X_, y_, **kwargs):
        calls.append((key, float(np.abs(X_).sum())))
        return analysis.evaluate_fit(key, params, X_, y_, **kwargs)

    analysis.afs_sensitivity(
        X,
        y,
        {"a": ("mspc-eig", {}), "b": ("mspc-eig", {"lam": 10.0})},
        factors=(1, 2, 4),
        n_repeats=3,
        evaluator=counting,
    )
    assert len(calls) == 2 * (1 + 3 * 2)
    sweep = analysis.lam_sweep(X, y, "mspc-eig", lams=[0.1, 1.0], evaluator=counting)
    assert len(calls) == 14 + 2 and len(sweep.table) == 2


def test_figures_carry_the_numbers_they_show():
    from lab.plots import analysis as plots_analysis

    X, y = gaussians(d=3, n_per=30, gap=2.0)
    _, summary = analysis.afs_sensitivity(
        X, y, {"a": ("mspc-eig", {}), "b": ("mspc-gep", {"n_init": 2})}, factors=(1, 4), n_repeats=2
    )
    fig = plots_analysis.sensitivity_figure(summary)
    assert [t.name for t in fig.data] == ["a", "b"]
    assert {t.marker.symbol for t in fig.data} == {"circle", "square"}
    # Accuracy as the tables write it: a fraction, not a percentage (one format per page).
    np.testing.assert_allclose(fig.data[0].y, summary["accuracy_mean"].iloc[:2])
    assert fig.layout.xaxis.type == "log"

    table = pd.DataFrame(
        {"name": list("abcd"), "msp": [0.1, 0.4, 0.6, 0.9], "accuracy": [0.5, 0.7, 0.8, 0.95]}
    )
    fig = plots_analysis.msp_accuracy_figure(table, highlight=["c"])
    r = analysis.pearson(table["msp"], table["accuracy"])
    assert f"r = {r:.2f}" in fig.layout.title.text
    assert list(fig.data[0].text) == list("abcd")
    assert fig.data[-1].text == ("c",)
    big = pd.DataFrame({"name": [str(i) for i in range(600)], "msp": np.linspace(0, 1, 600)})
    big["accuracy"] = big["msp"]
    assert type(plots_analysis.msp_accuracy_figure(big).data[0]).__name__ == "Scattergl"

    sweep = analysis.lam_sweep(X, y, "mspc-eig", lams=[0.01, 1.0, 100.0])
    fig = plots_analysis.lam_sweep_figure(sweep)
    names = [t.name for t in fig.data]
    assert f"largest held-out MSP: λ = {sweep.best_msp_lam:g}" in names
    fig = plots_analysis.lam_sweep_figure(sweep, by="msp")
    chosen = analysis.lam_choice(sweep.table, "msp").lam
    assert f"largest in-sample MSP: λ = {chosen:g}" in [t.name for t in fig.data]
    assert f"largest accuracy: λ = {sweep.best_accuracy_lam:g}" in names

    empty = plots_analysis.sensitivity_figure(summary.iloc[0:0])
    assert empty.layout.annotations[0].text == "No successful runs to plot."


def test_the_least_squares_line_is_drawn_only_within_0_and_100_percent():
    from lab.plots import analysis as plots_analysis

    # The least-squares line through these points ends above 1 at MSP 1.
    table = pd.DataFrame(
        {
            "name": list("abcde"),
            "msp": [0.0, 0.1, 0.5, 0.9, 1.0],
            "accuracy": [0.5, 0.5, 0.75, 1.0, 1.0],
        }
    )
    slope, intercept = analysis.fit_line(table["msp"], table["accuracy"])
    assert slope + intercept > 1.0  # unclipped, the line would end above 100 %
    fig = plots_analysis.msp_accuracy_figure(table)
    line = next(t for t in fig.data if t.mode == "lines")
    assert min(line.y) >= -1e-9 and max(line.y) <= 1 + 1e-9
    assert max(line.y) == pytest.approx(min(1.0, slope + intercept))
    # A line outside [0, 1] over the whole range of the points is not drawn at all.
    assert plots_analysis.line_within_unit(0.0, 1.2, 0.0, 1.0) is None
    assert plots_analysis.line_within_unit(1.0, 2.0, 0.0, 1.0) is None


def test_the_fitted_lines_equation_reads_in_the_units_of_the_axes():
    """Issue 33: "accuracy = -1.72·MSP + 2.42" was drawn on an axis in %. The equation in
    the legend, evaluated at the drawn x, gives the drawn y, for one family and for each
    family of a grouped figure."""
    import re

    from lab.plots import analysis as plots_analysis

    rng = np.random.default_rng(1)
    table = pd.DataFrame({"name": [f"t{i}" for i in range(30)], "msp": rng.uniform(0.5, 1, 30)})
    table["accuracy"] = np.clip(0.3 + 0.6 * table["msp"] + rng.normal(0, 0.03, 30), 0, 1)
    table["family"] = np.repeat(["A", "B", "C"], 10)
    for group in (None, "family"):
        fig = plots_analysis.msp_accuracy_figure(table, group=group)
        lines = [t for t in fig.data if t.mode == "lines"]
        assert len(lines) == (1 if group is None else 3)
        for t in lines:
            a, b = map(float, re.search(r"= (-?[\d.]+)·MSP ([+-][\d.]+)", t.name).groups())
            # two decimals each: at most 0.005·x + 0.005 apart
            np.testing.assert_allclose(t.y, a * np.asarray(t.x) + b, atol=0.0101)
        points = [t for t in fig.data if t.mode == "markers"]
        assert all(0 <= v <= 1 for t in points for v in t.y)
        assert fig.layout.yaxis.title.text == "clustering accuracy"
