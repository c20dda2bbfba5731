"""Multi-class MSPC solvers: the three strategies of the MSPC paper's Table 1 for ``k >= 2``.

All work in standardised coordinates ``Z`` with the regulariser ``reg = lam * Lambda`` and
score a labeling by the multi-class MSP of :mod:`clustering.msp_multiclass` (one MPM per
pair of clusters, combined by a union bound).

* ``"mpm"`` (:func:`solve_mpm_multiclass`): fit the pairwise MPMs, relabel every point by
  their one-vs-one vote, and **accept the relabelling only if the multi-class MSP rises**.
  When the full relabelling does not raise it, only the switching points with the most
  decisive votes move (the top half, then a quarter, ..., of them); when none of these
  raises the MSP, or a step would empty a cluster, the search stops. So ``history`` (the MSP
  of each accepted labeling) never decreases and the returned MSP is at least the start's.
  Cost per step: ``O(N d^2 + k^2 d^3)`` per candidate (moments and ``k (k-1) / 2`` MPMs).
* ``"gep"`` (:func:`solve_gep_multiclass`): the binary GEP (5) has rank one because
  ``mu1 - mu0`` is one direction; with ``k`` clusters the between-cluster scatter
  ``S_b = sum_i (N_i/N) mu_i mu_i'`` has rank ``k - 1`` and the natural generalisation is
  its ``k - 1`` leading generalised eigenvectors against ``Sigma + lam Lambda`` (the
  subspace that maximises the ratio of between-cluster to regularised total scatter, as in
  LDA). Bound (4) of Theorem 2 does not generalise with it (it rests on the two-cluster
  identity ``Sigma = r1 Sigma1 + r0 Sigma0 + r1 r0 (mu1 - mu0)(mu1 - mu0)'`` collapsing to
  one direction), so instead of an optimal split the labels are the nearest cluster mean in
  that subspace, and, as for ``"mpm"``, a step is accepted only if the multi-class MSP
  rises. Cost per step ``O(N d k + d^3)`` plus one MSP evaluation.
* ``"eig"`` (:func:`solve_eig_multiclass`): Theorem 3's relaxed indicator generalises to
  the ``k - 1`` leading eigenvectors ``Q`` of ``M = Z (Z'Z + N lam Lambda)^{-1} Z'``
  (the same eigenvectors for every ``lam > 0``); the rounding step is k-means on the rows of
  ``Q`` (orthonormal columns), as in spectral clustering. For ``k = 2`` this rounding
  differs from the binary EIG's sign rule, so ``n_clusters=2`` keeps the binary solver.
"""

from __future__ import annotations

import numpy as np
from scipy import linalg

from .._base import kmeans_labels
from ..exceptions import DegenerateDataError
from ..kmeans import cluster_means
from ..msp_multiclass import PairwiseMPM, pairwise_mpm
from ._result import SolverResult
from .eig import top_eigh
from .gep import total_factor

#: How many times the moved set is halved before the MPM search gives up on a step.
MAX_HALVINGS = 6


def _score(Z, codes, k, reg) -> tuple[float, PairwiseMPM | None]:
    if np.bincount(codes, minlength=k).min() == 0:
        return -np.inf, None
    model = pairwise_mpm(Z, codes, k, reg)
    return model.msp(), model


def _scored_start(Z, labels0, k: int, reg):
    """The start's labels (a copy), its multi-class MSP and pairwise model; a start with an
    empty cluster is refused."""
    labels = labels0.astype(np.intp).copy()
    msp, model = _score(Z, labels, k, reg)
    if model is None:
        raise DegenerateDataError(
            f"The starting labeling has empty clusters (it needs {k} non-empty clusters). "
            "Use fewer clusters or another start."
        )
    return labels, msp, model


def _confidence(model: PairwiseMPM, Z: np.ndarray) -> np.ndarray:
    """Margin of the winning cluster's score over the runner-up, per point."""
    s = np.sort(model.votes(Z), axis=1)
    return s[:, -1] - s[:, -2]


