"""The lab's data model, free of Streamlit: what a session remembers and what a link holds.

- :class:`DataChoice` (which data set; hashable, keys caches), :class:`CurrentData` (the
  loaded data set with where it came from), :func:`fingerprint` (hash of ``X``, ``y``
  and their names);
- the value grids of the shared controls: :func:`lam_grid` / :func:`snap_lam` for ``lam``,
  :data:`FACTOR_OPTIONS` / :func:`snap_factor` for the per-feature scaling factors,
  :data:`VIEWS` for the 2-D views.

:mod:`ui.state` (the owner of the session), :mod:`ui.url` (the link codec) and
:mod:`ui.cache` all import from here, so none of them imports another in a loop.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import datasets
from clustering._lam import DEFAULT_LAM, LAM_RANGE
from clustering._spec import Param

__all__ = [
    "DEFAULT_LAM",
    "DEFAULT_REGULARIZER",
    "DEFAULT_VIEW",
    "FACTOR_OPTIONS",
    "LAM_PARAM",
    "LECTURE_STEPS",
    "LECTURE_STEP_PARAM",
    "N_CLUSTERS_PARAM",
    "N_CLUSTERS_RANGE",
    "RHO_PARAM",
    "RHO_STEP",
    "VIEWS",
    "CurrentData",
    "DataChoice",
    "default_data_choice",
    "fingerprint",
    "lam_grid",
    "numbers_part",
    "snap_factor",
    "snap_lam",
    "snap_rho",
]

#: The 2-D views of the Cluster page (``"features:i,j"`` for two raw features).
VIEWS = ("pca", "discriminant", "features")

#: The lam grid of the paper's model selection (``clustering._lam.LAM_RANGE``), 1-2-5 steps.
_LAM_LOW, _LAM_HIGH = LAM_RANGE
DEFAULT_REGULARIZER = "diag"
DEFAULT_VIEW = "discriminant"


def lam_grid(low: float = _LAM_LOW, high: float = _LAM_HIGH) -> list[float]:
    """The values a log slider offers between ``low`` and ``high``: 1, 2, 5 per decade.

    Examples
    --------
    >>> lam_grid(0.1, 10)
    [0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0]
    """
    out = []
    for e in range(math.floor(math.log10(low)) - 1, math.ceil(math.log10(high)) + 1):
        for m in (1, 2, 5):
            v = float(f"{m}e{e}")
            if low * (1 - 1e-9) <= v <= high * (1 + 1e-9):
                out.append(v)
    return out


def snap_lam(value: float, grid: Sequence[float] | None = None) -> float:
    """The grid value nearest to ``value`` on a log scale.

    Examples
    --------
    >>> snap_lam(0.013)
    0.01
    >>> snap_lam(1e9)
    10000.0
    """
    grid = list(grid) if grid is not None else lam_grid()
    value = float(value)
    if not math.isfinite(value) or value <= 0:
        return DEFAULT_LAM if DEFAULT_LAM in grid else grid[len(grid) // 2]
    return min(grid, key=lambda g: abs(math.log(g) - math.log(value)))


#: Stops of the per-feature scaling slider: 1-2-5 per decade from 0.01 to 100, plus the
#: powers of two the MSPC paper uses (2, 4, 8, 16) and their inverses.
FACTOR_OPTIONS: tuple[float, ...] = tuple(
    sorted(
        {float(f"{m}e{e}") for e in range(-2, 3) for m in (1, 2, 5) if float(f"{m}e{e}") <= 100}
        | {2.0**k for k in range(-6, 7)}
    )
)


def snap_factor(value: float) -> float:
    """The slider stop nearest to ``value`` on a log scale (1 for invalid values).

    Examples
    --------
    >>> snap_factor(15.0), snap_factor(1e6), snap_factor(-1)
    (16.0, 100.0, 1.0)
    """
    try:
        value = float(value)
    except (TypeError, ValueError):
        return 1.0
    if not math.isfinite(value) or value <= 0:
        return 1.0
    return min(FACTOR_OPTIONS, key=lambda f: abs(math.log(f) - math.log(value)))


# ----------------------------------------------------------------------------------------
# Data choice
# ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DataChoice:
    """Which data set the lab works on (hashable, so it can key caches).

    Attributes
    ----------
    kind : {"bundled", "synthetic", "upload"}
    name : str
        Bundled task name, generator key, or uploaded file name.
    params : tuple of (name, value)
        Generator parameters (synthetic) or ``(("label_column", ...), ("missing", ...))``
        (upload), sorted by name.
    normalize : bool
        Whether features are scaled to ``[-1, 1]`` (the paper's preprocessing).
    """

    kind: str = "bundled"
    name: str = datasets.DEFAULT_DATASET
    params: tuple = field(default_factory=tuple)
    normalize: bool = True

    @property
    def param_dict(self) -> dict[str, Any]:
        """``params`` as a dict."""
        return dict(self.params)

    @property
    def label(self) -> str:
        """Short text for captions: ``breast``, ``synthetic: afs_trap``, ``upload: f.csv``."""
        if self.kind == "bundled":
            return self.name
        return f"{self.kind}: {self.name}"

    @staticmethod
    def make(kind: str, name: str, params: Mapping[str, Any] | None = None, normalize=True):
        """Build a choice with ``params`` given as a dict."""
        return DataChoice(kind, name, tuple(sorted((params or {}).items())), bool(normalize))


#: Synthetic generators whose lesson is in their units: the Data page and links keep them
#: raw unless asked (scaling every feature to [-1, 1] would undo the trap they set).
RAW_BY_DEFAULT = frozenset({"afs_trap"})


#: The parameters the Data page starts a generator with where its lesson needs other values
#: than the generator's defaults: the AFS trap with its noise feature ten times as spread as
#: a cluster, so that (in raw units) k-means splits along the noise (accuracy 0.502 against
#: 0.995 with every feature scaled to [-1, 1]).
GENERATOR_START: dict[str, dict[str, float]] = {"afs_trap": {"scale": 10.0}}


def default_normalize(kind: str, name: str) -> bool:
    """Whether the data set ``(kind, name)`` starts scaled to [-1, 1]: yes, except the
    generators in :data:`RAW_BY_DEFAULT`.

    Examples
    --------
    >>> default_normalize("bundled", "breast"), default_normalize("synthetic", "afs_trap")
    (True, False)
    """
    return not (kind == "synthetic" and name in RAW_BY_DEFAULT)


def default_data_choice() -> DataChoice:
    """The data set every page opens on: :data:`datasets.DEFAULT_DATASET`, normalised."""
    return DataChoice("bundled", datasets.DEFAULT_DATASET, (), True)


@dataclass(frozen=True, eq=False)
class CurrentData:
    """The data set a page works on, with where it came from.

    Attributes
    ----------
    dataset : datasets.Dataset
    fingerprint : str
        Hash of ``X``, ``y`` and every name that comes with them (:func:`fingerprint`);
        keys the caches of everything computed from the data.
    choice : DataChoice
    chosen : bool
        ``False`` when the page fell back to the default data set (nobody chose one).
    error : str
        Why the requested data set could not be used ("" when it could).
    """

    dataset: Any
    fingerprint: str
    choice: DataChoice
    chosen: bool
    error: str = ""


def fingerprint(X: np.ndarray, y: np.ndarray | None = None, names: Sequence[str] = ()) -> str:
    """A short hash of the data (shape, values, labels) and of ``names`` (every text that
    comes with them: file, feature and class names, description) to key caches with, so no
    cache shared by sessions gives one user's names to another whose numbers are equal.

    Examples
    --------
    >>> import numpy as np
    >>> fingerprint(np.zeros((2, 2))) == fingerprint(np.zeros((2, 2)))
    True
    >>> fingerprint(np.zeros((2, 2))) == fingerprint(np.zeros((2, 2)), np.array([0, 1]))
    False
    >>> fingerprint(np.zeros((2, 2)), names=["a"]) == fingerprint(np.zeros((2, 2)), names=["b"])
    False
    >>> numbers_part(fingerprint(np.zeros((2, 2)), names=["a"])) == fingerprint(np.zeros((2, 2)))
    True
    """
    h = hashlib.blake2b(digest_size=12)
    X = np.ascontiguousarray(X, dtype=np.float64)
    h.update(str(X.shape).encode())
    h.update(X.tobytes())
    if y is not None:
        h.update(np.ascontiguousarray(y, dtype=np.int64).tobytes())
    numbers = h.hexdigest()
    if not names:
        return numbers
    text = json.dumps([str(n) for n in names]).encode()
    return f"{numbers}.{hashlib.blake2b(text, digest_size=8).hexdigest()}"


def numbers_part(data_fingerprint: str) -> str:
    """The part of a :func:`fingerprint` that hashes the numbers only: it keys what cannot
    show a name (a fit's labels and scores), so data that differ only in their names share
    those results, and arrays fingerprinted without names meet them."""
    return data_fingerprint.split(".", 1)[0]


# ---- the shared controls' ranges (the widgets and the link decoder use these) --------------

#: λ as the lab offers it: the range of :data:`clustering._lam.LAM_RANGE`.
LAM_PARAM = Param("lam", "float", DEFAULT_LAM, "Regulariser weight.", *LAM_RANGE, log=True)

#: The number of clusters the lab offers (the control's range; ten colours and shapes).
N_CLUSTERS_PARAM = Param("k", "int", 2, "Number of clusters every method is asked for.", 2, 10)
N_CLUSTERS_RANGE = (int(N_CLUSTERS_PARAM.low), int(N_CLUSTERS_PARAM.high))

#: ρ, Theorem 5's relative margin threshold (the Cluster and Learn pages' slider), on a grid
#: of 0.05.
RHO_PARAM = Param("rho", "float", 0.5, "Relative margin threshold of Theorem 5.", 0.0, 1.0)
RHO_STEP = 0.05
#: The steps of the Lecture (:mod:`ui.lecture`), numbered from 1; 0 is "not in the Lecture".
LECTURE_STEPS = 7
LECTURE_STEP_PARAM = Param("step", "int", 1, "The Lecture's step.", 1, LECTURE_STEPS)


def snap_rho(rho: float) -> float:
    """ρ on the slider's grid (0, 0.05, ..., 1)."""
    return round(round(min(max(float(rho), 0.0), 1.0) / RHO_STEP) * RHO_STEP, 2)
