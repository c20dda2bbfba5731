"""The Cluster page's layout and captions, and its cached extras (no page code here).

:func:`grid_rows` (methods side by side, rows of at most three), :func:`shared_ranges` (one x
and y range for every scatter panel), :func:`axes_note`, the captions whose claims are
computed from the numbers shown (:func:`objective_notes`, :func:`comparison_note`,
:func:`steps_note`, :func:`curve_note`), and the computations behind buttons
(:func:`msp_curve`, :func:`mspc_steps`, cached), and the page's figures shared by every
session (:func:`scatter_panel`, :func:`margin_panel`, :func:`objective_panel`: a link opened
in a new tab finds them built, their JSON made once). Which fits may start is
:mod:`ui.runs`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import streamlit as st

from lab import plots, verdicts
from lab.evaluation import FitOutcome

from . import widgets
from .chart import SharedChart
from .runs import CURVE_KS

__all__ = [
    "axes_note",
    "comparison_note",
    "curve_note",
    "grid_rows",
    "lasso_indices",
    "margin_panel",
    "metrics_columns",
    "msp_curve",
    "mspc_steps",
    "objective_notes",
    "objective_panel",
    "panel_title",
    "scatter_panel",
    "shared_ranges",
    "steps_note",
]


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


#: The score :func:`comparison_note` ranks the methods by, and its name on screen.
COMPARISON_SCORE = ("msp_heldout", "held-out MSP")


def comparison_note(results: Sequence[FitOutcome]) -> str:
    """Which method has the highest held-out MSP (the lab's label-free score,
    :func:`lab.evaluation.heldout_msp`) and which the highest accuracy, and whether they
    coincide (``""`` with fewer than two scored methods): :func:`lab.verdicts.leaders`.

    Examples
    --------
    >>> a = FitOutcome("a", "A", labels=np.zeros(2),
    ...                metrics={"msp": 0.9, "msp_heldout": 0.85, "accuracy": 0.8})
    >>> b = FitOutcome("b", "B", labels=np.zeros(2),
    ...                metrics={"msp": 0.7, "msp_heldout": 0.6, "accuracy": 0.95})
    >>> comparison_note([a, b]).split(". ")[0]
    'Highest held-out MSP: A (0.850); highest accuracy: B (0.950)'
    """
    column, name = COMPARISON_SCORE

    def value(r: FitOutcome, key: str) -> float:
        v = r.metrics.get(key)
        return np.nan if v is None else float(v)

    ok = [r for r in results if r.ok]
    return verdicts.leaders(
        [r.name for r in ok],
        [value(r, column) for r in ok],
        [value(r, "accuracy") for r in ok],
        score_name=name,
    ).text


def lesson_verdict(results: Sequence[FitOutcome], shown: FitOutcome) -> tuple[str, str | None]:
    """The Cluster lesson's sentence and its explanation (a tooltip): the methods compared as
    :func:`comparison_note` does, its reason left to the tooltip; with one method, the shown
    method's own numbers (its figure's title)."""
    note = comparison_note(results)
    if note:
        first, _, rest = note.partition(". ")
        claim, _, why = rest.partition(": ")
        return f"{first}. {claim.rstrip('.')}." if claim else first, (why or None)
    bits = [
        f"{name} {_fmt(shown.metrics[key])}"
        for key, name in (("msp_heldout", "held-out MSP"), ("accuracy", "accuracy"))
        if shown.metrics.get(key) is not None and np.isfinite(shown.metrics[key])
    ]
    if not bits:
        return f"{shown.name} has no score to show; add a method in the sidebar to compare.", None
    return f"{shown.name}: {', '.join(bits)}. Add a method in the sidebar to compare.", None


# ---- expensive extras behind buttons: the MSP-vs-k curve and MSPC's iterations --------------


@st.cache_data(max_entries=16, show_spinner="Fitting MSPC for k = 2 … 10…")
def _msp_curve(data_fingerprint: str, lam: float, regularizer: str, _X: np.ndarray) -> dict:
    from lab.model_selection import msp_curve

    return msp_curve(_X, ks=CURVE_KS, lam=lam, regularizer=regularizer)


def msp_curve(data_fingerprint: str, X: np.ndarray, lam: float, regularizer: str) -> dict:
    """:func:`lab.model_selection.msp_curve` over :data:`CURVE_KS` (cached)."""
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
    climb = getattr(steps[0], "climb_lam", None)
    at = (
        ""
        if climb is None
        else (
            f" The climb ran at λ = {climb:.3g}: the default also climbs at λ/4 and λ/20 and "
            "kept these labels, clearly more separable on held-out points there; the MSP "
            "shown is at the fit's own λ."
        )
    )
    if len(steps) == 1:
        return (
            f"{name} converged at its start: no iteration changed a label (MSP "
            f"{_fmt(steps[0].objective)}).{at}"
        )
    changed = sum(s.n_changed for s in steps[1:])
    first, last = _pair(steps[0].objective, steps[-1].objective)
    return (
        f"{name}: MSP {first} at the start, {last} after "
        f"{_count(len(steps) - 1, 'iteration')} that changed labels "
        f"({_count(changed, 'label change')} in all). Move the slider to step through.{at}"
    )


def curve_note(curve: Mapping[str, Any]) -> str:
    """The suggested k and why, from the curve's own numbers."""
    ks, best = list(curve["k"]), int(curve["suggested_k"])
    msp = list(curve.get("score", curve["msp"]))
    what = "the smallest pairwise held-out MSP" if "score" in curve else "the MSP"
    i = ks.index(best)
    return (
        f"Suggested k = {best}: {what} falls the most after it, from {msp[i]:.3f} at "
        f"k = {best} to {msp[i + 1]:.3f} at k = {ks[i + 1]}."
    )


