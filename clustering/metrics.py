"""Clustering quality: the MSP score and the external measures the papers report.

- :func:`msp_score` — Minimum Separation Probability of a labeling (MSPC paper, Definition 1).
- :func:`msp_heldout_score` — the same bound for an MPM evaluated on points it was not
  fitted to (:mod:`clustering.msp_heldout`): the label-free score the lab ranks labelings by.
- :func:`heldout_structure` — whether a labeling's held-out MSP is above the level the
  search reaches on Gaussian noise of the data's shape (structure) or at it (none).
- :func:`clustering_accuracy`, :func:`clustering_error` — best one-to-one matching of
  clusters to classes (Hungarian algorithm).
- :func:`nmi`, :func:`rand_index`, :func:`f_measure` — the measures of the multivariate-loss
  MMC paper (eqs. 2-7 and 19), F over pairs of samples.
- :func:`partition_distance` — the DIFFRAC paper's distance between partitions (section 5).
- :func:`relative_margin`, :func:`chebyshev_fraction` — MSPC paper, Theorem 5.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import linear_sum_assignment

from ._compat import check_random_state
from ._lam import DEFAULT_LAM
from ._moments import binary_labels
from .mpm import fit_mpm_to_labels
from .msp_heldout import msp_heldout_score
from .msp_multiclass import _check_X, multiclass_msp

__all__ = [
    "chebyshev_fraction",
    "clustering_accuracy",
    "clustering_error",
    "contingency",
    "external_scores",
    "f_measure",
    "heldout_structure",
    "msp_heldout_score",
    "msp_score",
    "nmi",
    "pair_counts",
    "partition_distance",
    "rand_index",
    "relative_margin",
]


def msp_score(X, labels, lam: float = DEFAULT_LAM, regularizer: str = "diag") -> float:
    """Minimum Separation Probability of a labeling (two clusters; more via
    :func:`clustering.msp_multiclass.multiclass_msp`).

    The optimal ``p`` of the MPM problem (MSPC paper eq. 1) on the pseudo-labelled data:
    a lower bound on the accuracy of a linear classifier learnt from the labeling, if each
    cluster's mean and covariance are its true moments.

    Covariances are the biased (1/N_k) empirical ones, each regularised as
    ``Sigma_k + lam * Lambda`` with ``Lambda = diag(Sigma)`` (``Sigma`` the biased covariance
    of all of ``X``; ``regularizer="diag"``, the paper's choice), ``Lambda = I``
    (``"identity"``), ``Lambda = Sigma`` (``"total"``) or ``0`` (``"none"``).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    labels : array-like of shape (n_samples,)
        At least two distinct values; with more than two the multi-class MSP (pairwise MPMs
        combined by a union bound, :mod:`clustering.msp_multiclass`) is returned.
    lam : float, default=DEFAULT_LAM
        Regularisation weight (``>= 0``). The default is :class:`clustering.MSPC`'s
        (:data:`clustering._lam.DEFAULT_LAM`, 0.2), so ``msp_score(X, m.labels_) == m.msp_``
        for a two-cluster or multi-class linear ``MSPC`` fitted with its defaults.
    regularizer : {"diag", "identity", "total", "none"}, default="diag"
        Constant features are dropped (weight zero), as the estimator does.

    Returns
    -------
    float
        MSP in [0, 1].

    Examples
    --------
    >>> import numpy as np
    >>> from clustering.metrics import msp_score
    >>> X = np.array([[0.0, 0], [0, 1], [1, 0], [5, 5], [5, 6], [6, 5]])
    >>> round(msp_score(X, [0, 0, 0, 1, 1, 1], lam=0.1), 3)
    0.943
    """
    X = _check_X(X, lam)
    if np.unique(np.asarray(labels)).shape[0] > 2:  # k > 2: clustering/msp_multiclass.py
        return multiclass_msp(X, labels, lam, regularizer)
    labels01 = binary_labels(labels, X.shape[0])
    sol, _, _ = fit_mpm_to_labels(X, labels01, lam, regularizer)
    return sol.alpha


def heldout_structure(
    X,
    labels,
    lam: float = DEFAULT_LAM,
    regularizer: str = "diag",
    *,
    random_state=None,
) -> dict:
    """Whether a labeling's held-out MSP shows structure or is at the level of noise.

    The held-out MSP (:func:`msp_heldout_score`) measures how separable a labeling is on
    points its MPM was not fitted to; any cut of structureless data has some (Gaussian
    noise, 100 x 3: about 0.5). The reference is the held-out MSP that
    :class:`clustering.MSPC` (defaults, as many clusters as ``labels``) reaches on Gaussian
    noise with ``X``'s size (at most 2000 points), dimension and correlations
    (:mod:`clustering._reference`); the labeling shows structure when its held-out MSP
    exceeds the reference by more than 0.05. For a model fitted with defaults and an int
    ``random_state`` whose labels were kept at its ``lam`` (``m.search_lam_ == m.lam``),
    ``heldout_structure(X, m.labels_, random_state=m.random_state)`` gives
    ``m.msp_heldout_reference_`` and ``m.structure_found_`` (labels kept at a smaller ``lam``
    are judged at that ``lam`` against the search at that ``lam`` alone).

    Returns
    -------
    dict
        ``msp_heldout`` (of ``labels``, its splits drawn from ``random_state``),
        ``reference`` and ``structure`` (bool).

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(0, 1, (100, 3)), rng.normal(4, 1, (100, 3))])
    >>> out = heldout_structure(X, np.repeat([0, 1], 100), random_state=0)
    >>> out["structure"], out["msp_heldout"] > out["reference"] + 0.05
    (True, True)
    """
    from ._reference import STRUCTURE_MARGIN, reference_heldout
    from .msp_heldout import heldout_seed
    from .mspc import MSPC

    X = _check_X(X, lam)
    score = msp_heldout_score(X, labels, lam, regularizer, random_state=random_state)
    k = np.unique(np.asarray(labels)).shape[0]
    seed = heldout_seed(random_state, check_random_state(random_state))
    model = MSPC(lam=lam, regularizer=regularizer, n_clusters=k)
    reference = reference_heldout(model, X, seed)
    return {
        "msp_heldout": score,
        "reference": reference,
        "structure": bool(score > reference + STRUCTURE_MARGIN),
    }


def contingency(labels_true, labels_pred) -> np.ndarray:
    """Counts ``C[i, j]`` of samples in cluster ``i`` of ``labels_pred`` and class ``j``."""
    labels_true = np.asarray(labels_true)
    labels_pred = np.asarray(labels_pred)
    if labels_true.shape != labels_pred.shape or labels_true.ndim != 1:
        raise ValueError(
            "labels_true and labels_pred must be 1-D arrays of the same length; got shapes "
            f"{labels_true.shape} and {labels_pred.shape}."
        )
    if labels_true.shape[0] == 0:
        raise ValueError("The labelings are empty.")
    classes, t = np.unique(labels_true, return_inverse=True)
    clusters, p = np.unique(labels_pred, return_inverse=True)
    k_t, k_p = classes.shape[0], clusters.shape[0]
    cells = np.bincount(p.ravel() * k_t + t.ravel(), minlength=k_p * k_t)
    return cells.reshape(k_p, k_t).astype(np.int64)


def external_scores(labels_true, labels_pred, beta: float = 1.0) -> dict[str, float]:
    """:func:`clustering_accuracy`, :func:`nmi`, :func:`rand_index`, ``ari`` (scikit-learn's
    ``adjusted_rand_score``) and :func:`f_measure` from one contingency table.

    Examples
    --------
    >>> sorted(external_scores([0, 0, 1, 1], [1, 1, 0, 0]).items())
    [('accuracy', 1.0), ('ari', 1.0), ('f', 1.0), ('nmi', 1.0), ('rand', 1.0)]
    """
    table = contingency(labels_true, labels_pred)
    tp, fp, fn, tn = _pairs(table)
    return {
        "accuracy": _accuracy(table),
        "nmi": _nmi(table),
        "rand": float(_rand(tp, fp, fn, tn)),
        "ari": _ari(tp, fp, fn, tn),
        "f": float(_f(tp, fp, fn, beta)),
    }


def _sums(table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return table.sum(axis=1), table.sum(axis=0)


def _accuracy(table: np.ndarray) -> float:
    rows, cols = linear_sum_assignment(-table)
    return float(table[rows, cols].sum() / table.sum())


def _nmi(table: np.ndarray) -> float:
    """scikit-learn's ``normalized_mutual_info_score`` (geometric mean) of a table."""
    if table.shape == (1, 1):
        return 1.0
    n, (a, b), (rows, cols) = float(table.sum()), _sums(table.astype(float)), np.nonzero(table)
    nz = table[rows, cols].astype(float)
    mi = max(float((nz / n * (np.log(nz * n) - np.log(a[rows] * b[cols]))).sum()), 0.0)
    if mi == 0.0:
        return 0.0
    h_p, h_t = (float(-(m / n * np.log(m / n)).sum()) for m in (a[a > 0], b[b > 0]))
    # At most 1 in exact arithmetic; rounding can give 1 + 1e-15 on a perfect match.
    return min(float(mi / max(np.sqrt(h_p * h_t), np.finfo(np.float64).eps)), 1.0)


