"""MSPC-GEP (the MSPC paper, Table 1, column 2): maximise the lower bound (4) of kappa^2."""

from __future__ import annotations

import numpy as np
from scipy import linalg

from ..exceptions import DegenerateDataError
from ._result import SolverResult


def lower_bound(delta: np.ndarray, quad: float, r1: np.ndarray) -> np.ndarray:
    """Theorem 2, bound (4) on ``kappa^2``, vectorised over candidate labelings.

    Parameters
    ----------
    delta : ndarray
        ``w'(mu1 - mu0)`` of each labeling.
    quad : float
        ``w'(Sigma + lam Lambda) w`` (does not depend on the labeling).
    r1 : ndarray
        Fraction of samples in cluster 1 of each labeling.
    """
    r_min = np.minimum(r1, 1 - r1)
    r_max = np.maximum(r1, 1 - r1)
    num = delta**2
    den = 2.0 * quad / r_min - 2.0 * r_max * num
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1.0), np.inf)


def best_split(projections: np.ndarray, quad: float) -> tuple[np.ndarray, float, float]:
    """The labeling that maximises bound (4) for a fixed ``w``.

    Sort the projections ``t_i = w'z_i``; for every ``N1`` in ``1..N-1`` put the ``N1``
    smallest in cluster 0 and the rest in cluster 1, and keep the ``N1`` with the largest
    bound. For a fixed cluster size the bound grows with ``(w'(mu1 - mu0))^2``, which a
    contiguous split of the sorted order maximises, so this is the optimal labeling for
    ``w`` (up to swapping the clusters). Cost ``O(N log N)``.

    Returns
    -------
    labels : ndarray of shape (N,)
    threshold : float
        Midpoint between the two projections at the split: ``t >= threshold`` is cluster 1.
    value : float
        The bound at the optimum.
    """
    n = projections.shape[0]
    order = np.argsort(projections, kind="stable")
    t = projections[order]
    prefix = np.cumsum(t)[:-1]  # sum of the k smallest, k = 1..N-1
    k = np.arange(1, n)
    mean_low = prefix / k
    mean_high = (t.sum() - prefix) / (n - k)
    values = lower_bound(mean_high - mean_low, quad, (n - k) / n)
    # Splitting between equal projections is not a labeling a hyperplane can make.
    values[t[1:] == t[:-1]] = -np.inf
    best = int(np.argmax(values))
    labels = np.ones(n, dtype=np.intp)
    labels[order[: best + 1]] = 0
    threshold = float((t[best] + t[best + 1]) / 2)
    return labels, threshold, float(values[best])


def solve_gep(
    Z: np.ndarray,
    Lambda: np.ndarray,
    lam: float,
    labels0: np.ndarray,
    max_iter: int = 50,
) -> SolverResult:
    """Alternate ``w`` from the generalised eigenproblem (5) and the best split for ``w``.

    The GEP ``(mu1 - mu0)(mu1 - mu0)' v = gamma (Sigma + lam Lambda) v`` has rank one, so its
    leading eigenvector is ``(Sigma + lam Lambda)^{-1} (mu1 - mu0)``; ``Sigma`` is the total
    covariance and does not depend on the labels, so it is factorised once per fit
    (``O(N d^2 + d^3)``) and each iteration costs ``O(N d + N log N + d^2)``.
    """
    n = Z.shape[0]
    C = Z.T @ Z / n + lam * Lambda
    try:
        factor = linalg.cho_factor(C, check_finite=False)
    except linalg.LinAlgError:
        raise DegenerateDataError(
            "The total covariance plus lam * Lambda is singular (more features than samples, "
            "or linearly dependent features). Use lam > 0 with regularizer='diag'."
        ) from None
    labels = labels0.astype(np.intp).copy()
    history: list[float] = []
    status = "max_iter"
    w = np.zeros(Z.shape[1])
    threshold = 0.0
    n_iter = 0
    total = Z.sum(axis=0)
    for n_iter in range(1, max_iter + 1):  # noqa: B007
        # Cluster means from one matrix-vector product (no copy of the cluster's rows).
        n1 = int(labels.sum())
        sum1 = labels.astype(Z.dtype) @ Z
        a = sum1 / n1 - (total - sum1) / (n - n1)
        w = linalg.cho_solve(factor, a, check_finite=False)
        w /= np.linalg.norm(w)
        quad = float(w @ C @ w)
        new, threshold, value = best_split(Z @ w, quad)
        history.append(value)
        if np.array_equal(new, labels):
            status = "converged"
            break
        labels = new
    return SolverResult(
        labels, w, threshold, tuple(history), n_iter, status, _kappa(Z, C, lam * Lambda, labels)
    )


def _kappa(Z: np.ndarray, C: np.ndarray, reg: np.ndarray, labels: np.ndarray) -> float:
    """MPM optimum (the MSP's kappa) of ``labels``, reusing the total scatter in ``C``.

    Only the smaller cluster's scatter is computed (``O(min(N1, N0) d^2)``); the other is
    the total (``N (C - reg)``, ``Z`` being centred) minus it.
    """
    from ..mpm import solve_mpm

    n = Z.shape[0]
    mask = labels.astype(bool)
    small = mask if mask.sum() <= n / 2 else ~mask
    Zs = Z[small]
    n_s = Zs.shape[0]
    sum_s = Zs.sum(axis=0)
    scatter_s = Zs.T @ Zs
    scatter_l = n * (C - reg) - scatter_s
    mu_s, mu_l = sum_s / n_s, -sum_s / (n - n_s)
    S_s = scatter_s / n_s - np.outer(mu_s, mu_s)
    S_l = scatter_l / (n - n_s) - np.outer(mu_l, mu_l)
    S_s, S_l = (S_s + S_s.T) / 2 + reg, (S_l + S_l.T) / 2 + reg
    if small is mask:
        return solve_mpm(mu_s, mu_l, S_s, S_l).kappa
    return solve_mpm(mu_l, mu_s, S_l, S_s).kappa
