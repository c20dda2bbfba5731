"""DIFFRAC: discriminative and flexible clustering (Bach & Harchaoui, NIPS 2007).

Notation follows the paper: ``Pi = I - 11'/n`` centres, ``A(X, kappa)`` is the cost
matrix (eq. 3; eq. 4 for kernels), ``M = y y'`` the equivalence matrix of a labeling and
``lambda0`` the minimum cluster size.

Implementation notes
--------------------
*One factorisation for both cost matrices.* With the centred Gram matrix
``K~ = Pi K Pi = V diag(s) V'`` (``K = X X'`` for the linear kernel), eq. (3) and eq. (4)
are both ``A = (Pi - F F') / n`` with ``F = V diag(sqrt(s / (s + n kappa)))``. For the
linear kernel ``V, s`` come from the thin SVD of the centred data, so ``A`` is never formed:
``O(N d^2)`` time and ``O(N d)`` memory.

*Must-links* (section 4) collapse each chunk of must-linked samples to one variable:
``M = P M_P P'`` with ``P`` the ``N x p`` chunk indicator. Working with
``N_P = D^1/2 M_P D^1/2`` (``D = diag(chunk sizes)``), which has the same nonzero
eigenvalues as ``M``, the cost becomes ``tr(B N_P)`` with
``B = (I - g g' - G G') / n``, ``g = D^1/2 1 / sqrt(n)``, ``G = D^-1/2 P' F``.

*Cannot-links* add the paper's penalty ``(w / |P-|) sum_{(i,j) in P-} M_ij^2`` to the
convex relaxation. In the eigenvalue relaxation the square is replaced by ``M_ij`` itself,
which keeps an eigenproblem and coincides with the square on every equivalence matrix
(``M_ij`` is 0 or 1), so both relaxations bound the same discrete cost.

*The eigenvalue relaxation* (section 2.6) minimises ``tr(B N)`` over ``N >= 0``,
``tr N = n`` and ``Phi_lambda0(N) >= k``. Writing ``t_i = min(mu_i / lambda0, 1)`` for the
eigenvalues ``mu_i`` of ``N`` turns it into a linear program whose solution puts
``lambda0`` on the ``k`` eigenvectors of ``B`` with the smallest eigenvalues
``b_1 <= ... <= b_k`` and the remaining mass ``n - k lambda0`` on the first, so the optimal
value is ``lambda0 (b_1 + ... + b_k) + (n - k lambda0) b_1``. The paper states the solution
as ``lambda0 (u_1 u_1' + ... + u_j u_j') + (n - j lambda0) u_{j+1} u_{j+1}'`` with
``j = floor(n / lambda0)``; that is the minimiser when every eigenvalue is also capped at
``lambda0``, and its value is larger, so it is not a lower bound of the clustering cost.
Both have the same ``k`` leading eigenvectors, so the rounding, and hence the labels, are
the same. Without constraints the relaxation is (kernel) PCA: its labels depend neither on
``kappa`` nor on ``lambda0``.

*The convex relaxation* (section 2.3) is the SDP over ``C_k`` with the row-sum and
eigenvalue constraints. The concave spectral constraint ``sum_i min(mu_i, lambda0) >=
k lambda0`` is written with ``sum_i min(mu_i, lambda0) = tr N - sum_i (mu_i - lambda0)_+``
and ``sum_i (mu_i - lambda0)_+ = min {tr Q : Q >= 0, Q >= N - lambda0 I}``, i.e. one extra
PSD variable ``Q`` with ``tr Q <= n - k lambda0``.

*Rounding* (section 3.3): the ``k`` leading eigenvectors of the relaxed ``N`` scaled by the
square roots of their eigenvalues, rows normalised to unit length, then (sample-weighted)
k-means, i.e. Ng-Jordan-Weiss on ``M``. Cannot-links are then enforced greedily, chunk by
chunk, by the assignment step of COP-k-means (Wagstaff et al. 2001), as section 4 suggests.
"""

from __future__ import annotations

import warnings
from numbers import Integral, Real

import numpy as np
from scipy import linalg, sparse
from sklearn.cluster import KMeans

from . import _cvx
from ._compat import Interval, StrOptions, check_random_state
from ._constraints import ConstrainedClusterer
from ._diffrac_relaxations import (
    _top_eigenpairs_H,
    build_convex_problem,
    cost_factor,
    labeling_cost,
)
from ._spec import AlgorithmSpec, Param
from .exceptions import DegenerateDataError, ProblemTooLargeError
from .spectral import median_distance

