"""Maximum volume clustering (Niu, Dai, Shang & Sugiyama, AISTATS 2011): the soft-label
algorithm (sequential quadratic programming) and the registry entries of both algorithms.

The hard-label algorithm (an SDP) is :mod:`clustering.mvc_hard`, the matrices ``Q`` both use
(kernels, connected affinity graphs, Laplacians) are :mod:`clustering._mvc_graph`; their public
names stay importable from here."""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from numbers import Integral, Real

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from ._base import BaseClusterer
from ._compat import Interval, StrOptions
from ._mvc_graph import (  # noqa: F401  (re-exported: clustering.mvc keeps its public names)
    AFFINITIES,
    KERNELS,
    _validate_Q,
    affinity_matrix,
    graph_components,
    graph_laplacian,
    rbf_kernel_matrix,
)
from ._spec import AlgorithmSpec, Param
from .mvc_hard import HardLabelMVC, build_hard_label_sdp  # noqa: F401

# ------------------------------------------------------------------------------- SL-MVC


@dataclass(frozen=True)
class SQPResult:
    """What :func:`solve_soft_label_mvc` returns.

    Attributes
    ----------
    h : ndarray of shape (n,)
        Soft response vector, ``||h||_2 = 1``.
    eta : float
        Multiplier of ``||h||_2 = 1`` at the last iterate.
    history : tuple of float
        Objective of (4), ``-2 ||h||_1 + gamma h'Qh``, at each iterate.
    n_iter : int
    status : str
        ``"converged"`` or ``"max_iter"``.
    """

    h: np.ndarray
    eta: float
    history: tuple[float, ...]
    n_iter: int
    status: str


def _multiplier(r: np.ndarray, h: np.ndarray, balance_active: bool) -> float:
    """Least-squares ``eta`` in ``r = eta h (+ kappa 1)``: the QP's multiplier of the norm
    constraint (exact at the QP optimum; eq. (6) of the paper when the balance is inactive)."""
    if not balance_active:
        return float(r @ h / (h @ h))
    B = np.column_stack([h, np.ones_like(h)])
    coef, *_ = np.linalg.lstsq(B, r, rcond=None)
    return float(coef[0])


class _KKTStep:
    """The QP (5) in closed form, in the eigenbasis of Q (``O(n^2)`` per step)."""

    def __init__(self, evals, evecs, gamma, b):
        self.evals, self.V, self.gamma, self.b = evals, evecs, gamma, b

    def __call__(self, h, eta, g):
        lam = self.gamma * self.evals - eta  # eigenvalues of P = gamma Q - eta I (> 0)
        V = self.V

        def pinv(x):
            return V @ ((V.T @ x) / lam[:, None] if x.ndim == 2 else (V.T @ x) / lam)

        ones = np.ones_like(h)
        r0 = (1.0 - h @ h) / 2.0  # h'p = r0  <=>  2 p'h + h'h = 1
        # min p'Pp + 2 g'p s.t. A p = r  =>  p = Pinv(A'nu - g), (A Pinv A') nu = r + A Pinv g.
        Pg = pinv(g)

        def solve(A, r):
            PA = pinv(A.T)
            nu = np.linalg.solve(A @ PA, r + A @ Pg)
            return PA @ nu - Pg

        p = solve(h[None, :], np.array([r0]))
        total = ones @ (h + p)
        if abs(total) <= self.b * (1 + 1e-9):
            return p, False
        side = np.sign(total) * self.b
        A = np.vstack([h, ones])
        p = solve(A, np.array([r0, side - ones @ h]))
        return p, True


