"""Checks every estimator runs on its training data right after ``validate_data``.

One contract for all methods: data every method would get wrong, or fail on with
an error from deep inside numpy, scipy or cvxpy, is refused up front with one
:class:`~clustering.exceptions.DegenerateDataError` naming the problem and the fix.

* **All samples identical** (every feature constant): there is nothing to separate.
* **Extreme magnitudes**: a value above :data:`MAX_ABS` in absolute value (``1e150``: its
  square, and so every distance, variance and kernel value, overflows float64), or data whose
  largest feature spread is below :data:`MIN_SPREAD` (``1e-150``: squared differences
  underflow to 0, so every point looks like every other). The fix is to rescale the data
  (divide it by its largest absolute value, or standardise each feature), which every method
  in the lab accepts; the lab does not rescale silently because for most methods (those with a
  regulariser such as ``lam``, ``kappa`` or ``C``, or a kernel width) the result depends on
  the scale.

Data with more features than samples (d > N) is accepted: every method either handles it
(regularised covariances, kernels) or raises its own clear error.
"""

from __future__ import annotations

import numpy as np

from .exceptions import DegenerateDataError

__all__ = [
    "MAX_ABS",
    "MIN_SPREAD",
    "checked_ranges",
    "column_reduce",
    "validated_ranges",
]

#: Largest absolute value accepted: squares of larger numbers overflow float64 (~1.8e308).
MAX_ABS = 1e150
#: Smallest accepted spread (max over features of max - min): squares of smaller
#: differences underflow.
MIN_SPREAD = 1e-150


#: Length of the inner loop :func:`column_reduce` aims for (entries per reshaped row).
_BLOCK = 1024


def column_reduce(ufunc: np.ufunc, X: np.ndarray) -> np.ndarray:
    """``ufunc.reduce(X, axis=0)`` (per-column max, min or sum), faster on C-ordered data.

    numpy reduces the outer axis of a C-ordered array one row at a time, so with few columns its
    inner loop is a handful of entries long (measured in ``bench/RESULTS.md``). Here ``k`` rows
    at a time are viewed as one row of ``k d`` entries (about 1,000), reduced, and the ``k``
    partial results reduced again. Max and min are exact; a sum is added in another order
    (relative difference below 1e-14 on those shapes). Other layouts, or rows longer than 512
    entries, use ``ufunc.reduce`` directly. (Column means keep ``X.mean(axis=0)``: a change in
    their last bits moved one stored Table 2 cell, a fragile australian fit of the monotone MPM
    search.)
    """
    n, d = X.shape
    k = _BLOCK // max(d, 1)
    if k < 2 or n < 2 * k or not X.flags.c_contiguous:
        return ufunc.reduce(X, axis=0)
    m = n // k * k
    out = ufunc.reduce(ufunc.reduce(X[:m].reshape(-1, k * d), axis=0).reshape(k, d), axis=0)
    if m < n:
        out = ufunc(out, ufunc.reduce(X[m:], axis=0))
    return out


def validated_ranges(estimator, X, **kwargs):
    """``validate_data(estimator, X, **kwargs)`` at fit (``reset=True``: sets
    ``n_features_in_`` and ``feature_names_in_``) followed by :func:`checked_ranges`, with the
    finiteness check read off the columns' extremes (a NaN or an infinity shows in them)
    instead of scikit-learn's separate pass over ``X``.

    Returns
    -------
    X : ndarray
        What ``validate_data`` returns.
    ranges : tuple of (col_min, col_max), or None for empty data

    Raises
    ------
    ValueError
        scikit-learn's own message for NaN or infinite values (``validate_data`` is called
        again with its finiteness check when one is found).
    DegenerateDataError
        As :func:`checked_ranges`.
    """
    from ._compat import validate_data

    min_samples = kwargs.get("ensure_min_samples", 1)
    if (
        set(kwargs) <= {"dtype", "ensure_min_samples"}
        and kwargs.get("dtype") is np.float64
        and type(X) is np.ndarray
        and X.dtype == np.float64
        and X.ndim == 2
        and X.shape[0] >= min_samples
        and X.shape[1] >= 1
    ):
        # What check_array would return unchanged (a 2-D float64 ndarray with enough rows and
        # columns; finiteness is checked below): only validate_data's bookkeeping at fit
        # (reset=True) is left, done here as scikit-learn does it for an array without
        # column names (its _check_feature_names asks narwhals whether X is a data frame,
        # a noticeable share of a small fit).
        estimator.n_features_in_ = X.shape[1]
        if hasattr(estimator, "feature_names_in_"):
            del estimator.feature_names_in_
    else:
        X = validate_data(estimator, X, ensure_all_finite=False, **kwargs)
    if X.size == 0:
        return X, None
    col_min, col_max = column_reduce(np.minimum, X), column_reduce(np.maximum, X)
    if not (np.isfinite(col_min).all() and np.isfinite(col_max).all()):
        validate_data(estimator, X, **kwargs)  # raises scikit-learn's message
    ranges = checked_ranges(X, ranges=(col_min, col_max))
    check_fit_cost(estimator, X)
    return X, ranges


