"""The held-out MSP: what it rewards, what it refuses, its invariances and its errors."""

from __future__ import annotations

import numpy as np
import pytest

from clustering import MSPC
from clustering.metrics import msp_heldout_score, msp_score
from clustering.msp_heldout import heldout_msp_z


def _noise(seed, n=200, d=50):
    return np.random.default_rng(seed).normal(size=(n, d))


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("size", [8, 12])
def test_small_random_clusters_of_noise_have_high_in_sample_msp_and_held_out_near_zero(seed, size):
    # d = N/4: a random group of a few points lies in a low-dimensional affine subspace, so
    # the MPM fitted to it separates it almost surely in sample; held out, it does not.
    X = _noise(seed)
    rng = np.random.default_rng(100 + seed)
    labels = np.zeros(200, dtype=int)
    labels[rng.permutation(200)[:size]] = 1
    in_sample = msp_score(X, labels, lam=1e-3)
    held_out = msp_heldout_score(X, labels, lam=1e-3, random_state=0)
    assert in_sample > 0.7
    assert held_out < 0.05


@pytest.mark.parametrize("seed", range(3))
def test_balanced_random_splits_of_noise_score_near_zero_held_out(seed):
    X = _noise(seed)
    labels = np.random.default_rng(seed).permutation(np.arange(200) % 2)
    assert msp_score(X, labels, lam=1e-3) > 0.1
    assert msp_heldout_score(X, labels, lam=1e-3, random_state=0) < 0.05


def test_searching_noise_for_the_in_sample_msp_raises_it_far_more_than_the_held_out():
    # The monotone search from a random split of noise climbs the in-sample MSP to about
    # 0.8; the held-out MSP of the split it finds is far lower (the in-sample bias).
    X = _noise(0)
    start = np.random.default_rng(0).permutation(np.arange(200) % 2)
    fit = MSPC(lam=1e-3, init=start, random_state=0).fit(X)
    assert fit.msp_ > 0.75
    assert fit.msp_heldout_ < fit.msp_ - 0.3


@pytest.mark.parametrize("k", [2, 3])
def test_well_separated_clusters_score_close_to_the_in_sample_msp(k):
    rng = np.random.default_rng(0)
    centres = 6.0 * np.eye(5)[:k]
    X = np.vstack([rng.normal(size=(1000, 5)) + c for c in centres])
    labels = np.repeat(np.arange(k), 1000)
    in_sample = msp_score(X, labels, lam=0.1)
    held_out = msp_heldout_score(X, labels, lam=0.1, random_state=0)
    assert in_sample > 0.5
    assert held_out == pytest.approx(in_sample, abs=0.02)
    assert held_out <= in_sample + 1e-9


def test_the_small_part_shrinkage_vanishes_as_the_clusters_grow():
    def gap(n, prior_points):
        rng = np.random.default_rng(0)
        X = np.vstack([rng.normal(size=(n, 5)), rng.normal(size=(n, 5)) + 4.0])
        labels = np.repeat([0, 1], n)
        return msp_score(X, labels, lam=0.1) - msp_heldout_score(
            X, labels, lam=0.1, random_state=0, prior_points=prior_points
        )

    # The shrinkage costs a little on small clusters and far less on larger ones.
    assert gap(50, 2.0) > gap(50, 0.0) + 0.002
    assert gap(2000, 2.0) - gap(2000, 0.0) < (gap(50, 2.0) - gap(50, 0.0)) / 10


def _rare_pixel_groups(name):
    """Groups of 2 to 8 digits of a pair sharing a pixel that no other digit of it has."""
    import datasets

    X = datasets.load(name).X
    lo = X.min(axis=0)
    out = []
    for j in range(X.shape[1]):
        group = X[:, j] > lo[j]
        if 2 <= group.sum() <= 8:
            out.append(group.astype(int))
    return X, out


@pytest.mark.parametrize("name", ["digits:0v1", "digits:1v8", "digits:3v8", "digits:7v9"])
def test_clusters_of_a_few_points_score_near_the_floor_held_out(name):
    # A pixel set in only these digits makes the group separable in sample (MSP above 0.9);
    # held out, one to four points per part cannot show a spread, and without the small-part
    # corrections they score up to 0.99. With them, two-point groups score below 0.1 and
    # groups of up to 8 points below 0.2.
    X, groups = _rare_pixel_groups(name)
    assert groups
    for labels in groups:
        assert msp_score(X, labels, lam=0.2) > 0.9
        held_out = msp_heldout_score(X, labels, lam=0.2, random_state=0)
        assert held_out < (0.1 if labels.sum() == 2 else 0.2)


def test_without_the_shrinkage_a_two_point_cluster_scores_at_the_cap(monkeypatch):
    # One held-out point far on the right side: alpha near 1 before the cap, n / (n + 1) =
    # 1/2 with it; the shrinkage of its mean towards the data's takes it to near 0. (The
    # pixels' resolution, which alone takes these pairs to 0, is set aside to see the cap.)
    import clustering._moments as moments

    X, groups = _rare_pixel_groups("digits:0v1")
    pairs = [g for g in groups if g.sum() == 2]
    shrunk = [msp_heldout_score(X, g, lam=0.2, random_state=0) for g in pairs]
    assert max(shrunk) < 0.1
    monkeypatch.setattr(moments, "resolution_variance", lambda std: np.zeros(std.Z.shape[1]))
    capped = [msp_heldout_score(X, g, lam=0.2, random_state=0, prior_points=0) for g in pairs]
    shrunk = [msp_heldout_score(X, g, lam=0.2, random_state=0) for g in pairs]
    assert 0.45 < max(capped) <= 0.5
    assert max(shrunk) < 0.1


