"""MSPC beyond two clusters and straight lines: ``MSPC(n_clusters=k)`` and
``MSPC(kernel="rbf")``.

:class:`clustering.MSPC` hands its fit to :func:`fit_general` when ``n_clusters > 2`` or
``kernel != "linear"``; ``n_clusters=2`` with the linear kernel keeps the binary code path
unchanged.

Multi-class
-----------
The labeling is scored by the multi-class MSP (:mod:`clustering.msp_multiclass`: pairwise
MPMs, union bound per cluster, weighted by cluster size) and searched by the solvers of
:mod:`clustering.solvers.multiclass`. The starts are those of the binary MSPC with ``k``
clusters: k-means on the raw features (``"kmeans"``), on z-scored features
(``"kmeans-standardized"``, the exactly scale-invariant start: z-scored data does not change
under per-feature scaling, and every later step is invariant with ``regularizer="diag"``),
on PCA-whitened features (``"kmeans-whitened"``, invariant to every invertible map with
``regularizer="total"`` up to rounding) or the multi-class EIG labels (``"eig"``).
The multi-starts are those of the binary MSPC: ``init="auto"`` (the default) climbs from
``"kmeans-standardized"``, ``"kmeans-whitened"``, ``"eig"`` and then ``"kmeans"``, and keeps
the labeling of highest multi-class MSP (the first on ties; a start giving the same partition
as an earlier one is climbed once; ``starts_`` records each climb); ``"auto-invariant"`` leaves
out the raw ``"kmeans"`` start, so with ``regularizer="diag"`` the labels are exactly
invariant to per-feature scaling. Measured with the defaults (``lam`` 0.2, ``random_state=0``):
``wine-raw`` NMI 0.911 with both (the raw k-means start alone 0.831; identical labels under
random per-feature scaling ``10^U(-3, 3)``); ``digits`` (10 classes) 0.771 with ``"auto"``
(the raw k-means start has the highest MSP) and 0.654 with ``"auto-invariant"``; ``iris``
0.742 with ``"auto"``.

Kernel
------
``kernel="rbf"`` runs the same search on the features of a Nystroem map
(:class:`sklearn.kernel_approximation.Nystroem`, at most ``n_components = 300`` landmarks,
so time and memory stay linear in ``N``) of the z-scored data, with the RBF width from the
median heuristic (``gamma = 1 / median ||z_i - z_j||^2`` over at most 1000 samples; no
labels). The MPM in that feature space is a kernel MPM restricted to the landmarks' span;
the features are centred, not rescaled, so ``regularizer="diag"`` is ``Lambda = I`` there
(the kernel MPM's regulariser) and EIG is kernel PCA rounded by k-means. With a kernel, the
``"kmeans"`` and ``"kmeans-standardized"`` starts both run k-means on the mapped features.

Measured accuracy with the defaults (``lam`` 0.2, ``random_state=0``): two moons
(``make_moons(400, noise=0.1, random_state=0)``) 0.865, two circles
(``make_circles(400, noise=0.05, factor=0.5, random_state=0)``) 0.505; the issue's target of
0.95 is **not** met. The obstacle is mostly the criterion, not the search. On the moons, at
the median width and at 2, 4, 8 and 16 times its ``gamma``, ``lam`` 0.001, 0.01, 0.1 and 0.2
(20 settings), a k-means, whitened k-means or EIG start climbs to a wrong split (accuracy
0.50 to 0.90) whose MSP is higher than the true labeling's in 19; the exception is 4 times
``gamma`` at ``lam`` 0.001 (0.966 against 0.964 and 0.960). With 300 components and 400
points almost any split is nearly separable: the whitened k-means start alone beats the true
labeling's MSP in 35 of the 40 moons and circles settings. Keeping only the 10 leading kernel
principal components (z-scored), with a k-nearest-neighbour spectral clustering as a further
start, the highest-MSP climb finds the circles (accuracy 1.000) in 8 of 9 settings (1, 4, 16
times ``gamma``; ``lam`` 0.01, 0.1, 0.2), but on the moons a k-means split (accuracy 0.60 to
0.62) scores higher in 8 of 9; the exception (16 times ``gamma``, ``lam`` 0.01: 0.988 on
the moons, 1.000 on the circles) was found by looking at accuracy, so it is no label-free
default and is not used.

What a kernel keeps and loses: because the data are z-scored before the map, kernel MSPC
keeps invariance to **per-feature scaling** (any positive or negative factor per feature,
and shifts); it loses invariance to **general invertible linear maps** (rotations, shears):
Euclidean distances between z-scored points change under them, and so does the RBF kernel.
"""

from __future__ import annotations

import warnings

import numpy as np
from sklearn.cluster import KMeans
from sklearn.exceptions import ConvergenceWarning
from sklearn.kernel_approximation import Nystroem

from ._compat import check_random_state, validate_data
from ._moments import Standardized, regularizer_matrix, standardize
from .exceptions import DegenerateDataError
from .msp_multiclass import encode_labels
from .solvers.multiclass import (
    solve_eig_multiclass,
    solve_gep_multiclass,
    solve_mpm_multiclass,
    spectral_embedding,
)

