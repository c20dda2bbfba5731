"""Maximum margin clustering with a multivariate loss (Zhao, Kwok & Zhang, SDM 2009): the
cutting-plane algorithm whose restricted problems are solved by the constrained
concave-convex procedure (CCCP)."""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from functools import partial
from numbers import Integral, Real

import cvxpy as cp
import numpy as np
from sklearn.exceptions import ConvergenceWarning

from . import _cvx
from ._base import BaseClusterer, LinearTwoClusterMixin
from ._compat import (
    Interval,
    StrOptions,
    check_random_state,
)
from ._mmc_losses import LOSSES, loss_from_table, most_violated_constraint
from ._mmc_qp import solve_plane_qp
from ._mmc_starts import INITS, _initial_hyperplane, _largest_variance, _start_labels
from ._spec import AlgorithmSpec, Param
from .exceptions import SolverFailedError


@dataclass(frozen=True)
class MMCResult:
    """What :func:`solve_mmc` returns, in the normalised units of :func:`solve_mmc`.

    Attributes
    ----------
    u : ndarray of shape (d,)
    beta : float
        Normalised decision values are ``Xt @ u + beta``.
    labels : ndarray of shape (n,)
        Their signs, in ``{-1, +1}``.
    xi : float
        Normalised slack of problem (12) over all ``2^n`` labelings,
        ``max(0, max over y' of the constraint)``.
    objective : float
        ``u'u / 2 + C xi``.
    history : tuple of float
        That objective on the working set after each cutting-plane iteration.
    n_iter : int
        Cutting-plane iterations (constraints added).
    n_qp : int
        QPs (17) solved in total.
    status : str
        ``"converged"`` (no constraint violated by more than ``tol``) or ``"max_iter"``.
    """

    u: np.ndarray
    beta: float
    labels: np.ndarray
    xi: float
    objective: float
    history: tuple[float, ...]
    n_iter: int
    n_qp: int
    status: str


class _CCCPProblem:
    """The QP (17) in normalised units as a cvxpy problem (``solver=`` a cvxpy solver name),
    built once per fit with room for ``max_constraints`` cutting planes::

        min u'u / 2 + C xi   s.t.  A u + c beta + delta <= xi,  xi >= 0,  |beta| <= B.

    Unused rows are all zero (``0 <= xi``, implied by ``xi >= 0``), so adding a plane or
    moving the linearisation point only changes parameter values. The default solver is the
    dual method of :mod:`clustering._mmc_qp`; this model is its independent check.
    """

    def __init__(self, d: int, C: float, B: float, max_constraints: int):
        self.u = cp.Variable(d, name="u")
        self.beta = cp.Variable(name="beta")
        self.xi = cp.Variable(nonneg=True, name="xi")
        self.A = cp.Parameter((max_constraints, d), name="A", value=np.zeros((max_constraints, d)))
        self.c = cp.Parameter(max_constraints, name="c", value=np.zeros(max_constraints))
        self.delta = cp.Parameter(max_constraints, name="Delta", value=np.zeros(max_constraints))
        objective = cp.Minimize(0.5 * cp.sum_squares(self.u) + C * self.xi)
        constraints = [
            self.A @ self.u + cp.multiply(self.c, self.beta) + self.delta <= self.xi,
            cp.abs(self.beta) <= B,
        ]
        self.problem = cp.Problem(objective, constraints)

    def solve(self, A, c, delta, solver: str) -> tuple[np.ndarray, float]:
        k = A.shape[0]
        full_A = np.zeros_like(self.A.value)
        full_c = np.zeros_like(self.c.value)
        full_delta = np.zeros_like(self.delta.value)
        full_A[:k], full_c[:k], full_delta[:k] = A, c, delta
        self.A.value, self.c.value, self.delta.value = full_A, full_c, full_delta
        _cvx.solve(
            self.problem,
            solver=solver,
            what="the CCCP subproblem (17) of MMC",
            advice="Try a smaller C, a larger l or another solver (solver='SCS').",
        )
        return np.asarray(self.u.value, dtype=float), float(self.beta.value)


