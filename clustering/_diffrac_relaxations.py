"""DIFFRAC's relaxations: the cost matrix (eq. 3-4), its factor, the convex SDP (section 2.3)
and the eigenpairs of the eigenvalue relaxation (section 2.6). The notation and the
derivations are in :mod:`clustering.diffrac`'s docstring; :class:`clustering.DIFFRAC` uses
these."""

from __future__ import annotations

import cvxpy as cp
import numpy as np
from scipy import linalg
from scipy.sparse.linalg import LinearOperator

from .spectral import gaussian_kernel, top_eigenvectors

__all__ = [
    "build_convex_problem",
    "cost_factor",
    "gaussian_kernel",
    "labeling_cost",
]

# Largest number of chunks for which H is formed densely (otherwise Lanczos).
_DENSE_H_MAX = 800


def cost_factor(
    X: np.ndarray, kappa: float, kernel: str = "linear", sigma: float | None = None
) -> np.ndarray:
    """``F`` with ``A(X, kappa) = (Pi - F F') / n`` (columns orthogonal to ``1``).

    Linear kernel: thin SVD of the centred data, ``O(N d min(N, d))``. Gaussian kernel:
    eigendecomposition of the centred ``N x N`` Gram matrix, ``O(N^3)``.
    """
    n = X.shape[0]
    if kernel == "linear":
        Xc = X - X.mean(axis=0)
        V, sv, _ = np.linalg.svd(Xc, full_matrices=False)
        s = sv**2
    else:
        K = gaussian_kernel(X, sigma)
        K -= K.mean(axis=0)[None, :]
        K -= K.mean(axis=1)[:, None]
        s, V = linalg.eigh(K)
    keep = s > 1e-10 * max(float(s.max()), np.finfo(float).tiny) if s.size else s > 0
    s, V = s[keep], V[:, keep]
    return V * np.sqrt(s / (s + n * kappa))


def labeling_cost(F: np.ndarray, labels: np.ndarray, n_clusters: int) -> float:
    """``tr(A y y') = sum_k y_k' A y_k`` with ``A = (Pi - F F') / n`` (eq. 2)."""
    n = F.shape[0]
    Y = np.zeros((n, n_clusters))
    Y[np.arange(n), labels] = 1.0
    sizes = Y.sum(axis=0)
    return float((n - np.sum(sizes**2) / n - np.sum((F.T @ Y) ** 2)) / n)


def build_convex_problem(B: np.ndarray, sizes: np.ndarray, n_clusters: int, cl_pairs: np.ndarray):
    """The convex relaxation of section 2.3 on the collapsed variable ``N`` (chunks).

    The cost matrix ``B`` enters as a constant: as a ``cp.Parameter`` it would make
    cvxpy's DPP compilation build a tensor with ``O(p^4)`` entries. The minimum cluster size and the
    cannot-link weights, which are cheap, are parameters.

    Parameters
    ----------
    B : ndarray of shape (p, p)
        Symmetric collapsed cost matrix (module notes).
    sizes : ndarray of shape (p,)
        Chunk sizes (all ones without must-links); their sum is ``n``.
    n_clusters : int
        ``k``.
    cl_pairs : ndarray of shape (m, 2)
        Chunk pairs carrying a cannot-link penalty.

    Returns
    -------
    problem : cvxpy.Problem
        DPP problem; set the parameters and call ``solve``.
    N : cvxpy.Variable of shape (p, p)
    params : dict
        ``"lambda0"`` (minimum cluster size) and ``"penalty"`` (weight of each penalised
        pair, length ``max(m, 1)``).
    """
    p = sizes.shape[0]
    n = float(sizes.sum())
    k = n_clusters
    s = np.sqrt(sizes)
    N = cp.Variable((p, p), symmetric=True, name="N")
    Q = cp.Variable((p, p), PSD=True, name="Q")
    lambda0 = cp.Parameter(nonneg=True, name="lambda0")
    objective = cp.sum(cp.multiply(B, N))
    penalty = cp.Parameter(max(cl_pairs.shape[0], 1), nonneg=True, name="penalty")
    if cl_pairs.shape[0]:
        objective = objective + cp.sum(
            cp.multiply(penalty, cp.square(N[cl_pairs[:, 0], cl_pairs[:, 1]]))
        )
    constraints = [
        cp.diag(N) == sizes,  # diag(M) = 1
        N - np.outer(s, s) / k >> 0,  # M >= 11'/k (implies M PSD)
        N @ s >= lambda0 * s,  # row sums of M at least lambda0
        N @ s <= (n - (k - 1) * lambda0) * s,  # ... and at most n - (k-1) lambda0
        Q - N + lambda0 * np.eye(p) >> 0,  # Phi_lambda0(M) >= k, via Q (module notes)
        cp.trace(Q) <= n - k * lambda0,
    ]
    if k > 2:
        constraints.append(N >= 0)  # pointwise nonnegativity (implied when k = 2)
    problem = cp.Problem(cp.Minimize(objective), constraints)
    return problem, N, {"lambda0": lambda0, "penalty": penalty}


def _top_eigenpairs_H(Z, C, n: float, k: int, random_state):
    """The ``k`` largest eigenpairs of ``H = Z Z' - n C`` (``C`` sparse symmetric or None),
    eigenvalues decreasing."""
    p = Z.shape[0]
    if C is None:
        U, sv, _ = np.linalg.svd(Z, full_matrices=False)
        h = sv**2
        if U.shape[1] < k:  # pad with an orthonormal basis of the null space (h = 0)
            Qf, _ = np.linalg.qr(np.hstack([U, random_state.normal(size=(p, k - U.shape[1]))]))
            U, h = Qf[:, :k], np.concatenate([h, np.zeros(k - h.shape[0])])
        return h[:k], U[:, :k]
    op = LinearOperator((p, p), matvec=lambda v: Z @ (Z.T @ v) - n * (C @ v), dtype=float)
    return top_eigenvectors(op, k, random_state, lambda: Z @ Z.T - n * C.toarray(), _DENSE_H_MAX)