__all__ = ["DIFFRAC"]

RELAXATIONS = ("eigen", "convex")
KERNELS = ("linear", "gaussian")
SOLVERS = ("SCS", "CLARABEL")


class DIFFRAC(ConstrainedClusterer):
    """DIFFRAC: the partition whose indicator matrix is best predicted by ridge regression.

    For a labeling with indicator matrix ``y`` the cost is the optimal value of the
    regularised least-squares fit of ``y`` from the data (eq. 1), ``tr(y y' A(X, kappa))``
    (eq. 2-3); DIFFRAC looks for the partition with the smallest cost among those with
    clusters of at least ``lambda0`` samples, through a relaxation of the equivalence
    matrix ``M = y y'`` followed by a rounding. See the module docstring for the
    derivations.

    Parameters
    ----------
    n_clusters : int, default=2
        Number of clusters ``k`` (1 gives the trivial partition).
    relaxation : {"eigen", "convex"}, default="eigen"
        ``"eigen"``: the eigenvalue relaxation of section 2.6, (kernel) PCA followed by the
        rounding; ``O(N d^2)`` for the linear kernel, any N. ``"convex"``: the semidefinite
        relaxation of sections 2.2-2.3 solved with cvxpy; tighter, and with
        ``kappa=0`` exactly invariant to affine maps of the features (section 2.4), but it
        has ``N^2`` variables and refuses more than ``max_samples`` samples (chunks).
    kernel : {"linear", "gaussian"}, default="linear"
        ``"linear"``: eq. (3). ``"gaussian"``: eq. (4) with
        ``K_ij = exp(-||x_i - x_j||^2 / (2 sigma^2))`` (``O(N^3)`` time, ``O(N^2)`` memory).
    kappa : float, default=1e-3
        Ridge regulariser ``kappa`` of eq. (1), in the units of the squared features. ``0``
        is allowed only for the linear kernel with ``relaxation="convex"`` (elsewhere every
        direction in the span of the data would cost the same).
    sigma : float or None, default=None
        Gaussian kernel width; ``None`` takes the median pairwise distance.
    min_cluster_size : int or None, default=None
        ``lambda0``; ``None`` uses the paper's ``floor(N / (2 k))``. Needs
        ``k * lambda0 <= N``.
    cannot_link_weight : float, default=1.0
        ``w = 1 / epsilon`` of the cannot-link penalty ``(w / |P-|) sum M_ij^2``.
    solver : {"SCS", "CLARABEL"}, default="SCS"
        cvxpy solver of the convex relaxation. SCS (first order) handles a few hundred
        samples; CLARABEL (interior point) is more accurate but its cost grows steeply with
        N: use it only below about 40 samples.
    max_samples : int, default=300
        Largest number of samples (after merging must-linked samples) the convex
        relaxation accepts; its time grows roughly like ``N^3`` per iteration.
    n_init : int, default=10
        k-means starts of the rounding.
    random_state : int, RandomState instance or None, default=None
        Seeds the rounding k-means, the Lanczos start vector and the median subsample.

    Attributes
    ----------
    labels_ : ndarray of shape (n_samples,)
        Cluster of each sample, ``0 .. n_clusters - 1``.
    cost_ : float
        Discriminative cost of ``labels_``: ``tr(A y y')`` plus the cannot-link penalty of
        the violated pairs.
    relaxation_value_ : float
        Optimal value of the relaxation: a lower bound of ``cost_`` of every labeling that
        satisfies the must-links and has clusters of at least ``lambda0`` samples (up to
        the solver's tolerance for ``"convex"``).
    embedding_ : ndarray of shape (n_samples, n_clusters)
        Row-normalised embedding the rounding clusters.
    min_cluster_size_ : int
        ``lambda0`` used.
    sigma_ : float or None
        Gaussian width used (``None`` for the linear kernel).
    n_chunks_ : int
        Number of groups after merging must-linked samples.
    cannot_link_violations_ : int
        Cannot-link pairs the rounding could not honour (must-links always hold).
    solver_stats_ : dict or None
        ``"convex"`` only: solver name, status, iterations and solve time.
    n_iter_ : int
        Solver iterations (``"convex"``) or 1 (``"eigen"``, a closed form).
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Names of features seen in ``fit``, when ``X`` has string column names.

    References
    ----------
    F. Bach, Z. Harchaoui. DIFFRAC: a discriminative and flexible framework for clustering.
    NIPS 2007: eq. (1)-(4), sections 2.3 (minimum cluster sizes), 2.6 (eigenvalue
    relaxation), 3.3 (rounding), 4 (must-links and cannot-links).
    K. Wagstaff, C. Cardie, S. Rogers, S. Schroedl. Constrained k-means clustering with
    background knowledge. ICML 2001 (constrained rounding).

    Examples
    --------
    >>> import numpy as np
    >>> from clustering import DIFFRAC
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(0, 1, (20, 2)), rng.normal(0, 1, (20, 2)) + [5, 0]])
    >>> model = DIFFRAC(random_state=0).fit(X)
    >>> sorted(np.bincount(model.labels_).tolist())
    [20, 20]
    >>> model = DIFFRAC(random_state=0).fit(X, must_link=[(0, 1)], cannot_link=[(0, 39)])
    >>> bool(model.labels_[0] == model.labels_[1] != model.labels_[39])
    True
    >>> model.relaxation_value_ <= model.cost_
    True
    """

    _parameter_constraints: dict = {
        "n_clusters": [Interval(Integral, 1, None, closed="left")],
        "relaxation": [StrOptions(set(RELAXATIONS))],
        "kernel": [StrOptions(set(KERNELS))],
        "kappa": [Interval(Real, 0, None, closed="left")],
        "sigma": [Interval(Real, 0, None, closed="neither"), None],
        "min_cluster_size": [Interval(Integral, 1, None, closed="left"), None],
        "cannot_link_weight": [Interval(Real, 0, None, closed="left")],
        "solver": [StrOptions(set(SOLVERS))],
        "max_samples": [Interval(Integral, 2, None, closed="left")],
        "n_init": [Interval(Integral, 1, None, closed="left")],
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        n_clusters: int = 2,
        *,
        relaxation: str = "eigen",
        kernel: str = "linear",
        kappa: float = 1e-3,
        sigma: float | None = None,
        min_cluster_size: int | None = None,
        cannot_link_weight: float = 1.0,
        solver: str = "SCS",
        max_samples: int = 300,
        n_init: int = 10,
        random_state=None,
    ) -> None:
        self.n_clusters = n_clusters
        self.relaxation = relaxation
        self.kernel = kernel
        self.kappa = kappa
        self.sigma = sigma
        self.min_cluster_size = min_cluster_size
        self.cannot_link_weight = cannot_link_weight
        self.solver = solver
        self.max_samples = max_samples
        self.n_init = n_init
        self.random_state = random_state

    # ------------------------------------------------------------------ checks
    def _check_setting(self, n: int, p: int) -> int:
        k = self.n_clusters
        if self.kappa == 0 and (self.kernel != "linear" or self.relaxation != "convex"):
            raise ValueError(
                "kappa=0 is allowed only with kernel='linear' and relaxation='convex': "
                "otherwise every direction in the span of the data costs the same and the "
                "relaxation carries no information. Use kappa > 0 (e.g. 1e-3)."
            )
        if p < k:
            raise ValueError(
                f"The must-links leave {p} groups of samples, fewer than "
                f"n_clusters={k}. Remove must-links or ask for fewer clusters."
            )
        lambda0 = self.min_cluster_size if self.min_cluster_size is not None else n // (2 * k)
        lambda0 = max(int(lambda0), 1)
        if k * lambda0 > n:
            raise ValueError(
                f"min_cluster_size={lambda0} is impossible: {k} clusters of at least "
                f"{lambda0} samples need {k * lambda0} samples, the data has {n}."
            )
        if self.relaxation == "convex" and p > self.max_samples:
            raise ProblemTooLargeError(
                f"DIFFRAC's convex relaxation is a semidefinite program with {p}^2 "
                f"variables; {p} samples (after merging must-linked ones) exceed "
                f"max_samples={self.max_samples}. Use relaxation='eigen' (any N, "
                "O(N d^2)), subsample the data, or raise max_samples (time grows about "
                "like N^3 per solver iteration)."
            )
        return lambda0

    # ------------------------------------------------------------------ fit
    def _fit(self, X, constraints):
        random_state = check_random_state(self.random_state)
        n, k = X.shape[0], self.n_clusters
        chunk_of, p = constraints.chunk_of, constraints.n_chunks
        cl_pairs, cl_mult = constraints.chunk_pairs, constraints.chunk_multiplicity
        lambda0 = self._check_setting(n, p)
        self.min_cluster_size_ = lambda0
        self.n_chunks_ = p

        self.sigma_ = None
        if self.kernel == "gaussian":
            self.sigma_ = (
                float(self.sigma) if self.sigma is not None else median_distance(X, random_state)
            )
        F = cost_factor(X, self.kappa, self.kernel, self.sigma_)
        sizes = np.bincount(chunk_of, minlength=p).astype(float)
        if self.kappa == 0 and F.shape[1] >= n - 1:
            raise DegenerateDataError(
                f"With kappa=0 and {n} samples in {X.shape[1]} dimensions every labeling is "
                "fitted exactly by a linear function (cost 0). Use kappa > 0 or more samples."
            )
        # Collapsed quantities (module notes): g, G and the cannot-link matrix.
        G = np.zeros((p, F.shape[1]))
        np.add.at(G, chunk_of, F)
        G /= np.sqrt(sizes)[:, None]
        g = np.sqrt(sizes / n)
        n_cl = constraints.cannot_link.shape[0]
        w = self.cannot_link_weight / n_cl if n_cl else 0.0

        if k == 1:
            self.labels_ = np.zeros(n, dtype=np.intp)
            self.embedding_ = np.ones((n, 1))
            self.cost_ = self.relaxation_value_ = labeling_cost(F, self.labels_, 1) + w * n_cl
            self.cannot_link_violations_ = n_cl
            self.solver_stats_, self.n_iter_ = None, 1
            return

        if self.relaxation == "eigen":
            C = None
            if n_cl:
                # Linear penalty tr(C N) = w sum_pairs M_ij, with M_ab = N_ab / sqrt(c_a c_b).
                vals = w * cl_mult / (2.0 * np.sqrt(sizes[cl_pairs[:, 0]] * sizes[cl_pairs[:, 1]]))
                C = sparse.coo_matrix(
                    (
                        np.concatenate([vals, vals]),
                        (
                            np.concatenate([cl_pairs[:, 0], cl_pairs[:, 1]]),
                            np.concatenate([cl_pairs[:, 1], cl_pairs[:, 0]]),
                        ),
                    ),
                    shape=(p, p),
                ).tocsr()
            Z = np.column_stack([g, G])
            h, U = _top_eigenpairs_H(Z, C, float(n), k, random_state)
            b = (1.0 - h) / n  # the k smallest eigenvalues of B = (I - H) / n
            self.relaxation_value_ = float(lambda0 * b.sum() + (n - k * lambda0) * b[0])
            mu = np.full(k, float(lambda0))
            mu[0] += n - k * lambda0
            E = U * np.sqrt(mu)
            self.solver_stats_, self.n_iter_ = None, 1
        else:
            N_val, value, stats = self._solve_convex(sizes, G, g, cl_pairs, cl_mult, w, lambda0)
            self.relaxation_value_ = value
            mu, V = linalg.eigh(N_val, subset_by_index=[p - k, p - 1])
            E = V[:, ::-1] * np.sqrt(np.clip(mu[::-1], 0.0, None))
            self.solver_stats_ = stats
            self.n_iter_ = int(stats["num_iters"]) if stats["num_iters"] is not None else 1

        norms = np.linalg.norm(E, axis=1, keepdims=True)
        E = E / np.where(norms > 0, norms, 1.0)
        chunk_labels = self._round(E, sizes, cl_pairs, random_state)
        self.labels_ = chunk_labels[chunk_of]
        self.embedding_ = E[chunk_of]
        cl = constraints.cannot_link
        violated = int(np.sum(self.labels_[cl[:, 0]] == self.labels_[cl[:, 1]])) if n_cl else 0
        self.cannot_link_violations_ = violated
        if violated:
            warnings.warn(
                f"DIFFRAC's rounding left {violated} of {n_cl} cannot-link pairs in the same "
                "cluster (the constraints may be unsatisfiable with n_clusters="
                f"{k}). Increase cannot_link_weight or n_clusters.",
                UserWarning,
                stacklevel=2,
            )
        self.cost_ = labeling_cost(F, self.labels_, k) + w * violated

    def _solve_convex(self, sizes, G, g, cl_pairs, cl_mult, w, lambda0):
        p, n = sizes.shape[0], float(sizes.sum())
        B = (np.eye(p) - np.outer(g, g) - G @ G.T) / n
        problem, N, params = build_convex_problem((B + B.T) / 2, sizes, self.n_clusters, cl_pairs)
        params["lambda0"].value = float(lambda0)
        if cl_pairs.shape[0]:
            # w sum over sample pairs of M_ij^2, with M_ab = N_ab / sqrt(c_a c_b).
            params["penalty"].value = w * cl_mult / (sizes[cl_pairs[:, 0]] * sizes[cl_pairs[:, 1]])
        else:
            params["penalty"].value = np.zeros(1)
        advice = (
            "Try the other solver (solver='SCS' or 'CLARABEL'; CLARABEL only below about "
            "40 samples), a larger kappa, fewer samples, or relaxation='eigen'."
        )
        what = "DIFFRAC's convex relaxation"
        value = _cvx.solve(problem, solver=self.solver, what=what, advice=advice)
        stats = problem.solver_stats
        info = {
            "solver": str(stats.solver_name),
            "status": str(problem.status),
            "num_iters": None if stats.num_iters is None else int(stats.num_iters),
            "solve_time": None if stats.solve_time is None else float(stats.solve_time),
        }
        N_val = np.asarray(N.value, dtype=float)
        return (N_val + N_val.T) / 2, value, info

    def _round(self, E, sizes, cl_pairs, random_state) -> np.ndarray:
        """Weighted k-means on the chunk embedding, then the COP-k-means assignment for the
        chunks that carry cannot-links."""
        k = self.n_clusters
        km = KMeans(n_clusters=k, n_init=self.n_init, random_state=random_state)
        labels = km.fit_predict(E, sample_weight=sizes).astype(np.intp)
        if cl_pairs.shape[0] == 0:
            return labels
        centers = km.cluster_centers_
        d2 = ((E[:, None, :] - centers[None, :, :]) ** 2).sum(axis=2)
        involved = np.unique(cl_pairs)
        # Most confident chunks first: largest gap between best and second-best centre.
        part = np.sort(d2[involved], axis=1)
        order = involved[np.argsort(part[:, 0] - part[:, 1], kind="stable")]
        neighbours = {int(a): [] for a in involved}
        for a, b in cl_pairs:
            neighbours[int(a)].append(int(b))
            neighbours[int(b)].append(int(a))
        assigned: dict[int, int] = {}
        for a in order:  # loop over constrained chunks only
            a = int(a)
            taken = {assigned[b] for b in neighbours[a] if b in assigned}
            for c in np.argsort(d2[a]):
                if int(c) not in taken:
                    assigned[a] = int(c)
                    break
            else:
                assigned[a] = int(np.argmin(d2[a]))
        idx = np.fromiter(assigned.keys(), dtype=np.intp)
        labels[idx] = np.fromiter(assigned.values(), dtype=np.intp)
        return labels


