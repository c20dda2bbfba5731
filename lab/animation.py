"""Motion for teaching: a feature's factor swept over a log grid, and MSPC's iterations.

* :func:`scaling_sweep` multiplies one feature by every factor of a log grid (×0.001 to
  ×1000 by default) and fits each chosen method on every frame: per frame the labels, the
  hyperplane **in the displayed (original) units**, the accuracy and the MSP. The page
  computes it once, caches it and hands it to
  :func:`lab.plots.animation.scaling_animation_figure`.
* :data:`PRESETS` are the "break k-means" and "rescue" sweeps of the AFS trap, as data.
* :func:`mspc_iterations` gives MSPC's state (labels, hyperplane, objective) after every
  iteration, for a step-through.

Pure Python, no streamlit. Every fit goes through a ``fit`` callable with the signature of
:func:`lab.evaluation.fit_and_evaluate` (the page passes its cached wrapper).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np

from clustering.metrics import msp_score
from clustering.mpm import fit_mpm_to_labels
from clustering.mspc import MSPC
from lab.evaluation import fit_and_evaluate

__all__ = [
    "DEFAULT_FACTORS",
    "PRESETS",
    "MSPCStep",
    "ScalingPreset",
    "ScalingSweep",
    "describe_sweep",
    "log_factors",
    "mspc_iterations",
    "scaling_sweep",
]

Fit = Callable[..., Any]


def log_factors(low: float = 1e-3, high: float = 1e3, per_decade: int = 2) -> np.ndarray:
    """A log grid of factors from ``low`` to ``high`` with ``per_decade`` steps per decade,
    always containing ×1.

    Examples
    --------
    >>> log_factors(0.01, 100, 1).tolist()
    [0.01, 0.1, 1.0, 10.0, 100.0]
    """
    if not (0 < low <= 1 <= high) or not np.isfinite(high):
        raise ValueError(
            f"The factor grid must run from a positive low <= 1 to a finite high >= 1, got "
            f"low={low!r}, high={high!r}."
        )
    if per_decade < 1:
        raise ValueError(f"per_decade must be at least 1, got {per_decade!r}.")
    lo, hi = np.log10(low), np.log10(high)
    n = round(float(hi - lo) * per_decade) + 1
    grid = np.unique(np.round(np.concatenate([np.linspace(lo, hi, max(n, 2)), [0.0]]), 10))
    return 10.0**grid


#: The default animation grid: ×0.001 … ×1000, two frames per decade (13 frames).
DEFAULT_FACTORS = log_factors()


@dataclass(frozen=True)
class ScalingPreset:
    """A sweep given as data: which feature moves, and the factors held fixed meanwhile.

    Attributes
    ----------
    label : str
        Button label.
    feature : str
        Name of the swept feature.
    fixed : mapping of str to float
        Factors applied to other features during the whole sweep.
    story : str
        One sentence for the page: what to watch.
    """

    label: str
    feature: str
    fixed: Mapping[str, float] = field(default_factory=dict)
    story: str = ""

    def indices(self, feature_names: Sequence[str]) -> tuple[int, dict[int, float]]:
        """Column of the swept feature and the fixed factors by column, for ``feature_names``."""
        names = list(feature_names)
        missing = [f for f in (self.feature, *self.fixed) if f not in names]
        if missing:
            raise ValueError(
                f"The preset {self.label!r} needs the feature(s) {', '.join(missing)}, which "
                f"these data do not have ({', '.join(names)}); use it on the AFS trap."
            )
        return names.index(self.feature), {names.index(k): float(v) for k, v in self.fixed.items()}


#: The AFS trap's two stories (``datasets.synthetic.afs_trap`` features ``signal``, ``noise``).
PRESETS: Mapping[str, ScalingPreset] = MappingProxyType(
    {
        "break": ScalingPreset(
            "Break k-means",
            "noise",
            {},
            "The uninformative 'noise' feature grows from ×0.001 to ×1000: once it is a few "
            "times wider than a cluster, k-means splits along it; MSPC started from "
            "standardised features does not move.",
        ),
        "rescue": ScalingPreset(
            "Rescue k-means",
            "signal",
            {"noise": 10.0},
            "With 'noise' at ×10 k-means is broken; now 'signal' grows from ×0.001 to ×1000 "
            "and, once the clusters are far enough apart, k-means splits along it again.",
        ),
    }
)


@dataclass(frozen=True)
class ScalingSweep:
    """Every method fitted on every frame of a one-feature factor sweep.

    Attributes
    ----------
    feature : int
        Column that was multiplied.
    factors : ndarray of shape (n_frames,)
        Its factor in each frame.
    base_factors : ndarray of shape (n_features,)
        Factors applied in every frame before the sweep (the preset's fixed ones; the
        swept column's entry is 1).
    methods : tuple of str
        Display names, in the order of the arrays' first axis.
    labels : ndarray of shape (n_methods, n_frames, n_samples)
        Cluster of each sample (``-1`` where the fit failed).
    w : ndarray of shape (n_methods, n_frames, n_features)
        Hyperplane normal in the **original units** of ``X`` (the units the frames are drawn
        in): the fitted ``w`` times each column's total factor, so ``w @ x = b`` for the
        unscaled ``x``. NaN where the method has no hyperplane or failed.
    b : ndarray of shape (n_methods, n_frames)
    accuracy, msp : ndarray of shape (n_methods, n_frames)
        NaN where undefined (no true classes, failed fit).
    errors : tuple of str
        One message per failed fit ("" when none failed).
    """

    feature: int
    factors: np.ndarray
    base_factors: np.ndarray
    methods: tuple[str, ...]
    labels: np.ndarray
    w: np.ndarray
    b: np.ndarray
    accuracy: np.ndarray
    msp: np.ndarray
    errors: tuple[str, ...] = ()

    def total_factors(self, frame: int) -> np.ndarray:
        """The factor of every column in ``frame``."""
        out = self.base_factors.copy()
        out[self.feature] *= self.factors[frame]
        return out


def _num(value) -> float:
    return np.nan if value is None else float(value)


def scaling_sweep(
    X,
    y,
    methods: Mapping[str, tuple[str, Mapping[str, Any]]],
    feature: int,
    factors: Sequence[float] = DEFAULT_FACTORS,
    *,
    fixed: Mapping[int, float] | None = None,
    fit: Fit = fit_and_evaluate,
    random_state: int | None = 0,
) -> ScalingSweep:
    """Multiply column ``feature`` by each factor and fit every method on every frame.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        The data in the units the frames are drawn in.
    y : array-like of shape (n_samples,) or None
        True classes, for the accuracy.
    methods : mapping of str to (key, params)
        Display name -> registry key and parameters, e.g.
        ``{"k-means": ("kmeans", {}), "MSPC": ("mspc-mpm", {"init": "kmeans-standardized"})}``.
    feature : int
        The swept column.
    factors : sequence of float, default=DEFAULT_FACTORS
        Positive factors, one frame each (×0.001 … ×1000, 13 frames).
    fixed : mapping of int to float, optional
        Factors applied to other columns in every frame (a preset's ``fixed``).
    fit : callable, default=fit_and_evaluate
        ``fit(key, params, X, y, random_state=...)`` returning a ``FitOutcome``.
    random_state : int or None, default=0

    Returns
    -------
    ScalingSweep

    Examples
    --------
    >>> from datasets.synthetic import afs_trap
    >>> ds = afs_trap(n_samples=60)
    >>> sweep = scaling_sweep(ds.X, ds.y, {"k-means": ("kmeans", {})}, 1, [1.0, 100.0])
    >>> sweep.accuracy.round(2).tolist()
    [[1.0, 0.52]]
    """
    X = np.asarray(X, dtype=float)
    if X.ndim != 2:
        raise ValueError(f"X must be a 2-D array (samples x features), got shape {X.shape}.")
    n, d = X.shape
    if not 0 <= int(feature) < d:
        raise ValueError(f"feature must be a column index between 0 and {d - 1}, got {feature}.")
    feature = int(feature)
    grid = np.asarray(list(factors), dtype=float)
    if grid.ndim != 1 or grid.size == 0 or not np.all(np.isfinite(grid) & (grid > 0)):
        raise ValueError(f"factors must be positive finite numbers, got {list(factors)!r}.")
    if not methods:
        raise ValueError("Choose at least one method to animate.")
    base = np.ones(d)
    for j, f in (fixed or {}).items():
        if int(j) == feature:
            raise ValueError(f"Column {j} is the swept feature; it cannot also be held fixed.")
        if not (np.isfinite(f) and f > 0):
            raise ValueError(f"A fixed factor must be positive, got {f!r} for column {j}.")
        base[int(j)] = float(f)
    n_m, n_f = len(methods), grid.size
    labels = np.full((n_m, n_f, n), -1, dtype=int)
    w = np.full((n_m, n_f, d), np.nan)
    b = np.full((n_m, n_f), np.nan)
    acc = np.full((n_m, n_f), np.nan)
    msp = np.full((n_m, n_f), np.nan)
    errors: list[str] = []
    for t, f in enumerate(grid):
        total = base.copy()
        total[feature] *= f
        Xs = X * total
        for m, (name, (key, params)) in enumerate(methods.items()):
            result = fit(key, dict(params), Xs, y, random_state=random_state)
            if result.error or result.labels is None:
                errors.append(f"{name} at ×{f:g}: {result.error}")
                continue
            labels[m, t] = np.asarray(result.labels, dtype=int)
            if result.w is not None and result.b is not None:
                w[m, t] = np.asarray(result.w, dtype=float) * total
                b[m, t] = float(result.b)
            acc[m, t] = _num(result.metrics.get("accuracy"))
            msp[m, t] = _num(result.metrics.get("msp"))
    return ScalingSweep(feature, grid, base, tuple(methods), labels, w, b, acc, msp, tuple(errors))


@dataclass(frozen=True)
class MSPCStep:
    """MSPC's state after ``iteration`` alternations (0 = the start).

    Attributes
    ----------
    iteration : int
    labels : ndarray of shape (n_samples,)
    w : ndarray of shape (n_features,)
        Hyperplane normal in the units of ``X`` (``w @ x = b``).
    b : float
    objective : float
        The MSP of ``labels`` (same ``lam`` and ``regularizer`` as the fit).
    n_changed : int
        Samples whose label changed since the previous step.
    climb_lam : float or None
        The ``lam`` the climb ran at when it is not the fit's (the default's labels kept at a
        smaller ``lam``, :attr:`clustering.MSPC.search_lam_`); None when it is.
    """

    iteration: int
    labels: np.ndarray
    w: np.ndarray
    b: float
    objective: float
    n_changed: int
    climb_lam: float | None = None


def mspc_iterations(X, params: Mapping[str, Any] | None = None, *, random_state=0):
    """MSPC's state after every iteration, for a step-through.

    :class:`~clustering.MSPC` does not expose its iterates, so they are **recomputed**: the
    full fit gives the start (``init_labels_``) and the number of iterations ``n_iter_``;
    then for ``t = 1 .. n_iter_`` MSPC is refitted from that same start (``init`` set to the
    start labels) with ``max_iter=t``, and its labels, hyperplane and MSP are recorded. Step
    0 is the start itself, with the MPM hyperplane fitted to it. A refit that returns the
    same labels as the step before (the solver returns the labeling its last MPM was fitted
    to, so ``max_iter=1`` gives the start back) adds no step. This costs ``n_iter_ + 1``
    fits; the solver is deterministic from a fixed start, so the last step equals the full
    fit (a test checks it), and the objectives are the fit's ``history_``. When the default
    kept labels climbed at a smaller ``lam`` (``search_lam_``), the refits climb at that
    ``lam`` (so the last step is still the fit) and every objective is the MSP at the fit's
    ``lam``, the one every other view shows for the same labels; ``climb_lam`` says so.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    params : mapping, optional
        MSPC's parameters (``method`` "mpm" or "gep", ``lam``, ``regularizer``, ``init``, ...).
    random_state : int or None, default=0

    Returns
    -------
    list of MSPCStep
        ``n_iter_ + 1`` steps, the start first.
    """
    X = np.asarray(X, dtype=float)
    params = dict(params or {})
    if params.get("method", "mpm") == "eig":
        raise ValueError("MSPC-EIG has no iterations to step through; choose method='mpm'.")
    full = MSPC(**params, random_state=random_state).fit(X)
    lam, reg = full.lam, full.regularizer
    climb_lam = None if full.search_lam_ == lam else float(full.search_lam_)
    start = np.asarray(full.init_labels_, dtype=int)
    _, w0, b0 = fit_mpm_to_labels(X, start, full.search_lam_, reg)
    objective0 = msp_score(X, start, lam, reg)
    steps = [MSPCStep(0, start, np.asarray(w0), float(b0), objective0, 0, climb_lam)]
    previous = start
    for t in range(1, int(full.n_iter_) + 1):
        refit = {**params, "lam": full.search_lam_, "init": start, "max_iter": t}
        model = MSPC(**refit, random_state=random_state)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model.fit(X)
        labels = np.asarray(model.labels_, dtype=int)
        # Cluster names may swap between fits; keep them aligned with the previous step.
        if np.mean(labels != previous) > 0.5:
            labels = 1 - labels
            w_t, b_t = -np.asarray(model.w_), -float(model.b_)
        else:
            w_t, b_t = np.asarray(model.w_), float(model.b_)
        n_changed = int(np.sum(labels != previous))
        if n_changed == 0:
            continue
        objective = msp_score(X, labels, lam, reg)  # model.msp_ when the climb ran at lam
        steps.append(MSPCStep(len(steps), labels, w_t, b_t, objective, n_changed, climb_lam))
        previous = labels
    return steps


def describe_sweep(sweep: ScalingSweep, feature_name: str | None = None) -> str:
    """What a sweep shows, decided by its numbers: per method, whether its accuracy moves
    over the frames and, if so, its value at ×1 and its lowest and highest with their factors.

    A method "does not move" when its accuracy spans less than half a point over every frame
    that has one. Methods without an accuracy (no true classes) are described by their MSP.

    Examples
    --------
    >>> from datasets.synthetic import afs_trap
    >>> ds = afs_trap(n_samples=60)
    >>> sweep = scaling_sweep(ds.X, ds.y, {"k-means": ("kmeans", {})}, 1, [1.0, 100.0])
    >>> describe_sweep(sweep, "noise")
    "'noise' ×1 to ×100. k-means: accuracy 1.000 at ×1, lowest 0.517 at ×100."
    """
    f = sweep.factors
    start = int(np.argmin(np.abs(np.log(f))))
    name = feature_name or f"feature {sweep.feature}"
    sentences = [f"'{name}' ×{f.min():g} to ×{f.max():g}."]
    for m, method in enumerate(sweep.methods):
        values, what = sweep.accuracy[m], "accuracy"
        if not np.any(np.isfinite(values)):
            values, what = sweep.msp[m], "MSP"
        ok = np.flatnonzero(np.isfinite(values))
        if ok.size == 0:
            sentences.append(f"{method}: no result in any frame.")
            continue
        v = values[ok]
        lo, hi = ok[int(np.argmin(v))], ok[int(np.argmax(v))]
        at_one = values[start]
        if float(v.max() - v.min()) < 0.005:
            sentences.append(
                f"{method}: {what} {at_one:.3f} in all {ok.size} frames — it does not move."
                if np.isfinite(at_one)
                else f"{method}: {what} {v[0]:.3f} in all {ok.size} frames — it does not move."
            )
            continue
        parts = [f"{what} {at_one:.3f} at ×1"] if np.isfinite(at_one) else [what]
        if lo != start:
            parts.append(f"lowest {values[lo]:.3f} at ×{f[lo]:g}")
        if hi != start:
            parts.append(f"highest {values[hi]:.3f} at ×{f[hi]:g}")
        sentences.append(f"{method}: " + ", ".join(parts) + ".")
    return " ".join(sentences)
