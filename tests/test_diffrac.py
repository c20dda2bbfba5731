"""DIFFRAC: cost matrix identities, relaxation bounds against brute force, affine
invariance, must-/cannot-links, size limit and solver failure paths."""

from __future__ import annotations

import itertools
import pickle

import cvxpy as cp
import numpy as np
import pytest
from sklearn.metrics import adjusted_rand_score

from clustering import DIFFRAC, KMeansBaseline, ProblemTooLargeError, SolverFailedError
from clustering._diffrac_relaxations import (
    build_convex_problem,
    cost_factor,
    gaussian_kernel,
    labeling_cost,
)
from tests.conftest import make_cvxpy_fail, two_gaussians


def _centering(n: int) -> np.ndarray:
    return np.eye(n) - np.full((n, n), 1.0 / n)


def cost_matrix(X, kappa: float) -> np.ndarray:
    """``A(X, kappa) = Pi (I - X (X' Pi X + n kappa I)^-1 X') Pi / n``, eq. (3), formed
    densely (the reference the estimator's factored form is checked against).

    ``kappa = 0`` uses the pseudo-inverse (the limit ``kappa -> 0+``).
    """
    X = np.asarray(X, dtype=np.float64)
    n, d = X.shape
    Pi = _centering(n)
    inner = X.T @ Pi @ X + n * kappa * np.eye(d)
    middle = np.eye(n) - X @ np.linalg.pinv(inner, hermitian=True) @ X.T
    return Pi @ middle @ Pi / n


def cost_matrix_from_kernel(K, kappa: float) -> np.ndarray:
    """``A(K, kappa) = kappa Pi (Pi K Pi + n kappa I)^-1 Pi``, eq. (4) (``kappa > 0``)."""
    K = np.asarray(K, dtype=np.float64)
    n = K.shape[0]
    if kappa <= 0:
        raise ValueError("eq. (4) needs kappa > 0.")
    Pi = _centering(n)
    return kappa * Pi @ np.linalg.inv(Pi @ K @ Pi + n * kappa * np.eye(n)) @ Pi


def _elongated(n_per, seed=0):
    rng = np.random.default_rng(seed)
    X0 = np.column_stack([rng.normal(0, 0.5, n_per), rng.normal(0, 1, n_per)])
    X1 = np.column_stack([rng.normal(4, 0.5, n_per), rng.normal(0, 1, n_per)])
    return np.vstack([X0, X1]), np.repeat([0, 1], n_per)


def test_cost_matrix_is_psd_with_constant_null_vector_and_kernel_form_agrees():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(25, 4)) * [1, 5, 0.2, 2]
    kappa = 0.05
    A = cost_matrix(X, kappa)
    np.testing.assert_allclose(A, A.T, atol=1e-14)
    assert np.linalg.eigvalsh(A).min() > -1e-12
    np.testing.assert_allclose(A @ np.ones(25), 0, atol=1e-12)
    # eq. (4) with the linear kernel K = X X' is eq. (3).
    np.testing.assert_allclose(cost_matrix_from_kernel(X @ X.T, kappa), A, atol=1e-12)
    # The factor the estimator uses: A = (Pi - F F') / n.
    F = cost_factor(X, kappa)
    Pi = np.eye(25) - 1.0 / 25
    np.testing.assert_allclose((Pi - F @ F.T) / 25, A, atol=1e-12)
    # And for the Gaussian kernel against eq. (4).
    K = gaussian_kernel(X, 2.0)
    Fg = cost_factor(X, kappa, "gaussian", 2.0)
    np.testing.assert_allclose((Pi - Fg @ Fg.T) / 25, cost_matrix_from_kernel(K, kappa), atol=1e-10)
    # J(y) = tr(yy'A), eq. (2), is the optimal value of the ridge regression (1).
    labels = rng.integers(0, 3, 25)
    Y = np.eye(3)[labels]
    Xc = X - X.mean(axis=0)
    W = np.linalg.solve(Xc.T @ Xc + 25 * kappa * np.eye(4), Xc.T @ (Y - Y.mean(axis=0)))
    b = (Y - X @ W).mean(axis=0)
    ridge = np.sum((Y - X @ W - b) ** 2) / 25 + kappa * np.sum(W**2)
    assert labeling_cost(F, labels, 3) == pytest.approx(ridge, rel=1e-10)
    assert np.trace(Y @ Y.T @ A) == pytest.approx(ridge, rel=1e-10)


