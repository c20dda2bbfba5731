"""Method-specific properties of the k-means, LDA-k-means, discriminative k-means and
spectral baselines (the common checks in test_common.py cover the shared contract)."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.cluster import KMeans
from sklearn.datasets import make_circles
from sklearn.metrics import adjusted_rand_score

from clustering import DiscriminativeKMeans, KMeansBaseline, LDAKMeans, SpectralBaseline
from clustering.lda_kmeans import scatter_matrices
from clustering.spectral import top_eigenvectors
from tests.conftest import two_gaussians


def _elongated(n_per=60, seed=0):
    """Two clusters apart along feature 0 (gap 4), with a noise feature 1 of unit variance;
    k-means separates them until feature 1 is expressed in smaller units."""
    rng = np.random.default_rng(seed)
    X0 = np.column_stack([rng.normal(0, 0.5, n_per), rng.normal(0, 1, n_per)])
    X1 = np.column_stack([rng.normal(4, 0.5, n_per), rng.normal(0, 1, n_per)])
    return np.vstack([X0, X1]), np.repeat([0, 1], n_per)


# ----------------------------------------------------------------------------- k-means


def test_kmeans_matches_sklearn_and_its_hyperplane():
    X, _ = two_gaussians(n_per=50, d=3, seed=4)
    model = KMeansBaseline(random_state=0, n_init=3).fit(X)
    ref = KMeans(n_clusters=2, n_init=3, random_state=0).fit(X)
    assert adjusted_rand_score(ref.labels_, model.labels_) == 1.0
    assert model.inertia_ == pytest.approx(ref.inertia_)
    # The hyperplane is the perpendicular bisector of the centroids.
    c0, c1 = model.cluster_centers_
    assert model.decision_function((c0 + c1)[None, :] / 2)[0] == pytest.approx(0, abs=1e-9)
    assert model.decision_function(c1[None, :])[0] > 0 > model.decision_function(c0[None, :])[0]
    np.testing.assert_allclose(np.linalg.norm(model.w_), 1.0)


def test_kmeans_is_not_invariant_to_feature_scaling():
    X, y = _elongated()
    assert adjusted_rand_score(y, KMeansBaseline(random_state=0).fit_predict(X)) == 1.0
    X_afs = X * [1.0, 10.0]  # feature 1 in other units
    assert adjusted_rand_score(y, KMeansBaseline(random_state=0).fit_predict(X_afs)) < 0.2


def test_kmeans_more_clusters_has_no_decision_function():
    model = KMeansBaseline(3, random_state=0)
    assert not hasattr(model, "decision_function")
    X, _ = two_gaussians(n_per=20, seed=1)
    assert set(model.fit_predict(X)) == {0, 1, 2}


# -------------------------------------------------------------- discriminative k-means


def test_dis_kmeans_features_give_the_ye_zhao_wu_kernel():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 4)) * [1, 10, 0.1, 3]
    lam = 2.5
    model = DiscriminativeKMeans(lam=lam, random_state=0, n_init=2).fit(X)
    Xc = X - X.mean(axis=0)
    F = Xc @ model.transform_
    # lam is relative to the mean eigenvalue of the scatter matrix Xc'Xc.
    assert model.ridge_ == pytest.approx(lam * np.trace(Xc.T @ Xc) / 4, rel=1e-12)
    G = np.eye(30) - np.linalg.inv(np.eye(30) + Xc @ Xc.T / model.ridge_)
    np.testing.assert_allclose(F @ F.T, G, atol=1e-10)
    # objective_ is the kernel k-means cost trace(G) - sum_k y_k'G y_k / n_k.
    Y = np.eye(2)[model.labels_]
    cost = np.trace(G) - np.sum(np.diag(Y.T @ G @ Y) / Y.sum(axis=0))
    assert model.objective_ == pytest.approx(cost, rel=1e-9)


def test_dis_kmeans_small_lam_is_invariant_to_feature_scaling_large_lam_is_kmeans():
    X, y = _elongated(seed=3)
    scale = np.array([1e-3, 10.0])
    small = dict(lam=1e-9, random_state=0, n_init=5)
    a = DiscriminativeKMeans(**small).fit_predict(X)
    b = DiscriminativeKMeans(**small).fit_predict(X * scale)
    assert adjusted_rand_score(a, b) == 1.0
    # lam >> eigenvalues of Xc'Xc: F is Xc / sqrt(lam), i.e. k-means on the raw data.
    km = KMeansBaseline(random_state=0, n_init=5).fit_predict(X * scale)
    big = DiscriminativeKMeans(lam=1e12, random_state=0, n_init=5).fit_predict(X * scale)
    assert adjusted_rand_score(km, big) == 1.0
    assert adjusted_rand_score(y, km) < 0.2


@pytest.mark.parametrize("seed", range(1, 6))
def test_dis_kmeans_relaxed_start_finds_the_split_when_d_exceeds_n(seed):
    # 20 samples, 40 features: one k-means++ start alone stops at a split unrelated to the
    # clusters (ARI < 0.2 on these seeds) whose objective is above the classes'.
    X, y = two_gaussians(n_per=10, d=40, gap=12.0, seed=seed)
    model = DiscriminativeKMeans(n_init=1, random_state=0).fit(X)
    assert adjusted_rand_score(y, model.labels_) == 1.0
    F = (X - model.mean_) @ model.transform_
    plus_only = KMeans(n_clusters=2, n_init=1, random_state=np.random.RandomState(0)).fit(F)
    assert model.objective_ <= plus_only.inertia_ + 1e-9


# ------------------------------------------------------------------------ LDA-k-means


def test_lda_kmeans_fixed_point_is_fisher_direction():
    X, _ = _elongated(seed=5)
    model = LDAKMeans(lam=0.01, random_state=0, n_init=3).fit(X)
    assert model.converged_
    Xc = X - X.mean(axis=0)
    S_w, _, means = scatter_matrices(Xc, model.labels_, 2)
    fisher = np.linalg.solve(S_w + 0.01 * np.eye(2), means[1] - means[0])
    cos = abs(fisher @ model.w_) / np.linalg.norm(fisher)
    assert cos == pytest.approx(1.0, abs=1e-9)
    # labels_ are the nearest projected centroid, i.e. the sign of the decision function.
    np.testing.assert_array_equal(model.labels_, model.decision_function(X) >= 0)
    assert model.objective_ == pytest.approx(model.history_[-1])


def test_lda_kmeans_escapes_a_bad_kmeans_start():
    # Two bands apart along feature 0 and wide along feature 1: k-means cuts across
    # feature 1, but LDA of that cut is the wrong direction only partly, and alternation
    # moves to the separating direction.
    rng = np.random.default_rng(0)
    n = 100
    X = np.column_stack(
        [
            np.repeat([0.0, 3.0], n) + rng.normal(0, 0.3, 2 * n),
            rng.normal(0, 2.0, 2 * n) + np.repeat([0.0, 1.5], n),
        ]
    )
    y = np.repeat([0, 1], n)
    km = KMeansBaseline(random_state=0).fit_predict(X)
    lda = LDAKMeans(lam=1e-3, random_state=0).fit(X)
    assert adjusted_rand_score(y, lda.labels_) == 1.0
    assert adjusted_rand_score(y, km) < 1.0
    assert lda.n_iter_ >= 2


# --------------------------------------------------------------------------- spectral


def test_spectral_separates_circles_that_kmeans_cannot():
    X, y = make_circles(n_samples=200, factor=0.3, noise=0.03, random_state=0)
    model = SpectralBaseline(affinity="knn", n_neighbors=8, random_state=0).fit(X)
    assert adjusted_rand_score(y, model.labels_) == 1.0
    assert adjusted_rand_score(y, KMeansBaseline(random_state=0).fit_predict(X)) < 0.1
    # Two connected components: the normalised affinity has eigenvalue 1 twice.
    np.testing.assert_allclose(model.eigenvalues_, [1.0, 1.0], atol=1e-8)
    np.testing.assert_allclose(np.linalg.norm(model.embedding_, axis=1), 1.0)


def test_spectral_gaussian_leading_eigenvalue_is_one_and_lanczos_matches_lapack():
    X, y = two_gaussians(n_per=250, d=2, gap=8.0, seed=7)  # N = 500: Lanczos path
    model = SpectralBaseline(affinity="gaussian", sigma=1.0, random_state=0).fit(X)
    assert model.eigenvalues_[0] == pytest.approx(1.0, abs=1e-8)
    assert adjusted_rand_score(y, model.labels_) == 1.0
    # Lanczos (used above) and LAPACK give the same eigenvalues and invariant subspace.
    rng = np.random.default_rng(0)
    B = rng.normal(size=(500, 500))
    S = B + B.T
    vals, U = top_eigenvectors(S, 3, np.random.RandomState(0))
    ref_vals, ref_U = np.linalg.eigh(S)
    np.testing.assert_allclose(vals, ref_vals[::-1][:3], rtol=1e-9)
    np.testing.assert_allclose(U @ U.T, ref_U[:, -3:] @ ref_U[:, -3:].T, atol=1e-8)


def test_spectral_median_width_is_used_and_reported():
    X, _ = two_gaussians(n_per=30, seed=2)
    model = SpectralBaseline(affinity="gaussian", random_state=0).fit(X)
    d = np.linalg.norm(X[:, None] - X[None], axis=-1)[np.triu_indices(60, 1)]
    assert model.sigma_ == pytest.approx(np.median(d))
    assert SpectralBaseline(affinity="knn").fit(X).sigma_ is None


@pytest.mark.parametrize(
    "estimator",
    [KMeansBaseline, DiscriminativeKMeans, LDAKMeans, SpectralBaseline],
)
def test_same_seed_same_labels_and_n_clusters_one_is_trivial(estimator):
    X, _ = two_gaussians(n_per=25, d=3, gap=3.0, seed=9)
    a = estimator(random_state=3).fit_predict(X)
    b = estimator(random_state=3).fit_predict(X)
    np.testing.assert_array_equal(a, b)
    assert set(estimator(1).fit_predict(X)) == {0}


@pytest.mark.parametrize("shape", ["moons", "circles"])
def test_spectral_defaults_match_sklearn_on_its_comparison_example(shape):
    """scikit-learn's clustering comparison: noisy moons and circles (500 points, noise
    0.05, standardised). Its SpectralClustering(affinity="nearest_neighbors") gets ARI 1.0;
    the Gaussian affinity of median width got 0.49 and 0.00."""
    from sklearn.cluster import SpectralClustering
    from sklearn.datasets import make_moons
    from sklearn.preprocessing import StandardScaler

    if shape == "moons":
        X, y = make_moons(n_samples=500, noise=0.05, random_state=170)
    else:
        X, y = make_circles(n_samples=500, factor=0.5, noise=0.05, random_state=170)
    X = StandardScaler().fit_transform(X)
    ours = SpectralBaseline(random_state=0).fit_predict(X)
    ref = SpectralClustering(2, affinity="nearest_neighbors", random_state=0).fit_predict(X)
    assert adjusted_rand_score(y, ref) >= 0.95
    assert adjusted_rand_score(y, ours) >= 0.95


def test_spectral_knn_grows_k_past_a_small_component():
    X = np.vstack([two_gaussians(n_per=100, d=2, gap=6.0, seed=4)[0], [[40.0, 40.0]] * 3])
    model = SpectralBaseline(n_neighbors=2, random_state=0).fit(X + 1e-3 * np.arange(203)[:, None])
    # 3 outlying points form their own component at k = 2: k grows until they join.
    assert model.n_neighbors_ > 2
    assert min(np.bincount(model.labels_)) >= 90


def test_spectral_auto_affinity_rule():
    """The default affinity="auto": the k-NN graph when it splits into n_clusters
    components (two rings), else the labeling with a larger MSP among those without a
    cluster smaller than N / (4 n_clusters) (australian: the k-NN labeling splits off 15 %
    of the samples, accuracy 0.57; the Gaussian labeling has the larger MSP and 0.82)."""
    from clustering.metrics import clustering_accuracy, msp_score

    X, y = make_circles(n_samples=300, factor=0.5, noise=0.05, random_state=0)
    rings = SpectralBaseline(random_state=0).fit(X)
    assert rings.affinity_ == "knn" and rings.sigma_ is None
    assert adjusted_rand_score(y, rings.labels_) == 1.0

    datasets = pytest.importorskip("datasets")
    ds = datasets.load("australian")
    auto = SpectralBaseline(random_state=0).fit(ds.X)
    knn = SpectralBaseline(affinity="knn", random_state=0).fit(ds.X)
    assert auto.affinity_ == "gaussian" and auto.n_neighbors_ is None and auto.sigma_ > 0
    assert np.bincount(auto.labels_).min() >= ds.X.shape[0] / 8
    assert msp_score(ds.X, auto.labels_, lam=0.2) > msp_score(ds.X, knn.labels_, lam=0.2)
    assert clustering_accuracy(ds.y, auto.labels_) >= 0.8 > clustering_accuracy(ds.y, knn.labels_)
