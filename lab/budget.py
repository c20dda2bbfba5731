"""How much work the lab starts without a click.

The library predicts each fit's time and memory and refuses what this machine cannot finish
(:mod:`clustering._cost`); on top of that the lab starts a run by itself (from a link or a
widget) only when it is cheap, and asks first otherwise:

* :func:`auto_run`: a run predicted below both :data:`AUTO_RUN_SECONDS` and
  :data:`AUTO_RUN_BYTES`;
* :func:`within_budget`: of several runs started together, those that also stay within
  :data:`AUTO_RUN_SECONDS` of predicted time in all;
* :func:`fit_cost`: the lab's one prediction of a fit's cost
  (:func:`clustering._cost.predict_cost`), made once per fit where the fit is planned (the
  Cluster page's plan and every batch of :mod:`ui.runs`, the Compare grid, a cached fit
  whose caller planned none) and carried with it to every consumer;
* :func:`decide`: the rule every caller applies (the Cluster page's plan, the cached fits,
  the Compare grid, the sweeps): each run of a batch, given its predicted cost (computed
  once by :func:`fit_cost`) and whether the user clicked for it, is :data:`RUN`,
  :data:`WAITS` for a click or :data:`REFUSED` (above the hard cap).

>>> auto_run(fit_cost("kmeans", 200, 2))
True
>>> auto_run(fit_cost("diffrac", 683, 9, {"relaxation": "convex", "max_samples": 1000}))
False
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from clustering._cost import Cost, predict_cost

__all__ = [
    "AUTO_RUN_BYTES",
    "AUTO_RUN_SECONDS",
    "REFUSED",
    "RUN",
    "WAITS",
    "auto_run",
    "decide",
    "fit_cost",
    "within_budget",
]

#: A run predicted below both limits may start without a click.
AUTO_RUN_SECONDS = 10.0
AUTO_RUN_BYTES = 1 << 30


def fit_cost(
    key: str, n_samples: int, n_features: int, params: Mapping[str, Any] | None = None
) -> Cost | None:
    """The predicted time and peak memory of fitting ``key`` with ``params`` on
    ``n_samples x n_features`` data (:func:`clustering._cost.predict_cost`), or ``None`` for a
    key the registry does not know (its fit then says so).

    The lab's one call of the cost model: a page predicts each fit once, where it plans it,
    and hands the :class:`~clustering._cost.Cost` on with the fit (``tests/test_cost_once.py``
    counts the calls in a page run).
    """
    try:
        return predict_cost(key, n_samples, n_features, dict(params or {}))
    except KeyError:
        return None


def auto_run(cost: Cost) -> bool:
    """Cheap enough to start without asking (below both auto-run limits)."""
    return cost.seconds <= AUTO_RUN_SECONDS and cost.peak_bytes <= AUTO_RUN_BYTES


#: What :func:`decide` says of a run.
RUN, WAITS, REFUSED = "run", "waits", "refused"


def decide(
    costs: Sequence[Cost],
    clicked: Sequence[bool] | None = None,
    seconds: float = AUTO_RUN_SECONDS,
) -> list[str]:
    """Which of several runs started together, in this order, start now: the lab's one
    auto-run rule.

    A run above the hard cap (:attr:`Cost.refused`) is :data:`REFUSED`, clicked or not.
    A clicked run is :data:`RUN`. Any other runs when it is under the auto-run limits
    (:func:`auto_run`) and, with the unclicked runs started before it, stays within
    ``seconds`` of predicted time; else it :data:`WAITS` for a click (a later, cheaper one
    may still start).

    >>> costs = [Cost(6.0, 0), Cost(6.0, 0), Cost(3.0, 0), Cost(20.0, 0)]
    >>> decide(costs, [False, False, False, True])
    ['run', 'waits', 'run', 'run']
    >>> decide([Cost(1e9, 0)], [True])
    ['refused']
    """
    clicked = [False] * len(costs) if clicked is None else list(clicked)
    out, total = [], 0.0
    for cost, click in zip(costs, clicked, strict=True):
        if cost.refused:
            out.append(REFUSED)
        elif click:
            out.append(RUN)
        elif auto_run(cost) and total + cost.seconds <= seconds:
            total += cost.seconds
            out.append(RUN)
        else:
            out.append(WAITS)
    return out


def within_budget(costs: Sequence[Cost], seconds: float = AUTO_RUN_SECONDS) -> list[bool]:
    """Which of several runs, started together in this order, may start without a click.

    Each must be under the auto-run limits (:func:`auto_run`), and all that start together
    under ``seconds`` of predicted time: a link or a page choosing many methods, each under
    the limit, does not add up to minutes of work. A run that would pass the budget waits
    (a later, cheaper one may still start).

    >>> within_budget([Cost(6.0, 0), Cost(6.0, 0), Cost(3.0, 0), Cost(20.0, 0)])
    [True, False, True, False]
    """
    return [verdict == RUN for verdict in decide(costs, seconds=seconds)]