def check_fit_cost(estimator, X: np.ndarray) -> None:
    """Refuse, before any work, a fit predicted above this machine's hard cap.

    The registered method the estimator is (:func:`clustering._cost.registry_key`) and
    its parameters give the prediction (:func:`clustering._cost.check_cost`); the
    :class:`~clustering.exceptions.TooExpensiveError` names the predicted time and memory
    and what to change. An estimator the registry does not know is not checked.
    """
    from ._cost import check_cost, registry_key

    key = registry_key(estimator)
    if key is not None and X.ndim == 2:
        check_cost(key, X.shape[0], X.shape[1], estimator.get_params(deep=False))


def checked_ranges(
    X: np.ndarray, ranges: tuple[np.ndarray, np.ndarray] | None = None
) -> tuple[np.ndarray, np.ndarray] | None:
    """Refuse identical samples and magnitudes no method can compute with; return the
    columns' minima and maxima (None for empty data), which callers can reuse.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        Finite float data, as returned by ``validate_data``.
    ranges : tuple of (col_min, col_max), optional
        The columns' minima and maxima when the caller has them (saves two passes).

    Returns
    -------
    col_min, col_max : ndarray of shape (n_features,)

    Raises
    ------
    DegenerateDataError
        If every sample is identical, a value exceeds :data:`MAX_ABS` in absolute value, or
        the largest feature spread is below :data:`MIN_SPREAD`; the message names the fix.

    Examples
    --------
    >>> import numpy as np
    >>> col_min, col_max = checked_ranges(np.eye(3))
    >>> checked_ranges(np.ones((5, 2)))
    Traceback (most recent call last):
    ...
    clustering.exceptions.DegenerateDataError: All 5 samples are identical (every feature ...
    """
    n = X.shape[0]
    if n == 0 or X.size == 0:
        return None
    # Two reductions over X and no temporary of its size (np.abs(X) would copy it): the
    # largest |value| is the larger of |column max| and |column min|.
    if ranges is None:
        col_min, col_max = column_reduce(np.minimum, X), column_reduce(np.maximum, X)
    else:
        col_min, col_max = ranges
    top = float(max(col_max.max(), -col_min.min()))
    if top > MAX_ABS:
        raise DegenerateDataError(
            f"The data holds values as large as {top:.3g}: above {MAX_ABS:.0e} their squares "
            "(distances, variances, kernels) overflow floating point. Fix: rescale the data, "
            "e.g. divide it by its largest absolute value or standardise each feature."
        )
    spread = float(np.max(col_max - col_min))
    if spread == 0.0:
        raise DegenerateDataError(
            f"All {n} samples are identical (every feature is constant), so there is nothing "
            "to separate. Fix: check that the right columns were chosen, or use data with at "
            "least two distinct samples."
        )
    if spread < MIN_SPREAD:
        raise DegenerateDataError(
            f"The samples differ by at most {spread:.3g}: below {MIN_SPREAD:.0e} their "
            "squared differences underflow to zero, so every point looks the same to the "
            "method. Fix: rescale the data, e.g. divide it by its largest absolute value or "
            "standardise each feature."
        )
    return col_min, col_max
