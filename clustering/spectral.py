"""Normalised spectral clustering (Ng, Jordan & Weiss, NIPS 2001)."""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from scipy import linalg, sparse
from scipy.sparse.csgraph import connected_components
from scipy.sparse.linalg import ArpackNoConvergence, eigsh
from sklearn.cluster import KMeans
from sklearn.metrics.pairwise import euclidean_distances
from sklearn.neighbors import kneighbors_graph

from ._base import BaseClusterer
from ._compat import Interval, StrOptions, check_random_state
from ._lam import DEFAULT_LAM
from ._spec import AlgorithmSpec, Param

__all__ = ["SpectralBaseline", "median_distance", "njw_embedding", "normalized_affinity"]

AFFINITIES = ("auto", "gaussian", "knn")

# Below this size a dense eigensolver is as fast as Lanczos and exactly reproducible.
_DENSE_EIG_MAX_N = 400
# "auto" compares the k-NN graph with the dense Gaussian affinity only up to this size
# (an N x N matrix of 8 N^2 bytes: 200 MB at N = 5000); above it "auto" is "knn".
_AUTO_GAUSSIAN_MAX_N = 5000
# Up to this size a dense eigensolver takes over when Lanczos does not converge (clustered
# leading eigenvalues: a narrow Gaussian width, australian at sigma = median / 8).
_DENSE_FALLBACK_MAX_N = 6000


def median_distance(X: np.ndarray, random_state, max_points: int = 1000) -> float:
    """Median of the pairwise Euclidean distances (on a random subsample of ``max_points``
    samples when ``N`` is larger); a scale for Gaussian kernels ("median heuristic")."""
    n = X.shape[0]
    if n > max_points:
        X = X[random_state.choice(n, max_points, replace=False)]
    D = euclidean_distances(X)
    iu = np.triu_indices(X.shape[0], k=1)
    med = float(np.median(D[iu])) if iu[0].size else 0.0
    if med <= 0:
        positive = D[iu][D[iu] > 0]
        med = float(positive.min()) if positive.size else 1.0
    return med


def gaussian_kernel(X: np.ndarray, sigma: float) -> np.ndarray:
    """``K_ij = exp(-||x_i - x_j||^2 / (2 sigma^2))``."""
    K = euclidean_distances(X, squared=True)
    K *= -1.0 / (2.0 * sigma**2)
    np.exp(K, out=K)
    return K


def top_eigenvectors(S, k: int, random_state, dense=None, max_dense_n=_DENSE_EIG_MAX_N):
    """The ``k`` largest eigenpairs of a symmetric ``S`` (a dense or sparse matrix, or a
    ``LinearOperator`` whose matrix ``dense()`` returns), eigenvalues in decreasing order:
    dense LAPACK up to ``max_dense_n`` rows (or when ``k >= n - 1``), seeded Lanczos beyond,
    and dense after all if Lanczos does not converge on at most
    :data:`_DENSE_FALLBACK_MAX_N` rows."""
    n = S.shape[0]
    vals = None
    if n > max_dense_n and k < n - 1:
        try:
            vals, vecs = eigsh(S, k=k, which="LA", v0=random_state.uniform(-1, 1, n))
        except ArpackNoConvergence:
            if n > _DENSE_FALLBACK_MAX_N:
                raise
    if vals is None:
        matrix = dense() if dense else S.toarray() if sparse.issparse(S) else S
        vals, vecs = linalg.eigh(matrix, subset_by_index=[n - k, n - 1])
    order = np.argsort(vals)[::-1]
    return vals[order], vecs[:, order]


def normalized_affinity(A):
    """``D^-1/2 A D^-1/2`` of an affinity matrix (dense or sparse), ``D`` its degrees."""
    degree = np.asarray(A.sum(axis=1)).ravel()
    inv_sqrt = 1.0 / np.sqrt(np.maximum(degree, np.finfo(float).tiny))
    if sparse.issparse(A):
        return sparse.diags(inv_sqrt) @ A @ sparse.diags(inv_sqrt)
    return A * inv_sqrt[:, None] * inv_sqrt[None, :]


