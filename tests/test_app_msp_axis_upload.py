"""An MSP axis on an uploaded CSV shows the MSP's range (issue 33, point 8).

On an easy upload every λ of the MSP page's sweep gives about one held-out MSP; plotly's
autorange spread that one value over an axis from -0.2 to 1.6.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

import numpy as np
import pytest

AppTest = pytest.importorskip("streamlit.testing.v1").AppTest

APP = str(Path(__file__).resolve().parents[1] / "app.py")


def _two_blobs() -> bytes:
    rng = np.random.default_rng(0)
    lines = ["a,b,c,label"]
    for k in range(2):
        lines += [
            ",".join(f"{v:.3f}" for v in rng.normal(3 * k, 1.0, 3)) + f",{k}" for _ in range(40)
        ]
    return ("\n".join(lines) + "\n").encode()


def _values(array) -> list[float]:
    """A trace's ``x``: a list, or plotly's typed array (``{"dtype", "bdata"}``)."""
    if isinstance(array, dict):
        raw = base64.b64decode(array["bdata"])
        return np.frombuffer(raw, dtype=np.dtype(array["dtype"])).tolist()
    return [float(v) for v in array]


def _spec(at, key: str) -> dict:
    (chart,) = [c for c in at.get("plotly_chart") if c.proto.id.endswith(key)]
    return json.loads(chart.proto.spec)


def test_the_msp_axis_of_the_lam_view_on_an_upload_stays_within_zero_and_one():
    at = AppTest.from_file(APP, default_timeout=300)
    at.run()
    at.switch_page("pages/1_Data.py")
    at.run()
    at.radio(key="data.source").set_value("upload").run()
    at.file_uploader(key="data.upload").set_value(("blobs.csv", _two_blobs(), "text/csv")).run()
    at.switch_page("pages/4_MSP_vs_accuracy.py")
    at.run()
    at.radio(key="mva.family").set_value("lam").run()
    assert not at.exception, [e.message for e in at.exception]
    spec = _spec(at, "mva.scatter")
    msps = [
        x for trace in spec["data"] if trace.get("mode") == "markers" for x in _values(trace["x"])
    ]
    assert msps, "the sweep drew no run"
    lo, hi = spec["layout"]["xaxis"]["range"]
    assert 0.0 <= lo <= min(msps) <= max(msps) <= hi <= 1.0
    lo, hi = _spec(at, "mva.sweep")["layout"]["yaxis"]["range"]
    assert (lo, hi) == (0, 1)
