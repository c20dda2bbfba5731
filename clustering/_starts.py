"""The starts MSPC climbs from, shared by the two-cluster and the general fit paths."""

from __future__ import annotations

import numpy as np

__all__ = ["MULTI_STARTS", "whiten"]

#: Single starts, and the multi-starts that climb several of them and keep the highest MSP.
#: ``"auto"`` tries the starts invariant to rescaling features first, then k-means on the raw
#: features; ``"auto-invariant"`` only the invariant ones (so the fit is exactly invariant).
MULTI_STARTS = {
    "auto": ("kmeans-standardized", "kmeans-whitened", "eig", "kmeans"),
    "auto-invariant": ("kmeans-standardized", "kmeans-whitened", "eig"),
}


def whiten(Z: np.ndarray, rtol: float = 1e-10) -> np.ndarray:
    """PCA-whiten centred data: unit covariance in the directions of non-negligible variance.

    Under any invertible linear map of the data the whitened data changes only by a
    rotation, which leaves Euclidean distances, and hence k-means, unchanged.
    """
    evals, evecs = np.linalg.eigh(Z.T @ Z / Z.shape[0])
    keep = evals > rtol * evals.max()
    return Z @ (evecs[:, keep] / np.sqrt(evals[keep]))