def _pairs(table: np.ndarray) -> tuple[int, int, int, int]:
    """``(TP, FP, FN, TN)`` over unordered pairs, exactly (integers) from the table."""
    n, tp, pred, true = (int((m * (m - 1)).sum()) // 2 for m in (table.sum(), table, *_sums(table)))
    return tp, pred - tp, true - tp, n - pred - true + tp


def _rand(tp, fp, fn, tn):
    """Rand index from pair counts, elementwise; 1 without pairs."""
    total = tp + fp + fn + tn
    return np.where(total > 0, (tp + tn) / np.maximum(total, 1), 1.0)


def _ari(tp: int, fp: int, fn: int, tn: int) -> float:
    """scikit-learn's ``adjusted_rand_score`` from the pair counts."""
    if fn == 0 and fp == 0:
        return 1.0
    return float(2.0 * (tp * tn - fn * fp) / ((tp + fn) * (fn + tn) + (tp + fp) * (fp + tn)))


def _f(tp, fp, fn, beta: float = 1.0):
    """Eq. (19) ``(b^2 + 1) TP / (b^2 (TP + FN) + (TP + FP))``, elementwise; 0 without TP+FP."""
    if beta <= 0:
        raise ValueError(f"beta must be positive; got {beta}.")
    denom = beta**2 * (tp + fn) + (tp + fp)
    return np.where(denom > 0, (beta**2 + 1) * tp / np.maximum(denom, 1e-300), 0.0)


def clustering_accuracy(labels_true, labels_pred) -> float:
    """Fraction of samples whose cluster maps to their class under the best one-to-one
    matching of clusters to classes (Hungarian algorithm).

    Examples
    --------
    >>> clustering_accuracy([0, 0, 1, 1], [1, 1, 0, 0])
    1.0
    """
    return _accuracy(contingency(labels_true, labels_pred))


def clustering_error(labels_true, labels_pred) -> float:
    """``1 - clustering_accuracy``: the error the MSPC paper's Table 2 reports (as %)."""
    return 1.0 - clustering_accuracy(labels_true, labels_pred)


def nmi(labels_true, labels_pred) -> float:
    """Normalised mutual information ``I(C, L) / sqrt(H(C) H(L))`` (MMC paper eq. 2-4),
    scikit-learn's ``normalized_mutual_info_score`` with the geometric mean.

    Defined as 1 when both labelings have a single group and 0 when only one of them does.
    """
    return _nmi(contingency(labels_true, labels_pred))


def pair_counts(labels_true, labels_pred) -> tuple[int, int, int, int]:
    """Pair decisions ``(TP, FP, FN, TN)`` over all ``n (n - 1) / 2`` pairs of samples.

    A pair is positive when the clustering puts it together and true when the classes do.
    """
    return _pairs(contingency(labels_true, labels_pred))


def rand_index(labels_true, labels_pred) -> float:
    """Rand index ``(TP + TN) / (TP + FP + FN + TN)`` over pairs (MMC paper eq. 5)."""
    return float(_rand(*pair_counts(labels_true, labels_pred)))


def f_measure(labels_true, labels_pred, beta: float = 1.0) -> float:
    """Pairwise F-beta ``(beta^2 + 1) P R / (beta^2 P + R)`` (MMC paper eq. 6-7, 19).

    ``beta > 1`` penalises splitting a class (false negatives) more than merging classes.

    Examples
    --------
    >>> f_measure([0, 0, 1, 1], [0, 0, 1, 1], beta=1.5)
    1.0
    """
    tp, fp, fn, _ = pair_counts(labels_true, labels_pred)
    return float(_f(tp, fp, fn, beta))


def partition_distance(labels_a, labels_b) -> float:
    """DIFFRAC's squared distance between partitions, ``d(A, B)^2 / 2`` (section 5).

    ``d(A, B)^2 = k + k' - 2 sum_{i,i'} |A_i ∩ B_i'|^2 / (|A_i| |B_i'|)``; the returned
    value lies in ``[0, (k + k') / 2 - 1]`` and is 0 exactly when the partitions coincide.

    Examples
    --------
    >>> partition_distance([0, 0, 1, 1], [1, 1, 0, 0])
    0.0
    """
    table = contingency(labels_a, labels_b).astype(float)
    overlap = (table**2 / np.outer(table.sum(axis=1), table.sum(axis=0))).sum()
    return float(max((sum(table.shape) - 2.0 * overlap) / 2.0, 0.0))


def relative_margin(X, labels, w, b) -> np.ndarray:
    """Relative margin ``|w'x_i - b| / Delta`` of every sample (MSPC paper, Theorem 5).

    ``Delta = |w'(mu1 - mu0)|`` is the distance between the projected cluster means, so the
    relative margin, unlike the absolute margin of MMC, is invariant to feature scaling.
    """
    X = np.asarray(X, dtype=np.float64)
    labels01 = binary_labels(labels, X.shape[0])
    w = np.asarray(w, dtype=np.float64)
    proj = X @ w
    delta = abs(proj[labels01 == 1].mean() - proj[labels01 == 0].mean())
    if delta == 0:
        raise ValueError(
            "The two clusters have the same mean projection on w, so the relative margin "
            "is undefined."
        )
    return np.abs(proj - b) / delta


def chebyshev_fraction(msp: float, rho: float) -> float:
    """Theorem 5's guarantee: the fraction ``1 - r`` of each cluster with relative margin at
    least ``rho / 2``, where ``r = (1/p - 1) / ((1/p - 1) + (1 - rho)^2 / 4)``.

    Examples
    --------
    >>> round(chebyshev_fraction(0.9, 0.0), 3)
    0.692
    """
    if not 0 <= rho <= 1:
        raise ValueError(f"rho must lie in [0, 1]; got {rho}.")
    if msp <= 0:
        return 0.0
    odds = 1.0 / msp - 1.0
    slack = (1.0 - rho) ** 2 / 4.0
    if odds + slack == 0:
        return 1.0
    return float(1.0 - odds / (odds + slack))
