"""Iterative support vector regression for maximum margin clustering (Zhang, Tsang & Kwok,
ICML 2007): the MMC baseline of the MSPC paper's Table 2."""

from __future__ import annotations

import warnings
from functools import partial
from numbers import Integral, Real

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import SVR

from ._base import BaseClusterer, LinearTwoClusterMixin, initial_labels
from ._compat import (
    Interval,
    StrOptions,
    check_random_state,
)
from ._spec import AlgorithmSpec, Param

KERNELS = ("linear", "rbf")
INITS = ("kmeans", "random")


def balanced_threshold(f: np.ndarray, balance: float) -> float:
    """The threshold ``t`` closest to 0 such that ``sign(f - t)`` satisfies the class balance
    ``|#{f >= t} - #{f < t}| <= balance * n``.

    ``t = 0`` when the signs of ``f`` already satisfy it; otherwise ``t`` lies midway between
    the two order statistics of ``f`` that give the nearest admissible cluster size. With an
    odd ``n`` the most equal splits (sizes differing by one) are always admissible.
    """
    n = f.shape[0]
    # With an odd n and a strict balance, the most equal splits differ by one sample.
    slack = max(np.floor(balance * n + 1e-9), n % 2)
    lo = int(np.ceil((n - slack) / 2))  # fewest admissible positives
    hi = int(np.floor((n + slack) / 2))  # most admissible positives
    lo, hi = max(lo, 1), min(hi, n - 1)
    n_pos = int((f >= 0).sum())
    if lo <= n_pos <= hi:
        return 0.0
    target = hi if n_pos > hi else lo
    desc = np.sort(f)[::-1]
    # Put exactly `target` samples on the positive side: between desc[target-1] and desc[target].
    return float((desc[target - 1] + desc[target]) / 2.0)


class IterSVR(LinearTwoClusterMixin, BaseClusterer):
    """Maximum margin clustering by iterated support vector regression (IterSVR).

    Starting from k-means labels ``y in {-1, +1}^n``, alternate

    1. fit a support vector regression ``f(x) = w' phi(x) + b`` to the current labels with the
       Laplacian loss ``|y_i - f(x_i)|`` (``epsilon=0``), which Zhang et al. show avoids the
       premature convergence of the hinge loss;
    2. relabel by ``y_i = sign(f(x_i) - t)``, where the threshold ``t`` is 0 unless that
       violates the class balance ``|sum_i y_i| <= balance * n``, in which case ``t`` is the
       smallest shift that satisfies it;

    until no label changes.

    Parameters
    ----------
    kernel : {"linear", "rbf"}, default="linear"
        Kernel of the regression. ``"linear"`` exposes the hyperplane ``w_``, ``b_``.
    C : float, default=1.0
        Weight of the regression loss against ``||w||^2 / 2``: larger fits the current
        labels more closely (a harder margin).
    gamma : {"scale", "auto"} or float, default="scale"
        Width of the Gaussian kernel ``exp(-gamma ||x - x'||^2)`` (``"rbf"`` only), with
        scikit-learn's meaning of ``"scale"`` (``1 / (d Var(X))``) and ``"auto"`` (``1 / d``).
    epsilon : float, default=0.0
        Width of the insensitive zone of the regression loss; 0 is the Laplacian loss of the
        paper.
    balance : float, default=0.5
        Largest allowed ``|n_1 - n_0| / n`` for the cluster sizes ``n_0``, ``n_1`` (the class
        balance constraint ``-l <= sum y_i <= l`` with ``l = balance * n``); 0 forces equal
        halves, 1 allows anything but an empty cluster.
    init : {"kmeans", "random"} or array-like of shape (n_samples,), default="kmeans"
        Starting labels: 2-means (the paper's choice), a random balanced split, or given.
    n_init : int, default=10
        Number of k-means restarts.
    max_iter : int, default=50
        Maximum number of alternations.
    random_state : int, RandomState instance or None, default=None
        Seeds k-means and the random start.

    Attributes
    ----------
    labels_ : ndarray of shape (n_samples,)
        Cluster of each sample, 0 or 1; 1 is the side where ``decision_function >= 0``.
    w_ : ndarray of shape (n_features,)
        Normal of the hyperplane (``kernel="linear"`` only).
    b_ : float
        Offset: ``decision_function(X) = X @ w_ - b_`` (``kernel="linear"`` only).
    svr_ : sklearn.svm.SVR
        The regression fitted on the final labels.
    threshold_ : float
        The balance shift ``t``: ``decision_function(X) = svr_.predict(X) - threshold_``.
    n_iter_ : int
        Number of regressions fitted.
    history_ : ndarray of shape (n_iter_,)
        Number of labels that changed after each regression (0 at convergence).
    init_labels_ : ndarray of shape (n_samples,)
        The starting labels.
    converged_ : bool
        Whether the labels stopped changing before ``max_iter``.
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Names of features seen in ``fit``, when ``X`` has string column names.

    Notes
    -----
    Each iteration fits one libsvm regression, ``O(n^2 d)`` to ``O(n^3)`` time and
    ``O(n)`` memory beyond libsvm's kernel cache; typically fewer than 10 iterations. Like
    every margin-based method, the result depends on the units of the features (the
    anisotropic feature scaling problem of the MSPC paper).

    References
    ----------
    K. Zhang, I. W. Tsang, J. T. Kwok. Maximum margin clustering made practical. ICML 2007
    (section 3: the Laplacian-loss SVR and the class balance by the bias). Used as the
    baseline "Iter-SVR" of G. Huang et al., Maximin Separation Probability Clustering,
    AAAI 2015, Table 2.

    Examples
    --------
    >>> import numpy as np
    >>> from clustering import IterSVR
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(0, 1, (50, 2)), rng.normal(0, 1, (50, 2)) + [6, 0]])
    >>> model = IterSVR(random_state=0).fit(X)
    >>> sorted(np.bincount(model.labels_).tolist())
    [50, 50]
    >>> bool(abs(model.w_[0]) > abs(model.w_[1]))
    True
    """

    _parameter_constraints: dict = {
        "kernel": [StrOptions(set(KERNELS))],
        "C": [Interval(Real, 0, None, closed="neither")],
        "gamma": [StrOptions({"scale", "auto"}), Interval(Real, 0, None, closed="neither")],
        "epsilon": [Interval(Real, 0, None, closed="left")],
        "balance": [Interval(Real, 0, 1, closed="both")],
        "init": [StrOptions(set(INITS)), "array-like"],
        "n_init": [Interval(Integral, 1, None, closed="left")],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        kernel: str = "linear",
        *,
        C: float = 1.0,
        gamma="scale",
        epsilon: float = 0.0,
        balance: float = 0.5,
        init="kmeans",
        n_init: int = 10,
        max_iter: int = 50,
        random_state=None,
    ) -> None:
        self.kernel = kernel
        self.C = C
        self.gamma = gamma
        self.epsilon = epsilon
        self.balance = balance
        self.init = init
        self.n_init = n_init
        self.max_iter = max_iter
        self.random_state = random_state

    def _decision_values(self, X: np.ndarray) -> np.ndarray:
        return self.svr_.predict(X) - self.threshold_

    def _fit(self, X):
        random_state = check_random_state(self.random_state)
        labels = initial_labels(X, self.init, n_init=self.n_init, random_state=random_state)
        self.init_labels_ = labels.copy()
        history = []
        converged = False
        for _ in range(self.max_iter):
            svr = SVR(kernel=self.kernel, C=self.C, gamma=self.gamma, epsilon=self.epsilon)
            svr.fit(X, 2.0 * labels - 1.0)
            f = svr.predict(X)
            threshold = balanced_threshold(f, self.balance)
            new = (f - threshold >= 0).astype(np.intp)
            n_changed = int((new != labels).sum())
            history.append(n_changed)
            labels = new
            if n_changed == 0:
                converged = True
                break
        if not converged:
            warnings.warn(
                f"IterSVR did not converge in max_iter={self.max_iter} iterations (labels were "
                "still changing); returning the last labeling. Increase max_iter.",
                ConvergenceWarning,
                stacklevel=2,
            )
        self.svr_ = svr
        self.threshold_ = threshold
        if self.kernel == "linear":
            self.w_ = np.asarray(svr.coef_, dtype=float).ravel()
            self.b_ = float(threshold - svr.intercept_[0])
        self.labels_ = labels
        self.n_iter_ = len(history)
        self.history_ = np.asarray(history, dtype=float)
        self.converged_ = converged


