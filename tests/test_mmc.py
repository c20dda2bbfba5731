"""MMCMultivariate: contingency-table losses, the most violated constraint, Theorem 2, the
QP's DPP form, the class balance and the solver failure path."""

from __future__ import annotations

import itertools

import cvxpy as cp
import numpy as np
import pytest

from clustering import MMCMultivariate, SolverFailedError, metrics
from clustering._cvx import SolverAccuracyWarning, solve
from clustering._mmc_losses import (
    f_from_table,
    loss_from_table,
    most_violated_constraint,
    nmi_from_table,
    rand_from_table,
)
from clustering._mmc_qp import solve_plane_qp
from clustering.mmc import _CCCPProblem, _largest_variance, _start_labels, solve_mmc
from tests.conftest import make_cvxpy_fail, two_gaussians


def _table(y_prime, y_bar):
    a = int(((y_prime > 0) & (y_bar > 0)).sum())
    b = int(((y_prime > 0) & (y_bar <= 0)).sum())
    c = int(((y_prime <= 0) & (y_bar > 0)).sum())
    d = int(((y_prime <= 0) & (y_bar <= 0)).sum())
    return a, b, c, d


def loss_of_labelings(loss, y_prime, y_bar, beta):
    """``Delta(y', ybar)`` for two labelings in ``{-1, +1}^n``, from their table."""
    return float(loss_from_table(loss, *_table(np.asarray(y_prime), np.asarray(y_bar)), beta))


def test_losses_from_the_table_equal_the_metrics():
    rng = np.random.default_rng(0)
    for n in [1, 2, 3, 5, 20, 101]:
        for _ in range(30):
            y_bar = np.where(rng.uniform(size=n) < rng.uniform(), 1, -1)
            y_prime = rng.choice([-1, 1], n)
            if rng.uniform() < 0.2:  # degenerate labelings: a single group
                y_prime = np.ones(n, dtype=int)
            table = _table(y_prime, y_bar)
            assert nmi_from_table(*table) == pytest.approx(metrics.nmi(y_bar, y_prime), abs=1e-12)
            assert rand_from_table(*table) == pytest.approx(metrics.rand_index(y_bar, y_prime))
            for beta in (1.0, 1.5, 3.0):
                assert f_from_table(*table, beta=beta) == pytest.approx(
                    metrics.f_measure(y_bar, y_prime, beta=beta)
                )


@pytest.mark.parametrize("loss", ["nmi", "rand", "f", "error"])
def test_most_violated_constraint_equals_brute_force(loss):
    rng = np.random.default_rng(1)
    for n in range(1, 11):
        for _ in range(4):
            f = rng.normal(0, rng.choice([0.01, 0.3, 2.0]), n)
            y_bar = np.where(rng.uniform(size=n) < 0.5, 1.0, -1.0)
            found = most_violated_constraint(f, y_bar, loss, beta=1.5)
            best = max(
                np.asarray(y) @ f + loss_of_labelings(loss, np.asarray(y), y_bar, 1.5)
                for y in itertools.product([-1.0, 1.0], repeat=n)
            )
            assert found.y @ f + found.loss == pytest.approx(best, abs=1e-10)
            assert found.loss == pytest.approx(loss_of_labelings(loss, found.y, y_bar, 1.5))
            assert found.slack == pytest.approx(found.loss - (y_bar - found.y) @ f)


