"""Maximum margin clustering with a multivariate loss (Zhao, Kwok & Zhang, SDM 2009): the
cutting-plane algorithm whose restricted problems are solved by the constrained
concave-convex procedure (CCCP)."""

from __future__ import annotations

import time
import warnings
from dataclasses import dataclass
from functools import partial
from numbers import Integral, Real

import cvxpy as cp
import numpy as np
from sklearn.base import BaseEstimator, ClusterMixin
from sklearn.exceptions import ConvergenceWarning

from . import _cvx
from ._base import LinearTwoClusterMixin, initial_labels
from ._compat import (
    Interval,
    StrOptions,
    _fit_context,
    check_random_state,
    validate_data,
)
from ._mmc_losses import LOSSES, loss_of_labelings, most_violated_constraint
from ._spec import AlgorithmSpec, Param
from ._validation import check_clusterable

INITS = ("kmeans", "random")


@dataclass(frozen=True)
class MMCResult:
    """What :func:`solve_mmc` returns (centred coordinates: ``f = Xc @ w + b``).

    Attributes
    ----------
    w : ndarray of shape (d,)
    b : float
    labels : ndarray of shape (n,)
        ``sign(f)`` in ``{-1, +1}``.
    xi : float
        Slack of the final problem (12), ``max(0, max over all y' of the constraint)``.
    history : tuple of float
        Objective ``w'w / 2 + C xi`` of problem (12) after each cutting-plane iteration.
    n_iter : int
        Cutting-plane iterations (constraints added).
    n_qp : int
        QPs (17) solved in total.
    status : str
        ``"converged"`` (no constraint violated by more than ``tol``) or ``"max_iter"``.
    """

    w: np.ndarray
    b: float
    labels: np.ndarray
    xi: float
    history: tuple[float, ...]
    n_iter: int
    n_qp: int
    status: str


class _CCCPProblem:
    """The QP (17), built once per fit with room for ``max_constraints`` cutting planes.

    Constraint ``k`` reads ``A_k w + c_k b + Delta_k <= xi`` with ``A_k = (y'_k - s)' Xc``,
    ``c_k = sum(y'_k - s)`` and ``Delta_k = Delta(y'_k, s)``, where ``s = sign(f_t)`` is the
    CCCP linearisation point; unused rows are all zero (``0 <= xi``, implied by
    ``xi >= 0``), so adding a plane or moving ``s`` only changes parameter values.
    """

    def __init__(
        self, d: int, n: int, C: float, l: float, max_constraints: int, loss_scale: float = 1.0
    ):
        self.w = cp.Variable(d, name="w")
        self.b = cp.Variable(name="b")
        self.xi = cp.Variable(nonneg=True, name="xi")
        self.A = cp.Parameter((max_constraints, d), name="A", value=np.zeros((max_constraints, d)))
        self.c = cp.Parameter(max_constraints, name="c", value=np.zeros(max_constraints))
        self.delta = cp.Parameter(max_constraints, name="Delta", value=np.zeros(max_constraints))
        # Solved in the variables u = n w, beta = n b (so w = u / n, b = beta / n): the
        # constraints sum over n samples while the loss stays in [0, 1], so w shrinks like
        # 1 / n and the objective like 1 / n^2 (|w| ~ 1e-3, objective ~ 1e-6 at n = 800),
        # below the QP solver's tolerances. Multiplying the objective by n^2 gives the same
        # minimiser with u = O(1):  u'u / 2 + C n^2 xi  s.t.  A u / n + c beta / n + Delta <= xi.
        # A loss in [0, loss_scale] (2n for the error loss) is divided by loss_scale too:
        # xi = loss_scale * (the variable xi), C n^2 loss_scale its weight, Delta given / scale.
        self.n = n
        self.loss_scale = float(loss_scale)
        weight = C * n * n * self.loss_scale
        objective = cp.Minimize(0.5 * cp.sum_squares(self.w) + weight * self.xi)
        constraints = [
            (self.A @ self.w + cp.multiply(self.c, self.b)) / (n * self.loss_scale) + self.delta
            <= self.xi,
            # Class balance -l <= sum_i (w'x_i + b) <= l; on centred data the sum is n b = beta.
            cp.abs(self.b) <= l,
        ]
        self.problem = cp.Problem(objective, constraints)


