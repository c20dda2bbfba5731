"""The statistics the lab's MSP-vs-accuracy protocol reports: Pearson's r and the
least-squares line over the finite pairs."""

from __future__ import annotations

import numpy as np

__all__ = ["fit_line", "pearson"]


def _finite_pairs(x, y) -> tuple[np.ndarray, np.ndarray]:
    x = np.asarray(x, dtype=np.float64).ravel()
    y = np.asarray(y, dtype=np.float64).ravel()
    if x.shape != y.shape:
        raise ValueError(f"x and y must have the same length; got {x.shape} and {y.shape}.")
    keep = np.isfinite(x) & np.isfinite(y)
    return x[keep], y[keep]


def pearson(x, y) -> float:
    """Pearson correlation of the finite pairs; NaN with fewer than 3 pairs or no spread.

    Examples
    --------
    >>> pearson([0.1, 0.5, 0.9], [0.6, 0.7, 0.95])
    0.9707...
    """
    x, y = _finite_pairs(x, y)
    if x.shape[0] < 3 or np.ptp(x) == 0 or np.ptp(y) == 0:
        return float("nan")
    return float(np.corrcoef(x, y)[0, 1])


def fit_line(x, y) -> tuple[float, float]:
    """Least-squares line ``y = slope * x + intercept`` over the finite pairs (NaNs if
    fewer than 2 pairs or no spread in ``x``).

    Examples
    --------
    >>> fit_line([0, 1, 2], [1, 3, 5])
    (2.0..., 1.0...)
    """
    x, y = _finite_pairs(x, y)
    if x.shape[0] < 2 or np.ptp(x) == 0:
        return float("nan"), float("nan")
    slope, intercept = np.polyfit(x, y, 1)
    return float(slope), float(intercept)