def solve_soft_label_mvc(
    Q: np.ndarray,
    *,
    gamma: float,
    b: float,
    tol: float,
    max_iter: int,
    eta0: float = -1e-3,
) -> SQPResult:
    """Algorithm 1 of the MVC paper: SQP for (4), ``min -2||h||_1 + gamma h'Qh`` subject to
    ``||h||_2 = 1`` and ``|h'1| <= b``.

    Starts from ``h_0 = sgn(v_2 - mean(v_2)) / ||.||`` (``v_2``: eigenvector of the second
    smallest eigenvalue of ``Q``) and ``eta_0 = -0.001``. Each step solves (5) for ``p``, sets
    ``h <- h + p`` and takes the QP's multiplier of the norm constraint as the new ``eta``
    (eq. (6), which we read with ``eta_t p_t`` where the paper prints ``eta_t I``). When
    ``gamma Q - eta I`` is not positive definite, ``eta`` is lowered to keep (5) convex (the
    usual SQP Hessian modification).
    """
    n = Q.shape[0]
    evals, evecs = np.linalg.eigh((Q + Q.T) / 2.0)
    v2 = evecs[:, 1] if n > 1 else evecs[:, 0]
    h = np.sign(v2 - v2.mean())
    h[h == 0] = 1.0
    h /= np.linalg.norm(h)
    eta = eta0
    step = _KKTStep(evals, evecs, gamma, b)
    margin = 1e-8 * max(1.0, gamma * abs(evals).max())
    eta_cap = gamma * evals.min() - margin

    def objective(h):
        return float(-2.0 * np.abs(h).sum() + gamma * h @ Q @ h)

    history = [objective(h)]
    status = "max_iter"
    n_iter = 0
    for n_iter in range(1, max_iter + 1):  # noqa: B007
        eta = min(eta, eta_cap)
        sgn = np.where(h >= 0, 1.0, -1.0)
        g = gamma * Q @ h - sgn  # the linear term of (5) is 2 p'(gamma Q h - sgn(h))
        p, active = step(h, eta, g)
        r = gamma * Q @ (h + p) - eta * p - sgn
        eta_new = _multiplier(r, h, active)
        h_new = h + p
        change = float(p @ p + (eta_new - eta) ** 2)
        h, eta = h_new, eta_new
        history.append(objective(h))
        if change <= tol:
            status = "converged"
            break
    return SQPResult(h=h, eta=eta, history=tuple(history), n_iter=n_iter, status=status)