@pytest.mark.parametrize("loss", ["nmi", "rand", "f", "error"])
@pytest.mark.parametrize(("n_p", "n_n"), [(0, 7), (7, 0), (1, 1), (120, 75)])
def test_the_table_scan_equals_the_losses_of_every_table(loss, n_p, n_n, monkeypatch):
    """The scan's shortcuts (a k log k table, sliding windows, pair counts from row and
    column terms), in blocks of a few rows, against loss_from_table cell by cell."""
    from clustering import _mmc_losses

    monkeypatch.setattr(_mmc_losses, "_BLOCK_CELLS", 500)
    scan = _mmc_losses._TableScan(loss, n_p, n_n, 1.5)
    a, b = np.meshgrid(np.arange(n_p + 1), np.arange(n_n + 1), indexing="ij")
    expected = loss_from_table(loss, a, b, n_p - a, n_n - b, 1.5)
    step = max(1, 500 // (n_n + 1))
    got = np.vstack([scan.losses(i, min(i + step, n_p + 1)) for i in range(0, n_p + 1, step)])
    np.testing.assert_allclose(got, expected, rtol=1e-10, atol=1e-12)


def test_cccp_qp_is_dpp():
    qp = _CCCPProblem(d=3, C=1.0, B=0.1, max_constraints=5)
    assert qp.problem.is_dcp(dpp=True)
    assert qp.problem.is_qp()


def test_dual_qp_equals_the_cvxpy_primal():
    """The default solver (the dual over the cutting planes) against an independent cvxpy
    model of the same QP (17) on random instances, with the offset bound active or not."""
    rng = np.random.default_rng(7)
    for trial in range(40):
        K, d = int(rng.integers(1, 25)), int(rng.integers(1, 40))
        A = rng.normal(size=(K, d)) * rng.choice([0.1, 1.0])
        c = rng.normal(size=K) * rng.choice([0.0, 0.2, 1.0])
        delta = rng.uniform(0, 1, K)
        C, B = float(rng.choice([0.03, 0.3, 3.0])), float(rng.choice([0.0, 0.01, 1.0]))
        ours = solve_plane_qp(A, c, delta, C, B)
        model = _CCCPProblem(d, C, B, max_constraints=K)
        u, beta = model.solve(A, c, delta, "CLARABEL")
        theirs = 0.5 * u @ u + C * max(0.0, (A @ u + c * beta + delta).max())
        # Our point is feasible by construction; its objective is the optimum's.
        assert ours.objective == pytest.approx(theirs, rel=1e-5), trial
        assert abs(ours.beta) <= B + 1e-12
        assert ours.xi == pytest.approx(max(0.0, (A @ ours.u + c * ours.beta + delta).max()))
        assert np.abs(ours.u - u).max() <= 1e-3 * np.abs(u).max() + 1e-9, trial


def test_error_loss_is_the_classical_mmc():
    """Theorem 2: with Delta = 2 x (number of disagreements) the solution is the SVM with
    hinge loss and C_uni / n = 2 C on its own labels (the CCCP fixed point of MMC (1))."""
    X, _ = two_gaussians(n_per=25, d=2, gap=3.0, seed=3)
    n = X.shape[0]
    l, tol = 0.5, 1e-7
    model = MMCMultivariate("error", C=1.0, l=l, tol=tol, max_iter=200, random_state=0).fit(X)
    Xc = X - X.mean(axis=0)
    # The estimator's C is per sample and relative to the largest variance.
    assert model.scale_ == pytest.approx(np.linalg.eigvalsh(np.cov(Xc.T, bias=True))[-1])
    C = model.C_paper_
    assert C == pytest.approx(1.0 / (model.scale_ * n))
    assert model.converged_
    s = 2.0 * model.labels_ - 1
    w, b, xi = cp.Variable(2), cp.Variable(), cp.Variable(n, nonneg=True)
    f = Xc @ w + b
    svm = cp.Problem(
        cp.Minimize(0.5 * cp.sum_squares(w) + 2 * C * cp.sum(xi)),
        [cp.multiply(s, f) >= 1 - xi, cp.abs(cp.sum(f)) <= l],
    )
    svm.solve(solver="CLARABEL")
    assert model.objective_ == pytest.approx(svm.value, rel=1e-3)
    np.testing.assert_allclose(model.w_, w.value, rtol=2e-2, atol=1e-3 * np.abs(w.value).max())
    # Its slack is exactly twice the total hinge loss.
    hinge = np.maximum(0, 1 - s * (X @ model.w_ - model.b_)).sum()
    assert model.xi_ == pytest.approx(2 * hinge, rel=1e-3, abs=1e-6)


@pytest.mark.parametrize("loss", ["nmi", "rand", "f"])
def test_fit_respects_the_class_balance_and_labels_match_predict(loss):
    X, _ = two_gaussians(n_per=30, d=3, gap=6.0, seed=5)
    l = 0.05
    model = MMCMultivariate(loss, C=0.3, l=l, random_state=0).fit(X)
    assert model.C_paper_ == pytest.approx(0.3 / (model.scale_ * X.shape[0] ** 2))
    f = model.decision_function(X)
    assert abs(f.sum()) <= l * (1 + 1e-6) + 1e-8
    np.testing.assert_array_equal(model.predict(X), model.labels_)
    assert 0.0 <= model.xi_ and model.objective_ == pytest.approx(
        0.5 * model.w_ @ model.w_ + model.C_paper_ * model.xi_
    )


@pytest.mark.parametrize("loss", ["nmi", "error"])
def test_common_units_do_not_change_the_fit(loss):
    """C is relative to the data's largest variance: digits as pixel counts (0-16) and the
    same data times 1000 give the same partition. With C in the paper's units the pixel
    counts acted like a 64 times larger C and the seeds ended at NMI 0.00-0.83."""
    rng = np.random.default_rng(2)
    X, _ = two_gaussians(n_per=40, d=4, gap=4.0, seed=2)
    X = X * rng.uniform(0.5, 2.0, 4)
    small = MMCMultivariate(loss, random_state=0).fit(X)
    large = MMCMultivariate(loss, random_state=0).fit(1000.0 * X)
    np.testing.assert_array_equal(small.labels_, large.labels_)
    assert large.scale_ == pytest.approx(1e6 * small.scale_)


def test_seeds_give_the_same_partition():
    X, y = two_gaussians(n_per=60, d=5, gap=5.0, seed=11)
    labels = [MMCMultivariate(n_init=1, random_state=seed).fit(X).labels_ for seed in range(5)]
    for other in labels[1:]:
        assert metrics.clustering_accuracy(labels[0], other) == 1.0
    assert metrics.clustering_accuracy(y, labels[0]) >= 0.95


def test_error_loss_at_n_1600():
    """Two Gaussians in 10 dimensions, means 3 apart on one axis. The error loss collapsed
    to accuracy 0.50 here: its C was scaled like the other losses' (per sample squared)
    though its loss grows with n, so the margin term drowned the loss from n ~ 1000."""
    rng = np.random.default_rng(0)
    n, d = 1600, 10
    y = np.arange(n) % 2
    X = rng.normal(size=(n, d))
    X[:, 0] += 3.0 * y
    model = MMCMultivariate("error", random_state=0).fit(X)
    assert metrics.clustering_accuracy(y, model.labels_) >= 0.9


def test_fit_keeps_the_lowest_objective_over_its_starts():
    X, _ = two_gaussians(n_per=40, d=3, gap=3.0, seed=4)
    X[:, 2] *= 4.0  # a noisy feature in larger units: the three starts differ
    model = MMCMultivariate(init="auto", n_init=1, random_state=0).fit(X)
    n = X.shape[0]
    Xt = (X - X.mean(axis=0)) / np.sqrt(_largest_variance(X - X.mean(axis=0)))
    kwargs = dict(
        loss="nmi", beta=1.5, C=0.5, B=0.01, loss_scale=1.0, tol=1e-3, cccp_tol=1e-4,
        max_iter=50, max_cccp_iter=20, solver=None,
    )  # fmt: skip
    starts = _start_labels(X, "auto", n_init=1, random_state=np.random.RandomState(0))
    assert [name for name, _ in starts] == ["kmeans", "kmeans-standardized", "pca"]
    for _, start in starts:
        for flag in (False, True):
            run = solve_mmc(Xt, 2 * start - 1, w0_from_labels=flag, **kwargs)
            paper = run.objective / (n**2 * model.scale_)
            assert model.objective_ <= paper * (1 + 1e-9)


def test_beats_kmeans_on_digits_3v8():
    """The paper's Table III: k-means NMI 0.714, MMC_multi 0.861 on digits 3 vs 8."""
    datasets = pytest.importorskip("datasets")
    ds = datasets.load("digits:3v8")
    assert ds.X.shape[0] == 357
    model = MMCMultivariate("nmi", random_state=0).fit(ds.X)  # defaults
    assert metrics.nmi(ds.y, model.labels_) >= 0.80


def test_solver_failure_is_explained(monkeypatch):
    make_cvxpy_fail(monkeypatch)
    X, _ = two_gaussians(n_per=10, seed=6)
    with pytest.raises(SolverFailedError, match=r"CLARABEL failed on the CCCP subproblem \(17\)"):
        MMCMultivariate(solver="CLARABEL", random_state=0).fit(X)


def test_a_stalled_dual_falls_back_to_cvxpy(monkeypatch):
    from clustering import _mmc_qp

    X, _ = two_gaussians(n_per=10, seed=6)
    expected = MMCMultivariate(random_state=0).fit(X).labels_
    monkeypatch.setattr(_mmc_qp.dense_qp, "__kwdefaults__", {"tol": 1e-9, "max_iter": 1})
    with pytest.raises(SolverFailedError, match=r"did not converge.*Try solver='CLARABEL'"):
        _mmc_qp.solve_plane_qp(np.eye(2), np.ones(2), np.ones(2), 1.0, 0.1)
    labels = MMCMultivariate(random_state=0).fit(X).labels_
    assert metrics.clustering_accuracy(expected, labels) == 1.0

    make_cvxpy_fail(monkeypatch)
    with pytest.raises(SolverFailedError, match=r"CLARABEL failed on the CCCP subproblem"):
        MMCMultivariate(random_state=0).fit(X)


def test_a_degenerate_plane_is_solved():
    """One plane with A = 0 (all labels in one group, y' their flip): the optimum is 0, which
    the interior-point method once failed to certify (2 of 175 ionosphere fits)."""
    result = solve_plane_qp(np.full((1, 3), 1e-16), np.array([-2.0]), np.zeros(1), 0.1, 0.01)
    assert result.objective == pytest.approx(0.0, abs=1e-12) and result.xi == 0.0


def test_cvx_wrapper_statuses():
    x = cp.Variable()
    with pytest.raises(SolverFailedError, match=r"'infeasible'.*try this"):
        solve(cp.Problem(cp.Minimize(x), [x >= 1, x <= 0]), what="a test", advice="try this")
    with pytest.raises(SolverFailedError, match="NO_SUCH_SOLVER"):
        solve(cp.Problem(cp.Minimize(x), [x >= 1]), solver="NO_SUCH_SOLVER")
    assert solve(cp.Problem(cp.Minimize(x), [x >= 1])) == pytest.approx(1.0)


def test_cvx_wrapper_warns_on_inaccurate(monkeypatch):
    x = cp.Variable()
    problem = cp.Problem(cp.Minimize(x), [x >= 1])
    real = cp.Problem.solve

    def inaccurate(self, *args, **kwargs):
        real(self, *args, **kwargs)
        self._status = cp.OPTIMAL_INACCURATE

    monkeypatch.setattr(cp.Problem, "solve", inaccurate)
    with pytest.warns(SolverAccuracyWarning, match="optimal_inaccurate"):
        assert solve(problem) == pytest.approx(1.0)
