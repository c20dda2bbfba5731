"""Building a registered method for a given number of clusters.

The methods that are two-cluster by nature (IterSVR, MMC, MVC: a single separating
hyperplane or a single +-1 labeling; their :class:`~clustering.AlgorithmSpec` has
``binary_only=True``) have no ``n_clusters`` parameter; asking one of them for more than two
clusters raises a :class:`ValueError` that says so and names the methods that can.
"""

from __future__ import annotations

from typing import Any

from .registry import ALGORITHMS, make_estimator

__all__ = ["make_estimator_k", "multiclass_keys"]


def multiclass_keys() -> list[str]:
    """Keys of the registered methods that accept ``n_clusters > 2``."""
    return [key for key, spec in ALGORITHMS.items() if not spec.binary_only]


def make_estimator_k(key: str, n_clusters: int, **params: Any) -> Any:
    """Build the method registered under ``key`` for ``n_clusters`` clusters.

    Raises
    ------
    ValueError
        If ``n_clusters < 2``, or if the method is binary by nature and ``n_clusters > 2``.

    Examples
    --------
    >>> from clustering.n_clusters import make_estimator_k
    >>> make_estimator_k("kmeans", 3).n_clusters
    3
    >>> make_estimator_k("mmc-nmi", 3)
    Traceback (most recent call last):
    ...
    ValueError: MMC (NMI loss) is a two-cluster (binary) method by nature ...
    """
    if n_clusters < 2:
        raise ValueError(f"n_clusters must be at least 2; got {n_clusters}.")
    spec = ALGORITHMS[key] if key in ALGORITHMS else None
    if spec is None:
        return make_estimator(key, **params)  # raises the registry's KeyError
    if spec.binary_only:
        if n_clusters == 2:
            return spec.make(**params)
        raise ValueError(
            f"{spec.name} is a two-cluster (binary) method by nature and cannot find "
            f"{n_clusters} clusters. Use n_clusters=2, or one of the multi-class methods: "
            f"{', '.join(multiclass_keys())}."
        )
    return spec.make(n_clusters=n_clusters, **params)
