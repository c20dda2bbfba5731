"""The algorithm registry: one entry per clustering method the lab and the tests know.

The app builds its algorithm list and widgets from :data:`ALGORITHMS`, the experiment runner
addresses methods by their keys, and ``tests/test_common.py`` runs scikit-learn's estimator
checks on every entry. A module adds its methods by defining a module-level ``SPECS`` tuple
of :class:`AlgorithmSpec` and being listed in ``_MODULES`` below.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from ._spec import AlgorithmSpec, Param

__all__ = ["ALGORITHMS", "AlgorithmSpec", "Param", "get_spec", "make_estimator"]


# Modules that define ``SPECS``; the order here is the order the app lists methods in.
_MODULES = (
    "clustering.mspc_specs",
    "clustering.kmeans",
    "clustering.lda_kmeans",
    "clustering.dis_kmeans",
    "clustering.spectral",
    "clustering.diffrac",
    "clustering.smic",
    "clustering.itersvr",
    "clustering.mmc",
    "clustering.mvc",
)


def _collect() -> Mapping[str, AlgorithmSpec]:
    specs: dict[str, AlgorithmSpec] = {}
    for module_name in _MODULES:
        module = importlib.import_module(module_name)
        for spec in module.SPECS:
            if spec.key in specs:
                raise RuntimeError(f"Two algorithms use the key {spec.key!r}.")
            specs[spec.key] = spec
    return MappingProxyType(specs)


ALGORITHMS: Mapping[str, AlgorithmSpec] = _collect()


def get_spec(key: str) -> AlgorithmSpec:
    """The method registered under ``key``.

    Raises
    ------
    KeyError
        If ``key`` is not registered; the message lists the registered keys.
    """
    try:
        return ALGORITHMS[key]
    except KeyError:
        raise KeyError(
            f"No algorithm is registered as {key!r}. Choose one of: {', '.join(ALGORITHMS)}."
        ) from None


def make_estimator(key: str, **params: Any) -> Any:
    """Build the estimator registered under ``key`` with ``params`` (an unknown key raises
    :func:`get_spec`'s ``KeyError``)."""
    return get_spec(key).make(**params)
