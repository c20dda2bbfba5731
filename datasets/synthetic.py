r"""Seeded synthetic data sets for teaching and demos.

Every generator returns a labelled :class:`~datasets.Dataset` and is reproducible: the same
arguments give the same numbers. :data:`GENERATORS` describes each generator's parameters
(type, range, default, help text) so the app builds its widgets from it, the same way it uses
``clustering.ALGORITHMS``; :func:`make` calls a generator by its key.

* :func:`two_gaussians` — two Gaussian clusters with a chosen Mahalanobis separation,
  covariance shape and class balance.
* :func:`diffrac_bumps` — two linearly separable bumps plus independent noise dimensions
  (``diffrac_discriminative_flexible_clustering.txt``, Fig. 1).
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

from ._base import Dataset, DatasetError
from ._generator_params import PARAMS
from ._generators import afs_trap, circles, diffrac_bumps, moons, two_gaussians

__all__ = [
    "GENERATORS",
    "GeneratorParam",
    "GeneratorSpec",
    "afs_trap",
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
        "diffrac_discriminative_flexible_clustering.txt, Fig. 1",
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
        "mspc_maximin_separation_probability_clustering.txt, Sec. AFS",
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
