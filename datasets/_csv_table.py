"""Splitting an upload into columns with :func:`pandas.read_csv`.

pandas tokenizes the rows and parses the numbers; a column it cannot read as numbers comes
back as the cells' text, for :class:`~datasets._csv_columns._Column` to sort out (decimal
comma, thousands separators, missing-value tokens, values beyond float range, text).

pandas pads a row that is too short with empty values and cannot say on which line of the
file a bad row is, so two things stay here: a count of the delimiters that separate values,
which must be ``n_columns - 1`` per row (a cheap check over the bytes), and, when that count
or pandas itself finds a problem, a re-scan with Python's ``csv`` that names the line as a
text editor counts it (:func:`~datasets._csv_text._scan_rows`).

Columns are decided on the first rows before the whole table is read
(:func:`_first_rows_decide`): in a file longer than :func:`first_rows` rows, a column whose
first rows hold no more numbers than text (or nothing) is text and is not read further, and
a file none of whose columns holds numbers there is refused at once, so a file of text or
empty cells is refused after reading about :data:`FIRST_CELLS` cells, and a text column costs
no Python string per cell.

Part of :func:`datasets.upload.read_csv`.
"""

from __future__ import annotations

import csv
import io
import re
import warnings
from itertools import repeat

import numpy as np
import pandas as pd

from ._base import DatasetError
from ._csv_columns import _Column
from ._csv_text import _SAVE_AS_CSV, _fast_scan, _line_count, _scan_rows, _too_many_rows

__all__ = ["FIRST_CELLS", "_read_table", "decide_columns", "first_rows"]

#: Cells of the first rows on which each column is decided (number or text) before the
#: whole table is read.
FIRST_CELLS = 1_000_000


