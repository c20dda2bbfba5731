"""Downloads escape cells a spreadsheet would run as a formula (issue 12, item 5)."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest

from datasets.export import escape_formula, safe_csv

DANGEROUS = ['=HYPERLINK("http://evil.example","click")', "+cmd|' /C calc'!A0", "-2+3", "@SUM(A1)",
             "\t=1+1", "\r=1+1"]  # fmt: skip


@pytest.mark.parametrize("text", DANGEROUS)
def test_formula_text_is_prefixed_with_a_quote(text):
    assert escape_formula(text) == "'" + text


@pytest.mark.parametrize("value", ["-1.5", "+3", "-2e-5", "benign", "", 7, -1.0, None])
def test_numbers_and_plain_text_are_unchanged(value):
    assert escape_formula(value) == value


def test_safe_csv_escapes_text_cells_and_headers_but_not_numbers():
    frame = pd.DataFrame(
        {
            "sample": np.arange(len(DANGEROUS)),
            "class": DANGEROUS,
            "=bad header": np.arange(len(DANGEROUS)) - 3,
        }
    )
    text = safe_csv(frame)
    back = pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False)
    cells = [*back.columns, *back.to_numpy().ravel()]
    starts = ("=", "+", "-", "@", "\t", "\r")
    assert not [c for c in cells if c.startswith(starts) and not c.lstrip("-").isdigit()]
    assert back["class"].tolist() == ["'" + t for t in DANGEROUS]
    assert back["'=bad header"].tolist() == [str(v) for v in range(-3, len(DANGEROUS) - 3)]
