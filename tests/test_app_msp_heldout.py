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

from tests.conftest import assert_clean, run_page

ROOT = Path(__file__).resolve().parents[1]
MSP_VS_ACCURACY = str(ROOT / "pages" / "4_MSP_vs_accuracy.py")
#: 130 points, 13 features: a λ grid whose accuracies and MSPs vary (fast).
SMALL = {"data": "wine:1v2", "norm": "1"}


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
    at.run()  # a cheap sweep runs by itself
    assert_clean(at)
    return at


def verdict(at: AppTest) -> str:
    return next(m.value for m in at.markdown if m.value.startswith("Over these"))


def test_the_held_out_msp_is_plotted_by_default_with_its_r_in_the_verdict(lam_family):
    at = lam_family
    assert at.radio(key="mva.score").value == "msp_heldout"
    table = at.dataframe[0].value
    fig = chart(at, "mva.scatter")
    assert "held-out MSP" in fig["layout"]["xaxis"]["title"]["text"]
    runs = fig["data"][0]
    ok = table.dropna(subset=["msp_heldout", "accuracy"])
    assert np.allclose(np.sort(values(runs, "x")), np.sort(ok["msp_heldout"]))
    assert np.allclose(np.sort(values(runs, "y")), np.sort(ok["accuracy"]))  # fractions
    r = np.corrcoef(ok["msp_heldout"], ok["accuracy"])[0, 1]
    assert f"r = {r:.2f}" in verdict(at)


def test_the_verdict_states_the_runs_numbers_and_words_r_by_its_sign_and_size(lam_family):
    at = lam_family
    table = at.dataframe[0].value
    for score, name in (("msp_heldout", "held-out MSP"), ("msp", "in-sample MSP")):
        at.radio(key="mva.score").set_value(score).run()
        note = verdict(at)
        ok = table.dropna(subset=[score, "accuracy"])
        n = int(re.search(r"Over these (\d+) values of λ", note).group(1))
        assert n == len(ok)
        r = np.corrcoef(ok[score], ok["accuracy"])[0, 1]
        assert f"the {name} " in note and f"r = {r:.2f}" in note
        first = note.split(". ")[0]
        assert ("follows accuracy" in first) == (r >= 0.5)
        assert ("runs against" in first) == (r <= -0.5)
        # What choosing λ by it costs, in the numbers of the table.
        chosen = ok.loc[ok[score].idxmax()]
        best = ok["accuracy"].max()
        assert f"picks λ = {chosen['lam']:g}, with accuracy {chosen['accuracy']:.3f}" in note
        cost = float(f"{best:.3f}") - float(f"{chosen['accuracy']:.3f}")
        assert (f"a cost of {cost:.3f} in accuracy" in note) == (cost > 0)
        # The two MSPs compared (under the lesson): "(r = ... with the held-out MSP, ...)".
        compared = " ".join(m.value for m in at.markdown if "(r = " in m.value)
        if "more closely" in compared:
            other = "msp" if score == "msp_heldout" else "msp_heldout"
            r_other = np.corrcoef(ok[other], ok["accuracy"])[0, 1]
            assert min(r, r_other) >= 0.5
    at.radio(key="mva.score").set_value("msp_heldout").run()


def test_lam_is_chosen_by_the_score_shown_and_the_in_sample_msp_is_one_click_away(lam_family):
    at = lam_family
    table = at.dataframe[0].value
    best = table.loc[table["msp_heldout"].idxmax()]
    assert metrics(at)["λ by the held-out MSP"] == f"{best['lam']:g}"
    at.radio(key="mva.score").set_value("msp").run()
    assert_clean(at)
    fig = chart(at, "mva.scatter")
    assert "in-sample MSP" in fig["layout"]["xaxis"]["title"]["text"]
    best = table.loc[table["msp"].idxmax()]
    shown = metrics(at)
    assert shown["λ by the in-sample MSP"] == f"{best['lam']:g}"
    assert shown["its accuracy"] == f"{best['accuracy']:.3f}"
    sweep = chart(at, "mva.sweep")
    star = next(t for t in sweep["data"] if t["name"].startswith("largest in-sample MSP"))
    assert values(star, "x")[0] == pytest.approx(best["lam"])
    assert at.query_params["axis"] == "msp"  # the axis choice is in the link
    at.radio(key="mva.score").set_value("msp_heldout").run()


def test_the_least_squares_line_stays_within_0_and_1(lam_family):
    at = lam_family
    for score in ("msp_heldout", "msp"):
        at.radio(key="mva.score").set_value(score).run()
        fig = chart(at, "mva.scatter")
        lines = [t for t in fig["data"] if t.get("mode") == "lines"]
        for line in lines:
            y = values(line, "y")
            assert y.min() >= -1e-9 and y.max() <= 1 + 1e-9
    at.radio(key="mva.score").set_value("msp_heldout").run()


