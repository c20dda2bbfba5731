"""LDA-k-means: adaptive dimension reduction by alternating LDA and k-means (Ding & Li,
ICML 2007)."""

from __future__ import annotations

import warnings
from numbers import Real

import numpy as np
from scipy import linalg
from sklearn.exceptions import ConvergenceWarning

from ._base import BaseClusterer, kmeans_labels
from ._compat import Interval, check_random_state
from ._lam import lam_param
from ._spec import AlgorithmSpec
from .kmeans import (
    CentroidClusterMixin,
    centroid_hyperplane,
    cluster_means,
    lloyd_from,
    nearest_centroid,
)

__all__ = ["LDAKMeans", "scatter_matrices"]


def scatter_matrices(Xc: np.ndarray, labels: np.ndarray, n_clusters: int):
    """Within- and between-cluster covariance of centred data (scatter matrices / N).

    Returns
    -------
    S_w, S_b : ndarray of shape (d, d)
        ``S_w + S_b = Xc'Xc / N`` (the total covariance).
    means : ndarray of shape (n_clusters, d)
        Cluster means (zero rows for empty clusters).
    """
    n = Xc.shape[0]
    means, counts = cluster_means(Xc, labels, n_clusters)
    S_b = (means * (counts / n)[:, None]).T @ means
    R = Xc - means[labels]
    S_w = R.T @ R / n
    return S_w, S_b, means


