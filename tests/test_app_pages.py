"""Page tests with Streamlit's AppTest: home, Data and Cluster pages.

Pages are opened through ``app.py`` (the entry point that registers every page) and
``AppTest.switch_page``, as a user would navigate. Each test asserts on widgets found by
key, on the session state and on the absence of exceptions.
"""

from __future__ import annotations

import numpy as np
import pytest

from clustering import ALGORITHMS
from lab.evaluation import fit_and_evaluate
from tests.conftest import assert_clean, open_app, two_gaussians, unescaped

AppTest = pytest.importorskip("streamlit.testing.v1").AppTest

TIMEOUT = 120


def open_page(page: str | None = None, query: dict | None = None):
    return open_app(page, query, timeout=TIMEOUT)


def test_home_page_and_demo_sets_up_the_cluster_page():
    at = open_page()
    assert_clean(at)
    assert "Discriminative Clustering Lab" in at.title[0].value
    lam = at.session_state["dcl.lam"]
    at.button(key="demo.breast").click().run()
    assert_clean(at)
    assert at.session_state["dcl.algorithms"] == ["mspc-mpm", "mspc-eig", "kmeans"]
    # The demo runs at the lab's one λ, so the page it opens shows the same MSPs.
    assert at.session_state["dcl.lam"] == lam
    # The demo switched to the Cluster page and ran it.
    assert at.title[0].value == "Cluster"
    assert len(at.get("plotly_chart")) >= 3


def test_data_page_default_and_switching_task():
    at = open_page("pages/1_Data.py")
    assert_clean(at)
    assert at.session_state["dcl.data_chosen"] is False
    at.selectbox(key="data.task").set_value("diabetes").run()
    assert_clean(at)
    assert at.session_state["dcl.data"].name == "diabetes"
    assert at.session_state["dcl.data_chosen"] is True
    assert at.query_params["data"] == "diabetes"
    at.toggle(key="data.normalize").set_value(False).run()
    assert_clean(at)
    assert at.session_state["dcl.data"].normalize is False


def test_data_page_synthetic_generator():
    at = open_page("pages/1_Data.py")
    at.radio(key="data.source").set_value("synthetic").run()
    at.selectbox(key="data.generator").set_value("two_gaussians").run()
    assert_clean(at)
    assert at.session_state["dcl.data"].kind == "synthetic"
    assert at.session_state["dcl.data"].name == "two_gaussians"


def test_bad_upload_shows_the_dataset_error_and_keeps_the_data():
    at = open_page("pages/1_Data.py")
    at.radio(key="data.source").set_value("upload").run()
    at.file_uploader(key="data.upload").upload("bad.csv", b"a,b\n1,2\n", "text/csv").run()
    assert not at.exception
    assert at.error, "a bad file must produce st.error"
    assert "bad.csv" in unescaped(at.error[0].value) and "at least 4" in at.error[0].value
    assert at.session_state["dcl.data"].name == "breast"  # the previous data stays


def test_good_upload_becomes_the_data_set():
    rng = np.random.default_rng(0)
    rows = "\n".join(
        f"{a:.3f},{b:.3f},{c}"
        for a, b, c in zip(rng.normal(size=30), rng.normal(size=30), ["x", "y"] * 15, strict=True)
    )
    at = open_page("pages/1_Data.py")
    at.radio(key="data.source").set_value("upload").run()
    at.file_uploader(key="data.upload").upload("mine.csv", f"u,v,label\n{rows}\n".encode()).run()
    assert_clean(at)
    assert at.session_state["dcl.data"].kind == "upload"
    assert at.session_state["dcl.data"].name == "mine.csv"


def test_cluster_page_default_path():
    at = open_page("pages/2_Cluster.py")
    assert_clean(at)
    assert any(c.value.startswith("Using the default data set **breast**") for c in at.caption)
    frame = at.dataframe[0].value
    assert set(frame["algorithm"]) == {ALGORITHMS[k].name for k in ("kmeans", "mspc-mpm")}
    assert frame["accuracy"].min() > 0.9  # both methods find the diagnosis on breast
    # Per method a scatter and a margin histogram; one objective plot. The guarantee curves
    # and the step-through are drawn on request.
    keys = {c.key for c in at.get("plotly_chart")}
    assert "lesson.scatter" in keys  # the lesson's figure, then the folded sections'
    for method in ("kmeans", "mspc-mpm"):
        assert {f"scatter.{method}", f"margins.{method}"} <= keys
        assert f"guarantee.{method}" not in keys
    assert "objective" in keys and "mspc.steps" not in keys
    at.toggle(key="cluster.guarantee_on").set_value(True).run()
    assert_clean(at)
    keys = {c.key for c in at.get("plotly_chart")}
    assert {"guarantee.kmeans", "guarantee.mspc-mpm"} <= keys


def test_cluster_page_slider_change_reruns_with_new_lam():
    at = open_page("pages/2_Cluster.py")
    msp_before = at.dataframe[0].value.set_index("algorithm")["MSP"]
    at.select_slider(key="lam").set_value(100.0).run()
    assert_clean(at)
    assert at.session_state["dcl.lam"] == 100.0
    assert at.query_params["lam"] == "100"
    msp_after = at.dataframe[0].value.set_index("algorithm")["MSP"]
    # More regularisation makes every labeling look less separable.
    assert (msp_after < msp_before).all()
    at.selectbox(key="view").set_value("features").run()  # the lesson's compact view control
    assert_clean(at)
    assert at.session_state["dcl.view"] == "features:0,1"


