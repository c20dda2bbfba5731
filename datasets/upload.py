"""Read an uploaded CSV file into a :class:`~datasets.Dataset`, checking everything on the way.

:func:`read_csv` accepts a path, the file's bytes, or a file object (a Streamlit
``UploadedFile`` included). It finds the delimiter and the text encoding, keeps the numeric
columns, finds the label column, deals with missing and infinite values as asked, and reports
every change it made in ``Dataset.notes``. Every problem raises
:class:`~datasets.DatasetError` with a message for a non-programmer: what is wrong and what to
do. Nothing in the file is ever executed or unpickled: the bytes are checked and decoded as
text, then split and parsed by ``pandas.read_csv`` (C engine, no type guessing beyond
numbers).

The work is split by responsibility: ``_csv_text`` (bytes, encoding, delimiter, header row,
the row-length re-scan behind "Line N has ..."), ``_csv_table`` (the table, by
``pandas.read_csv``), ``_csv_columns`` (cells pandas could not read as numbers, classes) and
this module (header, label column, missing values, the resulting data set).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ._base import Dataset, DatasetError, format_names
from ._csv_columns import _INDEX_NAMES, _NA_TOKENS, _Column, _is_row_number, _label_values
from ._csv_source import MIN_ROWS, _check_cells, _check_limits, _head, _load_text
from ._csv_table import _pandas, _read_table, decide_columns, first_rows
from ._csv_text import (
    _DELIMITER_NAMES,
    _count,
    _line_count,
)
from .label_guess import LabelGuess, guess_label_column

__all__ = [
    "DEFAULT_MAX_BYTES",
    "DEFAULT_MAX_CELLS",
    "DEFAULT_MAX_COLUMNS",
    "DEFAULT_MAX_ROWS",
    "GUESS_ROWS",
    "LABEL_COLUMN_NAMES",
    "MIN_ROWS",
    "CsvPreview",
    "preview_csv",
    "read_csv",
]

#: Largest file accepted by default (200 MB).
DEFAULT_MAX_BYTES = 200_000_000
#: Most data rows accepted by default.
DEFAULT_MAX_ROWS = 1_000_000
#: Most columns accepted by default.
DEFAULT_MAX_COLUMNS = 2_000
#: Most cells (rows x columns) accepted by default: what a read costs grows with the cells,
#: not the bytes. The densest file at this limit (10,000 x 2,000 cells of ``0``, 40 MB) was
#: read in 1.3 s at 355 MB above the process's own memory on the 2-core machine (40 M cells:
#: 3.9 s and 716 MB); bench/RESULTS.md, "Hostile uploads".
DEFAULT_MAX_CELLS = 20_000_000
#: Rows the label-column guess of :func:`preview_csv` looks at (the first ones).
GUESS_ROWS = 20_000
#: Column names recognised as the label column (case-insensitive), in order of preference.
LABEL_COLUMN_NAMES = ("label", "class", "y", "target")


def _resolve_label(
    header: list[str], label_column: Any, has_header: bool
) -> tuple[int | None, list[str]]:
    """Index of the label column (or None) and notes about the choice."""
    notes: list[str] = []
    if label_column is None:
        if not has_header:
            return None, notes
        lowered = [h.strip().lower() for h in header]
        for candidate in LABEL_COLUMN_NAMES:
            if candidate in lowered:
                index = lowered.index(candidate)
                others = [
                    header[j]
                    for j, h in enumerate(lowered)
                    if h in LABEL_COLUMN_NAMES and j != index
                ]
                if others:
                    notes.append(
                        f"Column '{header[index]}' was used as the label; "
                        f"{format_names(others)} also look like labels and were kept as "
                        "features — choose the label column yourself if that is wrong."
                    )
                return index, notes
        return None, notes
    if label_column is False:
        return None, notes
    if isinstance(label_column, bool) or not isinstance(label_column, (str, int, np.integer)):
        raise DatasetError(
            f"label_column must be a column name, a column position or None, got {label_column!r}."
        )
    if isinstance(label_column, str):
        wanted = label_column.strip()
        if wanted in header:
            return header.index(wanted), notes
        matches = [j for j, h in enumerate(header) if h.lower() == wanted.lower()]
        if len(matches) == 1:
            return matches[0], notes
        raise DatasetError(
            f"There is no column called '{label_column}'. The columns are: "
            f"{format_names(header, limit=12)}."
        )
    position = int(label_column)
    if not -len(header) <= position < len(header):
        raise DatasetError(
            f"Column position {position} does not exist: the file has {len(header)} columns "
            f"(positions 0 to {len(header) - 1}, or -1 for the last)."
        )
    return position % len(header), notes


# --------------------------------------------------------------------------------------------
# The public function
# --------------------------------------------------------------------------------------------


def read_csv(
    source: Any,
    label_column: str | int | None = None,
    missing: str = "drop",
    *,
    delimiter: str | None = None,
    encoding: str | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    max_rows: int = DEFAULT_MAX_ROWS,
    max_columns: int = DEFAULT_MAX_COLUMNS,
    max_cells: int = DEFAULT_MAX_CELLS,
    name: str | None = None,
) -> Dataset:
    """Read a CSV file into a :class:`~datasets.Dataset`, or explain why it cannot be used.

    Parameters
    ----------
    source : path, bytes or file object
        A path (``str`` or ``os.PathLike``), the file's content (``bytes``), or an open file
        (binary or text mode, e.g. a Streamlit ``UploadedFile``; its ``size`` is checked
        before anything is read).
    label_column : str, int, None or False, default=None
        The column holding the class labels: a name (exact, else case-insensitive), a
        position (0-based; -1 is the last column), ``None`` to look for a column called
        ``label``, ``class``, ``y`` or ``target`` (any case; the first of these names wins),
        or ``False`` for no label column. Without a label column ``y`` is ``None``. Labels
        may be numbers or text; they are coded ``0 .. k-1`` in sorted order and
        ``class_names`` keeps the original values. Rows whose label is missing are removed.
    missing : {"drop", "mean"}, default="drop"
        What to do with missing (empty, ``NA``, ``?``, ...) and infinite feature values:
        remove the rows that have any, or replace them with their column's mean.
    delimiter : str, optional
        The field delimiter; by default detected among comma, semicolon, tab and ``|``.
        A semicolon- or tab-separated file whose numbers use a decimal comma (``1,5``) is
        read correctly.
    encoding : str, optional
        The text encoding. By default UTF-8 (with or without a byte-order mark) and
        UTF-16/32 with a byte-order mark are recognised; other text is refused with advice.
    max_bytes, max_rows, max_columns, max_cells : int
        Limits (defaults 200 MB, 1,000,000 data rows, 2,000 columns, 20,000,000 cells:
        rows times columns, counted before any cell is parsed).
    name : str, optional
        Name of the data set (default: the file name).

    Returns
    -------
    Dataset
        ``X`` holds the numeric columns (text columns are dropped), ``y`` the coded labels or
        ``None``. ``notes`` lists every column dropped, row removed, value filled or
        assumption made, in words for the user; ``description`` repeats them.

    Raises
    ------
    DatasetError
        For an empty file, a header without rows, rows with the wrong number of values, a
        binary or non-UTF-8 file, duplicate column names, no numeric column, a label column
        with only one class, fewer than 4 usable rows, or a file over the limits. The
        message says what to change.

    Examples
    --------
    >>> from datasets import read_csv
    >>> data = (b"height;weight;Class\\n1,5;60;a\\n1,7;70;b\\n"
    ...         b"1,6;;a\\n1,8;80;b\\n1,9;85;b\\n")
    >>> ds = read_csv(data)
    >>> ds.X
    array([[ 1.5, 60. ],
           [ 1.7, 70. ],
           [ 1.8, 80. ],
           [ 1.9, 85. ]])
    >>> ds.y, ds.class_names
    (array([0, 1, 1, 1]), ('a', 'b'))
    >>> for note in ds.notes:
    ...     print(note)
    Numbers use a decimal comma (1,5); they were read as 1.5.
    1 row had a missing value in a feature column and was removed (1 missing cell).
    """
    if missing not in ("drop", "mean"):
        raise DatasetError(f"missing must be 'drop' or 'mean', got {missing!r}.")
    _check_limits(max_bytes, max_rows, max_columns, max_cells)
    if delimiter is not None and (not isinstance(delimiter, str) or len(delimiter) != 1):
        raise DatasetError(f"delimiter must be a single character, got {delimiter!r}.")

    loaded = _load_text(
        source,
        encoding=encoding,
        delimiter=delimiter,
        max_bytes=int(max_bytes),
        max_rows=int(max_rows),
        max_columns=int(max_columns),
    )
    text, payload, base, file_name, used_encoding = loaded
    display = name or file_name
    return _parse(
        text,
        payload,
        base,
        display=display,
        used_encoding=used_encoding,
        label_column=label_column,
        missing=missing,
        delimiter=delimiter,
        max_rows=int(max_rows),
        max_columns=int(max_columns),
        max_cells=int(max_cells),
    )


@dataclass(frozen=True)
class CsvPreview:
    """What the Data page shows of an upload before reading it: its columns (named as
    :func:`read_csv` names them), the label-column guess (``None`` when the rows cannot be
    split) and its cells (rows times columns, counted as the cell limit counts them)."""

    columns: tuple[str, ...]
    label_guess: LabelGuess | None
    encoding: str
    delimiter: str
    cells: int = 0


def preview_csv(
    source: Any,
    *,
    encoding: str | None = None,
    delimiter: str | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    max_rows: int = DEFAULT_MAX_ROWS,
    max_columns: int = DEFAULT_MAX_COLUMNS,
    max_cells: int = DEFAULT_MAX_CELLS,
) -> CsvPreview:
    """The columns of an uploaded CSV file and a guess of its label column, read with the
    same limits, decoding and delimiter as :func:`read_csv` (the guess looks at the first
    :data:`GUESS_ROWS` rows, fewer in a wide file: at most about 1,000,000 cells).

    Raises :class:`~datasets.DatasetError` where :func:`read_csv` would refuse the file's
    size, rows, columns, cells, encoding or header.

    Examples
    --------
    >>> from datasets.upload import preview_csv
    >>> p = preview_csv("x,y,species\\n1,2,a\\n2,1,b\\n3,3,a\\n".encode("utf-16"))
    >>> p.columns, p.label_guess.column, p.encoding
    (('x', 'y', 'species'), 'species', 'UTF-16')
    """
    _check_limits(max_bytes, max_rows, max_columns, max_cells)
    text, payload, base, _, used_encoding = _load_text(
        source,
        encoding=encoding,
        delimiter=delimiter,
        max_bytes=int(max_bytes),
        max_rows=int(max_rows),
        max_columns=int(max_columns),
    )
    head = _head(text, delimiter, int(max_columns))
    cells = _check_cells(payload, base, head, int(max_cells))
    offset = base + (
        len(text[: head.header_end].encode("utf-8", "surrogatepass")) if head.has_header else 0
    )
    del text
    guess = None
    width, n_first = len(head.header), first_rows(len(head.header))
    try:
        frame = _pandas(
            payload,
            offset,
            head.delimiter,
            width,
            text_columns=list(range(width)),
            nrows=min(GUESS_ROWS, n_first),  # cells bounded too
        )
    except Exception:  # rows pandas cannot split: read_csv names the line
        frame = None
    if frame is not None and n_first <= GUESS_ROWS and _line_count(payload, offset) > n_first:
        # read_csv's first-rows rule (no label chosen yet): no column of numbers, refused.
        decide_columns(frame, width, None, head.header, head.decimal_comma, n_first)
    try:
        frame.columns = head.header
        guess = guess_label_column(_typed(frame))
    except Exception:  # rows pandas cannot split: read_csv names the line
        guess = None
    return CsvPreview(tuple(head.header), guess, used_encoding, head.delimiter, cells)


def _typed(frame: Any) -> Any:
    """Numbers as numbers, text as text (cells read as text keep '1.0' and 'setosa' apart);
    empty and NA-like cells are missing."""
    import pandas as pd

    out = {}
    for name in frame.columns:
        column = frame[name].astype(str).str.strip()
        column = column.where(~column.str.lower().isin(_NA_TOKENS))
        numeric = pd.to_numeric(column, errors="coerce")
        out[name] = numeric if numeric.notna().sum() >= column.notna().sum() else column
    return pd.DataFrame(out)


def _parse(
    text: str,
    payload: bytes,
    base: int,
    *,
    display: str,
    used_encoding: str,
    label_column: Any,
    missing: str,
    delimiter: str | None,
    max_rows: int,
    max_columns: int,
    max_cells: int,
) -> Dataset:
    head = _head(text, delimiter, max_columns)
    _check_cells(payload, base, head, max_cells)
    delimiter, decimal_comma, header = head.delimiter, head.decimal_comma, head.header
    has_header, unnamed, header_end = head.has_header, set(head.unnamed), head.header_end
    notes: list[str] = list(head.notes)
    n_columns = len(header)
    label_index, label_notes = _resolve_label(header, label_column, has_header)
    notes.extend(label_notes)
    # pandas starts after the header row, or at the first row when that is data; `payload`
    # holds the text as UTF-8 from byte `base` on.
    offset = base + (len(text[:header_end].encode("utf-8", "surrogatepass")) if has_header else 0)
    cells, n_rows = _read_table(
        payload,
        offset,
        text=text,
        delimiter=delimiter,
        n_columns=n_columns,
        label_index=label_index,
        has_header=has_header,
        max_rows=max_rows,
        header=header,
        decimal_comma=decimal_comma,
        max_cells=max_cells,
    )
    columns = []
    for j, h in enumerate(header):
        if j == label_index:
            continue
        column = cells[j] if isinstance(cells[j], _Column) else _Column(h, j)  # decided early
        if column is not cells[j]:
            column.add(cells[j], decimal_comma)
        columns.append(column)
        cells[j] = None
    label_cells = cells[label_index] if label_index is not None else None
    del cells

    if n_rows == 0:
        raise DatasetError(
            f"The file has a header row ({format_names(header, limit=6)}) but no data rows. "
            f"Add at least {MIN_ROWS} rows of values below the header."
        )

    # ---- label column ------------------------------------------------------------------
    y: np.ndarray | None = None
    class_names: tuple[str, ...] = ()
    keep = np.ones(n_rows, dtype=bool)
    label_name = header[label_index] if label_index is not None else None
    if label_index is not None:
        known, codes, class_names, merged = _label_values(label_cells)
        for label, cells in list(merged.items())[:3]:
            shown = ", ".join(repr(c) for c in cells[:4]) + (", ..." if len(cells) > 4 else "")
            notes.append(
                f"In the label column '{label_name}', {shown} differ only in spaces, tabs "
                f"or line breaks around them and were read as one class, {label!r}."
            )
        if not known.any():
            raise DatasetError(
                f"The label column '{label_name}' has no values. Fill it in, pick another "
                "label column, or upload without one."
            )
        if not known.all():
            n_unknown = int((~known).sum())
            notes.append(
                f"{_count(n_unknown, 'row')} without a value in the label column "
                f"'{label_name}' {'was' if n_unknown == 1 else 'were'} removed."
            )
        keep &= known
        y = np.full(n_rows, -1, dtype=np.int64)
        y[known] = codes

    # ---- feature columns ---------------------------------------------------------------
    text_columns: list[str] = []
    empty_columns: list[str] = []
    kept: list[_Column] = []
    values: list[np.ndarray] = []
    for column in columns:
        if column.n_ambiguous and not column.n_decimal:
            example = column.ambiguous_examples[0]
            raise DatasetError(
                f"Column '{column.name}': a value like '{example}' could be a number with a "
                f"thousands separator ({example.replace(',', '')}) or with a decimal comma "
                f"({example.replace(',', '.')}), and no other cell of the column decides. "
                "Save the file without thousands separators (or with a decimal point) and "
                "upload it again."
            )
        if column.n_thousands:
            notes.append(
                f"Column '{column.name}' has {_count(column.n_thousands, 'number')} with a "
                "thousands separator (1,000.5 or 1.000,5); they were read as 1000.5."
            )
        v = column.values()
        n_numbers = int(np.count_nonzero(~np.isnan(v)))
        if n_numbers == 0:
            (text_columns if column.n_text else empty_columns).append(column.name)
            continue
        if column.n_text >= n_numbers:
            text_columns.append(column.name)
            continue
        if column.n_text:
            examples = ", ".join(f"'{e}'" for e in column.examples)
            notes.append(
                f"Column '{column.name}' has {_count(column.n_text, 'cell')} that "
                f"{'is' if column.n_text == 1 else 'are'} not a number (e.g. {examples}); "
                f"{'it was' if column.n_text == 1 else 'they were'} treated as missing."
            )
        looks_like_index = column.index in unnamed or column.name.lower() in _INDEX_NAMES
        if looks_like_index and _is_row_number(v):
            notes.append(
                f"Column '{column.name}' only numbers the rows (0, 1, 2, ... or 1, 2, 3, ...) "
                "and was skipped."
            )
            continue
        kept.append(column)
        values.append(v)
    if text_columns:
        n = len(text_columns)
        notes.append(
            f"Column '{text_columns[0]}' contains text and was skipped."
            if n == 1
            else f"Column '{text_columns[0]}' and {n - 1} other{'s' if n > 2 else ''} "
            f"contain text and were skipped ({format_names(text_columns, limit=8)})."
        )
    if empty_columns:
        notes.append(
            f"{'Column' if len(empty_columns) == 1 else 'Columns'} "
            f"{format_names(empty_columns, limit=8)} "
            f"{'is' if len(empty_columns) == 1 else 'are'} empty and "
            f"{'was' if len(empty_columns) == 1 else 'were'} skipped."
        )
    if not kept:
        where = f"Apart from the label column '{label_name}', no" if label_name else "No"
        hint = (
            " The whole file was read as a single column: separate the values with commas, "
            "semicolons or tabs."
            if n_columns == 1
            else " Check that the values are numbers (for example 3.5, not 'three')."
        )
        raise DatasetError(
            f"{where} column contains numbers, so there is nothing to cluster.{hint}"
        )

    X = np.column_stack(values)
    X_kept_rows = X if keep.all() else X[keep]  # no copy of a large X when no row goes
    # A column with no usable value among the kept rows cannot be filled or used.
    all_missing = ~np.isfinite(X_kept_rows).any(axis=0) if len(X_kept_rows) else np.zeros(0, bool)
    if len(X_kept_rows) and all_missing.any():
        gone = [kept[j].name for j in np.flatnonzero(all_missing)]
        notes.append(
            f"{'Column' if len(gone) == 1 else 'Columns'} {format_names(gone, limit=8)} "
            f"{'has' if len(gone) == 1 else 'have'} no usable value and "
            f"{'was' if len(gone) == 1 else 'were'} skipped."
        )
        kept = [c for j, c in enumerate(kept) if not all_missing[j]]
        X = X[:, ~all_missing]
        if not kept:
            raise DatasetError(
                "No column has usable numbers in the rows that have a label, so there is "
                "nothing to cluster. Fill in the values and upload the file again."
            )

    # ---- missing and infinite values ----------------------------------------------------
    X_rows = X if keep.all() else X[keep]
    n_missing = int(np.isnan(X_rows).sum())
    n_infinite = int(np.isinf(X_rows).sum())
    removed_for_missing = 0
    if n_missing or n_infinite:
        parts = []
        if n_missing:
            parts.append(_count(n_missing, "missing cell"))
        if n_infinite:
            parts.append(_count(n_infinite, "infinite cell"))
        detail = " and ".join(parts)
        kind = (
            "a missing"
            if not n_infinite
            else ("an infinite" if not n_missing else "a missing or infinite")
        )
        if missing == "drop":
            bad_row = ~np.isfinite(X).all(axis=1) & keep
            removed_for_missing = int(bad_row.sum())
            keep &= ~bad_row
            notes.append(
                f"{_count(removed_for_missing, 'row')} had {kind} value in a feature column "
                f"and {'was' if removed_for_missing == 1 else 'were'} removed ({detail})."
            )
        else:
            finite = np.isfinite(X_rows)
            values = np.where(finite, X_rows, 0.0)
            # Average values scaled by the column's largest magnitude, so that columns near
            # the float64 limit do not overflow to inf when summed.
            scale = np.abs(values).max(axis=0)
            scale[scale == 0] = 1.0
            means = (values / scale).sum(axis=0) / finite.sum(axis=0) * scale
            X = np.where(np.isfinite(X), X, means)
            notes.append(f"{detail[0].upper()}{detail[1:]} were filled with the column mean.")

    n_usable = int(keep.sum())
    if n_usable < MIN_ROWS:
        reason = ""
        if removed_for_missing:
            was = "was" if removed_for_missing == 1 else "were"
            reason = (
                f" {_count(removed_for_missing, 'row')} {was} "
                "removed because of missing values; fill them in, or choose to fill missing "
                "values with the column mean."
            )
        raise DatasetError(
            f"Only {_count(n_usable, 'usable row')} {'was' if n_usable == 1 else 'were'} found; "
            f"clustering needs at least {MIN_ROWS}.{reason}"
        )
    if not keep.all():
        X = X[keep]
    if y is not None:
        y = y[keep]
        present = np.unique(y)
        if len(present) < 2:
            only = class_names[present[0]]
            raise DatasetError(
                f"The label column '{label_name}' has only one value ('{only}'): clustering "
                "needs at least two classes to compare against — pick another label column "
                "or upload without one."
            )
        if len(present) < len(class_names):  # classes only seen in removed rows
            class_names = tuple(class_names[k] for k in present)
            y = np.searchsorted(present, y)
        if len(class_names) > max(20, n_usable // 2):
            notes.append(
                f"The label column '{label_name}' has {len(class_names):,} different values "
                f"for {n_usable:,} rows; it may be a measurement rather than a class label."
            )

    feature_names = tuple(c.name for c in kept)
    spans = X.max(axis=0) - X.min(axis=0)
    constant = [feature_names[j] for j in np.flatnonzero(spans == 0)]
    if constant:
        notes.append(
            f"{'Column' if len(constant) == 1 else 'Columns'} {format_names(constant, limit=8)} "
            f"{'has' if len(constant) == 1 else 'have'} the same value in every row (no "
            "information for clustering; scaling to [-1, 1] drops "
            f"{'it' if len(constant) == 1 else 'them'})."
        )

    description = [
        f"Uploaded file '{display}': {X.shape[0]:,} rows × {X.shape[1]} numeric features "
        f"(delimiter: {_DELIMITER_NAMES.get(delimiter, repr(delimiter))}, "
        f"encoding: {used_encoding}).",
    ]
    if y is None:
        description.append("No label column: the data carry no classes to compare against.")
    else:
        counts = np.bincount(y, minlength=len(class_names))
        description.append(
            f"Label column '{label_name}' with {len(class_names)} classes: "
            + ", ".join(f"{n} ({c})" for n, c in zip(class_names, counts, strict=True))
            + "."
        )
    description.extend(notes)
    return Dataset(
        X=X,
        y=y,
        feature_names=feature_names,
        class_names=class_names,
        name=display,
        description="\n".join(description),
        source="uploaded file",
        notes=tuple(notes),
    )