def _plane_losses(Y: np.ndarray, s: np.ndarray, loss: str, beta: float) -> np.ndarray:
    """``Delta(y'_k, s)`` for every row of ``Y`` at once (contingency tables by counting)."""
    pos = s > 0
    a = (Y[:, pos] > 0).sum(axis=1)
    b = (Y[:, ~pos] > 0).sum(axis=1)
    return np.asarray(
        loss_from_table(loss, a, b, pos.sum() - a, (~pos).sum() - b, beta), dtype=float
    )


def solve_mmc(
    Xt: np.ndarray,
    labels0: np.ndarray,
    *,
    loss: str,
    beta: float,
    C: float,
    B: float,
    loss_scale: float,
    tol: float,
    cccp_tol: float,
    max_iter: int,
    max_cccp_iter: int,
    solver: str | None,
    w0_from_labels: bool = True,
) -> MMCResult:
    """Algorithm 1 (cutting plane) with Algorithm 2 (CCCP) in normalised units.

    ``Xt`` is the centred data divided by the square root of its largest variance;
    decision values are ``ft = Xt @ u + beta`` and, with ``L = loss_scale`` (1, or ``n``
    for the error loss), problem (12) reads::

        min u'u / 2 + C xi  s.t.  mean_i (y'_i - s_i) ft_i + Delta(y', s) / L <= xi,
                                  xi >= 0,  |beta| <= B,

    which is the paper's (12) with ``f = (L / n) ft`` (the estimator maps back).
    ``labels0`` (in ``{-1, +1}``) is the first linearisation point ``ybar``; ``w_0`` is
    :func:`_initial_hyperplane` of it (``w0_from_labels``) or zero. ``solver=None`` solves
    each QP (17) by its dual (:func:`clustering._mmc_qp.solve_plane_qp`); a cvxpy solver
    name uses the cvxpy model :class:`_CCCPProblem`.
    """
    n, d = Xt.shape
    kappa = loss_scale / n  # paper f = kappa * ft
    cvx = None if solver is None else _CCCPProblem(d, C, B, max_iter)
    planes = np.empty((0, n))
    s = np.where(labels0 > 0, 1.0, -1.0)
    if w0_from_labels:
        u, beta_ = _initial_hyperplane(Xt, s)
    else:
        u, beta_ = np.zeros(d), 0.0
    history: list[float] = []
    n_qp = 0
    status = "max_iter"

    def working_xi(ft, s):
        if not planes.shape[0]:
            return 0.0
        lhs = (planes - s) @ ft / n + _plane_losses(planes, s, loss, beta) / loss_scale
        return max(0.0, float(lhs.max()))

    for _ in range(max_iter):
        ft = Xt @ u + beta_
        mv = most_violated_constraint(kappa * ft, s, loss, beta)
        xi_now = working_xi(ft, s)
        # At least one plane: w_0 is only a start, not a solution of (12).
        if planes.shape[0] and (
            mv.slack / loss_scale <= xi_now + tol or (planes == mv.y).all(axis=1).any()
        ):
            status = "converged"
            break
        planes = np.vstack([planes, mv.y])
        # Algorithm 2: CCCP on problem (12) restricted to the planes, from s.
        previous = np.inf
        for _ in range(max_cccp_iter):
            G = planes - s  # rows y'_k - s
            A = G @ Xt / n  # eq. (17): the constraint rows
            c = G.sum(axis=1) / n
            delta = _plane_losses(planes, s, loss, beta) / loss_scale
            if solver is None:
                try:
                    qp = solve_plane_qp(A, c, delta, C, B)
                    u, beta_ = qp.u, qp.beta
                except SolverFailedError:
                    # The interior-point method stalled (it did on 2 of 175 ionosphere
                    # fits): this QP goes to cvxpy's default solver instead.
                    cvx = cvx or _CCCPProblem(d, C, B, max_iter)
                    u, beta_ = cvx.solve(A, c, delta, None)
            else:
                u, beta_ = cvx.solve(A, c, delta, solver)
            n_qp += 1
            ft = Xt @ u + beta_
            value = 0.5 * u @ u + C * max(0.0, float((A @ u + c * beta_ + delta).max()))
            s_new = np.where(ft >= 0, 1.0, -1.0)
            done = np.array_equal(s_new, s) or abs(previous - value) <= cccp_tol * abs(value)
            s, previous = s_new, value
            if done:
                break
        history.append(0.5 * u @ u + C * working_xi(Xt @ u + beta_, s))

    ft = Xt @ u + beta_
    s = np.where(ft >= 0, 1.0, -1.0)
    xi = max(
        working_xi(ft, s),
        most_violated_constraint(kappa * ft, s, loss, beta).slack / loss_scale,
        0.0,
    )
    return MMCResult(
        u=u,
        beta=float(beta_),
        labels=s,
        xi=xi,
        objective=float(0.5 * u @ u + C * xi),
        history=tuple(history),
        n_iter=int(planes.shape[0]),
        n_qp=n_qp,
        status=status,
    )