class SoftLabelMVC(BaseClusterer):
    """Soft-label maximum volume clustering (SL-MVC): the two-cluster split whose soft
    response vector lies in the largest-volume part of the ellipsoid ``h'Qh <= 1``.

    Solves (4) of the MVC paper::

        min_h  -2 ||h||_1 + gamma h'Qh   s.t.  ||h||_2 = 1,  |h'1| <= b

    by sequential quadratic programming (Algorithm 1, subproblem (5), update (6)) from the
    second eigenvector of ``Q``; the clusters are the signs of ``h``. ``Q`` is a graph
    Laplacian (the paper: the normalised Laplacian of a k-NN cosine-similarity graph) or a
    kernel matrix. With ``Q`` the unnormalised Laplacian, ``gamma -> infinity`` and ``b = 0``
    it is the RatioCut relaxation of spectral clustering (Theorem 1).

    Parameters
    ----------
    gamma : float, default=0.01
        Weight of the volume term ``h'Qh`` against the confidence term ``-2||h||_1``. Large:
        spectral clustering; small: pushes ``|h_i|`` towards equal values. The paper uses
        0.01.
    b : float, default=1e-7
        Class balance ``|h'1| <= b`` on the unit-norm ``h``; the paper uses ``1e-7`` (strict)
        and ``1`` (loose) for text.
    affinity : {"knn", "knn-cosine", "rbf"}, default="knn"
        Similarity graph whose Laplacian is ``Q`` (ignored when ``Q`` is ``"kernel"`` or a
        callable). ``"knn"``: k nearest neighbours by Euclidean distance, weight 1;
        ``"knn-cosine"``: k nearest neighbours by cosine similarity, weighted by it (the
        paper's choice for images and text; needs features whose direction carries the
        information, such as pixel counts); ``"rbf"``: full Gaussian similarity.
    n_neighbors : int, default=5
        ``k`` of the k-NN graph (the paper picks the best of 3-8).
    normalized : bool, default=True
        Normalised Laplacian ``I - D^{-1/2} W D^{-1/2}`` (the paper's) or ``D - W``.
    Q : {"laplacian", "kernel"} or callable, default="laplacian"
        ``"laplacian"``: the graph Laplacian above; ``"kernel"``: the Gaussian kernel matrix;
        a callable ``Q(X)`` returns the ``(n, n)`` matrix.
    sigma2 : float or None, default=None
        Gaussian width ``sigma^2`` in ``exp(-||x - x'||^2 / (2 sigma^2))`` (``affinity="rbf"``
        or ``Q="kernel"``); ``None``: half the median squared distance.
    tol : float, default=1e-6
        Stop when ``||h_{t+1} - h_t||^2 + (eta_{t+1} - eta_t)^2 <= tol`` (the paper's epsilon).
    max_iter : int, default=100
        Maximum number of SQP steps.

    Attributes
    ----------
    labels_ : ndarray of shape (n_samples,)
        Cluster of each sample, 0 or 1: 1 where ``h_ > 0``.
    h_ : ndarray of shape (n_samples,)
        Soft response vector (``||h_||_2 = 1``).
    eta_ : float
        Multiplier of the unit-norm constraint at the solution.
    objective_ : float
        ``-2 ||h_||_1 + gamma h_'Q h_``.
    n_iter_ : int
        SQP steps run.
    history_ : ndarray of shape (n_iter_ + 1,)
        The objective at the start and after each step.
    converged_ : bool
        Whether the step fell below ``tol`` before ``max_iter``.
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Names of features seen in ``fit``, when ``X`` has string column names.

    Notes
    -----
    Transductive: it labels the samples it was fitted on and has no ``predict``. Cost
    ``O(n^2 d)`` for the graph, ``O(n^3)`` for the eigendecomposition of ``Q`` (done once),
    then ``O(n^2)`` per SQP step; memory ``O(n^2)``.

    References
    ----------
    G. Niu, B. Dai, L. Shang, M. Sugiyama. Maximum volume clustering. AISTATS 2011:
    eq. (4) (SL-MVC), Algorithm 1 with (5) and (6), section 3.2 (initialisation),
    Theorem 1 (spectral clustering), section 5 (Q and parameters).

    Examples
    --------
    >>> import numpy as np
    >>> from clustering import SoftLabelMVC
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(0, 1, (40, 2)), rng.normal(0, 1, (40, 2)) + [8, 0]])
    >>> model = SoftLabelMVC().fit(X)
    >>> sorted(np.bincount(model.labels_).tolist())
    [40, 40]
    """

    _parameter_constraints: dict = {
        "gamma": [Interval(Real, 0, None, closed="neither")],
        "b": [Interval(Real, 0, None, closed="left")],
        "affinity": [StrOptions(set(AFFINITIES))],
        "n_neighbors": [Interval(Integral, 1, None, closed="left")],
        "normalized": ["boolean"],
        "Q": [StrOptions({"laplacian", "kernel"}), callable],
        "sigma2": [Interval(Real, 0, None, closed="neither"), None],
        "tol": [Interval(Real, 0, None, closed="left")],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
    }

    _min_samples = 3

    def __init__(
        self,
        gamma: float = 0.01,
        *,
        b: float = 1e-7,
        affinity: str = "knn",
        n_neighbors: int = 5,
        normalized: bool = True,
        Q="laplacian",
        sigma2: float | None = None,
        tol: float = 1e-6,
        max_iter: int = 100,
    ) -> None:
        self.gamma = gamma
        self.b = b
        self.affinity = affinity
        self.n_neighbors = n_neighbors
        self.normalized = normalized
        self.Q = Q
        self.sigma2 = sigma2
        self.tol = tol
        self.max_iter = max_iter

    def _build_Q(self, X):
        if callable(self.Q):
            return _validate_Q(self.Q(X), X.shape[0])
        if self.Q == "kernel":
            return rbf_kernel_matrix(X, self.sigma2)
        W = affinity_matrix(X, self.affinity, self.n_neighbors, self.sigma2)
        return graph_laplacian(W, self.normalized)

    def _fit(self, X):
        Q = self._build_Q(X)
        result = solve_soft_label_mvc(
            Q, gamma=self.gamma, b=self.b, tol=self.tol, max_iter=self.max_iter
        )
        if result.status == "max_iter":
            warnings.warn(
                f"SoftLabelMVC did not converge in max_iter={self.max_iter} SQP steps; returning "
                "the last iterate. Increase max_iter or tol.",
                ConvergenceWarning,
                stacklevel=2,
            )
        self.h_ = result.h
        self.eta_ = result.eta
        self.labels_ = (result.h > 0).astype(np.intp)
        self.objective_ = result.history[-1]
        self.n_iter_ = result.n_iter
        self.history_ = np.asarray(result.history, dtype=float)
        self.converged_ = result.status == "converged"