def panel_title(result: FitOutcome) -> str:
    """A scatter panel's title: its in-sample MSP, its held-out MSP and, with classes, its
    accuracy.

    Examples
    --------
    >>> r = FitOutcome("m", "M", labels=np.zeros(2),
    ...                metrics={"msp": 0.9, "msp_heldout": 0.85, "accuracy": 0.8})
    >>> panel_title(r)
    'MSP 0.900 · held-out 0.850 · accuracy 0.800'
    """
    msp, held = result.msp, result.msp_heldout
    title = f"MSP {msp:.3f}" if np.isfinite(msp) else "MSP —"
    title += f" · held-out {held:.3f}" if np.isfinite(held) else ""
    acc = result.metrics.get("accuracy")
    if acc is not None:
        title += f" · accuracy {acc:.3f}"
    return title


def lasso_indices(event: Any, figure: Any) -> list[int]:
    """The sample indices of the points a lasso selected on ``figure`` (their
    ``customdata``, read from the trace when the event does not carry it)."""
    chosen = []
    for point in event.selection.get("points", []):
        data = point.get("customdata")
        if data is None:
            trace = figure.data[point["curve_number"]]
            data = trace.customdata[point["point_index"]]
        chosen.append(int(np.ravel(data)[0]))
    return chosen


@st.cache_data(max_entries=64, show_spinner=False)
def _one_vs_rest(
    data_fingerprint: str, labels: tuple, cluster: int, lam: float, regularizer: str, _X
) -> tuple[np.ndarray, float, float]:
    from clustering.mpm import fit_mpm_to_labels

    binary = (np.asarray(labels) == cluster).astype(int)
    sol, w, b = fit_mpm_to_labels(np.asarray(_X, dtype=np.float64), binary, lam, regularizer)
    return np.asarray(w), float(b), float(sol.alpha)


def one_vs_rest(
    data_fingerprint: str, X: np.ndarray, labels, cluster: int, lam: float, regularizer: str
) -> tuple[np.ndarray, np.ndarray, float]:
    """The margins view of one cluster of a k-cluster labeling against the rest: the
    signed margins of the MPM fitted to "cluster against the rest", the 0/1 labels (1: the
    cluster) and that MPM's MSP (cached)."""
    labels = np.asarray(labels)
    w, b, alpha = _one_vs_rest(
        data_fingerprint, tuple(labels.tolist()), int(cluster), float(lam), str(regularizer), X
    )
    margins = np.asarray(X, dtype=np.float64) @ w - b
    return margins, (labels == cluster).astype(int), alpha


# ---- figures shared by every session -------------------------------------------------------