class LDAKMeans(CentroidClusterMixin, BaseClusterer):
    """LDA-k-means: alternate the LDA subspace of the current clusters and k-means in it.

    Starting from k-means labels, each iteration (1) fits the ``n_clusters - 1``
    dimensional LDA subspace ``W`` of the current clusters, the leading generalised
    eigenvectors of ``S_b W = (S_w + lam I) W Gamma``, which maximises
    ``J = trace((W'(S_w + lam I)W)^-1 W'S_b W)``, then (2) runs k-means on the projected data
    ``(X - mean) W`` started from the current cluster means, until no label changes.

    For two clusters ``W`` is Fisher's direction ``(S_w + lam I)^-1 (mu1 - mu0)`` and the
    criterion is the ratio (7) of the MSPC paper with ``S_w`` in place of the total
    scatter; the MSPC paper shows both maximise an approximate lower bound of the MSP (the
    objective of MSPC-EIG), with the identity as regulariser instead of ``diag(Sigma)``,
    which makes LDA-k-means depend on the units of the features.

    Parameters
    ----------
    n_clusters : int, default=2
        Number of clusters (1 gives the trivial one-cluster partition).
    lam : float, default=1.0
        Ridge regulariser added to the within-cluster covariance ``S_w`` (covariance, i.e.
        scatter divided by N, so ``lam`` is comparable with the feature variances). The MSPC
        paper's Table 2 picks it from ``{1e-4, ..., 1e4}``.
    n_init : int, default=10
        Number of k-means++ starts of the initial k-means.
    max_iter : int, default=30
        Maximum number of LDA / k-means alternations.
    random_state : int, RandomState instance or None, default=None
        Seeds the initial k-means.

    Attributes
    ----------
    labels_ : ndarray of shape (n_samples,)
        Cluster of each sample, ``0 .. n_clusters - 1``.
    components_ : ndarray of shape (n_features, n_clusters - 1)
        The LDA subspace ``W`` of the final iteration (columns ``S_w + lam I``-orthonormal);
        ``(X - mean_) @ components_`` projects data on it.
    mean_ : ndarray of shape (n_features,)
        Mean of the training data.
    cluster_centers_ : ndarray of shape (n_clusters, n_clusters - 1)
        Centroids in the LDA subspace.
    objective_ : float
        ``J`` of the final labels and subspace.
    history_ : ndarray of shape (n_iter_,)
        ``J`` after each LDA step.
    n_iter_ : int
        Number of alternations run.
    converged_ : bool
        Whether the labels stopped changing before ``max_iter``.
    w_, b_ : ndarray of shape (n_features,), float
        Only for ``n_clusters=2``: the nearest-centroid rule in the LDA direction as a
        hyperplane in the original coordinates, ``decision_function(X) = X @ w_ - b_``.
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Names of features seen in ``fit``, when ``X`` has string column names.

    References
    ----------
    C. Ding, T. Li. Adaptive dimension reduction using discriminant analysis and k-means
    clustering. ICML 2007 (the LDA-Km algorithm).
    G. Huang et al. Maximin Separation Probability Clustering. AAAI 2015: eq. (7) and the
    section "Relationships to LDA-based clustering"; Table 2 ("LDA-KM").

    Examples
    --------
    >>> import numpy as np
    >>> from clustering import LDAKMeans
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(0, 1, (50, 2)), rng.normal(0, 1, (50, 2)) + [6, 0]])
    >>> model = LDAKMeans(lam=0.1, random_state=0).fit(X)
    >>> sorted(np.bincount(model.labels_).tolist()), model.converged_
    ([50, 50], True)
    """

    _parameter_constraints: dict = {
        **CentroidClusterMixin._parameter_constraints,
        "lam": [Interval(Real, 0, None, closed="neither")],
    }

    def __init__(
        self,
        n_clusters: int = 2,
        *,
        lam: float = 1.0,
        n_init: int = 10,
        max_iter: int = 30,
        random_state=None,
    ) -> None:
        self.n_clusters = n_clusters
        self.lam = lam
        self.n_init = n_init
        self.max_iter = max_iter
        self.random_state = random_state

    def _lda(self, Xc: np.ndarray, labels: np.ndarray):
        """LDA step: the subspace ``W`` and the criterion ``J`` for fixed labels."""
        k, d = self.n_clusters, Xc.shape[1]
        S_w, S_b, _ = scatter_matrices(Xc, labels, k)
        S_reg = S_w + self.lam * np.eye(d)
        r = min(k - 1, d)
        gamma, W = linalg.eigh(S_b, S_reg, subset_by_index=[d - r, d - 1])
        W = W[:, ::-1]
        # W'S_reg W = I, so J = trace(W'S_b W) = sum of the eigenvalues.
        return W, float(np.sum(gamma))

    def _fit(self, X):
        random_state = check_random_state(self.random_state)
        k = self.n_clusters
        self.mean_ = X.mean(axis=0)
        Xc = X - self.mean_
        if k == 1:  # the trivial partition: no subspace separates one cluster
            self.components_ = np.zeros((X.shape[1], 0))
            self.cluster_centers_ = np.zeros((1, 0))
            self.history_ = np.zeros(0)
            self.n_iter_, self.converged_, self.objective_ = 0, True, 0.0
            self.labels_ = np.zeros(X.shape[0], dtype=np.intp)
            return
        labels = kmeans_labels(X, k, n_init=self.n_init, random_state=random_state)
        history = []
        converged = False
        for _ in range(self.max_iter):
            W, J = self._lda(Xc, labels)  # step 1: LDA subspace of the current clusters
            history.append(J)
            Y = Xc @ W
            centers, _ = cluster_means(Y, labels, k)
            # Step 2: k-means in the subspace, started from the current cluster means.
            km = lloyd_from(Y, centers)
            new = nearest_centroid(Y, km.cluster_centers_)
            if np.unique(new).shape[0] < k:
                break  # a cluster emptied; keep the last labels and their means
            centers = km.cluster_centers_
            if np.array_equal(new, labels):
                converged = True
                break
            labels = new
        if not converged:
            warnings.warn(
                f"LDA-k-means stopped after {len(history)} of max_iter={self.max_iter} "
                "alternations without converging (or because a cluster emptied); returning "
                "the last labels. Increase max_iter or lam.",
                ConvergenceWarning,
                stacklevel=2,
            )
        self.components_ = W
        self.cluster_centers_ = centers
        self.history_ = np.asarray(history, dtype=float)
        self.n_iter_ = len(history)
        self.converged_ = converged
        if k == 2:
            self.w_, self.b_ = centroid_hyperplane(W, self.mean_, centers)
        self.labels_ = self._assign(X)
        _, self.objective_ = self._lda(Xc, self.labels_)

    def _embed(self, X: np.ndarray) -> np.ndarray:
        return (X - self.mean_) @ self.components_


SPECS = (
    AlgorithmSpec(
        key="lda-kmeans",
        name="LDA-k-means",
        factory=LDAKMeans,
        params=(
            lam_param(
                "Ridge term added to the within-cluster covariance in the LDA step. Small: "
                "trust the cluster shapes; large: LDA turns into the difference of means."
            ),
        ),
        summary="Alternates the LDA subspace of the clusters and k-means inside it "
        "(Ding & Li 2007).",
        cost="O(N d^2 + d^3) per alternation plus k-means in k-1 dimensions; memory O(N d + d^2)",
        linear=True,
        paper="Ding & Li, ICML 2007; LDA-KM in the MSPC paper",
        test_params={"n_init": 2},
    ),
)
