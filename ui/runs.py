"""The cost guard: which fits a page may start (no page code here).

It sits between a control (a widget or a link) and a fit:

* :func:`plan` predicts every chosen method's time and memory once
  (:func:`lab.budget.fit_cost`) and marks the runs above this machine's hard cap as refused
  (:attr:`Cost.refused`); the :class:`Planned` record carries that cost to every consumer
  (the fit, the waiting button, the replay's estimate);
* a method whose prediction is under the auto-run limits (:func:`lab.budget.auto_run`) runs by
  itself; any other waits for its own button, which shows the prediction
  (:meth:`Cost.describe`);
* :func:`run_planned` applies the lab's one auto-run rule (:func:`lab.budget.decide`) to
  those predictions and hands each fit its cost and verdict (:func:`ui.cache.fit_many`), so
  a fit's cost is predicted once, here, and a refused run's result is the
  :class:`~clustering.exceptions.TooExpensiveError` message;
* :func:`plan_batch` does the same for fits a page starts together through an evaluator (the
  MSP vs accuracy page's tasks and λ sweep): each cost predicted once, the verdicts by
  :func:`lab.budget.decide`, both handed to each fit by :meth:`Batch.evaluator`.

Clicked runs are remembered per method and settings (:func:`ui.state.approve_runs`), so a
result stays on screen until a setting of that method changes. The parameters a method is
planned with are the ones it is fitted with: the page's λ and Λ are already in them
(:func:`ui.state.get_algorithm_params`); ``msp`` is only the MSP column's λ and Λ.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import numpy as np

from clustering import ALGORITHMS
from clustering._cost import Cost
from lab.budget import AUTO_RUN_BYTES, AUTO_RUN_SECONDS, RUN, WAITS, auto_run, decide, fit_cost
from lab.evaluation import FitOutcome

from . import cache, state

__all__ = [
    "AUTO_RUN_LIMIT",
    "CURVE_KS",
    "Batch",
    "Cost",
    "Planned",
    "curve_cost",
    "plan",
    "plan_batch",
    "planned_cost",
    "replay_cost",
    "run_planned",
]

#: The auto-run limits in words, for the page's messages.
AUTO_RUN_LIMIT = f"{AUTO_RUN_SECONDS:g} s or {AUTO_RUN_BYTES / (1 << 30):g} GiB"


@dataclass(frozen=True)
class Planned:
    """One method the page was asked to run, with its predicted cost.

    Attributes
    ----------
    key, name : str
        Registry key and display name.
    params : dict
        Every parameter the fit gets.
    signature : tuple
        What the result depends on (data, method, parameters, the MSP's λ and Λ,
        constraints): a click approves this signature.
    cost : Cost
        :func:`lab.budget.fit_cost` of the fit, predicted once by :func:`plan`.
    unavailable : str
        Why the method does not run at all here (a two-cluster method asked for k > 2),
        ``""`` otherwise.
    """

    key: str
    name: str
    params: dict = field(default_factory=dict)
    signature: tuple = ()
    cost: Cost = field(default_factory=lambda: Cost(0.0, 0))
    unavailable: str = ""

    @property
    def refused(self) -> bool:
        """Above this machine's hard cap: its fit returns the refusal, nothing runs."""
        return self.cost.refused

    @property
    def auto_run(self) -> bool:
        """Cheap enough to start without a click."""
        return not self.refused and auto_run(self.cost)

    def wait_message(self, n_samples: int, n_features: int) -> str:
        """Why this method waits for a click, with its prediction."""
        return (
            f"**{self.name}** is predicted to take {self.cost.describe()} on these data "
            f"({n_samples:,} samples × {n_features:,} features), above the "
            f"{AUTO_RUN_LIMIT} the lab starts by itself. Press the button to run it anyway."
        )


