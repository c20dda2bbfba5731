"""read_csv on pandas: the cases pandas does not decide the way the project does (rows too
short, a delimiter at every line end, a quote never closed, true/false cells, a column whose
type pandas guesses per block of rows), each checked against the expected table."""

from __future__ import annotations

import numpy as np
import pytest

from datasets import DatasetError, read_csv


def test_short_row_after_quoted_delimiters_and_a_multiline_value_names_its_line():
    # pandas pads the short row; the delimiter count finds it, the re-scan names line 6.
    data = b'a,b,label\n1,2,"x, y"\n3,4,"two\nlines"\n5,6,z\n7,8\n9,10,z\n'
    with pytest.raises(DatasetError, match=r"^Line 6 has 2 values but the header has 3 columns"):
        read_csv(data)


def test_short_row_in_a_file_without_quotes():
    with pytest.raises(DatasetError, match=r"^Line 4 has 1 value but the header has 2 columns"):
        read_csv(b"a;b\n1;2\n3;4\n5\n7;8\n9;1\n")


def test_delimiter_at_the_end_of_every_line():
    ds = read_csv(b"a,b,label,\n1,2,x,\n3,4,y,\n5,6,x,\n7,8,y,\n")
    np.testing.assert_array_equal(ds.X, [[1, 2], [3, 4], [5, 6], [7, 8]])
    assert ds.class_names == ("x", "y") and ds.feature_names == ("a", "b")


def test_headerless_first_row_with_a_trailing_delimiter():
    ds = read_csv(b"1,2,\n3,4\n5,6\n7,8\n")
    np.testing.assert_array_equal(ds.X, [[1, 2], [3, 4], [5, 6], [7, 8]])


def test_extra_value_in_the_first_data_row_is_refused_not_dropped():
    with pytest.raises(DatasetError, match=r"^Line 2 has 3 values but the header has 2"):
        read_csv(b"a,b\n1,2,3\n3,4\n5,6\n7,8\n")


def test_quote_left_open_at_the_end_swallows_the_rest_as_one_value():
    open_quote = read_csv(b'a,b,c\n1,2,x\n3,4,y\n5,6,x\n7,8,"y\n9,9,9\n')
    closed = read_csv(b'a,b,c\n1,2,x\n3,4,y\n5,6,x\n7,8,"y\n9,9,9\n"')
    np.testing.assert_array_equal(open_quote.X, closed.X)
    assert open_quote.shape == (4, 2)


def test_true_false_cells_are_text_and_labels_keep_their_spelling():
    ds = read_csv(b"a,flag,class\n1,True,TRUE\n2,False,FALSE\n3,true,TRUE\n4,false,FALSE\n")
    assert ds.feature_names == ("a",)
    assert ds.class_names == ("FALSE", "TRUE")
    assert any("'flag' contains text" in note for note in ds.notes)


def test_column_typed_differently_in_different_blocks_of_rows():
    # pandas guesses types per block of rows (262,144 rows for two columns): numbers in the
    # first block and a text cell in the last must still be read cell by cell.
    n = 300_000
    a = np.arange(n) % 97 / 4
    cells = [str(float(v)) for v in a]
    cells[-2] = "oops"
    cells[-1] = "1,000.5"
    b = np.arange(n) % 13
    text = "a,b\n" + "\n".join(f'"{c}",{v}' for c, v in zip(cells, b, strict=True)) + "\n"
    ds = read_csv(text.encode())
    expected = np.column_stack([a, b]).astype(float)
    expected[-1, 0] = 1000.5
    np.testing.assert_array_equal(ds.X, np.delete(expected, n - 2, axis=0))
    assert any("1 cell that is not a number (e.g. 'oops')" in note for note in ds.notes)
    assert any("1 number with a thousands separator" in note for note in ds.notes)
