"""The features' resolution in the held-out MSP of two-cluster MSPC (issue 36, finding 1):
a cluster constant along a discrete feature gets the largest variance a distribution within
one grid step can have, so a split along one 0/1 column is no longer rated perfectly
separable when the default chooses among its starts."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from clustering import MSPC
from clustering._moments import cluster_moments, heldout_reg, resolution_variance, standardize
from clustering.metrics import msp_heldout_score, msp_score
from clustering.mpm import mpm_of


def _mixed(seed, n=240):
    """Two continuous columns, a 0/1 flag held by about a third of the points and a 1-to-5
    answer."""
    rng = np.random.default_rng(seed)
    return np.column_stack(
        [
            rng.normal(size=(n, 2)),
            (rng.uniform(size=n) < 0.35).astype(float),
            rng.integers(1, 6, size=n).astype(float),
        ]
    )


def test_resolution_is_a_quarter_of_the_squared_step_in_standardised_units():
    X = _mixed(0)
    std = standardize(X)
    R = resolution_variance(std)
    assert R[2] == pytest.approx(1.0 / (4.0 * X[:, 2].var()))
    assert R[3] == pytest.approx(1.0 / (4.0 * X[:, 3].var()))
    assert R[:2].max() < 1e-6  # continuous: negligible


@pytest.mark.parametrize("lam", [0.05, 0.2, 1.0])
def test_a_split_along_one_flag_has_the_closed_form_kappa(lam):
    """Along a 0/1 flag held by a fraction p, each cluster's variance in the held-out
    regulariser is lam p (1 - p) + 1/4 (original units), so
    kappa = 1 / (2 sqrt(lam p (1 - p) + 1/4)) <= 1 (MSP at most 0.5), whatever lam; without
    the resolution it is 1 / (2 sqrt(lam p (1 - p))), 2.2 at lam = 0.2."""
    flag = (np.random.default_rng(1).uniform(size=300) < 0.3).astype(float)
    p = flag.mean()
    std = standardize(flag[:, None])
    moments = cluster_moments(std.Z, flag.astype(int))
    reg = heldout_reg(std, "diag", lam)
    kappa = 1.0 / (2.0 * np.sqrt(lam * p * (1 - p) + 0.25))
    assert mpm_of(moments, reg).kappa == pytest.approx(kappa)
    assert mpm_of(moments, lam * np.eye(1)).kappa == pytest.approx(
        1.0 / (2.0 * np.sqrt(lam * p * (1 - p)))
    )
    assert kappa <= 1.0


def test_metrics_equal_the_estimator_on_discrete_features():
    X = _mixed(2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        m = MSPC(random_state=2).fit(X)
    assert msp_score(X, m.labels_) == m.msp_
    assert msp_heldout_score(X, m.labels_, random_state=2) == m.msp_heldout_


def test_labels_are_identical_under_per_feature_rescaling_with_discrete_features():
    X = _mixed(3)
    f = 10.0 ** np.random.default_rng(0).uniform(-3, 3, X.shape[1])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = MSPC(random_state=0).fit(X).labels_
        b = MSPC(random_state=0).fit(X * f).labels_
    assert np.array_equal(a, b) or np.array_equal(a, 1 - b)
