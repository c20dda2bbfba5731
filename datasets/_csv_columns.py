"""Turning the cells pandas could not read as numbers into columns: numbers (decimal comma,
thousands separators, values beyond float range), missing values, text; the label column's
classes.

Part of :func:`datasets.upload.read_csv`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ._base import DatasetError

# Cell values read as "missing" (compared after stripping and lower-casing).
_NA_TOKENS = frozenset({"", "na", "n/a", "nan", "null", "none", "?", "-", "#n/a", "missing"})
# Thousands separators: 1,000.5 or 1,000,000 (point convention); 1.000,5 or 1.000.000 (comma).
_THOUSANDS_POINT = r"^[+-]?\d{1,3}(?:,\d{3})+(?:\.\d+)?$"
_THOUSANDS_COMMA = r"^[+-]?\d{1,3}(?:\.\d{3})+(?:,\d+)?$"
# With a decimal comma, 1,000 is one thousand or one: refused unless other cells decide.
_AMBIGUOUS_COMMA = r"^[+-]?\d{1,3},\d{3}$"
_DECIMAL_COMMA_CELL = r"^[+-]?\d+,\d+$"
_FLOAT_SYNTAX = r"^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$"

# --------------------------------------------------------------------------------------------
# Columns
# --------------------------------------------------------------------------------------------


@dataclass
class _Column:
    name: str
    index: int
    chunks: list[np.ndarray] = field(default_factory=list)
    n_text: int = 0
    examples: list[str] = field(default_factory=list)
    n_thousands: int = 0
    n_ambiguous: int = 0
    n_decimal: int = 0
    ambiguous_examples: list[str] = field(default_factory=list)

    def add(self, cells: np.ndarray, decimal_comma: bool) -> None:
        """Add the column's cells: float64 numbers pandas has parsed, or an object array of
        the cells' text (str) for the numbers, missing values and text to be told apart."""
        if cells.dtype != object:
            self.chunks.append(np.asarray(cells, dtype=np.float64))
            return
        array = cells
        original = array
        if decimal_comma:
            commas = pd.Series(array, dtype=object).str.strip()
            has_comma = commas.str.contains(",", regex=False).to_numpy(dtype=bool)
            if has_comma.any():
                with_comma = commas[has_comma]
                ambiguous = with_comma.str.match(_AMBIGUOUS_COMMA).to_numpy(dtype=bool)
                decimal = with_comma.str.match(_DECIMAL_COMMA_CELL).to_numpy(dtype=bool)
                self.n_ambiguous += int(ambiguous.sum())
                self.n_decimal += int((decimal & ~ambiguous).sum())
                if ambiguous.any() and len(self.ambiguous_examples) < 1:
                    self.ambiguous_examples.append(str(with_comma[ambiguous].iloc[0])[:30])
            array = pd.Series(array).str.replace(",", ".", regex=False).to_numpy(dtype=object)
        values = np.asarray(pd.to_numeric(array, errors="coerce"), dtype=np.float64)
        failed = np.isnan(values)
        if failed.any():
            self._thousands_and_overflow(original, values, failed, decimal_comma)
            failed = np.isnan(values)
        if failed.any():
            stripped = pd.Series(array[failed], dtype=object).str.strip()
            text = stripped[~stripped.str.lower().isin(_NA_TOKENS)]
            self.n_text += len(text)
            for value in text:
                if len(self.examples) >= 3:
                    break
                if value not in self.examples:
                    self.examples.append(value[:30])
        self.chunks.append(values)

    def _thousands_and_overflow(self, original, values, failed, decimal_comma) -> None:
        """Read thousands separators (in ``values``, in place); refuse numbers beyond the
        floating-point range."""
        cells = pd.Series(original[failed], dtype=object).str.strip()
        pattern = _THOUSANDS_COMMA if decimal_comma else _THOUSANDS_POINT
        grouped = cells.str.match(pattern).fillna(False).to_numpy(dtype=bool)
        if grouped.any():
            digits = cells[grouped]
            if decimal_comma:
                digits = digits.str.replace(".", "", regex=False).str.replace(",", ".")
            else:
                digits = digits.str.replace(",", "", regex=False)
            index = np.flatnonzero(failed)[grouped]
            values[index] = pd.to_numeric(digits, errors="coerce").to_numpy(dtype=np.float64)
            self.n_thousands += int(grouped.sum())
        rest = cells[~grouped]
        if decimal_comma:
            rest = rest.str.replace(",", ".", regex=False)
        syntax = rest[rest.str.match(_FLOAT_SYNTAX).fillna(False).to_numpy(dtype=bool)]
        for cell in syntax.head(50):
            if not np.isfinite(float(cell)):
                raise DatasetError(
                    f"Column '{self.name}' holds {cell[:30]}, beyond the range of "
                    "floating-point numbers (about ±1.8e308). Rescale that column in the "
                    "source file (for example divide it by 1e300), or remove the value, and "
                    "upload it again."
                )

    def values(self) -> np.ndarray:
        if len(self.chunks) == 1:
            return self.chunks[0]
        return np.concatenate(self.chunks) if self.chunks else np.empty(0)


def _label_values(
    cells: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, tuple[str, ...], dict[str, list[str]]]:
    """(known mask, integer codes, class names, merged) of a label column's cells (text).

    Cells are compared without their surrounding spaces, tabs and line breaks; ``merged``
    maps each label that several different cells became this way to those cells, so the
    reader can say so. The work is done on the distinct values (pandas' hash table), not on
    every cell: a label column has few of them.
    """
    raw_codes, raw_uniques = pd.factorize(pd.Series(cells, dtype=object).fillna(""))
    stripped = [str(u).strip() for u in raw_uniques]
    groups: dict[str, list[str]] = {}
    for raw, clean in zip(raw_uniques, stripped, strict=True):
        groups.setdefault(clean, []).append(str(raw))
    merged = {k: v for k, v in groups.items() if len(v) > 1 and k.lower() not in _NA_TOKENS}
    stripped_codes, uniques = pd.factorize(pd.Series(stripped, dtype=object))
    codes = stripped_codes[raw_codes]
    uniques = np.asarray(uniques, dtype=object)
    unique_known = ~pd.Series(uniques, dtype=object).str.lower().isin(_NA_TOKENS).to_numpy()
    known = unique_known[codes]
    present = uniques[unique_known]
    numbers = pd.to_numeric(pd.Series(present, dtype=object), errors="coerce")
    if len(present) and not numbers.isna().any():
        classes, index = np.unique(numbers.to_numpy(dtype=np.float64), return_inverse=True)
        names = tuple(_format_number(v) for v in classes)
    else:
        classes, index = np.unique(np.array(present, dtype=str), return_inverse=True)
        names = tuple(str(v) for v in classes)
    class_of = np.full(len(uniques), -1, dtype=np.int64)
    class_of[unique_known] = np.asarray(index, dtype=np.int64).ravel()
    return known, class_of[codes[known]], names, merged


def _format_number(value: float) -> str:
    if np.isfinite(value) and float(value).is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(float(value))


_INDEX_NAMES = frozenset({"index", "id", "unnamed: 0", "row", "#"})


def _is_row_number(values: np.ndarray) -> bool:
    n = len(values)
    return n > 1 and (
        np.array_equal(values, np.arange(n)) or np.array_equal(values, np.arange(1, n + 1))
    )
