"""read_csv: a corpus of bad files, each with a specific DatasetError; good files; fuzzing."""

from __future__ import annotations

import io

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from datasets import Dataset, DatasetError, read_csv

GOOD = b"x,z,label\n1,2,a\n3,4,b\n5,6,a\n7,8,b\n"

# name: (file content, read_csv keyword arguments, regex the message must match)
BAD_FILES = {
    "empty": (b"", {}, r"^The file is empty\."),
    "only whitespace": (b" \r\n\n\t\n", {}, r"^The file is empty\."),
    "header only": (b"a,b,c\n", {}, r"header row \('a', 'b' and 'c'\) but no data rows"),
    "header and blank lines": (b"a,b\n\n\n", {}, r"but no data rows"),
    "no numeric column": (
        b"name,city\nann,paris\nbob,rome\ncy,oslo\ndee,kyiv\n",
        {},
        r"^No column contains numbers, so there is nothing to cluster",
    ),
    "only the label is numeric": (
        b"name,label\nann,1\nbob,2\ncy,1\ndee,2\n",
        {},
        r"^Apart from the label column 'label', no column contains numbers",
    ),
    "space separated": (
        b"a b c\n1 2 3\n4 5 6\n7 8 9\n1 1 1\n",
        {},
        r"read as a single column: separate the values with commas",
    ),
    "short row": (
        b"a,b,c\n1,2,3\n4,5\n6,7,8\n9,1,2\n",
        {},
        r"^Line 3 has 2 values but the header has 3 columns.*missing or extra comma",
    ),
    "long row": (
        b"a;b;c\n1;2;3\n4;5;6\n6;7;8;9\n9;1;2\n",
        {},
        r"^Line 4 has 4 values but the header has 3 columns.*semicolon",
    ),
    "binary junk": (bytes(range(256)) * 8, {}, r"contains binary data, not text"),
    "NUL bytes in text": (b"a,b\n1,2\x00\n3,4\n5,6\n7,8\n", {}, r"binary data"),
    "excel workbook": (
        b"PK\x03\x04\x14\x00\x06\x00" + bytes(200),
        {},
        r"Excel workbook \(\.xlsx\)",
    ),
    "old excel": (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(200), {}, r"\.xls\)"),
    "pickle": (b"\x80\x04\x95\x10\x00\x00\x00", {}, r"pickle, which is never loaded"),
    "pdf": (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", {}, r"a PDF document"),
    "latin-1 text": (
        "x,z,label\n1,2,café\n3,4,thé\n5,6,x\n7,8,y\n".encode("latin-1"),
        {},
        r"^The file is not UTF-8 text: line 2 .*'CSV UTF-8'",
    ),
    "duplicate column names": (
        b"a,b,a\n1,2,3\n4,5,6\n7,8,9\n1,1,1\n",
        {},
        r"^Two columns are both named 'a' \(columns 1 and 3\)\. Rename one",
    ),
    "label with one class": (
        b"x,z,class\n1,2,yes\n3,4,yes\n5,6,yes\n7,8,yes\n",
        {},
        r"^The label column 'class' has only one value \('yes'\): clustering needs at least "
        r"two classes to compare against — pick another label column or upload without one\.$",
    ),
    "label with one class after dropping rows": (
        b"x,z,class\n1,2,yes\n3,4,yes\n5,6,yes\n7,8,yes\n9,,no\n",
        {},
        r"only one value \('yes'\)",
    ),
    "label column all missing": (
        b"x,z,class\n1,2,\n3,4,\n5,6,NA\n7,8,?\n",
        {},
        r"^The label column 'class' has no values",
    ),
    "three rows": (b"x,z\n1,2\n3,4\n5,6\n", {}, r"^Only 3 usable rows were found; .* at least 4"),
    "too few rows after dropping missing": (
        b"x,z\n1,2\n3,\n5,NA\n7,8\n9,inf\n",
        {},
        r"Only 2 usable rows.*3 rows were removed because of missing values.*column mean",
    ),
    "too many bytes": (GOOD, {"max_bytes": 10}, r"^The file is \d+ bytes; the limit is 10 bytes"),
    "too many rows": (
        b"a,b\n" + b"1,2\n" * 30,
        {"max_rows": 20},
        r"^The file has more than 20 data rows, the limit",
    ),
    "too many columns": (
        b",".join(b"c%d" % i for i in range(30)) + b"\n" + b",".join([b"1"] * 30) + b"\n",
        {"max_columns": 10},
        r"^The file has 30 columns; the limit is 10",
    ),
    "unknown label column": (GOOD, {"label_column": "species"}, r"no column called 'species'"),
    "label position out of range": (GOOD, {"label_column": 7}, r"position 7 does not exist"),
    "unclosed quote": (
        b'a,b\n1,"' + b"x" * 200_000 + b"\n",
        {},
        r"more than 131,072 characters.*quotation marks",
    ),
    "bad missing option": (GOOD, {"missing": "zero"}, r"missing must be 'drop' or 'mean'"),
    "unknown encoding": (GOOD, {"encoding": "klingon"}, r"Unknown text encoding"),
    "wrong encoding given": (
        "a,b\n1,2\n".encode("utf-16"),
        {"encoding": "ascii"},
        r"could not be read as ascii text",
    ),
}


@pytest.mark.parametrize("case", list(BAD_FILES))
def test_bad_file_gets_a_specific_message(case):
    content, kwargs, pattern = BAD_FILES[case]
    with pytest.raises(DatasetError, match=pattern):
        read_csv(content, **kwargs)


def test_bad_files_from_disk_too(tmp_path):
    for i, (content, kwargs, pattern) in enumerate(BAD_FILES.values()):
        path = tmp_path / f"bad{i}.csv"
        path.write_bytes(content)
        with pytest.raises(DatasetError, match=pattern):
            read_csv(path, **kwargs)
        with pytest.raises(DatasetError, match=pattern):
            read_csv(str(path), **kwargs)


def test_missing_path_and_folder(tmp_path):
    with pytest.raises(DatasetError, match="There is no file at"):
        read_csv(tmp_path / "nope.csv")
    with pytest.raises(DatasetError, match="is a folder, not a file"):
        read_csv(tmp_path)
    with pytest.raises(DatasetError, match="Cannot read data from a int"):
        read_csv(12)


def test_messages_do_not_leak_python_internals():
    for content, kwargs, _ in BAD_FILES.values():
        with pytest.raises(DatasetError) as info:
            read_csv(content, **kwargs)
        message = str(info.value)
        assert "Traceback" not in message and "Error:" not in message
        assert len(message) < 400


# ------------------------------------------------------------------------------------------
# Files that are fine
# ------------------------------------------------------------------------------------------


def test_label_column_found_by_name_and_text_labels_mapped():
    ds = read_csv(b"x,z,Class\n1,2,yes\n3,4,no\n5,6,yes\n7,8,no\n")
    assert ds.feature_names == ("x", "z")
    assert ds.class_names == ("no", "yes")
    np.testing.assert_array_equal(ds.y, [1, 0, 1, 0])
    assert ds.X.dtype == np.float64 and ds.y.dtype == np.int64
    assert ds.source == "uploaded file" and ds.name == "uploaded data"


@pytest.mark.parametrize("label", ["label", "CLASS", "y", "Target"])
def test_each_label_name_is_recognised(label):
    ds = read_csv(f"a,{label},b\n1,0,2\n3,1,4\n5,0,6\n7,1,8\n".encode())
    assert ds.feature_names == ("a", "b") and ds.n_classes == 2


def test_preferred_label_name_wins_and_the_choice_is_reported():
    ds = read_csv(b"y,label,a\n1,p,2\n0,q,4\n1,p,6\n0,q,8\n")
    assert ds.class_names == ("p", "q")
    assert ds.feature_names == ("y", "a")
    assert any("also look like labels" in note for note in ds.notes)


def test_numeric_labels_keep_their_values_as_names():
    ds = read_csv(b"a,b,class\n1,2,4\n3,4,2\n5,6,4.0\n7,8,2\n")
    assert ds.class_names == ("2", "4")
    np.testing.assert_array_equal(ds.y, [1, 0, 1, 0])


def test_explicit_label_column_by_name_position_or_none():
    content = b"a,b,kind\n1,2,u\n3,4,v\n5,6,u\n7,8,v\n"
    assert read_csv(content).y is None  # 'kind' is not a recognised label name
    assert read_csv(content, label_column="kind").class_names == ("u", "v")
    assert read_csv(content, label_column="KIND").class_names == ("u", "v")
    assert read_csv(content, label_column=-1).class_names == ("u", "v")
    by_position = read_csv(content, label_column=0)
    assert by_position.feature_names == ("b",) and by_position.n_classes == 4
    no_label = read_csv(GOOD, label_column=False)
    assert no_label.y is None and no_label.n_classes == 0 and no_label.class_names == ()
    assert no_label.feature_names == ("x", "z")  # the text label column is skipped
    assert "No label column" in no_label.description


def test_file_without_label_column_is_valid():
    ds = read_csv(b"a,b\n1,2\n3,4\n5,6\n7,8\n")
    assert ds.y is None and ds.shape == (4, 2)
    assert ds.summary().endswith("no class labels")


def test_text_columns_are_dropped_and_reported():
    ds = read_csv(
        b"price,name,color,shape,w,label\n1,a,r,s,2,0\n2,b,g,t,3,1\n3,c,b,u,4,0\n4,d,y,v,5,1\n"
    )
    assert ds.feature_names == ("price", "w")
    assert ds.notes[0].startswith("Column 'name' and 2 others contain text and were skipped")
    one = read_csv(b"price,name\n1,a\n2,b\n3,c\n4,d\n")
    assert one.notes == ("Column 'name' contains text and was skipped.",)


def test_stray_text_in_a_numeric_column_becomes_missing():
    ds = read_csv(b"a,b\n1,2\n3,#DIV/0!\n5,6\n7,8\n9,10\n")
    assert ds.shape == (4, 2)
    assert "'#DIV/0!'" in ds.notes[0] and "treated as missing" in ds.notes[0]


def test_missing_values_drop_or_mean_with_counts():
    content = b"x,z\n1,2\n3,\n5,NA\n7,8\n9,inf\n11,12\n13,?\n15,16\n"
    dropped = read_csv(content)
    assert dropped.shape == (4, 2)
    assert dropped.notes == (
        "4 rows had a missing or infinite value in a feature column and were removed "
        "(3 missing cells and 1 infinite cell).",
    )
    filled = read_csv(content, missing="mean")
    assert filled.shape == (8, 2)
    np.testing.assert_allclose(filled.X[:, 1], [2, 9.5, 9.5, 8, 9.5, 12, 9.5, 16])
    assert filled.notes == (
        "3 missing cells and 1 infinite cell were filled with the column mean.",
    )


def test_rows_without_label_are_removed_and_unseen_classes_forgotten():
    ds = read_csv(b"a,b,label\n1,2,x\n3,4,y\n5,6,\n7,8,x\n9,10,y\n11,,z\n")
    assert ds.n_samples == 4 and ds.class_names == ("x", "y")
    assert any("without a value in the label column 'label'" in n for n in ds.notes)


def test_empty_and_index_columns_are_skipped():
    ds = read_csv(b",a,empty,b,label\n0,1,,2,x\n1,3,,4,y\n2,5,,6,x\n3,7,,8,y\n")
    assert ds.feature_names == ("a", "b")
    assert any("only numbers the rows" in n for n in ds.notes)
    assert any("'empty' is empty" in n for n in ds.notes)


def test_constant_columns_are_reported():
    ds = read_csv(b"a,b\n1,5\n2,5\n3,5\n4,5\n")
    assert ds.shape == (4, 2)
    assert any("'b' has the same value in every row" in n for n in ds.notes)


@pytest.mark.parametrize(
    ("content", "delimiter"),
    [
        (b"a,b\n1,2\n3,4\n5,6\n7,8\n", "comma"),
        (b"a;b\n1;2\n3;4\n5;6\n7;8\n", "semicolon"),
        (b"a\tb\n1\t2\n3\t4\n5\t6\n7\t8\n", "tab"),
        (b"a|b\n1|2\n3|4\n5|6\n7|8\n", "vertical bar"),
        (b"a, b\r\n1, 2\r\n3, 4\r\n5, 6\r\n7, 8\r\n", "comma"),
        (b"a,b\r1,2\r3,4\r5,6\r7,8\r", "comma"),
    ],
)
def test_delimiter_detection(content, delimiter):
    ds = read_csv(content)
    np.testing.assert_array_equal(ds.X, [[1, 2], [3, 4], [5, 6], [7, 8]])
    assert ds.feature_names == ("a", "b")
    assert f"delimiter: {delimiter}" in ds.description


def test_decimal_comma_with_semicolons():
    ds = read_csv(b"a;b\n1,5;2\n3;4,25\n5;6\n7;8\n")
    np.testing.assert_allclose(ds.X, [[1.5, 2], [3, 4.25], [5, 6], [7, 8]])
    assert ds.notes[0].startswith("Numbers use a decimal comma")


@pytest.mark.parametrize(
    ("encoding", "shown"),
    [
        ("utf-8", "UTF-8"),
        ("utf-8-sig", "UTF-8 (with BOM)"),
        ("utf-16", "UTF-16"),
        ("utf-32", "UTF-32"),
    ],
)
def test_encodings_are_detected(encoding, shown):
    ds = read_csv("größe,wert,label\n1,2,ä\n3,4,ö\n5,6,ä\n7,8,ö\n".encode(encoding))
    assert ds.feature_names == ("größe", "wert") and ds.class_names == ("ä", "ö")
    assert f"encoding: {shown}" in ds.description


def test_explicit_encoding_reads_latin1():
    content = "x,z,label\n1,2,café\n3,4,thé\n5,6,café\n7,8,thé\n".encode("latin-1")
    assert read_csv(content, encoding="latin-1").class_names == ("café", "thé")


def test_quoted_fields_and_trailing_delimiters():
    ds = read_csv(b'a,b,label\n"1",2,"x, y"\n3,4,z,\n5,6,z\n7,8,"x, y"\n')
    assert ds.class_names == ("x, y", "z") and ds.shape == (4, 2)


def test_quoted_field_spanning_lines():
    ds = read_csv(b'a,b,label\r\n1,2,"two\r\nlines"\r\n3,4,x\r\n5,6,x\r\n7,8,"two\r\nlines"\r\n')
    assert ds.class_names == ("two\r\nlines", "x") and ds.shape == (4, 2)


def test_headerless_numeric_file():
    ds = read_csv(b"1,2,0\n3,4,1\n5,6,0\n7,8,1\n", label_column=-1)
    assert ds.shape == (4, 2) and ds.class_names == ("0", "1")
    assert ds.feature_names == ("column 1", "column 2")
    assert "read as data" in ds.notes[0]


def test_dos_end_of_file_marker_is_ignored():
    assert read_csv(b"a,b\n1,2\n3,4\n5,6\n7,8\n\x1a").shape == (4, 2)


def test_file_objects_binary_and_text():
    assert read_csv(io.BytesIO(GOOD)).shape == (4, 2)
    assert read_csv(io.StringIO(GOOD.decode())).shape == (4, 2)
    assert read_csv(bytearray(GOOD)).shape == (4, 2)


def test_path_gives_the_file_name(tmp_path):
    path = tmp_path / "measurements.csv"
    path.write_bytes(GOOD)
    ds = read_csv(path)
    assert ds.name == "measurements.csv"
    assert "Uploaded file 'measurements.csv'" in ds.description
    assert read_csv(path, name="mine").name == "mine"


class _HugeUpload:
    """A file object that claims to be huge and must not be read."""

    name = "huge.csv"
    size = 300_000_000

    def read(self, *args):
        raise AssertionError("read() must not be called when size is over the limit")


def test_size_is_checked_before_reading():
    with pytest.raises(DatasetError, match=r"^The file is 300 MB; the limit is 200 MB\."):
        read_csv(_HugeUpload())


def test_streamlit_uploaded_file():
    pytest.importorskip("streamlit")
    from streamlit.proto.Common_pb2 import FileURLs
    from streamlit.runtime.uploaded_file_manager import UploadedFile, UploadedFileRec

    record = UploadedFileRec(file_id="f1", name="data.csv", type="text/csv", data=GOOD)
    upload = UploadedFile(record, FileURLs())
    upload.read()  # a previous rerun may have consumed the stream
    ds = read_csv(upload)
    assert ds.name == "data.csv" and ds.shape == (4, 2) and ds.class_names == ("a", "b")
    big = UploadedFile(
        UploadedFileRec(file_id="f2", name="big.csv", type="text/csv", data=GOOD * 10),
        FileURLs(),
    )
    with pytest.raises(DatasetError, match="the limit is 100 bytes"):
        read_csv(big, max_bytes=100)


# ------------------------------------------------------------------------------------------
# Fuzzing: nothing but DatasetError, whatever the bytes
# ------------------------------------------------------------------------------------------


def _check_result(ds: Dataset) -> None:
    assert isinstance(ds, Dataset)
    assert ds.X.dtype == np.float64 and ds.X.ndim == 2
    assert ds.n_samples >= 4 and ds.n_features >= 1
    assert np.isfinite(ds.X).all()
    assert len(ds.feature_names) == ds.n_features
    if ds.y is not None:
        assert ds.y.shape == (ds.n_samples,)
        assert ds.n_classes >= 2
        assert set(np.unique(ds.y)) == set(range(ds.n_classes))


FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(st.binary(max_size=3000))
def test_arbitrary_bytes_raise_only_dataset_error(data):
    try:
        ds = read_csv(data)
    except DatasetError:
        return
    _check_result(ds)


_CSV_ALPHABET = st.sampled_from(
    list("0123456789") * 4
    + list(",,,;\t|\n\n\r\"' .-+eE")
    + ["nan", "inf", "-inf", "NA", "?", "label", "class", "y", "a", "b", "é", "\x00", "\x1a"]
)


@FUZZ
@given(
    st.lists(_CSV_ALPHABET, max_size=300).map("".join),
    st.sampled_from(["utf-8", "utf-16", "latin-1"]),
    st.sampled_from(["drop", "mean"]),
)
def test_csv_like_text_raises_only_dataset_error(text, encoding, missing):
    try:
        data = text.encode(encoding)
    except UnicodeEncodeError:
        return
    try:
        ds = read_csv(data, missing=missing, max_rows=50, max_columns=20)
    except DatasetError:
        return
    _check_result(ds)


_CELL = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.integers(-5, 5).map(str),
    st.sampled_from(["", "x", "yes", "no", "NA", "?", '"q,t"', " 1.5 ", "1e400"]),
)


