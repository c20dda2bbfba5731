"""Which fits a page may start, and the Cluster page's run logic (no page code here).

The cost guard sits between a control (a widget or a link) and a fit:

* :func:`plan` predicts every chosen method's time and memory
  (:func:`clustering._cost.predict_cost`) and asks :func:`clustering._cost.check_cost`
  whether this machine may run it at all;
* a method whose prediction is under the auto-run limits (:attr:`Cost.auto_run`) runs by
  itself; any other waits for its own button, which shows the prediction
  (:meth:`Cost.describe`);
* every fit, started by itself or by a click, goes through :func:`ui.cache.fit`, which
  calls :func:`~clustering._cost.check_cost` again and turns a
  :class:`~clustering.exceptions.TooExpensiveError` into the result's message.

Clicked runs are remembered per method and settings (:func:`ui.state.approve_runs`), so a
result stays on screen until a setting of that method changes.

The rest are the small computations behind the Cluster page's layout and captions:
:func:`grid_rows` (methods side by side, rows of at most three), :func:`shared_ranges`
(one x and y range for every scatter panel) and :func:`objective_notes` /
:func:`comparison_note` (captions whose claims are computed from the numbers shown).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from clustering import ALGORITHMS
from clustering._cost import AUTO_RUN_BYTES, AUTO_RUN_SECONDS, Cost, check_cost, predict_cost
from clustering.evaluation import FitResult
from clustering.exceptions import TooExpensiveError

from . import cache, state

__all__ = [
    "AUTO_RUN_LIMIT",
    "Planned",
    "comparison_note",
    "grid_rows",
    "merged_params",
    "objective_notes",
    "plan",
    "run_planned",
    "shared_ranges",
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
        Every parameter the fit gets (own and shared).
    signature : tuple
        What the result depends on (data, method, parameters, constraints): a click
        approves this signature.
    cost : Cost
        :func:`clustering._cost.predict_cost` of the fit.
    refused : str
        The :class:`~clustering.exceptions.TooExpensiveError` message when the run is above
        the hard cap (``""`` otherwise).
    """

    key: str
    name: str
    params: dict = field(default_factory=dict)
    signature: tuple = ()
    cost: Cost = field(default_factory=lambda: Cost(0.0, 0))
    refused: str = ""

    @property
    def auto_run(self) -> bool:
        """Cheap enough to start without a click."""
        return not self.refused and self.cost.auto_run

    def wait_message(self, n_samples: int, n_features: int) -> str:
        """Why this method waits for a click, with its prediction."""
        return (
            f"**{self.name}** is predicted to take {self.cost.describe()} on these data "
            f"({n_samples:,} samples × {n_features:,} features), above the "
            f"{AUTO_RUN_LIMIT} the lab starts by itself. Press the button to run it anyway."
        )


def merged_params(
    keys: Sequence[str], params: Mapping[str, Mapping[str, Any]], shared: Mapping[str, Any]
) -> dict[str, dict[str, Any]]:
    """Each method's own parameters with the shared ones it has (as :func:`ui.cache.
    fit_many` passes them)."""
    return {
        key: {
            **dict(params.get(key, {})),
            **{k: v for k, v in shared.items() if k in ALGORITHMS[key].defaults()},
        }
        for key in keys
    }


def plan(
    keys: Sequence[str],
    params: Mapping[str, Mapping[str, Any]],
    n_samples: int,
    n_features: int,
    *,
    shared: Mapping[str, Any] | None = None,
    context: tuple = (),
) -> list[Planned]:
    """The predicted cost of fitting each of ``keys`` on ``n_samples x n_features`` data.

    ``context`` (the data fingerprint, constraints, ...) goes into each signature.
    """
    shared = dict(shared or {})
    full = merged_params(keys, params, shared)
    out = []
    for key in keys:
        p = full[key]
        cost = predict_cost(key, n_samples, n_features, p)
        try:
            check_cost(key, n_samples, n_features, p)
            refused = ""
        except TooExpensiveError as err:
            refused = str(err)
        signature = (
            key,
            tuple(sorted((k, repr(v)) for k, v in p.items())),
            tuple(sorted((k, repr(v)) for k, v in shared.items())),
            context,
        )
        out.append(Planned(key, ALGORITHMS[key].name, p, signature, cost, refused))
    return out


def run_planned(
    planned: Sequence[Planned],
    *,
    autorun: bool,
    data_fingerprint: str,
    X: np.ndarray,
    y: np.ndarray | None,
    must_link=None,
    cannot_link=None,
    shared: Mapping[str, Any] | None = None,
) -> tuple[dict[str, FitResult], list[Planned]]:
    """Fit what may run now; return ``({key: result}, [methods still waiting])``.

    A method runs when it is cheap and ``autorun`` is on, when its current signature was
    approved by a click (:func:`ui.state.approve_runs`), or when it is refused (its result
    is then the refusal, and nothing runs).
    """
    approved = state.approved_runs()
    now = [p for p in planned if p.refused or p.signature in approved or (autorun and p.auto_run)]
    waiting = [p for p in planned if p not in now]
    results = cache.fit_many(
        [p.key for p in now],
        {p.key: p.params for p in now},
        data_fingerprint,
        X,
        y,
        must_link=must_link,
        cannot_link=cannot_link,
        shared=shared,
        clicked=[p.key for p in now if p.signature in approved],
    )
    return {r.key: r for r in results}, waiting