def njw_embedding(A, k: int, random_state) -> tuple[np.ndarray, np.ndarray]:
    """Ng-Jordan-Weiss embedding of an affinity matrix with zero diagonal.

    ``L = D^-1/2 A D^-1/2``; the ``k`` leading eigenvectors of ``L`` as columns, each row
    rescaled to unit length.

    Returns
    -------
    embedding : ndarray of shape (n_samples, k)
    eigenvalues : ndarray of shape (k,)
    """
    vals, U = top_eigenvectors(normalized_affinity(A), k, random_state)
    norms = np.linalg.norm(U, axis=1, keepdims=True)
    return U / np.where(norms > 0, norms, 1.0), vals


class SpectralBaseline(BaseClusterer):
    """Normalised spectral clustering of Ng, Jordan & Weiss.

    Build an affinity ``A`` (zero diagonal), normalise it to ``L = D^-1/2 A D^-1/2`` with
    the degrees ``D``, stack the ``n_clusters`` leading eigenvectors of ``L``, rescale every
    row to unit length and run k-means on the rows.

    Parameters
    ----------
    n_clusters : int, default=2
        Number of clusters (1 gives the trivial one-cluster partition).
    affinity : {"auto", "gaussian", "knn"}, default="auto"
        ``"knn"``: sparse symmetric k-nearest-neighbour graph (``A_ij = 1`` when either
        point is among the other's ``k`` nearest), ``O(N k)`` memory, as scikit-learn's
        ``SpectralClustering(affinity="nearest_neighbors")``. ``"gaussian"``: dense
        ``A_ij = exp(-||x_i - x_j||^2 / (2 sigma^2))``, ``O(N^2)`` memory. ``"auto"`` (the
        default) chooses between the two without labels: the k-NN graph when it falls
        into exactly ``n_clusters`` connected components (the clusters are then the
        components: noisy moons and circles, ARI 1.00 where the Gaussian of median width
        gets 0.49 and 0.00) or when ``N > 5000`` (no dense matrix); otherwise both
        labelings are computed and the one with the larger held-out MSP
        (:mod:`clustering.msp_heldout`, ``lam = 0.2``) in kernel MSPC's feature space (the
        RBF kernel's leading eigenvectors, :class:`clustering.mspc_multiclass.FeatureMap`,
        the same for both) is kept, a labeling with a cluster smaller than
        ``N / (4 n_clusters)`` being eligible only if both have one. (The in-sample MSP in
        the input space, the rule before, scores a curved cluster by a straight line and
        prefers the Gaussian graph's straight cut of two moons.) Measured over 49 sets
        (``bench/kernel_spectral.py``): mean ARI 0.710 with this rule, 0.493 with the
        in-sample rule, 0.724 with the k-NN graph alone (REPRODUCTION.md).
        Fitted as ``affinity_``. Accuracy with seed 0, k-NN / Gaussian / auto: australian
        0.574 / 0.822 / 0.822, letter 0.941 / 0.904 / 0.941 (``bench/RESULTS.md``).
    sigma : float or None, default=None
        Width of the Gaussian affinity; ``None`` takes the median pairwise distance (on a
        subsample of 1000 points for larger data). Ignored for ``"knn"``.
    n_neighbors : int, default=10
        Neighbours per point of the ``"knn"`` graph, at least; chosen without labels, ``k``
        is doubled while the graph has more than ``n_clusters`` components or one smaller
        than ``N / (4 n_clusters)`` (capped at ``N - 1``; fitted as ``n_neighbors_``).
    n_init : int, default=10
        Number of k-means++ starts of the final k-means.
    random_state : int, RandomState instance or None, default=None
        Seeds the eigensolver's start vector, the median subsample and k-means.

    Attributes
    ----------
    labels_ : ndarray of shape (n_samples,)
        Cluster of each sample, ``0 .. n_clusters - 1``.
    embedding_ : ndarray of shape (n_samples, n_clusters)
        Row-normalised spectral embedding that k-means clusters.
    eigenvalues_ : ndarray of shape (n_clusters,)
        Leading eigenvalues of ``L`` (the first is 1; a second close to 1 means well
        separated clusters).
    affinity_ : {"gaussian", "knn"}
        The affinity used (the one ``"auto"`` chose).
    sigma_ : float or None
        Gaussian width used (``None`` when the k-NN graph is used).
    n_neighbors_ : int or None
        ``k`` of the k-NN graph used (``None`` when the Gaussian affinity is used).
    n_iter_ : int
        Lloyd iterations of the best k-means start.
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Names of features seen in ``fit``, when ``X`` has string column names.

    Notes
    -----
    The method has no out-of-sample rule, hence no ``predict``. Its cost is dominated by
    the affinity: ``"gaussian"`` needs ``O(N^2 d)`` time and an ``N x N`` matrix,
    ``"knn"`` ``O(N log N d)`` time with a tree and ``O(N n_neighbors)`` memory; the
    eigenvectors come from Lanczos iterations on that matrix.

    References
    ----------
    A. Y. Ng, M. I. Jordan, Y. Weiss. On spectral clustering: analysis and an algorithm.
    NIPS 2001 (the algorithm of section 2).

    Examples
    --------
    >>> import numpy as np
    >>> from clustering import SpectralBaseline
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(0, 1, (50, 2)), rng.normal(0, 1, (50, 2)) + [8, 0]])
    >>> model = SpectralBaseline(affinity="knn", n_neighbors=5, random_state=0).fit(X)
    >>> sorted(np.bincount(model.labels_).tolist())
    [50, 50]
    """

    _parameter_constraints: dict = {
        "n_clusters": [Interval(Integral, 1, None, closed="left")],
        "affinity": [StrOptions(set(AFFINITIES))],
        "sigma": [Interval(Real, 0, None, closed="neither"), None],
        "n_neighbors": [Interval(Integral, 1, None, closed="left")],
        "n_init": [Interval(Integral, 1, None, closed="left")],
        "random_state": ["random_state"],
    }

    _min_samples = 3

    def __init__(
        self,
        n_clusters: int = 2,
        *,
        affinity: str = "auto",
        sigma: float | None = None,
        n_neighbors: int = 10,
        n_init: int = 10,
        random_state=None,
    ) -> None:
        self.n_clusters = n_clusters
        self.affinity = affinity
        self.sigma = sigma
        self.n_neighbors = n_neighbors
        self.n_init = n_init
        self.random_state = random_state

    def _knn_affinity(self, X: np.ndarray):
        """The k-NN graph, ``k``, and whether it has exactly ``n_clusters`` components."""
        n = X.shape[0]
        # Double k while the graph has more components than clusters or a component
        # smaller than N / (4 n_clusters): with a component of its own, a small group
        # (not a cluster) takes an eigenvector (digits 1 vs 7 at k = 10: 27 of 361
        # samples, accuracy 0.571; letter at k = 10-20: 44 of 1555, 0.536). Components
        # as large as clusters stay (two well separated rings are two components).
        k = min(self.n_neighbors, n - 1)
        min_size = n / (4.0 * self.n_clusters)
        while True:
            C = kneighbors_graph(X, n_neighbors=k, include_self=False)
            A = C.maximum(C.T).tocsr()
            n_comp, comp = connected_components(A, directed=False)
            small = n_comp > 1 and np.bincount(comp).min() < min_size
            if k >= n - 1 or (n_comp <= self.n_clusters and not small):
                break
            k = min(2 * k, n - 1)
        return A, int(k), n_comp == self.n_clusters

    def _gaussian_affinity(self, X: np.ndarray, random_state):
        sigma = self.sigma if self.sigma is not None else median_distance(X, random_state)
        A = gaussian_kernel(X, sigma)
        np.fill_diagonal(A, 0.0)
        return A, float(sigma)

    def _cluster(self, A, random_state):
        embedding, eigenvalues = njw_embedding(A, self.n_clusters, random_state)
        km = KMeans(n_clusters=self.n_clusters, n_init=self.n_init, random_state=random_state)
        labels = km.fit_predict(embedding).astype(np.intp)
        return {"embedding": embedding, "eigenvalues": eigenvalues, "labels": labels,
                "n_iter": int(km.n_iter_)}  # fmt: skip

    def _auto_score(self, fmap, labels: np.ndarray) -> tuple[bool, float]:
        """(no cluster smaller than N / (4 n_clusters), held-out MSP of the labeling in the
        kernel feature space ``fmap``)."""
        from ._moments import regularizer_matrix
        from .msp_heldout import heldout_msp_z

        counts = np.bincount(labels, minlength=self.n_clusters)
        large = bool(counts.min() >= labels.shape[0] / (4.0 * self.n_clusters))
        if (counts == 0).any():
            return large, -np.inf
        reg = DEFAULT_LAM * regularizer_matrix(fmap.std_out, "diag")
        try:
            score = heldout_msp_z(
                fmap.Z, labels, self.n_clusters, reg, random_state=0, too_small="zero"
            )
        except (ValueError, np.linalg.LinAlgError):
            score = -np.inf
        return large, score if np.isfinite(score) else -np.inf

    def _fit(self, X):
        if X.shape[0] <= self.n_clusters:
            raise ValueError(
                f"Spectral clustering needs more samples than n_clusters={self.n_clusters}; "
                f"got n_samples={X.shape[0]}."
            )
        random_state = check_random_state(self.random_state)
        n = X.shape[0]
        chosen, sigma, k = "gaussian", None, None
        if self.affinity in ("knn", "auto"):
            A, k, split = self._knn_affinity(X)
            result = self._cluster(A, random_state)
            chosen = "knn"
        if self.affinity == "gaussian" or (
            self.affinity == "auto"
            and not split
            and n <= _AUTO_GAUSSIAN_MAX_N
            and self.n_clusters > 1
        ):
            A, sigma = self._gaussian_affinity(X, random_state)
            gaussian = self._cluster(A, random_state)
            del A
            # "auto": keep the k-NN labeling unless the Gaussian one is preferred by
            # (no small cluster, MSP), compared in that order.
            if self.affinity == "gaussian":
                result, chosen = gaussian, "gaussian"
            else:
                from .mspc_multiclass import FeatureMap

                # One label-free feature space for both labelings: kernel MSPC's (the RBF
                # kernel's leading eigenvectors), where a curved cluster is separable.
                fmap = FeatureMap(X, "rbf", None, check_random_state(0), self.n_clusters)
                if self._auto_score(fmap, gaussian["labels"]) > self._auto_score(
                    fmap, result["labels"]
                ):
                    result, chosen = gaussian, "gaussian"
        self.affinity_ = chosen
        self.sigma_ = sigma if chosen == "gaussian" else None
        self.n_neighbors_ = k if chosen == "knn" else None
        self.embedding_ = result["embedding"]
        self.eigenvalues_ = result["eigenvalues"]
        self.labels_ = result["labels"]
        self.n_iter_ = result["n_iter"]