class MMCMultivariate(LinearTwoClusterMixin, BaseClusterer):
    """Maximum margin clustering that optimises a clustering measure (NMI, Rand index or
    F-measure) instead of the classification error.

    With the joint feature map ``Psi(x, y) = sum_i y_i x_i`` (eq. 9) and ``f_i = w'x_i + b``,
    the labeling is ``ybar = sign(f)`` (eq. 11) and ``w`` solves problem (12)::

        min_{w, b, xi}  w'w / 2 + C xi
        s.t.  sum_i |f_i| - sum_i y'_i f_i >= Delta(y', ybar) - xi   for all y' in {-1, 1}^n,
              xi >= 0,   -l <= sum_i f_i <= l,

    where ``Delta`` is ``1 - NMI``, ``1 - RI`` or ``1 - F_beta`` of the contingency table
    of ``y'`` against ``ybar``. The cutting-plane algorithm (Algorithm 1) keeps a working
    set of labelings ``y'``: it solves (12) on that set by the CCCP (Algorithm 2, each step
    the QP (17)), then adds the most violated ``y'``, found by scanning the ``O(n^2)``
    contingency tables (section III-B.2), until none is violated by more than ``tol``.

    Parameters
    ----------
    loss : {"nmi", "rand", "f", "error"}, default="nmi"
        The measure optimised. ``"error"`` uses ``Delta = 2 x (number of disagreeing
        labels)``, under which the method is the classical MMC (Theorem 2): problem (1)
        with ``C_uni / n = 2 C``.
    beta : float, default=1.5
        ``beta`` of the F-measure (``loss="f"``); ``beta > 1`` penalises splitting a cluster
        more than merging two. The paper uses 1.5.
    C : float, default=0.5
        Weight of the loss slack ``xi`` against ``w'w / 2``, stated so that the same value
        suits any ``N`` and any units: for the per-sample feature map ``Psi / n``, data
        divided by the square root of its largest variance (``scale_``, the top eigenvalue
        of its covariance) and, for ``"error"``, the per-sample loss ``Delta / n``. The
        paper's ``C`` of (12) is ``C / (scale_ n^2)`` (``C / (scale_ n)`` for ``"error"``),
        fitted as ``C_paper_``. Stated in the paper's units instead, the good value falls
        like ``1 / n^2`` and like ``1 / scale^2``: multiplying every feature by 8 (digits as
        pixel counts 0-16 instead of ``[-1, 1]``) acts like a 64 times larger ``C``.
        Larger ``C``: a better fit of the loss, a smaller margin, many more cutting planes.
    l : float, default=0.01
        Class balance: ``|sum_i (w'x_i + b)| <= l``, which keeps the hyperplane near the
        centre of the data (on centred data it bounds the offset, ``|b| <= l / n``).
    tol : float, default=1e-3
        ``epsilon`` of Algorithm 1: stop when the most violated constraint needs at most
        ``tol`` more slack than the current ``xi`` (for ``"error"``, slack per sample).
    cccp_tol : float, default=1e-4
        Algorithm 2 stops when the QP objective changes by less than this fraction (the
        paper's ``alpha% = 0.01%``) or the labels stop changing.
    max_iter : int, default=50
        Maximum number of cutting planes (outer iterations).
    max_cccp_iter : int, default=20
        Maximum number of CCCP steps per cutting plane.
    init : {"auto", "kmeans", "kmeans-standardized", "pca", "random"} or array-like of \
shape (n_samples,), default="kmeans"
        The first labeling ``ybar``: k-means on the features, k-means on standardised
        features, the sign of the projection on the first principal direction, a random
        balanced split, or given labels. ``"auto"`` tries the first three (each distinct
        one once) and keeps the fit with the lowest objective of (12), using no labels.
        From every start the CCCP starts twice, with ``w_0 = 0`` and with ``w_0`` along
        the difference of the two groups' means, and again the lower objective is kept
        (on satellite the ``w_0 = 0`` start alone ended at NMI 0.39, the fit reaches 0.83).
    n_init : int, default=10
        Number of restarts of each k-means start.
    solver : str or None, default=None
        How the QPs (17) are solved. ``None``: through their dual, which has one variable
        per cutting plane (:mod:`clustering._mmc_qp`; a QP it cannot solve goes to
        cvxpy's default solver); a cvxpy solver name (``"CLARABEL"``, ``"OSQP"``, ...): the
        primal in cvxpy (slower; a cross-check).
    random_state : int, RandomState instance or None, default=None
        Seeds k-means and the random start.

    Attributes
    ----------
    labels_ : ndarray of shape (n_samples,)
        Cluster of each sample, 0 or 1; 1 is the side where ``decision_function >= 0``.
    w_ : ndarray of shape (n_features,)
        Normal of the hyperplane.
    b_ : float
        Offset: ``decision_function(X) = X @ w_ - b_``.
    C_paper_ : float
        The ``C`` of the paper's problem (12) for this ``n`` and ``scale_``.
    scale_ : float
        The largest variance of ``X`` along any direction (top eigenvalue of its
        covariance), the unit of ``C``.
    start_ : str
        The start whose fit was kept (``"kmeans"``, ``"kmeans-standardized"``, ``"pca"``,
        ``"random"`` or ``"given"``).
    xi_ : float
        Slack of problem (12) at the solution (over all ``2^n`` constraints).
    objective_ : float
        ``w'w / 2 + C xi_``.
    n_iter_ : int
        Number of cutting planes added.
    n_qp_ : int
        Number of QPs (17) solved (all starts).
    history_ : ndarray of shape (n_iter_,)
        Objective of problem (12) on the working set after each cutting plane.
    init_labels_ : ndarray of shape (n_samples,)
        The labels of the first start (0/1).
    converged_ : bool
        Whether Algorithm 1 stopped on ``tol`` rather than ``max_iter``.
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Names of features seen in ``fit``, when ``X`` has string column names.

    Notes
    -----
    Cost: each cutting plane adds one ``O(n^2)`` contingency scan (``O(n log n)`` for
    sorting plus the table scan) and a few QPs (17); each is solved through its dual, a
    dense QP with one variable per cutting plane (``O(n K d)`` to build, ``O(K^3)`` per
    interior-point step, ``K <= max_iter``); memory ``O(n d + n max_iter)``. Linear kernel
    only, as in the paper's experiments (for a kernel, fit on kernel-PCA coordinates). The
    offset ``b`` (not penalised, as in problem (1)) is included in ``f``; the paper's (10)
    writes the problem without it. A unit common to all features does not change the fit
    (``C`` is relative to ``scale_``); the relative units of the features do, as for any
    margin method.

    References
    ----------
    B. Zhao, J. Kwok, C. Zhang. Maximum margin clustering with multivariate loss function.
    ICDM 2009: eq. (2)-(7), (19) (losses), (12) (problem), Algorithm 1 (cutting plane),
    Algorithm 2 and eq. (17) (CCCP), section III-B.2 (most violated constraint), Theorem 2.

    Examples
    --------
    >>> import numpy as np
    >>> from clustering import MMCMultivariate
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(0, 1, (40, 2)), rng.normal(0, 1, (40, 2)) + [6, 0]])
    >>> model = MMCMultivariate(loss="rand", random_state=0).fit(X)
    >>> sorted(np.bincount(model.labels_).tolist())
    [40, 40]
    """

    _parameter_constraints: dict = {
        "loss": [StrOptions(set(LOSSES))],
        "beta": [Interval(Real, 0, None, closed="neither")],
        "C": [Interval(Real, 0, None, closed="neither")],
        "l": [Interval(Real, 0, None, closed="left")],
        "tol": [Interval(Real, 0, None, closed="left")],
        "cccp_tol": [Interval(Real, 0, None, closed="left")],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "max_cccp_iter": [Interval(Integral, 1, None, closed="left")],
        "init": [StrOptions(set(INITS)), "array-like"],
        "n_init": [Interval(Integral, 1, None, closed="left")],
        "solver": [str, None],
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        loss: str = "nmi",
        *,
        beta: float = 1.5,
        C: float = 0.5,
        l: float = 0.01,
        tol: float = 1e-3,
        cccp_tol: float = 1e-4,
        max_iter: int = 50,
        max_cccp_iter: int = 20,
        init="kmeans",
        n_init: int = 10,
        solver: str | None = None,
        random_state=None,
    ) -> None:
        self.loss = loss
        self.beta = beta
        self.C = C
        self.l = l
        self.tol = tol
        self.cccp_tol = cccp_tol
        self.max_iter = max_iter
        self.max_cccp_iter = max_cccp_iter
        self.init = init
        self.n_init = n_init
        self.solver = solver
        self.random_state = random_state

    def _fit(self, X):
        if self.loss == "f" and X.shape[0] < 3:
            raise ValueError(
                "The F-measure loss needs at least 3 samples: with 2 there is a single pair, "
                "and the pairwise F-measure scores one cluster as well as two. Use more "
                "samples or another loss."
            )
        random_state = check_random_state(self.random_state)
        n = X.shape[0]
        mean = X.mean(axis=0)
        Xc = X - mean
        self.scale_ = _largest_variance(Xc)
        # Normalised units (solve_mmc): the data divided by the square root of its largest
        # variance, the feature map per sample (Psi / n) and, for the error loss, the loss
        # per sample (L = n). Then C means the same at any N and in any units:
        # paper C = C L / (scale_ n^2).
        L = float(n) if self.loss == "error" else 1.0
        Xt = Xc / np.sqrt(self.scale_)
        self.C_paper_ = float(self.C * L / (self.scale_ * n**2))
        starts = _start_labels(X, self.init, n_init=self.n_init, random_state=random_state)
        self.init_labels_ = starts[0][1].copy()
        kwargs = dict(
            loss=self.loss,
            beta=self.beta,
            C=float(self.C),
            B=float(self.l) / L,
            loss_scale=L,
            tol=self.tol,
            cccp_tol=self.cccp_tol,
            max_iter=self.max_iter,
            max_cccp_iter=self.max_cccp_iter,
            solver=self.solver,
        )
        # From each start the CCCP starts twice, w_0 = 0 and w_0 from the labels' means,
        # and the fit keeps the lowest objective of (12) over all of them (label-free).
        results = []
        for name, labels0 in starts:
            for flag in (False, True):
                result = solve_mmc(Xt, 2 * labels0 - 1, w0_from_labels=flag, **kwargs)
                results.append((result.objective, len(results), name, result))
        _, _, self.start_, result = min(results, key=lambda r: r[:2])
        if result.status == "max_iter":
            warnings.warn(
                f"MMCMultivariate did not converge in max_iter={self.max_iter} cutting planes; "
                "returning the last hyperplane. Increase max_iter or tol.",
                ConvergenceWarning,
                stacklevel=2,
            )
        # Back to the paper's units: f = (L / n) (Xt u + beta).
        self.w_ = (L / (n * np.sqrt(self.scale_))) * result.u
        self.b_ = float(self.w_ @ mean - (L / n) * result.beta)
        # Labels exactly as decision_function computes them (no rounding disagreement).
        self.labels_ = (X @ self.w_ - self.b_ >= 0).astype(np.intp)
        self.xi_ = float(L * result.xi)
        self.objective_ = float(0.5 * self.w_ @ self.w_ + self.C_paper_ * self.xi_)
        self.n_iter_ = result.n_iter
        self.n_qp_ = sum(r[3].n_qp for r in results)
        self.history_ = np.asarray(result.history, dtype=float) * (L**2 / (n**2 * self.scale_))
        self.converged_ = result.status == "converged"


