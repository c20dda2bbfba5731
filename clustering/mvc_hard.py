"""Hard-label maximum volume clustering (Niu, Dai, Shang & Sugiyama, AISTATS 2011): the SDP
relaxation of Section 3.3 with Xu et al.'s class balance."""

from __future__ import annotations

from numbers import Integral, Real

import cvxpy as cp
import numpy as np

from . import _cvx
from ._base import BaseClusterer
from ._compat import Interval, StrOptions
from ._mvc_graph import (
    KERNELS,
    rbf_kernel_matrix,
)
from .exceptions import ProblemTooLargeError

# ------------------------------------------------------------------------------- HL-MVC


def build_hard_label_sdp(Q: np.ndarray, gamma: float, C: float, balance: float = 1.0):
    """The SDP (10) of HL-MVC with the class balance of Xu et al.'s MMC SDP::

        min t  s.t.  mu >= 0, nu >= 0, M >= 0 (PSD), diag(M) = 1,
                     [[gamma Q o M - eta I, 1 - mu + nu], [(1 - mu + nu)', t + eta - 2C mu'1]]
                     is PSD,
                     -balance n <= M 1 <= balance n   (omitted when balance >= 1).

    For ``M = y y'`` the balance row ``i`` reads ``|n_+ - n_-| <= balance n``.

    Returns
    -------
    problem : cvxpy.Problem
    M : cvxpy.Variable
        The relaxed label matrix ``y y'``.
    """
    n = Q.shape[0]
    M = cp.Variable((n, n), symmetric=True, name="M")
    mu = cp.Variable(n, nonneg=True, name="mu")
    nu = cp.Variable(n, nonneg=True, name="nu")
    eta = cp.Variable(name="eta")
    t = cp.Variable(name="t")
    v = cp.reshape(1 - mu + nu, (n, 1), order="F")
    corner = cp.reshape(t + eta - 2 * C * cp.sum(mu), (1, 1), order="F")
    block = cp.bmat([[gamma * cp.multiply(Q, M) - eta * np.eye(n), v], [v.T, corner]])
    constraints = [M >> 0, cp.diag(M) == 1, (block + block.T) / 2 >> 0]
    if balance < 1:
        constraints.append(cp.abs(cp.sum(M, axis=1)) <= balance * n)
    return cp.Problem(cp.Minimize(t), constraints), M