SPECS = (
    AlgorithmSpec(
        key="spectral",
        name="Spectral clustering (NJW)",
        factory=SpectralBaseline,
        params=(
            Param(
                "affinity",
                "choice",
                "auto",
                "How similarity between points is measured: a Gaussian of the distance "
                "(every pair) or a k-nearest-neighbour graph (cheaper, follows curved "
                "clusters); auto uses the graph when it splits into the clusters, else "
                "keeps the labeling whose clusters are better separated on points the "
                "classifier was not fitted to (larger held-out MSP).",
                choices=AFFINITIES,
            ),
            Param(
                "n_neighbors",
                "int",
                10,
                "Neighbours per point in the k-NN graph. Too few: the graph falls apart; too "
                "many: clusters get connected.",
                low=2,
                high=50,
                label="neighbours (k-NN)",
            ),
        ),
        summary="k-means on the leading eigenvectors of the normalised affinity matrix "
        "(Ng, Jordan & Weiss 2001).",
        cost="gaussian (and auto up to N = 5000): O(N^2 d) time, O(N^2) memory; knn: "
        "O(N log N d + N k) time, O(N k) memory; plus Lanczos on the affinity",
        paper="Ng, Jordan & Weiss, NIPS 2001",
        test_params={"n_init": 2},
    ),
)
