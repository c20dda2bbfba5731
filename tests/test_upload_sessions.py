"""Uploads on a server shared by several users (a class): bounded reads, sessions' own uploads.

- Every read of an upload (the Data page's columns and label guess as well as
  :func:`datasets.read_csv`) is checked against the limits by counting, before any parsing:
  a file of millions of values on one line or of millions of rows is refused without
  Python's ``csv`` or pandas ever being called.
- A link carries an upload to others read-only: a session that opened someone else's link
  and uploads a file, or picks another label column, gets a token of its own; the first
  user's reload still shows the first user's file.
- UTF-16 uploads keep their label column (the page reads the header with read_csv's
  decoding).
"""

from __future__ import annotations

import numpy as np
import pytest

import datasets
from datasets import DatasetError, _csv_table, _csv_text
from datasets.upload import preview_csv
from tests.conftest import open_app, upload_csv

pytest.importorskip("streamlit.testing.v1")


def _table(seed: int, label: str = "species") -> bytes:
    rng = np.random.default_rng(seed)
    lines = [f"sepal,petal,code,{label}"]
    for k, name in enumerate(["setosa", "versicolor", "virginica"]):
        for _ in range(15):
            a, b = rng.normal(k * 3, 0.5, 2)
            lines.append(f"{a:.3f},{b:.3f},{k},{name}")
    return ("\n".join(lines) + "\n").encode()


# ---- bounded before parsing --------------------------------------------------------------


@pytest.fixture
def no_parsing(monkeypatch):
    """Fail if Python's csv (header row, sniffer) or pandas is asked to parse anything."""

    def refuse(*args, **kwargs):
        raise AssertionError("parsed a file that the limits refuse")

    monkeypatch.setattr(_csv_text, "_header_row", refuse)
    monkeypatch.setattr(_csv_text, "_sample_lines", refuse)
    monkeypatch.setattr(_csv_table, "_pandas", refuse)
    import datasets._csv_source as source
    import datasets.upload as upload

    monkeypatch.setattr(source, "_sample_lines", refuse)
    monkeypatch.setattr(source, "_header_row", refuse)
    monkeypatch.setattr(upload, "_pandas", refuse)


@pytest.mark.parametrize("reader", [datasets.read_csv, preview_csv])
def test_one_line_of_many_values_is_refused_before_parsing(no_parsing, reader):
    data = ",".join(["1"] * 300_000).encode()
    with pytest.raises(DatasetError, match=r"^The file has 300,000 columns; the limit is 2,000"):
        reader(data)


@pytest.mark.parametrize("reader", [datasets.read_csv, preview_csv])
def test_many_rows_are_refused_before_parsing(no_parsing, reader):
    data = b"a,b\n" + b"1,2\n" * 1_000_001
    with pytest.raises(DatasetError, match=r"more than 1,000,000 data rows"):
        reader(data)
    utf16 = (b"a,b\n" + b"1,2\n" * 101).decode().encode("utf-16")
    with pytest.raises(DatasetError, match=r"more than 100 data rows"):
        reader(utf16, max_rows=100)


def test_limits_count_rows_not_blank_lines_and_columns_outside_quotes():
    data = b'"a,b,c",y\n' + b"\n".join(b"%d,%d" % (i, i % 2) for i in range(50)) + b"\n\n\n\r\n"
    ds = datasets.read_csv(data, max_rows=50, max_columns=2)
    assert ds.shape == (50, 1)
    with pytest.raises(DatasetError, match="more than 49 data rows"):
        datasets.read_csv(data, max_rows=49)


def test_preview_names_columns_as_read_csv_and_guesses_utf16_labels():
    text = "x; v ;;species\n" + "".join(f"{i};{i % 3};{i};{'ab'[i % 2]}\n" for i in range(9))
    for data in (text.encode(), text.encode("utf-16"), text.encode("utf-16-le")):
        preview = preview_csv(data)
        assert preview.columns == ("x", "v", "column 3", "species")
        assert preview.label_guess is not None and preview.label_guess.column == "species"
        ds = datasets.read_csv(data, label_column=preview.label_guess.column)
        assert ds.class_names == ("a", "b")


# ---- the Data page -------------------------------------------------------------------------


def _data_page(query=None):
    return open_app("pages/1_Data.py", query)


def _content(at) -> bytes:
    """The bytes of the upload the session works on (from the server store: the session
    state keeps only its name and hash)."""
    from ui import uploads

    return uploads.recall(at.session_state["dcl.upload_token"])["content"]


def _token(at) -> str:
    value = at.query_params.get("upload")
    return value[0] if isinstance(value, list) else value


def test_another_users_upload_never_replaces_yours():
    mine, theirs = _table(0), _table(1)
    a = upload_csv(_data_page(), "mine.csv", mine)
    token = _token(a)
    assert token and a.session_state["dcl.data"].name == "mine.csv"

    # B opens A's link: B sees A's file, read-only.
    b = _data_page({"upload": token})
    assert _content(b) == mine
    assert _token(b) == token
    # C opens it too and picks another label column: C's choice gets its own token.
    c = _data_page({"upload": token})
    c.button(key="data.label_pick.code").click().run()
    assert c.session_state["dcl.data"].param_dict["label_column"] == "code"
    assert _token(c) != token
    # B uploads their own file.
    upload_csv(b, "theirs.csv", theirs)
    assert _token(b) != token
    assert b.session_state["dcl.data"].name == "theirs.csv"

    # A reloads (a new session on A's address): A's file, with A's label column.
    again = _data_page({"upload": token})
    assert _content(again) == mine
    assert again.session_state["dcl.data"].name == "mine.csv"
    assert again.session_state["dcl.data"].param_dict["label_column"] == "species"
    # B's link shows B's file.
    b_again = _data_page({"upload": _token(b)})
    assert _content(b_again) == theirs


def test_an_upload_replaced_by_its_owner_keeps_the_token_and_drops_the_old_file():
    from ui import uploads

    a = upload_csv(_data_page(), "first.csv", _table(2))
    token = _token(a)
    upload_csv(a, "second.csv", _table(3))
    assert _token(a) == token
    assert uploads.recall(token)["content"] == _table(3)


def test_utf16_upload_keeps_its_label_column():
    text = _table(4).decode()
    a = upload_csv(_data_page(), "utf16.csv", text.encode("utf-16"))
    box = a.selectbox(key="data.label_column")
    assert "species" in box.options and box.value == "species"
    assert a.session_state["dcl.data"].param_dict["label_column"] == "species"
    assert a.metric[2].value == "3"


def test_a_refused_upload_says_why_and_keeps_the_page():
    from ui import uploads

    store = uploads._store()
    before = dict(store.files)
    a = upload_csv(_data_page(), "wide.csv", ",".join(["1"] * 50_000).encode())
    assert any("50,000 columns" in e.value.replace("\\", "") for e in a.error)
    assert a.session_state["dcl.data"].kind == "bundled"  # the lab keeps its data
    # A refused file adds nothing: not to the store, not to the session state.
    assert store.files == before
    assert "content" not in a.session_state["dcl.upload"]
    assert a.session_state["dcl.upload_token"] == ""