# ---------------------------------------------------------------------------------------------
# Learn: the in-sample MSP rewards nonsense splits of a digits pair, the held-out MSP refuses
# ---------------------------------------------------------------------------------------------

LEARN = str(ROOT / "pages" / "5_Learn.py")


@pytest.fixture(scope="module")
def learn():
    at = AppTest.from_file(LEARN, default_timeout=180)
    for key, value in {
        "data": "synthetic:two_gaussians",
        "gen": "n_samples=80;n_features=2",
        "topic": "heldout",  # the lesson whose figure the pair control moves
    }.items():
        at.query_params[key] = value
    at.run()
    assert_clean(at)
    return at


def splits_table(at: AppTest):
    return next(d.value for d in at.dataframe if "msp_heldout" in d.value.columns)


def heldout_caption(at: AppTest) -> str:
    return next(c.value for c in at.caption if c.value.startswith("The true classes score"))


def shown_lam(at: AppTest) -> tuple[float, str]:
    text = next(c.value for c in at.caption if "images," in c.value)
    lam, reg = re.search(r"λ = ([\d.e+-]+), Λ = (\w+)", text).groups()
    return float(lam), reg


def check_caption(table, note: str) -> None:
    true = table.iloc[0]
    assert true["labeling"] == "true classes"
    assert note.startswith(
        f"The true classes score {true['msp']:.3f} in sample and {true['msp_heldout']:.3f} "
        "held out."
    )
    rand = table[table["labeling"].str.startswith("random")]
    top = rand.loc[rand["msp"].idxmax()]
    assert f"in sample they score up to {top['msp']:.3f} (the {top['labeling']}" in note
    assert f"held out they score at most {rand['msp_heldout'].max():.3f}" in note
    all_below = bool((rand["msp_heldout"] < true["msp_heldout"]).all())
    assert (f"all below the true classes' {true['msp_heldout']:.3f}" in note) == all_below
    sizes = rand["sizes"].str.split(" / ").map(lambda s: min(int(v) for v in s))
    monotone = bool(np.all(np.diff(rand.assign(s=sizes).sort_values("s")["msp"]) < 0))
    assert ("the smaller the group, the higher" in note) == monotone
    for _, row in table[table["labeling"] == "MSPC (MPM) clustering"].iterrows():
        assert (
            f"MSPC (MPM) clustering (accuracy {row['accuracy']:.3f}) scores {row['msp']:.3f} "
            f"in sample and {row['msp_heldout']:.3f} held out" in note
        )
        smaller = min(int(v) for v in row["sizes"].split(" / "))
        assert ("too few to hold any out" in note) == (smaller < 2)


def test_learn_shows_the_in_sample_msp_rewarding_random_groups_and_held_out_refusing(learn):
    at = learn
    assert at.selectbox(key="learn.ho.pair").value == "digits:1v3"
    table = splits_table(at)
    check_caption(table, heldout_caption(at))
    # The lesson, on the numbers shown: a random group of 4 images scores high in sample
    # and near 0 held out, below the true classes, which score high both ways.
    true = table.iloc[0]
    group = table[table["labeling"] == "random group of 4 points vs the rest"].iloc[0]
    assert group["accuracy"] < 0.6
    assert group["msp"] > 0.7
    assert group["msp_heldout"] < 0.05
    assert true["msp_heldout"] > 0.8
    random = table[table["labeling"].str.startswith("random")]
    assert (random["msp_heldout"] < 0.05).all()


def test_learn_shows_the_same_msps_as_every_other_page(learn):
    import datasets
    from clustering.metrics import msp_score
    from lab.evaluation import fit_and_evaluate, heldout_msp

    at = learn
    table = splits_table(at)
    lam, reg = shown_lam(at)
    ds = datasets.load("digits:1v3", normalize=True)
    true = table.iloc[0]
    assert true["msp"] == pytest.approx(msp_score(ds.X, ds.y, lam=lam, regularizer=reg))
    assert true["msp_heldout"] == pytest.approx(heldout_msp(ds.X, ds.y, lam, reg))
    # MSPC's clustering: the held-out MSP the Cluster page's table would show for it.
    fit = fit_and_evaluate("mspc-mpm", {"lam": lam, "regularizer": reg}, ds.X, ds.y)
    row = table[table["labeling"] == "MSPC (MPM) clustering"].iloc[0]
    assert row["msp"] == pytest.approx(fit.msp)
    assert row["msp_heldout"] == pytest.approx(fit.msp_heldout)


def test_learn_follows_another_digits_pair(learn):
    at = learn
    at.selectbox(key="learn.ho.pair").set_value("digits:3v8").run()
    assert_clean(at)
    assert any("digits\\:3v8" in c.value or "digits:3v8" in c.value for c in at.caption)
    check_caption(splits_table(at), heldout_caption(at))
    at.selectbox(key="learn.ho.pair").set_value("digits:1v3").run()


