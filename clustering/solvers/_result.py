from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class SolverResult:
    """What every MSPC solver returns (standardised coordinates).

    Attributes
    ----------
    labels : ndarray of shape (N,)
        0/1 labels; 1 is the side ``w'z - b >= 0``.
    w : ndarray of shape (d,)
        Normal of the final hyperplane.
    b : float
        Offset of the final hyperplane.
    history : tuple of float
        The solver's objective at each iteration (MSP for ``mpm``, the lower bound (4)
        for ``gep``, the leading eigenvalue for ``eig``).
    n_iter : int
        Iterations run.
    status : str
        ``"converged"`` (labels stopped changing), ``"max_iter"`` (stopped by the
        iteration limit), ``"empty-cluster"`` (a step would have emptied a cluster; the
        previous labels were kept) or ``"closed-form"`` (``eig``).
    """

    labels: np.ndarray
    w: np.ndarray
    b: float
    history: tuple[float, ...]
    n_iter: int
    status: str
    kappa: float | None = None
