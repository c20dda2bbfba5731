"""Upload limits that bound memory, not only bytes (issue 35 item 4): a cell limit checked by
counting, and files of text or empty cells refused after reading their first rows only."""

from __future__ import annotations

import numpy as np
import pytest

import datasets
from datasets import DatasetError, _csv_table
from datasets._csv_table import first_rows
from datasets.upload import DEFAULT_MAX_CELLS, preview_csv


def _table(rows: int, cols: int, cell: str = "0", first: str | None = None) -> bytes:
    line = ",".join([cell] * cols) + "\n"
    head = ",".join(f"c{j}" for j in range(cols)) + "\n"
    start = "" if first is None else first
    return (head + start + line * rows).encode()


@pytest.fixture
def pandas_calls(monkeypatch):
    """Every call to the table reader: the rows it was asked for (``None``: all)."""
    calls: list[int | None] = []
    real = _csv_table._pandas

    def recording(*args, **kwargs):
        calls.append(kwargs.get("nrows"))
        return real(*args, **kwargs)

    monkeypatch.setattr(_csv_table, "_pandas", recording)
    monkeypatch.setattr(datasets.upload, "_pandas", recording)  # the preview's
    return calls


@pytest.mark.parametrize("reader", [datasets.read_csv, preview_csv])
def test_a_file_over_the_cell_limit_is_refused_before_its_table_is_read(pandas_calls, reader):
    data = _table(51, 20)  # 51 x 20 = 1,020 cells
    with pytest.raises(DatasetError, match=r"about 1,020 cells \(51 rows × 20 columns\)"):
        reader(data, max_cells=1_000)
    assert pandas_calls == []
    assert datasets.read_csv(_table(50, 20), max_cells=1_000).shape == (50, 20)


def test_the_default_cell_limit_counts_rows_times_columns():
    assert DEFAULT_MAX_CELLS == 20_000_000
    # A file of "0," cells: 2 bytes a cell, 10 % of the byte limit over the cell limit.
    data = _table(10_001, 2_000)
    assert len(data) < datasets.upload.DEFAULT_MAX_BYTES
    with pytest.raises(DatasetError, match=r"20,002,000 cells.*limit is 20,000,000 cells"):
        datasets.read_csv(data)


@pytest.mark.parametrize("reader", [datasets.read_csv, preview_csv])
@pytest.mark.parametrize("cell", ["abc", "", "?"])
def test_a_long_file_without_numbers_is_refused_after_its_first_rows(pandas_calls, cell, reader):
    n_first = first_rows(100)
    data = _table(3 * n_first, 100, cell=cell)
    with pytest.raises(DatasetError, match=f"first {n_first:,} rows.*rest of the file was not"):
        reader(data)
    assert pandas_calls == [n_first]  # only the first rows were ever parsed


def test_a_short_file_is_decided_on_every_row_as_before(pandas_calls):
    # Fewer rows than first_rows: text in the first rows, numbers after, numbers win.
    n = first_rows(2)
    data = b"a,b\n" + b"x,1\n" * 10 + b"\n".join(b"%d,%d" % (i, i) for i in range(n - 20)) + b"\n"
    ds = datasets.read_csv(data)
    assert ds.feature_names == ("a", "b")
    assert None in pandas_calls or max(pandas_calls) > n  # read whole


def test_a_column_of_text_in_the_first_rows_is_skipped_and_the_rest_is_read(pandas_calls):
    n_first = first_rows(3)
    rows = 2 * n_first
    rng = np.random.default_rng(0)
    values = rng.normal(size=(rows, 2))
    lines = ["x,note,z"] + [f"{a:.4f},word {i},{b:.4f}" for i, (a, b) in enumerate(values)]
    ds = datasets.read_csv(("\n".join(lines) + "\n").encode())
    assert ds.feature_names == ("x", "z")
    np.testing.assert_allclose(ds.X, values, atol=1e-4)
    assert any("'note' contains text and was skipped" in note for note in ds.notes)
    assert pandas_calls[0] == n_first and pandas_calls[1] != n_first


def test_a_ragged_row_after_the_first_rows_is_still_named():
    n_first = first_rows(3)
    data = _table(2 * n_first, 3, first=None) + b"1,2\n"
    with pytest.raises(DatasetError, match=rf"Line {2 * n_first + 2} has 2 values"):
        datasets.read_csv(data)


def test_quoted_delimiters_in_a_skipped_text_column_do_not_hide_a_short_row():
    n_first = first_rows(3)
    rows = ['1,"a,b",2'] * (2 * n_first) + ['1,"a,b"']
    data = ("x,note,z\n" + "\n".join(rows) + "\n").encode()
    with pytest.raises(DatasetError, match=rf"Line {2 * n_first + 2} has 2 values"):
        datasets.read_csv(data)


def test_empty_values_at_the_ends_of_rows_count_as_cells(pandas_calls):
    # A file of commas: the header is empty values only, read as one column, yet every row
    # would be read 2,000 values wide.
    data = (b"," * 1999 + b"\n") * 600
    with pytest.raises(DatasetError, match=r"about 1,198,000 cells \(599 rows × 2,000 columns\)"):
        datasets.read_csv(data, max_cells=1_000_000)
    assert pandas_calls == []
    # Rows wider than the header only further down: refused once the rows are scanned.
    wide = b"a,b,label\n" + b"1,2,0\n1,3,1\n" * 300 + (b"1,2,0" + b"," * 500 + b"\n") * 2
    with pytest.raises(DatasetError, match=r"rows have up to 503 values \(the header names 3\)"):
        datasets.read_csv(wide, max_cells=100_000)


def test_a_short_row_in_a_file_without_quotes_is_named_before_any_parsing(pandas_calls):
    data = _table(3000, 20) + b"0,0\n" + _table(10, 20).split(b"\n", 1)[1]
    with pytest.raises(DatasetError, match=r"^Line 3002 has 2 values but the header has 20"):
        datasets.read_csv(data)
    assert pandas_calls == []
    # Blank lines and empty values after the last column are still allowed.
    fine = _table(3000, 3) + b"\n   \n0,0,0,,\n"
    assert datasets.read_csv(fine).shape == (3001, 3)
