"""MSPC: the theorems of the MSPC paper, the optimality of each step and its AFS behaviour."""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest
from sklearn.cluster import KMeans

import datasets
from clustering import MSPC, DegenerateDataError
from clustering._moments import cluster_moments, regularizer_matrix, standardize
from clustering.metrics import clustering_accuracy, msp_score
from clustering.solvers.eig import leading_indicator
from clustering.solvers.gep import best_split, lower_bound


def _data(seed=0, n=120, d=4):
    rng = np.random.default_rng(seed)
    X = np.vstack(
        [rng.normal(size=(n // 2, d)), rng.normal(size=(n // 2, d)) @ rng.normal(size=(d, d)) + 2]
    )
    return X, rng


# ---- Theorem 1 -----------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(5))
def test_theorem1_msp_invariant_to_invertible_maps_without_regularisation(seed):
    X, rng = _data(seed)
    labels = rng.integers(0, 2, X.shape[0])
    P = rng.normal(size=(X.shape[1], X.shape[1]))
    assert abs(np.linalg.det(P)) > 1e-3
    before = msp_score(X, labels, lam=0.0)
    assert msp_score(X @ P, labels, lam=0.0) == pytest.approx(before, rel=1e-9)
    assert msp_score(X @ P, labels, lam=0.0, regularizer="none") == pytest.approx(before, rel=1e-9)


@pytest.mark.parametrize("lam", [1e-3, 0.1, 10.0, 1e3])
def test_theorem1_diag_regulariser_invariant_to_feature_scaling(lam):
    X, rng = _data(1)
    labels = rng.integers(0, 2, X.shape[0])
    factors = 10.0 ** rng.uniform(-3, 3, X.shape[1])
    before = msp_score(X, labels, lam=lam)
    assert msp_score(X * factors, labels, lam=lam) == pytest.approx(before, rel=1e-9)
    # ... while the identity regulariser is not invariant (a real difference, not rounding).
    ident = msp_score(X, labels, lam=lam, regularizer="identity")
    assert abs(msp_score(X * factors, labels, lam=lam, regularizer="identity") - ident) > 1e-6


def test_total_regulariser_invariant_to_any_invertible_map():
    X, rng = _data(2)
    labels = rng.integers(0, 2, X.shape[0])
    P = rng.normal(size=(X.shape[1], X.shape[1]))
    before = msp_score(X, labels, lam=0.5, regularizer="total")
    assert msp_score(X @ P, labels, lam=0.5, regularizer="total") == pytest.approx(before, rel=1e-9)


# ---- Theorem 2 -----------------------------------------------------------------------------


def _kappa_sq_and_bound(Z, labels, w, lam, Lambda):
    m = cluster_moments(Z, labels)
    s1 = w @ (m.Sigma1 + lam * Lambda) @ w
    s0 = w @ (m.Sigma0 + lam * Lambda) @ w
    delta = w @ (m.mu1 - m.mu0)
    kappa_sq = delta**2 / (np.sqrt(s1) + np.sqrt(s0)) ** 2
    quad = w @ (Z.T @ Z / Z.shape[0] + lam * Lambda) @ w
    bound = lower_bound(np.array([delta]), quad, np.array([m.n1 / Z.shape[0]]))[0]
    return kappa_sq, bound


@pytest.mark.parametrize("seed", range(8))
def test_theorem2_bound_never_exceeds_kappa_squared(seed):
    X, rng = _data(seed, n=90, d=3)
    std = standardize(X)
    Lambda = regularizer_matrix(std, "diag")
    for _ in range(25):
        labels = (rng.random(X.shape[0]) < rng.uniform(0.1, 0.9)).astype(int)
        if labels.min() == labels.max():
            continue
        w = rng.normal(size=std.Z.shape[1])
        lam = 10.0 ** rng.uniform(-3, 1)
        kappa_sq, bound = _kappa_sq_and_bound(std.Z, labels, w, lam, Lambda)
        assert bound <= kappa_sq * (1 + 1e-12)


def test_theorem2_equality_for_balanced_clusters_with_equal_spread():
    # Cluster 0 is cluster 1 mirrored: r1 = r2 and w'Sigma1 w = w'Sigma0 w for every w.
    rng = np.random.default_rng(0)
    A = rng.normal(size=(50, 3)) + [3, 1, 0]
    Z = np.vstack([A, -A])
    labels = np.repeat([1, 0], 50)
    w = rng.normal(size=3)
    kappa_sq, bound = _kappa_sq_and_bound(Z, labels, w, 0.2, np.eye(3))
    assert bound == pytest.approx(kappa_sq, rel=1e-12)


# ---- the GEP label step ----------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
def test_gep_split_equals_brute_force_over_all_labelings(seed):
    rng = np.random.default_rng(seed)
    n = 11
    t = rng.normal(size=n) * rng.uniform(0.5, 3)
    quad = float(np.var(t) + rng.uniform(0.01, 1.0))  # w'(Sigma + lam Lambda)w >= var(t)
    labels, threshold, value = best_split(t, quad)
    best = -np.inf
    for bits in itertools.product([0, 1], repeat=n):
        y = np.array(bits)
        if y.min() == y.max():
            continue
        delta = t[y == 1].mean() - t[y == 0].mean()
        best = max(best, lower_bound(np.array([delta]), quad, np.array([y.mean()]))[0])
    assert value == pytest.approx(best, rel=1e-12)
    assert np.array_equal(labels, (t >= threshold).astype(int))


def test_gep_split_equals_loop_over_sorted_splits():
    rng = np.random.default_rng(9)
    t = rng.normal(size=300)
    quad = 1.3
    _, _, value = best_split(t, quad)
    s = np.sort(t)
    loop = max(
        lower_bound(np.array([s[k:].mean() - s[:k].mean()]), quad, np.array([(300 - k) / 300]))[0]
        for k in range(1, 300)
    )
    assert value == pytest.approx(loop, rel=1e-12)


# ---- Theorem 3 ---------------------------------------------------------------------------


@pytest.mark.parametrize("regularizer", ["diag", "identity"])
def test_theorem3_both_matrix_forms_agree(regularizer):
    X, _ = _data(3, n=40, d=6)
    std = standardize(X)
    Lambda = regularizer_matrix(std, regularizer)
    q_primal, ev_primal = leading_indicator(std.Z, Lambda, 0.3, form="primal")
    q_dual, ev_dual = leading_indicator(std.Z, Lambda, 0.3, form="dual")
    assert abs(q_primal @ q_dual) == pytest.approx(1.0, abs=1e-9)
    assert ev_primal == pytest.approx(ev_dual, rel=1e-9)
    # ... and equal the leading eigenvector of I - (I + Z (N lam Lambda)^-1 Z')^-1.
    n = std.Z.shape[0]
    M = np.eye(n) - np.linalg.inv(np.eye(n) + std.Z @ np.linalg.solve(n * 0.3 * Lambda, std.Z.T))
    evals, evecs = np.linalg.eigh(M)
    assert abs(evecs[:, -1] @ q_dual) == pytest.approx(1.0, abs=1e-9)
    assert evals[-1] == pytest.approx(ev_dual, rel=1e-9)


def test_eig_uses_the_dual_form_when_d_exceeds_n():
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(size=(10, 40)), rng.normal(size=(10, 40)) + 3])
    labels = MSPC(method="eig", lam=1.0).fit_predict(X)
    assert clustering_accuracy(np.repeat([0, 1], 10), labels) == 1.0


# ---- the estimator -------------------------------------------------------------------------


def _afs_gaussians(seed=0, factor=1000.0):
    rng = np.random.default_rng(seed)
    # Features 0 and 2 carry the clusters; feature 1 is noise in other units.
    X = np.vstack([rng.normal(0, 1, (150, 3)), rng.normal(0, 1, (150, 3)) + [4, 0, 4]])
    X[:, 1] *= factor
    return X, np.repeat([0, 1], 150)


@pytest.mark.parametrize("method", ["mpm", "gep", "eig"])
def test_mspc_recovers_truth_where_kmeans_fails_under_feature_scaling(method):
    X, y = _afs_gaussians()
    km = KMeans(2, n_init=10, random_state=0).fit_predict(X)
    assert clustering_accuracy(y, km) < 0.7
    init = "eig" if method != "eig" else "kmeans"
    model = MSPC(method=method, lam=0.1, init=init, random_state=0).fit(X)
    assert clustering_accuracy(y, model.labels_) >= 0.98


def test_paper_pipeline_is_not_immune_but_invariant_start_is():
    X, y = _afs_gaussians(seed=1)
    paper = MSPC(method="mpm", lam=0.1, init="kmeans", random_state=0).fit(X)
    invariant = MSPC(method="mpm", lam=0.1, init="kmeans-standardized", random_state=0).fit(X)
    assert clustering_accuracy(y, invariant.labels_) >= 0.98
    assert invariant.msp_ > paper.msp_  # MSP tells the better labeling without labels


@pytest.mark.parametrize("method", ["mpm", "gep", "eig"])
def test_fitted_attributes_are_consistent(method):
    X, _ = _data(4)
    # The paper's alternation stops at a fixed point: every sample on its own side.
    model = MSPC(method=method, lam=0.5, search="paper", init="kmeans", random_state=0).fit(X)
    np.testing.assert_array_equal(model.predict(X), model.labels_)
    np.testing.assert_allclose(model.decision_function(X), X @ model.w_ - model.b_)
    assert np.linalg.norm(model.w_) == pytest.approx(1.0)
    assert model.msp_ == pytest.approx(msp_score(X, model.labels_, lam=0.5), rel=1e-12)
    assert model.msp_ == pytest.approx(model.kappa_**2 / (1 + model.kappa_**2))
    assert model.history_.shape == (model.n_iter_,)
    assert set(np.unique(model.labels_)) == {0, 1}


def test_mpm_history_is_the_msp_of_each_iterate_and_ends_at_msp():
    X, _ = _data(5, n=300, d=5)
    model = MSPC(method="mpm", lam=0.05, random_state=0).fit(X)
    assert model.converged_
    assert model.history_[-1] == pytest.approx(model.msp_, rel=1e-9)
    assert model.history_[0] == pytest.approx(msp_score(X, model.init_labels_, lam=0.05), rel=1e-9)


def test_random_state_makes_fits_reproducible():
    X, _ = _data(6)
    a = MSPC(random_state=3).fit(X).labels_
    b = MSPC(random_state=3).fit(X).labels_
    np.testing.assert_array_equal(a, b)


def test_constant_features_get_zero_weight():
    X, _ = _data(7)
    X = np.column_stack([X, np.full(X.shape[0], 4.2)])
    model = MSPC(lam=0.1, random_state=0).fit(X)
    assert model.w_[-1] == 0.0
    ref = MSPC(lam=0.1, random_state=0).fit(X[:, :-1])
    np.testing.assert_array_equal(model.labels_, ref.labels_)


def test_all_constant_features_raise():
    with pytest.raises(DegenerateDataError, match="constant"):
        MSPC().fit(np.ones((10, 3)))


def test_too_few_samples_raise():
    with pytest.raises(ValueError, match="minimum of 4"):
        MSPC().fit(np.arange(6.0).reshape(3, 2))


def test_nan_raises_a_clear_error():
    X, _ = _data(8)
    X[3, 1] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        MSPC().fit(X)


def test_unregularised_singular_covariance_is_a_clear_error():
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(size=(5, 20)), rng.normal(size=(5, 20)) + 5])
    with pytest.raises(DegenerateDataError, match="lam > 0"):
        MSPC(lam=0.0, init=np.repeat([0, 1], 5)).fit(X)


