"""MSPC's search (issue 16): monotone ascent, multi-start, the paper's EIG prediction."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.datasets import make_blobs
from sklearn.metrics import adjusted_rand_score
from sklearn.preprocessing import StandardScaler

import datasets
from clustering import MSPC
from clustering._multistart import LAM_PATH
from clustering.exceptions import DegenerateDataError
from clustering.metrics import msp_heldout_score, msp_score
from clustering.mspc import DEFAULT_LAM

_LAMS = st.floats(min_value=-4, max_value=4).map(lambda e: 10.0**e)


def _fit(X, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return MSPC(**kwargs).fit(X)


def _assert_climbed(model, X, start, lam):
    start_msp = msp_score(X, start, lam=lam)
    assert model.msp_ >= start_msp * (1 - 1e-9)
    assert model.msp_ == pytest.approx(msp_score(X, model.labels_, lam=lam), rel=1e-7)
    assert np.all(np.diff(model.history_) >= 0)
    assert model.history_[0] == pytest.approx(start_msp, rel=1e-7)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    n=st.integers(12, 80),
    d=st.integers(1, 6),
    lam=_LAMS,
    method=st.sampled_from(["mpm", "gep"]),
)
def test_monotone_search_never_ends_below_its_start_on_random_data(seed, n, d, lam, method):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) * 10.0 ** rng.uniform(-2, 2, d)
    X[: n // 3] += rng.normal(size=d) * 3
    start = np.zeros(n, dtype=int)
    start[rng.permutation(n)[: rng.integers(2, n - 1)]] = 1
    model = _fit(X, method=method, lam=lam, init=start, search="monotone")
    _assert_climbed(model, X, start, lam)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    task=st.sampled_from(["ionosphere", "breast", "australian", "diabetes"]),
    lam=_LAMS,
    method=st.sampled_from(["mpm", "gep"]),
    start=st.sampled_from(["kmeans", "eig", "random"]),
)
def test_monotone_search_never_ends_below_its_start_on_bundled_tasks(task, lam, method, start):
    ds = datasets.load(task)
    if start == "random":
        labels0 = np.random.default_rng(0).integers(0, 2, ds.X.shape[0])
    else:
        labels0 = _fit(
            ds.X, method=method, lam=lam, init=start, n_init=1, max_iter=1, random_state=0
        ).init_labels_
    model = _fit(ds.X, method=method, lam=lam, init=labels0, search="monotone")
    _assert_climbed(model, ds.X, labels0, lam)


def test_breast_demo_no_longer_walks_downhill():
    """The Home page's demo: the paper's alternation falls from 0.888 to 0.734."""
    ds = datasets.load("breast")
    kw = {"method": "mpm", "lam": 0.01, "init": "kmeans", "random_state": 0}
    paper = _fit(ds.X, search="paper", **kw)
    climbed = _fit(ds.X, search="monotone", **kw)
    assert paper.msp_ < paper.history_[0] - 0.1
    assert climbed.msp_ >= climbed.history_[0] == pytest.approx(paper.history_[0])
    assert climbed.converged_


def _anisotropic():
    X, y = make_blobs(n_samples=500, centers=2, random_state=170)
    X = StandardScaler().fit_transform(X @ np.array([[0.6, -0.6], [-0.4, 0.8]]))
    return X, y


@pytest.mark.parametrize("lam", [0.01, 0.1])
@pytest.mark.parametrize("method", ["mpm", "gep"])
def test_default_search_finds_the_anisotropic_blobs(lam, method):
    X, y = _anisotropic()
    model = _fit(X, method=method, lam=lam, random_state=0)
    assert adjusted_rand_score(y, model.labels_) >= 0.95
    # ... and it is the labeling of highest held-out MSP among the starts climbed at the
    # lam it was kept at.
    kept = msp_heldout_score(X, model.labels_, lam=model.search_lam_, random_state=0)
    at = [s["msp_heldout"] for s in model.starts_ if s["lam"] == model.search_lam_]
    assert kept == pytest.approx(max(at))
    assert len(model.starts_) >= 2
    # "auto" (monotone search, largest in-sample MSP) finds them too, above the k-means one.
    auto = _fit(X, method=method, lam=lam, init="auto", search="monotone", random_state=0)
    assert adjusted_rand_score(y, auto.labels_) >= 0.95
    kmeans = _fit(X, method=method, lam=lam, init="kmeans", random_state=0, search="monotone")
    assert auto.msp_ > kmeans.msp_
    assert auto.msp_ == pytest.approx(max(s["msp"] for s in auto.starts_))


def test_default_lam_is_where_the_criterion_prefers_the_true_anisotropic_labeling():
    X, y = _anisotropic()
    km = _fit(X, lam=DEFAULT_LAM, init="kmeans", search="paper", random_state=0).labels_
    assert msp_score(X, y, lam=DEFAULT_LAM) > msp_score(X, km, lam=DEFAULT_LAM)


def test_auto_invariant_is_exactly_invariant_to_feature_scaling():
    ds = datasets.load("breast")
    factors = 10.0 ** np.random.default_rng(1).uniform(-3, 3, ds.X.shape[1])
    kw = {"lam": 0.1, "init": "auto-invariant", "n_init": 3, "random_state": 0}
    base = _fit(ds.X, **kw)
    scaled = _fit(ds.X * factors, **kw)
    assert np.array_equal(base.labels_, scaled.labels_) or np.array_equal(
        base.labels_, 1 - scaled.labels_
    )
    assert scaled.msp_ == pytest.approx(base.msp_, rel=1e-9)
    assert base.starts_[0]["init"] == "kmeans-standardized"
    assert "kmeans" not in [s["init"] for s in base.starts_]


# ---- the paper's EIG prediction, Table 2 cells ------------------------------------------


@pytest.mark.parametrize(
    "task,target",
    [("ionosphere", 29.63), ("breast", 2.78), ("diabetes", 31.77)],
)
def test_paper_eig_prediction_hits_table2(task, target):
    from lab.experiments._cells import Cell, compute_cell

    # The reproduction's own cell (the lam grid does not move EIG's labels: one lam suffices).
    result = compute_cell(Cell.make("table2", "mspc-eig", task, {"lam": 1.0}))
    assert 100 * (1 - result["accuracy"]) == pytest.approx(target, abs=0.1)


@pytest.mark.parametrize("task,bound", [("satellite", 2.8), ("letter", 15.0)])
def test_paper_eig_prediction_bounds_on_larger_tasks(task, bound):
    from lab.experiments._cells import Cell, compute_cell

    result = compute_cell(Cell.make("table2", "mspc-eig", task, {"lam": 1.0}))
    assert 100 * (1 - result["accuracy"]) <= bound


def test_paper_eig_prediction_depends_on_feature_ranges_and_the_invariant_does_not():
    ds = datasets.load("breast")
    factors = 10.0 ** np.random.default_rng(2).uniform(-2, 2, ds.X.shape[1])
    inv = [_fit(X, method="eig", lam=1.0).labels_ for X in (ds.X, ds.X * factors)]
    assert np.array_equal(inv[0], inv[1])
    paper = _fit(ds.X, method="eig", lam=1.0, eig_prediction="paper")
    # Fitted attributes agree with the labels in the paper's form too.
    np.testing.assert_array_equal(paper.predict(ds.X), paper.labels_)
    assert not np.array_equal(paper.labels_, inv[0])


# ---- bad input stays a clear error -------------------------------------------------------


def test_one_cluster_start_is_a_clear_error():
    X = np.random.default_rng(0).normal(size=(20, 2))
    with pytest.raises(ValueError, match="exactly two labels"):
        MSPC(init=np.ones(20)).fit(X)


@pytest.mark.parametrize("init", ["auto", "auto-invariant", "kmeans", "eig"])
def test_identical_samples_are_a_clear_error(init):
    with pytest.raises(DegenerateDataError, match=r"identical|constant"):
        MSPC(init=init).fit(np.tile([1.0, 2.0], (10, 1)))


@pytest.mark.parametrize("method", ["mpm", "gep"])
def test_singular_covariances_without_regulariser_are_a_clear_error(method):
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(size=(5, 20)), rng.normal(size=(5, 20)) + 5])
    with pytest.raises(DegenerateDataError, match="lam > 0"):
        MSPC(method=method, lam=0.0, init=np.repeat([0, 1], 5)).fit(X)


# ---- the default start: held-out MSP, clusters larger than the dimension ---------------


@pytest.mark.parametrize("task", ["breast", "digits:3v8", "satimage:1v2"])
def test_default_labels_are_identical_under_per_feature_rescaling(task):
    ds = datasets.load(task)
    factors = 10.0 ** np.random.default_rng(4).uniform(-3, 3, ds.X.shape[1])
    a = _fit(ds.X, random_state=0).labels_
    b = _fit(ds.X * factors, random_state=0).labels_
    assert np.array_equal(a, b) or np.array_equal(a, 1 - b)


@pytest.mark.parametrize("task", ["digits:0v6", "digits:1v5", "digits:2v4"])
def test_default_does_not_cut_off_a_few_digits_where_the_in_sample_choice_does(task, monkeypatch):
    """'auto' keeps a split of a few digits against the rest (in-sample MSP near 1); the
    default keeps a labeling whose clusters all have more points than features."""
    ds = datasets.load(task)
    d = int((np.ptp(ds.X, axis=0) > 0).sum())
    auto = _fit(ds.X, init="auto", search="monotone", random_state=0)
    assert np.bincount(auto.labels_).min() <= d
    model = _fit(ds.X, random_state=0)
    assert np.bincount(model.labels_).min() > d
    assert np.mean(model.labels_ == ds.y) > 0.95 or np.mean(model.labels_ != ds.y) > 0.95


# ---- large N: the start chosen on a subsample ------------------------------------------


def _large(monkeypatch, size=300):
    import clustering.mspc as mspc

    monkeypatch.setattr(mspc, "HELDOUT_SUBSAMPLE", size)
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(size=(500, 6)), rng.normal(size=(500, 6)) + [4, 0, 0, 0, 0, 0]])
    X *= 10.0 ** rng.uniform(-2, 2, 6)
    return X, np.repeat([0, 1], 500)


def test_above_the_subsample_size_the_start_is_the_subsample_fits_hyperplane(monkeypatch):
    from sklearn.base import clone

    from clustering._compat import check_random_state

    X, y = _large(monkeypatch)
    model = _fit(X, random_state=0)
    # The subsample the fit drew, and the default fitted on it alone.
    idx = np.sort(check_random_state(0).choice(X.shape[0], 300, replace=False))
    # At each lam (the default's and the smaller ones it also climbs at), the default of that
    # lam alone on the subsample, then one climb on every sample; the climb kept starts from
    # its lam's subsample hyperplane.
    lams = [model.lam] + [model.lam * f for f in LAM_PATH]
    assert [s["lam"] for s in model.starts_ if s["init"] == "subsample"] == lams
    sub = clone(model).set_params(lam=model.search_lam_)
    sub._one_lam = True
    sub.fit(X[idx])
    assert np.array_equal(model.init_labels_, (X @ sub.w_ - sub.b_ >= 0).astype(int))
    inits = [s["init"] for s in sub.starts_] + ["subsample"]
    assert [s["init"] for s in model.starts_] == inits * len(lams)
    assert all(s["subsample"] == 300 for s in model.starts_ if s["init"] != "subsample")
    assert np.mean(model.labels_ == y) > 0.95 or np.mean(model.labels_ != y) > 0.95
    # msp_heldout_ is that of the labels on every sample, with one random split.

    assert model.msp_heldout_ == pytest.approx(
        msp_heldout_score(X, model.labels_, lam=model.lam, n_repeats=1, random_state=0)
    )


def test_above_the_subsample_size_labels_are_invariant_and_deterministic(monkeypatch):
    X, _ = _large(monkeypatch)
    factors = 10.0 ** np.random.default_rng(4).uniform(-3, 3, X.shape[1])
    a = _fit(X, random_state=0).labels_
    assert np.array_equal(a, _fit(X, random_state=0).labels_)
    b = _fit(X * factors, random_state=0).labels_
    assert np.array_equal(a, b) or np.array_equal(a, 1 - b)