#: The most Nystroem landmarks kernel MSPC uses.
MAX_COMPONENTS = 300
#: Samples used for the median heuristic.
MEDIAN_SAMPLES = 1000


def median_gamma(Z: np.ndarray, random_state) -> float:
    """``1 / median ||z_i - z_j||^2`` over at most :data:`MEDIAN_SAMPLES` samples."""
    n = Z.shape[0]
    idx = random_state.permutation(n)[:MEDIAN_SAMPLES] if n > MEDIAN_SAMPLES else np.arange(n)
    S = Z[idx]
    sq = (S**2).sum(axis=1)
    D = sq[:, None] + sq[None, :] - 2.0 * S @ S.T
    iu = np.triu_indices(S.shape[0], 1)
    med = float(np.median(np.maximum(D[iu], 0.0)))
    if med <= 0:
        raise DegenerateDataError(
            "More than half of the pairs of samples coincide, so the median heuristic gives "
            "no kernel width. Pass gamma explicitly."
        )
    return 1.0 / med


class FeatureMap:
    """z-scoring, then (for ``kernel="rbf"``) the Nystroem map, then z-scoring again."""

    def __init__(self, X: np.ndarray, kernel: str, gamma, random_state) -> None:
        self.std_in = standardize(X)
        Z = self.std_in.Z
        self.nystroem = None
        self.gamma_ = None
        if kernel == "rbf":
            self.gamma_ = float(gamma) if gamma is not None else median_gamma(Z, random_state)
            m = min(MAX_COMPONENTS, Z.shape[0])
            self.nystroem = Nystroem(
                kernel="rbf", gamma=self.gamma_, n_components=m, random_state=random_state
            ).fit(Z)
            F = self.nystroem.transform(Z)
            # Centred, not rescaled: Lambda = I in feature space is the kernel MPM's
            # regulariser, and EIG becomes kernel PCA.
            mean = F.mean(axis=0)
            self.std_out = Standardized(
                Z=F - mean, mean=mean, scale=np.ones(F.shape[1]), keep=np.ones(F.shape[1], bool)
            )
        else:
            self.std_out = self.std_in

    @property
    def Z(self) -> np.ndarray:
        return self.std_out.Z

    def transform(self, X: np.ndarray) -> np.ndarray:
        s = self.std_in
        Z = (X[:, s.keep] - s.mean[s.keep]) / s.scale[s.keep]
        if self.nystroem is None:
            return Z
        F = self.nystroem.transform(Z)
        t = self.std_out
        return (F[:, t.keep] - t.mean[t.keep]) / t.scale[t.keep]


class MulticlassModel:
    """A fitted multi-class (or kernel) MSPC rule: feature map plus pairwise MPMs."""

    def __init__(self, fmap: FeatureMap, pairwise) -> None:
        self.fmap = fmap
        self.pairwise = pairwise

    def decision_function(self, X: np.ndarray) -> np.ndarray:
        Z = self.fmap.transform(X)
        if self.pairwise.n_clusters == 2:
            return Z @ self.pairwise.W[0] - self.pairwise.B[0]
        return self.pairwise.votes(Z)

    def predict(self, X: np.ndarray) -> np.ndarray:
        return self.pairwise.predict(self.fmap.transform(X))


def _kmeans_labels(data, k, n_init, random_state) -> np.ndarray:
    labels = KMeans(n_clusters=k, n_init=n_init, random_state=random_state).fit_predict(data)
    if np.unique(labels).shape[0] < k:
        raise DegenerateDataError(
            f"k-means found fewer than {k} clusters in the start. Use fewer clusters."
        )
    return labels.astype(np.intp)


