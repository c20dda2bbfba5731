"""Shared numerical pieces: per-feature standardisation, the regulariser Lambda and cluster
moments.

Every MSP computation works on standardised coordinates ``Z = (X - mean) / std``. With the
regulariser ``Lambda = diag(Sigma)`` this changes nothing mathematically (MSP is invariant to
positive diagonal scaling, Theorem 1 of the MSPC paper) but it keeps the linear algebra well
conditioned when one feature is a million times larger than another, which is the very
situation (anisotropic feature scaling) the lab is about.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .exceptions import DegenerateDataError

REGULARIZERS = ("diag", "identity", "none", "total")


@dataclass(frozen=True)
class Standardized:
    """Data in standardised coordinates and the map back to the original ones.

    ``Z = (X[:, keep] - mean[keep]) / scale[keep]``; constant features (``keep == False``)
    carry no information for a linear separator and get weight zero.
    """

    Z: np.ndarray
    mean: np.ndarray
    scale: np.ndarray
    keep: np.ndarray

    def apply(self, X: np.ndarray) -> np.ndarray:
        """New samples in the coordinates of ``Z`` (the same centring, scaling and features)."""
        return (X[:, self.keep] - self.mean[self.keep]) / self.scale[self.keep]

    def weights_to_original(
        self, w_z: np.ndarray, b_z: float, unit: bool = False
    ) -> tuple[np.ndarray, float]:
        """Turn ``w_z' z - b_z`` into ``w' x - b`` in the original coordinates; with ``unit``
        scaled to ``||w|| = 1`` (unless ``w`` is zero)."""
        w = np.zeros(self.mean.shape[0])
        w[self.keep] = w_z / self.scale[self.keep]
        b = float(b_z + w @ self.mean)
        norm = np.linalg.norm(w) if unit else 0.0
        return (w / norm, b / norm) if norm > 0 else (w, b)


def standardize(X: np.ndarray, ptp: np.ndarray | None = None) -> Standardized:
    """Centre and scale every non-constant feature to unit (biased) variance.

    ``ptp``: the features' ranges (max - min) when the caller has them (saves two passes).

    Raises
    ------
    DegenerateDataError
        If every feature is constant.
    """
    keep = (np.ptp(X, axis=0) if ptp is None else ptp) > 0
    if not keep.any():
        raise DegenerateDataError(
            "Every feature is constant, so there is nothing to separate. "
            "Check that the right columns were loaded."
        )
    mean = X.mean(axis=0)
    scale = np.ones(X.shape[1])
    # A new array: X is never modified. (Boolean column indexing of a C-ordered array is
    # slow: subtract directly when every feature is kept.)
    if keep.all():
        Z = X - mean
    else:
        Z = np.take(X, np.flatnonzero(keep), axis=1)
        Z -= mean[keep]
    std = np.sqrt(np.einsum("ij,ij->j", Z, Z) / Z.shape[0])
    # ptp > 0 guarantees std > 0 except for denormal values; guard anyway.
    std[std == 0] = 1.0
    scale[keep] = std
    Z /= std
    return Standardized(Z=Z, mean=mean, scale=scale, keep=keep)


def resolution_variance(std: Standardized) -> np.ndarray:
    """Each kept feature's rounding variance ``delta^2 / 4`` in standardised units, ``delta``
    the smallest gap between two of its distinct values (its resolution).

    A feature recorded on a grid of step ``delta`` (a 0/1 flag, a 1-to-9 survey answer)
    says only that a value lies within a step, and a distribution within an interval of
    width ``delta`` has variance at most ``delta^2 / 4`` (Popoviciu's inequality; the MPM
    bounds the worst case over distributions, so the largest). Without it, a cluster
    constant along a discrete feature has no spread along it but the regulariser, and a
    split by a 0/1 feature that a fraction ``p`` of the points have gets
    ``kappa = 1 / (2 sqrt(lam p (1 - p)))``: MSP 0.85 at ``p = 0.36`` and ``lam = 0.2``
    (the default's labeling of ``marketing`` pairs in ``bench/real_families.py``, cut along
    the sex column), above labelings that follow the classes; with it
    ``kappa = 1 / (2 sqrt(lam p (1 - p) + 1/4)) <= 1``, MSP at most 0.5. On a continuous
    feature ``delta`` is the recording precision, and the term is negligible.
    """
    out = np.empty(std.Z.shape[1])
    for j in range(out.shape[0]):
        out[j] = np.diff(np.unique(std.Z[:, j])).min() ** 2 / 4.0  # kept: 2+ values
    return out


def heldout_reg(std: Standardized, regularizer: str, lam: float) -> np.ndarray:
    """The regulariser of a two-cluster held-out MSP (MSPC's choice among starts,
    ``msp_heldout_`` and :func:`clustering.msp_heldout.msp_heldout_score` with two
    clusters): ``lam * Lambda``, plus the features' :func:`resolution_variance` ``R`` for
    ``"diag"`` (``lam diag(Sigma) + R``; the other regularisers were not measured with it).
    The climbs, the in-sample MSP and the multi-class held-out MSP keep the paper's
    ``lam * Lambda``."""
    Lambda = regularizer_matrix(std, regularizer)
    if regularizer == "diag" and lam:
        Lambda = Lambda + np.diag(resolution_variance(std)) / lam
    return lam * Lambda


def regularizer_matrix(std: Standardized, regularizer: str) -> np.ndarray:
    """The matrix ``Lambda`` of the MSPC paper eq. (3), in standardised coordinates.

    ``"diag"``: ``diag(Sigma)`` of the whole data (the paper's choice), which is the identity
    in standardised coordinates. ``"identity"``: ``I`` in the original coordinates, that is
    ``diag(1 / scale**2)`` here. ``"total"``: the full covariance ``Sigma`` of the data (the
    correlation matrix here), which makes every step invariant to any invertible linear map.
    ``"none"``: zero.
    """
    d = std.Z.shape[1]
    if regularizer == "diag":
        return np.eye(d)
    if regularizer == "identity":
        return np.diag(1.0 / std.scale[std.keep] ** 2)
    if regularizer == "total":
        return std.Z.T @ std.Z / std.Z.shape[0]
    if regularizer == "none":
        return np.zeros((d, d))
    raise ValueError(
        f"Unknown regularizer {regularizer!r}; use one of {', '.join(map(repr, REGULARIZERS))}."
    )


def binary_labels(labels, n_samples: int, *, what: str = "labels") -> np.ndarray:
    """Check a labeling of ``n_samples`` points into exactly two groups; return it as 0/1.

    The larger original value maps to 1 (for 0/1 or -1/+1 labelings this keeps the meaning);
    ``what`` names the labeling in the error messages.
    """
    labels = np.asarray(labels)
    if labels.ndim != 1 or labels.shape[0] != n_samples:
        raise ValueError(
            f"{what} must have one label per sample ({n_samples}); got shape {labels.shape}."
        )
    values = np.unique(labels)
    if values.shape[0] != 2:
        raise ValueError(
            f"{what} must contain exactly two labels (two clusters); got "
            f"{values.shape[0]}: {values[:5].tolist()}."
        )
    return (labels == values[1]).astype(np.intp)


@dataclass(frozen=True)
class ClusterMoments:
    """Counts, means and biased covariances of the two clusters (1 and 0)."""

    n1: int
    n0: int
    mu1: np.ndarray
    mu0: np.ndarray
    Sigma1: np.ndarray
    Sigma0: np.ndarray


def cluster_moments(Z: np.ndarray, labels01: np.ndarray) -> ClusterMoments:
    """Means and biased (1/N_k) covariances of the clusters ``labels01 == 1`` and ``== 0``."""
    mask = labels01.astype(bool)
    Z1, Z0 = Z[mask], Z[~mask]
    mu1, mu0 = Z1.mean(axis=0), Z0.mean(axis=0)
    D1, D0 = Z1 - mu1, Z0 - mu0
    return ClusterMoments(
        n1=Z1.shape[0],
        n0=Z0.shape[0],
        mu1=mu1,
        mu0=mu0,
        Sigma1=D1.T @ D1 / Z1.shape[0],
        Sigma0=D0.T @ D0 / Z0.shape[0],
    )


class RunningMoments:
    """Cluster sums and scatter matrices updated by the points that switch cluster.

    The MSPC paper, Appendix B: after a relabelling only the switched points change the
    moments, so an update costs ``O(n_switched d^2)`` instead of ``O(N d^2)``. Cluster 0 is
    kept as the total minus cluster 1.
    """

    def __init__(
        self, Z: np.ndarray, labels01: np.ndarray, total_scatter: np.ndarray | None = None
    ) -> None:
        self.Z = Z
        self.n = Z.shape[0]
        mask = labels01.astype(bool)
        if total_scatter is None:
            Z1, Z0 = Z[mask], Z[~mask]
            self.n1 = Z1.shape[0]
            self.sum1, self.sum0 = Z1.sum(axis=0), Z0.sum(axis=0)
            # Two products of N1 and N0 rows: O(N d^2) in all, as for one covariance.
            self.scatter1, self.scatter0 = Z1.T @ Z1, Z0.T @ Z0
            return
        # The caller already has Z'Z: only the smaller cluster's scatter is computed
        # (O(min(N1, N0) d^2)), the other is the total minus it.
        self.n1 = int(np.count_nonzero(mask))
        small = mask if self.n1 <= self.n - self.n1 else ~mask
        Zs = Z[small]
        sum_s, scatter_s = Zs.sum(axis=0), Zs.T @ Zs
        sum_l, scatter_l = Z.sum(axis=0) - sum_s, total_scatter - scatter_s
        if small is mask:
            self.sum1, self.sum0, self.scatter1, self.scatter0 = sum_s, sum_l, scatter_s, scatter_l
        else:
            self.sum1, self.sum0, self.scatter1, self.scatter0 = sum_l, sum_s, scatter_l, scatter_s

    def switch(self, to1: np.ndarray, to0: np.ndarray) -> None:
        """Move the points with indices ``to1`` into cluster 1 and ``to0`` out of it."""
        A, B = self.Z[to1], self.Z[to0]
        self.n1 += A.shape[0] - B.shape[0]
        moved = A.sum(axis=0) - B.sum(axis=0)
        self.sum1 += moved
        self.sum0 -= moved
        delta = A.T @ A - B.T @ B
        self.scatter1 += delta
        self.scatter0 -= delta

    def moments(self) -> ClusterMoments:
        n1, n0 = self.n1, self.n - self.n1
        mu1, mu0 = self.sum1 / n1, self.sum0 / n0
        Sigma1 = self.scatter1 / n1 - np.outer(mu1, mu1)
        Sigma0 = self.scatter0 / n0 - np.outer(mu0, mu0)
        # Symmetrise away the rounding of the rank updates.
        Sigma1 = (Sigma1 + Sigma1.T) / 2
        Sigma0 = (Sigma0 + Sigma0.T) / 2
        return ClusterMoments(n1, n0, mu1, mu0, Sigma1, Sigma0)
