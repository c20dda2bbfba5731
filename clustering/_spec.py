"""Descriptions of algorithms and their UI parameters (used by :mod:`clustering.registry`).

Estimator modules import these to declare their ``SPECS``; kept apart from the registry so
that building the registry (which imports the estimator modules) has no import cycle.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

ParamKind = Literal["float", "int", "choice", "bool"]


@dataclass(frozen=True)
class Param:
    """A parameter the UI offers for an algorithm.

    Attributes
    ----------
    name : str
        Keyword argument of the estimator.
    kind : {"float", "int", "choice", "bool"}
        Widget type.
    default : object
        Default value (also the value the tests use unless ``AlgorithmSpec.test_params``
        overrides it).
    help : str
        One line for a student: what the parameter does and which way to move it.
    low, high : float or None
        Range for numeric parameters.
    log : bool
        Whether a numeric slider should be logarithmic.
    choices : tuple
        Options of a ``"choice"`` parameter.
    label : str
        Human-readable widget label (defaults to ``name``).
    """

    name: str
    kind: ParamKind
    default: Any
    help: str
    low: float | None = None
    high: float | None = None
    log: bool = False
    choices: tuple = ()
    label: str = ""

    @property
    def display_name(self) -> str:
        return self.label or self.name


@dataclass(frozen=True)
class AlgorithmSpec:
    """How to build and describe one clustering method.

    Attributes
    ----------
    key : str
        Stable identifier (``"mspc-mpm"``, ``"kmeans"``, ...), used in URLs and result files.
    name : str
        Display name.
    factory : callable
        ``factory(**params)`` returns an unfitted estimator.
    params : tuple of Param
        Parameters the UI offers.
    summary : str
        One sentence on what the method optimises.
    cost : str
        Time and memory as N and d grow, e.g. ``"O(N d^2 + d^3) per iteration"``.
    linear : bool
        Whether a fitted model exposes a separating hyperplane ``w_``, ``b_``.
    constraints : bool
        Whether ``fit`` accepts ``must_link`` / ``cannot_link``.
    max_samples : int or None
        The largest N the method accepts with its default parameters (``None``: no limit).
    paper : str
        The paper (file in ``shared/papers``) or reference the method comes from.
    test_params : mapping
        Parameters for the common tests (small, fast settings).
    expected_failed_checks : mapping
        scikit-learn estimator checks that do not apply, with the reason.
    binary_only : bool
        Whether the method is two-cluster by nature (no ``n_clusters`` parameter).
    """

    key: str
    name: str
    factory: Callable[..., Any]
    params: tuple[Param, ...] = ()
    summary: str = ""
    cost: str = ""
    linear: bool = False
    constraints: bool = False
    max_samples: int | None = None
    paper: str = ""
    test_params: Mapping[str, Any] = field(default_factory=dict)
    expected_failed_checks: Mapping[str, str] = field(default_factory=dict)
    binary_only: bool = False

    def defaults(self) -> dict[str, Any]:
        """The default value of every UI parameter."""
        return {p.name: p.default for p in self.params}

    def make(self, **params: Any) -> Any:
        """Build an unfitted estimator; unknown parameter names raise ``TypeError``."""
        return self.factory(**params)
