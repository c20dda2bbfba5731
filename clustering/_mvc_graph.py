"""The matrices Q of maximum volume clustering: kernels, affinity graphs joined into one
component, graph Laplacians (shared by :mod:`clustering.mvc` and :mod:`clustering.mvc_hard`)."""

from __future__ import annotations

import numpy as np
from scipy import sparse
from scipy.sparse.csgraph import connected_components, minimum_spanning_tree
from sklearn.metrics.pairwise import euclidean_distances
from sklearn.neighbors import kneighbors_graph

AFFINITIES = ("knn", "knn-cosine", "rbf")
KERNELS = ("rbf", "linear")


# ----------------------------------------------------------------------------- matrices Q


def _median_sq_distance(X: np.ndarray) -> float:
    d2 = euclidean_distances(X, squared=True)
    off = d2[np.triu_indices_from(d2, k=1)]
    med = float(np.median(off)) if off.size else 0.0
    return med if med > 0 else 1.0


def rbf_kernel_matrix(X: np.ndarray, sigma2: float | None) -> np.ndarray:
    """``K_ij = exp(-||x_i - x_j||^2 / (2 sigma2))``; ``sigma2=None`` uses half the median
    squared distance between samples."""
    s2 = _median_sq_distance(X) / 2.0 if sigma2 is None else float(sigma2)
    return np.exp(-euclidean_distances(X, squared=True) / (2.0 * s2))


def affinity_matrix(
    X: np.ndarray, affinity: str, n_neighbors: int, sigma2: float | None
) -> np.ndarray:
    """Symmetric similarity ``W`` (zero diagonal).

    ``"knn"``: 1 between mutual-or-one-sided k nearest neighbours (Euclidean), ``"knn-cosine"``:
    the cosine similarity (clipped at 0) on the k nearest neighbours by cosine distance (the
    MVC paper's graph), ``"rbf"``: the full Gaussian similarity.
    """
    n = X.shape[0]
    if affinity == "rbf":
        W = rbf_kernel_matrix(X, sigma2)
        np.fill_diagonal(W, 0.0)
        return W
    k = min(n_neighbors, n - 1)
    if affinity == "knn":
        G = kneighbors_graph(X, k, mode="connectivity", include_self=False)
    else:
        G = kneighbors_graph(X, k, mode="distance", metric="cosine", include_self=False)
        G.data = np.clip(1.0 - G.data, 0.0, None)
    G = sparse.csr_matrix(G)
    W = G.maximum(G.T).toarray()
    np.fill_diagonal(W, 0.0)
    return _connect(X, W, affinity)


def _connect(X: np.ndarray, W: np.ndarray, affinity: str) -> np.ndarray:
    """``W`` joined by the edges of a Euclidean minimum spanning tree, so the graph is
    connected.

    A disconnected k-NN graph (17 components on australian, 3 on letter at k = 5) gives
    the Laplacian a zero eigenvalue per component, so the "second eigenvector" that starts
    Algorithm 1 is any mix of component indicators and the result depends on round-off.
    MST edges not already in ``W`` get weight 1 (``"knn"``) or their cosine similarity,
    floored at the smallest positive weight of the graph (``"knn-cosine"``).
    """
    n_comp, _ = connected_components(sparse.csr_matrix(W > 0), directed=False)
    if n_comp <= 1:
        return W
    mst = minimum_spanning_tree(sparse.csr_matrix(euclidean_distances(X))).tocoo()
    i, j = mst.row, mst.col
    if affinity == "knn":
        weight = np.ones(i.shape[0])
    else:
        norms = np.linalg.norm(X, axis=1)
        norms = np.where(norms > 0, norms, 1.0)
        cos = np.einsum("ij,ij->i", X[i], X[j]) / (norms[i] * norms[j])
        positive = W[W > 0]
        floor = float(positive.min()) if positive.size else 1.0
        weight = np.maximum(cos, floor)
    new = W[i, j] == 0
    W = W.copy()
    W[i[new], j[new]] = weight[new]
    W[j[new], i[new]] = weight[new]
    return W


def graph_components(W: np.ndarray) -> int:
    """Number of connected components of the graph with weights ``W``."""
    return int(connected_components(sparse.csr_matrix(W > 0), directed=False)[0])


def graph_laplacian(W: np.ndarray, normalized: bool = True) -> np.ndarray:
    """``D - W`` or ``I - D^{-1/2} W D^{-1/2}`` (isolated vertices get a row of the identity)."""
    deg = W.sum(axis=1)
    if not normalized:
        return np.diag(deg) - W
    inv_sqrt = np.where(deg > 0, 1.0 / np.sqrt(np.where(deg > 0, deg, 1.0)), 0.0)
    L = np.eye(W.shape[0]) - inv_sqrt[:, None] * W * inv_sqrt[None, :]
    return (L + L.T) / 2.0


def _validate_Q(Q, n: int) -> np.ndarray:
    Q = np.asarray(Q, dtype=float)
    if Q.shape != (n, n):
        raise ValueError(f"Q(X) must return an ({n}, {n}) matrix; got shape {Q.shape}.")
    if not np.isfinite(Q).all():
        raise ValueError("Q contains NaN or infinite values.")
    return (Q + Q.T) / 2.0