def solve_mpm_multiclass(
    Z: np.ndarray,
    reg: np.ndarray,
    labels0: np.ndarray,
    k: int,
    max_iter: int = 50,
) -> tuple[SolverResult, PairwiseMPM]:
    """Monotone multi-class MPM search (see the module docstring)."""
    labels, msp, model = _scored_start(Z, labels0, k, reg)
    history = [msp]
    status = "max_iter"
    n_iter = 0
    for n_iter in range(1, max_iter + 1):  # noqa: B007
        emptied = False
        new = model.predict(Z)
        changed = np.flatnonzero(new != labels)
        if changed.size == 0:
            status = "converged"
            break
        order = changed[np.argsort(-_confidence(model, Z[changed]), kind="stable")]
        accepted = False
        size = order.size
        for _ in range(MAX_HALVINGS + 1):
            cand = labels.copy()
            cand[order[:size]] = new[order[:size]]
            cand_msp, cand_model = _score(Z, cand, k, reg)
            if cand_model is None:
                emptied = True
            elif cand_msp > msp:
                labels, msp, model, accepted = cand, cand_msp, cand_model, True
                break
            if size == 1:
                break
            size = max(1, size // 2)
        if not accepted:
            status = "empty-cluster" if emptied else "converged"
            break
        history.append(msp)
    w = model.W[0] if model.W.shape[0] else np.zeros(Z.shape[1])
    result = SolverResult(
        labels, w, float(model.B[0]), tuple(history), n_iter, status, float(model.kappa[0])
    )
    return result, model


def discriminant_subspace(Z: np.ndarray, labels: np.ndarray, k: int, C_factor) -> np.ndarray:
    """``k - 1`` leading generalised eigenvectors of ``S_b v = gamma (Sigma + lam Lambda) v``."""
    means, counts = cluster_means(Z, labels, k)
    Mw = means * np.sqrt(counts / Z.shape[0])[:, None]  # S_b = Mw' Mw (Z is centred)
    Sb = Mw.T @ Mw
    C = C_factor
    d = Z.shape[1]
    top = min(k - 1, d)
    _, V = linalg.eigh(Sb, C, subset_by_index=[d - top, d - 1])
    return V[:, ::-1]


def solve_gep_multiclass(
    Z: np.ndarray,
    reg: np.ndarray,
    labels0: np.ndarray,
    k: int,
    max_iter: int = 50,
) -> tuple[SolverResult, PairwiseMPM]:
    """Discriminant-subspace alternation, monotone in the multi-class MSP."""
    C = Z.T @ Z / Z.shape[0] + reg
    total_factor(C)  # refuses a singular C with its message
    labels, msp, model = _scored_start(Z, labels0, k, reg)
    history = [msp]
    status = "max_iter"
    n_iter = 0
    for n_iter in range(1, max_iter + 1):  # noqa: B007
        V = discriminant_subspace(Z, labels, k, C)
        Y = Z @ V
        centres, _ = cluster_means(Y, labels, k)
        dist = ((Y[:, None, :] - centres[None]) ** 2).sum(axis=2)
        new = np.argmin(dist, axis=1).astype(np.intp)
        if np.array_equal(new, labels):
            status = "converged"
            break
        cand_msp, cand_model = _score(Z, new, k, reg)
        if cand_model is None:
            status = "empty-cluster"
            break
        if cand_msp <= msp:
            status = "converged"
            break
        labels, msp, model = new, cand_msp, cand_model
        history.append(msp)
    result = SolverResult(
        labels, model.W[0], float(model.B[0]), tuple(history), n_iter, status, None
    )
    return result, model


def spectral_embedding(Z: np.ndarray, Lambda: np.ndarray, k: int) -> np.ndarray:
    """Rows of the ``k - 1`` leading relaxed indicators of Theorem 3 (columns of unit norm)."""
    _, V, form = top_eigh(Z, Lambda, k - 1)
    Q = (Z @ V if form == "primal" else V)[:, ::-1]
    norms = np.linalg.norm(Q, axis=0)
    norms[norms == 0] = 1.0
    return Q / norms


def solve_eig_multiclass(
    Z: np.ndarray,
    Lambda: np.ndarray,
    reg: np.ndarray,
    k: int,
    random_state,
    n_init: int = 10,
    Q: np.ndarray | None = None,
) -> tuple[SolverResult, PairwiseMPM]:
    """Theorem 3 with ``k - 1`` eigenvectors, rounded by k-means on the embedding (or on
    ``Q`` when given: kernel MSPC passes the normalised kernel's leading eigenvectors)."""
    if Q is None:
        Q = spectral_embedding(Z, Lambda, k)
    labels = kmeans_labels(Q, k, n_init=n_init, random_state=random_state)
    msp, model = _score(Z, labels, k, reg)
    result = SolverResult(labels, model.W[0], float(model.B[0]), (msp,), 1, "closed-form", None)
    return result, model