def _brute_force_min(X, kappa, lambda0):
    """Smallest cost tr(A yy') over all 2-cluster labelings with both sizes >= lambda0."""
    n = X.shape[0]
    F = cost_factor(X, kappa)
    best = np.inf
    for bits in itertools.product([0, 1], repeat=n - 1):
        labels = np.array((0, *bits))
        if min(np.bincount(labels, minlength=2)) >= lambda0:
            best = min(best, labeling_cost(F, labels, 2))
    return best


def test_relaxations_lower_bound_the_brute_force_optimum_and_the_rounded_cost():
    X, _ = two_gaussians(n_per=6, d=2, gap=2.5, seed=3)  # overlapping: not trivial
    kappa = 0.01
    eig = DIFFRAC(kappa=kappa, random_state=0).fit(X)
    cvx = DIFFRAC(relaxation="convex", kappa=kappa, solver="CLARABEL", random_state=0).fit(X)
    lambda0 = eig.min_cluster_size_
    assert lambda0 == 12 // 4
    best = _brute_force_min(X, kappa, lambda0)
    tol = 1e-6
    # The eigenvalue relaxation drops constraints of the convex one: a weaker bound.
    assert eig.relaxation_value_ <= cvx.relaxation_value_ + tol
    assert cvx.relaxation_value_ <= best + tol
    for model in (eig, cvx):
        if min(np.bincount(model.labels_)) >= lambda0:
            assert best <= model.cost_ + 1e-12
            assert model.relaxation_value_ <= model.cost_ + tol


def test_convex_relaxation_is_invariant_to_affine_feature_maps_kmeans_is_not():
    X, y = _elongated(15, seed=1)
    T = np.diag([1e-3, 10.0])
    shift = np.array([5.0, -300.0])
    opts = dict(relaxation="convex", kappa=0.0, random_state=0)
    a = DIFFRAC(**opts).fit(X)
    b = DIFFRAC(**opts).fit(X @ T + shift)
    assert adjusted_rand_score(y, a.labels_) == 1.0
    assert adjusted_rand_score(a.labels_, b.labels_) == 1.0
    assert b.relaxation_value_ == pytest.approx(a.relaxation_value_, rel=1e-3, abs=1e-6)
    km = KMeansBaseline(random_state=0).fit_predict(X @ T + shift)
    assert adjusted_rand_score(y, km) < 0.2


def test_must_links_are_honoured_and_cannot_links_enforced():
    # Three blobs, two clusters: the must-link glues blob 0 to blob 2 although blob 1 is
    # closer to blob 0... and the cannot-link keeps blob 1 apart from blob 0.
    rng = np.random.default_rng(0)
    centres = np.array([[0.0, 0.0], [4.0, 0.0], [10.0, 0.0]])
    X = np.vstack([rng.normal(c, 0.4, (15, 2)) for c in centres])
    must = [(0, 30), (1, 31)] + [(i, i + 1) for i in range(0, 14)]  # blob 0 with blob 2
    cannot = [(2, 20)]
    for relaxation in ("eigen", "convex"):
        model = DIFFRAC(relaxation=relaxation, random_state=0).fit(
            X, must_link=must, cannot_link=cannot
        )
        labels = model.labels_
        assert labels[0] == labels[30] == labels[1] == labels[31]
        assert np.all(labels[:15] == labels[0])
        assert labels[2] != labels[20]
        assert model.cannot_link_violations_ == 0
        assert model.n_chunks_ == 45 - 16
    # Unconstrained, blob 2 alone is the natural split (blobs 0 and 1 together).
    free = DIFFRAC(random_state=0).fit_predict(X)
    assert free[0] == free[20] != free[30]


