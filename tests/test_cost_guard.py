"""No link or page starts more than the auto-run time of work without a click, and every
method refuses, before starting, a fit this machine cannot finish.

* several methods each under the auto-run limit do not add up past it
  (:func:`lab.budget.within_budget`, used by the Cluster page's guard, ``fit_many``
  and the Compare grid);
* the hostile links of the report: Cluster with ``data=spam&algos=mvc-hard,mmc-nmi,
  itersvr-rbf`` and Compare with k = 10 and every method;
* the estimators themselves refuse N = 200,000 where the cost model says the fit cannot
  finish, with the predicted time and memory.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from clustering import ALGORITHMS, _cost
from clustering._cost import Cost, predict_cost
from clustering.exceptions import TooExpensiveError
from lab.budget import AUTO_RUN_SECONDS, within_budget

AppTest = pytest.importorskip("streamlit.testing.v1").AppTest
ROOT = Path(__file__).resolve().parents[1]
APP = str(ROOT / "app.py")


def test_within_budget_adds_the_runs_up():
    costs = [Cost(4.0, 0), Cost(4.0, 0), Cost(4.0, 0), Cost(1.0, 0), Cost(11.0, 0)]
    assert within_budget(costs) == [True, True, False, True, False]
    started = [c for c, ok in zip(costs, within_budget(costs), strict=True) if ok]
    assert sum(c.seconds for c in started) <= AUTO_RUN_SECONDS


@pytest.fixture
def recorded_fits(monkeypatch):
    """The registry keys the app starts fitting (the fits themselves are not run)."""
    import streamlit as st

    import ui.cache
    from lab.evaluation import FitOutcome

    started = []

    def fake(key, params, X, y=None, **kwargs):
        started.append(key)
        return FitOutcome(key=key, name=key, params=dict(params), error="not run in this test",
                          error_type="SolverFailedError")  # fmt: skip

    monkeypatch.setattr(ui.cache, "fit_and_evaluate", fake)
    # The fake results must not stay in any cache (the Home demos cache what they show).
    st.cache_data.clear()
    yield started
    st.cache_data.clear()


def _predicted(keys, n, d, k=2):
    return sum(predict_cost(key, n, d, {"n_clusters": k} if k != 2 else {}).seconds for key in keys)


def test_three_methods_of_six_seconds_do_not_all_start(monkeypatch, recorded_fits):
    models = dict(_cost._MODELS)
    for key in ("kmeans", "lda-kmeans", "mspc-eig"):
        models[key] = (0.0, 1, 0, 0, 24, 0, 0, 6.0)  # 6 s whatever the size
    monkeypatch.setattr(_cost, "_MODELS", models)
    # Cluster opened directly: Home's breast demo fits k-means with Cluster's settings (one
    # MSP per labeling), so a Home visit first would leave that fit cached.
    at = AppTest.from_file(str(ROOT / "pages" / "2_Cluster.py"), default_timeout=120)
    at.query_params["algos"] = "kmeans,lda-kmeans,mspc-eig"
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    assert len(recorded_fits) == 1  # the first in the registry's order
    assert sum("press **Run**" in i.value for i in at.info) == 2


def test_the_spam_link_starts_at_most_the_auto_run_time(recorded_fits):
    import datasets

    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["data"] = "spam"
    at.query_params["algos"] = "mvc-hard,mmc-nmi,itersvr-rbf"
    at.run()
    recorded_fits.clear()  # the Home page's demos
    at.switch_page("pages/2_Cluster.py").run()
    assert not at.exception, [e.message for e in at.exception]
    ds = datasets.normalize(datasets.load("spam"))
    assert _predicted(recorded_fits, *ds.shape) <= AUTO_RUN_SECONDS
    assert "itersvr-rbf" not in recorded_fits and "mmc-nmi" not in recorded_fits


def test_the_compare_grid_starts_at_most_the_auto_run_time(monkeypatch):
    import datasets
    from lab import compare

    started = []

    def fake(row, key, params, msp_lam=None, msp_regularizer=None):
        started.append((row.name, key, np.asarray(row.X).shape))
        return compare.CompareCell(row.name, key, "error", message="not run in this test")

    monkeypatch.setattr(compare, "_fit_cell", fake)
    letter = datasets.normalize(datasets.load("letter"))
    rows = [*compare.standard_rows("letter"), compare.CompareRow("letter", letter.X, letter.y)]
    cells = compare.compare_grid(rows, list(ALGORITHMS), n_clusters=10, n_jobs=1)
    total = sum(
        predict_cost(key, n, d, {} if ALGORITHMS[key].binary_only else {"n_clusters": 10}).seconds
        for _, key, (n, d) in started
    )
    assert total <= AUTO_RUN_SECONDS
    skipped = [c for row in cells for c in row if c.status == "skipped"]
    assert any("past the grid's" in c.message for c in skipped)


N_BIG = 200_000


@pytest.mark.parametrize(
    "key",
    [
        "spectral",
        "smic",
        "itersvr",
        "itersvr-rbf",
        "mmc-nmi",
        "mmc-rand",
        "mmc-f",
        "mmc-error",
        "mvc-soft",
    ],
)
def test_estimators_refuse_what_they_cannot_finish_before_starting(key):
    X = np.random.default_rng(0).normal(size=(N_BIG, 10))
    cost = predict_cost(key, N_BIG, 10)
    assert cost.refused
    with pytest.raises(TooExpensiveError, match=r"predicted to take .* above this machine"):
        ALGORITHMS[key].factory().fit(X)
