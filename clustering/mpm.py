"""The Minimax Probability Machine (Lanckriet et al. 2003) and its solver.

Given the means and covariances of two classes, the MPM finds the hyperplane that maximises
the worst-case probability, over all distributions with those moments, that both classes
fall on their own side (the MSPC paper eq. 1-2):

    kappa = max_w  w'(mu1 - mu0) / (sqrt(w' Sigma1 w) + sqrt(w' Sigma0 w)),
    alpha = kappa^2 / (1 + kappa^2).

Solver. At the optimum the KKT conditions give ``w ∝ (Sigma1 + t Sigma0)^{-1} (mu1 - mu0)``
with ``t = sqrt(w'Sigma1 w) / sqrt(w'Sigma0 w)``, so the d-dimensional problem is a search
over the scalar ``t > 0``. We solve that fixed point by safeguarded secant steps on
``log t`` (each step one Cholesky factorisation, ``O(d^3)``; this is Lanckriet et al.'s
iterative least-squares scheme written in the variable that matters) and fall back to a
bounded Brent search over ``log t`` if the fixed point has not settled. A warm start
``t0`` (the previous iteration's ``t``) makes a call inside MSPC cost one to three
factorisations.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from numbers import Real

import numpy as np
from scipy.linalg.lapack import dpotrf as _potrf
from scipy.linalg.lapack import dpotrs as _potrs
from scipy.optimize import minimize_scalar
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.multiclass import check_classification_targets, type_of_target

from ._base import LinearTwoClusterMixin
from ._compat import Interval, StrOptions, _fit_context, validate_data
from ._moments import REGULARIZERS, cluster_moments, regularizer_matrix, standardize
from ._threads import serial_blas
from ._validation import checked_ranges
from .exceptions import DegenerateDataError


@dataclass(frozen=True)
class MPMSolution:
    """Result of :func:`solve_mpm`.

    Attributes
    ----------
    w : ndarray of shape (d,)
        Normal of the hyperplane, scaled so that ``w'(mu1 - mu0) = 1``.
    b : float
        Offset: ``w'x - b >= 0`` predicts class 1.
    kappa : float
        Optimal value of eq. (2); ``inf`` if the classes are separable with zero variance.
    alpha : float
        Worst-case separation probability ``kappa^2 / (1 + kappa^2)`` (the MSP).
    t : float
        The ratio ``sqrt(w'Sigma1 w) / sqrt(w'Sigma0 w)`` at the optimum (a warm start).
    n_iter : int
        Cholesky factorisations used.
    status : str
        ``"optimal"``, ``"brent"`` (the fallback search was used) or ``"equal-means"``.
    """

    w: np.ndarray
    b: float
    kappa: float
    alpha: float
    t: float
    n_iter: int
    status: str


def kappa_to_alpha(kappa: float) -> float:
    """``alpha = kappa^2 / (1 + kappa^2)``, with ``alpha = 1`` for infinite kappa."""
    if not np.isfinite(kappa):
        return 1.0
    return float(kappa**2 / (1.0 + kappa**2))


def _singular_error() -> DegenerateDataError:
    return DegenerateDataError(
        "The cluster covariances are singular along the separating direction, so the "
        "separation probability is undefined (this happens with lam=0 when a cluster has "
        "fewer points than features or a feature is constant inside both clusters). "
        "Use a regulariser: lam > 0 with regularizer='diag'."
    )


def _solve_t(evaluate, t0: float, tol: float, max_iter: int):
    """The search over ``t`` of :func:`solve_mpm`: ``t, w, beta, eta, kappa, status``."""
    t = float(t0) if np.isfinite(t0) and t0 > 0 else 1.0
    status = "optimal"
    w, beta, eta, kappa = evaluate(t)
    converged = False
    # Root of h(s) = log(beta/eta) - s in s = log t: the fixed point t = beta/eta, found by
    # secant steps safeguarded by plain fixed-point steps (which converge linearly).
    s_prev = h_prev = None
    for _ in range(max_iter):
        if beta == 0 or eta == 0:
            converged = True  # zero variance on one side: t is at a boundary, kappa exact
            break
        s_now = np.log(t)
        s_fixed = np.log(beta / eta)
        h = s_fixed - s_now
        if abs(h) < tol:
            converged = True
            break
        s_next = s_fixed
        if h_prev is not None and h != h_prev:
            s_secant = s_now - h * (s_now - s_prev) / (h - h_prev)
            if np.isfinite(s_secant) and abs(s_secant - s_now) <= 4 * abs(h):
                s_next = s_secant
        s_prev, h_prev = s_now, h
        t = float(np.exp(s_next))
        w, beta, eta, kappa = evaluate(t)
    if not converged:
        # Bounded search over log t around the last iterate; kappa(t) is smooth.
        def negative_kappa(s: float) -> float:
            return -evaluate(float(np.exp(s)))[3]

        centre = np.log(t)
        result = minimize_scalar(
            negative_kappa, bounds=(centre - 12.0, centre + 12.0), method="bounded"
        )
        t = float(np.exp(result.x))
        w, beta, eta, kappa = evaluate(t)
        status = "brent"

    return t, w, beta, eta, kappa, status


def solve_mpm(
    mu1: np.ndarray,
    mu0: np.ndarray,
    Sigma1: np.ndarray,
    Sigma0: np.ndarray,
    *,
    t0: float = 1.0,
    tol: float = 1e-7,
    max_iter: int = 50,
) -> MPMSolution:
    """Solve the MPM problem (MSPC paper eq. 2) for given moments.

    Parameters
    ----------
    mu1, mu0 : ndarray of shape (d,)
        Class means; class 1 ends up on the side ``w'x - b >= 0``.
    Sigma1, Sigma0 : ndarray of shape (d, d)
        Class covariances, already regularised.
    t0 : float, default=1.0
        Starting ratio ``t`` (see the module docstring).
    tol : float, default=1e-7
        Stop when ``|log t_new - log t| < tol``.
    max_iter : int, default=50
        Fixed-point steps before the Brent fallback.

    Returns
    -------
    MPMSolution

    Raises
    ------
    DegenerateDataError
        If ``Sigma1 + t Sigma0`` is singular (unregularised, rank-deficient covariances).
    """
    a = mu1 - mu0
    d = a.shape[0]
    if not np.any(a):
        return MPMSolution(np.zeros(d), 0.0, 0.0, 0.0, 1.0, 0, "equal-means")

    n_factorisations = 0

    def evaluate(t: float) -> tuple[np.ndarray, float, float, float]:
        nonlocal n_factorisations
        n_factorisations += 1
        # LAPACK directly (what cho_factor / cho_solve call, without their argument
        # handling, which dominated for small d).
        c, info = _potrf(Sigma1 + t * Sigma0, lower=False, clean=False, overwrite_a=True)
        if info != 0:
            raise _singular_error()
        w, info = _potrs(c, a, lower=False)
        beta = np.sqrt(max(w @ Sigma1 @ w, 0.0))
        eta = np.sqrt(max(w @ Sigma0 @ w, 0.0))
        denom = beta + eta
        kappa = (a @ w) / denom if denom > 0 else np.inf
        return w, beta, eta, kappa

    with serial_blas(d):
        t, w, beta, eta, kappa, status = _solve_t(evaluate, t0, tol, max_iter)

    scale = a @ w  # > 0 because Sigma1 + t Sigma0 is positive definite
    w = w / scale
    beta, eta = beta / scale, eta / scale
    # Eq. (2): the optimal offset puts the hyperplane kappa standard deviations from each mean.
    b = float(w @ mu1 - kappa * beta) if np.isfinite(kappa) else float(w @ (mu1 + mu0) / 2)
    return MPMSolution(w, b, float(kappa), kappa_to_alpha(kappa), t, n_factorisations, status)


def mpm_of(m, reg: np.ndarray, t0: float = 1.0) -> MPMSolution:
    """:func:`solve_mpm` for two clusters of moments ``m`` (a
    :class:`~clustering._moments.ClusterMoments`), each covariance plus ``reg``."""
    return solve_mpm(m.mu1, m.mu0, m.Sigma1 + reg, m.Sigma0 + reg, t0=t0)


def fit_mpm_to_labels(
    X: np.ndarray, labels01: np.ndarray, lam: float, regularizer: str
) -> tuple[MPMSolution, np.ndarray, float]:
    """Fit the MPM to a 0/1 labeling of ``X``.

    Returns the solution in standardised coordinates and ``(w, b)`` in the coordinates of
    ``X``, with ``w`` of unit length.
    """
    std = standardize(X)
    Lambda = regularizer_matrix(std, regularizer)
    m = cluster_moments(std.Z, labels01)
    sol = mpm_of(m, lam * Lambda)
    return (sol, *std.weights_to_original(sol.w, sol.b, unit=True))


class MinimaxProbabilityMachine(LinearTwoClusterMixin, ClassifierMixin, BaseEstimator):
    """Minimax Probability Machine: a linear classifier with a distribution-free accuracy bound.

    Maximises the worst-case probability ``alpha`` that a point of either class falls on its
    side of the hyperplane, over all class distributions with the empirical means and
    covariances (Lanckriet et al. 2003; the MSPC paper eq. 1-2). ``alpha_`` is therefore a
    lower bound on the accuracy of the classifier if the moments are right.

    Parameters
    ----------
    lam : float, default=0.0
        Weight of the covariance regulariser: each class covariance becomes
        ``Sigma_k + lam * Lambda``. Larger values shrink the classes towards round shapes
        and lower ``alpha_``.
    regularizer : {"diag", "identity", "total", "none"}, default="diag"
        ``Lambda``: ``diag(Sigma)`` of all training data (invariant to rescaling features),
        the identity, the full covariance ``Sigma`` (invariant to any invertible linear map)
        or nothing.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two class labels; ``classes_[1]`` is predicted where ``decision_function >= 0``.
    w_ : ndarray of shape (n_features,)
        Unit normal of the separating hyperplane.
    b_ : float
        Offset: ``decision_function(X) = X @ w_ - b_``.
    kappa_ : float
        Optimal value of eq. (2).
    alpha_ : float
        The worst-case separation probability ``kappa^2 / (1 + kappa^2)``.
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Names of features seen in ``fit``, when ``X`` has string column names.

    References
    ----------
    G. R. G. Lanckriet, L. El Ghaoui, C. Bhattacharyya, M. I. Jordan. A robust minimax
    approach to classification. JMLR 3:555-582, 2003. Equation (2) of Huang et al.,
    Maximin Separation Probability Clustering, AAAI 2015.

    Examples
    --------
    >>> import numpy as np
    >>> from clustering import MinimaxProbabilityMachine
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(-2, 1, (50, 2)), rng.normal(2, 1, (50, 2))])
    >>> y = np.repeat([0, 1], 50)
    >>> mpm = MinimaxProbabilityMachine().fit(X, y)
    >>> bool(mpm.alpha_ > 0.7), float(mpm.score(X, y)) >= mpm.alpha_
    (True, True)
    """

    _parameter_constraints: dict = {
        "lam": [Interval(Real, 0, None, closed="left")],
        "regularizer": [StrOptions(set(REGULARIZERS))],
    }

    def __init__(self, lam: float = 0.0, *, regularizer: str = "diag") -> None:
        self.lam = lam
        self.regularizer = regularizer

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Fit the MPM to two classes.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Exactly two classes.

        Returns
        -------
        self : MinimaxProbabilityMachine
        """
        X, y = validate_data(self, X, y, dtype=np.float64)
        checked_ranges(X)
        check_classification_targets(y)
        y_type = type_of_target(y, input_name="y", raise_unknown=True)
        classes = np.unique(y)
        if classes.shape[0] == 1:
            raise ValueError(
                "y has one class; the MPM separates two classes. Give samples of both."
            )
        if y_type != "binary":
            raise ValueError(
                "Only binary classification is supported. The type of the target is "
                f"{y_type}; relabel the data into two classes."
            )
        self.classes_ = classes
        labels01 = (y == self.classes_[1]).astype(np.intp)
        sol, self.w_, self.b_ = fit_mpm_to_labels(X, labels01, self.lam, self.regularizer)
        if sol.status == "equal-means":
            warnings.warn(
                "The two classes have the same mean, so no hyperplane separates them "
                "better than chance; alpha_ is 0.",
                ConvergenceWarning,
                stacklevel=2,
            )
        self.kappa_ = sol.kappa
        self.alpha_ = sol.alpha
        return self

    def _assign(self, X: np.ndarray) -> np.ndarray:
        return self.classes_[super()._assign(X)]
