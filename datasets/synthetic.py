r"""Seeded synthetic data sets for teaching and demos.

Every generator returns a labelled :class:`~datasets.Dataset` and is reproducible: the same
arguments give the same numbers. :data:`GENERATORS` describes each generator's parameters
(type, range, default, help text) so the app builds its widgets from it, the same way it uses
``clustering.ALGORITHMS``; :func:`make` calls a generator by its key.

* :func:`two_gaussians` — two Gaussian clusters with a chosen Mahalanobis separation,
  covariance shape and class balance.
* :func:`diffrac_bumps` — two linearly separable bumps plus independent noise dimensions
  (Bach & Harchaoui, DIFFRAC: a discriminative and flexible framework for clustering, Fig. 1).
* :func:`moons`, :func:`circles` — scikit-learn's non-linear shapes, where every linear
  method fails.
* :func:`afs_trap` — two clusters along one feature plus one uninformative feature: give the
  latter a large scale and k-means splits the wrong feature, affine-invariant methods (MSPC,
  DIFFRAC) do not.

Each generator accepts exactly the ranges its ``Param``\s declare (the ranges the Data page's
widgets and links offer, :mod:`datasets._generator_params`); other arguments raise
:class:`~datasets.DatasetError` naming the parameter and its range. The functions live in
:mod:`datasets._generators`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from clustering._spec import Param
from clustering.exceptions import TooExpensiveError

from ._base import Dataset, DatasetError
from ._generator_params import PARAMS
from ._generators import afs_trap, circles, diffrac_bumps, moons, two_gaussians

__all__ = [
    "GENERATORS",
    "GeneratorParam",
    "GeneratorSpec",
    "afs_trap",
    "check_generator",
    "circles",
    "diffrac_bumps",
    "make",
    "moons",
    "two_gaussians",
]

#: A generator's parameter is the same type as an estimator's (one ``Param`` for both).
GeneratorParam = Param


@dataclass(frozen=True)
class GeneratorSpec:
    """One generator: its function, display name, parameters and what it demonstrates."""

    key: str
    name: str
    function: Callable[..., Dataset]
    params: tuple[GeneratorParam, ...]
    summary: str
    paper: str = ""

    def defaults(self) -> dict[str, Any]:
        """The default value of every parameter."""
        return {p.name: p.default for p in self.params}

    def make(self, **params: Any) -> Dataset:
        """Generate with ``params`` (unknown names raise ``DatasetError``)."""
        unknown = set(params) - {p.name for p in self.params}
        if unknown:
            raise DatasetError(
                f"{self.key} has no parameter {', '.join(sorted(unknown))}; it takes "
                f"{', '.join(p.name for p in self.params)}."
            )
        return self.function(**params)


_FUNCTIONS: dict[str, tuple[Callable[..., Dataset], str, str, str]] = {
    "two_gaussians": (
        two_gaussians,
        "Two Gaussians",
        "Two Gaussian clusters; vary their distance, shape and sizes.",
        "",
    ),
    "diffrac_bumps": (
        diffrac_bumps,
        "DIFFRAC bumps + noise dimensions",
        "Two separable bumps hidden among noise dimensions.",
        "Bach & Harchaoui, DIFFRAC: a discriminative and flexible framework for clustering, Fig. 1",
    ),
    "moons": (
        moons,
        "Two moons",
        "Interleaving half circles: no straight line separates them.",
        "",
    ),
    "circles": (
        circles,
        "Concentric circles",
        "A ring around a disc: no straight line separates them.",
        "",
    ),
    "afs_trap": (
        afs_trap,
        "AFS trap (a noise feature whose scale decides k-means)",
        "Anisotropic feature scaling in one picture: which feature does each method split?",
        "Huang et al., Maximin Separation Probability Clustering, section on anisotropic "
        "feature scaling",
    ),
}

GENERATORS: Mapping[str, GeneratorSpec] = MappingProxyType(
    {
        key: GeneratorSpec(key, name, function, PARAMS[key], summary, paper=paper)
        for key, (function, name, summary, paper) in _FUNCTIONS.items()
    }
)


def make(key: str, **params: Any) -> Dataset:
    """Run the generator registered as ``key`` with ``params``.

    Examples
    --------
    >>> from datasets import synthetic
    >>> synthetic.make("afs_trap", n_samples=40).shape
    (40, 2)
    """
    try:
        spec = GENERATORS[key]
    except KeyError:
        raise DatasetError(
            f"There is no generator called {key!r}. Choose one of: {', '.join(GENERATORS)}."
        ) from None
    return spec.make(**params)


def check_generator(key: str, params: Mapping[str, Any]) -> None:
    r"""Refuse generator settings outside the ranges the app's widgets offer.

    The ranges are the generator's declared ``Param``\s (``datasets.synthetic.GENERATORS``),
    the same ones the generator functions and the link decoder check: this is the check
    phrased as a cost refusal, before any data is drawn.

    Raises
    ------
    TooExpensiveError
        If a numeric parameter lies outside its declared range (the message names it, the
        range and the value).
    KeyError
        If ``key`` is not a generator.
    """
    spec = GENERATORS[key]
    for param in spec.params:
        if param.name not in params or param.kind not in ("int", "float"):
            continue
        value = params[param.name]
        try:
            v = float(value)
        except (TypeError, ValueError, OverflowError):
            continue  # the generator's own check names a non-number
        if not param.in_range(v):
            raise TooExpensiveError(
                f"{key}: {param.name}={value!r} is outside the range the lab runs here "
                f"({param.low:g} to {param.high:g}). Fix: choose {param.name} in that range."
            )
