"""AppTest of the Home page: every demo caption's claim checked against the numbers shown
beside it, and the AFS-trap button opening Feature scaling with the break preset."""

from __future__ import annotations

import re
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

AppTest = pytest.importorskip("streamlit.testing.v1").AppTest

APP = str(Path(__file__).resolve().parents[1] / "app.py")
TIMEOUT = 240


@pytest.fixture(scope="module")
def home():
    at = AppTest.from_file(APP, default_timeout=TIMEOUT).run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def _caption(at, *words: str) -> str:
    hits = [c.value for c in at.caption if all(w in c.value for w in words)]
    assert len(hits) == 1, [c.value for c in at.caption]
    return hits[0]


def _f3(x: float) -> str:
    return f"{x:.3f}"


def test_home_shows_the_demos_before_the_theory(home):
    assert home.title[0].value == "Discriminative Clustering Lab"
    headers = [h.value for h in home.subheader]
    assert headers.index("The idea in five sentences") < headers.index("Or explore")
    # Three demos, each with its numbers, come before the theory.
    assert len(home.dataframe) == 3
    theory = next(m.value for m in home.markdown if "Discriminative clustering" in m.value)
    assert theory.count(". ") + 1 == 5


def test_afs_caption_claims_hold_for_the_numbers_shown(home):
    table = home.dataframe[0].value.set_index("rescaling")
    km = table["k-means"]
    inv = table["MSPC (MPM), standardised start"]
    caption = _caption(home, "k-means", "noise")
    k1, kb, kr = km["×1"], km["noise ×10"], km["+ signal ×10"]
    # The redesigned trap: the break costs k-means at least 20 points, MSPC stays.
    assert k1 - kb >= 0.20
    assert f"k-means breaks: accuracy {_f3(k1)} → {_f3(kb)}" in caption
    assert abs(inv["noise ×10"] - inv["×1"]) < 0.005
    assert f"does not move ({_f3(inv['×1'])} before and after)" in caption
    assert kr - kb >= 0.20
    assert f"k-means is rescued: {_f3(kr)}" in caption


def _pairs(msp, acc) -> tuple[int, int]:
    concordant = total = 0
    for i, j in combinations(range(len(msp)), 2):
        if abs(msp[i] - msp[j]) <= 1e-9:
            continue
        total += 1
        hi, lo = (i, j) if msp[i] > msp[j] else (j, i)
        concordant += acc[hi] > acc[lo]
    return concordant, total


def test_breast_caption_counts_the_pairs_shown(home):
    table = home.dataframe[1].value
    caption = _caption(home, "held-out MSP", "pairs of methods")
    held = table["msp_heldout"].to_numpy()
    concordant, total = _pairs(held, table["accuracy"].to_numpy())
    assert f"{concordant} of {total} pairs" in caption or f"all {total} pairs" in caption
    if concordant == total:
        assert "The labeling with the higher held-out MSP is the more accurate" in caption
    elif concordant > total / 2:
        assert "Usually" in caption
    else:
        assert "Here the higher held-out MSP does not pick" in caption
        best = table.loc[table["msp_heldout"].idxmax()]
        verdict = "is" if best["accuracy"] >= table["accuracy"].max() else "is not"
        assert (
            f"({best['method']}, {_f3(best['msp_heldout'])}) {verdict} the most accurate" in caption
        )


def test_digits_caption_gives_the_correlation_of_the_runs_shown(home):
    table = home.dataframe[2].value
    caption = _caption(home, "Pearson")
    r = np.corrcoef(table["msp_heldout"], table["accuracy"])[0, 1]
    r_in = np.corrcoef(table["msp"], table["accuracy"])[0, 1]
    shown = float(re.search(r"Pearson's r = (-?[0-9.]+)", caption).group(1))
    assert shown == pytest.approx(r, abs=0.006)
    shown_in = float(re.search(r"with the in-sample MSP r is (-?[0-9.]+)", caption).group(1))
    assert shown_in == pytest.approx(r_in, abs=0.006)
    assert f"Across the {len(table)} runs" in caption
    if r >= 0.8:
        assert "a higher held-out MSP comes with a higher accuracy" in caption
    concordant, total = _pairs(table["msp_heldout"].to_numpy(), table["accuracy"].to_numpy())
    assert f"{concordant} of {total} pairs" in caption or f"all {total} pairs" in caption
    if concordant < total:
        assert "in all" not in caption.split("Pearson")[1]


def test_afs_demo_opens_feature_scaling_ready_to_break_kmeans(home):
    home.button(key="demo.afs").click().run()
    assert not home.exception, [e.message for e in home.exception]
    assert home.title[0].value == "Feature scaling"
    assert home.session_state["dcl.scale"] == {1: 10.0}  # 'noise' ×10
    # The break preset is ready: the animation sweeps 'noise' with 'signal' at ×1.
    assert home.selectbox(key="fs.anim.feature").value == 1
    anim = [c for c in home.get("plotly_chart") if c.proto.id and "fs.anim" in c.proto.id]
    assert anim, "the animation was not drawn"
    assert home.select_slider(key="fs.factor.1").value == 10.0
    assert home.select_slider(key="fs.factor.0").value == 1.0
    assert home.query_params["scale"] == "1:10"