def _digest(*values: Any) -> str:
    """A short fingerprint of arrays and numbers (dtype, shape and bytes of each)."""
    h = hashlib.blake2b(digest_size=16)
    for v in values:
        a = np.ascontiguousarray(np.asarray(np.nan if v is None else v))
        h.update(f"{a.dtype}{a.shape}".encode())
        h.update(a.tobytes())
    return h.hexdigest()


def _fit_signature(result: FitOutcome) -> tuple:
    return (result.key, result.name, _digest(result.labels, result.w, result.b))


@st.cache_resource(max_entries=128, show_spinner=False)
def _shared(kind: str, signature: tuple, _build: Callable[[], Any]) -> SharedChart:
    return SharedChart.of(_build())


def scatter_panel(
    view: str,
    data_fingerprint: str,
    result: FitOutcome,
    projection: Any,
    y: np.ndarray | None,
    class_names: Sequence[str] | None,
    *,
    height: int,
    ranges: tuple | None,
    grid: bool,
) -> SharedChart:
    """``result``'s clusters in ``view`` (``projection``, from :func:`ui.cache.projection`
    with the same view, data and hyperplane), titled by :func:`panel_title`: built once for
    every session and rerun that shows the same fit (``st.cache_resource``). Do not modify
    the figure."""
    names = None if class_names is None else tuple(class_names)
    span = None if ranges is None else tuple(tuple(float(v) for v in r) for r in ranges)
    title = panel_title(result)

    def build():
        fig = plots.cluster_scatter(
            projection,
            result.labels,
            y,
            names,
            title=title,
            height=height,
            x_range=None if span is None else span[0],
            y_range=None if span is None else span[1],
        )
        if grid:
            plots.grid_panel(fig)
        return fig

    signature = (view, data_fingerprint, _fit_signature(result), names, title, height, span, grid)
    return _shared("scatter", signature, build)


def margin_panel(
    data_fingerprint: str,
    result: FitOutcome,
    X: np.ndarray,
    rho: float,
    *,
    grid: bool,
    height: int | None = None,
) -> SharedChart:
    """``result``'s margin histogram at ``rho`` with its MSP's Theorem 5 line (none when the
    MSP is not finite), built once for every session (``st.cache_resource``)."""
    msp = result.msp if np.isfinite(result.msp) else None

    def build():
        fig = plots.margin_histogram(result.margins(X), result.labels, msp, rho, title=result.name)
        if height:
            fig.update_layout(height=height)
        if grid:
            plots.grid_panel(fig)
        return fig

    signature = (data_fingerprint, _fit_signature(result), msp, float(rho), grid, height)
    return _shared("margins", signature, build)


def objective_panel(histories: Mapping[str, np.ndarray]) -> SharedChart:
    """The objective per iteration of each method (``histories``: name -> values), built once
    for every session (``st.cache_resource``)."""
    signature = tuple((name, _digest(h)) for name, h in histories.items())
    return _shared("objective", signature, lambda: plots.objective_grid(dict(histories)))


#: The metrics table's score columns: (name, number format, help).
_METRIC_COLUMNS = (
    (
        "accuracy",
        "%.3f",
        "Share of samples whose cluster matches their class under the best matching of "
        "clusters to classes.",
    ),
    ("NMI", "%.3f", "Normalised mutual information between clusters and classes."),
    (
        "Rand",
        "%.3f",
        "Share of pairs of samples on which clusters and classes agree (together / apart).",
    ),
    (
        "ARI",
        "%.3f",
        "Adjusted Rand index: the Rand index corrected for chance (0 for a random "
        "clustering, 1 for the classes exactly).",
    ),
    ("F", "%.3f", "F1 score over pairs of samples put together."),
    ("time (s)", "%.3f", "Fit time."),
    ("iterations", None, "Iterations the method ran."),
)


def metrics_columns(lam: float, regularizer: str) -> dict[str, Any]:
    """The column settings of the Cluster page's metrics table: both MSPs named with the
    page's λ and Λ (:func:`ui.widgets.msp_column_config`), why a method has no numbers, and
    each score's format and help."""
    return {
        **widgets.msp_column_config(lam, regularizer),
        "error": st.column_config.TextColumn(
            "not run / failed", help="Why a method has no numbers in this table."
        ),
        **{
            name: st.column_config.NumberColumn(format=fmt, help=text)
            for name, fmt, text in _METRIC_COLUMNS
        },
    }
