"""AppTest: every page scores every MSP it shows with one λ and Λ, named on the page.

Methods that find the same clusters must show the same MSP, whatever their own parameters
(k-means has no λ; MSPC has one): on the AFS trap every method below finds the classes.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import open_app

AppTest = pytest.importorskip("streamlit.testing.v1").AppTest

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 240
TRAP = {"data": "synthetic:afs_trap", "norm": "1", "lam": "0.2", "reg": "diag"}
METHODS = "mspc-mpm,kmeans,lda-kmeans,spectral"


def _open(page: str, query: dict) -> AppTest:
    return open_app(page, query, timeout=TIMEOUT)


def _same_accuracy_same_msp(table, accuracy: str, msp: str) -> None:
    """On the AFS trap, methods with the same accuracy found the same clusters (checked by
    hand: k-means, LDA-k-means and spectral 0.995, whose affinity="auto" now keeps the
    k-NN labeling; MSPC 0.9925): their MSPs agree."""
    groups = [g for _, g in table.groupby(table[accuracy].round(6)) if len(g) > 1]
    assert len(groups) >= 1, table
    for group in groups:
        assert np.ptp(group[msp].to_numpy(float)) < 1e-9, group


def test_cluster_scores_identical_clusters_with_one_msp():
    at = _open("pages/2_Cluster.py", {**TRAP, "algos": METHODS})
    table = next(d.value for d in at.dataframe if "MSP" in d.value.columns)
    _same_accuracy_same_msp(table, "accuracy", "MSP")


def _captions(at) -> str:
    """Every caption, with Markdown's escapes removed (``ui.text.plain`` escapes punctuation)."""
    return re.sub(r"\\(.)", r"\1", " ".join(c.value for c in at.caption))


def test_feature_scaling_scores_identical_clusters_with_one_msp():
    at = _open("pages/3_Feature_scaling.py", {**TRAP, "algos": METHODS})
    table = at.dataframe[0].value
    _same_accuracy_same_msp(table, "accuracy_before", "msp_before")
    assert "λ = 0.2 and Λ = diag" in _captions(at)


def test_compare_scores_identical_clusters_with_one_msp_and_has_k():
    at = _open("pages/7_Compare.py", {**TRAP, "algos": METHODS})
    assert at.number_input(key="n_clusters").value == 2
    spec = json.loads(at.get("plotly_chart")[0].proto.spec)
    corners = [
        a["text"]
        for a in spec["layout"]["annotations"]
        if a.get("text", "").startswith(("acc ", "not run", "failed"))
    ]
    first_row = corners[: len(METHODS.split(","))]  # AFS trap ×1: every method finds it
    # Corners give three decimals, as every table: the methods that find the trap's classes
    # (the same accuracy) show the same in-sample MSP.
    top = max(re.search(r"acc ([0-9.]+)", c).group(1) for c in first_row)
    found = [c for c in first_row if c.startswith(f"acc {top} ")]
    msps = {re.search(r"MSP ([0-9.]+)", c).group(1) for c in found}
    assert len(found) >= 3 and float(top) > 0.99, first_row
    assert len(msps) == 1, first_row
    assert "λ = 0.2 and Λ = diag" in _captions(at)


def test_the_afs_trap_springs_by_default_on_the_data_page():
    at = _open("pages/1_Data.py", {})
    assert at.toggle(key="data.normalize").value is True  # breast: the papers' [-1, 1]
    at.radio(key="data.source").set_value("synthetic").run()
    assert not at.exception
    assert at.selectbox(key="data.generator").value == "afs_trap"
    assert at.toggle(key="data.normalize").value is False
    choice = at.session_state["dcl.data"]
    assert (choice.name, choice.normalize) == ("afs_trap", False)
    assert choice.param_dict == {"scale": 10.0}  # noise as spread as ten clusters
    # ... and k-means falls into it on the Cluster page (0.502 raw; 0.995 scaled).
    at.switch_page("pages/2_Cluster.py").run()
    table = next(d.value for d in at.dataframe if "MSP" in d.value.columns)
    kmeans = table.set_index("algorithm").loc["k-means", "accuracy"]
    assert kmeans < 0.6, table
    # Another data set starts scaled again; a link to the trap without norm is raw.
    at.switch_page("pages/1_Data.py").run()
    at.radio(key="data.source").set_value("bundled").run()
    assert at.toggle(key="data.normalize").value is True
    assert at.session_state["dcl.data"].normalize is True
    from ui import url

    assert url.decode({"data": "synthetic:afs_trap"}).data.normalize is False
    assert url.decode({"data": "synthetic:afs_trap", "norm": "1"}).data.normalize is True