# ------------------------------------------------------------------------------- specs

_PAPER = "Niu, Dai, Shang & Sugiyama, Maximum Volume Clustering"

SPECS = (
    AlgorithmSpec(
        key="mvc-soft",
        name="Soft-label MVC",
        factory=SoftLabelMVC,
        params=(
            Param(
                "gamma",
                "float",
                0.01,
                "Weight of the volume term h'Qh. Large: behaves like spectral clustering; "
                "small: pushes all soft labels to similar confidence.",
                low=1e-4,
                high=1e4,
                log=True,
                label="γ (volume weight)",
            ),
            Param(
                "affinity",
                "choice",
                "knn",
                "The similarity graph behind Q: Euclidean nearest neighbours, cosine nearest "
                "neighbours (the paper's, for images and text) or a full Gaussian similarity.",
                choices=AFFINITIES,
                label="graph",
            ),
            Param(
                "n_neighbors",
                "int",
                5,
                "Neighbours per point in the k-NN graph. More: smoother, fewer small islands.",
                low=2,
                high=30,
                label="k (neighbours)",
            ),
            Param(
                "b",
                "float",
                1e-7,
                "Class balance |h'1| ≤ b on the unit-length soft labels: tiny forces equal "
                "total confidence in both clusters; about 1 lets sizes differ.",
                low=1e-8,
                high=10.0,
                log=True,
                label="b (class balance)",
            ),
        ),
        summary="Maximum volume clustering, soft labels: the split whose soft-label vector "
        "lies in the largest-volume region of h'Qh ≤ 1, by sequential QP.",
        cost="O(N^2 d + N^3) time (graph, one eigendecomposition), then O(N^2) per SQP "
        "step; memory O(N^2)",
        paper=_PAPER,
        binary_only=True,
    ),
    AlgorithmSpec(
        key="mvc-hard",
        name="Hard-label MVC (SDP)",
        factory=HardLabelMVC,
        params=(
            Param(
                "gamma",
                "float",
                1.0,
                "Weight of the volume term against the labels' confidence.",
                low=1e-3,
                high=1e3,
                log=True,
                label="γ (volume weight)",
            ),
            Param(
                "sigma2",
                "float",
                10.0,
                "Gaussian kernel width σ²: larger treats farther points as similar.",
                low=1e-2,
                high=1e4,
                log=True,
                label="σ² (kernel width)",
            ),
            Param(
                "kernel",
                "choice",
                "rbf",
                "The kernel matrix Q: Gaussian (the paper's) or linear.",
                choices=KERNELS,
            ),
        ),
        summary="Maximum volume clustering, hard labels: an SDP relaxation of the label "
        "matrix yy', rounded by its leading eigenvector.",
        cost="O(N^6.5) time, O(N^4) memory (interior-point SDP); refuses N > 150 by default",
        max_samples=150,
        paper=_PAPER,
        binary_only=True,
        test_params={"max_samples": 80, "solver_options": {"eps_abs": 1e-3, "eps_rel": 1e-3}},
        expected_failed_checks={
            name: "uses 100-150 samples; HardLabelMVC's O(n^6.5) SDP refuses more than "
            "max_samples, set to 80 in the tests to keep them fast"
            for name in (
                "check_positive_only_tag_during_fit",
                "check_fit_check_is_fitted",
                "check_n_features_in",
            )
        },
    ),
)
