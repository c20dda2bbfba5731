"""Reading an upload as text: the bytes (size limits), the encoding (BOMs, UTF-16 without a
BOM, binary formats uploaded by mistake), the delimiter, the header row, and the row-length
check behind the "Line N has ..." messages (Python's ``csv``; pandas parses the table).

Part of :func:`datasets.upload.read_csv`; every problem raises
:class:`~datasets.DatasetError` with a message for a non-programmer.
"""

from __future__ import annotations

import codecs
import csv
import os
import re
from collections.abc import Iterator
from typing import Any

import numpy as np
import pandas as pd

from ._base import DatasetError

_DELIMITERS = (",", ";", "\t", "|")
_DELIMITER_NAMES = {",": "comma", ";": "semicolon", "\t": "tab", "|": "vertical bar"}
_SNIFF_LINES = 50
_DECIMAL_COMMA = re.compile(r"^[+-]?\d+,\d+$")
_DECIMAL_POINT = re.compile(r"^[+-]?\d*\.\d+$")

_SAVE_AS_CSV = (
    "Save your table as CSV (in Excel or LibreOffice: File > Save As > 'CSV UTF-8') and "
    "upload that file."
)

# File signatures of formats people upload by mistake.
_SIGNATURES = (
    (b"PK\x03\x04", "an Excel workbook (.xlsx) or another zip archive"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "an old-style Excel workbook (.xls)"),
    (b"%PDF", "a PDF document"),
    (b"\x1f\x8b", "a gzip-compressed file"),
    (b"\x89PNG", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF8", "a GIF image"),
    (b"SQLite format 3", "an SQLite database"),
    (b"\x93NUMPY", "a NumPy array file"),
    (b"PAR1", "a Parquet file"),
    (b"7z\xbc\xaf", "a 7-Zip archive"),
    (b"BZh", "a bzip2-compressed file"),
)


def _mb(n_bytes: int) -> str:
    """A file size in words: ``200 MB``, ``1.5 MB``, ``12.3 kB``, ``80 bytes``."""
    if n_bytes >= 1_000_000:
        return f"{n_bytes / 1e6:,.1f} MB".replace(".0 MB", " MB")
    if n_bytes >= 1_000:
        return f"{n_bytes / 1e3:,.1f} kB".replace(".0 kB", " kB")
    return f"{n_bytes} byte" + ("" if n_bytes == 1 else "s")


# --------------------------------------------------------------------------------------------
# Getting the bytes
# --------------------------------------------------------------------------------------------


def _too_big(size: int, max_bytes: int) -> DatasetError:
    return DatasetError(
        f"The file is {_mb(size)}; the limit is {_mb(max_bytes)}. Upload a smaller file, for "
        "example a random sample of the rows."
    )


def _read_source(source: Any, max_bytes: int) -> tuple[bytes | str, str]:
    """The raw content (bytes, or str for a text-mode file object) and a display name."""
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        name = os.path.basename(path) or path
        try:
            size = os.stat(path).st_size
            if size > max_bytes:
                raise _too_big(size, max_bytes)
            with open(path, "rb") as handle:
                return handle.read(max_bytes + 1), name
        except DatasetError:
            raise
        except FileNotFoundError:
            raise DatasetError(f"There is no file at {path!r}. Check the path.") from None
        except IsADirectoryError:
            raise DatasetError(f"{path!r} is a folder, not a file. Choose a CSV file.") from None
        except OSError as err:
            raise DatasetError(
                f"The file {path!r} could not be opened ({err.strerror or err}). Check that it "
                "exists and that you may read it."
            ) from None
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        if len(data) > max_bytes:
            raise _too_big(len(data), max_bytes)
        return data, "uploaded data"
    if hasattr(source, "read"):
        raw_name = getattr(source, "name", None)
        name = os.path.basename(raw_name) if isinstance(raw_name, str) and raw_name else ""
        size = getattr(source, "size", None)
        if isinstance(size, int) and size > max_bytes:
            raise _too_big(size, max_bytes)
        try:
            if hasattr(source, "getvalue"):  # BytesIO, StringIO, Streamlit's UploadedFile
                data = source.getvalue()
            else:
                if hasattr(source, "seekable") and source.seekable():
                    source.seek(0)
                data = source.read(max_bytes + 1)
        except (OSError, ValueError) as err:
            raise DatasetError(f"The uploaded file could not be read ({err}).") from None
        if not isinstance(data, (bytes, bytearray, memoryview, str)):
            raise DatasetError("The uploaded file could not be read: it returned no data.")
        if not isinstance(data, str):
            data = bytes(data)
        if len(data) > max_bytes:
            raise _too_big(len(data), max_bytes)
        return data, name or "uploaded file"
    raise DatasetError(
        f"Cannot read data from a {type(source).__name__}. Give a file path, the file's bytes "
        "or an open file."
    )


# --------------------------------------------------------------------------------------------
# Decoding
# --------------------------------------------------------------------------------------------


def _line_of(data: bytes, position: int) -> int:
    return data.count(b"\n", 0, position) + 1


def _is_mostly_binary(data: bytes) -> bool:
    sample = data[:8192]
    controls = sum(1 for b in sample if b < 32 and b not in (9, 10, 12, 13))
    return controls > max(1, len(sample) // 100)


def _utf16_without_bom(data: bytes) -> str | None:
    """``"utf-16-le"``/``"utf-16-be"`` when ``data`` looks like UTF-16 text without a BOM.

    Text in a Latin script saved as UTF-16 has a zero byte in (almost) every other position:
    the odd positions for little-endian, the even ones for big-endian. Binary data does not
    keep that pattern over a whole sample.
    """
    sample = data[:8192]
    if len(sample) < 4 or (len(sample) % 2 and len(data) == len(sample)):
        return None
    even, odd = sample[0::2], sample[1::2]
    zeros_even, zeros_odd = even.count(0), odd.count(0)
    if zeros_odd >= 0.9 * len(odd) and zeros_even == 0:
        return "utf-16-le"
    if zeros_even >= 0.9 * len(even) and zeros_odd == 0:
        return "utf-16-be"
    return None


def _decode(data: bytes, encoding: str | None) -> tuple[str, str]:
    """Text and the name of the encoding it was read with."""
    if encoding is not None:
        try:
            codecs.lookup(encoding)
        except LookupError:
            raise DatasetError(f"Unknown text encoding {encoding!r}.") from None
        try:
            return data.decode(encoding), encoding
        except UnicodeDecodeError as err:
            raise DatasetError(
                f"The file could not be read as {encoding} text (line "
                f"{_line_of(data, err.start)}). Choose the encoding it was saved with, or save "
                "it as 'CSV UTF-8' and upload it again."
            ) from None
    boms = (
        (codecs.BOM_UTF32_LE, "utf-32"),
        (codecs.BOM_UTF32_BE, "utf-32"),
        (codecs.BOM_UTF8, "utf-8-sig"),
        (codecs.BOM_UTF16_LE, "utf-16"),
        (codecs.BOM_UTF16_BE, "utf-16"),
    )
    for bom, codec in boms:
        if data.startswith(bom):
            try:
                return data.decode(codec), codec.upper().replace("-SIG", " (with BOM)")
            except UnicodeDecodeError:
                raise DatasetError(
                    f"The file starts like {codec.upper()} text but is not valid "
                    f"{codec.upper()}: it may be damaged. {_SAVE_AS_CSV}"
                ) from None
    for signature, what in _SIGNATURES:
        if data.startswith(signature):
            raise DatasetError(f"This file is {what}, not a CSV text file. {_SAVE_AS_CSV}")
    if data.startswith(b"\x80") and len(data) > 1 and data[1] <= 5:
        raise DatasetError(
            f"This file is binary (it looks like a Python pickle, which is never loaded for "
            f"safety), not a CSV text file. {_SAVE_AS_CSV}"
        )
    utf16 = _utf16_without_bom(data)
    if utf16 is not None:
        try:
            return data.decode(utf16), f"{utf16.upper()} (no BOM)"
        except UnicodeDecodeError:
            pass  # not text after all: the binary check below names it
    if b"\x00" in data or _is_mostly_binary(data):
        raise DatasetError(
            f"This file contains binary data, not text, so it is not a CSV file. {_SAVE_AS_CSV}"
        )
    try:
        return data.decode("utf-8"), "UTF-8"
    except UnicodeDecodeError as err:
        raise DatasetError(
            f"The file is not UTF-8 text: line {_line_of(data, err.start)} has a character "
            "this lab cannot read (the file was probably saved as Latin-1 or Windows-1252). "
            "Save it with UTF-8 encoding (in Excel: File > Save As > 'CSV UTF-8') and upload "
            "it again."
        ) from None


# --------------------------------------------------------------------------------------------
# Delimiter and rows
# --------------------------------------------------------------------------------------------


def _is_blank(row: list[str]) -> bool:
    return not row or (len(row) == 1 and not row[0].strip())


def _iter_lines(text: str) -> Iterator[str]:
    """The lines of ``text`` with their line ends (``\\n``, ``\\r\\n``; a file that only uses
    ``\\r`` is converted by the caller). Cheaper than ``io.StringIO`` on large texts."""
    start, size = 0, len(text)
    while start < size:
        end = text.find("\n", start)
        if end < 0:
            yield text[start:]
            return
        yield text[start : end + 1]
        start = end + 1


def _sample_lines(text: str) -> list[str]:
    lines = []
    for line in _iter_lines(text[:1_000_000]):
        if line.strip():
            lines.append(line)
            if len(lines) >= _SNIFF_LINES:
                break
    return lines


def _sniff_delimiter(lines: list[str]) -> str:
    best, best_score = ",", (-1.0, 0)
    for delimiter in _DELIMITERS:
        try:
            rows = [
                r
                for r in csv.reader(lines, delimiter=delimiter, skipinitialspace=True)
                if not _is_blank(r)
            ]
        except csv.Error:
            continue
        if not rows or len(rows[0]) < 2:
            continue
        n_columns = len(rows[0])
        consistent = sum(len(r) == n_columns for r in rows) / len(rows)
        score = (consistent, n_columns)
        if score > best_score:
            best, best_score = delimiter, score
    return best


def _uses_decimal_comma(lines: list[str], delimiter: str) -> bool:
    if delimiter == ",":
        return False
    comma = point = 0
    try:
        for row in csv.reader(lines, delimiter=delimiter, skipinitialspace=True):
            for cell in row:
                cell = cell.strip()
                comma += bool(_DECIMAL_COMMA.match(cell))
                point += bool(_DECIMAL_POINT.match(cell))
    except csv.Error:
        return False
    return comma > 0 and point == 0


class _Lines:
    """The lines of a text for ``csv.reader``, counting the characters handed out so far."""

    def __init__(self, text: str) -> None:
        self._lines = _iter_lines(text)
        self.consumed = 0

    def __iter__(self) -> _Lines:
        return self

    def __next__(self) -> str:
        line = next(self._lines)
        self.consumed += len(line)
        return line


def _rows(
    text: str, delimiter: str, lines: _Lines | None = None
) -> Iterator[tuple[int, list[str]]]:
    """Non-blank rows with the number of the line they end on (Python's ``csv``).

    Used for the header row, and to re-scan a file that pandas refused or found ragged, so
    that the message names the line as a text editor counts it.
    """
    reader = csv.reader(
        lines if lines is not None else _iter_lines(text),
        delimiter=delimiter,
        skipinitialspace=True,
        strict=False,
    )
    try:
        for row in reader:
            if not _is_blank(row):
                yield reader.line_num, row
    except csv.Error as err:
        message = str(err)
        if "field larger than field limit" in message:
            raise DatasetError(
                f"Line {reader.line_num + 1} holds a single value of more than "
                f"{csv.field_size_limit():,} characters, which does not look like a table. "
                "Check the file's quotation marks (a quote that is opened but never closed "
                "swallows the rest of the file)."
            ) from None
        raise DatasetError(
            f"The file could not be split into rows and columns near line {reader.line_num} "
            f"({message}). {_SAVE_AS_CSV}"
        ) from None


def _header_row(text: str, delimiter: str) -> tuple[list[str], int] | None:
    """The first non-blank row's cells and the offset in ``text`` just after it (None for a
    file without rows)."""
    lines = _Lines(text)
    first = next(_rows(text, delimiter, lines), None)
    return None if first is None else (first[1], lines.consumed)


def _wrong_length(line: int, n_values: int, n_columns: int, delimiter: str) -> DatasetError:
    return DatasetError(
        f"Line {line} has {_count(n_values, 'value')} but the header has "
        f"{_count(n_columns, 'column')}. Every row needs exactly one value per column: look "
        f"for a missing or extra {_DELIMITER_NAMES.get(delimiter, repr(delimiter))} on that "
        "line (a value that contains the delimiter must be in double quotes)."
    )


def _scan_rows(text: str, delimiter: str, n_columns: int, max_rows: int, has_header: bool) -> int:
    """Check every row's length as the file's author would count it; return the widest row.

    Only called when pandas refused the file or its rows may be ragged: it raises the
    message for the first row with the wrong number of values (extra empty values at the end
    of a row are allowed), or for too many rows.
    """
    rows = _rows(text, delimiter)
    n_rows, widest = 0 if has_header else 1, n_columns
    first = next(rows, None)  # the header, or the first data row; its extra cells are empty
    if first is not None and not has_header:
        widest = max(widest, len(first[1]))
    for line, row in rows:
        if len(row) != n_columns:
            if len(row) < n_columns or any(c.strip() for c in row[n_columns:]):
                raise _wrong_length(line, len(row), n_columns, delimiter)
            widest = max(widest, len(row))
        n_rows += 1
        if n_rows > max_rows:
            raise _too_many_rows(max_rows)
    return widest


_FIRST_NON_BLANK = re.compile(rb"\S")
_CHUNK = 1 << 24


def _fast_scan(payload: bytes, offset: int, delimiter: str, n_columns: int) -> None:
    """In a file without double quotes, raise :func:`_wrong_length` for the first row
    whose values are not one per column, by counting delimiters per line in NumPy over
    bounded chunks (no Python ``csv``): only the lines whose count is off are split in
    Python, to skip blank ones and allow empty values after the last column, as
    :func:`_scan_rows` does. Returns without a verdict when the file has quotes, a delimiter
    of several bytes, one column or no line feed: :func:`_scan_rows` decides then."""
    code = delimiter.encode("utf-8")
    if (
        len(code) != 1
        or n_columns < 2
        or payload.find(b'"', offset) >= 0
        or payload.find(b"\n", offset) < 0
    ):
        return
    array = np.frombuffer(payload, dtype=np.uint8)
    want, carry = n_columns - 1, 0
    line_no, line_start = payload.count(b"\n", 0, offset) + 1, offset

    def check(start: int, end: int, count: int, line: int) -> None:
        if count == want:
            return
        values = payload[start:end].decode("utf-8", "replace").rstrip("\r").split(delimiter)
        if not any(v.strip() for v in values):
            return  # a blank line
        if len(values) < n_columns or any(v.strip() for v in values[n_columns:]):
            raise _wrong_length(line, len(values), n_columns, delimiter)

    for lo in range(offset, len(payload), _CHUNK):
        chunk = array[lo : min(len(payload), lo + _CHUNK)]
        cum = np.cumsum(chunk == code[0], dtype=np.int32)
        ends = np.flatnonzero(chunk == 10)
        if len(ends) == 0:
            carry += int(cum[-1])
            continue
        at_ends = cum[ends].astype(np.int64)
        counts = np.diff(at_ends, prepend=0)
        counts[0] += carry
        carry = int(cum[-1]) - int(at_ends[-1])
        for k in np.flatnonzero(counts != want):
            start = line_start if k == 0 else lo + int(ends[k - 1]) + 1
            check(start, lo + int(ends[k]), int(counts[k]), line_no + int(k))
        line_no += len(ends)
        line_start = lo + int(ends[-1]) + 1
    if line_start < len(payload):
        check(line_start, len(payload), carry, line_no)


def _byte_counts(data: bytes, start: int, end: int, value: int) -> tuple[int, int]:
    """How many bytes of ``data[start:end]`` equal ``value``, and how many of those follow
    a line end (``\\n`` or ``\\n\\r``; with ``value`` the line end: the empty lines).

    NumPy over 16 MB chunks: the comparisons release the GIL, so other sessions' scripts
    keep running, and memory stays bounded.
    """
    array = np.frombuffer(data, dtype=np.uint8)
    total = after_end = 0
    for lo in range(start, end, _CHUNK):
        own = min(end, lo + _CHUNK) - lo
        chunk = array[lo : min(end, lo + own + 2)]  # two bytes more for the pairs at its end
        hit = chunk == value
        total += int(np.count_nonzero(hit[:own]))
        if value == 10:
            n2 = min(own, len(chunk) - 1)  # "\n\n" starting in this chunk
            after_end += int(np.count_nonzero(hit[:n2] & hit[1 : n2 + 1]))
            n3 = min(own, len(chunk) - 2)  # "\n\r\n"
            if n3 > 0:
                after_end += int(
                    np.count_nonzero(hit[:n3] & (chunk[1 : n3 + 1] == 13) & hit[2 : n3 + 2])
                )
    return total, after_end


def _line_count(data: bytes, start: int = 0) -> int:
    """An upper bound of the non-blank lines of ``data[start:]`` (line ends minus the empty
    and ``\\r``-only lines; a value spanning lines between quotes counts as several), by
    counting bytes (:func:`_byte_counts`)."""
    ends, blank = _byte_counts(data, start, len(data), 10)
    if ends == 0:
        ends, blank = _byte_counts(data, start, len(data), 13)[0], 0  # classic Mac OS line ends
    return ends + (not data.endswith((b"\n", b"\r"))) - blank


def _prescan(
    data: bytes, delimiter: str | None, max_rows: int, max_columns: int, start: int = 0
) -> None:
    """Refuse a file over the row or column limits before any parsing.

    ``data`` is the file's text as bytes of an ASCII-compatible encoding (UTF-8, or the
    text re-encoded as UTF-8). Only counts, in NumPy (which releases the GIL) over bounded
    chunks: an upper bound of the non-blank lines (line ends minus the empty and
    ``\\r``-only lines; a value spanning lines between quotes counts as several) and, on the
    first non-blank line, the delimiters outside double quotes (each of ``,;\\t|`` unless
    ``delimiter`` is given). So a one-line file of millions of values or a file of millions
    of rows is refused in a fraction of a second, before Python's ``csv`` or pandas build a
    single cell.
    """
    if _line_count(data, start) - 1 > max_rows:
        raise _too_many_rows(max_rows)
    first = _FIRST_NON_BLANK.search(data, start)
    if first is None:
        return
    start = first.start()
    end = min(
        (i for i in (data.find(b"\n", start), data.find(b"\r", start)) if i >= 0), default=len(data)
    )
    n_quotes = _byte_counts(data, start, end, ord('"'))[0]
    if n_quotes > 4 * max_columns:
        raise DatasetError(
            f"The first row holds {n_quotes:,} double quotes, more than a header of "
            f"{max_columns:,} columns (the limit) can have. Keep only the columns you need "
            "and upload the file again."
        )
    candidates = (delimiter,) if delimiter is not None else _DELIMITERS
    unquoted = data[start:end].split(b'"')[0::2] if n_quotes else None
    for d in candidates:
        code = d.encode("utf-8")
        if unquoted is None and len(code) == 1:
            n_values = _byte_counts(data, start, end, code[0])[0] + 1
        else:
            parts = unquoted if unquoted is not None else [data[start:end]]
            n_values = sum(part.count(code) for part in parts) + 1
        if n_values > max_columns:
            raise DatasetError(
                f"The file has {n_values:,} columns; the limit is {max_columns:,}. Keep only "
                f"the columns you need and upload it again (its first row has {n_values - 1:,} "
                f"{_DELIMITER_NAMES.get(d, repr(d))}s)."
            )


def _too_many_rows(max_rows: int) -> DatasetError:
    return DatasetError(
        f"The file has more than {max_rows:,} data rows, the limit. Upload a random sample of "
        "the rows instead."
    )


def _count(n: int, word: str) -> str:
    return f"{n:,} {word}" + ("" if n == 1 else "s")


def _looks_numeric(cell: str) -> bool:
    cell = cell.strip()
    if not cell:
        return False
    return not np.isnan(pd.to_numeric(pd.Series([cell], dtype=object), errors="coerce")[0])
