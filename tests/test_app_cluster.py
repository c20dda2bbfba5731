"""AppTest of the Cluster page: the grid, the cost guard, the number of clusters, and captions
whose claims are checked against the numbers shown beside them (issues 12, 13, 14)."""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from clustering._cost import Cost
from tests.conftest import assert_clean, run_page, unescaped

ROOT = Path(__file__).resolve().parents[1]
CLUSTER = str(ROOT / "pages" / "2_Cluster.py")
TIMEOUT = 180
#: Small data: the page's every path runs in seconds.
SMALL = {"data": "synthetic:two_gaussians", "gen": "n_samples=80;n_features=3", "norm": "1"}
FIVE = "kmeans,mspc-mpm,mspc-eig,lda-kmeans,spectral"


def cluster(**query: str) -> AppTest:
    return run_page(CLUSTER, timeout=TIMEOUT, **query)


def charts(at: AppTest) -> dict[str, dict]:
    """Every plotly chart of the page by its key, as the figure's JSON."""
    out = {}
    for chart in at.get("plotly_chart"):
        key = chart.proto.id.split("-", 2)[-1]
        out[key] = json.loads(chart.proto.spec)
    return out


def trace_values(figure: dict, i: int, axis: str) -> np.ndarray:
    """A trace's x or y values (plotly encodes arrays as base64 in its JSON)."""
    values = figure["data"][i][axis]
    if isinstance(values, dict):  # {"dtype": "f8", "bdata": base64}
        values = np.frombuffer(base64.b64decode(values["bdata"]), dtype=values["dtype"])
    return np.asarray(values, dtype=float)


def metrics(at: AppTest):
    return at.dataframe[0].value.set_index("algorithm")


def captions(at: AppTest) -> list[str]:
    return [c.value for c in at.caption]


def test_five_methods_side_by_side_with_shared_axes():
    at = cluster(**SMALL, algos=FIVE)
    assert_clean(at)
    assert len(at.tabs) == 0  # no switch to tabs at 4+ methods
    scatters = {k: v for k, v in charts(at).items() if k.startswith("scatter.")}
    assert len(scatters) == 5
    ranges = {
        (tuple(f["layout"]["xaxis"]["range"]), tuple(f["layout"]["yaxis"]["range"]))
        for f in scatters.values()
    }
    assert len(ranges) == 1, ranges  # one x range and one y range for all panels
    # Rows of at most three: the five panels sit in columns of two horizontal blocks.
    assert len(at.columns) >= 5
    assert any("share their axis ranges" in c for c in captions(at))


def test_comparison_caption_names_the_methods_the_table_ranks_first():
    at = cluster(**SMALL, algos=FIVE)
    assert_clean(at)
    table = metrics(at)
    note = next(c for c in captions(at) if c.startswith("Highest held-out MSP:"))
    m = re.match(
        r"Highest held-out MSP: (.+?) \(([\d.]+)\); highest accuracy: (.+?) \(([\d.]+)\)\.",
        note,
    )
    assert m, note
    msp_names, msp_value, acc_names, acc_value = m.groups()
    shown = table[["held-out MSP", "accuracy"]].apply(lambda c: c.map(lambda v: float(f"{v:.3f}")))
    top = shown["held-out MSP"].max()
    assert top == pytest.approx(float(msp_value), abs=5e-4)
    assert set(msp_names.split(" = ")) == set(shown.index[shown["held-out MSP"] == top])
    assert shown["accuracy"].max() == pytest.approx(float(acc_value), abs=5e-4)
    top_acc = set(shown.index[shown["accuracy"] == shown["accuracy"].max()])
    assert set(acc_names.split(" = ")) == top_acc
    tie = " = " in msp_names
    same = not tie and msp_names in top_acc
    assert ("tie at three decimals" in note) == tie
    assert ("is also the most accurate" in note) == same
    assert ("is not the more accurate" in note) == (not tie and not same)


