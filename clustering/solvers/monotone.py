"""Monotone ascent of the MSP from a starting labeling.

The paper's alternation (fit the MPM to the labels, relabel every point by the sign of the
MPM hyperplane) has no monotonicity guarantee, and on real tasks it walks downhill: on
``breast`` at ``lam=0.01`` from the k-means start the MSP falls from 0.888 to 0.734. The
searches here accept a step only when the MSP rises, so ``history`` is non-decreasing and the
returned labeling has an MSP no lower than the start's.

Derivation (``mpm``)
--------------------
Write ``A(y) = max_w kappa(w, y)^2 / (1 + kappa(w, y)^2)`` for the MSP of a labeling ``y``
(eq. 2-3 of the MSPC paper, covariances ``Sigma_k(y) + lam Lambda``). At the current labeling
the MPM gives ``(w, b)``; the points with ``sign(w'z_i - b)`` different from their label are
those the hyperplane says are in the wrong cluster. The paper moves all of them at once. A
full move can overshoot: moving a point changes both means and covariances, and the new
labeling's optimum can be worse. We therefore:

1. sort the wrong-side points by ``|w'z_i - b|``, most confidently misplaced first;
2. try moving the first ``m`` of them, starting with all (``m = |C|``), and halve ``m``
   until ``A`` rises (``A(y') > A(y)`` strictly, so the search cannot cycle and ends after
   finitely many steps: there are finitely many labelings and each accepted one is better);
3. stop when even the single most misplaced point does not raise ``A`` (a local maximum for
   this move), when no point is on the wrong side (the paper's fixed point), or after
   ``max_iter`` accepted steps.

A move never empties a cluster: ``m`` is cut so that each cluster keeps two points.

Each trial needs the moments of ``y'``, updated from those of ``y`` by the rank-one formula
(2) of the paper's Appendix B: with scatter ``S_k = sum_{i in k} z_i z_i'`` and sum
``s_k``, moving ``z`` from cluster 0 to 1 adds ``z z'`` to ``S_1``, ``z`` to ``s_1`` and
subtracts them from cluster 0; then ``Sigma_k = S_k / N_k - mu_k mu_k'``. Going from ``m``
to ``m/2`` moves back only the last ``m/2`` points, so all trials of one iteration together
move ``2 |C|`` points.

Cost per iteration: ``O(|C| d^2)`` for the moment updates, ``O(N d)`` for the margins,
``O(|C| log |C|)`` for the sort and ``O(log |C|)`` MPM solves of ``O(d^3)`` each (one to three
Cholesky factorisations with the warm start ``t``): ``O(N d + |C| d^2 + d^3 log |C|)``,
against ``O(N d + |C| d^2 + d^3)`` for the paper's step. Memory ``O(N d + d^2)``.

``gep``: the GEP step (closed-form ``w`` from (5), optimal split for bound (4)) proposes a
labeling; it is accepted only if its MSP is higher. MSP of a proposal costs the moment update
of the points it switches plus one MPM solve: ``O(N d + N log N + n_switched d^2 + d^3)`` per
iteration.
"""

from __future__ import annotations

import numpy as np

from .._moments import RunningMoments
from ..exceptions import DegenerateDataError
from ..mpm import mpm_of
from ._result import SolverResult

#: Relative rise of the MSP below which a step is not accepted (rounding of the rank-one
#: updates is ~1e-15; a step must beat it clearly).
RISE_RTOL = 1e-10


def _rises(new: float, old: float) -> bool:
    return new > old + RISE_RTOL * max(abs(old), 1e-300)


