"""How much work the lab starts without a click.

The library predicts each fit's time and memory and refuses what this machine cannot finish
(:mod:`clustering._cost`); on top of that the lab starts a run by itself (from a link or a
widget) only when it is cheap, and asks first otherwise:

* :func:`auto_run`: a run predicted below both :data:`AUTO_RUN_SECONDS` and
  :data:`AUTO_RUN_BYTES`;
* :func:`within_budget`: of several runs started together, those that also stay within
  :data:`AUTO_RUN_SECONDS` of predicted time in all.

>>> from clustering._cost import predict_cost
>>> auto_run(predict_cost("kmeans", 200, 2))
True
>>> auto_run(predict_cost("diffrac", 683, 9, {"relaxation": "convex", "max_samples": 1000}))
False
"""

from __future__ import annotations

from collections.abc import Sequence

from clustering._cost import Cost

__all__ = ["AUTO_RUN_BYTES", "AUTO_RUN_SECONDS", "auto_run", "within_budget"]

#: A run predicted below both limits may start without a click.
AUTO_RUN_SECONDS = 10.0
AUTO_RUN_BYTES = 1 << 30


def auto_run(cost: Cost) -> bool:
    """Cheap enough to start without asking (below both auto-run limits)."""
    return cost.seconds <= AUTO_RUN_SECONDS and cost.peak_bytes <= AUTO_RUN_BYTES


def within_budget(costs: Sequence[Cost], seconds: float = AUTO_RUN_SECONDS) -> list[bool]:
    """Which of several runs, started together in this order, may start without a click.

    Each must be under the auto-run limits (:func:`auto_run`), and all that start together
    under ``seconds`` of predicted time: a link or a page choosing many methods, each under
    the limit, does not add up to minutes of work. A run that would pass the budget waits
    (a later, cheaper one may still start).

    >>> within_budget([Cost(6.0, 0), Cost(6.0, 0), Cost(3.0, 0), Cost(20.0, 0)])
    [True, False, True, False]
    """
    out, total = [], 0.0
    for cost in costs:
        ok = auto_run(cost) and total + cost.seconds <= seconds
        total += cost.seconds if ok else 0.0
        out.append(ok)
    return out