def _same_partition(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two labelings are the same partition (up to renaming the clusters)."""
    _, ia = np.unique(a, return_index=True)
    _, ib = np.unique(b, return_index=True)
    ra = np.argsort(np.argsort(ia))[np.unique(a, return_inverse=True)[1]]
    rb = np.argsort(np.argsort(ib))[np.unique(b, return_inverse=True)[1]]
    return np.array_equal(ra, rb)


def _start(est, init, X, fmap, Lambda, k, random_state) -> np.ndarray:
    from .mspc import whiten

    if not isinstance(init, str):
        codes, k_init = encode_labels(init, X.shape[0], what="init")
        if k_init != k:
            raise ValueError(
                f"init has {k_init} clusters but n_clusters={k}. Give a start with {k} "
                "clusters or change n_clusters."
            )
        return codes
    if init == "eig":
        Q = spectral_embedding(fmap.Z, Lambda, k)
        return _kmeans_labels(Q, k, est.n_init, random_state)
    if init == "kmeans-whitened":
        data = whiten(fmap.Z)
    elif init == "kmeans-standardized" or fmap.nystroem is not None:
        data = fmap.Z
    else:
        data = X
    return _kmeans_labels(data, k, est.n_init, random_state)


def _multi_start(est, X, fmap, Lambda, reg, k, random_state):
    """Climb from each start of ``est.init`` (several for the multi-starts of
    :data:`clustering.mspc.MULTI_STARTS`), keep the highest multi-class MSP (the first on
    ties); a start that gives the same partition as an earlier one is climbed once."""
    from .mspc import MULTI_STARTS

    init = est.init
    names = MULTI_STARTS[init] if isinstance(init, str) and init in MULTI_STARTS else (init,)
    solver = solve_mpm_multiclass if est.method == "mpm" else solve_gep_multiclass
    best = None
    seen: list[np.ndarray] = []
    est.starts_ = []
    for name in names:
        try:
            labels0 = _start(est, name, X, fmap, Lambda, k, random_state)
        except DegenerateDataError:
            if len(names) == 1:
                raise
            continue  # e.g. k-means found fewer than k clusters; other starts remain
        if any(_same_partition(labels0, s) for s in seen):
            continue
        seen.append(labels0)
        result, model = solver(fmap.Z, reg, labels0, k, est.max_iter)
        msp = model.msp()
        label = name if isinstance(name, str) else "array"
        est.starts_.append({"init": label, "msp": msp, "n_iter": result.n_iter})
        if best is None or msp > best[0] + 1e-12 * max(best[0], 1e-300):
            best = (msp, result, model, labels0)
    if best is None:
        raise DegenerateDataError(f"No start found {k} non-empty clusters. Use fewer clusters.")
    return best[1], best[2], best[3]


def fit_general(est, X):
    """Fit ``est`` (an :class:`clustering.MSPC`) with ``n_clusters`` clusters and its kernel.

    Sets the fitted attributes of :class:`clustering.MSPC`; for ``n_clusters > 2`` ``w_`` and
    ``b_`` are the pairwise hyperplanes (rows, in :attr:`pairs_` order) and ``kappa_`` the
    pairwise ``kappa`` values; for a kernel they are in the feature space and ``w_`` is not
    set. ``predict`` uses the learnt one-vs-one rule; with ``method="eig"`` (labels by
    k-means rounding) it can disagree with ``labels_`` on training points near a boundary.
    ``starts_`` lists each start climbed (``init``, ``msp``, ``n_iter``); it is empty for
    ``method="eig"``.
    """
    k = int(est.n_clusters)
    X = validate_data(est, X, dtype=np.float64, ensure_min_samples=max(4, k))
    if k < 2:
        raise ValueError(
            f"n_clusters must be at least 2; got {k}. One cluster needs no clustering."
        )
    n_distinct = np.unique(X, axis=0).shape[0]
    if n_distinct < k:
        raise DegenerateDataError(
            f"n_clusters={k} but the data has only {n_distinct} distinct samples. Use at "
            f"most n_clusters={n_distinct}."
        )
    random_state = check_random_state(est.random_state)
    fmap = FeatureMap(X, est.kernel, getattr(est, "gamma", None), random_state)
    Lambda = regularizer_matrix(fmap.std_out, est.regularizer)
    lam = est.lam if est.regularizer != "none" else 0.0
    reg = lam * Lambda
    Z = fmap.Z
    est.starts_ = []
    if est.method == "eig":
        result, model = solve_eig_multiclass(Z, Lambda, reg, k, random_state, est.n_init)
        est.init_labels_ = result.labels.copy()
    else:
        result, model, labels0 = _multi_start(est, X, fmap, Lambda, reg, k, random_state)
        est.init_labels_ = labels0.copy()
    if result.status == "empty-cluster":
        warnings.warn(
            "A relabelling step would have emptied a cluster; MSPC rejected it and kept the "
            f"previous labels with all {k} clusters. Try fewer clusters or a larger lam.",
            ConvergenceWarning,
            stacklevel=3,
        )
    elif result.status == "max_iter":
        warnings.warn(
            f"MSPC did not converge in max_iter={est.max_iter} iterations; returning the "
            "labeling of highest MSP found. Increase max_iter.",
            ConvergenceWarning,
            stacklevel=3,
        )
    est.model_ = MulticlassModel(fmap, model)
    est.labels_ = result.labels
    est.pairs_ = model.pairs
    est.msp_ = model.msp()
    est.alpha_ = model.alpha
    if fmap.nystroem is None:
        W = np.zeros((len(model.pairs), X.shape[1]))
        B = np.zeros(len(model.pairs))
        for p in range(len(model.pairs)):
            w, b = fmap.std_in.weights_to_original(model.W[p], model.B[p])
            norm = np.linalg.norm(w)
            W[p], B[p] = (w / norm, b / norm) if norm > 0 else (w, b)
        est.w_, est.b_ = (W[0], float(B[0])) if k == 2 else (W, B)
    est.kappa_ = float(model.kappa[0]) if k == 2 else model.kappa
    est.gamma_ = fmap.gamma_
    est.n_iter_ = result.n_iter
    est.history_ = np.asarray(result.history, dtype=float)
    est.converged_ = result.status in ("converged", "closed-form")
    return est
