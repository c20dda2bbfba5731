"""MSPC-GEP (the MSPC paper, Table 1, column 2): maximise the lower bound (4) of kappa^2."""

from __future__ import annotations

import numpy as np
from scipy import linalg

from .._threads import serial_blas
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
    # Any sort order will do: a split between equal projections is excluded below, so ties
    # never decide which points go to cluster 0.
    order = np.argsort(projections)
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


def moments_and_total_factor(Z, labels, Lambda, lam, gram=None):
    """The running cluster moments of ``labels``, the regularised total covariance
    ``C = Sigma + lam * Lambda`` and its Cholesky factor, which every GEP step solves with
    (shared by the paper's GEP and the monotone GEP search).

    ``Z`` is centred, so the total scatter is the sum of the clusters' (one ``O(N d^2)``
    product, none when ``gram = Z'Z`` is given).
    """
    from .._moments import RunningMoments

    moments = RunningMoments(Z, labels, total_scatter=gram)
    total = moments.scatter1 + moments.scatter0 if gram is None else gram
    C = total / Z.shape[0] + lam * Lambda
    return moments, C, total_factor(C)


def total_factor(C: np.ndarray):
    """The Cholesky factor of the regularised total covariance ``C``, or an error that says
    why it is singular and what to do."""
    try:
        with serial_blas(C.shape[0]):
            return linalg.cho_factor(C, check_finite=False)
    except linalg.LinAlgError:
        raise DegenerateDataError(
            "The total covariance plus lam * Lambda is singular (more features than samples, "
            "or linearly dependent features). Use lam > 0 with regularizer='diag'."
        ) from None


def gep_direction(moments, factor) -> np.ndarray:
    """The unit leading eigenvector of the GEP (5), ``C^-1 (mu1 - mu0)`` normalised."""
    a = moments.sum1 / moments.n1 - moments.sum0 / (moments.n - moments.n1)
    w = linalg.cho_solve(factor, a, check_finite=False)
    return w / np.linalg.norm(w)


def solve_gep(
    Z: np.ndarray,
    Lambda: np.ndarray,
    lam: float,
    labels0: np.ndarray,
    max_iter: int = 50,
    keep_best: bool = False,
    *,
    gram: np.ndarray | None = None,
) -> SolverResult:
    """Alternate ``w`` from the generalised eigenproblem (5) and the best split for ``w``.

    The split maximises the lower bound (4), not the MSP, so a step can lower the MSP (on
    four of eight task and ``lam`` cases of the paper's UCI sets the last labeling's MSP is
    below its k-means start's). With ``keep_best=True`` the labeling of highest MSP among
    all iterates (the start included) is returned, one MPM solve (``O(d^3)``) per
    iteration; with ``False`` the last one, as in the paper's Table 1.

    The GEP ``(mu1 - mu0)(mu1 - mu0)' v = gamma (Sigma + lam Lambda) v`` has rank one, so its
    leading eigenvector is ``(Sigma + lam Lambda)^{-1} (mu1 - mu0)``; ``Sigma`` is the total
    covariance and does not depend on the labels, so it is factorised once per fit
    (``O(N d^2 + d^3)``) and each iteration costs ``O(N d + N log N + n_switched d)``. The
    clusters' scatters are updated by the switched points (``O(n_switched d^2)`` per
    iteration), so the MSP of the result costs one MPM solve (``O(d^3)``).
    """
    from ..mpm import mpm_of

    labels = labels0.astype(np.intp).copy()
    # The clusters' sums and scatters, updated by the switched points (Appendix B): the means
    # cost O(n_switched d) per iteration and the MSP of the result needs no pass over Z.
    moments, C, factor = moments_and_total_factor(Z, labels, Lambda, lam, gram)
    history: list[float] = []
    status = "max_iter"
    w = np.zeros(Z.shape[1])
    threshold = 0.0
    n_iter = 0
    best = None  # (kappa, labels) of the iterate of highest MSP, with keep_best
    t = 1.0
    for n_iter in range(1, max_iter + 1):  # noqa: B007
        if keep_best:
            sol = mpm_of(moments.moments(), lam * Lambda, t)
            t = sol.t
            if best is None or sol.kappa > best[0]:
                best = (sol.kappa, labels.copy())
        w = gep_direction(moments, factor)
        new, threshold, value = best_split(Z @ w, float(w @ C @ w))
        history.append(value)
        changed = new != labels
        if not changed.any():
            status = "converged"
            break
        moments.switch(np.flatnonzero(changed & (new == 1)), np.flatnonzero(changed & (new == 0)))
        labels = new
    kappa = mpm_of(moments.moments(), lam * Lambda).kappa
    if keep_best and best[0] > kappa:
        # An earlier iterate: its own MPM hyperplane (labels on its sides may differ from the
        # iterate's for points on the wrong side of their cluster's hyperplane).
        kappa, labels = best
        sol = mpm_of(moments_of(Z, labels), lam * Lambda)
        w, threshold = sol.w, sol.b
    return SolverResult(labels, w, threshold, tuple(history), n_iter, status, kappa)


def moments_of(Z: np.ndarray, labels: np.ndarray):
    """The cluster moments of a 0/1 labeling, computed afresh."""
    from .._moments import cluster_moments

    return cluster_moments(Z, labels)