def climb_mpm(
    Z: np.ndarray,
    Lambda: np.ndarray,
    lam: float,
    labels0: np.ndarray,
    max_iter: int = 50,
    *,
    gram: np.ndarray | None = None,
) -> SolverResult:
    """Monotone MPM search from ``labels0`` (see the module docstring).

    Returns a :class:`SolverResult` whose ``history`` is the MSP of the start and of each
    accepted labeling (non-decreasing), ``n_iter = len(history)``, and whose ``w``, ``b``,
    ``kappa`` are the MPM of the returned labels. ``status`` is ``"converged"`` (no point on
    the wrong side), ``"local-max"`` (no prefix of the wrong-side points raises the MSP) or
    ``"max_iter"``.
    """
    n = Z.shape[0]
    labels = labels0.astype(np.intp).copy()
    moments = RunningMoments(Z, labels, total_scatter=gram)
    reg = lam * Lambda
    sol = mpm_of(moments.moments(), reg, 1.0)
    history = [sol.alpha]
    status = "max_iter"
    for _ in range(max_iter):
        margin = Z @ sol.w - sol.b
        wrong = np.flatnonzero((margin >= 0).astype(np.intp) != labels)
        if wrong.size == 0:
            status = "converged"
            break
        order = wrong[np.argsort(-np.abs(margin[wrong]), kind="stable")]
        # Cut the move so that each cluster keeps at least two points.
        going_to1 = np.cumsum(labels[order] == 0)
        going_to0 = np.arange(1, order.size + 1) - going_to1
        n1_after = moments.n1 + going_to1 - going_to0
        ok = (n1_after >= 2) & (n - n1_after >= 2)
        m = int(np.flatnonzero(ok)[-1]) + 1 if ok.any() else 0
        applied = 0
        accepted = None
        while m >= 1:
            if m > applied:
                part = order[applied:m]
                moments.switch(part[labels[part] == 0], part[labels[part] == 1])
            else:
                part = order[m:applied]
                moments.switch(part[labels[part] == 1], part[labels[part] == 0])
            applied = m
            if ok[m - 1]:
                try:
                    trial = mpm_of(moments.moments(), reg, sol.t)
                except DegenerateDataError:
                    trial = None
                if trial is not None and _rises(trial.alpha, sol.alpha):
                    accepted = trial
                    break
            m //= 2
        if accepted is None:
            if applied:
                part = order[:applied]
                moments.switch(part[labels[part] == 1], part[labels[part] == 0])
            status = "local-max"
            break
        labels[order[:applied]] = 1 - labels[order[:applied]]
        sol = accepted
        history.append(sol.alpha)
    return SolverResult(labels, sol.w, sol.b, tuple(history), len(history), status, sol.kappa)


def climb_gep(
    Z: np.ndarray,
    Lambda: np.ndarray,
    lam: float,
    labels0: np.ndarray,
    max_iter: int = 50,
    *,
    gram: np.ndarray | None = None,
) -> SolverResult:
    """GEP steps accepted only while the MSP rises (see the module docstring).

    ``history`` is the MSP of the start and of each accepted labeling; ``w``, ``b``,
    ``kappa`` are the MPM of the returned labels.
    """
    from .gep import best_split, gep_direction, moments_and_total_factor

    n = Z.shape[0]
    labels = labels0.astype(np.intp).copy()
    moments, C, factor = moments_and_total_factor(Z, labels, Lambda, lam, gram)
    reg = lam * Lambda
    sol = mpm_of(moments.moments(), reg, 1.0)
    history = [sol.alpha]
    status = "max_iter"
    for _ in range(max_iter):
        w = gep_direction(moments, factor)
        new, _, _ = best_split(Z @ w, float(w @ C @ w))
        changed = new != labels
        if not changed.any():
            status = "converged"
            break
        n1_new = int(new.sum())
        if min(n1_new, n - n1_new) < 2:
            status = "local-max"
            break
        to1 = np.flatnonzero(changed & (new == 1))
        to0 = np.flatnonzero(changed & (new == 0))
        moments.switch(to1, to0)
        try:
            trial = mpm_of(moments.moments(), reg, sol.t)
        except DegenerateDataError:
            trial = None
        if trial is None or not _rises(trial.alpha, sol.alpha):
            moments.switch(to0, to1)
            status = "local-max"
            break
        labels = new
        sol = trial
        history.append(sol.alpha)
    return SolverResult(labels, sol.w, sol.b, tuple(history), len(history), status, sol.kappa)
