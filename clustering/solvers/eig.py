"""MSPC-EIG (the MSPC paper, Table 1, column 3): the spectral relaxation of Theorem 3."""

from __future__ import annotations

import numpy as np
from scipy import linalg

from .._threads import serial_blas
from ..exceptions import DegenerateDataError
from ._result import SolverResult


def leading_indicator(
    Z: np.ndarray,
    Lambda: np.ndarray,
    lam: float,
    form: str = "auto",
    gram: np.ndarray | None = None,
):
    """The relaxed cluster indicator ``q`` of Theorem 3 and its eigenvalue.

    With centred ``Z`` and the denominator of (6), ``Sigma + lam Lambda = (Z'Z + N lam
    Lambda) / N``, ``q`` is the leading eigenvector of ``M = Z (Z'Z + N lam Lambda)^{-1} Z'``
    or, equivalently, of ``I - (I + Z (N lam Lambda)^{-1} Z')^{-1}``.

    ``form="dual"`` computes it from the N x N matrix ``Z Lambda^{-1} Z'`` (which has the same
    eigenvectors, ``O(N^2 d + N^3)``); ``form="primal"`` from the d x d generalised problem
    ``Z'Z v = gamma Lambda v`` with ``q = Z v / ||Z v||`` (``O(N d^2 + d^3)``). ``"auto"``
    takes the smaller; ``gram`` is ``Z'Z`` when the caller has it. Both forms show that for
    ``lam > 0`` the direction of ``q`` does not depend on ``lam`` (only its eigenvalue
    ``gamma / (gamma + N lam)`` does), so ``lam = 0`` is taken as the limit ``lam -> 0+``.

    Returns
    -------
    q : ndarray of shape (N,)
        Unit vector.
    eigenvalue : float
        Leading eigenvalue of ``M``.
    """
    gamma, V, form = top_eigh(Z, Lambda, 1, form, gram)
    q = V[:, 0]
    if form == "primal":
        q = Z @ q
        q = q / np.linalg.norm(q)
    leading = float(gamma[0])
    # Eigenvectors have no sign; fix one so that results are reproducible.
    if q[np.argmax(np.abs(q))] < 0:
        q = -q
    eigenvalue = leading / (leading + Z.shape[0] * lam) if lam > 0 else 1.0
    return q, eigenvalue


def top_eigh(Z: np.ndarray, Lambda: np.ndarray, r: int, form: str = "auto", gram=None):
    """The ``r`` leading eigenpairs behind :func:`leading_indicator` (``r = k - 1`` for the
    multi-class EIG), eigenvalues ascending: of ``Z'Z v = gamma Lambda v`` (``form="primal"``,
    the relaxed indicators are ``Z v``) or of ``Z Lambda^-1 Z'`` (``"dual"``, the vectors are
    the indicators). Returns ``(gamma, vectors, form)``, ``"auto"`` resolved."""
    n, d = Z.shape
    if not np.all(np.isfinite(np.diag(Lambda))) or np.all(Lambda == 0):
        raise DegenerateDataError(
            "MSPC-EIG needs a regulariser: with Lambda = 0 every vector in the span of the "
            "data is an optimal relaxed indicator. Use regularizer='diag'."
        )
    if form == "auto":
        form = "primal" if n > d else "dual"
    # The identity (the "diag" regulariser) needs no generalised problem (2.7x faster for
    # d = 784, the same eigenvector to 1e-17).
    B = None if np.array_equal(Lambda, np.eye(d)) else Lambda
    try:
        if form == "primal":
            G, top = Z.T @ Z if gram is None else gram, min(r, d)
            with serial_blas(d):
                gamma, V = linalg.eigh(G, B, subset_by_index=[d - top, d - 1])
        else:
            K = Z @ linalg.solve(Lambda, Z.T, assume_a="pos")
            top = min(r, n)
            with serial_blas(n):
                gamma, V = linalg.eigh(K, subset_by_index=[n - top, n - 1])
    except (linalg.LinAlgError, ValueError):
        raise DegenerateDataError(
            "MSPC-EIG's eigenproblem is singular for this regulariser. Use regularizer='diag'."
        ) from None
    return gamma, V, form


def solve_eig(
    Z: np.ndarray,
    Lambda: np.ndarray,
    lam: float,
    labels0: np.ndarray | None = None,
    max_iter: int = 1,
    *,
    feature_weights: np.ndarray | None = None,
    gram: np.ndarray | None = None,
    with_kappa: bool = True,
) -> SolverResult:
    """Theorem 3 and Table 1, column 3: ``q*`` from one eigenproblem, labels from the sign
    of the prediction ``Z w*``. ``labels0`` and ``max_iter`` are unused.

    ``q*`` does not depend on feature scaling (with ``Lambda = diag(Sigma)``), but the
    prediction ``X X' q*`` does: with ``X = Z D`` (``D`` diagonal, the feature scales of the
    coordinates the prediction is made in) it is ``Z D^2 Z' q*``. ``feature_weights = None``
    makes it in standardised coordinates (``w* = Z'q*``, invariant to rescaling features);
    ``feature_weights = D**2`` in the coordinates ``Z D`` (``w* = D^2 Z'q*``), e.g. the paper's
    centred ``[-1, 1]``-scaled data.

    ``gram`` (``Z'Z``, computed here when ``None`` and ``N > d``) also gives the MSP of the
    labels at the cost of the smaller cluster's scatter; ``with_kappa=False`` skips it (a
    start only needs the labels)."""
    n, d = Z.shape
    if gram is None and n > d:
        gram = Z.T @ Z
    q, eigenvalue = leading_indicator(Z, Lambda, lam, gram=gram)
    w = Z.T @ q
    if feature_weights is not None:
        w = w * feature_weights
    norm = np.linalg.norm(w)
    if norm == 0:
        raise DegenerateDataError("MSPC-EIG found no direction of variation in the data.")
    w /= norm
    labels = (Z @ w >= 0).astype(np.intp)
    if labels.all() or not labels.any():
        raise DegenerateDataError(
            "MSPC-EIG put every sample in one cluster (all projections on one side of the "
            "mean). Try method='gep' or method='mpm'."
        )
    kappa = None
    if with_kappa:
        from .._moments import RunningMoments
        from ..mpm import mpm_of

        kappa = mpm_of(RunningMoments(Z, labels, total_scatter=gram).moments(), lam * Lambda).kappa
    return SolverResult(labels, w, 0.0, (eigenvalue,), 1, "closed-form", kappa)
