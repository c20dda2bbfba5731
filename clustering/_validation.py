"""Checks every estimator runs on its training data right after ``validate_data``.

One contract for all methods (issue 12): data every method would get wrong, or fail on with
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

__all__ = ["MAX_ABS", "MIN_SPREAD", "check_clusterable", "checked_ranges"]

#: Largest absolute value accepted: squares of larger numbers overflow float64 (~1.8e308).
MAX_ABS = 1e150
#: Smallest accepted spread (max over features of max - min): squares of smaller
#: differences underflow.
MIN_SPREAD = 1e-150


def check_clusterable(X: np.ndarray) -> np.ndarray:
    """Refuse identical samples and magnitudes no method can compute with (the checks of
    :func:`checked_ranges`); return ``X`` unchanged."""
    checked_ranges(X)
    return X


def checked_ranges(X: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """Refuse identical samples and magnitudes no method can compute with; return the
    columns' minima and maxima (None for empty data), which callers can reuse.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        Finite float data, as returned by ``validate_data``.

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
    >>> X = check_clusterable(np.eye(3))
    >>> check_clusterable(np.ones((5, 2)))
    Traceback (most recent call last):
    ...
    clustering.exceptions.DegenerateDataError: All 5 samples are identical (every feature ...
    """
    n = X.shape[0]
    if n == 0 or X.size == 0:
        return None
    # Two reductions over X and no temporary of its size (np.abs(X) would copy it): the
    # largest |value| is the larger of |column max| and |column min|.
    col_max, col_min = X.max(axis=0), X.min(axis=0)
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
