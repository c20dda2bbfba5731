"""The cutting-plane QP of maximum margin clustering (the MMC paper's problem (17)), solved
through its small dual.

In the estimator's normalised units (see :class:`clustering.MMCMultivariate`) the QP over
``K`` cutting planes is::

    min_{u, beta, xi}  u'u / 2 + C xi
    s.t.  a_k'u + c_k beta + delta_k <= xi   (k = 1..K),   xi >= 0,   |beta| <= B,

with ``u`` of dimension ``d`` (hundreds) but only ``K`` constraints (tens). Its Lagrange dual
has one variable per plane::

    min_{alpha}  alpha' H alpha / 2 - delta'alpha + B |c'alpha|
    s.t.  alpha >= 0,   sum(alpha) <= C,                      H = A A',

and ``u = -A'alpha``. The ``|c'alpha|`` term (from the bounded, unpenalised offset) is
written with one more variable ``t >= |c'alpha|``, and the resulting dense QP in ``K + 1``
variables is solved by a primal-dual interior-point method (Mehrotra's predictor-corrector)
in numpy. Given ``u``, the offset ``beta`` and the slack ``xi`` are then found exactly by
minimising the piecewise-linear ``xi(beta)`` over ``[-B, B]``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.linalg import cho_factor, cho_solve

from .exceptions import SolverFailedError

__all__ = ["PlaneQPResult", "dense_qp", "solve_plane_qp"]


@dataclass(frozen=True)
class PlaneQPResult:
    """Solution of the cutting-plane QP.

    Attributes
    ----------
    u : ndarray of shape (d,)
    beta : float
    xi : float
    objective : float
        ``u'u / 2 + C xi``.
    alpha : ndarray of shape (K,)
        Dual variables, one per plane.
    n_iter : int
        Interior-point iterations.
    """

    u: np.ndarray
    beta: float
    xi: float
    objective: float
    alpha: np.ndarray
    n_iter: int


def _newton(r_c, factor, M, G, W, s, z, r_p, r_d):
    """One Newton direction of the interior-point method (``r_c``: the complementarity
    right-hand side), from the reduced system ``(P + G' W G) dx = rhs``."""
    rhs = -r_d - G.T @ ((r_c + z * r_p) / s)
    if factor is not None:
        dx = cho_solve(factor, rhs, check_finite=False)
    else:
        dx = np.linalg.lstsq(M, rhs, rcond=None)[0]
    ds = -r_p - G @ dx
    dz = (r_c + z * r_p) / s + W * (G @ dx)
    return dx, ds, dz


def _step(v, dv) -> float:
    """Largest step in ``(0, 1]`` keeping ``v + step dv >= 0``."""
    neg = dv < 0
    return min(1.0, float((-v[neg] / dv[neg]).min())) if neg.any() else 1.0


def dense_qp(P, q, G, h, x0, *, tol: float = 1e-9, max_iter: int = 100):
    """``min x'Px / 2 + q'x  s.t.  G x <= h`` for a small dense convex QP, from a strictly
    feasible ``x0``, by a primal-dual interior-point method with Mehrotra's corrector.

    Returns ``(x, z, n_iter)`` (``z``: multipliers of ``G x <= h``).

    Raises
    ------
    SolverFailedError
        If the method does not reach ``tol`` within ``max_iter`` iterations.
    """
    x = np.asarray(x0, dtype=float).copy()
    s = h - G @ x
    if not (s > 0).all():
        raise ValueError("dense_qp needs a strictly feasible start")
    z = np.ones_like(s)
    p = s.shape[0]
    # Below this the objective counts as 0 (a degenerate QP, e.g. one plane with A = 0, has
    # optimum 0 and a gap that is only ever small relative to the data's scale).
    scale = max(np.abs(P).max(initial=0.0), np.abs(q).max(initial=0.0))
    if scale == 0.0:
        return x, np.zeros_like(s), 0
    tiny = 1e-12 * scale
    loose = None
    for it in range(1, max_iter + 1):
        Px, Gx, Gz = P @ x, G @ x, G.T @ z
        r_d = Px + q + Gz
        r_p = Gx + s - h
        mu = s @ z / p
        # Relative measures (no "1 +"): the objective's scale is whatever C and the data give.
        err = max(
            np.abs(r_d).max() / max(np.abs(q).max(), np.abs(Px).max(), np.abs(Gz).max(), tiny),
            np.abs(r_p).max() / max(np.abs(h).max(), np.abs(Gx).max(), tiny),
            p * mu / max(abs(0.5 * x @ Px + q @ x), abs(0.5 * x @ Px) + abs(q @ x) * tol, tiny),
        )
        if err <= tol:
            return x, z, it
        if err <= np.sqrt(tol) and (loose is None or err < 0.5 * loose[2]):
            loose = (x.copy(), z.copy(), err, it)
        elif loose is not None and it - loose[3] >= 5:
            # Stalled at rounding level near the optimum: accept the best point.
            return loose[0], loose[1], it
        W = z / s
        M = P + (G.T * W) @ G
        M.flat[:: M.shape[0] + 1] += 1e-14 * max(1.0, np.trace(M) / M.shape[0])
        try:
            factor = cho_factor(M, check_finite=False)
        except np.linalg.LinAlgError:
            factor = None

        sz = np.concatenate([s, z])
        dx, ds, dz = _newton(-s * z, factor, M, G, W, s, z, r_p, r_d)
        a_aff = _step(sz, np.concatenate([ds, dz]))
        mu_aff = (s + a_aff * ds) @ (z + a_aff * dz) / p
        sigma = (mu_aff / mu) ** 3
        dx, ds, dz = _newton(-s * z - ds * dz + sigma * mu, factor, M, G, W, s, z, r_p, r_d)
        a = 0.99 * _step(sz, np.concatenate([ds, dz]))
        x, s, z = x + a * dx, s + a * ds, z + a * dz
    if loose is not None:
        return loose[0], loose[1], max_iter
    raise SolverFailedError(
        f"The interior-point method for the CCCP subproblem (17) of MMC did not converge in "
        f"{max_iter} iterations. Try solver='CLARABEL' (cvxpy), a smaller C or a larger l."
    )


def _best_offset(base, c, B, hint):
    """``argmin_{|beta| <= B} max(0, max_k base_k + c_k beta)``: the breakpoints of the
    piecewise-linear function and the ends of the interval are the only candidates; among
    equal values the one closest to ``hint``."""
    cand = [-B, B, float(np.clip(hint, -B, B))]
    dc = c[:, None] - c[None, :]
    db = base[None, :] - base[:, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        cross = db / dc
    cross = cross[np.isfinite(cross) & (np.abs(cross) <= B)]
    with np.errstate(divide="ignore", invalid="ignore"):
        zero = -base / c
    zero = zero[np.isfinite(zero) & (np.abs(zero) <= B)]
    cand = np.concatenate([cand, cross, zero])
    xi = np.maximum(0.0, (base[:, None] + c[:, None] * cand[None, :]).max(axis=0))
    best = xi.min()
    ties = np.flatnonzero(xi <= best + 1e-12 * max(1.0, abs(best)))
    pick = ties[np.argmin(np.abs(cand[ties] - hint))]
    return float(cand[pick]), float(max(best, 0.0))


def solve_plane_qp(A, c, delta, C: float, B: float) -> PlaneQPResult:
    """Solve the cutting-plane QP (module docstring) through its dual.

    Parameters
    ----------
    A : ndarray of shape (K, d)
        Rows ``a_k``.
    c, delta : ndarray of shape (K,)
    C : float
        Weight of the slack (positive).
    B : float
        Bound on the offset (non-negative).

    Returns
    -------
    PlaneQPResult
    """
    A = np.asarray(A, dtype=float)
    c = np.asarray(c, dtype=float)
    delta = np.asarray(delta, dtype=float)
    K = A.shape[0]
    H = A @ A.T
    # Variables x = (alpha, t): min alpha'H alpha / 2 - delta'alpha + B t with
    # -alpha <= 0, sum(alpha) <= C, c'alpha - t <= 0, -c'alpha - t <= 0.
    P = np.zeros((K + 1, K + 1))
    P[:K, :K] = H
    q = np.concatenate([-delta, [B]])
    G = np.zeros((K + 3, K + 1))
    G[:K, :K] = -np.eye(K)
    G[K, :K] = 1.0
    G[K + 1, :K], G[K + 1, K] = c, -1.0
    G[K + 2, :K], G[K + 2, K] = -c, -1.0
    h = np.zeros(K + 3)
    h[K] = C
    alpha0 = np.full(K, 0.5 * C / K)
    x0 = np.concatenate([alpha0, [abs(c @ alpha0) + 0.5 * C * (np.abs(c).max() + 1.0)]])
    # The dual's scale is C (alpha sums to at most C); solve in alpha / C for tolerances
    # relative to it.
    x, z, n_iter = dense_qp(P * C, q, G, h / C, x0 / C)
    alpha = np.maximum(x[:K] * C, 0.0)
    u = -(A.T @ alpha)
    # beta = -(multiplier of c'alpha <= t) + (multiplier of -c'alpha <= t), a hint only.
    hint = float(C * (z[K + 2] - z[K + 1]))
    beta, xi = _best_offset(A @ u + delta, c, B, hint)
    return PlaneQPResult(
        u=u,
        beta=beta,
        xi=xi,
        objective=float(0.5 * u @ u + C * xi),
        alpha=alpha,
        n_iter=n_iter,
    )
