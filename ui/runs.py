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
import streamlit as st

from clustering import ALGORITHMS
from clustering._cost import AUTO_RUN_BYTES, AUTO_RUN_SECONDS, Cost, check_cost, predict_cost
from clustering.exceptions import TooExpensiveError
from lab.evaluation import FitOutcome

from . import cache, state

__all__ = [
    "AUTO_RUN_LIMIT",
    "CURVE_KS",
    "Cost",
    "Planned",
    "axes_note",
    "comparison_note",
    "curve_cost",
    "curve_note",
    "grid_rows",
    "merged_params",
    "msp_curve",
    "mspc_steps",
    "objective_notes",
    "plan",
    "predict_cost",
    "run_planned",
    "shared_ranges",
    "steps_note",
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
    unavailable : str
        Why the method does not run at all here (a two-cluster method asked for k > 2),
        ``""`` otherwise.
    """

    key: str
    name: str
    params: dict = field(default_factory=dict)
    signature: tuple = ()
    cost: Cost = field(default_factory=lambda: Cost(0.0, 0))
    refused: str = ""
    unavailable: str = ""

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
    n_clusters: int = 2,
) -> list[Planned]:
    """The predicted cost of fitting each of ``keys`` on ``n_samples x n_features`` data.

    ``context`` (the data fingerprint, constraints, ...) goes into each signature. With
    ``n_clusters > 2`` every method that can find more than two clusters gets
    ``n_clusters``; a two-cluster method (:attr:`AlgorithmSpec.binary_only`) is planned as
    ``unavailable`` with the reason. With 2 nothing is added, so the results are today's.
    """
    shared = dict(shared or {})
    full = merged_params(keys, params, shared)
    out = []
    for key in keys:
        p = full[key]
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
            p = {**p, "n_clusters": int(n_clusters)}
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
) -> tuple[dict[str, FitOutcome], list[Planned]]:
    """Fit what may run now; return ``({key: result}, [methods still waiting])``.

    A method runs when it is cheap and ``autorun`` is on, when its current signature was
    approved by a click (:func:`ui.state.approve_runs`), or when it is refused (its result
    is then the refusal, and nothing runs).
    """
    approved = state.approved_runs()
    planned = [p for p in planned if not p.unavailable]
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


def axes_note(view: str) -> str:
    """What the shared axis ranges of the scatter panels mean in ``view``."""
    if view.startswith("discriminant"):
        return (
            "The panels share their axis ranges. In the discriminant view each panel's x axis "
            "is its own method's direction w'x (unit length), so the spread of the clusters "
            "compares across panels; a single point may sit elsewhere in each."
        )
    return "The panels share their axes, so the same point sits at the same place in each."


def _fmt(v: float) -> str:
    return f"{v:.3f}"


def _pair(a: float, b: float) -> tuple[str, str]:
    """``a`` and ``b`` with enough digits to tell them apart (3 to 6)."""
    for digits in range(3, 7):
        sa, sb = f"{a:.{digits}f}", f"{b:.{digits}f}"
        if sa != sb:
            break
    return sa, sb


def _count(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def objective_notes(results: Sequence[FitOutcome]) -> list[str]:
    """One sentence per method with an objective history, computed from that history.

    Examples
    --------
    >>> r = FitOutcome("m", "M", history=np.array([0.5, 0.7, 0.7]), labels=np.zeros(2))
    >>> objective_notes([r])
    ['M: 0.500 → 0.700 over 3 iterations (rose at 1 of 2 steps, never fell).']
    >>> r = FitOutcome("m", "M", history=np.array([0.84901, 0.84913]), labels=np.zeros(2))
    >>> objective_notes([r])
    ['M: 0.8490 → 0.8491 over 2 iterations (rose at 1 of 1 step, never fell).']
    >>> r = FitOutcome("m", "M", history=np.array([0.5, 0.5]), labels=np.zeros(2))
    >>> print(objective_notes([r])[0])
    M: the search converged at its start: no step changed the objective (0.500).
    """
    notes = []
    for r in results:
        h = None if r.history is None else np.asarray(r.history, dtype=np.float64).ravel()
        if not r.ok or h is None or h.size == 0:
            continue
        if h.size == 1:
            notes.append(f"{r.name}: one value, {_fmt(h[0])} (a single iteration).")
            continue
        if np.allclose(h, h[0], rtol=0, atol=1e-12):
            notes.append(
                f"{r.name}: the search converged at its start: no step changed the objective "
                f"({_fmt(h[0])})."
            )
            continue
        steps = np.diff(h)
        up = int(np.sum(steps > 1e-12))
        down = int(np.sum(steps < -1e-12))
        trend = f"rose at {up} of {_count(steps.size, 'step')}"
        trend += ", never fell" if down == 0 else f", fell at {down}"
        first, last = _pair(h[0], h[-1])
        notes.append(f"{r.name}: {first} → {last} over {h.size} iterations ({trend}).")
    return notes


def comparison_note(results: Sequence[FitOutcome]) -> str:
    """Which method has the highest MSP and which the highest accuracy, and whether they
    coincide (``""`` with fewer than two scored methods).

    Examples
    --------
    >>> a = FitOutcome("a", "A", labels=np.zeros(2), metrics={"msp": 0.9, "accuracy": 0.8})
    >>> b = FitOutcome("b", "B", labels=np.zeros(2), metrics={"msp": 0.7, "accuracy": 0.95})
    >>> comparison_note([a, b]).split(". ")[0]
    'Highest MSP: A (0.900); highest accuracy: B (0.950)'
    """
    scored = [r for r in results if r.ok and r.msp is not None and np.isfinite(r.msp)]
    if len(scored) < 2:
        return ""
    # Compare the values as the table shows them (three decimals), so a tie on screen is
    # called a tie.
    top_msp = max(float(_fmt(r.msp)) for r in scored)
    msp_leaders = [r for r in scored if float(_fmt(r.msp)) == top_msp]
    text = f"Highest MSP: {' = '.join(r.name for r in msp_leaders)} ({_fmt(top_msp)})"
    with_acc = [r for r in scored if r.metrics.get("accuracy") is not None]
    if len(with_acc) < 2:
        return text + "."
    top_acc = max(float(_fmt(r.metrics["accuracy"])) for r in with_acc)
    acc_leaders = [r for r in with_acc if float(_fmt(r.metrics["accuracy"])) == top_acc]
    text += f"; highest accuracy: {' = '.join(r.name for r in acc_leaders)} ({_fmt(top_acc)})."
    if len(msp_leaders) > 1:
        return text + (
            " The highest MSPs tie at three decimals, so here the MSP does not tell these "
            "clusterings apart."
        )
    if msp_leaders[0] in acc_leaders:
        return text + " Here the clustering with the higher MSP is also the most accurate."
    return text + (
        " Here the higher MSP is not the more accurate clustering: the MSP is a bound on how "
        "well a linear rule separates the clusters, not a promise about the classes."
    )


# ---- expensive extras behind buttons: the MSP-vs-k curve and MSPC's iterations --------------

#: The numbers of clusters the MSP curve tries.
CURVE_KS = tuple(range(2, 11))


def curve_cost(n_samples: int, n_features: int) -> Cost:
    """A rough prediction for :func:`msp_curve`: one multi-class MSPC fit per ``k``, each
    counted as ``k - 1`` binary fits (its pairwise MPMs grow with ``k``)."""
    one = predict_cost("mspc-mpm", n_samples, n_features)
    factor = sum(k - 1 for k in CURVE_KS)
    return Cost(one.seconds * factor, one.peak_bytes)


@st.cache_data(max_entries=16, show_spinner="Fitting MSPC for k = 2 … 10…")
def _msp_curve(data_fingerprint: str, lam: float, regularizer: str, _X: np.ndarray) -> dict:
    from clustering.model_selection import msp_curve

    return msp_curve(_X, ks=CURVE_KS, lam=lam, regularizer=regularizer)


def msp_curve(data_fingerprint: str, X: np.ndarray, lam: float, regularizer: str) -> dict:
    """:func:`clustering.model_selection.msp_curve` over :data:`CURVE_KS` (cached)."""
    return _msp_curve(data_fingerprint, float(lam), str(regularizer), X)


@st.cache_data(max_entries=16, show_spinner="Replaying MSPC's iterations…")
def _mspc_steps(data_fingerprint: str, params: tuple, _X: np.ndarray) -> list:
    from lab.animation import mspc_iterations

    return mspc_iterations(_X, dict(params))


def mspc_steps(data_fingerprint: str, X: np.ndarray, params: Mapping[str, Any]) -> list:
    """:func:`lab.animation.mspc_iterations` of MSPC with ``params`` (cached); only
    the parameters MSPC has are passed."""
    from clustering import MSPC

    known = MSPC().get_params()
    clean = tuple(sorted((k, v) for k, v in params.items() if k in known and k != "random_state"))
    return _mspc_steps(data_fingerprint, clean, X)


def steps_note(name: str, steps: Sequence[Any]) -> str:
    """What the step-through shows, from its steps: the start, the end and the changes."""
    if not steps:
        return ""
    if len(steps) == 1:
        return (
            f"{name} converged at its start: no iteration changed a label (MSP "
            f"{_fmt(steps[0].objective)})."
        )
    changed = sum(s.n_changed for s in steps[1:])
    first, last = _pair(steps[0].objective, steps[-1].objective)
    return (
        f"{name}: MSP {first} at the start, {last} after "
        f"{_count(len(steps) - 1, 'iteration')} that changed labels "
        f"({_count(changed, 'label change')} in all). Move the slider to step through."
    )


def curve_note(curve: Mapping[str, Any]) -> str:
    """The suggested k and why, from the curve's own numbers."""
    ks, msp, best = list(curve["k"]), list(curve["msp"]), int(curve["suggested_k"])
    i = ks.index(best)
    return (
        f"Suggested k = {best}: the MSP falls the most after it, from {msp[i]:.3f} at "
        f"k = {best} to {msp[i + 1]:.3f} at k = {ks[i + 1]}."
    )
