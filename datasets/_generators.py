"""The synthetic generators themselves: seeded draws, one function per data set.

Arguments are checked against their declared ranges (:mod:`datasets._generator_params`) before
a function runs; :mod:`datasets.synthetic` registers the functions for the app.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._base import Dataset
from ._generator_params import validated

__all__ = ["afs_trap", "circles", "diffrac_bumps", "moons", "two_gaussians"]

_SOURCE = "synthetic"


def _rng(random_state: Any) -> np.random.Generator:
    if isinstance(random_state, np.random.Generator):
        return random_state
    return np.random.default_rng(random_state)


def _shuffle(rng: np.random.Generator, X: np.ndarray, y: np.ndarray):
    order = rng.permutation(len(y))
    return X[order], y[order]


def _halves(n: int) -> np.ndarray:
    """Labels of ``n`` points split evenly into classes 0 and 1 (1 takes the odd one)."""
    return np.repeat([0, 1], [n // 2, n - n // 2])


def _sklearn_seed(random_state: Any) -> int:
    """A seed for scikit-learn's generators, drawn from ``random_state``."""
    return int(_rng(random_state).integers(2**31 - 1))


def _dataset(name, X, y, features, classes, description: str) -> Dataset:
    """Generator ``name``'s data set (:func:`~datasets._generator_params.validated` appends
    the parameters to the description)."""
    return Dataset(
        X=X,
        y=y,
        feature_names=tuple(features),
        class_names=classes,
        name=name,
        description=description,
        source=_SOURCE,
    )


# --------------------------------------------------------------------------------------------
# Generators
# --------------------------------------------------------------------------------------------


def _random_covariance(rng: np.random.Generator, d: int) -> np.ndarray:
    Q, R = np.linalg.qr(rng.standard_normal((d, d)))
    Q = Q * np.sign(np.diag(R))
    eigenvalues = np.exp(rng.uniform(np.log(0.25), np.log(4.0), size=d))
    return (Q * eigenvalues) @ Q.T


@validated("two_gaussians")
def two_gaussians(
    n_samples: int = 400,
    n_features: int = 2,
    separation: float = 3.0,
    covariance: str = "spherical",
    imbalance: float = 0.5,
    elongation: float = 4.0,
    random_state: int | None = 0,
) -> Dataset:
    """Two Gaussian clusters.

    Parameters
    ----------
    n_samples : int, default=400
        Total number of points (20 to 5000).
    n_features : int, default=2
        Dimension ``d`` (1 to 50).
    separation : float, default=3.0
        Mahalanobis distance between the two means under the average covariance (0 to 10):
        0 means one blob, 2 touching clusters, 4 and more a clear gap.
    covariance : {"spherical", "elongated", "random"}, default="spherical"
        ``"spherical"``: identity covariance. ``"elongated"``: standard deviation 1 along the
        line through the means and ``elongation`` across it, so the widest direction is not the
        one that separates the clusters (k-means then tends to cut across). ``"random"``: a
        different random covariance per cluster, eigenvalues between 0.25 and 4.
    imbalance : float, default=0.5
        Fraction of points in class 0 (0.05 to 0.95; 0.5 is balanced).
    elongation : float, default=4.0
        Standard deviation across the separating direction for ``"elongated"`` (1 to 20).
    random_state : int, None or numpy.random.Generator, default=0
        Seed (0 to 10,000), ``None`` for fresh entropy, or a generator to draw from.

    Returns
    -------
    Dataset
        Features ``x1 .. xd``, classes ``A`` (0) and ``B`` (1), rows shuffled.

    Examples
    --------
    >>> from datasets.synthetic import two_gaussians
    >>> ds = two_gaussians(n_samples=100, imbalance=0.3, random_state=0)
    >>> ds.shape, ds.class_counts()
    ((100, 2), {'A': 30, 'B': 70})
    """
    n, d, sep, frac, stretch = n_samples, n_features, separation, imbalance, elongation
    rng = _rng(random_state)

    n0 = int(np.clip(round(frac * n), 2, n - 2))
    sizes = (n0, n - n0)
    if covariance == "spherical":
        covs = [np.eye(d), np.eye(d)]
    elif covariance == "elongated":
        diag = np.full(d, stretch**2)
        diag[0] = 1.0
        covs = [np.diag(diag), np.diag(diag)]
    else:
        covs = [_random_covariance(rng, d), _random_covariance(rng, d)]
    # Means at -/+ (sep / 2) v with v along the first axis, scaled so that the Mahalanobis
    # distance under the average covariance is exactly ``separation``.
    e1 = np.zeros(d)
    e1[0] = 1.0
    pooled = (covs[0] + covs[1]) / 2.0
    v = e1 / np.sqrt(e1 @ np.linalg.solve(pooled, e1))
    means = (-sep / 2.0 * v, sep / 2.0 * v)
    X = np.vstack(
        [
            means[k] + rng.standard_normal((sizes[k], d)) @ np.linalg.cholesky(covs[k]).T
            for k in (0, 1)
        ]
    )
    X, y = _shuffle(rng, X, np.repeat([0, 1], sizes))
    return _dataset(
        "two_gaussians",
        X,
        y,
        (f"x{j}" for j in range(1, d + 1)),
        ("A", "B"),
        f"Two Gaussian clusters ({covariance} covariance) whose means are {sep:g} apart in "
        f"Mahalanobis distance: {sizes[0]} points in A, {sizes[1]} in B, {d} features.",
    )


