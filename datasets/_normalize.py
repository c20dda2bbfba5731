"""Range scaling to ``[-1, 1]``, the preprocessing of the MSPC paper's experiments.

"For comparisons to be fair, we normalize each feature of the UCI data sets to the range
``[-1, 1]^d``" (Huang et al., Maximin Separation Probability Clustering, AAAI 2015,
Empirical Study).
A constant feature has no range to scale; it carries no information for clustering, so it is
dropped and the drop is reported.
"""

from __future__ import annotations

import numpy as np

from ._base import Dataset, format_names


def scale_to_unit_range(X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Scale each column of ``X`` to ``[-1, 1]`` by ``2 (x - min) / (max - min) - 1``.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Finite values.

    Returns
    -------
    X_scaled : ndarray of shape (n_samples, n_kept), dtype float64
        The non-constant columns, scaled; each has minimum -1 and maximum 1.
    kept : ndarray of int
        Indices of the columns of ``X`` that were kept (the others are constant).

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0, 5.0, 10.0], [1.0, 5.0, 30.0], [2.0, 5.0, 20.0]])
    >>> X_scaled, kept = scale_to_unit_range(X)
    >>> X_scaled
    array([[-1., -1.],
           [ 0.,  1.],
           [ 1.,  0.]])
    >>> kept
    array([0, 2])
    """
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2:
        raise ValueError(f"X must be a 2-D array, got {X.ndim} dimension(s).")
    if X.shape[0] == 0:
        return X.copy(), np.arange(X.shape[1])
    if not np.all(np.isfinite(X)):
        raise ValueError("X contains NaN or infinite values; remove or fill them before scaling.")
    lo = X.min(axis=0)
    hi = X.max(axis=0)
    span = hi - lo
    kept = np.flatnonzero(span > 0)
    X_scaled = 2.0 * (X[:, kept] - lo[kept]) / span[kept] - 1.0
    # Round-off can leave values a hair outside the range; pin the ends exactly.
    np.clip(X_scaled, -1.0, 1.0, out=X_scaled)
    return X_scaled, kept


def normalize(dataset: Dataset) -> Dataset:
    """The data set with every feature scaled to ``[-1, 1]`` and constant features dropped.

    The description and the notes say which features were dropped, if any.

    Examples
    --------
    >>> import numpy as np
    >>> from datasets import Dataset, normalize
    >>> ds = Dataset(X=np.array([[1.0, 7.0], [3.0, 7.0], [2.0, 7.0], [5.0, 7.0]]), y=None,
    ...              feature_names=("size", "batch"), name="toy")
    >>> out = normalize(ds)
    >>> out.X.ravel()
    array([-1. ,  0. , -0.5,  1. ])
    >>> out.notes
    ("Feature 'batch' has the same value in every row and was dropped.",)
    """
    X_scaled, kept = scale_to_unit_range(dataset.X)
    dropped = [dataset.feature_names[j] for j in range(dataset.n_features) if j not in set(kept)]
    notes: tuple[str, ...] = ()
    description = dataset.description.rstrip()
    step = "Each feature was scaled to [-1, 1] (2 (x - min) / (max - min) - 1), as in the paper."
    if dropped:
        n = len(dropped)
        what = f"Feature {format_names(dropped)}" if n == 1 else f"Features {format_names(dropped)}"
        verb = "has" if n == 1 else f"({n} in all) have"
        was = "was" if n == 1 else "were"
        notes = (f"{what} {verb} the same value in every row and {was} dropped.",)
        step += f" {n} constant feature{'s' if n > 1 else ''} {was} dropped: " + ", ".join(dropped)
        step += f"; {len(kept)} features remain."
    description = (description + "\n\n" if description else "") + step
    return dataset.replace(
        X=X_scaled,
        feature_names=tuple(dataset.feature_names[j] for j in kept),
        description=description,
        add_notes=notes,
    )
