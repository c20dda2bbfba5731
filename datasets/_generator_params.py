"""What each synthetic generator accepts: its parameters, declared once as ``Param``\\s.

The same declarations give the Data page's widgets, the link decoder's ranges
(:mod:`ui.url`), the cost guard (:func:`datasets.synthetic.check_generator`) and the
generators' own argument checks (:func:`validated`), so a generator called from Python
accepts exactly what the lab offers.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, TypeVar

import numpy as np

from clustering._spec import Param

from ._base import DatasetError

__all__ = ["PARAMS", "validated"]

_SEED = Param(
    "random_state",
    "int",
    0,
    "Seed: the same seed gives the same points.",
    0,
    10_000,
    label="Random seed",
)


def _n(default: int, help: str = "How many points to draw.", high: int = 5000) -> Param:
    return Param("n_samples", "int", default, help, 20, high, label="Number of points")


#: ``generator key -> its parameters``, in the order of the function's arguments.
PARAMS: Mapping[str, tuple[Param, ...]] = MappingProxyType(
    {
        "two_gaussians": (
            _n(400),
            Param("n_features", "int", 2, "Number of features.", 1, 50, label="Dimensions"),
            Param(
                "separation",
                "float",
                3.0,
                "Distance between the means in standard deviations; below 2 the clusters overlap.",
                0.0,
                10.0,
                label="Separation",
            ),
            Param(
                "covariance",
                "choice",
                "spherical",
                "Cluster shape: round, stretched across the separating direction, or a random "
                "shape per cluster.",
                choices=("spherical", "elongated", "random"),
                label="Covariance shape",
            ),
            Param(
                "imbalance",
                "float",
                0.5,
                "Share of points in the first cluster (0.5 = equal sizes).",
                0.05,
                0.95,
                label="Share of cluster A",
            ),
            Param(
                "elongation",
                "float",
                4.0,
                "For 'elongated': how much wider the clusters are across the separating "
                "direction than along it.",
                1.0,
                20.0,
                label="Elongation",
            ),
            _SEED,
        ),
        "diffrac_bumps": (
            _n(100, "How many points (the paper uses 100).", high=2000),
            Param(
                "n_noise_dims",
                "int",
                10,
                "Irrelevant noise features added; k-means degrades as they grow.",
                0,
                50,
                label="Noise dimensions",
            ),
            Param(
                "noise_scale",
                "float",
                1.0,
                "Noise spread relative to the real features (1 = as in the paper).",
                0.1,
                10.0,
                log=True,
                label="Noise scale",
            ),
            _SEED,
        ),
        "moons": (
            _n(200),
            Param(
                "noise",
                "float",
                0.1,
                "Gaussian jitter added to each point.",
                0.0,
                0.5,
                label="Noise",
            ),
            _SEED,
        ),
        "circles": (
            _n(200),
            Param(
                "noise",
                "float",
                0.05,
                "Gaussian jitter added to each point.",
                0.0,
                0.3,
                label="Noise",
            ),
            Param(
                "factor",
                "float",
                0.5,
                "Radius of the inner circle relative to the outer one.",
                0.1,
                0.9,
                label="Inner radius",
            ),
            _SEED,
        ),
        "afs_trap": (
            _n(400),
            Param(
                "scale",
                "float",
                1.0,
                "Spread of the uninformative feature; large values trap k-means.",
                1.0,
                1e6,
                log=True,
                label="Noise feature scale",
            ),
            Param(
                "separation",
                "float",
                6.0,
                "Distance between the clusters along the informative feature.",
                0.0,
                20.0,
                label="Separation",
            ),
            _SEED,
        ),
    }
)

_F = TypeVar("_F", bound=Callable[..., Any])


def _check(param: Param, value: Any) -> Any:
    if param.name == "random_state" and (value is None or isinstance(value, np.random.Generator)):
        return value  # from Python: fresh entropy, or the caller's own generator
    try:
        return param.check(value)
    except ValueError as err:
        if param.name == "random_state":
            raise DatasetError(
                f"random_state must be an integer {param.range_text()}, None or a "
                f"numpy Generator, got {value!r}."
            ) from None
        raise DatasetError(str(err)) from None


def validated(key: str) -> Callable[[_F], _F]:
    """Check a generator's arguments against ``PARAMS[key]`` before it runs, and end the
    description of the data set it returns with them (``Parameters: n_samples=400, ...``), so
    the text says how to draw the same points again.

    Each argument is converted to its parameter's kind (``300.0`` -> ``300`` for an integer)
    or refused with a :class:`~datasets.DatasetError` naming the parameter and its range.
    ``random_state`` also takes ``None`` or a ``numpy.random.Generator`` from Python.
    """
    params = {p.name: p for p in PARAMS[key]}

    def decorate(function: _F) -> _F:
        signature = inspect.signature(function)
        if list(signature.parameters) != list(params):
            raise TypeError(f"{function.__name__}'s arguments differ from PARAMS[{key!r}]")

        @functools.wraps(function)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            try:
                bound = signature.bind(*args, **kwargs)
            except TypeError as err:
                raise DatasetError(f"{key}: {err}.") from None
            bound.apply_defaults()
            checked = {name: _check(params[name], v) for name, v in bound.arguments.items()}
            data = function(**checked)
            text = ", ".join(f"{name}={value!r}" for name, value in checked.items())
            return dataclasses.replace(data, description=f"{data.description} Parameters: {text}.")

        return wrapper  # type: ignore[return-value]

    return decorate
