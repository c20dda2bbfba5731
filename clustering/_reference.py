"""Structure or none: the held-out MSP a search reaches on noise of the data's shape.

A labeling found by a search always has *some* held-out MSP: any hyperplane cuts Gaussian
noise into two halves that are separable on new points about half the time (100 x 3 noise:
0.52; 200 x 10: 0.55). Random labels of the same data are no reference (their held-out MSP
is near 0 whatever the data), so the reference is what the same search reaches on
structureless data of the same shape: Gaussian samples with the data's size (at most
:data:`REFERENCE_SIZE` points), dimension and correlations (drawn in z-scored coordinates,
so the reference, like the fit, does not change when a feature is rescaled). A labeling's
held-out MSP counts as structure when it exceeds the reference by more than
:data:`STRUCTURE_MARGIN`.

Measured (``python bench/real_families.py --structure``): on 30 sets of noise (Gaussian,
Student t with 4 degrees of freedom, uniform; 30 to 600 points, 1 to 40 features, mixed by
a random linear map) the default fit counts as structure on 4 sets, all uniform (a cut of a
flat distribution is more separable than one of a Gaussian); on the 42 tuning pairs of
``bench/real_families.py`` on 41 (the exception ``bupa``, accuracy 0.52); on the 30
``seen2`` pairs, mostly discrete features, on 20 (22 before the held-out MSP counted the
features' resolution, against which the Gaussian reference has none; 17 before the default
also climbed at smaller ``lam``). A fit whose labels were kept at a smaller ``lam``
(``search_lam_``) is judged at that ``lam``: its held-out MSP there against the same search
at that ``lam`` alone on the noise (MASS ``crabs``: the classes, found at 0.01-0.05, score
0.16-0.40 at 0.2 against a reference of 0.55, and 0.59-0.80 at their own ``lam`` against
0.55-0.56).
"""

from __future__ import annotations

import numpy as np

from ._moments import standardize

__all__ = [
    "REFERENCE_DRAWS",
    "REFERENCE_SIZE",
    "STRUCTURE_MARGIN",
    "gaussian_like",
    "reference_heldout",
]

#: Gaussian samples averaged.
REFERENCE_DRAWS = 2
#: At most this many points in each Gaussian sample (the held-out multi-start's subsample).
REFERENCE_SIZE = 2000
#: How far above the reference a held-out MSP must be to count as structure.
STRUCTURE_MARGIN = 0.05


def gaussian_like(X: np.ndarray, size: int, rng: np.random.Generator) -> np.ndarray:
    """``size`` Gaussian points with the correlations of ``X``'s non-constant features (in
    z-scored coordinates: the same for ``X`` and ``X`` with rescaled features)."""
    Z = standardize(X).Z
    evals, evecs = np.linalg.eigh(Z.T @ Z / Z.shape[0])
    root = evecs * np.sqrt(np.clip(evals, 0.0, None))
    return rng.standard_normal((size, Z.shape[1])) @ root.T


def reference_heldout(estimator, X: np.ndarray, seed: int, lam: float | None = None) -> float:
    """The mean held-out MSP an estimator with ``estimator``'s parameters (one k-means
    restart per start) reaches on :data:`REFERENCE_DRAWS` samples of :func:`gaussian_like`
    of ``min(N, REFERENCE_SIZE)`` points, drawn from ``seed``. With ``lam``: the same search
    at that ``lam`` alone (the smaller ``lam`` a default fit kept its labels at,
    ``search_lam_``), and its held-out MSP at that ``lam``."""
    from sklearn.base import clone

    rng = np.random.default_rng(seed)
    size = min(X.shape[0], REFERENCE_SIZE)
    params = {"n_init": 1} if lam is None else {"n_init": 1, "lam": lam}
    if not isinstance(estimator.init, str):  # labels of X: the default starts instead
        params["init"] = "heldout"
    values = []
    for draw in range(REFERENCE_DRAWS):
        sub = clone(estimator).set_params(random_state=seed + draw, **params)
        sub._skip_reference = True  # a reference needs no reference of its own
        sub._one_lam = lam is not None  # that lam only (clustering._multistart)
        values.append(sub.fit(gaussian_like(X, size, rng)).msp_heldout_)
    return float(np.mean(values))


def set_structure(estimator, X: np.ndarray, seed: int, stacklevel: int = 3) -> None:
    """Set ``msp_heldout_reference_`` and ``structure_found_`` on a fitted linear MSPC and
    warn (:class:`~clustering.exceptions.NoStructureWarning`) when the labeling's held-out
    MSP is within :data:`STRUCTURE_MARGIN` of the reference; warn
    (:class:`~clustering.exceptions.SmallClusterWarning`) when a cluster has fewer than 2
    points (nothing of it can be held out: ``msp_heldout_`` is 0, ``structure_found_``
    False, no reference computed). A kernel fit, and the
    reference fits themselves, get ``nan`` and ``None`` (the reference of a kernel fit
    would cost as much as the fit again)."""
    import warnings

    from .exceptions import DegenerateDataError, NoStructureWarning, SmallClusterWarning
    from .msp_heldout import min_cluster_size

    counts = np.bincount(estimator.labels_)
    if counts.min() < min_cluster_size(2):
        warnings.warn(
            f"A cluster has {int(counts.min())} point(s) (sizes {sorted(counts.tolist())}): "
            "too few to hold any out, so msp_heldout_ is 0 and no bound is measured. Use "
            "fewer clusters or more samples.",
            SmallClusterWarning,
            stacklevel=stacklevel,
        )
        estimator.msp_heldout_reference_, estimator.structure_found_ = float("nan"), False
        return
    estimator.msp_heldout_reference_, estimator.structure_found_ = float("nan"), None
    if getattr(estimator, "_skip_reference", False) or estimator.kernel != "linear":
        return
    # A default fit that kept a smaller lam's labels (search_lam_) is judged at that lam.
    lam = getattr(estimator, "search_lam_", estimator.lam)
    lam = None if lam == estimator.lam else lam
    score = estimator.msp_heldout_ if lam is None else estimator.search_msp_heldout_
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            reference = reference_heldout(estimator, X, seed, lam)
    except (DegenerateDataError, ValueError, np.linalg.LinAlgError):
        return  # noise of this shape cannot be clustered as asked: no reference
    estimator.msp_heldout_reference_ = reference
    estimator.structure_found_ = bool(score > reference + STRUCTURE_MARGIN)
    if not estimator.structure_found_:
        at = "" if lam is None else f" at lam={lam:.3g}, where the labels were found"
        warnings.warn(
            f"No structure found: the held-out MSP of the clustering{at} "
            f"({score:.3f}) is at the level the same search reaches on "
            f"Gaussian noise with the data's size and correlations ({reference:.3f}). The "
            "labels cut the data somewhere; they do not show separate groups.",
            NoStructureWarning,
            stacklevel=stacklevel,
        )
