r"""The MSP of a labeling into any number of clusters.

Derivation
----------
For two clusters the MSP is the optimum ``alpha`` of the Minimax Probability Machine (MPM):
for every distribution with the clusters' means and (regularised) covariances, the MPM's
hyperplane puts a point of either cluster on its own side with probability at least
``alpha = kappa^2 / (1 + kappa^2)`` (MSPC paper, eq. 1-2).

For ``k`` clusters, fit one MPM to every pair ``(i, j)`` of clusters, with optimum
``alpha_ij``, and classify a new point by one-vs-one voting (each pairwise hyperplane gives
one vote). A point of cluster ``i`` is classified correctly whenever each of the ``k - 1``
hyperplanes that involve ``i`` puts it on ``i``'s side: then ``i`` has ``k - 1`` votes and
every other cluster at most ``k - 2``. The hyperplane ``(i, j)`` fails on a point of ``i``
with worst-case probability at most ``1 - alpha_ij``, so by the union bound

    P(correct | cluster i) >= b_i = max(0, 1 - sum_{j != i} (1 - alpha_ij)),

for every distribution with those moments, and the accuracy of the voting classifier on
the data distribution (the clusters weighted by their sizes ``N_i / N``) is at least

    MSP_k = sum_i (N_i / N) b_i.

This is :func:`multiclass_msp`. Properties:

* **k = 2**: ``b_0 = b_1 = alpha_01``, so ``MSP_2 = alpha_01``, the binary MSP, computed by
  the same code path (:func:`clustering.mpm.solve_mpm` on the same standardised moments).
* **Invariance** (MSPC paper, Theorem 1): every ``alpha_ij`` is invariant to an invertible
  linear map ``x -> A x + c`` when the regulariser transforms with the data
  (``regularizer="diag"``: positive or negative per-feature scaling; ``"total"``: any
  invertible ``A``; ``"none"``: any invertible ``A``), and the cluster sizes do not change,
  so ``MSP_k`` is invariant too. ``"identity"`` is not invariant.
* **A bound, not an estimate**: like the binary MSP it assumes the clusters' true moments
  equal the empirical ones; the union bound makes it loose when ``k`` is large (it is 0
  whenever a cluster's pairwise failures add up to 1 or more), so it falls as ``k`` grows
  even for well separated clusters: compare MSP curves across ``k`` with that in mind.

Cost: ``O(N d^2)`` for the moments plus ``k (k - 1) / 2`` MPM problems of ``O(d^3)`` each.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._lam import DEFAULT_LAM, effective_lam
from ._moments import Standardized, regularizer_matrix, standardize
from .exceptions import DegenerateDataError
from .mpm import solve_mpm

__all__ = [
    "PairwiseMPM",
    "encode_labels",
    "multiclass_msp",
    "pairwise_mpm",
]


def encode_labels(labels, n_samples: int, *, what: str = "labels") -> tuple[np.ndarray, int]:
    """Codes ``0..k-1`` of a labeling (in sorted order of its values) and ``k``.

    Raises
    ------
    ValueError
        If the labeling has the wrong shape or fewer than two clusters.
    """
    labels = np.asarray(labels)
    if labels.ndim != 1 or labels.shape[0] != n_samples:
        raise ValueError(
            f"{what} must be a 1-D array with one entry per sample ({n_samples}); "
            f"got shape {labels.shape}."
        )
    values, codes = np.unique(labels, return_inverse=True)
    if values.shape[0] < 2:
        raise ValueError(
            f"MSP compares clusters, but {what} has a single cluster. Give a labeling with "
            "at least two clusters."
        )
    return codes.astype(np.intp), int(values.shape[0])


@dataclass(frozen=True)
class PairwiseMPM:
    """The MPMs between every pair of clusters (standardised coordinates).

    ``W[p]``, ``B[p]`` belong to ``pairs[p] = (i, j)`` with ``i < j``; cluster ``j`` is on
    the side ``W[p]'z - B[p] >= 0``. ``alpha[i, j] = alpha[j, i]`` is the pair's MSP and
    ``gap[p] = |W[p]'(mu_j - mu_i)|`` its projected distance between means.
    """

    pairs: tuple[tuple[int, int], ...]
    W: np.ndarray
    B: np.ndarray
    alpha: np.ndarray
    kappa: np.ndarray
    gap: np.ndarray
    counts: np.ndarray

    @property
    def n_clusters(self) -> int:
        return int(self.alpha.shape[0])

    def msp(self) -> float:
        """``MSP_k`` of the module docstring."""
        return msp_from_alphas(self.alpha, self.counts)

    def votes(self, Z: np.ndarray) -> np.ndarray:
        """One-vs-one scores of shape ``(N, k)``: votes plus a tie-break in ``(0, 1)``.

        The tie-break sums each pair's relative margin ``(w'z - b) / gap`` (invariant like
        the MSP, MSPC paper Theorem 5) squashed by ``tanh``, so the score's integer part is
        the number of votes.
        """
        k = self.n_clusters
        n = Z.shape[0]
        scores = np.zeros((n, k))
        if not self.pairs:
            return scores
        values = Z @ self.W.T - self.B  # (N, n_pairs)
        gap = np.where(self.gap > 0, self.gap, 1.0)
        rel = np.tanh(values / gap)
        i_idx = np.array([p[0] for p in self.pairs])
        j_idx = np.array([p[1] for p in self.pairs])
        win_j = values >= 0
        np.add.at(scores.T, j_idx, win_j.T.astype(float))
        np.add.at(scores.T, i_idx, (~win_j).T.astype(float))
        tie = np.zeros((n, k))
        np.add.at(tie.T, j_idx, rel.T)
        np.add.at(tie.T, i_idx, -rel.T)
        # tie lies in (-(k-1), k-1); map it into (0, 1).
        return scores + 0.5 + tie / (2.0 * k)

    def predict(self, Z: np.ndarray) -> np.ndarray:
        """The voting rule of the module docstring."""
        if self.n_clusters == 2:
            p = self.pairs[0]
            return np.where(Z @ self.W[0] - self.B[0] >= 0, p[1], p[0]).astype(np.intp)
        return np.argmax(self.votes(Z), axis=1).astype(np.intp)


def msp_from_alphas(alpha: np.ndarray, counts: np.ndarray) -> float:
    """``sum_i (N_i / N) max(0, 1 - sum_{j != i} (1 - alpha_ij))``."""
    k = alpha.shape[0]
    fail = 1.0 - alpha
    np.fill_diagonal(fail, 0.0)
    per_cluster = np.clip(1.0 - fail.sum(axis=1), 0.0, None)
    if k == 2:
        return float(alpha[0, 1])  # b_0 = b_1 = alpha_01 exactly
    return float(counts @ per_cluster / counts.sum())


def cluster_stats(Z: np.ndarray, codes: np.ndarray, k: int):
    """Counts ``(k,)``, means ``(k, d)`` and biased covariances ``(k, d, d)``."""
    d = Z.shape[1]
    counts = np.bincount(codes, minlength=k)
    means = np.zeros((k, d))
    covs = np.zeros((k, d, d))
    for c in range(k):
        Zc = Z[codes == c]
        if Zc.shape[0] == 0:
            continue
        means[c] = Zc.mean(axis=0)
        D = Zc - means[c]
        covs[c] = D.T @ D / Zc.shape[0]
    return counts, means, covs


def pairwise_mpm(Z: np.ndarray, codes: np.ndarray, k: int, reg: np.ndarray) -> PairwiseMPM:
    """Fit the MPM to every pair of clusters; ``reg = lam * Lambda``.

    Raises
    ------
    DegenerateDataError
        If a cluster is empty.
    """
    counts, means, covs = cluster_stats(Z, codes, k)
    if (counts == 0).any():
        raise DegenerateDataError(
            f"Cluster(s) {np.flatnonzero(counts == 0).tolist()} of the {k} are empty, so "
            "their MSP is undefined. Use fewer clusters."
        )
    d = Z.shape[1]
    pairs = tuple((i, j) for i in range(k) for j in range(i + 1, k))
    W = np.zeros((len(pairs), d))
    B = np.zeros(len(pairs))
    kappa = np.zeros(len(pairs))
    gap = np.zeros(len(pairs))
    alpha = np.ones((k, k))
    for p, (i, j) in enumerate(pairs):
        sol = solve_mpm(means[j], means[i], covs[j] + reg, covs[i] + reg)
        W[p], B[p], kappa[p] = sol.w, sol.b, sol.kappa
        gap[p] = abs(sol.w @ (means[j] - means[i]))
        alpha[i, j] = alpha[j, i] = sol.alpha
    return PairwiseMPM(pairs, W, B, alpha, kappa, gap, counts.astype(float))


def _check_X(X, lam: float = 0.0) -> np.ndarray:
    """``X`` as a finite 2-D float array, and ``lam >= 0``, each refused with its message."""
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2:
        raise ValueError(f"X must be a 2-D array; got shape {X.shape}.")
    if not np.isfinite(X).all():
        raise ValueError("X contains NaN or infinite values; remove or impute them first.")
    if lam < 0:
        raise ValueError(f"lam must be >= 0; got {lam}.")
    return X


def multiclass_msp_from_std(
    std: Standardized, codes: np.ndarray, k: int, lam: float, regularizer: str
) -> float:
    """:func:`multiclass_msp` on already standardised data."""
    reg = effective_lam(lam, regularizer) * regularizer_matrix(std, regularizer)
    return pairwise_mpm(std.Z, codes, k, reg).msp()


def multiclass_msp(X, labels, lam: float = DEFAULT_LAM, regularizer: str = "diag") -> float:
    """MSP of a labeling into ``k >= 2`` clusters (the module docstring's ``MSP_k``).

    A lower bound on the accuracy of the one-vs-one MPM classifier learnt from the labeling,
    if each cluster's mean and covariance are its true moments; equal to the binary MSP for
    two clusters and invariant to the linear maps that leave the regulariser's meaning
    unchanged (Theorem 1 of the MSPC paper).

    Examples
    --------
    >>> import numpy as np
    >>> from clustering.msp_multiclass import multiclass_msp
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(c, 1, (50, 2)) for c in ([0, 0], [8, 0], [0, 8])])
    >>> round(multiclass_msp(X, np.repeat([0, 1, 2], 50), lam=0.1), 2)
    0.77
    """
    X = _check_X(X, lam)
    codes, k = encode_labels(labels, X.shape[0])
    return multiclass_msp_from_std(standardize(X), codes, k, lam, regularizer)