@validated("diffrac_bumps")
def diffrac_bumps(
    n_samples: int = 100,
    n_noise_dims: int = 10,
    noise_scale: float = 1.0,
    random_state: int | None = 0,
) -> Dataset:
    """Two linearly separable bumps in 2-D plus independent Gaussian noise dimensions.

    The synthetic task of Bach & Harchaoui, *DIFFRAC: a discriminative and flexible
    framework for clustering*, Fig. 1: "two
    linearly separable bumps (100 data points) with additional random independent noise
    dimensions (with normal distributions with same marginal variances as the 2D data)". As
    noise dimensions are added, k-means' error grows while DIFFRAC (and MSPC, both invariant
    to affine maps) stay accurate. The paper does not give the bumps' shape; here class A is
    centred at (-1, 0) and class B at (1, 0), each with standard deviation 0.25 along the
    first axis and 1 along the second, resampled until the line x1 = 0 separates them.

    Parameters
    ----------
    n_samples : int, default=100
        Total number of points, split evenly (20 to 5000).
    n_noise_dims : int, default=10
        Number of noise features appended (0 to 50; the paper's plot goes to 30).
    noise_scale : float, default=1.0
        Standard deviation of the noise, relative to the 2-D data's (1.0 is the paper's
        "same marginal variances"; 0.1 to 10).
    random_state : int, None or numpy.random.Generator, default=0
        Seed (0 to 10,000), ``None`` for fresh entropy, or a generator to draw from.

    Returns
    -------
    Dataset
        Features ``x1``, ``x2`` (the bumps) then ``noise1``, ``noise2``, ...

    Examples
    --------
    >>> from datasets.synthetic import diffrac_bumps
    >>> ds = diffrac_bumps(n_noise_dims=5)
    >>> ds.shape, ds.feature_names[:3]
    ((100, 7), ('x1', 'x2', 'noise1'))
    >>> bool(((ds.X[:, 0] > 0) == (ds.y == 1)).all())  # linearly separable along x1
    True
    """
    n, p, scale = n_samples, n_noise_dims, noise_scale
    rng = _rng(random_state)

    y = _halves(n)
    sign = np.where(y == 1, 1.0, -1.0)
    x1 = sign + 0.25 * rng.standard_normal(n)
    wrong = np.sign(x1) != sign
    while wrong.any():  # enforce the separating line x1 = 0 (rarely needed)
        x1[wrong] = sign[wrong] + 0.25 * rng.standard_normal(int(wrong.sum()))
        wrong = np.sign(x1) != sign
    x2 = rng.standard_normal(n)
    bumps = np.column_stack([x1, x2])
    noise_sd = scale * np.sqrt(bumps.var(axis=0).mean())
    noise = noise_sd * rng.standard_normal((n, p))
    X, y = _shuffle(rng, np.hstack([bumps, noise]), y)
    return _dataset(
        "diffrac_bumps",
        X,
        y,
        ("x1", "x2", *(f"noise{j}" for j in range(1, p + 1))),
        ("A", "B"),
        f"Two linearly separable bumps in (x1, x2) plus {p} independent Gaussian noise "
        f"dimensions with standard deviation {noise_sd:.3g} (DIFFRAC paper, Fig. 1).",
    )


