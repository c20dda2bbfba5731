"""Tables the lab offers for download, made safe to open in a spreadsheet.

A cell whose text starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is run as
a formula by Excel, LibreOffice and Google Sheets (``=HYPERLINK(...)`` from an uploaded class
name would become a live link). :func:`escape_formula` prefixes such text with a single quote,
which spreadsheets show as text and do not display; numbers (``-1.5``) are left alone.

>>> escape_formula("=HYPERLINK(\\"http://x\\")")
'\\'=HYPERLINK("http://x")'
>>> escape_formula("-1.5"), escape_formula("benign")
('-1.5', 'benign')
"""

from __future__ import annotations

import csv
import re

import pandas as pd

__all__ = ["escape_formula", "safe_csv", "safe_frame"]

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")


def escape_formula(value):
    """``value`` with a leading ``'`` if a spreadsheet would run it as a formula.

    Non-strings are returned unchanged, and so is text that is a plain number.
    """
    if not isinstance(value, str) or not value.startswith(_FORMULA_START):
        return value
    if _NUMBER.match(value):
        return value
    return "'" + value


def safe_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``frame`` with every text cell, column name and text index value passed
    through :func:`escape_formula`: what a table shown on a page must hold, since its
    built-in download exports the cells as shown."""
    out = frame.rename(columns=lambda c: escape_formula(str(c)))
    if out.index.dtype == object:
        out.index = out.index.map(escape_formula)
    for column in out.columns:
        if out[column].dtype == object or pd.api.types.is_string_dtype(out[column]):
            out[column] = out[column].map(escape_formula)
    return out


def safe_csv(frame: pd.DataFrame, **to_csv_kwargs) -> str:
    """``frame.to_csv(...)`` with every text cell and column name passed through
    :func:`escape_formula` and quoted (a carriage return inside an unquoted cell would split
    the row); numeric columns are written as they are."""
    out = safe_frame(frame)
    return out.to_csv(**{"index": False, "quoting": csv.QUOTE_NONNUMERIC, **to_csv_kwargs})