def plan(
    keys: Sequence[str],
    params: Mapping[str, Mapping[str, Any]],
    n_samples: int,
    n_features: int,
    *,
    msp: tuple[float, str] | None = None,
    context: tuple = (),
    n_clusters: int = 2,
) -> list[Planned]:
    """The predicted cost of fitting each of ``keys`` on ``n_samples x n_features`` data.

    ``params[key]`` are the method's parameters, as fitted. ``msp`` is ``(lam,
    regularizer)`` of the MSP column (for every method). ``context`` (the data fingerprint,
    constraints, ...) goes into each signature. With ``n_clusters > 2`` every method that can
    find more than two clusters gets ``n_clusters``; a two-cluster method
    (:attr:`AlgorithmSpec.binary_only`) is planned as ``unavailable`` with the reason. With 2
    nothing is added.
    """
    out = []
    for key in keys:
        p = dict(params.get(key, {}))
        spec = ALGORITHMS[key]
        if n_clusters != 2 and spec.binary_only:
            out.append(
                Planned(
                    key,
                    spec.name,
                    p,
                    (key, "binary"),
                    unavailable=f"{spec.name} is a two-cluster method by nature (one "
                    f"separating hyperplane), so it cannot find k = {n_clusters} clusters. Set "
                    "k = 2 to run it.",
                )
            )
            continue
        if n_clusters != 2:
            p["n_clusters"] = int(n_clusters)
        signature = (key, tuple(sorted((k, repr(v)) for k, v in p.items())), msp, context)
        out.append(Planned(key, spec.name, p, signature, fit_cost(key, n_samples, n_features, p)))
    return out


def planned_cost(planned: Sequence[Planned], key: str) -> Cost:
    """The cost :func:`plan` predicted for ``key`` (a ``KeyError`` if it was not planned)."""
    for p in planned:
        if p.key == key:
            return p.cost
    raise KeyError(f"{key!r} was not planned.")


def run_planned(
    planned: Sequence[Planned],
    *,
    autorun: bool,
    data_fingerprint: str,
    X: np.ndarray,
    y: np.ndarray | None,
    must_link=None,
    cannot_link=None,
    msp: tuple[float, str] | None = None,
) -> tuple[dict[str, FitOutcome], list[Planned]]:
    """Fit what may run now; return ``({key: result}, [methods still waiting])``.

    A method runs when it is cheap and ``autorun`` is on, when its current signature was
    approved by a click (:func:`ui.state.approve_runs`), or when it is refused (its result
    is then the refusal, and nothing runs).
    """
    approved = state.approved_runs()
    planned = [p for p in planned if not p.unavailable]
    clicked = [p.signature in approved for p in planned]
    # The lab's one auto-run rule (lab.budget.decide) on the costs plan() predicted: without a
    # click, the cheap runs start only while together they stay within the auto-run time
    # (three methods of 8 s each do not start 24 s of work); with autorun off, none does.
    verdicts = decide([p.cost for p in planned], clicked)
    if not autorun:
        pairs = zip(verdicts, clicked, strict=True)
        verdicts = [WAITS if v == RUN and not c else v for v, c in pairs]
    now = [p for p, v in zip(planned, verdicts, strict=True) if v != WAITS]
    waiting = [p for p, v in zip(planned, verdicts, strict=True) if v == WAITS]
    verdict = {p.key: v for p, v in zip(planned, verdicts, strict=True)}
    msp_lam, msp_regularizer = msp if msp is not None else (None, None)
    results = cache.fit_many(
        [p.key for p in now],
        {p.key: p.params for p in now},
        data_fingerprint,
        X,
        y,
        must_link=must_link,
        cannot_link=cannot_link,
        msp_lam=msp_lam,
        msp_regularizer=msp_regularizer,
        clicked=[p.key for p in now if p.signature in approved],
        costs={p.key: p.cost for p in now},
        decisions={p.key: verdict[p.key] for p in now},
    )
    return {r.key: r for r in results}, waiting


def replay_cost(planned_cost: Cost, n_iter: int | None) -> Cost:
    """A rough prediction for replaying a search of ``n_iter`` iterations: one fit per step
    and the start."""
    return Cost(planned_cost.seconds * ((n_iter or 1) + 1), planned_cost.peak_bytes)


#: The numbers of clusters the MSP curve tries.
CURVE_KS = tuple(range(2, 11))