@validated("moons")
def moons(n_samples: int = 200, noise: float = 0.1, random_state: int | None = 0) -> Dataset:
    """Two interleaving half circles (scikit-learn's ``make_moons``).

    No line separates the classes, so every linear method (MSPC, MMC, k-means) errs; the
    data show what "discriminative with a linear classifier" cannot do.

    Examples
    --------
    >>> from datasets.synthetic import moons
    >>> moons(n_samples=50).class_counts()
    {'upper moon': 25, 'lower moon': 25}
    """
    from sklearn.datasets import make_moons

    n, sd = n_samples, noise
    X, y = make_moons(n_samples=n, noise=sd, shuffle=True, random_state=_sklearn_seed(random_state))
    return _dataset(
        "moons",
        X,
        y,
        ("x1", "x2"),
        ("upper moon", "lower moon"),
        "Two interleaving half circles (scikit-learn make_moons) with Gaussian noise; "
        "not linearly separable.",
    )


@validated("circles")
def circles(
    n_samples: int = 200,
    noise: float = 0.05,
    factor: float = 0.5,
    random_state: int | None = 0,
) -> Dataset:
    """A small circle inside a large one (scikit-learn's ``make_circles``).

    Examples
    --------
    >>> from datasets.synthetic import circles
    >>> circles(n_samples=50).class_counts()
    {'outer circle': 25, 'inner circle': 25}
    """
    from sklearn.datasets import make_circles

    n, sd, ratio = n_samples, noise, factor
    seed = _sklearn_seed(random_state)
    X, y = make_circles(n_samples=n, noise=sd, factor=ratio, shuffle=True, random_state=seed)
    return _dataset(
        "circles",
        X,
        y,
        ("x1", "x2"),
        ("outer circle", "inner circle"),
        "Two concentric circles (scikit-learn make_circles); no line separates them.",
    )


@validated("afs_trap")
def afs_trap(
    n_samples: int = 400,
    scale: float = 1.0,
    separation: float = 6.0,
    random_state: int | None = 0,
) -> Dataset:
    """Two clusters along ``signal`` plus one uninformative ``noise`` feature: a trap for k-means
    that one change of units springs.

    ``signal`` holds two unit-variance Gaussian clusters whose means are ``separation``
    apart; ``noise`` is Gaussian with standard deviation ``scale``, independent of the class.
    At the default ``scale=1`` k-means splits along ``signal`` (accuracy 0.995 with the default
    seed). Measure ``noise`` in units 10 times smaller (multiply it by 10, or generate with
    ``scale=10``) and k-means halves the data along ``noise`` instead — that reduces the
    within-cluster sum of squares more — and gets about 50% accuracy (0.502); methods
    invariant to feature scaling, such as MSPC started from k-means on standardised features,
    do not move (0.993 before and after). Multiplying ``signal`` by 10 as well rescues k-means
    (0.995). The noise is unimodal on purpose: a bimodal noise feature would give a second,
    equally well separated clustering that no criterion could rule out.

    Parameters
    ----------
    n_samples : int, default=400
        Total number of points, split evenly (20 to 5000).
    scale : float, default=1.0
        Standard deviation of the ``noise`` feature (1 to 1e6; 1 makes it as spread as one
        cluster, above about 4 k-means splits along it).
    separation : float, default=6.0
        Distance between the cluster means along ``signal`` (0 to 20).
    random_state : int, None or numpy.random.Generator, default=0
        Seed (0 to 10,000), ``None`` for fresh entropy, or a generator to draw from.

    Examples
    --------
    >>> from datasets.synthetic import afs_trap
    >>> ds = afs_trap(scale=1000.0)
    >>> ds.feature_names
    ('signal', 'noise')
    >>> bool(ds.X[:, 1].std() > 100 * ds.X[:, 0].std())
    True
    """
    n, s, sep = n_samples, scale, separation
    rng = _rng(random_state)
    y = _halves(n)
    signal = np.where(y == 1, sep / 2.0, -sep / 2.0) + rng.standard_normal(n)
    noise = s * rng.standard_normal(n)
    X, y = _shuffle(rng, np.column_stack([signal, noise]), y)
    return _dataset(
        "afs_trap",
        X,
        y,
        ("signal", "noise"),
        ("A", "B"),
        f"Two unit-variance clusters {sep:g} apart along 'signal', plus an uninformative "
        f"'noise' feature with standard deviation {s:g}. A scale-sensitive method such as "
        "k-means splits along 'noise'; a scale-invariant one such as MSPC along 'signal'.",
    )