def _initial_hyperplane(Xc: np.ndarray, s: np.ndarray, loss_scale: float):
    """``w_0`` of Algorithm 2 from the start labels ``s``: the difference of the two groups'
    means, offset half-way between their mean decision values, scaled so that
    ``sum_i |f_i| = 0.1 loss_scale`` (the loss is in ``[0, loss_scale]``).

    With ``w_0 = 0`` every ``f_i`` is 0, the first most violated constraint is a labeling of
    maximal loss unrelated to the start, and the first CCCP step moves to a hyperplane that
    ignores it: on satellite the k-means start (NMI 0.76) and even the true classes ended at
    NMI 0.39 (default C), while this start ends at 0.83 with a lower objective (12). The
    result barely depends on the scale (0.01-1 gave NMI 0.832-0.834 there)."""
    d = Xc.shape[1]
    if not ((s > 0).any() and (s < 0).any()):
        return np.zeros(d), 0.0
    v = Xc[s > 0].mean(axis=0) - Xc[s < 0].mean(axis=0)
    f0 = Xc @ v
    b0 = -0.5 * (f0[s > 0].mean() + f0[s < 0].mean())
    total = float(np.abs(f0 + b0).sum())
    if total <= 0 or not np.isfinite(total):
        return np.zeros(d), 0.0
    scale = 0.1 * loss_scale / total
    return v * scale, float(b0 * scale)


def solve_mmc(
    Xc: np.ndarray,
    labels0: np.ndarray,
    *,
    loss: str,
    beta: float,
    C: float,
    l: float,
    tol: float,
    cccp_tol: float,
    max_iter: int,
    max_cccp_iter: int,
    solver: str | None,
    w0_from_labels: bool = True,
) -> MMCResult:
    """Algorithm 1 (cutting plane) with Algorithm 2 (CCCP) on centred data ``Xc``.

    ``labels0`` (in ``{-1, +1}``) is the first linearisation point ``ybar``; ``w_0`` is
    :func:`_initial_hyperplane` of it (``w0_from_labels``) or zero.
    """
    n, d = Xc.shape
    qp = _CCCPProblem(d, n, C, l, max_iter, loss_scale=float(n) if loss == "error" else 1.0)
    planes: list[np.ndarray] = []
    s = np.where(labels0 > 0, 1.0, -1.0)
    if w0_from_labels:
        w, b = _initial_hyperplane(Xc, s, qp.loss_scale)
    else:
        w, b = np.zeros(d), 0.0
    history: list[float] = []
    n_qp = 0
    status = "max_iter"
    advice = "Try another solver (solver='SCS'), a smaller C or a larger l."

    def current_xi(f, s):
        if not planes:
            return 0.0
        return max(0.0, max(loss_of_labelings(loss, y, s, beta) - (s - y) @ f for y in planes))

    for _ in range(max_iter):
        f = Xc @ w + b
        mv = most_violated_constraint(f, s, loss, beta)
        xi_now = current_xi(f, s)
        # At least one plane: w_0 is only a start, not a solution of (12).
        if planes and (mv.slack <= xi_now + tol or any(np.array_equal(mv.y, y) for y in planes)):
            status = "converged"
            break
        planes.append(mv.y)
        k = len(planes)
        # Algorithm 2: CCCP on problem (12) restricted to the planes, from s.
        previous = np.inf
        for _ in range(max_cccp_iter):
            G = np.asarray(planes) - s  # rows y'_k - s
            A = np.zeros_like(qp.A.value)
            c = np.zeros_like(qp.c.value)
            delta = np.zeros_like(qp.delta.value)
            A[:k] = G @ Xc
            c[:k] = G.sum(axis=1)
            delta[:k] = [loss_of_labelings(loss, y, s, beta) / qp.loss_scale for y in planes]
            qp.A.value, qp.c.value, qp.delta.value = A, c, delta
            value = _cvx.solve(
                qp.problem, solver=solver, what="the CCCP subproblem (17) of MMC", advice=advice
            )
            n_qp += 1
            w, b = np.asarray(qp.w.value, dtype=float) / n, float(qp.b.value) / n
            s_new = np.where(Xc @ w + b >= 0, 1.0, -1.0)
            done = np.array_equal(s_new, s) or abs(previous - value) <= cccp_tol * abs(value)
            s, previous = s_new, value
            if done:
                break
        history.append(0.5 * w @ w + C * current_xi(Xc @ w + b, s))

    f = Xc @ w + b
    s = np.where(f >= 0, 1.0, -1.0)
    xi = max(current_xi(f, s), most_violated_constraint(f, s, loss, beta).slack, 0.0)
    return MMCResult(
        w=w,
        b=b,
        labels=s,
        xi=xi,
        history=tuple(history),
        n_iter=len(planes),
        n_qp=n_qp,
        status=status,
    )