def first_rows(n_columns: int) -> int:
    """How many first rows decide the columns of a table ``n_columns`` wide (at least 100).

    Examples
    --------
    >>> first_rows(20), first_rows(2000)
    (50000, 500)
    """
    return max(100, FIRST_CELLS // max(1, n_columns))


_NON_BLANK = re.compile(rb"\S")

# What pandas.read_csv raises for a file it cannot split (and a mismatch of widths, which
# is turned into an error below so that no value is silently dropped).
_PANDAS_ERRORS = (
    pd.errors.ParserError,
    pd.errors.ParserWarning,
    pd.errors.EmptyDataError,
    ValueError,
    UnicodeDecodeError,
    csv.Error,
)


def _pandas(
    payload: bytes,
    offset: int,
    delimiter: str,
    width: int,
    *,
    text_columns: list[int] | None = None,
    nrows: int | None = None,
    usecols: list[int] | None = None,
) -> pd.DataFrame:
    """The table from byte ``offset`` on, ``width`` columns named 0 .. width-1 (only those
    in ``usecols`` when given); the columns in ``text_columns`` are kept as text, the others
    typed by pandas."""
    handle = io.BytesIO(payload)  # shares the bytes, no copy
    handle.seek(offset)
    dtype = dict.fromkeys(text_columns, str) if text_columns else None
    with warnings.catch_warnings():
        # With index_col=False, a first row wider than `width` would lose its extra values
        # with only a warning: make it an error, handled like any other ragged row.
        warnings.simplefilter("error", pd.errors.ParserWarning)
        warnings.simplefilter("ignore", pd.errors.DtypeWarning)
        return pd.read_csv(
            handle,
            sep=delimiter,
            header=None,
            names=range(width),
            index_col=False,
            dtype=dtype,
            na_filter=False,  # missing-value tokens are the project's, decided per column
            skipinitialspace=True,
            skip_blank_lines=True,
            nrows=nrows,
            usecols=usecols,
            encoding="utf-8",
            engine="c" if len(delimiter.encode()) == 1 else "python",
        )


def _is_text(column: pd.Series) -> bool:
    return column.dtype == object and pd.api.types.infer_dtype(column, skipna=False) in (
        "string",
        "empty",
    )


def _read_table(
    payload: bytes,
    offset: int,
    *,
    text: str,
    delimiter: str,
    n_columns: int,
    label_index: int | None,
    has_header: bool,
    max_rows: int,
    header: list[str] | None = None,
    decimal_comma: bool = False,
    max_cells: int | None = None,
) -> tuple[list[np.ndarray | _Column], int]:
    """Each of the ``n_columns`` columns as an array (float64 where pandas read every cell as
    a number, else the cells' text as an object array), or as the :class:`_Column` of its
    first rows when those decided it is text (:func:`_first_rows_decide`), and the number of
    rows.

    ``payload`` is the file as UTF-8 and ``offset`` the byte just after the header row (the
    start of the text when the first row is data); ``text`` is the same file decoded, for
    the re-scan.
    """
    if _NON_BLANK.search(payload, offset) is None:
        return [np.empty(0, dtype=object) for _ in range(n_columns)], 0
    # A row of the wrong length in a file without quotes: named before anything is parsed.
    _fast_scan(payload, offset, delimiter, n_columns)
    text_columns = [label_index] if label_index is not None else []
    decided = _first_rows_decide(
        payload, offset, delimiter, n_columns, label_index, header, decimal_comma
    )
    usecols = [j for j in range(n_columns) if j not in decided] if decided else None
    checked, width = False, n_columns
    try:
        frame = _pandas(
            payload,
            offset,
            delimiter,
            n_columns,
            text_columns=text_columns,
            nrows=max_rows + 1,
            usecols=usecols,
        )
    except _PANDAS_ERRORS:
        # A row with extra values, an unclosed quote, ...: the re-scan names the line, or
        # finds only extra empty values at the ends of rows (a delimiter at each line end).
        _fast_scan(payload, offset, delimiter, n_columns)
        width = _scan_rows(text, delimiter, n_columns, max_rows, has_header)
        if max_cells is not None and width * _line_count(payload, offset) > max_cells:
            raise DatasetError(  # extra empty values at the ends of rows, read as columns
                f"The file's rows have up to {width:,} values (the header names "
                f"{n_columns:,}): about {width * _line_count(payload, offset):,} cells, over "
                f"the limit of {max_cells:,}. Remove the empty values at the ends of the rows "
                "and upload it again."
            ) from None
        frame = _pandas_or_refuse(payload, offset, delimiter, width, text_columns, usecols)
        checked = True
    if len(frame) > max_rows:
        raise _too_many_rows(max_rows)

    columns: list[np.ndarray | _Column | None] = []
    redo: list[int] = []
    for j in range(n_columns):
        if j in decided:
            columns.append(decided[j])
            continue
        column = frame[j]
        if column.dtype.kind in "fiu":
            columns.append(column.to_numpy(dtype=np.float64))
        elif _is_text(column):
            columns.append(column.to_numpy(dtype=object))
        else:  # true/false, or numbers in some blocks of rows and text in others
            columns.append(None)
            redo.append(j)
    if redo:
        again = _pandas_or_refuse(payload, offset, delimiter, width, redo, usecols)
        for j in redo:
            columns[j] = again[j].to_numpy(dtype=object)

    read = [c for c in columns if not isinstance(c, _Column)]
    n_rows = len(frame)
    del frame
    if not checked and _has_short_rows(
        payload, offset, delimiter, n_columns, read, n_rows, skipped=bool(decided)
    ):
        _scan_rows(text, delimiter, n_columns, max_rows, has_header)
    return columns, n_rows


def _pandas_or_refuse(
    payload: bytes,
    offset: int,
    delimiter: str,
    width: int,
    text_columns: list[int],
    usecols: list[int] | None = None,
) -> pd.DataFrame:
    try:
        return _pandas(
            payload, offset, delimiter, width, text_columns=text_columns, usecols=usecols
        )
    except _PANDAS_ERRORS:
        pass
    # Python's csv ends a quoted value that is still open at the end of the file there (the
    # re-scan has checked that it is short); pandas refuses it unless the quote is closed.
    try:
        return _pandas(
            payload + b'"', offset, delimiter, width, text_columns=text_columns, usecols=usecols
        )
    except _PANDAS_ERRORS:
        raise DatasetError(
            "The file could not be split into rows and columns; check its quotation marks "
            f"(a value that opens a double quote must close it). {_SAVE_AS_CSV}"
        ) from None


def _has_short_rows(
    payload: bytes,
    offset: int,
    delimiter: str,
    n_columns: int,
    columns: list[np.ndarray],
    n_rows: int,
    *,
    skipped: bool = False,
) -> bool:
    """Whether some row has fewer values than the header (pandas pads such rows).

    Every delimiter in the file either separates two values or sits inside a quoted value;
    with no row longer than the header (pandas refuses those), the rows are all full exactly
    when the separating ones number ``n_columns - 1`` per row. With quotes in the file and
    columns not read (``skipped``), the delimiters inside their values are not known: the
    rows are re-scanned.
    """
    found = payload.count(delimiter.encode(), offset)
    if payload.find(b'"', offset) >= 0:
        if skipped:
            return True
        for column in columns:
            if column.dtype == object:
                found -= sum(map(str.count, column, repeat(delimiter)))
    return found != (n_columns - 1) * n_rows


def _first_rows_decide(
    payload: bytes,
    offset: int,
    delimiter: str,
    n_columns: int,
    label_index: int | None,
    header: list[str] | None,
    decimal_comma: bool,
) -> dict[int, _Column]:
    """The feature columns that the first :func:`first_rows` rows show to be text or empty
    (index -> their :class:`_Column` there), in a file with more rows than that; refuses a
    file in which none holds numbers there. Nothing is decided for a shorter file, or when
    pandas cannot split the first rows (the whole read then says why)."""
    n_first = first_rows(n_columns)
    if _line_count(payload, offset) <= n_first:
        return {}
    names = header or [f"column {j + 1}" for j in range(n_columns)]
    try:  # every cell as text, as the whole read reads a column it cannot type
        every = list(range(n_columns))
        frame = _pandas(payload, offset, delimiter, n_columns, text_columns=every, nrows=n_first)
    except _PANDAS_ERRORS:
        return {}
    return decide_columns(frame, n_columns, label_index, names, decimal_comma, n_first)


def decide_columns(
    frame: pd.DataFrame,
    n_columns: int,
    label_index: int | None,
    names: list[str],
    decimal_comma: bool,
    n_first: int,
) -> dict[int, _Column]:
    """:func:`_first_rows_decide` on the first ``n_first`` rows already read as text
    (``frame``, columns 0 .. n_columns-1); also :func:`datasets.upload.preview_csv`'s."""
    decided: dict[int, _Column] = {}
    features = [j for j in range(n_columns) if j != label_index]
    for j in features:
        column = _Column(names[j], j)
        column.add(frame[j].to_numpy(dtype=object), decimal_comma)
        n_numbers = int(np.count_nonzero(~np.isnan(column.values())))
        if n_numbers <= column.n_text:
            column.chunks = []  # text (or empty) in the first rows: not read further
            decided[j] = column
    if features and len(decided) == len(features):
        where = (
            f"Apart from the label column '{names[label_index]}', no"
            if label_index is not None
            else "No"
        )
        raise DatasetError(
            f"{where} column holds numbers in the first {n_first:,} rows, so there is nothing "
            "to cluster (the rest of the file was not read). Check that the values are "
            "numbers (for example 3.5, not 'three'), or put rows with numbers first."
        )
    return decided