# ---------------------------------------------------------------------------------------------
# Cluster, Feature scaling, Compare: the held-out MSP beside the in-sample one, the same value
# as lab.evaluation.heldout_msp gives the same clusters
# ---------------------------------------------------------------------------------------------

CLUSTER = str(ROOT / "pages" / "2_Cluster.py")
FEATURE_SCALING = str(ROOT / "pages" / "3_Feature_scaling.py")
TWO_GAUSSIANS = {"data": "synthetic:two_gaussians", "gen": "n_samples=80;n_features=3"}


def page(path: str, **query: str) -> AppTest:
    at = run_page(path, timeout=180, **query)
    assert_clean(at)
    return at


def test_cluster_table_shows_the_held_out_msp_of_the_fit_beside_the_in_sample_one():
    from lab.evaluation import fit_and_evaluate
    from ui.cache import load_choice

    at = page(CLUSTER, **TWO_GAUSSIANS, algos="kmeans,mspc-mpm", lam="0.01", reg="diag")
    table = at.dataframe[0].value.set_index("algorithm")
    columns = list(table.columns)
    assert columns.index("held-out MSP") == columns.index("MSP") + 1
    ds = load_choice(at.session_state["dcl.data"])
    for key, name, params in (
        ("kmeans", "k-means", {}),
        ("mspc-mpm", "MSPC (MPM)", {"lam": 0.01, "regularizer": "diag"}),
    ):
        fit = fit_and_evaluate(key, params, ds.X, ds.y, msp_lam=0.01, msp_regularizer="diag")
        assert table.loc[name, "MSP"] == pytest.approx(fit.msp, abs=1e-9)
        assert table.loc[name, "held-out MSP"] == pytest.approx(fit.msp_heldout, abs=1e-9)


def test_feature_scaling_table_shows_both_msps_and_the_held_out_one_ignores_the_units():
    at = page(FEATURE_SCALING, **TWO_GAUSSIANS, algos="kmeans,mspc-eig", scale="1:1000")
    table = next(d.value for d in at.dataframe if "msp_heldout_before" in d.value.columns)
    assert {"msp_before", "msp_after", "msp_heldout_before", "msp_heldout_after"} <= set(
        table.columns
    )
    assert table["msp_heldout_before"].notna().all()
    # Λ = diag: a labeling the rescaling leaves unchanged keeps its held-out MSP exactly
    # (the splits depend only on the labels); MSPC (EIG) is immune to rescaling.
    same = table[table["changed"] == 0]
    assert "MSPC (EIG)" in set(same["method"])
    for _, row in same.iterrows():
        assert row["msp_heldout_after"] == pytest.approx(row["msp_heldout_before"], abs=1e-9)


def test_compare_corners_give_both_msps():
    from lab.compare import CompareCell

    cell = CompareCell("row", "kmeans", "ok", accuracy=0.9, msp=0.8, msp_heldout=0.7, seconds=0.1)
    assert cell.corner() == "acc 0.900 · MSP 0.800<br>held-out 0.700 · 0.10 s"


def test_learn_says_why_the_held_out_msp_is_undefined_without_a_regulariser():
    # Λ = none (λ unused): the MPM fitted on half of a small cluster has singular covariances
    # in 55 dimensions, so the held-out MSP is undefined; the page says so, no traceback.
    at = page(LEARN, **TWO_GAUSSIANS, reg="none")
    table = splits_table(at)
    undefined = int(table["msp_heldout"].isna().sum())
    assert undefined > 0
    note = next(c.value for c in at.caption if "is undefined here" in c.value)
    assert note.startswith(
        f"The held-out MSP of {undefined} of the {len(table)} labelings is undefined here:"
    )
    assert "singular" in note


@pytest.mark.parametrize("k", [2, 3])
def test_the_lab_shows_the_held_out_msp_mspc_reports(k):
    # The lab's one held-out MSP (splits seeded with HELDOUT_RANDOM_STATE) is the fitted
    # model's msp_heldout_ when the model is fitted with random_state = 0, as every page fits.
    import datasets
    from clustering import MSPC
    from lab.evaluation import HELDOUT_RANDOM_STATE, fit_and_evaluate, heldout_msp

    ds = datasets.load("wine:1v2", normalize=True)
    model = MSPC(lam=0.2, n_clusters=k, random_state=HELDOUT_RANDOM_STATE).fit(ds.X)
    assert heldout_msp(ds.X, model.labels_, 0.2, "diag") == pytest.approx(
        model.msp_heldout_, abs=1e-12
    )
    fit = fit_and_evaluate("mspc-mpm", {"lam": 0.2, "n_clusters": k}, ds.X, ds.y)
    assert fit.msp_heldout == pytest.approx(model.msp_heldout_, abs=1e-12)