def curve_cost(n_samples: int, n_features: int) -> Cost:
    """A rough prediction for :func:`msp_curve`: one multi-class MSPC fit per ``k``, each
    counted as ``k - 1`` binary fits (its pairwise MPMs grow with ``k``)."""
    one = fit_cost("mspc-mpm", n_samples, n_features)
    factor = sum(k - 1 for k in CURVE_KS)
    return Cost(one.seconds * factor, one.peak_bytes)


def not_run_rows(planned: Sequence[Planned], fitted: Mapping[str, Any]) -> list[dict[str, str]]:
    """A metrics-table row for each planned method that has no result, saying why: a
    two-cluster method at ``k > 2``, a run refused on this machine, or one that waits for
    its button (with the predicted cost)."""
    rows = []
    for p in planned:
        if p.key in fitted:
            continue
        if p.unavailable:
            why = "not run: a two-cluster method; set k = 2 to run it"
        elif p.refused:
            why = f"not run: too expensive on this machine ({p.cost.describe()})"
        else:
            why = f"waits for its Run button (predicted {p.cost.describe()})"
        rows.append({"algorithm": p.name, "error": why})
    return rows


def metrics_with_reasons(planned: Sequence[Planned], fitted: Mapping[str, Any]):
    """:func:`lab.tables.metrics_table` of the planned methods' results, in plan order,
    with a row saying why for each method that has none (:func:`not_run_rows`)."""
    import pandas as pd

    from lab.tables import metrics_table

    results = [fitted[p.key] for p in planned if p.key in fitted]
    table = metrics_table(results)
    missing = not_run_rows(planned, fitted)
    if not missing:
        return table
    order = {p.name: i for i, p in enumerate(planned)}
    out = pd.concat([table, pd.DataFrame(missing)], ignore_index=True)
    return out.sort_values("algorithm", key=lambda c: c.map(order), kind="stable").reset_index(
        drop=True
    )


# ----------------------------------------------------------------------------------------
# Batches: fits a page starts together through an evaluator
# ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Batch:
    """Fits a page starts together (the tasks of the paper's families, the runs of a λ
    sweep), each one's cost predicted once, when the batch is planned (:func:`plan_batch`).

    Attributes
    ----------
    costs : dict
        :func:`ui.cache.fit_id` → :class:`Cost`, in plan order.
    each : bool
        Judge each fit alone against the auto-run limits (fits measured to be quick
        together), not their predicted total.
    alone : bool
        Whether the batch may start without a click at all.
    """

    costs: dict = field(default_factory=dict)
    each: bool = False
    alone: bool = True

    def verdicts(self, clicked: bool = False) -> dict[tuple, str]:
        """:func:`lab.budget.decide`'s verdict for each fit (all clicked, or none)."""
        ids = list(self.costs)
        if self.each:
            made = [decide([self.costs[i]], [clicked])[0] for i in ids]
        else:
            made = decide([self.costs[i] for i in ids], [clicked] * len(ids))
        return dict(zip(ids, made, strict=True))

    @property
    def auto_run(self) -> bool:
        """Every fit starts without a click."""
        return self.alone and all(v == RUN for v in self.verdicts().values())

    def evaluator(self, clicked: bool = False):
        """:func:`ui.cache.fit_on` handing each planned fit its cost and verdict
        (``clicked``: the user pressed the batch's button); a fit the batch did not plan is
        predicted by :func:`ui.cache.fit`."""
        verdicts = self.verdicts(clicked)
        planned = {i: (cost, verdicts[i]) for i, cost in self.costs.items()}
        return partial(cache.fit_on, planned=planned)


def plan_batch(
    fits: Sequence[tuple[str, Mapping[str, Any], int, int]],
    *,
    each: bool = False,
    alone: bool = True,
) -> Batch:
    """A :class:`Batch` of ``fits``, each ``(key, params, n_samples, n_features)``: every
    distinct fit's cost predicted once (:func:`lab.budget.fit_cost`)."""
    costs: dict[tuple, Cost] = {}
    for key, params, n, d in fits:
        planned = cache.fit_id(key, n, d, params)
        if planned not in costs:
            costs[planned] = fit_cost(key, n, d, params) or Cost(0.0, 0)
    return Batch(costs, each=each, alone=alone)
