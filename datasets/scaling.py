"""Anisotropic feature scaling (AFS): multiply some features by positive factors.

A unit change (seconds instead of minutes) multiplies one feature by a constant. k-means,
maximum margin and maximum volume clustering change their answer when that happens; MSPC's
objective does not (it is invariant to invertible linear maps, Theorem 1 of
Huang et al., Maximin Separation Probability Clustering (AAAI 2015)). The paper's experiment picks a
feature at random and multiplies it by ``a`` in {2, 4, 8, 16} (:data:`PAPER_FACTORS`), ten
times with ten different features (all eight for *diabetes*): :func:`random_afs` and
:func:`afs_feature_schedule`.

Invalid factors (zero, negative, NaN, infinite, wrong length, out-of-range index) raise
``ValueError`` with a message that names the offending entry.
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping, Sequence

import numpy as np

from ._base import Dataset

__all__ = [
    "PAPER_FACTORS",
    "afs_feature_schedule",
    "apply",
    "apply_to_dataset",
    "describe",
    "factors_vector",
    "invert",
    "random_afs",
]

#: The scaling factors ``a`` of the MSPC paper's AFS experiment (Fig. 1).
PAPER_FACTORS = (2.0, 4.0, 8.0, 16.0)


def _check_factor(value: object, where: str) -> float:
    what = f"The scaling factor {where}" if where else "The scaling factor"
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{what} must be a number, got {value!r}.")
    factor = float(value)
    if not np.isfinite(factor) or factor <= 0:
        raise ValueError(
            f"{what} is {factor!r}; factors must be positive and finite "
            "(a factor of 1 leaves a feature unchanged)."
        )
    return factor


def factors_vector(n_features: int, factors) -> np.ndarray:
    """Validate scaling factors and return them as a vector of length ``n_features``.

    Parameters
    ----------
    n_features : int
        Number of features ``d``.
    factors : array-like of shape (d,), or dict {feature index: factor}
        One positive finite factor per feature, or only the features to scale (the others
        get 1). Negative indices count from the end, as in numpy.

    Returns
    -------
    ndarray of shape (d,)

    Examples
    --------
    >>> factors_vector(3, {1: 8})
    array([1., 8., 1.])
    >>> factors_vector(2, [1, 0])
    Traceback (most recent call last):
    ...
    ValueError: The scaling factor of feature 1 is 0.0; factors must be positive and finite ...
    """
    d = int(n_features)
    if isinstance(factors, Mapping):
        vector = np.ones(d)
        for key, value in factors.items():
            if isinstance(key, bool) or not isinstance(key, numbers.Integral):
                raise ValueError(f"Feature indices must be integers, got {key!r}.")
            if not -d <= int(key) < d:
                raise ValueError(
                    f"Feature index {key} is out of range: the data have {d} features "
                    f"(indices 0 to {d - 1})."
                )
            vector[int(key)] = _check_factor(value, f"of feature {int(key)}")
        return vector
    array = np.asarray(factors, dtype=object)
    if array.ndim == 0:
        raise ValueError(
            "Give one factor per feature (a list of length d) or a dict {feature index: factor}."
        )
    array = array.ravel()
    if array.shape[0] != d:
        raise ValueError(
            f"{array.shape[0]} scaling factors were given for {d} features; give one per feature "
            "or a dict {feature index: factor}."
        )
    return np.array([_check_factor(v, f"of feature {j}") for j, v in enumerate(array)])


def _as_2d(X) -> np.ndarray:
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2:
        raise ValueError(f"X must be a 2-D array (samples x features), got {X.ndim} dimension(s).")
    return X


def apply(X, factors) -> np.ndarray:
    """Multiply each feature of ``X`` by its factor.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    factors : array-like of shape (n_features,), or dict {feature index: factor}
        Positive finite factors (see :func:`factors_vector`).

    Returns
    -------
    ndarray of shape (n_samples, n_features)
        A new array; ``X`` is not modified.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[1.0, 2.0], [3.0, 4.0]])
    >>> apply(X, {0: 16})
    array([[16.,  2.],
           [48.,  4.]])
    >>> invert(apply(X, [2, 0.5]), [2, 0.5])
    array([[1., 2.],
           [3., 4.]])
    """
    X = _as_2d(X)
    return X * factors_vector(X.shape[1], factors)


def invert(X_scaled, factors) -> np.ndarray:
    """Undo :func:`apply`: divide each feature by its factor (e.g. to plot original units).

    Parameters
    ----------
    X_scaled : array-like of shape (n_samples, n_features)
    factors : array-like of shape (n_features,), or dict {feature index: factor}
        The factors that were applied.

    Returns
    -------
    ndarray of shape (n_samples, n_features)

    Examples
    --------
    >>> import numpy as np
    >>> invert(np.array([[8.0, 1.0]]), {0: 8})
    array([[1., 1.]])
    """
    X_scaled = _as_2d(X_scaled)
    return X_scaled / factors_vector(X_scaled.shape[1], factors)


def _generator(rng) -> np.random.Generator:
    if isinstance(rng, np.random.RandomState):
        return np.random.default_rng(rng.randint(np.iinfo(np.int32).max))
    return np.random.default_rng(rng)


def random_afs(X, factor: float, n_features: int = 1, rng=None):
    """Scale ``n_features`` randomly chosen features by ``factor``, as in the MSPC paper.

    Parameters
    ----------
    X : array-like of shape (n_samples, d)
    factor : float
        Positive finite factor; the paper uses ``a`` in {2, 4, 8, 16} (:data:`PAPER_FACTORS`).
    n_features : int, default=1
        How many distinct features to scale (the paper scales one).
    rng : None, int, numpy Generator or RandomState
        Source of randomness (an int gives a reproducible choice).

    Returns
    -------
    X_scaled : ndarray of shape (n_samples, d)
    factors : ndarray of shape (d,)
        ``factor`` at the chosen features, 1 elsewhere; ``invert(X_scaled, factors)``
        recovers ``X``.
    chosen : ndarray of int
        The indices of the scaled features, sorted.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.ones((2, 4))
    >>> X_scaled, factors, chosen = random_afs(X, 8, rng=0)
    >>> chosen, factors
    (array([3]), array([1., 1., 1., 8.]))
    """
    X = _as_2d(X)
    d = X.shape[1]
    factor = _check_factor(factor, "")
    if isinstance(n_features, bool) or not isinstance(n_features, numbers.Integral):
        raise ValueError(f"n_features must be an integer, got {n_features!r}.")
    if not 1 <= n_features <= d:
        raise ValueError(f"n_features must be between 1 and {d} (the number of features).")
    chosen = np.sort(_generator(rng).choice(d, size=int(n_features), replace=False))
    factors = np.ones(d)
    factors[chosen] = factor
    return X * factors, factors, chosen


def afs_feature_schedule(n_features: int, n_repeats: int = 10, rng=None) -> np.ndarray:
    """The features to scale in each repetition of the paper's AFS experiment.

    "This experiment is repeated 10 times (we ensure 10 different features are scaled, and
    for *diabetes* all the eight features are selected and scaled once)".

    Parameters
    ----------
    n_features : int
        Number of features ``d`` of the data set.
    n_repeats : int, default=10
        Repetitions wanted.
    rng : None, int, numpy Generator or RandomState

    Returns
    -------
    ndarray of int of length ``min(n_repeats, n_features)``
        Distinct feature indices, one per repetition (all features, in random order, when
        ``d <= n_repeats``).

    Examples
    --------
    >>> sorted(afs_feature_schedule(8, rng=0).tolist())
    [0, 1, 2, 3, 4, 5, 6, 7]
    >>> len(afs_feature_schedule(57, rng=0))
    10
    """
    if n_features < 1 or n_repeats < 1:
        raise ValueError("n_features and n_repeats must be at least 1.")
    k = min(int(n_repeats), int(n_features))
    return _generator(rng).choice(int(n_features), size=k, replace=False)


def describe(factors, feature_names: Sequence[str] | None = None) -> str:
    """Plain-language summary of a scaling, for captions.

    Examples
    --------
    >>> describe({1: 16}, ["glucose", "age"])
    "'age' × 16"
    >>> describe([1, 1])
    'no feature scaled'
    """
    if isinstance(factors, Mapping):
        d = len(feature_names) if feature_names is not None else max(factors, default=-1) + 1
    else:
        d = len(np.ravel(np.asarray(factors, dtype=object)))
    vector = factors_vector(d, factors)
    names = list(feature_names) if feature_names is not None else [f"feature {j}" for j in range(d)]
    parts = []
    for j in np.flatnonzero(vector != 1.0):
        f = vector[j]
        shown = f"{f:g}"
        label = f"'{names[j]}'" if feature_names is not None else names[j]
        parts.append(f"{label} × {shown}")
    return ", ".join(parts) if parts else "no feature scaled"


def apply_to_dataset(dataset: Dataset, factors) -> Dataset:
    """The data set with :func:`apply` applied and a note saying which features were scaled.

    Examples
    --------
    >>> import datasets
    >>> ds = datasets.scaling.apply_to_dataset(datasets.load("diabetes"), {1: 16})
    >>> ds.notes[-1]
    "Anisotropic feature scaling: 'glucose' × 16."
    >>> float(ds.X[:, 1].max())
    16.0
    """
    vector = factors_vector(dataset.n_features, factors)
    text = describe(vector, dataset.feature_names)
    return dataset.replace(
        X=dataset.X * vector,
        description=dataset.description.rstrip() + f"\n\nAnisotropic feature scaling: {text}.",
        add_notes=(f"Anisotropic feature scaling: {text}.",),
    )
