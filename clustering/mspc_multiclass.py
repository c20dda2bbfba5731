"""MSPC beyond two clusters and straight lines: ``MSPC(n_clusters=k)`` and
``MSPC(kernel="rbf")``.

:meth:`clustering.MSPC.fit` calls :func:`fit_general` (a solver: it returns a
:class:`GeneralFit` and sets nothing on the estimator) when ``n_clusters > 2`` or
``kernel != "linear"``; ``n_clusters=2`` with the linear kernel keeps the binary code path
unchanged.

Multi-class
-----------
The labeling is scored by the multi-class MSP (:mod:`clustering.msp_multiclass`: pairwise
MPMs, union bound per cluster, weighted by cluster size) and searched by the solvers of
:mod:`clustering.solvers.multiclass`. The starts and multi-starts are the binary MSPC's
(``init`` of :class:`clustering.MSPC`) with ``k`` clusters, compared by the multi-class MSP
(held-out for ``"heldout"``, :mod:`clustering.msp_heldout`); ``"eig"`` starts from the
multi-class EIG labels. Measured with the defaults (``lam`` 0.2, ``random_state=0``):
``wine-raw`` NMI 0.893, ``iris`` 0.742, ``digits`` (10 classes) 0.781, each with identical
labels after rescaling every feature by ``10^U(-3, 3)``. With ``init="auto"`` (monotone
search): ``wine-raw`` 0.911, as with ``"auto-invariant"`` (the raw k-means start alone
0.831); ``digits`` 0.771 (the raw k-means start has the highest MSP; not invariant), 0.654
with ``"auto-invariant"``; ``iris`` 0.742.

Kernel
------
``kernel="rbf"`` is MSPC on the spectral coordinates of an RBF kernel. The data are
z-scored; the kernel is approximated by a Nystroem map
(:class:`sklearn.kernel_approximation.Nystroem`, at most ``n_components = 300`` landmarks, so
time and memory stay linear in ``N``); the leading eigenvectors of the normalised kernel
``D^-1/2 K D^-1/2``, rows scaled to unit length as in Ng, Jordan and Weiss's spectral
clustering, then z-scored, are the features in which the pairwise MPMs are fitted and the
multi-class MSP is maximised (a few numbers per sample, so the MPM's covariances are
estimable; new points get their coordinates by the Nystroem extension). The ``"eig"`` start
(and ``method="eig"``) is Ng-Jordan-Weiss spectral clustering: k-means on the ``k`` leading
eigenvectors, rows normalised; ``"kmeans"`` and ``"kmeans-standardized"`` both run k-means on
the spectral coordinates.

Width and rank, without labels. With ``gamma=None`` (the default) :func:`fit_general` fits
one candidate per width ``sigma`` in 0.25, 0.5 and 1 times von Luxburg's spanning-tree width
(the longest edge of a Euclidean minimum spanning tree of at most 1000 samples: the narrowest
width that leaves no sample unlinked), each with ``k`` eigenvectors
(:mod:`clustering._kernel_auto`), and keeps the fit of largest held-out MSP
(:mod:`clustering.msp_heldout`, in its own coordinates) among those whose clusters all have
at least ``N / (4 k)`` points; ``gamma_`` is the width kept. A given ``gamma`` fits once with
``k + 1`` eigenvectors (the rule before). Measured over moons and circles draws that were not
tuned on (16 draws, ``bench/kernel_spectral.py --part choice``): mean adjusted Rand index
0.753 with ``gamma=None``, 0.463 with the rule before, 0.726 for scikit-learn's spectral
clustering with a k-NN graph; the in-sample MSP picks the same candidate on 15 of the 16.

Kernel MSPC is experimental: 16 draws are few and its lead over the k-NN graph is small;
the measured table is in REPRODUCTION.md ("Beyond the papers: the held-out MSP").

What a kernel keeps and loses: the data are z-scored before the map, and the width is
computed from the z-scored data, so kernel MSPC keeps invariance to **per-feature scaling**
(any positive or negative factor per feature, and shifts; up to the Nystroem landmarks, which
are drawn by index and so are the same samples); it loses invariance to **general invertible
linear maps** (rotations, shears): Euclidean distances between z-scored points change under
them, and so do the kernel, its width and its eigenvectors (two moons mapped by
``[[1, 2], [0.5, -1]]``: accuracy 0.503 with the defaults). The MSP of a kernel fit is the
worst-case accuracy bound of the MPM in the spectral coordinates, not in the input space.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, replace

import numpy as np
from scipy import linalg
from sklearn.exceptions import ConvergenceWarning
from sklearn.kernel_approximation import Nystroem

from ._base import kmeans_labels
from ._compat import check_random_state
from ._kernel_auto import AUTO_RANK_OFFSETS, AUTO_WIDTHS
from ._lam import effective_lam
from ._moments import regularizer_matrix, standardize
from ._starts import (
    HELDOUT_MARGIN,
    HELDOUT_STARTS,
    MULTI_STARTS,
    TWO_CLUSTER_STARTS,
    better,
    eligible,
    range_scaled,
    restarts_per_start,
    whiten,
)
from .exceptions import DegenerateDataError
from .msp_heldout import heldout_msp_z, heldout_seed
from .msp_multiclass import encode_labels
from .solvers.multiclass import (
    solve_eig_multiclass,
    solve_gep_multiclass,
    solve_mpm_multiclass,
    spectral_embedding,
)

#: The most Nystroem landmarks kernel MSPC uses.
MAX_COMPONENTS = 300
#: Samples used for the spanning-tree width.
MEDIAN_SAMPLES = 1000


def _spanning_tree(Z: np.ndarray, random_state):
    """The distances between the distinct samples among (at most :data:`MEDIAN_SAMPLES` of)
    ``Z`` and the longest edge of their Euclidean minimum spanning tree; ``(None, None)``
    when all samples coincide."""
    from scipy.sparse.csgraph import minimum_spanning_tree
    from sklearn.metrics.pairwise import euclidean_distances

    n = Z.shape[0]
    S = Z[random_state.permutation(n)[:MEDIAN_SAMPLES]] if n > MEDIAN_SAMPLES else Z
    S = np.unique(S, axis=0)
    if S.shape[0] < 2:
        return None, None
    D = euclidean_distances(S)
    return D, float(minimum_spanning_tree(D).data.max())


def spanning_tree_gamma(Z: np.ndarray, random_state) -> float:
    """``1 / (2 sigma^2)`` with ``sigma`` the longest edge of a Euclidean minimum spanning
    tree of (at most :data:`MEDIAN_SAMPLES` of) the samples.

    Von Luxburg's rule for a Gaussian similarity graph ("A tutorial on spectral
    clustering", 2007, section 8.1): the smallest width at which every sample is still
    linked to the rest, so no single outlier forms a cluster of its own, and no wider.
    """
    _, sigma = _spanning_tree(Z, random_state)
    if sigma is None:
        raise DegenerateDataError(
            "All samples coincide, so there is no kernel width. Pass gamma explicitly."
        )
    return 1.0 / (2.0 * sigma**2)


#: A kernel value below this is zero for the clustering (the sample is on its own).
KERNEL_FLOOR = 1e-12


def check_gamma(Z: np.ndarray, gamma: float, random_state) -> None:
    """Refuse an RBF width that makes the kernel useless on ``Z`` (z-scored samples).

    Too wide (``gamma`` tiny): every kernel value is within :data:`KERNEL_FLOOR` of 1, all
    samples look the same. Too narrow: a sample's kernel values to every other sample fall
    below it (the longest edge of a minimum spanning tree is past the width), so it would
    form a cluster on its own. Both messages give the automatic width.
    """
    D, sigma = _spanning_tree(Z, random_state)
    if sigma is None:
        return  # the data checks name coinciding samples
    auto = 1.0 / (2.0 * sigma**2)
    diameter2 = float(D.max()) ** 2
    if gamma * diameter2 < KERNEL_FLOOR:
        raise DegenerateDataError(
            f"gamma={gamma:g} is so small that every RBF kernel value is within "
            f"{KERNEL_FLOOR:g} of 1 (the samples are at most {diameter2**0.5:.3g} apart in "
            "z-scored units): every pair of samples looks the same. Use a larger gamma, "
            f"or gamma=None for the automatic width ({auto:.3g} here)."
        )
    limit = -np.log(KERNEL_FLOOR) / sigma**2
    if gamma > limit:
        raise DegenerateDataError(
            f"gamma={gamma:g} is so narrow that the samples fall apart into groups with no "
            f"RBF kernel value above {KERNEL_FLOOR:g} between them (a minimum spanning tree "
            f"of the z-scored samples has an edge of {sigma:.3g}): such a group, even a "
            f"single sample, would be a cluster of its own. Use gamma below {limit:.3g}, or "
            f"gamma=None for the automatic width ({auto:.3g} here)."
        )


class SpectralMap:
    """The normalised kernel's leading eigenvectors, for samples and new points.

    ``F`` are Nystroem features (``K ~ F F'``); the degrees are ``d = F F' 1`` and the
    normalised kernel ``D^-1/2 K D^-1/2 = A A'`` with ``A = D^-1/2 F``, whose leading
    eigenvectors are the left singular vectors ``U = A V / s``, so a new point's
    coordinates are ``a(x) V / s`` (the Nystroem extension). Rows are scaled to unit norm
    as in Ng, Jordan and Weiss's spectral clustering.
    """

    def __init__(self, F: np.ndarray, rank: int) -> None:
        self.total = F.sum(axis=0)
        A = F / np.sqrt(self._degrees(F))[:, None]
        U, s, Vt = linalg.svd(A, full_matrices=False)
        rank = min(rank, int(np.sum(s > s[0] * 1e-10)))
        self.V = Vt[:rank].T / s[:rank]
        self.eigenvalues = s**2
        self.U = U[:, :rank]

    def _degrees(self, F: np.ndarray) -> np.ndarray:
        deg = F @ self.total
        floor = 1e-12 * max(float(np.max(np.abs(deg))), 1e-300)
        return np.maximum(deg, floor)

    @staticmethod
    def rows(U: np.ndarray) -> np.ndarray:
        norms = np.linalg.norm(U, axis=1, keepdims=True)
        return U / np.maximum(norms, 1e-300)

    def transform(self, F: np.ndarray) -> np.ndarray:
        return self.rows((F / np.sqrt(self._degrees(F))[:, None]) @ self.V)


class FeatureMap:
    """z-scoring, then (for ``kernel="rbf"``) the Nystroem map and the normalised kernel's
    ``rank`` (default ``n_clusters + 1``) leading eigenvectors, z-scored."""

    def __init__(
        self, X: np.ndarray, kernel: str, gamma, random_state, n_clusters=2, rank=None
    ) -> None:
        self.std_in = standardize(X)
        Z = self.std_in.Z
        self.nystroem = None
        self.spectral = None
        self.gamma_ = None
        if kernel == "rbf":
            if gamma is not None:
                check_gamma(Z, float(gamma), random_state)
            self.gamma_ = (
                float(gamma) if gamma is not None else spanning_tree_gamma(Z, random_state)
            )
            m = min(MAX_COMPONENTS, Z.shape[0])
            self.nystroem = Nystroem(
                kernel="rbf", gamma=self.gamma_, n_components=m, random_state=random_state
            ).fit(Z)
            rank = n_clusters + 1 if rank is None else int(rank)
            self.spectral = SpectralMap(self.nystroem.transform(Z), rank)
            self.start_embedding = SpectralMap.rows(self.spectral.U[:, :n_clusters])
            self.std_out = standardize(SpectralMap.rows(self.spectral.U))
        else:
            self.std_out = self.std_in

    @property
    def Z(self) -> np.ndarray:
        return self.std_out.Z

    def transform(self, X: np.ndarray) -> np.ndarray:
        Z = self.std_in.apply(X)
        if self.nystroem is None:
            return Z
        return self.std_out.apply(self.spectral.transform(self.nystroem.transform(Z)))


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


def _same_partition(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two labelings are the same partition (up to renaming the clusters)."""
    _, ia = np.unique(a, return_index=True)
    _, ib = np.unique(b, return_index=True)
    ra = np.argsort(np.argsort(ia))[np.unique(a, return_inverse=True)[1]]
    rb = np.argsort(np.argsort(ib))[np.unique(b, return_inverse=True)[1]]
    return np.array_equal(ra, rb)


def warn_unconverged(status: str, max_iter: int, k: int, *, stacklevel: int) -> None:
    """The ``ConvergenceWarning`` of an MSPC search that stopped on a step that would have
    emptied a cluster (``status="empty-cluster"``) or at ``max_iter``; nothing otherwise."""
    if status == "empty-cluster":
        fix = "Try fewer clusters or a larger lam." if k > 2 else "Try a larger lam."
        message = (
            "A relabelling step would have emptied a cluster; MSPC rejected it and kept the "
            f"previous labels with all {k} clusters. {fix}"
        )
    elif status == "max_iter":
        message = (
            f"MSPC did not converge in max_iter={max_iter} iterations; returning the best "
            "labeling found. Increase max_iter."
        )
    else:
        return
    warnings.warn(message, ConvergenceWarning, stacklevel=stacklevel)


def heldout_key(climbed: list, labels: np.ndarray, Z: np.ndarray, k: int, reg, seed: int):
    """``(msp_heldout, key)`` of a climbed labeling for the held-out multi-start: its held-out
    MSP on ``Z`` (:func:`heldout_once`) and the key :func:`clustering._starts.better` compares,
    ``(eligible, msp_heldout)``."""
    value = heldout_once(
        climbed,
        labels,
        lambda lab: heldout_msp_z(Z, lab, k, reg, random_state=seed, too_small="zero"),
    )
    return value, (eligible(labels, Z.shape[1]), value)


def heldout_once(climbed: list, labels: np.ndarray, score) -> float:
    """The held-out MSP of ``labels``, ``score(labels)``, computed once per partition: different
    starts often climb to the same one, and ``climbed`` keeps the ``(labels, score)`` pairs
    met so far (appended to here)."""
    for seen, value in climbed:
        if _same_partition(seen, labels):
            return value
    value = score(labels)
    climbed.append((labels, value))
    return value


def _start(n_init, init, X, fmap, Lambda, k, random_state) -> np.ndarray:
    if not isinstance(init, str):
        codes, k_init = encode_labels(init, X.shape[0], what="init")
        if k_init != k:
            raise ValueError(
                f"init has {k_init} clusters but n_clusters={k}. Give a start with {k} "
                "clusters or change n_clusters."
            )
        return codes
    if init == "eig" and fmap.spectral is not None:
        # Ng, Jordan and Weiss: k-means on the k leading eigenvectors, rows normalised.
        data = fmap.start_embedding
    elif init == "eig":
        data = spectral_embedding(fmap.Z, Lambda, k)
    elif init == "kmeans-whitened":
        data = whiten(fmap.Z)
    elif init == "kmeans-range" and fmap.nystroem is None:
        data = range_scaled(X)
    elif init in ("kmeans-standardized", "kmeans-range") or fmap.nystroem is not None:
        data = fmap.Z
    else:
        data = X
    return kmeans_labels(data, k, n_init=n_init, random_state=random_state)


def _multi_start(params, X, fmap, Lambda, reg, k, random_state, seed):
    """Climb from each start of ``params.init`` (several for the multi-starts of
    :data:`clustering._starts.MULTI_STARTS`), keep the highest multi-class MSP (the first on
    ties); a start that gives the same partition as an earlier one is climbed once."""
    init = params.init
    names = MULTI_STARTS[init] if isinstance(init, str) and init in MULTI_STARTS else (init,)
    solver = solve_mpm_multiclass if params.method == "mpm" else solve_gep_multiclass
    by_heldout = isinstance(init, str) and init in HELDOUT_STARTS
    n_init = restarts_per_start(init, names, params.n_init)
    climbed: list[tuple[np.ndarray, float]] = []
    best = None
    seen: list[np.ndarray] = []
    starts: list[dict] = []
    if isinstance(init, str) and init in TWO_CLUSTER_STARTS:
        raise ValueError(
            f"init={init!r} cuts the data once along one direction: it needs n_clusters=2 "
            "and kernel='linear'. Pass init='heldout' (the default) or a k-means start."
        )
    for name in names:
        if isinstance(name, str) and name == "kmeans-range" and fmap.nystroem is not None:
            continue  # both are k-means on the (z-scored) spectral coordinates
        if isinstance(name, str) and name in TWO_CLUSTER_STARTS:
            continue  # one cut along one direction: two clusters, linear, only
        try:
            labels0 = _start(n_init, name, X, fmap, Lambda, k, random_state)
        except DegenerateDataError:
            if len(names) == 1:
                raise
            continue  # e.g. k-means found fewer than k clusters; other starts remain
        if any(_same_partition(labels0, s) for s in seen):
            continue
        seen.append(labels0)
        result, model = solver(fmap.Z, reg, labels0, k, params.max_iter)
        msp = model.msp()
        label = name if isinstance(name, str) else "array"
        entry = {"init": label, "msp": msp, "n_iter": result.n_iter}
        key = (True, msp)
        if by_heldout:
            entry["msp_heldout"], key = heldout_key(climbed, result.labels, fmap.Z, k, reg, seed)
        starts.append(entry)
        if best is None or better(key, best[0], HELDOUT_MARGIN if by_heldout else 0.0):
            best = (key, result, model, labels0)
    if best is None:
        raise DegenerateDataError(f"No start found {k} non-empty clusters. Use fewer clusters.")
    return best[1], best[2], best[3], starts, (best[0][1] if by_heldout else None)


@dataclass(frozen=True)
class GeneralFit:
    """What :func:`fit_general` returns: the fitted attributes of :class:`clustering.MSPC`
    (each field is the attribute of the same name with a trailing underscore; ``w`` and ``b``
    are ``None`` for a kernel fit), plus the kernel's ``rank`` (eigenvectors used) and, when
    the width and rank were chosen, the ``candidates`` tried (``gamma``, ``rank``, ``msp``,
    ``msp_heldout`` and ``large``: no cluster below ``N / (4 n_clusters)`` points, each)."""

    model: MulticlassModel
    labels: np.ndarray
    init_labels: np.ndarray
    starts: list
    pairs: list
    msp: float
    msp_heldout: float
    alpha: np.ndarray
    w: np.ndarray | None
    b: float | np.ndarray | None
    kappa: float | np.ndarray
    gamma: float | None
    rank: int | None
    n_iter: int
    history: np.ndarray
    converged: bool
    candidates: tuple = ()


def fit_general(params, X: np.ndarray) -> GeneralFit:
    """Fit MSPC with ``params.n_clusters`` clusters and ``params.kernel`` on validated ``X``.

    With ``kernel="rbf"`` and ``gamma=None``, one fit per width in :data:`AUTO_WIDTHS` and
    rank in :data:`AUTO_RANK_OFFSETS`, kept as the module docstring says ("Width and rank";
    the first on ties, among all if no fit has large clusters); ``rank`` and ``candidates``
    of the result say which was kept and how each scored.
    """
    if params.kernel != "rbf" or params.gamma is not None:
        return _fit_one(params, X, params.gamma, None)
    k = int(params.n_clusters)
    Z = standardize(X).Z
    if np.unique(Z, axis=0).shape[0] < max(k, 2):
        return _fit_one(params, X, None, None)  # the single fit names the problem
    gamma0 = spanning_tree_gamma(Z, check_random_state(params.random_state))
    best, candidates, error = None, [], None
    for offset in AUTO_RANK_OFFSETS:
        for scale in AUTO_WIDTHS:
            gamma = gamma0 / scale**2  # sigma = scale * the spanning tree's longest edge
            try:
                fit = _fit_one(params, X, gamma, k + offset)
            except DegenerateDataError as exc:
                error = exc
                continue
            large = np.bincount(fit.labels, minlength=k).min() >= X.shape[0] / (4 * k)
            candidates.append(
                {
                    "gamma": gamma,
                    "rank": k + offset,
                    "msp": fit.msp,
                    "msp_heldout": fit.msp_heldout,
                    "large": bool(large),
                }
            )
            if best is None or (large, fit.msp_heldout) > best[0]:
                best = ((large, fit.msp_heldout), fit)
    if best is None:
        raise error
    return replace(best[1], candidates=tuple(candidates))


def _fit_one(params, X: np.ndarray, gamma, rank) -> GeneralFit:
    """One fit of :func:`fit_general` with the kernel width ``gamma`` (``None``: the
    spanning-tree width) and ``rank`` eigenvectors (``None``: ``n_clusters + 1``); ``params``
    is the estimator (only its constructor parameters are read). The fields are MSPC's
    attributes of the same names; with ``method="eig"`` (labels by k-means rounding) the
    one-vs-one ``predict`` can disagree with ``labels`` on training points near a boundary.
    """
    k = int(params.n_clusters)
    n_distinct = np.unique(X, axis=0).shape[0]
    if n_distinct < k:
        raise DegenerateDataError(
            f"n_clusters={k} but the data has only {n_distinct} distinct samples. Use fewer "
            f"clusters (at most {n_distinct}, and at least 2)."
        )
    random_state = check_random_state(params.random_state)
    seed = heldout_seed(params.random_state, random_state)
    fmap = FeatureMap(X, params.kernel, gamma, random_state, k, rank)
    Lambda = regularizer_matrix(fmap.std_out, params.regularizer)
    reg = effective_lam(params.lam, params.regularizer) * Lambda
    Z = fmap.Z
    starts: list[dict] = []
    heldout = None
    if params.method == "eig":
        Q = fmap.start_embedding if fmap.spectral is not None else None
        result, model = solve_eig_multiclass(Z, Lambda, reg, k, random_state, params.n_init, Q)
        init_labels = result.labels.copy()
    else:
        result, model, labels0, starts, heldout = _multi_start(
            params, X, fmap, Lambda, reg, k, random_state, seed
        )
        init_labels = labels0.copy()
    warn_unconverged(result.status, params.max_iter, k, stacklevel=4)
    w = b = None
    if fmap.nystroem is None:
        W = np.zeros((len(model.pairs), X.shape[1]))
        B = np.zeros(len(model.pairs))
        for p in range(len(model.pairs)):
            W[p], B[p] = fmap.std_in.weights_to_original(model.W[p], model.B[p], unit=True)
        w, b = (W[0], float(B[0])) if k == 2 else (W, B)
    return GeneralFit(
        model=MulticlassModel(fmap, model),
        labels=result.labels,
        init_labels=init_labels,
        starts=starts,
        pairs=model.pairs,
        msp=model.msp(),
        msp_heldout=heldout
        if heldout is not None
        else heldout_msp_z(Z, result.labels, k, reg, random_state=seed, too_small="zero"),
        alpha=model.alpha,
        w=w,
        b=b,
        kappa=float(model.kappa[0]) if k == 2 else model.kappa,
        gamma=fmap.gamma_,
        rank=None if fmap.spectral is None else int(fmap.spectral.U.shape[1]),
        n_iter=result.n_iter,
        history=np.asarray(result.history, dtype=float),
        converged=result.status in ("converged", "closed-form"),
    )