MOONS = {"data": "synthetic:moons", "lam": "0.2", "reg": "diag"}


@pytest.mark.parametrize(
    "page", ["pages/2_Cluster.py", "pages/3_Feature_scaling.py", "pages/7_Compare.py"]
)
def test_kernel_mspc_is_offered_with_its_width_and_rank(page):
    at = _open(page, {**MOONS, "algos": "mspc-rbf,kmeans"})
    key = "fs.algorithms" if "Feature" in page else "algorithms"
    assert "Kernel MSPC (RBF)" in at.multiselect(key=key).options
    assert at.multiselect(key=key).value == ["mspc-rbf", "kmeans"]
    text = _captions(at)
    assert re.search(r"RBF width γ = [0-9.]+ \(from the data\) · rank \d+", text), text


def test_beyond_the_papers_chart_shows_one_nmi_per_bar_with_display_names():
    at = _open("pages/6_Reproduce.py", {})
    at.selectbox(key="repro.experiment").set_value("multiclass").run()
    assert not at.exception
    charts = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    bars = [t for c in charts for t in c["data"] if t.get("type") == "bar"]
    assert bars, "no bar chart"
    names = {t["name"] for t in bars}
    assert "Kernel MSPC (RBF)" in names and "mspc-rbf" not in names, names
    for t in bars:
        # plotly piles up the bars of one trace at the same x: the old chart drew MSPC
        # (MPM)'s six starts on wine-raw as one bar of 5.0
        assert len(set(t["x"])) == len(t["x"]), (t["name"], t["x"])
        assert max(t["y"]) <= 1.0, (t["name"], max(t["y"]))
    assert all(c["layout"].get("barmode") != "stack" for c in charts)


#: What a user must never read: the project's bookkeeping instead of the product.
INTERNAL = re.compile(
    r"\bissue \d|tests/|test_\w+\.py|\w+\.txt\b|shared/papers|Source: `?none", re.IGNORECASE
)


def _user_text(at) -> list[str]:
    out = []
    for kind in ("markdown", "caption", "info", "warning", "error", "success", "title"):
        out += [str(el.value) for el in getattr(at, kind)]
    out += [str(el.value) for el in at.header] + [str(el.value) for el in at.subheader]
    for kind in ("selectbox", "multiselect", "slider", "button", "toggle", "radio", "checkbox"):
        for w in getattr(at, kind):
            out += [str(getattr(w, "label", "")), str(getattr(w, "help", "") or "")]
    out += [d.value.to_string() for d in at.dataframe]
    return out


def test_no_internal_references_on_any_page():
    from lab.experiments import EXPERIMENTS

    found = []
    for page in sorted(p.name for p in (ROOT / "pages").glob("[0-9]*_*.py")):
        at = _open(f"pages/{page}", {})
        if page == "6_Reproduce.py":
            for name in EXPERIMENTS:
                at.selectbox(key="repro.experiment").set_value(name).run()
                assert not at.exception
                found += [
                    (f"{page} {name}", m.group())
                    for t in _user_text(at)
                    for m in INTERNAL.finditer(t)
                ]
            continue
        found += [(page, m.group()) for t in _user_text(at) for m in INTERNAL.finditer(t)]
    assert not found, found


def test_learn_multiclass_table_has_no_bare_none():
    at = _open("pages/5_Learn.py", {"data": "iris"})
    table = next(d.value for d in at.dataframe if "MSP_k" in d.value.columns)
    assert not table.isna().any().any(), table
    assert "— (k = 3)" in set(table["binary MSP (k = 2)"]), table


