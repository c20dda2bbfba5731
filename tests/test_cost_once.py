"""Each fit's cost is predicted once, and one rule (:func:`lab.budget.decide`) says which
fits start without a click."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from clustering._cost import HARD_CAP_SECONDS, Cost
from lab.budget import AUTO_RUN_SECONDS, REFUSED, RUN, WAITS, auto_run, decide
from tests.conftest import assert_clean, run_page

ROOT = Path(__file__).resolve().parents[1]

costs = st.lists(
    st.builds(
        Cost,
        st.floats(0.0, 2 * HARD_CAP_SECONDS, allow_nan=False),
        st.integers(0, 1 << 31),
    ),
    max_size=8,
)


@given(costs, st.data())
def test_decide_runs_what_was_clicked_or_fits_the_budget_and_refuses_above_the_cap(cs, data):
    clicked = data.draw(st.lists(st.booleans(), min_size=len(cs), max_size=len(cs)))
    verdicts = decide(cs, clicked)
    total = 0.0
    for cost, click, verdict in zip(cs, clicked, verdicts, strict=True):
        if cost.refused:
            assert verdict == REFUSED
        elif click:
            assert verdict == RUN
        elif verdict == RUN:
            assert auto_run(cost)
            total += cost.seconds
        else:
            assert verdict == WAITS
            # it waits only because it is above the limits or past the budget so far
            assert not auto_run(cost) or total + cost.seconds > AUTO_RUN_SECONDS
    assert total <= AUTO_RUN_SECONDS


def _count_predictions(monkeypatch) -> list[tuple]:
    """Record every call of the cost model made outside the library (the estimators' own
    hard-cap check in ``fit`` is the library's, for use outside the lab): ``(key, n, d,
    params, caller)``, whichever module bound the function."""
    import clustering._cost as cost_module

    real = cost_module.predict_cost
    calls: list[tuple] = []

    def counting(key, n_samples, n_features, params=None):
        caller = sys._getframe(1)
        module = caller.f_globals.get("__name__", "")
        if not module.startswith("clustering"):
            frozen = tuple(sorted((k, repr(v)) for k, v in dict(params or {}).items()))
            site = f"{module}.{caller.f_code.co_name}"
            calls.append((key, int(n_samples), int(n_features), frozen, site))
        return real(key, n_samples, n_features, params)

    for module in list(sys.modules.values()):
        if getattr(module, "predict_cost", None) is real:
            monkeypatch.setattr(module, "predict_cost", counting)
    return calls


def test_the_cluster_path_predicts_each_fit_once(monkeypatch, blobs):
    """plan -> run_planned -> fit_many -> fit: one prediction per method by the lab, not
    five (the estimator's own ``fit`` still checks its hard cap, for use outside the lab)."""
    from ui import runs, state

    calls = _count_predictions(monkeypatch)
    monkeypatch.setattr(state, "approved_runs", lambda: set())
    X, y = blobs
    keys = ["kmeans", "mspc-mpm", "mspc-eig"]
    planned = runs.plan(keys, {}, X.shape[0], X.shape[1], msp=(0.1, "diag"))
    fitted, waiting = runs.run_planned(
        planned, autorun=True, data_fingerprint="cost-once", X=X, y=y, msp=(0.1, "diag")
    )
    assert sorted(fitted) == sorted(keys) and not waiting
    assert all(r.ok for r in fitted.values())
    assert sorted(c[0] for c in calls) == sorted(keys)


def _page_run(page: str, query: dict[str, str]):
    """One run of ``page`` with ``query`` in its link, on empty caches (a cached grid would
    hide its predictions)."""
    import streamlit as st

    st.cache_data.clear()
    at = run_page(str(ROOT / "pages" / page), timeout=300, **query)
    assert_clean(at)
    return at


#: Two cheap methods on small data, so every page runs its fits.
TWO = {"algos": "kmeans,mspc-eig"}
SMALL = {"data": "synthetic:two_gaussians", "gen": "n_samples=80;n_features=3", "norm": "1"}


def test_a_cluster_page_run_predicts_each_fit_once_and_only_in_the_lab_s_one_place(
    monkeypatch,
):
    """The Cluster page: each planned method's cost once (the replay's estimate reuses
    MSPC's), the MSP curve's once, all by :func:`lab.budget.fit_cost`."""
    calls = _count_predictions(monkeypatch)
    _page_run("2_Cluster.py", {**SMALL, "algos": "kmeans,mspc-mpm"})
    assert {c[4] for c in calls} == {"lab.budget.fit_cost"}
    fits = [c[:4] for c in calls]
    assert len(fits) == len(set(fits)), fits  # no fit predicted twice
    planned = [c for c in calls if c[3]]  # the methods, with their parameters
    assert sorted(c[0] for c in planned) == ["kmeans", "mspc-mpm"]
    assert len(calls) == len(planned) + 1  # and the curve's one estimate, without any


def test_a_compare_page_run_predicts_each_cell_once(monkeypatch):
    from lab.compare import standard_rows

    calls = _count_predictions(monkeypatch)
    _page_run("7_Compare.py", {**SMALL, **TWO})
    assert {c[4] for c in calls} == {"lab.budget.fit_cost"}
    rows = len(standard_rows("breast")) + 1  # and the current data
    assert len(calls) == rows * 2


def test_a_feature_scaling_run_predicts_each_fit_once(monkeypatch):
    calls = _count_predictions(monkeypatch)
    _page_run("3_Feature_scaling.py", {**SMALL, **TWO})
    assert {c[4] for c in calls} == {"lab.budget.fit_cost"}
    assert len(calls) == 2 * 2  # two methods, before and after the rescaling


def test_the_lam_sweep_predicts_each_run_once_with_the_parameters_it_fits_with(monkeypatch):
    """MSP vs accuracy across λ: one prediction per λ of the sweep, each with that λ (the
    rule once predicted one run with the defaults and each fit predicted itself again)."""
    from lab.experiments.protocols import DEFAULT_LAMS

    calls = _count_predictions(monkeypatch)
    _page_run("4_MSP_vs_accuracy.py", {**SMALL, "fam": "lam"})
    assert {c[4] for c in calls} == {"lab.budget.fit_cost"}
    lams = sorted(float(dict(c[3])["lam"]) for c in calls)
    assert lams == sorted(float(v) for v in DEFAULT_LAMS)


@pytest.mark.parametrize("seconds", [AUTO_RUN_SECONDS * 2])
def test_a_fit_above_the_auto_run_limit_waits_for_its_click(seconds):
    from ui import cache

    X = np.zeros((10, 2))
    result = cache.fit("kmeans", {}, "cost-once-wait", X, cost=Cost(seconds, 0))
    assert result.error_type == cache.WAITS_FOR_CLICK


def test_the_view_across_tasks_predicts_each_fit_once_and_hands_it_to_the_fit(monkeypatch):
    """MSP vs accuracy across tasks: each task's fit predicted once when the view is
    planned (not once by the auto-run rule and again by the fit), and a fit through the
    batch's evaluator gets that cost."""
    import datasets
    from lab.experiments.families import PAPER_FAMILIES
    from ui import analysis, cache

    calls = _count_predictions(monkeypatch)
    batch = analysis.plan_runs("tasks", "mspc-eig", {}, 0.2, "diag", datasets.load("breast"))
    assert len(calls) == len(batch.costs) > 0
    assert batch.auto_run  # MSPC (EIG) is measured quick on the tasks
    task = cache.load_bundled(PAPER_FAMILIES[0].tasks[0], True)
    params = {"lam": 0.2, "regularizer": "diag"}  # what families_table fits with
    out = batch.evaluator()("mspc-eig", params, task.X, task.y, msp_lam=0.2, msp_regularizer="diag")
    assert out.ok
    assert len(calls) == len(batch.costs)
