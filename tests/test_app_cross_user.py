"""No user sees another's names (issue 35 item 1).

Two users upload data with the same numbers that differ only in their feature names, their
class labels or their file name; each opens every page that keeps results shared by
sessions (the Data page, Cluster with two raw features as its view, Feature scaling,
MSP vs accuracy, Learn, Compare). Streamlit's caches live in the process, so two AppTest
sessions share them as two browsers on one server do: nothing the second user's pages show
(text, tables, figures) may carry the first user's names.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.conftest import open_app, upload_csv

pytest.importorskip("streamlit.testing.v1")

PAGES = (
    "pages/1_Data.py",
    "pages/2_Cluster.py",
    "pages/3_Feature_scaling.py",
    "pages/4_MSP_vs_accuracy.py",
    "pages/5_Learn.py",
    "pages/7_Compare.py",
)


def _csv(columns: tuple[str, str, str], labels: tuple[str, str]) -> bytes:
    rng = np.random.default_rng(0)
    lines = [",".join(columns)]
    for k, label in enumerate(labels):
        for a, b in rng.normal(6 * k, 1.0, (30, 2)):
            lines.append(f"{a:.3f},{b:.3f},{label}")
    return ("\n".join(lines) + "\n").encode()


#: (first user's file, second user's file, a name only the first user's data carry).
CASES = {
    "feature names": (
        ("a.csv", _csv(("alice_blood_pressure", "alice_hiv_status", "label"), ("p", "q"))),
        ("a.csv", _csv(("bob_x", "bob_y", "label"), ("p", "q"))),
        "alice_",
    ),
    "class labels": (
        ("a.csv", _csv(("x1", "x2", "label"), ("alice_sick", "alice_well"))),
        ("a.csv", _csv(("x1", "x2", "label"), ("bob_p", "bob_q"))),
        "alice_",
    ),
    "file name": (
        ("alice_records.csv", _csv(("x1", "x2", "label"), ("p", "q"))),
        ("bob.csv", _csv(("x1", "x2", "label"), ("p", "q"))),
        "alice_",
    ),
}


def _shown(at) -> str:
    """Every text a page shows: Markdown, captions, alerts, tables, widgets' labels and
    options, and the figures' JSON."""
    parts: list[str] = []
    for kind in ("markdown", "caption", "info", "warning", "error", "success", "title"):
        parts += [str(e.value) for e in at.get(kind)]
    for kind in ("header", "subheader"):
        parts += [str(e.value) for e in at.get(kind)]
    for frame in at.get("dataframe"):
        parts.append(frame.value.to_csv())
    for table in at.get("table"):
        parts.append(str(table.proto))
    for chart in at.get("plotly_chart"):
        parts.append(chart.proto.spec)
    for kind in ("selectbox", "multiselect", "radio"):
        for widget in at.get(kind):
            parts.append(str(widget.label))
            parts += [str(o) for o in getattr(widget, "options", [])]
    for expander in at.get("expander"):
        parts.append(str(expander.label))
    return "\n".join(parts)


def _walk(at, file: tuple[str, bytes]) -> dict[str, str]:
    upload_csv(at, *file)
    shown = {}
    for page in PAGES:
        at.switch_page(page)
        if page.endswith("2_Cluster.py"):
            at.run()
            at.selectbox(key="view").set_value("features")
        at.run()
        assert not at.exception, (page, [e.message for e in at.exception])
        shown[page] = _shown(at)
    return shown


@pytest.mark.parametrize("case", list(CASES))
def test_a_user_never_sees_another_s_names(case):
    first, second, secret = CASES[case]
    seen_first = _walk(open_app("pages/1_Data.py", timeout=300), first)
    # The first user's pages show their own names (the test can see a leak) ...
    assert any(secret in text for text in seen_first.values())
    assert secret in seen_first["pages/2_Cluster.py"] or case == "file name"
    seen_second = _walk(open_app("pages/1_Data.py", timeout=300), second)
    # ... and none of the second user's pages does.
    leaks = [page for page, text in seen_second.items() if secret in text]
    assert leaks == []
    assert any("bob" in text for text in seen_second.values())
