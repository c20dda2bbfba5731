"""AppTest for the Data page's upload (issue 13 item 6) and multi-class section (issue 14).

A text column ``species`` becomes the label by itself, with a note and one-click buttons for
the other choices; the upload survives a reload (a new session opened on the same address),
and a link naming an upload the server no longer has falls back with a warning.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

AppTest = pytest.importorskip("streamlit.testing.v1").AppTest

TIMEOUT = 120
APP = str(Path(__file__).resolve().parents[1] / "app.py")


def _iris_like() -> bytes:
    rng = np.random.default_rng(0)
    lines = ["sepal,petal,code,species"]
    for k, name in enumerate(["setosa", "versicolor", "virginica"]):
        for _ in range(20):
            a, b = rng.normal(k * 3, 0.5, 2)
            lines.append(f"{a:.3f},{b:.3f},{k},{name}")
    return ("\n".join(lines) + "\n").encode()


def _open(query=None):
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    for k, v in (query or {}).items():
        at.query_params[k] = v
    at.run()
    at.switch_page("pages/1_Data.py")
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def _query(at) -> dict:
    return {k: (v[0] if isinstance(v, list) else v) for k, v in at.query_params.items()}


def test_upload_guesses_species_as_label_and_survives_a_reload():
    at = _open()
    at.radio(key="data.source").set_value("upload").run()
    at.file_uploader(key="data.upload").set_value(("iris.csv", _iris_like(), "text/csv")).run()
    assert not at.exception, [e.message for e in at.exception]
    assert at.selectbox(key="data.label_column").value == "species"
    assert any("species" in info.value for info in at.info)
    choice = at.session_state["dcl.data"]
    assert choice.kind == "upload" and choice.param_dict["label_column"] == "species"
    assert at.metric[2].value == "3"  # classes
    # One click makes the numeric `code` column the label instead.
    at.button(key="data.label_pick.code").click().run()
    assert at.selectbox(key="data.label_column").value == "code"
    assert at.session_state["dcl.data"].param_dict["label_column"] == "code"

    query = _query(at)
    assert "upload" in query and "data" not in query
    # A reload: a fresh session (no session state) opened on the same address.
    again = _open(query=query)
    restored = again.session_state["dcl.data"]
    assert restored.kind == "upload" and restored.name == "iris.csv"
    assert restored.param_dict["label_column"] == "code"
    from ui import uploads

    assert uploads.recall(again.session_state["dcl.upload_token"])["content"] == _iris_like()
    assert again.selectbox(key="data.label_column").value == "code"
    assert any("never replaces yours" in c.value for c in again.caption)


def test_link_to_a_lost_upload_says_so_and_keeps_the_default():
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params["upload"] = "abcdefghijklmnop"
    at.run()
    assert not at.exception
    assert at.session_state["dcl.data"].kind == "bundled"
    assert any("not on this server" in w.value for w in at.warning)


def test_multiclass_section_lists_the_multiclass_data_sets():
    import datasets

    at = _open()
    at.radio(key="data.source").set_value("multiclass").run()
    box = at.selectbox(key="data.multiclass")
    assert list(box.options) == datasets.list_datasets("multiclass")
    box.set_value("wine-raw").run()
    assert not at.exception
    assert at.session_state["dcl.data"].name == "wine-raw"
    assert _query(at)["data"] == "wine-raw"
    again = _open(query=_query(at))
    assert again.session_state["dcl.data"].name == "wine-raw"
    assert again.radio(key="data.source").value == "multiclass"