@st.composite
def _tables(draw):
    """Mostly rectangular tables with a header, sometimes a ragged row."""
    n_columns = draw(st.integers(1, 5))
    header = draw(
        st.one_of(
            st.lists(
                st.sampled_from(["a", "b", "c", "label", "class", "", "1"]),
                min_size=n_columns,
                max_size=n_columns,
            ),
            st.just([f"f{j}" for j in range(n_columns - 1)] + ["label"]),
        )
    )
    rows = draw(st.lists(st.lists(_CELL, min_size=n_columns, max_size=n_columns), max_size=12))
    if rows and draw(st.booleans()) and draw(st.booleans()):
        rows[draw(st.integers(0, len(rows) - 1))].append("9")
    return [header, *rows]


@FUZZ
@given(
    _tables(),
    st.sampled_from([",", ";", "\t"]),
    st.sampled_from([None, 0, -1, "label", False]),
    st.sampled_from(["drop", "mean"]),
)
@example(
    rows=[
        ["f0", "f1", "f2", "label"],
        ["0.0", "0.0", "0.0", "0.0"],
        ["0.0", "0.0", "0.0", "0.0"],
        ["0.0", "0.0", "0.0", "0.0"],
        ["0.0", "0.0", "0.0", "0.0"],
        ["0.0", "0.0", "0.0", "0.0"],
        ["0.0", "0.0", "0.0", "0.0"],
        ["0.0", "0.0", "0.0", "0.0"],
        ["0.0", "0.0", "0.0", "0.0"],
        ["0.0", "0.0", "0.0", "1.0"],
        ["0.0", "8.988465674311578e+307", "0.0", "0.0"],
        ["0.0", "8.988465674311579e+307", "0.0", "0.0"],
        ["0.0", "", "0.0", "0.0"],
    ],
    delimiter=",",  # or any other generated value
    label_column=None,
    missing="mean",
).via("overflow of the column mean, found by this test")
def test_table_like_files_raise_only_dataset_error(rows, delimiter, label_column, missing):
    text = "\n".join(delimiter.join(row) for row in rows)
    try:
        ds = read_csv(text.encode(), label_column=label_column, missing=missing)
    except DatasetError:
        return
    _check_result(ds)
