"""Each fit's cost is predicted once, and one rule (:func:`lab.budget.decide`) says which
fits start without a click."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from clustering._cost import HARD_CAP_SECONDS, Cost
from lab.budget import AUTO_RUN_SECONDS, REFUSED, RUN, WAITS, auto_run, decide

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


def test_the_cluster_path_predicts_each_fit_once(monkeypatch, blobs):
    """plan -> run_planned -> fit_many -> fit: one prediction per method by the lab, not
    five (the estimator's own ``fit`` still checks its hard cap, for use outside the lab)."""
    import clustering._cost as cost_module
    from ui import cache, runs, state

    calls: list[str] = []
    real = cost_module.predict_cost

    def counting(key, *args, **kwargs):
        calls.append(key)
        return real(key, *args, **kwargs)

    for module in (runs, cache):
        monkeypatch.setattr(module, "predict_cost", counting)
    monkeypatch.setattr(state, "approved_runs", lambda: set())
    X, y = blobs
    keys = ["kmeans", "mspc-mpm", "mspc-eig"]
    planned = runs.plan(keys, {}, X.shape[0], X.shape[1], msp=(0.1, "diag"))
    fitted, waiting = runs.run_planned(
        planned, autorun=True, data_fingerprint="cost-once", X=X, y=y, msp=(0.1, "diag")
    )
    assert sorted(fitted) == sorted(keys) and not waiting
    assert all(r.ok for r in fitted.values())
    assert sorted(calls) == sorted(keys)


def test_a_fit_without_a_cost_predicts_it_itself_and_refuses_above_the_cap(monkeypatch):
    from ui import cache

    monkeypatch.setattr(cache, "predict_cost", lambda *a, **k: Cost(HARD_CAP_SECONDS * 2, 0))
    X = np.zeros((10, 2))
    result = cache.fit("kmeans", {}, "cost-once-refused", X, clicked=True)
    assert result.error_type == "TooExpensiveError"
    assert "above this machine's cap" in result.error


@pytest.mark.parametrize("seconds", [AUTO_RUN_SECONDS * 2])
def test_a_fit_above_the_auto_run_limit_waits_for_its_click(seconds):
    from ui import cache

    X = np.zeros((10, 2))
    result = cache.fit("kmeans", {}, "cost-once-wait", X, cost=Cost(seconds, 0))
    assert result.error_type == cache.WAITS_FOR_CLICK
