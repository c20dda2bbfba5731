"""Structure or none (issue 36): MSPC and the metric say when a labeling's held-out MSP is at
the level the same search reaches on Gaussian noise of the data's shape, and warn on
clusters too small to score."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from clustering import MSPC
from clustering.exceptions import NoStructureWarning, SmallClusterWarning
from clustering.metrics import heldout_structure


def _blobs(seed, n=100, d=3, gap=4.0):
    rng = np.random.default_rng(seed)
    return np.vstack([rng.normal(0, 1, (n, d)), rng.normal(gap, 1, (n, d))])


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("shape", [(100, 3), (200, 10), (400, 2)])
def test_gaussian_noise_is_reported_as_no_structure(seed, shape):
    X = np.random.default_rng(seed).normal(size=shape)
    with pytest.warns(NoStructureWarning, match="No structure found"):
        m = MSPC(random_state=seed).fit(X)
    assert m.structure_found_ is False
    assert m.msp_heldout_ <= m.msp_heldout_reference_ + 0.05


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_separated_clusters_are_reported_as_structure(seed):
    X = _blobs(seed)
    with warnings.catch_warnings():
        warnings.simplefilter("error", NoStructureWarning)
        m = MSPC(random_state=seed).fit(X)
    assert m.structure_found_ is True
    assert m.msp_heldout_ > m.msp_heldout_reference_ + 0.05


@pytest.mark.parametrize("n_clusters", [2, 3])
def test_the_metric_agrees_with_the_fitted_attributes(n_clusters):
    X = _blobs(3) if n_clusters == 2 else np.vstack([_blobs(3), _blobs(4, gap=-4.0)[100:]])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        m = MSPC(random_state=7, n_clusters=n_clusters).fit(X)
    out = heldout_structure(X, m.labels_, random_state=7)
    assert out["reference"] == m.msp_heldout_reference_
    assert out["structure"] is m.structure_found_
    assert out["msp_heldout"] == m.msp_heldout_


def test_the_verdict_does_not_change_when_a_feature_is_rescaled():
    """The reference noise is drawn in z-scored coordinates, like every MSPC computation."""
    X = _blobs(5, d=4)
    factors = 10.0 ** np.array([-3.0, 0.0, 2.0, 4.0])
    a = MSPC(random_state=0).fit(X)
    b = MSPC(random_state=0).fit(X * factors)
    assert a.msp_heldout_reference_ == pytest.approx(b.msp_heldout_reference_, rel=1e-6)
    assert a.structure_found_ is b.structure_found_ is True


def test_a_cluster_too_small_to_score_is_named():
    X = np.random.default_rng(0).normal(size=(6, 2))
    with pytest.warns(SmallClusterWarning, match="too few to hold any out"):
        m = MSPC(n_clusters=3, random_state=0).fit(X)
    assert np.bincount(m.labels_).min() < 2
    assert m.msp_heldout_ == 0.0 and m.structure_found_ is False


def test_kernel_fits_have_no_reference():
    from sklearn.datasets import make_moons

    X, _ = make_moons(120, noise=0.05, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        m = MSPC(kernel="rbf", random_state=0).fit(X)
    assert np.isnan(m.msp_heldout_reference_) and m.structure_found_ is None
