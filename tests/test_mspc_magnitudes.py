"""Multi-class and kernel MSPC get the same clear refusals as the two-cluster linear path.

X * 1e-300 (every difference underflows when squared), X * 1e160 .. 1e300 (squares
overflow), identical rows with k = 3, an RBF width that makes the kernel constant or cuts
the samples apart, and the F-measure MMC on two samples: each raises the project's error
naming the problem and the fix, never a NumPy or k-means message or a silent split.
"""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import make_blobs

from clustering import ALGORITHMS, MSPC
from clustering.exceptions import DegenerateDataError

X3, _ = make_blobs(60, 2, centers=3, random_state=0)

SETTINGS = {
    "k=3": {"n_clusters": 3},
    "rbf": {"kernel": "rbf"},
    "k=3 rbf": {"n_clusters": 3, "kernel": "rbf"},
}


@pytest.mark.parametrize("setting", list(SETTINGS))
def test_tiny_magnitudes_are_refused_with_the_fix(setting):
    with pytest.raises(DegenerateDataError, match=r"differ by at most .* Fix: r"):
        MSPC(random_state=0, **SETTINGS[setting]).fit(X3 * 1e-300)


@pytest.mark.parametrize("setting", list(SETTINGS))
@pytest.mark.parametrize("factor", [1e160, 1e200, 1e300])
def test_huge_magnitudes_are_refused_not_called_coinciding(setting, factor):
    with pytest.raises(DegenerateDataError, match=r"values as large as .* overflow") as err:
        MSPC(random_state=0, **SETTINGS[setting]).fit(X3 * factor)
    assert "coincide" not in str(err.value)


@pytest.mark.parametrize("key", list(ALGORITHMS))
def test_identical_rows_with_three_clusters_say_so(key):
    est = ALGORITHMS[key].factory()
    if "n_clusters" in est.get_params():
        est.set_params(n_clusters=3)
    with pytest.raises(DegenerateDataError, match="identical") as err:
        est.fit(np.ones((20, 3)))
    assert "n_clusters=1" not in str(err.value)


@pytest.mark.parametrize(
    ("gamma", "match"),
    [
        (1e6, r"gamma=1e\+06 is so narrow .* Use gamma below"),
        (1e-300, r"is so small .* 1e-12 of 1"),
    ],
)
def test_rbf_width_that_breaks_the_kernel_is_refused(gamma, match):
    X, _ = make_blobs(60, 2, centers=2, random_state=0)
    with pytest.raises(DegenerateDataError, match=match) as err:
        MSPC(kernel="rbf", gamma=gamma, random_state=0).fit(X)
    assert "gamma=None for the automatic width" in str(err.value)
    # widths between the two limits still fit, with both clusters populated
    labels = MSPC(kernel="rbf", gamma=5.0, random_state=0).fit(X).labels_
    assert np.bincount(labels).min() >= 20


def test_f_measure_mmc_refuses_two_samples():
    X = np.array([[0.0, 1.0], [1.0, 0.5]])
    with pytest.raises(ValueError, match="F-measure loss needs at least 3 samples"):
        ALGORITHMS["mmc-f"].factory().fit(X)
    labels = ALGORITHMS["mmc-f"].factory().fit(np.vstack([X, [[3.0, 3.0]]])).labels_
    assert len(set(labels)) == 2