_LOSS_NAMES = {"nmi": "NMI", "rand": "Rand index", "f": "F-measure", "error": "error rate"}
_C_PARAM = {
    loss: Param(
        "C",
        "float",
        0.5,
        "Weight of the clustering loss against a wide margin, per sample and relative to "
        "the data's largest variance (the same value suits any N and any common unit). "
        "Larger: fits the loss harder (slower, more cutting planes); smaller: wider margin.",
        low=1e-4,
        high=100.0,
        log=True,
    )
    for loss in LOSSES
}
_L_PARAM = Param(
    "l",
    "float",
    0.01,
    "Class balance: how far the sum of decision values may stray from 0. Small keeps the "
    "boundary through the middle of the data; large allows unequal clusters (or a trivial "
    "one-cluster answer).",
    low=0.0,
    high=10.0,
    label="l (class balance)",
)
_BETA_PARAM = Param(
    "beta",
    "float",
    1.5,
    "β of the F-measure: above 1, splitting a true cluster costs more than merging two.",
    low=0.5,
    high=5.0,
    label="β",
)
_MMC_PAPER = "Zhao, Kwok & Zhang, Maximum Margin Clustering with Multivariate Loss Function"
_MMC_COST = (
    "Per cutting plane: O(N^2) contingency scan + a few small dual QPs (one variable per "
    "plane; CCCP); tens of planes, up to 3 starts; memory O(N d)"
)
_MMC_TEST = {"n_init": 2, "max_iter": 15, "tol": 1e-2}

SPECS = tuple(
    AlgorithmSpec(
        key=f"mmc-{loss}",
        name=f"MMC ({_LOSS_NAMES[loss]} loss)",
        factory=partial(MMCMultivariate, loss=loss, C=_C_PARAM[loss].default),
        params=(_C_PARAM[loss], _L_PARAM, *((_BETA_PARAM,) if loss == "f" else ())),
        summary=(
            "Classical maximum margin clustering (hinge loss) via the cutting-plane "
            "algorithm: the largest-margin linear split."
            if loss == "error"
            else f"Maximum margin clustering that directly optimises the {_LOSS_NAMES[loss]} "
            "of the split: cutting planes over labelings, CCCP for the margin."
        ),
        cost=_MMC_COST,
        linear=True,
        paper=_MMC_PAPER,
        binary_only=True,
        test_params=_MMC_TEST,
    )
    for loss in ("nmi", "rand", "f", "error")
)
