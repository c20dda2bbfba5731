"""One default lam for MSPC and the metric functions: the metrics, called with their
defaults on a fitted model's labels, return the model's own ``msp_`` and ``msp_heldout_``
exactly, whatever the estimator's settings and the data (constant features included)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clustering import MSPC
from clustering._lam import DEFAULT_LAM
from clustering.metrics import msp_heldout_score, msp_score
from clustering.msp_multiclass import multiclass_msp

SETTINGS = [
    {},
    {"method": "gep"},
    {"method": "eig"},
    {"search": "monotone"},
    {"init": "kmeans"},
    {"init": "kmeans-whitened", "method": "gep", "search": "monotone"},
    {"n_clusters": 3},
    {"n_clusters": 3, "init": "kmeans"},
]


def _data(seed, n, d, n_constant, scale):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    X[: n // 2, 0] += 3.0
    X[n // 3 :, -1] -= 2.5
    X *= 10.0 ** rng.uniform(-scale, scale, d)
    const = np.full((n, n_constant), 7.0)
    return np.hstack([X, const])[:, rng.permutation(d + n_constant)]


def test_the_defaults_are_the_estimators():
    import inspect

    for f in (msp_score, msp_heldout_score, multiclass_msp):
        assert inspect.signature(f).parameters["lam"].default == DEFAULT_LAM
    assert MSPC().lam == DEFAULT_LAM


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    n=st.integers(30, 160),
    d=st.integers(1, 6),
    n_constant=st.integers(0, 2),
    scale=st.floats(0, 4),
    setting=st.sampled_from(SETTINGS),
)
def test_metrics_with_defaults_equal_the_fitted_attributes(seed, n, d, n_constant, scale, setting):
    X = _data(seed, n, d, n_constant, scale)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        m = MSPC(random_state=seed, **setting).fit(X)
    assert msp_score(X, m.labels_) == m.msp_
    if np.bincount(m.labels_).min() >= 2:
        assert msp_heldout_score(X, m.labels_, random_state=seed) == m.msp_heldout_
    else:  # nothing can be held out: the fit scores 0, the metric names the minimum
        assert m.msp_heldout_ == 0.0
        with pytest.raises(ValueError, match="at least 2 points"):
            msp_heldout_score(X, m.labels_, random_state=seed)


def test_metrics_equal_the_attributes_above_the_subsample_size():
    """Above 2000 samples the fit scores one split of every sample: ``n_repeats=1``."""
    X = _data(3, 2400, 3, 1, 2.0)
    m = MSPC(random_state=3).fit(X)
    assert msp_score(X, m.labels_) == m.msp_
    assert msp_heldout_score(X, m.labels_, random_state=3, n_repeats=1) == m.msp_heldout_


def test_a_constant_feature_changes_neither_metric_at_the_default():
    """Constant features get weight zero in the metrics as in the estimator (no error from
    a singular covariance at the default lam)."""
    X = _data(0, 80, 3, 0, 0.0)
    labels = (X[:, 0] > np.median(X[:, 0])).astype(int)
    X1 = np.hstack([X, np.full((80, 1), -4.0)])
    assert msp_score(X1, labels) == pytest.approx(msp_score(X, labels), rel=1e-12)
    assert msp_heldout_score(X1, labels, random_state=0) == pytest.approx(
        msp_heldout_score(X, labels, random_state=0), rel=1e-12
    )