class MMCMultivariate(LinearTwoClusterMixin, ClusterMixin, BaseEstimator):
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
    C : float, default=0.1
        Weight of the loss slack ``xi`` against ``w'w / 2``, for the per-sample feature map
        ``Psi / n`` (and, for ``"error"``, the per-sample loss ``Delta / n``): the paper's
        ``C`` of (12) is ``C / n^2`` (``C / n^3`` for ``"error"``, fitted as ``C_paper_``).
        With the paper's own ``C`` the good value falls like ``1 / n^2`` (1e-5 at n = 200,
        1e-6 at n = 800 on two Gaussians), so a fixed default collapsed to accuracy about
        0.6 from n = 800; per sample, ``C = 0.1`` gives 0.92-0.93 from n = 200 to 6400
        (``bench/bench_baselines_opt.py``) and NMI 0.81 on digits 3 vs 8. Larger ``C``: a
        better fit of the loss, a smaller margin, many more cutting planes (and, measured on
        two Gaussians at n = 800, accuracy 0.86 at C = 1 and 0.58 at C = 10 for the NMI
        loss). Use ``C=100`` for ``loss="error"`` (the registry's default).
    l : float, default=0.01
        Class balance: ``|sum_i (w'x_i + b)| <= l``, which keeps the hyperplane near the
        centre of the data (on centred data it bounds the offset, ``|b| <= l / n``).
    tol : float, default=1e-3
        ``epsilon`` of Algorithm 1: stop when the most violated constraint needs at most
        ``tol`` more slack than the current ``xi``.
    cccp_tol : float, default=1e-4
        Algorithm 2 stops when the QP objective changes by less than this fraction (the
        paper's ``alpha% = 0.01%``) or the labels stop changing.
    max_iter : int, default=50
        Maximum number of cutting planes (outer iterations).
    max_cccp_iter : int, default=20
        Maximum number of CCCP steps per cutting plane.
    init : {"kmeans", "random"} or array-like of shape (n_samples,), default="kmeans"
        The first labeling ``ybar`` (k-means, a random balanced split, or given). From it
        the CCCP starts twice, with ``w_0 = 0`` and with ``w_0`` along the difference of
        the two groups' means, and the fit keeps the lower objective of (12) (label-free;
        on satellite the ``w_0 = 0`` start alone ended at NMI 0.39, the fit reaches 0.83).
    n_init : int, default=10
        Number of k-means restarts.
    solver : str or None, default=None
        cvxpy solver for the QPs (``None``: Clarabel if installed).
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
        The ``C`` of the paper's problem (12) for this ``n``.
    xi_ : float
        Slack of problem (12) at the solution (over all ``2^n`` constraints).
    objective_ : float
        ``w'w / 2 + C xi_``.
    n_iter_ : int
        Number of cutting planes added.
    n_qp_ : int
        Number of QPs (17) solved (both CCCP starts).
    history_ : ndarray of shape (n_iter_,)
        Objective of problem (12) on the working set after each cutting plane.
    init_labels_ : ndarray of shape (n_samples,)
        The starting labels (0/1).
    converged_ : bool
        Whether Algorithm 1 stopped on ``tol`` rather than ``max_iter``.
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Names of features seen in ``fit``, when ``X`` has string column names.

    Notes
    -----
    Cost: each cutting plane adds one ``O(n^2)`` contingency scan (``O(n log n)`` for
    sorting plus the table scan) and a few QPs with ``d + 2`` variables and at most
    ``max_iter`` constraints (built once per fit, re-solved with new parameter values);
    memory ``O(n d + max_iter d)``. Linear kernel only, as in the paper's experiments (for a
    kernel, fit on kernel-PCA coordinates). The offset ``b`` (not penalised, as in problem
    (1)) is included in ``f``; the paper's (10) writes the problem without it. The result
    depends on the units of the features, like any margin method.

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
        C: float = 0.1,
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

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Cluster ``X`` into two groups.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data; at least 2 samples.
        y : Ignored
            Not used, present for API consistency.

        Returns
        -------
        self : MMCMultivariate
        """
        X = validate_data(self, X, dtype=np.float64, ensure_min_samples=2)
        check_clusterable(X)
        random_state = check_random_state(self.random_state)
        labels0 = initial_labels(X, self.init, n_init=self.n_init, random_state=random_state)
        self.init_labels_ = labels0.copy()
        mean = X.mean(axis=0)
        n = X.shape[0]
        # The paper's C multiplies a slack in loss units while the margin term of (12)
        # sums over n samples, so a fixed paper C means a different trade-off at every n
        # (the good C falls like 1 / n^2: 1e-5 at n = 200, 1e-6 at n = 800 on two
        # Gaussians). ``C`` is the trade-off for the per-sample feature map Psi / n
        # (and, for the error loss, the per-sample error Delta / n): paper C = C / n^2
        # (C / n^3 for "error").
        self.C_paper_ = float(self.C / n**3 if self.loss == "error" else self.C / n**2)
        kwargs = dict(
            loss=self.loss,
            beta=self.beta,
            C=self.C_paper_,
            l=self.l,
            tol=self.tol,
            cccp_tol=self.cccp_tol,
            max_iter=self.max_iter,
            max_cccp_iter=self.max_cccp_iter,
            solver=self.solver,
        )
        # Two CCCP starts from the same labels, w_0 = 0 and w_0 from the labels' means;
        # the fit keeps the lower objective of (12) (label-free). Each alone loses on some
        # data: w_0 = 0 took satellite from the k-means start to NMI 0.39 (objective 1.93e-8;
        # the other start 0.83, 1.86e-8), the means start took digits 3 vs 8 to 0.785
        # (7.447e-7; w_0 = 0: 0.810, 7.442e-7), default C.
        results = [
            solve_mmc(X - mean, 2 * labels0 - 1, w0_from_labels=flag, **kwargs)
            for flag in (False, True)
        ]
        result = min(results, key=lambda r: 0.5 * r.w @ r.w + self.C_paper_ * r.xi)
        if result.status == "max_iter":
            warnings.warn(
                f"MMCMultivariate did not converge in max_iter={self.max_iter} cutting planes; "
                "returning the last hyperplane. Increase max_iter or tol.",
                ConvergenceWarning,
                stacklevel=2,
            )
        self.w_ = result.w
        self.b_ = float(result.w @ mean - result.b)
        # Labels exactly as decision_function computes them (no rounding disagreement).
        self.labels_ = (X @ self.w_ - self.b_ >= 0).astype(np.intp)
        self.xi_ = result.xi
        self.objective_ = float(0.5 * result.w @ result.w + self.C_paper_ * result.xi)
        self.n_iter_ = result.n_iter
        self.n_qp_ = sum(r.n_qp for r in results)
        self.history_ = np.asarray(result.history, dtype=float)
        self.converged_ = result.status == "converged"
        return self


_LOSS_NAMES = {"nmi": "NMI", "rand": "Rand index", "f": "F-measure", "error": "error rate"}
_C_PARAM = {
    loss: Param(
        "C",
        "float",
        100.0 if loss == "error" else 0.1,
        "Weight of the clustering loss against a wide margin, per sample (the same value "
        "suits any N). Larger: fits the loss harder (slower, more cutting planes); smaller: "
        "wider margin. Depends on the data's units.",
        low=1e-3,
        high=1e4,
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
    "Per cutting plane: O(N^2) contingency scan + a few QPs with d + 2 variables (CCCP); "
    "tens of planes; memory O(N d)"
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


def grid_search_mmc(
    X,
    y,
    *,
    loss: str = "nmi",
    beta: float = 1.5,
    Cs=(0.01, 0.03, 0.1, 0.3, 1.0),
    ls=(0.0, 0.01),
    n_runs: int = 3,
    random_state: int = 0,
    **params,
) -> dict:
    """The MMC paper's protocol for its Tables III-V: for every ``(C, l)`` on the grid, fit
    ``MMCMultivariate(loss)`` from ``n_runs`` k-means starts (seeds ``random_state + r``),
    average the NMI, Rand index and F-beta against the true labels, and keep the grid point
    with the best average of the measure the loss targets (NMI for ``"nmi"`` and
    ``"error"``, Rand for ``"rand"``, F for ``"f"``).

    Returns
    -------
    dict
        ``{"loss", "C", "l", "nmi", "rand", "f", "seconds", "grid"}``: the chosen parameters,
        the mean measures there, the mean fit time, and one row per grid point (same keys).
    """
    from . import metrics

    target = {"nmi": "nmi", "error": "nmi", "rand": "rand", "f": "f"}[loss]
    rows = []
    for C in Cs:
        for l in ls:
            scores = {"nmi": [], "rand": [], "f": [], "seconds": []}
            for r in range(n_runs):
                start = time.perf_counter()
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", ConvergenceWarning)
                    labels = MMCMultivariate(
                        loss, beta=beta, C=C, l=l, n_init=1, random_state=random_state + r, **params
                    ).fit_predict(X)
                scores["seconds"].append(time.perf_counter() - start)
                scores["nmi"].append(metrics.nmi(y, labels))
                scores["rand"].append(metrics.rand_index(y, labels))
                scores["f"].append(metrics.f_measure(y, labels, beta=beta))
            rows.append(
                {"loss": loss, "C": C, "l": l, **{k: float(np.mean(v)) for k, v in scores.items()}}
            )
    best = max(rows, key=lambda row: row[target])
    return {**best, "grid": rows}