def grid_rows(n: int, per_row: int = 3) -> list[int]:
    """How many panels each row of a grid of ``n`` holds (at most ``per_row``).

    Examples
    --------
    >>> grid_rows(5), grid_rows(3), grid_rows(0)
    ([3, 2], [3], [])
    """
    return [min(per_row, n - i) for i in range(0, max(n, 0), per_row)]


def shared_ranges(
    coords: Sequence[np.ndarray], pad: float = 0.05
) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """One x range and one y range covering every panel's points (``None`` without points).

    Examples
    --------
    >>> shared_ranges([np.array([[0.0, 0.0], [1.0, 2.0]]), np.array([[-1.0, 0.0]])])
    ((-1.1, 1.1), (-0.1, 2.1))
    """
    arrays = [np.asarray(c, dtype=np.float64) for c in coords if np.size(c)]
    if not arrays:
        return None
    allc = np.vstack(arrays)
    allc = allc[np.all(np.isfinite(allc), axis=1)]
    if not allc.size:
        return None
    out = []
    for j in (0, 1):
        lo, hi = float(allc[:, j].min()), float(allc[:, j].max())
        span = pad * (hi - lo) if hi > lo else 1.0
        out.append((round(lo - span, 12), round(hi + span, 12)))
    return out[0], out[1]


def _fmt(v: float) -> str:
    return f"{v:.3f}"


def objective_notes(results: Sequence[FitResult]) -> list[str]:
    """One sentence per method with an objective history, computed from that history.

    Examples
    --------
    >>> r = FitResult("m", "M", history=np.array([0.5, 0.7, 0.7]), labels=np.zeros(2))
    >>> objective_notes([r])
    ['M: 0.500 → 0.700 in 3 iterations (rose at 1 of 2 steps, never fell).']
    >>> r = FitResult("m", "M", history=np.array([0.5]), labels=np.zeros(2))
    >>> print(objective_notes([r])[0])
    M: the search converged at its start: the first labeling was already the best it found (0.500).
    """
    notes = []
    for r in results:
        h = None if r.history is None else np.asarray(r.history, dtype=np.float64).ravel()
        if not r.ok or h is None or h.size == 0:
            continue
        if h.size == 1 or np.allclose(h, h[0], rtol=0, atol=1e-12):
            notes.append(
                f"{r.name}: the search converged at its start: the first labeling was already "
                f"the best it found ({_fmt(h[0])})."
            )
            continue
        steps = np.diff(h)
        up = int(np.sum(steps > 1e-12))
        down = int(np.sum(steps < -1e-12))
        trend = f"rose at {up} of {steps.size} steps"
        trend += ", never fell" if down == 0 else f", fell at {down}"
        notes.append(f"{r.name}: {_fmt(h[0])} → {_fmt(h[-1])} in {h.size} iterations ({trend}).")
    return notes


def comparison_note(results: Sequence[FitResult]) -> str:
    """Which method has the highest MSP and which the highest accuracy, and whether they
    coincide (``""`` with fewer than two scored methods).

    Examples
    --------
    >>> a = FitResult("a", "A", labels=np.zeros(2), metrics={"msp": 0.9, "accuracy": 0.8})
    >>> b = FitResult("b", "B", labels=np.zeros(2), metrics={"msp": 0.7, "accuracy": 0.95})
    >>> comparison_note([a, b]).split(". ")[0]
    'Highest MSP: A (0.900); highest accuracy: B (0.950)'
    """
    scored = [r for r in results if r.ok and r.msp is not None and np.isfinite(r.msp)]
    if len(scored) < 2:
        return ""
    best_msp = max(scored, key=lambda r: r.msp)
    text = f"Highest MSP: {best_msp.name} ({_fmt(best_msp.msp)})"
    with_acc = [r for r in scored if r.metrics.get("accuracy") is not None]
    if len(with_acc) < 2:
        return text + "."
    best_acc = max(with_acc, key=lambda r: r.metrics["accuracy"])
    text += f"; highest accuracy: {best_acc.name} ({_fmt(best_acc.metrics['accuracy'])})."
    top_acc = best_acc.metrics["accuracy"]
    if best_msp.metrics.get("accuracy") is not None and best_msp.metrics["accuracy"] >= top_acc:
        return text + " Here the clustering with the higher MSP is also the most accurate."
    return text + (
        " Here the higher MSP is not the more accurate clustering: the MSP is a bound on how "
        "well a linear rule separates the clusters, not a promise about the classes."
    )
