"""AppTest of the Home page: every demo caption's claim checked against the numbers shown
beside it, and the AFS-trap button opening Feature scaling with the break preset."""

from __future__ import annotations

import re
from itertools import combinations
from pathlib import Path

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
    inv = table["MSPC (MPM)"]
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
    if concordant < total:
        for column, words in (
            ("msp_heldout", "Highest held-out MSP"),
            ("accuracy", "highest accuracy"),
        ):
            shown = table[column].round(3)
            leaders = table.loc[shown == shown.max(), "method"]
            assert f"{words}: {' = '.join(leaders)} ({shown.max():.3f})" in caption, caption


def test_breast_demo_shows_the_labs_mspc_as_cluster_runs_it(home):
    """Issue 33, item 3: the demo's MSPC is the lab's (its default start and search, the
    lab's λ and Λ, named on Home), not the paper's pipeline at λ = 0.01 from k-means."""
    import datasets
    from lab.evaluation import fit_and_evaluate

    table = home.dataframe[1].value.set_index("method")
    ds = datasets.load("breast", normalize=True)
    for method, key in (("MSPC (MPM)", "mspc-mpm"), ("MSPC (EIG)", "mspc-eig")):
        lab = fit_and_evaluate(key, {}, ds.X, ds.y, msp_lam=0.2, msp_regularizer="diag")
        assert lab.params["lam"] == 0.2 and lab.params["regularizer"] == "diag"
        assert table.loc[method, "accuracy"] == pytest.approx(lab.accuracy, abs=1e-12)
        assert table.loc[method, "msp_heldout"] == pytest.approx(lab.msp_heldout, abs=1e-12)
    scale = _caption(home, "Every MSP here")
    assert "λ = 0.2 and Λ = diag" in scale


def test_tasks_caption_gives_each_familys_r_and_the_papers(home):
    """Issue 33, item 5: the visible rows are the numbers the caption is computed from."""
    table = home.dataframe[2].value
    caption = _caption(home, "families of tasks")
    follow = 0
    for _, row in table.iterrows():
        r = row["r_heldout"]
        family, tasks = re.fullmatch(r"(.+) \((\d+)\)", row["family"]).groups()
        row = {**row, "family": family, "tasks": int(tasks)}
        assert f"{tasks} {family} (r = {r:.2f}; paper {row['paper_r']:.2f})" in caption
        follow += r >= 0.5
        if r >= 0.8:
            assert f"closely over the {row['tasks']} {row['family']}" in caption
        elif r >= 0.5:
            assert f"moderately over the {row['tasks']} {row['family']}" in caption
    n = len(table)
    assert f"follows accuracy in {'all ' + str(n) if follow == n else f'{follow} of {n}'}" in (
        caption
    )


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


def test_presenter_mode_shows_one_demo_at_a_time():
    """A 1024x768 projector holds one demo: the lecturer picks it; each keeps its table,
    caption and button."""
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params["present"] = "1"
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    assert len(at.dataframe) == 1 and at.button(key="demo.afs")
    for name, key in (("Breast cancer", "demo.breast"), ("Across tasks", "demo.tasks")):
        at.segmented_control(key="home.demo").set_value(name).run()
        assert not at.exception
        assert len(at.dataframe) == 1 and at.button(key=key)
        assert not [b for b in at.button if b.key == "demo.afs"]


def test_the_warm_start_and_the_class_bench_press_the_buttons_home_shows():
    """ui.serve's warm start walks every demo's button, and bench_class's lesson presses
    them: both name the buttons Home draws (a renamed demo would leave its page cold)."""
    from bench.bench_class import LESSON
    from ui.serve import DEMO_BUTTONS

    home = AppTest.from_file(APP, default_timeout=TIMEOUT).run()
    shown = [b.key for b in home.button if (b.key or "").startswith("demo.")]
    assert sorted(DEMO_BUTTONS) == sorted(shown)
    assert {arg for what, arg in LESSON if what == "click"} <= set(shown)
