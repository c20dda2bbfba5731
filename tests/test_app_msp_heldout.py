"""AppTest of the held-out MSP on the MSP vs accuracy page: plotted by default, the in-sample
MSP one click away, each with its Pearson r, the least-squares line within [0, 1], the λ
chosen by the score shown, and the caption's numbers those of the runs shown."""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[1]
MSP_VS_ACCURACY = str(ROOT / "pages" / "4_MSP_vs_accuracy.py")
#: 130 points, 13 features: a λ grid whose accuracies and MSPs vary (fast).
SMALL = {"data": "wine:1v2", "norm": "1"}


def clean(at: AppTest) -> None:
    assert not at.exception, [e.message for e in at.exception]
    assert not at.error, [e.value for e in at.error]


def chart(at: AppTest, key: str) -> dict:
    spec = next(c.proto.spec for c in at.get("plotly_chart") if c.proto.id.endswith(key))
    return json.loads(spec)


def values(trace: dict, axis: str) -> np.ndarray:
    v = trace[axis]
    if isinstance(v, dict):  # plotly's base64 arrays
        return np.frombuffer(base64.b64decode(v["bdata"]), dtype=v["dtype"])
    return np.asarray(v, dtype=float)


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


@pytest.fixture(scope="module")
def lam_family():
    at = AppTest.from_file(MSP_VS_ACCURACY, default_timeout=180)
    for key, value in {**SMALL, "method": "mspc-mpm", "fam": "lam"}.items():
        at.query_params[key] = value
    at.run()
    at.button(key="mva.run").click().run()
    clean(at)
    return at


def test_the_held_out_msp_is_plotted_by_default_with_both_r(lam_family):
    at = lam_family
    assert at.radio(key="mva.score").value == "msp_heldout"
    table = at.dataframe[0].value
    fig = chart(at, "mva.scatter")
    assert "held-out MSP" in fig["layout"]["xaxis"]["title"]["text"]
    runs = fig["data"][0]
    ok = table.dropna(subset=["msp_heldout", "accuracy"])
    assert np.allclose(np.sort(values(runs, "x")), np.sort(ok["msp_heldout"]))
    shown = metrics(at)
    for column, name in (("msp_heldout", "held-out MSP"), ("msp", "in-sample MSP")):
        sub = table.dropna(subset=[column, "accuracy"])
        r = np.corrcoef(sub[column], sub["accuracy"])[0, 1]
        assert shown[f"Pearson r, {name}"] == f"{r:.2f}"
        note = next(c.value for c in at.caption if c.value.startswith("Over these"))
        assert f"the {name} at r = {r:.2f}" in note


def test_the_caption_states_the_runs_numbers(lam_family):
    at = lam_family
    table = at.dataframe[0].value
    note = next(c.value for c in at.caption if c.value.startswith("Over these"))
    n = int(re.search(r"Over these (\d+) runs", note).group(1))
    assert n == table["accuracy"].notna().sum()
    rh = float(re.search(r"held-out MSP at r = (-?[\d.]+)", note).group(1))
    ri = float(re.search(r"in-sample MSP at r = (-?[\d.]+)", note).group(1))
    if rh - ri >= 0.05:
        assert "the held-out MSP follows accuracy more closely" in note
    elif ri - rh >= 0.05:
        assert "the in-sample MSP follows accuracy more closely" in note
    chance = table[table["accuracy"] < 0.6]
    if len(chance):
        assert f"in-sample MSP of {chance['msp'].mean():.3f}" in note
        assert f"held-out MSP of {chance['msp_heldout'].mean():.3f}" in note
    else:
        assert "at chance" not in note


def test_lam_is_chosen_by_the_score_shown_and_the_in_sample_msp_is_one_click_away(lam_family):
    at = lam_family
    table = at.dataframe[0].value
    best = table.loc[table["msp_heldout"].idxmax()]
    assert metrics(at)["λ chosen by the held-out MSP"] == f"{best['lam']:g}"
    at.radio(key="mva.score").set_value("msp").run()
    clean(at)
    fig = chart(at, "mva.scatter")
    assert "in-sample MSP" in fig["layout"]["xaxis"]["title"]["text"]
    best = table.loc[table["msp"].idxmax()]
    shown = metrics(at)
    assert shown["λ chosen by the in-sample MSP"] == f"{best['lam']:g}"
    assert shown["its accuracy"] == f"{best['accuracy']:.3f}"
    sweep = chart(at, "mva.sweep")
    star = next(t for t in sweep["data"] if t["name"].startswith("largest in-sample MSP"))
    assert values(star, "x")[0] == pytest.approx(best["lam"])
    at.radio(key="mva.score").set_value("msp_heldout").run()


def test_the_least_squares_line_stays_within_0_and_100_percent(lam_family):
    at = lam_family
    for score in ("msp_heldout", "msp"):
        at.radio(key="mva.score").set_value(score).run()
        fig = chart(at, "mva.scatter")
        lines = [t for t in fig["data"] if t.get("mode") == "lines"]
        for line in lines:
            y = values(line, "y")
            assert y.min() >= -1e-9 and y.max() <= 100 + 1e-9
    at.radio(key="mva.score").set_value("msp_heldout").run()