def test_eig_without_regulariser_is_a_clear_error():
    X, _ = _data(9)
    with pytest.raises(DegenerateDataError, match="regulari"):
        MSPC(method="eig", regularizer="none").fit(X)


def test_initial_labels_must_have_two_clusters():
    X, _ = _data(10)
    with pytest.raises(ValueError, match="two"):
        MSPC(init=np.zeros(X.shape[0])).fit(X)


def test_max_iter_warns_and_returns_the_best_iterate():
    X, _ = _data(11, n=400, d=6)
    rng = np.random.default_rng(0)
    init = rng.integers(0, 2, X.shape[0])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model = MSPC(method="mpm", lam=0.01, init=init, max_iter=1).fit(X)
    assert any("did not converge" in str(w.message) for w in caught)
    assert not model.converged_
    assert model.msp_ == pytest.approx(model.history_.max(), rel=1e-9)


def test_keep_best_returns_the_highest_msp_iterate():
    ds = datasets.load("breast")
    paper = {"search": "paper", "init": "kmeans", "random_state": 0}
    last = MSPC(lam=1.0, keep_best=False, **paper).fit(ds.X)
    best = MSPC(lam=1.0, keep_best=True, **paper).fit(ds.X)
    # On this task the relabelling lowers the MSP: the k-means start is the best iterate.
    assert last.history_[-1] < last.history_[0]
    assert best.msp_ == pytest.approx(best.history_.max(), rel=1e-9)
    assert best.msp_ > last.msp_
    np.testing.assert_array_equal(best.labels_, best.init_labels_)
