"""MSPC's projection-pursuit start (``init="pursuit"``, one of the default's starts): the
direction of most negative kurtosis of the whitened data, cut by exact one-dimensional
2-means (issue 36)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from clustering import MSPC
from clustering._moments import standardize
from clustering._starts import PURSUIT_MAX_ITER, pursuit, pursuit_direction, split_1d, whiten
from clustering.metrics import clustering_accuracy


def _fit(X, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return MSPC(random_state=0, **kwargs).fit(X)


def _hidden_groups(seed, n=300, d=6):
    """Two equal groups 3 apart along one axis, among Gaussian directions of larger variance
    (4 against 2.5), turned by a random rotation: splitting along the groups' axis lowers
    k-means' sum of squares less than splitting a Gaussian direction does."""
    rng = np.random.default_rng(seed)
    y = np.repeat([0, 1], n // 2)
    S = rng.normal(size=(n, d)) * np.r_[0.5, np.full(d - 1, 2.0)]
    S[:, 0] += 3.0 * y
    Q = np.linalg.qr(rng.normal(size=(d, d)))[0]
    return S @ Q, y


def test_split_1d_is_the_exact_one_dimensional_2_means():
    """Against every cut tried by brute force, with the sum of squares computed directly."""
    rng = np.random.default_rng(0)
    for _ in range(20):
        t = np.round(rng.normal(size=int(rng.integers(5, 40))) * 3) / 3  # ties included
        labels = split_1d(t)
        s = np.unique(t)

        def within(cut, t=t):
            a, b = t[t < cut], t[t >= cut]
            return ((a - a.mean()) ** 2).sum() + ((b - b.mean()) ** 2).sum()

        best = min(within(c) for c in s[1:])
        assert within(t[labels == 1].min()) == pytest.approx(best)
        assert t[labels == 0].max() < t[labels == 1].min()  # an interval each, ties together


def test_split_1d_with_a_floor_is_the_best_cut_leaving_min_size_a_side():
    """With ``min_size``, against brute force over the cuts leaving that many points a side."""
    rng = np.random.default_rng(1)
    for _ in range(20):
        t = np.round(rng.standard_t(2, size=int(rng.integers(12, 40))) * 3) / 3
        n, floor = t.shape[0], int(rng.integers(2, 5))
        s = np.unique(t)

        def within(cut, t=t):
            a, b = t[t < cut], t[t >= cut]
            return ((a - a.mean()) ** 2).sum() + ((b - b.mean()) ** 2).sum()

        allowed = [c for c in s[1:] if floor <= (t < c).sum() <= n - floor]
        if not allowed:
            continue
        labels = split_1d(t, min_size=floor)
        assert min(np.bincount(labels)) >= floor
        assert within(t[labels == 1].min()) == pytest.approx(min(within(c) for c in allowed))


def test_pursuit_finds_the_bimodal_direction_of_whitened_data():
    """A balanced mixture of two groups at +-delta with spread s has kurtosis
    3 - 2 delta^4 / (delta^2 + s^2)^2 along the line joining them, below a Gaussian's 3 in
    every other direction's place: the fixed point returns that line."""
    X, y = _hidden_groups(1)
    W = whiten(standardize(X).Z)
    u = pursuit_direction(W)
    assert np.linalg.norm(u) == pytest.approx(1.0)
    assert np.mean((W @ u) ** 4) < 2.0
    assert clustering_accuracy(y, split_1d(W @ u)) > 0.95


def _symmetric_fastica(W, max_iter=200):
    """The pursuit of the second round: FastICA's symmetric kurtosis fixed point from the
    whitened axes, the column of smallest kurtosis after ``max_iter`` steps."""
    n, r = W.shape
    U = np.eye(r)
    for _ in range(max_iter):
        U = (W.T @ (W @ U) ** 3) / n - 3.0 * U
        s, V = np.linalg.eigh(U.T @ U)
        U = U @ (V / np.sqrt(s)) @ V.T
    return U[:, int(np.argmin(np.mean((W @ U) ** 4, axis=0)))]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_pursuit_kurtosis_is_at_most_every_axis_and_the_symmetric_fixed_point(seed):
    """The Newton descent starts from candidates that include the whitened axes and only
    descends, so its kurtosis is at most every axis's; on a planted bimodal mixture it is
    also at most the second round's symmetric FastICA's (200 steps)."""
    X, _ = _hidden_groups(seed)
    W = whiten(standardize(X).Z)
    result = pursuit(W)
    assert result.kurtosis == pytest.approx(np.mean((W @ result.direction) ** 4))
    assert result.kurtosis <= np.mean(W**4, axis=0).min() + 1e-12
    assert result.kurtosis <= np.mean((W @ _symmetric_fastica(W)) ** 4) + 1e-9


@pytest.mark.parametrize(
    "shape", [(300, 6), (2000, 36), (350, 50)], ids=["300x6", "2000x36", "350x50"]
)
def test_pursuit_converges_within_its_budget_on_structureless_data(shape):
    """Gaussian noise has kurtosis near 3 in every direction (the held-out reference's
    data): the descent still stops at a stationary direction, well within the budget,
    where the Riemannian gradient vanishes."""
    W = whiten(standardize(np.random.default_rng(0).normal(size=shape)).Z)
    result = pursuit(W)
    assert result.converged
    assert result.n_iter < PURSUIT_MAX_ITER
    u = result.direction
    g = 4.0 * W.T @ (W @ u) ** 3 / W.shape[0]
    assert np.linalg.norm(g - (u @ g) * u) <= 1e-6 * result.kurtosis


def test_pursuit_depends_only_on_the_data():
    X, _ = _hidden_groups(7)
    W = whiten(standardize(X).Z)
    assert np.array_equal(pursuit_direction(W), pursuit_direction(W.copy()))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_pursuit_start_recovers_groups_that_variance_hides(seed):
    X, y = _hidden_groups(seed)
    kmeans = _fit(X, init="kmeans-standardized", max_iter=1)
    assert clustering_accuracy(y, kmeans.init_labels_) < 0.7  # the premise
    m = _fit(X, init="pursuit", max_iter=1)
    assert clustering_accuracy(y, m.init_labels_) > 0.95
    assert clustering_accuracy(y, _fit(X).labels_) > 0.95  # the default keeps it


@pytest.mark.parametrize("init", ["pursuit", "heldout"])
def test_pursuit_labels_are_identical_under_per_feature_rescaling(init):
    X, _ = _hidden_groups(4)
    factors = 10.0 ** np.random.default_rng(0).uniform(-3, 3, X.shape[1])
    a = _fit(X, init=init).labels_
    b = _fit(X * factors, init=init).labels_
    assert np.array_equal(a, b) or np.array_equal(a, 1 - b)


def test_pursuit_needs_two_clusters_and_a_linear_kernel():
    X, _ = _hidden_groups(5)
    with pytest.raises(ValueError, match="n_clusters=2 and kernel='linear'"):
        MSPC(n_clusters=3, init="pursuit").fit(X)


def test_the_multiclass_default_skips_the_pursuit_start():
    X, _ = _hidden_groups(6)
    m = _fit(X, n_clusters=3)
    assert "pursuit" not in [entry["init"] for entry in m.starts_]