class HardLabelMVC(BaseClusterer):
    """Hard-label maximum volume clustering (HL-MVC): the SDP relaxation (10) of the MVC
    problem with labels ``y`` and confidences ``alpha`` (eq. 8), rounded by the leading
    eigenvector of the relaxed label matrix ``M ~ y y'``.

    **Cost: O(n^6.5) time, O(n^4) memory (an interior-point SDP with an n x n matrix
    variable).** Refuses more than ``max_samples`` samples (default 150); use
    :class:`SoftLabelMVC` (``O(n^3)``) for larger data.

    Parameters
    ----------
    gamma : float, default=1.0
        Weight of the volume term (the paper uses 0.01 or 100 depending on the task).
    C : float, default=1e4
        Upper bound on the confidences ``alpha_i`` (limits the influence of outliers); the
        paper fixes ``1e4``.
    kernel : {"rbf", "linear"}, default="rbf"
        ``Q`` is this kernel matrix (the paper: Gaussian).
    sigma2 : float or None, default=None
        Gaussian width ``sigma^2`` in ``exp(-||x - x'||^2 / (2 sigma^2))`` (the paper picks it
        from ``{1, 10, 100, 1000}``); ``None``: half the median squared distance.
    balance : float, default=0.3
        Class balance ``|sum_j M_ij| <= balance * n`` for every ``i`` (Xu et al.'s MMC
        constraint; for ``M = y y'`` it bounds ``|n_1 - n_0| / n``). The paper's (10) has
        none, but without it the SDP's optimum is ``M = 1 1'`` (every sample in one cluster)
        whenever ``Q`` is a Gaussian kernel; 1 switches it off.
    max_samples : int, default=150
        Largest ``n`` accepted; larger inputs raise :class:`ProblemTooLargeError`.
    solver : str or None, default=None
        cvxpy SDP solver (``None``: SCS, else Clarabel).
    solver_options : dict or None, default=None
        Passed to the solver, e.g. ``{"eps_abs": 1e-3, "eps_rel": 1e-3}`` for a faster, looser
        SCS solve.

    Attributes
    ----------
    labels_ : ndarray of shape (n_samples,)
        Cluster of each sample, 0 or 1: ``sign(v - mean(v))`` of the leading eigenvector
        ``v`` of ``M_`` (its sign chosen so that cluster 1 contains the first sample).
    M_ : ndarray of shape (n_samples, n_samples)
        Optimal relaxed label matrix.
    objective_ : float
        Optimal value ``t`` of (10).
    rank_one_gap_ : float
        ``1 - lambda_max(M_) / n``: 0 when the relaxation is tight (``M_`` has rank one).
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Names of features seen in ``fit``, when ``X`` has string column names.

    Notes
    -----
    Transductive: no ``predict``. The class balance constraint is our addition (see
    ``balance``); it is the one of the MMC SDP that HL-MVC generalises (the paper's
    Theorem 2).

    References
    ----------
    G. Niu, B. Dai, L. Shang, M. Sugiyama. Maximum volume clustering. AISTATS 2011:
    section 3.3, eq. (8) (HL-MVC), (9) (relaxation), (10) (SDP) and the rounding below it.

    Examples
    --------
    >>> import numpy as np
    >>> from clustering import HardLabelMVC
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(0, 1, (15, 2)), rng.normal(0, 1, (15, 2)) + [8, 0]])
    >>> model = HardLabelMVC().fit(X)
    >>> sorted(np.bincount(model.labels_).tolist())
    [15, 15]
    """

    _parameter_constraints: dict = {
        "gamma": [Interval(Real, 0, None, closed="neither")],
        "C": [Interval(Real, 0, None, closed="neither")],
        "kernel": [StrOptions(set(KERNELS))],
        "sigma2": [Interval(Real, 0, None, closed="neither"), None],
        "balance": [Interval(Real, 0, 1, closed="both")],
        "max_samples": [Interval(Integral, 2, None, closed="left")],
        "solver": [str, None],
        "solver_options": [dict, None],
    }

    def __init__(
        self,
        gamma: float = 1.0,
        *,
        C: float = 1e4,
        kernel: str = "rbf",
        sigma2: float | None = None,
        balance: float = 0.3,
        max_samples: int = 150,
        solver: str | None = None,
        solver_options: dict | None = None,
    ) -> None:
        self.gamma = gamma
        self.C = C
        self.kernel = kernel
        self.sigma2 = sigma2
        self.balance = balance
        self.max_samples = max_samples
        self.solver = solver
        self.solver_options = solver_options

    def _fit(self, X):
        n = X.shape[0]
        if n > self.max_samples:
            raise ProblemTooLargeError(
                f"HardLabelMVC accepts at most max_samples={self.max_samples} samples; got {n}. "
                "Its SDP costs O(n^6.5) time and O(n^4) memory, so the run time grows about "
                f"{(n / self.max_samples) ** 6.5:.0f}-fold beyond the limit. Raise max_samples "
                "if you can wait, or use SoftLabelMVC (O(n^3))."
            )
        Q = rbf_kernel_matrix(X, self.sigma2) if self.kernel == "rbf" else X @ X.T
        problem, M = build_hard_label_sdp(Q, self.gamma, self.C, self.balance)
        value = _cvx.solve(
            problem,
            solver=self.solver,
            kind="sdp",
            what=f"the SDP (10) of HardLabelMVC (n={n})",
            advice="Try another solver (solver='CLARABEL' or 'SCS'), a smaller C or gamma, "
            "or fewer samples.",
            **(self.solver_options or {}),
        )
        M_value = np.asarray(M.value, dtype=float)
        M_value = (M_value + M_value.T) / 2.0
        evals, evecs = np.linalg.eigh(M_value)
        v = evecs[:, -1]
        labels = (v - v.mean() >= 0).astype(np.intp)
        if labels[0] == 0:
            labels = 1 - labels
        self.M_ = M_value
        self.objective_ = value
        self.rank_one_gap_ = float(max(0.0, 1.0 - evals[-1] / n))
        self.labels_ = labels
