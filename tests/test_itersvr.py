"""IterSVR: the class balance step, the fixed-point property and its failure paths."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning
from sklearn.metrics import adjusted_rand_score
from sklearn.svm import SVR

from clustering import DegenerateDataError, IterSVR
from clustering.itersvr import balanced_threshold
from tests.conftest import two_gaussians


@pytest.mark.parametrize("kernel", ["linear", "rbf"])
def test_separates_two_gaussians(kernel):
    X, y = two_gaussians(n_per=50, d=4, gap=8.0, seed=4)
    model = IterSVR(kernel, gamma=0.1, random_state=0).fit(X)
    assert adjusted_rand_score(y, model.labels_) == 1.0
    assert model.converged_ and model.history_[-1] == 0


def test_rbf_separates_what_a_line_cannot():
    # A small blob inside a ring: no hyperplane separates them, a Gaussian kernel does.
    rng = np.random.default_rng(0)
    angle = rng.uniform(0, 2 * np.pi, 80)
    ring = np.c_[np.cos(angle), np.sin(angle)] * 5 + rng.normal(0, 0.2, (80, 2))
    blob = rng.normal(0, 0.5, (40, 2))
    X, y = np.vstack([ring, blob]), np.repeat([0, 1], [80, 40])
    init = (np.linalg.norm(X, axis=1) < 2.5).astype(int)
    init[:5] = 1 - init[:5]  # a perturbed start
    model = IterSVR("rbf", gamma=0.5, C=10.0, init=init).fit(X)
    assert adjusted_rand_score(y, model.labels_) == 1.0


@pytest.mark.parametrize("balance", [0.0, 0.1, 0.5, 1.0])
def test_balanced_threshold_moves_the_fewest_samples(balance):
    rng = np.random.default_rng(1)
    for _ in range(200):
        n = int(rng.integers(2, 40))
        f = rng.normal(rng.normal(0, 2), 1, n)
        n_pos = int((f - balanced_threshold(f, balance) >= 0).sum())
        # Brute force over cluster sizes: the admissible size nearest to sign(f)'s.
        # (the most equal splits are always admissible, also for an odd n).
        admissible = [k for k in range(1, n) if abs(2 * k - n) <= max(balance * n, 1)]
        start = int((f >= 0).sum())
        assert n_pos == min(admissible, key=lambda k: (abs(k - start), k))
        if start in admissible:
            assert balanced_threshold(f, balance) == 0.0


def test_strict_balance_splits_an_unbalanced_data_set_in_halves():
    X, _ = two_gaussians(n_per=30, d=2, seed=5)
    X = np.vstack([X, X[30:] + 0.01])  # 30 vs 60 samples
    model = IterSVR(balance=0.0, random_state=0).fit(X)
    assert np.bincount(model.labels_).tolist() == [45, 45]


def test_labels_are_a_fixed_point_of_the_regression():
    X, _ = two_gaussians(n_per=40, d=3, gap=3.0, seed=6)
    model = IterSVR(C=0.5, random_state=0).fit(X)
    assert model.converged_
    svr = SVR(kernel="linear", C=0.5, epsilon=0.0).fit(X, 2.0 * model.labels_ - 1)
    f = svr.predict(X)
    relabelled = (f - balanced_threshold(f, 0.5) >= 0).astype(int)
    np.testing.assert_array_equal(relabelled, model.labels_)
    np.testing.assert_allclose(model.w_, svr.coef_.ravel(), rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(model.decision_function(X), X @ model.w_ - model.b_)
    np.testing.assert_array_equal(model.predict(X), model.labels_)


def test_warns_when_labels_keep_changing():
    X, _ = two_gaussians(n_per=40, d=2, gap=2.0, seed=7)
    with pytest.warns(ConvergenceWarning, match="max_iter"):
        IterSVR(init="random", max_iter=1, random_state=0).fit(X)


def test_bad_init_and_identical_samples_are_explained():
    X, _ = two_gaussians(n_per=5, seed=8)
    with pytest.raises(ValueError, match="one label per sample"):
        IterSVR(init=[0, 1]).fit(X)
    with pytest.raises(ValueError, match="exactly two labels"):
        IterSVR(init=np.zeros(10)).fit(X)
    with pytest.raises(DegenerateDataError, match="identical"):
        IterSVR().fit(np.ones((10, 3)))


def test_table2_grid_covers_the_gaussian_width_of_every_task():
    """The MSPC paper tunes IterSVR's C and Gaussian width: the Table 2 grid is a C x gamma
    grid of the Gaussian kernel whose gamma range contains the median-heuristic width
    1 / (2 median squared distance) of every Table 2 task, with a factor 2 to spare."""
    from sklearn.metrics.pairwise import euclidean_distances

    import datasets
    from lab.experiments import _methods

    settings = _methods.grid("itersvr")
    assert {s["kernel"] for s in settings} == {"rbf"}
    gammas = sorted({s["gamma"] for s in settings})
    assert len({s["C"] for s in settings}) >= 5 and len(gammas) >= 5
    for task in ("ionosphere", "breast", "australian", "diabetes", "letter", "satellite", "spam"):
        X = datasets.load(task).X[:1000]
        d2 = euclidean_distances(X, squared=True)
        heuristic = 1.0 / (2.0 * np.median(d2[np.triu_indices_from(d2, k=1)]))
        assert gammas[0] * 2 <= heuristic <= gammas[-1] / 2, task
