"""Guess which column of an uploaded table holds the class labels.

An uploaded CSV often carries its classes in a text column (``species`` in the iris file). The
reader drops text columns from the features, so unless that column becomes the label the
accuracy vanishes. :func:`guess_label_column` picks it with two rules, in order:

1. a column **named like a label** — ``label``, ``class``, ``target``, ``species``, ``y``
   (any case, surrounding spaces ignored; the first name in this list wins) — with 2 to 20
   distinct values, text or whole numbers;
2. otherwise the **last column**, if it is a text column with 2 to 20 distinct values.

Otherwise there is no label. A column whose every non-missing value is different (an id) is
never a label. The result carries a one-sentence note for the page and the other columns that
could be the label, so the page can offer a one-click change.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ._base import DatasetError

__all__ = ["LABEL_NAMES", "MAX_CLASSES", "MIN_CLASSES", "LabelGuess", "guess_label_column"]

#: Column names taken as the label (case-insensitive), in order of preference.
LABEL_NAMES = ("label", "class", "target", "species", "y")
MIN_CLASSES = 2
MAX_CLASSES = 20


@dataclass(frozen=True)
class LabelGuess:
    """The guessed label column.

    Attributes
    ----------
    column : str or None
        Name of the chosen column; ``None`` when no column looks like a label.
    reason : {"name", "last", "none"}
        Which rule chose it.
    note : str
        One sentence for the page: the choice, why, and how to change it.
    candidates : tuple of str
        Every column that could be the label (2 to 20 distinct values, text or whole numbers),
        the chosen one first, for a one-click change.
    classes : tuple of str
        The distinct values of the chosen column, sorted (empty without a choice).
    """

    column: str | None
    reason: str
    note: str
    candidates: tuple[str, ...] = ()
    classes: tuple[str, ...] = ()


def _frame(table: Any) -> pd.DataFrame:
    if isinstance(table, pd.DataFrame):
        frame = table
    elif isinstance(table, Mapping):
        frame = pd.DataFrame(dict(table))
    else:
        raise DatasetError(
            f"guess_label_column needs a pandas DataFrame or a mapping of column name to "
            f"values, got {type(table).__name__}."
        )
    if frame.shape[1] == 0:
        raise DatasetError("The table has no columns; upload a file with a header row.")
    if frame.columns.duplicated().any():
        dups = sorted({str(c) for c in frame.columns[frame.columns.duplicated()]})
        raise DatasetError(f"Column names must be unique; rename {', '.join(dups)}.")
    return frame


def _cells(column: pd.Series) -> pd.Series:
    """Non-missing cells, text stripped (empty text counts as missing)."""
    values = column.dropna()
    if values.dtype == object or pd.api.types.is_string_dtype(values):
        values = values.astype(str).str.strip()
        values = values[values != ""]
    return values


def _is_text(values: pd.Series) -> bool:
    if not (values.dtype == object or pd.api.types.is_string_dtype(values)):
        return False
    return bool(pd.to_numeric(values, errors="coerce").isna().any())


def _is_whole(values: pd.Series) -> bool:
    numbers = pd.to_numeric(values, errors="coerce")
    if numbers.isna().any():
        return False
    arr = numbers.to_numpy(dtype=float)
    return bool(np.all(np.isfinite(arr)) and np.all(arr == np.round(arr)))


def _label_like(values: pd.Series) -> bool:
    n_distinct = values.nunique()
    if not MIN_CLASSES <= n_distinct <= MAX_CLASSES or n_distinct >= len(values):
        return False
    return _is_text(values) or _is_whole(values)


def _classes(values: pd.Series) -> tuple[str, ...]:
    return tuple(sorted({str(v) for v in values}))


def _listing(classes: Sequence[str], limit: int = 5) -> str:
    shown = ", ".join(classes[:limit])
    return shown + (", …" if len(classes) > limit else "")


def guess_label_column(table: Any) -> LabelGuess:
    """Pick the label column of an uploaded table.

    Parameters
    ----------
    table : pandas.DataFrame or mapping of str to sequence
        The uploaded columns, as read (text cells as strings, numbers as numbers or strings).

    Returns
    -------
    LabelGuess
        The chosen column (or ``None``), the rule that chose it, a note for the page and the
        other candidates.

    Raises
    ------
    DatasetError
        When ``table`` is not a table, has no columns or repeats a column name.

    Examples
    --------
    >>> from datasets.label_guess import guess_label_column
    >>> guess = guess_label_column({"petal": [1.4, 4.7, 6.0, 1.3],
    ...                             "species": ["setosa", "versicolor", "virginica", "setosa"]})
    >>> guess.column, guess.reason
    ('species', 'name')
    """
    frame = _frame(table)
    names = [str(c) for c in frame.columns]
    cells = {name: _cells(frame[col]) for name, col in zip(names, frame.columns, strict=True)}
    candidates = [name for name in names if _label_like(cells[name])]
    lowered = {name.strip().lower(): name for name in reversed(names)}

    chosen, reason, skipped = None, "none", []
    for wanted in LABEL_NAMES:
        name = lowered.get(wanted)
        if name is None:
            continue
        if name in candidates:
            chosen, reason = name, "name"
            break
        skipped.append(name)
    if chosen is None:
        last = names[-1]
        if last in candidates and _is_text(cells[last]):
            chosen, reason = last, "last"

    if chosen is None:
        text_cols = [n for n in candidates if _is_text(cells[n])]
        note = "No column was taken as the class labels, so accuracy cannot be measured"
        if skipped:
            n_skip = cells[skipped[0]].nunique()
            note += (
                f"; '{skipped[0]}' is named like a label but has {n_skip} distinct values "
                f"(a label needs {MIN_CLASSES} to {MAX_CLASSES}, not one per row)"
            )
        if text_cols:
            note += f". {', '.join(repr(c) for c in text_cols)} could be: choose it as the label"
        return LabelGuess(None, "none", note + ".", tuple(candidates), ())

    classes = _classes(cells[chosen])
    why = (
        "its name says so"
        if reason == "name"
        else f"it is the last column and holds text with {len(classes)} distinct values"
    )
    note = (
        f"Column '{chosen}' is used as the class labels ({len(classes)} classes: "
        f"{_listing(classes)}) because {why}; it is not a feature. Choose another label "
        "column if that is wrong."
    )
    ordered = (chosen, *[c for c in candidates if c != chosen])
    return LabelGuess(chosen, reason, note, ordered, classes)