SPECS = (
    AlgorithmSpec(
        key="diffrac",
        name="DIFFRAC",
        factory=DIFFRAC,
        params=(
            Param(
                "relaxation",
                "choice",
                "eigen",
                "'eigen': fast PCA-like relaxation, any N. 'convex': the paper's semidefinite "
                "relaxation, tighter and (with κ=0) immune to rescaling features, but only "
                "for up to max_samples points.",
                choices=RELAXATIONS,
            ),
            Param(
                "kernel",
                "choice",
                "linear",
                "'linear' looks for clusters a linear function separates; 'gaussian' for "
                "curved ones (slower: N×N matrix).",
                choices=KERNELS,
            ),
            Param(
                "kappa",
                "float",
                1e-3,
                "Ridge penalty of the regression that scores a clustering. Small: any "
                "linear separation counts; large: prefers directions of large variance.",
                low=1e-6,
                high=1e2,
                log=True,
                label="κ (ridge)",
            ),
            Param(
                "max_samples",
                "int",
                300,
                "Largest N the convex relaxation accepts (its time grows like N³).",
                low=50,
                high=1000,
                label="max N (convex)",
            ),
        ),
        summary="Finds the partition best predicted by ridge regression on the data "
        "(square-loss discriminative cost), via an eigen or convex relaxation.",
        cost="eigen, linear: O(N d^2) time, O(N d) memory; gaussian: O(N^3) time, O(N^2) "
        "memory; convex: SDP with N^2 variables, about O(N^3) per SCS iteration, N <= "
        "max_samples",
        constraints=True,
        paper="Bach & Harchaoui, DIFFRAC: a discriminative and flexible framework for clustering",
        test_params={"n_init": 2},
    ),
)
