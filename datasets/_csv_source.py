"""The bounded read of an uploaded file and its header row, before any parsing.

Every read of an upload (:func:`datasets.read_csv` and :func:`datasets.upload.preview_csv`)
starts in :func:`_load_text`: the bytes up to a limit, the text encoding found once, and the
row and column limits checked by counting, so a file over a limit is refused before the csv
module or pandas sees it. :func:`_head` names the columns as ``read_csv`` does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ._base import DatasetError
from ._csv_text import (
    _SAVE_AS_CSV,
    _count,
    _decode,
    _header_row,
    _line_count,
    _looks_numeric,
    _prescan,
    _read_source,
    _sample_lines,
    _sniff_delimiter,
    _uses_decimal_comma,
)

#: Fewest usable rows a data set must keep.
MIN_ROWS = 4


def _check_limits(max_bytes: Any, max_rows: Any, max_columns: Any, max_cells: Any = 1) -> None:
    for limit_name, limit in (
        ("max_bytes", max_bytes),
        ("max_rows", max_rows),
        ("max_columns", max_columns),
        ("max_cells", max_cells),
    ):
        if isinstance(limit, bool) or not isinstance(limit, (int, np.integer)) or limit < 1:
            raise DatasetError(f"{limit_name} must be a positive whole number, got {limit!r}.")


def _load_text(
    source: Any,
    *,
    encoding: str | None,
    delimiter: str | None,
    max_bytes: int,
    max_rows: int,
    max_columns: int,
) -> tuple[str, bytes, int, str, str]:
    """Every read of an upload starts here: the bytes (at most ``max_bytes``), the text
    (the encoding found once, for the header, the label guess and the table alike), then
    :func:`~datasets._csv_text._prescan`'s row and column limits, before any parsing.

    Returns the text, the UTF-8 bytes pandas reads, where the text starts in them, the
    file's name and the encoding's name.
    """
    raw, file_name = _read_source(source, max_bytes)
    if not raw[:1_000_000].strip() and not raw.strip():
        raise DatasetError(
            f"The file is empty. Upload a CSV file with a header row and at least {MIN_ROWS} "
            "data rows."
        )
    # Bytes of an ASCII-compatible encoding (no NUL byte: not UTF-16/32) are checked
    # against the limits before they are decoded; the others once decoded, below.
    prescanned = not isinstance(raw, str) and b"\x00" not in raw
    if prescanned:
        _prescan(raw, delimiter, max_rows, max_columns)
    if isinstance(raw, str):
        text, used_encoding = raw, "text"
    else:
        text, used_encoding = _decode(raw, encoding)
    decoded = text
    text = text.rstrip("\x1a")  # DOS end-of-file marker
    if "\r" in text and "\n" not in text:  # classic Mac OS line ends
        text = text.replace("\r", "\n")
    if "\x00" in text:
        raise DatasetError(
            f"This file contains binary data, not text, so it is not a CSV file. {_SAVE_AS_CSV}"
        )
    if not text.strip():
        raise DatasetError(
            f"The file is empty. Upload a CSV file with a header row and at least {MIN_ROWS} "
            "data rows."
        )
    # pandas reads UTF-8 bytes: the file's own when it is UTF-8 and unchanged, else the text
    # re-encoded. `base` is where the text starts in them (after a byte-order mark).
    base = 0
    if used_encoding in ("UTF-8", "UTF-8 (with BOM)") and text is decoded:
        payload, base = raw, (3 if used_encoding != "UTF-8" else 0)
    else:
        payload = text.encode("utf-8", "surrogatepass")
    del raw, decoded
    if not prescanned:
        _prescan(payload, delimiter, max_rows, max_columns, start=base)
    return text, payload, base, file_name, used_encoding


@dataclass(frozen=True)
class _Head:
    """The delimiter, the number format and the header row of an upload's text."""

    delimiter: str
    decimal_comma: bool
    header: list[str]
    has_header: bool
    unnamed: frozenset[int]
    header_end: int
    notes: tuple[str, ...]
    width: int = 0  # values in the first row, trailing empty ones included


def _check_cells(payload: bytes, base: int, head: _Head, max_cells: int) -> int:
    """Refuse a file whose rows times columns exceed ``max_cells``, by counting its lines
    (:func:`~datasets._csv_text._line_count`, an upper bound: blank lines are not counted)
    before any cell is parsed: what a file costs to read grows with its cells, not its
    bytes (a file of ``0,`` holds one cell in two bytes). Returns that count of cells."""
    rows = max(0, _line_count(payload, base) - (1 if head.has_header else 0))
    # Empty values at the ends of rows are read too (and dropped later): they count.
    columns = max(len(head.header), head.width)
    cells = rows * columns
    if cells > max_cells:
        raise DatasetError(
            f"The file has about {cells:,} cells ({_count(rows, 'row')} × "
            f"{_count(columns, 'column')}); the limit is {max_cells:,} cells, what "
            "this server reads within about 1 GB of memory. Keep only the columns you need, "
            "or upload a random sample of the rows."
        )
    return cells


def _head(text: str, delimiter: str | None, max_columns: int) -> _Head:
    """The columns as :func:`read_csv` names them (shared with :func:`preview_csv`)."""
    notes: list[str] = []
    sample = _sample_lines(text)
    if delimiter is None:
        delimiter = _sniff_delimiter(sample)
    decimal_comma = _uses_decimal_comma(sample, delimiter)
    if decimal_comma:
        notes.append("Numbers use a decimal comma (1,5); they were read as 1.5.")

    first = _header_row(text, delimiter)
    if first is None:
        raise DatasetError(
            f"The file is empty. Upload a CSV file with a header row and at least {MIN_ROWS} "
            "data rows."
        )
    header_cells, header_end = first
    header = [h.strip() for h in header_cells]
    width = len(header)
    # Trailing empty header cells (a delimiter at the end of the header line) are ignored.
    while len(header) > 1 and header[-1] == "":
        header.pop()
    n_columns = len(header)
    if n_columns > max_columns:
        raise DatasetError(
            f"The file has {n_columns:,} columns; the limit is {max_columns:,}. Keep only the "
            "columns you need and upload it again."
        )
    has_header = not all(_looks_numeric(h) for h in header)
    unnamed: set[int] = set()
    if not has_header:
        header = [f"column {j + 1}" for j in range(n_columns)]
        notes.append(
            "The first row holds only numbers, so it was read as data; the columns are named "
            "'column 1', 'column 2', ..."
        )
    else:
        unnamed = {j for j, h in enumerate(header) if not h}
        header = [h if h else f"column {j + 1}" for j, h in enumerate(header)]
        seen: dict[str, int] = {}
        for j, h in enumerate(header):
            if h in seen:
                raise DatasetError(
                    f"Two columns are both named '{h}' (columns {seen[h] + 1} and {j + 1}). "
                    "Rename one of them so that every column has its own name, then upload "
                    "the file again."
                )
            seen[h] = j

    return _Head(
        delimiter,
        decimal_comma,
        header,
        has_header,
        frozenset(unnamed),
        header_end,
        tuple(notes),
        width,
    )