_C = Param(
    "C",
    "float",
    1.0,
    "Weight of fitting the current labels against a wide margin. Larger: follow the labels "
    "more closely; smaller: smoother boundary.",
    low=1e-3,
    high=1e3,
    log=True,
)
_BALANCE = Param(
    "balance",
    "float",
    0.5,
    "Largest allowed size difference of the two clusters, as a fraction of N. 0 forces "
    "equal halves; 1 only forbids an empty cluster.",
    low=0.0,
    high=1.0,
    label="class balance",
)
_GAMMA = Param(
    "gamma",
    "float",
    0.1,
    "Gaussian kernel width exp(-γ‖x − x′‖²): larger γ makes the boundary bend around "
    "smaller groups of points.",
    low=1e-4,
    high=1e2,
    log=True,
    label="γ (kernel width)",
)

_PAPER = "Zhang, Tsang & Kwok, Maximum margin clustering made practical, ICML 2007"
_COST = (
    "O(N^2 d) to O(N^3) time per iteration (one libsvm regression), typically < 10 "
    "iterations; memory O(N d) plus libsvm's kernel cache"
)

SPECS = (
    AlgorithmSpec(
        key="itersvr",
        name="IterSVR (linear)",
        factory=partial(IterSVR, kernel="linear"),
        params=(_C, _BALANCE),
        summary="Maximum margin clustering: alternate a support vector regression on the "
        "labels and relabelling by its sign, from a k-means start.",
        cost=_COST,
        linear=True,
        paper=_PAPER,
        binary_only=True,
        test_params={"n_init": 2},
    ),
    AlgorithmSpec(
        key="itersvr-rbf",
        name="IterSVR (Gaussian kernel)",
        factory=partial(IterSVR, kernel="rbf", gamma=0.1),
        params=(_C, _GAMMA, _BALANCE),
        summary="IterSVR with a Gaussian kernel: a curved maximum margin boundary.",
        cost=_COST,
        linear=False,
        paper=_PAPER,
        binary_only=True,
        test_params={"n_init": 2},
    ),
)