def test_presenter_mode_enlarges_chart_text_and_names_slides_by_page_method_and_data():
    at = _open("pages/2_Cluster.py", {"data": "breast", "algos": "mspc-mpm,kmeans", "present": "1"})
    specs = {c.proto.id: json.loads(c.proto.spec) for c in at.get("plotly_chart") if c.proto.spec}
    assert specs
    for chart_id, spec in specs.items():
        layout = spec["layout"]
        # 1.5 times the page's 12 px; a lesson figure whose legend rows would squeeze its
        # plot grows its text 1.2 times instead (ui.lesson), never below the projector's 16 px.
        least = 16 if "lesson" in chart_id else 18
        assert layout["font"]["size"] >= least, (chart_id, layout["font"])
        for name, axis in layout.items():
            if name.startswith(("xaxis", "yaxis")):
                assert axis["tickfont"]["size"] >= 16, (name, axis.get("tickfont"))
        for note in layout.get("annotations", []):
            assert note["font"]["size"] >= 16
    names = [name for name, _ in at.session_state["presenter.figures"]]
    assert "Cluster - MSPC (MPM) - breast - MSP" in " | ".join(names), names
    assert any(n.startswith("Cluster - k-means - breast") for n in names), names
    (prepare,) = [b for b in at.button if b.key == "presenter.prepare"]
    assert f"{len(names)} figures" in prepare.label
    # Off: the page's own sizes (Streamlit's 12 px base).
    at.toggle(key="presenter.toggle").set_value(False).run()
    small = [
        json.loads(c.proto.spec)["layout"].get("font", {}).get("size")
        for c in at.get("plotly_chart")
    ]
    assert all(s is None or s < 18 for s in small), small


def _titles(at) -> list[str]:
    out = []
    for c in at.get("plotly_chart"):
        title = json.loads(c.proto.spec)["layout"].get("title", {})
        out.append(title.get("text", "") if isinstance(title, dict) else str(title))
    return out


def test_k_follows_the_data_and_the_margin_view_shows_one_cluster_against_the_rest():
    at = _open("pages/1_Data.py", {"algos": "mspc-mpm,kmeans"})
    at.radio(key="data.source").set_value("multiclass").run()
    at.selectbox(key="data.multiclass").set_value("iris").run()
    assert at.session_state["dcl.data"].name == "iris"
    at.switch_page("pages/2_Cluster.py").run()
    assert not at.exception, [e.message for e in at.exception]
    assert at.number_input(key="n_clusters").value == 3
    assert "k = 3: the number of classes of iris." in _captions(at)
    # k > 2: one cluster against the rest instead of a notice, for every method.
    assert not any("two clusters" in i.value for i in at.info)
    titles = _titles(at)
    assert sum("cluster 0 vs the rest" in t for t in titles) == 2, titles
    at.selectbox(key="cluster.vs_rest").set_value(2).run()
    titles = _titles(at)
    assert sum("cluster 2 vs the rest" in t for t in titles) == 2, titles
    # Compare follows the same k.
    at.switch_page("pages/7_Compare.py").run()
    assert at.number_input(key="n_clusters").value == 3


def test_a_method_waiting_for_its_button_says_why_in_the_metrics_table():
    at = _open("pages/2_Cluster.py", {"data": "ionosphere", "algos": "mspc-mpm,kmeans", "k": "3"})
    table = next(d.value for d in at.dataframe if "algorithm" in d.value.columns)
    rows = table.set_index("algorithm")
    assert "MSPC (MPM)" in rows.index, table
    assert rows.loc["MSPC (MPM)", "error"].startswith("waits for its Run button (predicted ")
    assert not rows.loc["k-means", "error"]


def test_msp_vs_accuracy_shows_the_papers_experiment_on_first_visit_at_the_labs_lam():
    at = _open("pages/4_MSP_vs_accuracy.py", {})
    assert at.radio(key="mva.family").value == "tasks"
    keys = [c.proto.id for c in at.get("plotly_chart")]
    assert len(keys) == 1, "the page is empty until a click"
    assert not at.info
    assert "λ = 0.2 and Λ = diag" in _captions(at)
    # One λ for every MSP: the slider is the lab's λ, in both views.
    assert at.select_slider(key="mva.lam").value == 0.2
    at.radio(key="mva.family").set_value("lam").run()
    assert not at.exception
    assert at.select_slider(key="mva.lam").value == 0.2
    assert "λ = 0.2 and Λ = diag" in _captions(at)


def test_the_tasks_demo_button_opens_the_experiment_the_demo_shows():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT)
    at.run()
    assert not at.exception
    demo = next(d.value for d in at.dataframe if "paper_r" in d.value.columns)
    at.button(key="demo.tasks").click().run()
    assert not at.exception, [e.message for e in at.exception]
    assert at.radio(key="mva.family").value == "tasks"
    page = next(d.value for d in at.dataframe if "paper_r" in d.value.columns)
    assert [f"{f} ({n})" for f, n in zip(page["family"], page["tasks"], strict=True)] == demo[
        "family"
    ].tolist()
    assert np.allclose(page["r_heldout"], demo["r_heldout"], rtol=0, atol=1e-12)