def test_objective_captions_match_the_objective_plot():
    at = cluster(**SMALL, algos=FIVE)
    assert_clean(at)
    # Here every method's objective has a single value: notes, and no chart of lone dots.
    figure = charts(at).get("objective", {"data": []})
    lines = {t["name"]: trace_values(figure, i, "y") for i, t in enumerate(figure["data"])}
    notes = [c for c in captions(at) if any(c.startswith(f"{name}:") for name in lines)]
    assert len(notes) == len(lines)
    assert sum("one value" in c for c in captions(at)) >= 2
    # A method with a single value has its note and no panel (no one-dot chart).
    single = [c for c in captions(at) if "one value" in c]
    assert all(not any(c.startswith(f"{n}:") for n in lines) for c in single)
    for note in notes:
        name = next(n for n in lines if note.startswith(f"{n}:"))
        h = lines[name]
        if "over" in note:
            first, last, n = re.search(
                r": ([\d.]+) → ([\d.]+) over (\d+) iterations", note
            ).groups()
            assert float(first) == pytest.approx(h[0], abs=10 ** -(len(first.split(".")[1])))
            assert float(last) == pytest.approx(h[-1], abs=10 ** -(len(last.split(".")[1])))
            assert int(n) == h.size
            assert ("never fell" in note) == bool(np.all(np.diff(h) >= -1e-12))
        elif "converged at its start" in note:
            assert h.size > 1 and np.ptp(h) <= 1e-12
        else:
            assert "one value" in note and h.size == 1


def test_a_method_above_the_auto_run_limit_waits_for_its_button(monkeypatch):
    """The cost-guard path: a prediction above the limits shows the prediction and a button;
    nothing runs until it is pressed, then the method's panel appears."""
    import lab.budget

    real = lab.budget.predict_cost

    def expensive_kmeans(key, n, d, params=None):
        return Cost(60.0, 1 << 20) if key == "kmeans" else real(key, n, d, params)

    monkeypatch.setattr(lab.budget, "predict_cost", expensive_kmeans)
    at = cluster(**SMALL, algos="kmeans,mspc-eig")
    assert_clean(at)
    assert "scatter.kmeans" not in charts(at)
    assert "scatter.mspc-eig" in charts(at)  # the cheap one ran by itself
    # The waiting method has a row saying why, and no numbers.
    assert list(metrics(at).index) == ["MSPC (EIG)", "k-means"]
    assert metrics(at).loc["k-means", "error"].startswith("waits for its Run button")
    waiting = " ".join(i.value for i in at.info)
    assert "predicted to take about 60 s" in waiting and "k-means" in waiting
    at.button(key="cluster.run.kmeans").click().run()
    assert_clean(at)
    assert "scatter.kmeans" in charts(at)
    assert list(metrics(at).index) == ["MSPC (EIG)", "k-means"]
    # A changed setting of the method needs a new click.
    at.toggle(key="cluster.autorun").set_value(False).run()
    assert "scatter.kmeans" in charts(at)


def test_a_refused_run_is_a_message_not_a_traceback():
    at = cluster(
        data="breast",
        algos="diffrac",
        ap="diffrac.relaxation=convex;diffrac.max_samples=1000",
    )
    assert not at.exception
    message = " ".join(unescaped(e.value) for e in at.error)
    assert "would not finish on this machine" in message and "relaxation='eigen'" in message


def test_number_of_clusters_in_the_url_round_trip_and_binary_methods_say_so():
    at = cluster(**SMALL, algos="kmeans,mmc-nmi", k="3")
    assert_clean(at)
    assert at.session_state["dcl.n_clusters"] == 3
    assert at.number_input(key="n_clusters").value == 3
    assert at.query_params["k"] == ["3"] or at.query_params["k"] == "3"
    panel = " ".join(i.value for i in at.info)
    assert "MMC (NMI loss) is a two-cluster method by nature" in panel
    assert list(metrics(at).index) == ["k-means", "MMC (NMI loss)"]
    assert metrics(at).loc["MMC (NMI loss)", "error"].startswith("not run: a two-cluster method")
    assert "ARI" in metrics(at).columns
    scatter = charts(at)["scatter.kmeans"]
    clusters = {t["legendgroup"] for t in scatter["data"] if t.get("legendgroup")}
    assert len(clusters) == 3
    at.number_input(key="n_clusters").set_value(2).run()
    assert_clean(at)
    assert "k" not in at.query_params  # 2 is the default and stays out of the link
    assert "scatter.mmc-nmi" in charts(at)


def test_a_bad_number_of_clusters_in_a_link_is_named_and_ignored():
    at = cluster(**SMALL, algos="kmeans", k="11")
    assert not at.exception
    assert at.session_state["dcl.n_clusters"] == 2
    shown = " ".join(unescaped(w.value) for w in at.warning)
    assert "`k`" in shown and "between 2 and 10" in shown


