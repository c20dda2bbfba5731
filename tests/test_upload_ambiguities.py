"""CSV ambiguities from issue 12 (item 5), each decided or refused with a message naming the
column and the fix."""

from __future__ import annotations

import io

import numpy as np
import pytest

from datasets import DatasetError
from datasets.upload import read_csv


def _read(data: bytes):
    return read_csv(io.BytesIO(data))


def test_thousands_or_decimal_comma_is_refused_naming_the_column():
    with pytest.raises(DatasetError, match=r"Column 'a'.*'1,000'.*thousands separator.*Save"):
        _read(b"a;b\n1,000;5\n2,000;6\n3,000;7\n4,000;1\n")


def test_decimal_comma_decided_by_the_other_cells_of_the_column():
    ds = _read(b"a;b\n1,5;2\n1,000;3\n2,25;4\n3,1;4\n")
    np.testing.assert_allclose(ds.X[:, 0], [1.5, 1.0, 2.25, 3.1])


def test_quoted_thousands_with_a_decimal_point_are_read():
    ds = _read(b'a,b\n"1,000.5",1\n"2,000,000",2\n3,3\n4,4\n5,5\n')
    np.testing.assert_allclose(ds.X[:, 0], [1000.5, 2e6, 3, 4, 5])
    assert "thousands separator" in ds.description and "Column 'a'" in ds.description


def test_thousands_points_with_a_decimal_comma_are_read():
    ds = _read(b"a;b\n1.000,5;1\n2,5;2\n3,25;3\n4,5;4\n")
    np.testing.assert_allclose(ds.X[:, 0], [1000.5, 2.5, 3.25, 4.5])


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_utf16_without_a_bom_is_read(encoding):
    text = "x,y,class\n1,2,a\n3,4,b\n5,6,a\n7,8,b\n"
    ds = _read(text.encode(encoding))
    np.testing.assert_array_equal(ds.X, [[1, 2], [3, 4], [5, 6], [7, 8]])
    assert "no BOM" in ds.description


@pytest.mark.parametrize("value", ["1e400", "-1e400", "2.5E+308"])
def test_values_beyond_float_range_are_refused_naming_the_column(value):
    data = f"a,b\n{value},1\n2,2\n3,3\n4,4\n".encode()
    with pytest.raises(DatasetError, match=r"Column 'a' holds .*beyond the range.*Rescale"):
        _read(data)