def test_one_labeling_shows_one_msp_on_home_cluster_and_msp_vs_accuracy():
    """Issue 33, item 4: k-means, MSPC (MPM) and MSPC (EIG) on breast show the same two
    MSPs on Home's demo, on the Cluster page its button opens, and (MSPC (MPM)) in the
    breast row of MSP vs accuracy's tasks."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT)
    at.run()
    home = next(d.value for d in at.dataframe if "msp_heldout" in d.value.columns)
    home = home.set_index("method")
    at.button(key="demo.breast").click().run()
    assert not at.exception, [e.message for e in at.exception]
    cluster = next(d.value for d in at.dataframe if "held-out MSP" in d.value.columns)
    cluster = cluster.set_index(cluster.columns[0])
    for method, row in home.iterrows():
        assert cluster.loc[method, "held-out MSP"] == pytest.approx(row["msp_heldout"], abs=5e-4)
        assert cluster.loc[method, "accuracy"] == pytest.approx(row["accuracy"], abs=5e-4)
    mva = _open("pages/4_MSP_vs_accuracy.py", {"data": "breast", "norm": "1"})
    runs = next(d.value for d in mva.dataframe if "msp_heldout" in d.value.columns)
    breast = runs.set_index("name").loc["breast"]
    assert breast["msp_heldout"] == pytest.approx(home.loc["MSPC (MPM)", "msp_heldout"], abs=1e-12)
    assert breast["accuracy"] == pytest.approx(home.loc["MSPC (MPM)", "accuracy"], abs=1e-12)


def test_table2_chart_tells_variants_apart_and_clips_no_bar():
    from lab.experiments import EXPERIMENTS, PUBLISHED_DIR, load_stored
    from lab.plots import apply_method_style

    result = load_stored("table2", PUBLISHED_DIR)
    fig = apply_method_style(EXPERIMENTS["table2"].figures(result)[0])
    bars = [t for t in fig.data if t.type == "bar"]
    looks = [(t.marker.color, t.marker.pattern.shape) for t in bars]
    assert len(set(looks)) == len(bars), looks  # a monotone variant is hatched
    top = max(max(v for v in t.y if v == v) for t in bars)
    assert fig.layout.yaxis.range[1] > top  # spam's k-means bar (40.13 %) is not cut at 40


def test_objective_panels_show_a_sensible_range_and_no_one_dot_panel():
    from lab.plots.grid import objective_grid

    fig = objective_grid({"MSPC (MPM)": [0.8885, 0.8887], "MSPC (EIG)": [0.71]})
    assert [t.name for t in fig.data] == ["MSPC (MPM)"]
    low, high = fig.layout.yaxis.range
    assert high - low >= 0.01 * 0.8887  # a rise of 0.0002 is a small rise on this axis
    assert low < 0.8885 and high > 0.8887


def test_the_sidebars_lam_and_lambda_reach_every_msp_of_home_and_msp_vs_accuracy():
    """λ takes one route: the link's (the sidebar's) λ and Λ are the ones Home's demos and
    MSP vs accuracy fit and score with, named on both pages (issue 33: the MSP page scored
    at λ = 0.01 whatever the sidebar said)."""
    import datasets
    from lab.evaluation import fit_and_evaluate

    query = {"lam": "0.5", "reg": "identity"}
    ds = datasets.load("breast", normalize=True)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT)
    for k, v in query.items():
        at.query_params[k] = v
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    assert "λ = 0.5 and Λ = identity" in _captions(at)
    home = next(d.value for d in at.dataframe if "msp_heldout" in d.value.columns)
    km = fit_and_evaluate("kmeans", {}, ds.X, ds.y, msp_lam=0.5, msp_regularizer="identity")
    assert home.set_index("method").loc["k-means", "msp_heldout"] == pytest.approx(
        km.msp_heldout, abs=1e-12
    )
    mva = _open("pages/4_MSP_vs_accuracy.py", query)
    assert "λ = 0.5 and Λ = identity" in _captions(mva)
    runs = next(d.value for d in mva.dataframe if "msp_heldout" in d.value.columns)
    mspc = fit_and_evaluate(
        "mspc-mpm",
        {"lam": 0.5, "regularizer": "identity"},
        ds.X,
        ds.y,
        msp_lam=0.5,
        msp_regularizer="identity",
    )
    row = runs.set_index("name").loc["breast"]
    assert row["msp_heldout"] == pytest.approx(mspc.msp_heldout, abs=1e-12)
    assert row["accuracy"] == pytest.approx(mspc.accuracy, abs=1e-12)