def test_inconsistent_or_bad_pairs_are_rejected():
    X, _ = two_gaussians(n_per=10, seed=0)
    with pytest.raises(ValueError, match="contradict"):
        DIFFRAC().fit(X, must_link=[(0, 1), (1, 2)], cannot_link=[(0, 2)])
    with pytest.raises(ValueError, match="must_link refers to sample index 99"):
        DIFFRAC().fit(X, must_link=[(0, 99)])
    with pytest.raises(ValueError, match="shape"):
        DIFFRAC().fit(X, cannot_link=[0, 1, 2])
    with pytest.raises(ValueError, match="itself"):
        DIFFRAC().fit(X, cannot_link=[(3, 3)])
    with pytest.raises(ValueError, match="kappa=0"):
        DIFFRAC(kappa=0.0).fit(X)
    with pytest.raises(ValueError, match="min_cluster_size=15"):
        DIFFRAC(min_cluster_size=15).fit(X)


def test_convex_relaxation_refuses_too_many_samples_with_a_clear_message():
    X, _ = two_gaussians(n_per=20, seed=0)
    with pytest.raises(ProblemTooLargeError, match=r"max_samples=30.*relaxation='eigen'"):
        DIFFRAC(relaxation="convex", max_samples=30).fit(X)
    # Must-links shrink the problem below the limit.
    must = [(i, i + 1) for i in range(0, 19)]
    model = DIFFRAC(relaxation="convex", max_samples=30, random_state=0).fit(X, must_link=must)
    assert model.n_chunks_ == 21
    assert np.all(model.labels_[:20] == model.labels_[0])


@pytest.mark.parametrize("k", [2, 3])
@pytest.mark.parametrize("n_cannot", [0, 2])
def test_convex_problem_is_dpp(k, n_cannot):
    sizes = np.array([1.0, 2.0, 1.0, 3.0, 1.0, 1.0])
    pairs = np.array([[0, 3], [1, 5]])[:n_cannot]
    B = np.cov(np.random.default_rng(0).normal(size=(6, 20)))
    problem, N, params = build_convex_problem(B, sizes, k, pairs)
    assert problem.is_dcp(dpp=True)
    assert N.shape == (6, 6)
    assert set(params) == {"lambda0", "penalty"}


def test_solver_failure_and_inaccurate_status(monkeypatch):
    X, _ = two_gaussians(n_per=8, seed=0)

    make_cvxpy_fail(monkeypatch)
    with pytest.raises(SolverFailedError, match=r"SCS failed.*numerical trouble.*Try"):
        DIFFRAC(relaxation="convex").fit(X)

    def infeasible(self, *args, **kwargs):
        self._status = cp.INFEASIBLE

    monkeypatch.setattr(cp.Problem, "solve", infeasible)
    with pytest.raises(SolverFailedError, match=r"status 'infeasible'.*relaxation='eigen'"):
        DIFFRAC(relaxation="convex").fit(X)
    monkeypatch.undo()

    original = cp.Problem.solve

    def inaccurate(self, *args, **kwargs):
        value = original(self, *args, **kwargs)
        self._status = cp.OPTIMAL_INACCURATE
        return value

    monkeypatch.setattr(cp.Problem, "solve", inaccurate)
    with pytest.warns(UserWarning, match="optimal_inaccurate"):
        model = DIFFRAC(relaxation="convex", random_state=0).fit(X)
    assert model.solver_stats_["status"] == "optimal_inaccurate"


def test_convex_model_pickles_without_cvxpy_objects():
    X, _ = two_gaussians(n_per=8, seed=0)
    model = DIFFRAC(relaxation="convex", random_state=0).fit(X)
    clone = pickle.loads(pickle.dumps(model))
    np.testing.assert_array_equal(clone.labels_, model.labels_)
    assert not any("cvxpy" in type(v).__module__ for v in vars(model).values())


def test_gaussian_kernel_separates_circles_and_more_clusters():
    from sklearn.datasets import make_blobs, make_circles

    X, y = make_circles(n_samples=120, factor=0.3, noise=0.03, random_state=0)
    model = DIFFRAC(kernel="gaussian", sigma=0.3, random_state=0).fit(X)
    assert adjusted_rand_score(y, model.labels_) == 1.0
    X3, y3 = make_blobs(n_samples=90, centers=[[0, 0], [8, 0], [0, 8]], random_state=0)
    assert adjusted_rand_score(y3, DIFFRAC(3, random_state=0).fit_predict(X3)) == 1.0
