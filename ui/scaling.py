"""The Feature scaling page's computations (the page only lays out what these return).

- :func:`paper_random_scaling`: the MSPC paper's random AFS (one feature times 2, 4, 8 or
  16) through :func:`datasets.scaling.random_afs`, reproducible per button press;
- :func:`scaled_fingerprint`: the cache key of the rescaled data, derived from the original
  data's fingerprint and the factors (no hash of the scaled ``X`` on every rerun);
- :func:`comparison_table`: accuracy, MSP and labels changed, before and after, per method;
- :func:`hyperplane_in_original_units`: the "after" hyperplane drawn in the original units;
- :func:`animation`: the play control's sweep, figure and caption (cached).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np
import pandas as pd
import streamlit as st

import datasets
from clustering.metrics import clustering_error
from lab import plots
from lab.animation import DEFAULT_FACTORS, describe_sweep, scaling_sweep
from lab.evaluation import FitOutcome

from . import cache, widgets
from .chart import SharedChart
from .model import snap_factor

__all__ = [
    "RANDOM_AFS_HELP",
    "START_LABELS",
    "animation",
    "animation_axes",
    "animation_signature",
    "before_after_columns",
    "comparison_columns",
    "comparison_table",
    "hyperplane_in_original_units",
    "is_scaled",
    "paper_random_scaling",
    "preset_available",
    "scaled_fingerprint",
    "scatter_figure",
    "snapped_factors",
    "two_cluster_labelings",
    "unit_factors",
]


#: The help of the "Random AFS" button, with the paper's factors.
RANDOM_AFS_HELP = (
    "The MSPC paper's experiment: pick one feature at random and multiply it by "
    f"{', '.join(f'{v:g}' for v in datasets.scaling.PAPER_FACTORS[:-1])} or "
    f"{datasets.scaling.PAPER_FACTORS[-1]:g} (all other features back to ×1)."
)


def paper_random_scaling(press: int, n_features: int) -> dict[int, float]:
    """``{feature: factor}`` of the ``press``-th press of "Random AFS" on ``n_features``
    features: one feature chosen at random, times a factor from ``PAPER_FACTORS``."""
    rng = np.random.default_rng([int(press), int(n_features)])
    factor = float(rng.choice(datasets.scaling.PAPER_FACTORS))
    _, _, chosen = datasets.scaling.random_afs(np.zeros((1, n_features)), factor, rng=rng)
    return {int(chosen[0]): factor}


def scaled_fingerprint(data_fingerprint: str, factors: Sequence[float]) -> str:
    """Cache key of the data rescaled by ``factors`` (the original fingerprint when every
    factor is 1)."""
    factors = np.asarray(factors, dtype=np.float64)
    if np.all(factors == 1.0):
        return data_fingerprint
    h = hashlib.blake2b(digest_size=12)
    h.update(data_fingerprint.encode())
    h.update(factors.tobytes())
    return h.hexdigest()


def _value(result: FitOutcome, metric: str) -> float:
    value = result.metrics.get(metric) if result.ok else None
    return np.nan if value is None else float(value)


def _changed(a: FitOutcome, b: FitOutcome) -> float:
    if a.labels is None or b.labels is None:
        return np.nan
    # Renaming clusters is no change: the share of labels that moves under the best matching.
    return clustering_error(a.labels, b.labels)


def before_after_columns(column: str, label: str, before: str, after: str) -> dict:
    """The column settings of :func:`comparison_table`'s ``<column>_before`` and
    ``<column>_after``: titled ``"<label> before"`` and ``"<label> after"``, with the helps
    ``before`` and ``after``."""
    return {
        f"{column}_{when}": st.column_config.NumberColumn(
            f"{label} {when}", format="%.3f", width=85, help=text
        )
        for when, text in (("before", before), ("after", after))
    }


def comparison_columns(lam: float, regularizer: str) -> dict:
    """The column settings of :func:`comparison_table` on the page: accuracy, the in-sample
    and the held-out MSP before and after (the MSPs' helps name λ and Λ), their changes, and
    the share of labels changed."""
    columns = {"accuracy": "acc.", "msp": "in-sample", "msp_heldout": "held-out"}
    out = {}
    for column, label in columns.items():
        if column == "accuracy":
            before, after = "Accuracy on the original data.", "Accuracy on the rescaled data."
        else:
            before = "Of the method's clustering on the original data. " + widgets.msp_help(
                column, lam, regularizer
            )
            after = f"{label.capitalize()} MSP of the method's clustering on the rescaled data."
        out.update(before_after_columns(column, label, before, after))
    out["accuracy_change"] = st.column_config.NumberColumn(
        "Δ accuracy", format="%+.3f", help="After minus before."
    )
    out["msp_change"] = st.column_config.NumberColumn(
        "Δ in-sample MSP", format="%+.4f", help="After minus before."
    )
    out["changed"] = st.column_config.ProgressColumn(
        "changed",
        format="percent",
        min_value=0.0,
        max_value=1.0,
        width=90,
        help="Labels changed: the share of samples whose cluster changed (swapping the two "
        "cluster names does not count).",
    )
    return out


def comparison_table(before: Sequence[FitOutcome], after: Sequence[FitOutcome]) -> pd.DataFrame:
    """One row per method: accuracy, in-sample MSP and held-out MSP before/after, the changes
    of the first two, labels changed."""
    rows = [
        {
            "method": rb.name,
            "accuracy_before": _value(rb, "accuracy"),
            "accuracy_after": _value(ra, "accuracy"),
            "msp_before": _value(rb, "msp"),
            "msp_after": _value(ra, "msp"),
            "msp_heldout_before": _value(rb, "msp_heldout"),
            "msp_heldout_after": _value(ra, "msp_heldout"),
            "changed": _changed(rb, ra),
        }
        for rb, ra in zip(before, after, strict=True)
    ]
    table = pd.DataFrame(rows)
    table["accuracy_change"] = table["accuracy_after"] - table["accuracy_before"]
    table["msp_change"] = table["msp_after"] - table["msp_before"]
    return table


def hyperplane_in_original_units(w, factors: Sequence[float]) -> np.ndarray | None:
    """``w`` of a hyperplane fitted on ``X * factors``, as a hyperplane on ``X``:
    ``w . (x * f) = (w * f) . x``."""
    return None if w is None else np.asarray(w, dtype=float) * np.asarray(factors, dtype=float)


# ----------------------------------------------------------------------------------------
# The play control: one feature's factor swept as animation frames
# ----------------------------------------------------------------------------------------


# ``cache_resource``, not ``cache_data``: the result is shared, never copied (unpickling a
# cached figure of 13 frames re-validated every plotly property on every rerun; the cost is
# in bench/RESULTS.md), and the figure goes out as a SharedChart, whose JSON is made once;
# nothing mutates the sweep or the figure.
@st.cache_resource(max_entries=16, show_spinner=False)
def animation(
    data_fingerprint: str,
    methods: tuple,
    feature: int,
    fixed: tuple,
    view: tuple[int, int],
    feature_names: tuple[str, ...],
    _X: np.ndarray,
    _y: np.ndarray | None,
):
    """The sweep of ``feature`` over :data:`lab.animation.DEFAULT_FACTORS` (×0.001 to
    ×1000) with the other columns held at ``fixed`` (``(column, factor)`` pairs), its
    figure and the sentence its numbers decide — computed once per setting and cached.

    ``methods`` are ``(display name, key, ((param, value), ...))`` triples. Every fit goes
    through :func:`ui.cache.fit_on`, so a frame the before/after panels already fitted is
    not fitted again. Returns ``(sweep, figure, caption)``, shared between reruns and
    sessions: do not modify them.
    """
    spec = {name: (key, dict(params)) for name, key, params in methods}
    sweep = scaling_sweep(
        _X, _y, spec, int(feature), DEFAULT_FACTORS, fixed=dict(fixed), fit=cache.fit_on
    )
    fig = plots.scaling_animation_figure(
        sweep, _X, _y, features=view, feature_names=list(feature_names)
    )
    return sweep, SharedChart.of(fig), describe_sweep(sweep, feature_names[int(feature)])


def animation_signature(
    data_fingerprint: str, methods: dict, feature: int, factors: Sequence[float]
) -> tuple:
    """The hashable settings of an animation: data, methods, swept column and the factors
    the other columns are held at."""
    fixed = tuple((j, float(f)) for j, f in enumerate(factors) if j != feature and f != 1.0)
    spec = tuple(
        (name, key, tuple(sorted(params.items()))) for name, (key, params) in methods.items()
    )
    return (data_fingerprint, spec, int(feature), fixed)


def animation_axes(view: str, feature: int, order: Sequence[int]) -> tuple[int, int]:
    """The animation's two axes: the view's features when it shows two features, else the
    swept feature against the largest-variance other one (``order``: by variance)."""
    if view.startswith("features:"):
        i, j = (int(v) for v in view.split(":", 1)[1].split(","))
        if i != j:
            return i, j
    other = next(int(j) for j in order if int(j) != int(feature))
    return (int(feature), other) if int(feature) < other else (other, int(feature))


def preset_available(preset: str, feature_names: Sequence[str]) -> bool:
    """Whether the data have the features a preset of
    :data:`lab.animation.PRESETS` moves (the AFS trap's 'signal' and 'noise')."""
    from lab.animation import PRESETS

    p = PRESETS[preset]
    return all(f in list(feature_names) for f in (p.feature, *p.fixed))


@st.cache_resource(max_entries=64, show_spinner=False)
def _scatter_figure(
    view: str,
    data_fingerprint: str,
    w: tuple | None,
    b: float | None,
    labels: bytes,
    title: str,
    class_names: tuple | None,
    feature_names: tuple | None,
    _X: np.ndarray,
    _y: np.ndarray | None,
):
    wv = None if w is None else np.asarray(w, dtype=np.float64)
    proj = cache.projection(view, data_fingerprint, _X, wv, b, feature_names=feature_names)
    lab = np.frombuffer(labels, dtype=np.int64)
    fig = plots.cluster_scatter(proj, lab, _y, class_names, title=title, height=380)
    # Laid out as the Cluster page's panels: margins plotly need not grow (one layout pass).
    plots.grid_panel(fig)
    return SharedChart.of(fig), proj.note


def scatter_figure(
    view, data_fingerprint, w, b, labels, title, X, y, class_names=None, feature_names=None
):
    """A before/after panel: the clusters in ``view`` with the hyperplane ``w``, ``b`` (in
    the original units), and the view's note — cached and shared (``cache_resource``), so
    a slider step rebuilds only the panels whose labels or hyperplane changed (the "before"
    panels and an invariant method's "after" panel are reused). Do not modify the figure."""
    wt, bv = _hyperplane_key(w, b)
    lab = np.asarray(labels, dtype=np.int64).tobytes()
    names = None if class_names is None else tuple(class_names)
    features = None if feature_names is None else tuple(feature_names)
    return _scatter_figure(view, data_fingerprint, wt, bv, lab, title, names, features, X, y)


#: Decimals kept of a panel's hyperplane (unit normal and offset): far below anything a
#: figure shows, far above the rounding a rescaling leaves in a method immune to it.
HYPERPLANE_DECIMALS = 9


def _hyperplane_key(w, b) -> tuple[tuple | None, float | None]:
    """``(w, b)`` scaled to a unit ``w`` (every view draws the hyperplane from the unit
    normal, :func:`lab.projections.discriminant_view`) and rounded to
    :data:`HYPERPLANE_DECIMALS`: an immune method's "after" panel is then the same cached
    figure on every slider step, and the browser does not redraw it."""
    if w is None:
        return None, None if b is None else float(b)
    wv = np.asarray(w, dtype=np.float64).ravel()
    norm = float(np.linalg.norm(wv))
    if b is None or not np.isfinite(norm) or norm == 0.0:
        # Left as they are: the projection explains what it cannot draw.
        return tuple(float(v) for v in wv), None if b is None else float(b)
    unit = np.round(wv / norm, HYPERPLANE_DECIMALS) + 0.0  # + 0.0: no -0.0 in the key
    offset = round(float(b) / norm, HYPERPLANE_DECIMALS) + 0.0
    return tuple(float(v) for v in unit), offset


# ---- the page's small computations (no numpy in the page) -----------------------------------


def snapped_factors(factors: Sequence[float]) -> np.ndarray:
    """Each factor snapped to the slider's stops (:func:`ui.model.snap_factor`)."""
    return np.array([snap_factor(f) for f in factors], dtype=np.float64)


def unit_factors(n_features: int) -> np.ndarray:
    """Every feature at ×1."""
    return np.ones(int(n_features))


def is_scaled(factors: Sequence[float]) -> bool:
    """Whether any factor is not 1.

    Examples
    --------
    >>> is_scaled([1.0, 2.0]), is_scaled([1.0, 1.0])
    (True, False)
    """
    return bool(np.any(np.asarray(factors, dtype=np.float64) != 1.0))


def two_cluster_labelings(y, results: Sequence[FitOutcome]) -> dict[str, np.ndarray]:
    """The labelings Theorem 1's check can use: the true classes when there are two, and
    each method's clustering (before the rescaling) that has two clusters."""
    out: dict[str, np.ndarray] = {}
    if y is not None and np.unique(y).shape[0] == 2:
        out["the true classes"] = np.asarray(y)
    for r in results:
        if r.ok and r.labels is not None and np.unique(r.labels).shape[0] == 2:
            out[f"{r.name}'s clustering (before)"] = np.asarray(r.labels)
    return out


#: At most this many methods are named in the lesson's verdict (the figure shows them all).
VERDICT_METHODS = 4


def lesson_verdict(table: pd.DataFrame, scaled: bool) -> str:
    """The Feature scaling lesson's one sentence, from the numbers of its figure (accuracy
    before and after the rescaling, or the held-out MSP without true classes) and the share
    of labels each method changed."""
    if table.empty:
        return "No method ran: choose one in the sidebar."
    if not scaled:
        return "Every factor is ×1, so before and after agree: move a factor to rescale a feature."
    metric, label = ("accuracy", "accuracy")
    if table["accuracy_before"].isna().all():
        metric, label = ("msp_heldout", "held-out MSP")
    parts = []
    for row in table.head(VERDICT_METHODS).itertuples():
        before, after = getattr(row, f"{metric}_before"), getattr(row, f"{metric}_after")
        if pd.isna(before) or pd.isna(after):
            parts.append(f"{row.method} did not run on both")
            continue
        moved = "labels unchanged" if row.changed == 0 else f"{row.changed:.0%} of labels changed"
        before, after = f"{before:.3f}", f"{after:.3f}"  # as the figure and tables show them
        parts.append(f"{row.method} {before} → {after} ({moved})")
    return f"After the rescaling, {label}: " + "; ".join(parts) + "."


def msp_change(change: float) -> str:
    """A Theorem 1 metric's change: ``"change 0"`` when exactly none, else signed in
    scientific notation (``"change +3.1e-13"``)."""
    return "change 0" if change == 0 else f"change {change:+.1e}"


#: Feature scaling's names for MSPC's starts (one for every ``clustering.mspc.INITS``).
START_LABELS = {
    "heldout": "several starts immune to rescaling, kept by held-out MSP (the default) — immune",
    "kmeans": "k-means on the raw features — the paper's start (drifts with the units)",
    "kmeans-range": "k-means on range-scaled features — immune to rescaling",
    "kmeans-standardized": "k-means on standardised features — immune to rescaling",
    "kmeans-whitened": "k-means on whitened features — immune to any linear change with Λ = Σ",
    "eig": "MSPC-EIG's labels — immune to rescaling",
    "pursuit": "a cut along the most two-humped whitened direction — immune to rescaling",
    "auto": "several starts, highest in-sample MSP kept (its raw k-means start is not immune)",
    "auto-invariant": "several starts immune to rescaling, highest MSP kept — immune to rescaling",
}