def test_random_groups_of_four_digits_score_near_the_floor():
    import datasets

    X = datasets.load("digits:3v8").X
    for seed in range(10):
        labels = np.zeros(X.shape[0], dtype=int)
        labels[np.random.default_rng(seed).permutation(X.shape[0])[:4]] = 1
        assert msp_heldout_score(X, labels, lam=0.2, random_state=0) < 0.01


def _blobs(seed=0, d=6):
    rng = np.random.default_rng(seed)
    X = np.vstack([rng.normal(size=(80, d)), rng.normal(size=(70, d)) + 2.0])
    return X, np.repeat([0, 1], [80, 70])


@pytest.mark.parametrize("seed", range(3))
def test_invariant_to_invertible_linear_maps_with_the_total_regularizer(seed):
    X, labels = _blobs(seed)
    rng = np.random.default_rng(seed + 10)
    A = rng.normal(size=(6, 6)) + 3 * np.eye(6)
    c = rng.normal(size=6) * 100
    for lam in (0.0, 0.1, 1.0):
        a = msp_heldout_score(X, labels, lam=lam, regularizer="total", random_state=3)
        b = msp_heldout_score(X @ A.T + c, labels, lam=lam, regularizer="total", random_state=3)
        assert a > 0.3
        assert b == pytest.approx(a, abs=1e-7)


@pytest.mark.parametrize("seed", range(3))
def test_invariant_to_per_feature_scaling_with_the_diag_regularizer(seed):
    X, labels = _blobs(seed)
    factors = 10.0 ** np.random.default_rng(seed).uniform(-3, 3, size=6)
    a = msp_heldout_score(X, labels, lam=0.2, random_state=1)
    b = msp_heldout_score(X * factors, labels, lam=0.2, random_state=1)
    assert b == pytest.approx(a, abs=1e-9)
    # ... and not with the identity (the regulariser that does not transform with the data).
    c = msp_heldout_score(X, labels, lam=0.2, regularizer="identity", random_state=1)
    d = msp_heldout_score(X * factors, labels, lam=0.2, regularizer="identity", random_state=1)
    assert abs(c - d) > 1e-3


def test_deterministic_under_random_state_and_varies_without_it():
    X, labels = _blobs(0, d=20)
    a = msp_heldout_score(X, labels, lam=0.1, random_state=5)
    assert msp_heldout_score(X, labels, lam=0.1, random_state=5) == a
    others = {msp_heldout_score(X, labels, lam=0.1, random_state=s) for s in range(5)}
    assert len(others) > 1


def test_k_clusters_and_label_values():
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(size=(60, 3)) + c for c in ([0, 0, 0], [5, 0, 0], [0, 5, 0])])
    codes = np.repeat([0, 1, 2], 60)
    words = np.array(["a", "b", "c"])[codes]
    a = msp_heldout_score(X, codes, lam=0.1, random_state=0)
    assert 0.3 < a <= 1.0
    assert msp_heldout_score(X, words, lam=0.1, random_state=0) == a


@pytest.mark.parametrize("n_splits", [2, 3, 5])
def test_a_cluster_too_small_to_hold_out_names_the_minimum(n_splits):
    X = _noise(0, n=30, d=3)
    labels = np.zeros(30, dtype=int)
    labels[: n_splits - 1] = 1
    with pytest.raises(ValueError, match=f"at least {n_splits} points in every cluster"):
        msp_heldout_score(X, labels, lam=0.1, n_splits=n_splits)
    labels[:n_splits] = 1
    assert 0.0 <= msp_heldout_score(X, labels, lam=0.1, n_splits=n_splits, random_state=0) <= 1


def test_bad_parameters():
    X, labels = _blobs(0)
    with pytest.raises(ValueError, match="prior_points must be >= 0"):
        msp_heldout_score(X, labels, prior_points=-1)
    with pytest.raises(ValueError, match="n_splits must be at least 2"):
        msp_heldout_score(X, labels, n_splits=1)
    with pytest.raises(ValueError, match="lam must be >= 0"):
        msp_heldout_score(X, labels, lam=-1)
    with pytest.raises(ValueError, match="single cluster"):
        msp_heldout_score(X, np.zeros(150))


@pytest.mark.parametrize(
    "params",
    [{}, {"n_clusters": 3}, {"kernel": "rbf"}, {"method": "eig"}, {"method": "gep"}],
)
def test_fitted_models_report_it_beside_the_in_sample_msp(params):
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(size=(80, 3)) + c for c in ([0, 0, 0], [6, 0, 0], [0, 6, 0])])
    model = MSPC(random_state=0, n_init=2, **params).fit(X)
    assert 0.0 <= model.msp_heldout_ <= 1.0
    assert model.msp_heldout_ == pytest.approx(model.msp_, abs=0.1)
    again = MSPC(random_state=0, n_init=2, **params).fit(X)
    assert again.msp_heldout_ == model.msp_heldout_
    if params.get("kernel") == "rbf":  # computed in the kernel's feature space
        fmap = model.model_.fmap
        from clustering._moments import regularizer_matrix

        reg = model.lam * regularizer_matrix(fmap.std_out, model.regularizer)
        expected = heldout_msp_z(fmap.Z, model.labels_, 2, reg, random_state=0)
        assert model.msp_heldout_ == pytest.approx(expected)
    elif params.get("n_clusters", 2) == 2:
        expected = msp_heldout_score(X, model.labels_, lam=model.lam, random_state=0)
        assert model.msp_heldout_ == pytest.approx(expected, abs=1e-9)
