"""Links and uploads that try the edges: every value the lab cannot use is dropped with a
warning, on the page it was opened on, and leaves the link.

Unicode digits (``k=٣``), a key given twice, a value too long for a link, feature indices
the data do not have (``view=features:5,500`` and ``scale=99998:16`` on breast), a bad
``fam`` on MSP vs accuracy; labels that differ only in surrounding whitespace; formula-like
cells in the Data page's preview (its own download exports them as shown).
"""

from __future__ import annotations

from pathlib import Path

import pytest

import datasets
from ui import url
from ui.model import DataChoice

AppTest = pytest.importorskip("streamlit.testing.v1").AppTest
APP = str(Path(__file__).resolve().parents[1] / "app.py")


def _unescaped(text: str) -> str:
    return text.replace("\\", "").replace("\u2060", "")


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("k", "٣"),
        ("lam", "١"),
        ("scale", "٣:16"),
        ("view", "features:٠,١"),
        ("ap", "kmeans.n_init=٣"),
    ],
)
def test_unicode_digits_are_refused_with_a_warning(key, value):
    decoded = url.decode({key: value})
    assert any(f"`{key}`" in w for w in decoded.warnings)
    assert decoded.n_clusters is None and decoded.lam is None and decoded.view is None
    assert not decoded.scale and not decoded.params


def test_a_key_given_twice_is_dropped_with_a_warning():
    decoded = url.decode({"k": "3", "lam": "0.1"}, repeated={"k"})
    assert decoded.n_clusters is None and decoded.lam == pytest.approx(0.1)
    assert any("`k`" in w and "more than once" in w for w in decoded.warnings)
    assert url.repeated_keys([("k", "3"), ("lam", "1"), ("k", "4")]) == {"k"}


def test_values_too_long_for_a_link_are_refused_and_never_written():
    long_scale = ",".join(f"{j}:16" for j in range(2000))
    assert len(long_scale) > url.MAX_VALUE_CHARS
    decoded = url.decode({"scale": long_scale})
    assert decoded.scale is None
    assert any("`scale`" in w and "characters long" in w for w in decoded.warnings)
    encoded = url.encode(
        DataChoice.make("bundled", "breast", None, True),
        ["kmeans"],
        1.0,
        "diag",
        {},
        {j: 16.0 for j in range(2000)},
        "pca",
    )
    assert "scale" not in encoded
    assert all(len(v) <= url.MAX_VALUE_CHARS for v in encoded.values())


def _page(page, query):
    at = AppTest.from_file(APP, default_timeout=120)
    for k, v in query.items():
        at.query_params[k] = v
    at.switch_page(page).run()  # the link opens this page first
    assert not at.exception, [e.message for e in at.exception]
    return at


def _query(at):
    return {k: (v[0] if isinstance(v, list) else v) for k, v in at.query_params.items()}


def test_feature_indices_the_data_lack_are_dropped_from_the_link_with_a_warning():
    at = _page("pages/2_Cluster.py", {"data": "breast", "view": "features:5,500",
                                      "scale": "99998:16,2:4", "algos": "kmeans"})  # fmt: skip
    shown = " ".join(_unescaped(w.value) for w in at.warning)
    assert "features:5,500" in shown and "99998" in shown
    query = _query(at)
    assert "99998" not in query.get("scale", "") and query.get("scale") == "2:4"
    assert query.get("view") != "features:5,500"


def test_msp_vs_accuracy_warns_about_a_bad_family_on_its_own_page():
    at = _page("pages/4_MSP_vs_accuracy.py", {"fam": "nonsense", "method": "no-such"})
    shown = " ".join(_unescaped(w.value) for w in at.warning)
    assert "`fam`" in shown and "`method`" in shown
    at.switch_page("pages/2_Cluster.py").run()
    assert not any("`fam`" in _unescaped(w.value) for w in at.warning)


def test_labels_differing_only_in_whitespace_are_merged_with_a_note():
    data = b'x,label\n1,"\t=1+1"\n2,"\r=1+1"\n3," =1+1"\n4,=1+1\n5,a\n6,a\n'
    ds = datasets.read_csv(data)
    assert ds.class_names == ("=1+1", "a")
    assert any("differ only in spaces" in note and "'\\t=1+1'" in note for note in ds.notes)


def test_data_preview_escapes_formulas_for_its_download():
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.switch_page("pages/1_Data.py").run()
    at.radio(key="data.source").set_value("upload").run()
    formula = '"=HYPERLINK(""http://example.invalid"")"'
    rows = "".join(f"{i},{i % 3},{formula if i % 2 else 'b'}\n" for i in range(12))
    content = ("x,y,class\n" + rows).encode()
    at.file_uploader(key="data.upload").set_value(("f.csv", content, "text/csv")).run()
    assert not at.exception, [e.message for e in at.exception]
    preview = at.dataframe[0].value
    texts = [str(v) for column in preview.columns for v in preview[column]]
    assert not any(t.startswith("=") for t in texts)
    assert any(t.startswith("'=HYPERLINK") for t in texts)
