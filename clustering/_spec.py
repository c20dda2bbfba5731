"""Descriptions of algorithms and their UI parameters (used by :mod:`clustering.registry`).

Estimator modules import these to declare their ``SPECS``; kept apart from the registry so
that building the registry (which imports the estimator modules) has no import cycle.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

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

    def in_range(self, value: float) -> bool:
        """Whether the number ``value`` lies in ``[low, high]`` (NaN never does)."""
        low = -math.inf if self.low is None else self.low
        high = math.inf if self.high is None else self.high
        return bool(low <= value <= high)

    def range_text(self) -> str:
        """The declared range in words: ``"between 20 and 5000"``, ``"in [0.05, 0.95]"``."""
        if self.kind == "int":
            if self.low is not None and self.high is not None:
                return f"between {self.low:g} and {self.high:g}"
            if self.low is not None:
                return f"at least {self.low:g}"
            return f"at most {self.high:g}" if self.high is not None else "any whole number"
        low = "-inf" if self.low is None else f"{self.low:g}"
        high = "inf" if self.high is None else f"{self.high:g}"
        return f"in [{low}, {high}]"

    def check(self, value: Any) -> Any:
        """``value`` as this parameter's kind, if it is one of the values the parameter offers.

        The one check of a declared range: the generators validate their arguments with it,
        the link decoder and the cost guard use the same ranges.

        Raises
        ------
        ValueError
            Naming the parameter, what it accepts and the value given.

        Examples
        --------
        >>> p = Param("n", "int", 10, "How many.", 1, 100)
        >>> p.check(20.0)
        20
        >>> p.check(0)
        Traceback (most recent call last):
        ...
        ValueError: n must be between 1 and 100, got 0.
        """
        name = self.name
        if self.kind == "choice":
            if value in self.choices:
                return value
            options = ", ".join(repr(c) for c in self.choices)
            raise ValueError(f"{name} must be one of {options}, got {value!r}.")
        if self.kind == "bool":
            if isinstance(value, bool | np.bool_):
                return bool(value)
            raise ValueError(f"{name} must be True or False, got {value!r}.")
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            what = "a whole number" if self.kind == "int" else "a number"
            raise ValueError(f"{name} must be {what}, got {value!r}.")
        if self.kind == "int":
            if not isinstance(value, numbers.Integral):
                if not (math.isfinite(value) and float(value).is_integer()):
                    raise ValueError(f"{name} must be a whole number, got {value!r}.")
            value = int(value)
        else:
            value = float(value)
        if not self.in_range(value):
            raise ValueError(f"{name} must be {self.range_text()}, got {value!r}.")
        return value


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