def test_msp_curve_behind_a_button_and_its_caption():
    query = {"data": "synthetic:two_gaussians", "gen": "n_samples=60;n_features=2"}
    at = cluster(**query, algos="kmeans")
    assert_clean(at)
    assert "msp.curve" not in charts(at)
    at.button(key="cluster.curve").click().run()
    assert_clean(at)
    figure = charts(at)["msp.curve"]
    ks = trace_values(figure, 0, "x").astype(int).tolist()
    msp = trace_values(figure, 0, "y").tolist()
    note = next(c for c in captions(at) if c.startswith("Suggested k"))
    k, a, k_a, b, k_b = re.search(
        r"Suggested k = (\d+): .* from ([\d.]+) at k = (\d+) to ([\d.]+) at k = (\d+)", note
    ).groups()
    drops = np.asarray(msp[:-1]) - np.asarray(msp[1:])
    assert int(k) == ks[int(np.argmax(drops))] == int(k_a)
    assert float(a) == pytest.approx(msp[ks.index(int(k))], abs=5e-4)
    assert float(b) == pytest.approx(msp[ks.index(int(k_b))], abs=5e-4)


def test_mspc_step_through_frames_and_caption():
    at = cluster(**SMALL, algos="mspc-mpm")
    assert_clean(at)
    assert "mspc.steps" not in charts(at)  # drawn on request
    at.toggle(key="cluster.steps_on").set_value(True).run()
    assert_clean(at)
    figure = charts(at)["mspc.steps"]
    frames = figure.get("frames", [])
    note = next(c for c in captions(at) if c.startswith("MSPC (MPM)") and "start" in c)
    if "converged at its start" in note:
        assert len(frames) <= 1
    else:
        n = int(re.search(r"after (\d+) iteration", note).group(1))
        assert len(frames) == n + 1


def test_multiclass_mspc_on_breast_waits_for_a_click():
    """Multi-class MSPC took 15 s on breast at k = 3 (the binary model predicted 0.6 s):
    with the multi-class factor it is above the auto-run limit and waits for its button."""
    at = cluster(data="breast", algos="mspc-mpm", k="3")
    assert not at.exception
    assert "scatter.mspc-mpm" not in charts(at)
    assert "predicted to take" in " ".join(i.value for i in at.info)
    assert at.button(key="cluster.run.mspc-mpm")


def test_a_waiting_method_shows_its_predicted_time():
    """With automatic runs off, a method whose setting changed waits for Run and its panel
    gives the cost model's prediction (MMC's included) before anything runs."""
    at = cluster(**SMALL, algos="mmc-nmi")
    assert_clean(at)
    assert "scatter.mmc-nmi" in charts(at)
    at.toggle(key="cluster.autorun").set_value(False).run()
    at.select_slider(key="param.mmc-nmi.C").set_value(1.0).run()
    assert_clean(at)
    waiting = " ".join(i.value for i in at.info)
    assert "Waiting: press **Run** in the sidebar (predicted" in waiting
    assert "under a second" in waiting or " s and " in waiting


def test_the_lam_on_the_slider_reaches_the_estimator_and_the_msp_column(monkeypatch):
    """λ and Λ set in the sidebar are the estimator's own (for a method that has them) and
    the MSP column's for every method, recorded where the fit is made."""
    import streamlit as st

    import ui.cache

    calls = []
    real = ui.cache.fit_and_evaluate

    def recording(key, params, X, y=None, **kwargs):
        calls.append((key, dict(params), kwargs.get("msp_lam"), kwargs.get("msp_regularizer")))
        return real(key, params, X, y, **kwargs)

    monkeypatch.setattr(ui.cache, "fit_and_evaluate", recording)
    st.cache_data.clear()
    at = cluster(**SMALL, algos="kmeans,mspc-mpm")
    assert_clean(at)
    at.select_slider(key="lam").set_value(5.0).run()
    at.selectbox(key="regularizer").set_value("identity").run()
    assert_clean(at)
    last = {key: (params, lam, reg) for key, params, lam, reg in calls}
    mspc_params, mspc_lam, mspc_reg = last["mspc-mpm"]
    assert (mspc_params["lam"], mspc_params["regularizer"]) == (5.0, "identity")
    assert (mspc_lam, mspc_reg) == (5.0, "identity")
    kmeans_params, kmeans_lam, kmeans_reg = last["kmeans"]
    assert "lam" not in kmeans_params
    assert (kmeans_lam, kmeans_reg) == (5.0, "identity")
