"""The MPM solver against an independent SOCP, and the guarantees MSP carries."""

from __future__ import annotations

import cvxpy as cp
import numpy as np
import pytest
from scipy import linalg

from clustering import DegenerateDataError, MinimaxProbabilityMachine
from clustering._moments import RunningMoments, cluster_moments, standardize
from clustering.metrics import msp_score
from clustering.mpm import solve_mpm


def _random_moments(rng, d):
    A = rng.normal(size=(3 * d, d)) * rng.uniform(0.1, 3.0, d)
    B = rng.normal(size=(3 * d, d)) @ rng.normal(size=(d, d))
    return (
        rng.normal(size=d),
        rng.normal(size=d),
        A.T @ A / (3 * d) + 1e-3 * np.eye(d),
        B.T @ B / (3 * d) + 1e-3 * np.eye(d),
    )


def _socp_kappa(mu1, mu0, S1, S0):
    """Lanckriet et al.'s SOCP: min ||S1^1/2 w|| + ||S0^1/2 w|| s.t. w'(mu1 - mu0) = 1."""
    w = cp.Variable(mu1.shape[0])
    L1, L0 = linalg.cholesky(S1), linalg.cholesky(S0)
    problem = cp.Problem(cp.Minimize(cp.norm(L1 @ w) + cp.norm(L0 @ w)), [(mu1 - mu0) @ w == 1])
    problem.solve(solver=cp.CLARABEL)
    assert problem.status == cp.OPTIMAL
    return 1.0 / problem.value, w.value


@pytest.mark.parametrize("seed,d", [(0, 2), (1, 5), (2, 12), (3, 30)])
def test_solver_matches_independent_socp(seed, d):
    rng = np.random.default_rng(seed)
    mu1, mu0, S1, S0 = _random_moments(rng, d)
    sol = solve_mpm(mu1, mu0, S1, S0)
    kappa, w_socp = _socp_kappa(mu1, mu0, S1, S0)
    assert sol.kappa == pytest.approx(kappa, rel=1e-6)
    assert sol.kappa >= kappa * (1 - 1e-8)  # never worse than the interior-point solution
    # Same direction (both normalised so that w'(mu1 - mu0) = 1), to the SOCP's accuracy.
    assert np.linalg.norm(sol.w - w_socp) <= 1e-3 * np.linalg.norm(w_socp)
    # The offset puts the hyperplane kappa standard deviations from each mean.
    assert sol.w @ mu1 - sol.b == pytest.approx(sol.kappa * np.sqrt(sol.w @ S1 @ sol.w))
    assert sol.b - sol.w @ mu0 == pytest.approx(sol.kappa * np.sqrt(sol.w @ S0 @ sol.w))


def test_solver_is_no_worse_than_any_direction():
    rng = np.random.default_rng(7)
    mu1, mu0, S1, S0 = _random_moments(rng, 6)
    sol = solve_mpm(mu1, mu0, S1, S0)
    W = rng.normal(size=(2000, 6))
    a = mu1 - mu0
    kappas = np.abs(W @ a) / (
        np.sqrt(np.einsum("ij,jk,ik->i", W, S1, W)) + np.sqrt(np.einsum("ij,jk,ik->i", W, S0, W))
    )
    assert kappas.max() <= sol.kappa * (1 + 1e-12)


def test_warm_start_gives_same_optimum():
    rng = np.random.default_rng(3)
    mu1, mu0, S1, S0 = _random_moments(rng, 8)
    cold = solve_mpm(mu1, mu0, S1, S0)
    for t0 in (1e-6, 0.3, 40.0, 1e6):
        assert solve_mpm(mu1, mu0, S1, S0, t0=t0).kappa == pytest.approx(cold.kappa, rel=1e-9)


def test_equal_means_give_zero_msp():
    S = np.eye(3)
    sol = solve_mpm(np.ones(3), np.ones(3), S, S)
    assert sol.kappa == 0.0 and sol.alpha == 0.0 and sol.status == "equal-means"


def test_singular_covariances_raise_a_clear_error():
    # Two points per cluster in 3-D: rank-1 covariances, lam = 0.
    X = np.array([[0, 0, 0], [1, 0, 0], [5, 5, 0.0], [6, 5, 0.0]]) + [0, 0, 1]
    X[:, 2] = [0, 0, 0, 1.0]
    with pytest.raises(DegenerateDataError, match="lam > 0"):
        msp_score(X, [0, 0, 1, 1], lam=0.0, regularizer="none")


def test_msp_lower_bounds_the_training_accuracy_per_class():
    """The empirical distribution has exactly the clusters' moments, so with lam = 0 the
    worst-case probability alpha cannot exceed the fraction of each class on its side."""
    rng = np.random.default_rng(11)
    for trial in range(20):
        d = 2 + trial % 4
        X = np.vstack([rng.standard_t(3, (80, d)), rng.standard_t(3, (60, d)) + 1.5])
        y = np.repeat([0, 1], [80, 60])
        model = MinimaxProbabilityMachine(lam=0.0).fit(X, y)
        pred = model.predict(X)
        for k in (0, 1):
            assert np.mean(pred[y == k] == k) >= model.alpha_ - 1e-12


def test_running_moments_match_recomputation():
    rng = np.random.default_rng(5)
    Z = standardize(rng.normal(size=(200, 7))).Z
    labels = rng.integers(0, 2, 200)
    running = RunningMoments(Z, labels)
    for _ in range(5):
        new = labels.copy()
        flip = rng.choice(200, 15, replace=False)
        new[flip] = 1 - new[flip]
        changed = new != labels
        running.switch(np.flatnonzero(changed & (new == 1)), np.flatnonzero(changed & (new == 0)))
        labels = new
        a, b = running.moments(), cluster_moments(Z, labels)
        assert (a.n1, a.n0) == (b.n1, b.n0)
        for name in ("mu1", "mu0", "Sigma1", "Sigma0"):
            np.testing.assert_allclose(getattr(a, name), getattr(b, name), atol=1e-12)


def test_classifier_attributes_and_decision():
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(-2, 1, (50, 3)), rng.normal(2, 1, (50, 3))])
    y = np.array(["no"] * 50 + ["yes"] * 50)
    model = MinimaxProbabilityMachine(lam=0.5).fit(X, y)
    assert set(model.classes_) == {"no", "yes"}
    assert np.linalg.norm(model.w_) == pytest.approx(1.0)
    np.testing.assert_allclose(model.decision_function(X), X @ model.w_ - model.b_)
    assert model.alpha_ == pytest.approx(msp_score(X, y, lam=0.5))
    assert model.score(X, y) > 0.95


def test_kappa_to_alpha_by_hand_and_at_infinity():
    from clustering.mpm import kappa_to_alpha

    assert kappa_to_alpha(1.0) == 0.5
    assert kappa_to_alpha(3.0) == pytest.approx(0.9)
    assert kappa_to_alpha(0.0) == 0.0
    assert kappa_to_alpha(np.inf) == 1.0  # separable with zero variance: certain


def test_equal_means_give_no_separation_and_a_zero_hyperplane():
    from clustering.mpm import solve_mpm

    mu = np.array([1.0, -2.0])
    sol = solve_mpm(mu, mu.copy(), np.eye(2), 2 * np.eye(2))
    assert sol.status == "equal-means"
    assert (sol.kappa, sol.alpha, sol.b) == (0.0, 0.0, 0.0)
    np.testing.assert_array_equal(sol.w, np.zeros(2))