def test_url_state_is_restored():
    at = open_page(
        "pages/2_Cluster.py",
        query={
            "data": "iris:setosa-vs-versicolor",
            "algos": "mspc-eig",
            "lam": "0.1",
            "reg": "identity",
            "view": "pca",
        },
    )
    assert_clean(at)
    assert at.session_state["dcl.data"].name == "iris:setosa-vs-versicolor"
    assert at.multiselect(key="algorithms").value == ["mspc-eig"]
    assert at.select_slider(key="lam").value == 0.1
    assert at.selectbox(key="regularizer").value == "identity"
    assert at.selectbox(key="view").value == "pca"
    assert at.dataframe[0].value["accuracy"].iloc[0] == 1.0  # setosa is linearly separable


def test_bad_url_falls_back_to_default_with_a_warning():
    at = open_page(None, query={"data": "no-such-data", "lam": "abc", "algos": "mspc-eig"})
    assert not at.exception
    text = " ".join(unescaped(w.value) for w in at.warning)
    assert "no-such-data" in text and "lam" in text
    assert at.session_state["dcl.data"].name == "breast"
    assert at.session_state["dcl.algorithms"] == ["mspc-eig"]  # the good parts are kept


def _small():
    X, y = two_gaussians(n_per=20, d=2, gap=8.0, seed=0)
    return X, y


@pytest.mark.parametrize("key", list(ALGORITHMS))
def test_every_registered_algorithm_through_the_cached_fit(key):
    """What the Cluster page calls: ui.cache.fit (never raises) on a small data set."""
    from ui import cache

    X, y = _small()
    spec = ALGORITHMS[key]
    params = {**spec.defaults(), **spec.test_params}
    result = cache.fit(key, params, f"small-{key}", X, y, msp_lam=1.0, msp_regularizer="diag")
    assert result.ok, result.error
    direct = fit_and_evaluate(key, params, X, y, msp_lam=1.0, msp_regularizer="diag")
    np.testing.assert_array_equal(result.labels, direct.labels)
    assert result.metrics["accuracy"] == 1.0
    assert result.labels.shape == (40,)


def test_every_registered_algorithm_on_the_cluster_page():
    """All methods at once on a small synthetic data set: no exception, one row each."""
    at = open_page("pages/1_Data.py")
    at.radio(key="data.source").set_value("synthetic").run()
    at.selectbox(key="data.generator").set_value("two_gaussians").run()
    at.slider(key="gen.two_gaussians.n_samples").set_value(40).run()
    at.switch_page("pages/2_Cluster.py").run()
    at.multiselect(key="algorithms").set_value(list(ALGORITHMS)).run()
    assert not at.exception, [e.message for e in at.exception]
    frame = at.dataframe[0].value
    assert len(frame) == len(ALGORITHMS)
    failed = frame[frame.get("error", "").astype(bool)] if "error" in frame else frame[:0]
    # Methods may refuse (too large, degenerate) but then say so in place of the result.
    for name in failed["algorithm"]:
        assert any(name in e.value for e in at.error)


def test_solver_failure_is_a_message_not_a_traceback(monkeypatch):
    from clustering import SolverFailedError
    from clustering.mspc import MSPC

    def fail(self, X, y=None):
        raise SolverFailedError("The solver returned 'infeasible'. Try a larger lam.")

    monkeypatch.setattr(MSPC, "fit", fail)
    X, y = _small()
    result = fit_and_evaluate("mspc-mpm", {}, X, y)
    assert not result.ok and result.error_type == "SolverFailedError"
    assert "larger lam" in result.error


def test_lasso_constraints_reach_diffrac_and_are_honoured():
    """The constraints the lasso collects (kept per data set in session state) are passed to
    DIFFRAC's fit: a must-link between a benign and a malignant sample joins them."""
    import datasets
    from ui import state
    from ui.state import KEYS

    at = open_page("pages/2_Cluster.py")
    at.multiselect(key="algorithms").set_value(["diffrac"]).run()
    assert_clean(at)
    ds = datasets.load(datasets.DEFAULT_DATASET)
    from ui.cache import dataset_names

    fp = state.fingerprint(ds.X, ds.y, dataset_names(ds))  # the page's key: numbers and names
    i, j = int(np.flatnonzero(ds.y == 0)[0]), int(np.flatnonzero(ds.y == 1)[0])
    free = fit_and_evaluate("diffrac", {}, ds.X, ds.y)
    assert free.labels[i] != free.labels[j]  # unconstrained, they fall apart
    at.session_state[KEYS.CONSTRAINTS] = {fp: {"must": [(i, j)], "cannot": [], "anchor": i}}
    at.run()
    assert_clean(at)
    assert any("1 must-link" in c.value for c in at.caption)
    linked = fit_and_evaluate("diffrac", {}, ds.X, ds.y, must_link=[(i, j)])
    assert linked.labels[i] == linked.labels[j]
