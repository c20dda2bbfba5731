"""One unit of work of an experiment (a *cell*) and the function that computes it.

A cell is one fit (or one timed series of fits) of one method with one parameter setting on
one task, optionally after scaling one feature. It is hashable and serialisable, so its
result can be cached on disk under a key derived from everything it depends on.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from clustering import metrics
from clustering._lam import effective_lam
from clustering.registry import ALGORITHMS
from lab.evaluation import MSP_REFERENCE_LAM, MSP_REFERENCE_REGULARIZER
from lab.experiments import _methods
from lab.experiments.evaluator import evaluate_fit

__all__ = ["CACHE_VERSION", "Cell", "cell_result", "compute_cell", "skip_reason"]

#: Bumped whenever what a cell computes changes, so stale cached results are not reused
#: (2: a cell stores the held-out MSP of its labeling, ``msp_heldout``).
CACHE_VERSION = 2

#: Beta of the pairwise F-measure reported by the MMC paper's Table V.
F_BETA = 1.5


@dataclass(frozen=True)
class Cell:
    """One fit of one method on one task.

    Attributes
    ----------
    experiment : str
        Experiment name (part of the cache key).
    method : str
        Method name: a registry key or a :data:`~lab.experiments._methods.VARIANTS`
        name.
    task : str
        A name accepted by :func:`datasets.load` (features scaled to ``[-1, 1]``).
    params : tuple of (str, value)
        Estimator parameters, sorted by name.
    scale_feature : int or None
        Index of a feature multiplied by ``scale_factor`` before fitting (AFS).
    scale_factor : float
        The factor (1 leaves the data unchanged).
    seed : int
        ``random_state`` of the estimator, when it has one.
    timing_repeats : int
        0: one fit, scored. ``k > 0``: fit ``k`` times and report the median wall-clock time
        (and the scores of the last fit).
    """

    experiment: str
    method: str
    task: str
    params: tuple = ()
    scale_feature: int | None = None
    scale_factor: float = 1.0
    seed: int = 0
    timing_repeats: int = 0

    @classmethod
    def make(cls, experiment: str, method: str, task: str, params=None, **kwargs) -> Cell:
        items = tuple(sorted((params or {}).items()))
        return cls(experiment, method, task, items, **kwargs)

    @property
    def param_dict(self) -> dict[str, Any]:
        return dict(self.params)

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["params"] = {k: v for k, v in self.params}
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Cell:
        data = dict(data)
        params = data.pop("params", {}) or {}
        return cls.make(
            data.pop("experiment"), data.pop("method"), data.pop("task"), params, **data
        )

    @property
    def key(self) -> str:
        """Hex digest of everything the result depends on (and :data:`CACHE_VERSION`)."""
        payload = json.dumps(
            {"version": CACHE_VERSION, **self.to_json()}, sort_keys=True, default=repr
        )
        return hashlib.sha1(payload.encode()).hexdigest()[:20]


@lru_cache(maxsize=16)
def _load(task: str):
    import datasets

    ds = datasets.load(task)
    ds.X.setflags(write=False)
    ds.y.setflags(write=False)
    return ds.X, ds.y


def _data(cell: Cell) -> tuple[np.ndarray, np.ndarray]:
    X, y = _load(cell.task)
    if cell.scale_feature is not None and cell.scale_factor != 1.0:
        from datasets import scaling

        X = scaling.apply(X, {int(cell.scale_feature): float(cell.scale_factor)})
    return X, y


def _msp_own(X, labels, variant, params) -> float | None:
    """MSP of the labeling at the method's own ``lam``/``regularizer`` (MSPC's ``msp_``)."""
    if not variant.key.startswith("mspc-") or np.unique(labels).shape[0] != 2:
        return None
    spec = ALGORITHMS[variant.key]
    full = {**spec.defaults(), **params}
    regularizer = str(full.get("regularizer", "diag"))
    lam = effective_lam(full.get("lam", 1.0), regularizer)
    try:
        return float(metrics.msp_score(X, labels, lam=lam, regularizer=regularizer))
    except (ValueError, np.linalg.LinAlgError, ArithmeticError):
        return None


def cell_result(outcome, y, **extra: Any) -> dict[str, Any]:
    """What a cell stores for one fit: :meth:`FitOutcome.to_dict` and, on success, the
    pairwise F-measure (beta 1.5) the papers' tables use plus ``extra`` (each a value, or a
    function of the labels). The one builder of a cell's result, for bundled tasks
    (:func:`compute_cell`) and generated ones (:func:`lab.experiments._generated.score_fit`).
    """
    out = outcome.to_dict()
    if outcome.ok:
        labels = outcome.labels
        out["f_measure"] = metrics.f_measure(y, labels, beta=F_BETA)
        for name, value in extra.items():
            out[name] = value(labels) if callable(value) else value
    return out


def _fit(variant, params: dict, X, y, seed: int) -> dict[str, Any]:
    """One fit through the lab's one evaluator, stored as the serialised :class:`FitOutcome`
    plus the scores only the papers' tables use (``f_measure`` with beta 1.5, ``msp_own``,
    and ``msp_heldout``: the held-out MSP at the same reference ``lam`` as ``msp``)."""
    outcome = evaluate_fit(
        variant.key,
        params,
        X,
        y,
        msp_lam=MSP_REFERENCE_LAM,
        msp_regularizer=MSP_REFERENCE_REGULARIZER,
        random_state=seed,
    )
    return cell_result(
        outcome,
        y,
        msp_own=lambda labels: _msp_own(X, labels, variant, params),
        msp_heldout=outcome.metrics.get("msp_heldout") if outcome.ok else None,
    )


def skip_reason(cell: Cell) -> str | None:
    """Why ``cell`` cannot run (an unknown method, a task larger than the method accepts),
    or ``None``: what :func:`compute_cell` reports as ``"skipped"``."""
    try:
        variant = _methods.resolve(cell.method)
    except KeyError as exc:
        return str(exc.args[0])
    spec = ALGORITHMS[variant.key]
    if spec.max_samples is not None:
        n = _data(cell)[0].shape[0]
        if n > spec.max_samples:
            return (
                f"{spec.name} accepts at most {spec.max_samples} samples with these settings; "
                f"{cell.task} has {n}."
            )
    return None


def compute_cell(cell: Cell) -> dict[str, Any]:
    """Compute one cell; never raises for a failing method (the result says what failed).

    The fit and its scores come from :func:`~lab.experiments.evaluator.evaluate_fit`
    (a :class:`~lab.evaluation.FitOutcome`, stored with
    :meth:`~lab.evaluation.FitOutcome.to_dict`), so the numbers agree with
    the app's and the lab's sweeps.

    Returns
    -------
    dict
        ``status`` (``"ok"``, ``"failed"`` or ``"skipped"``), ``error`` (message or
        ``None``), ``seconds`` (wall-clock of ``fit``), the scores ``accuracy``, ``nmi``,
        ``rand``, ``f_measure`` (pairwise, beta 1.5), ``msp`` (at
        :data:`lab.evaluation.MSP_REFERENCE_LAM`, the same for every method),
        ``msp_heldout`` (:func:`lab.evaluation.heldout_msp` at the same ``lam``), ``msp_own``
        (MSPC only: at its own ``lam``, its ``msp_``), ``n_iter``, and for timing cells
        ``times`` and ``time_median``.
    """
    reason = skip_reason(cell)
    if reason is not None:
        return {"status": "skipped", "error": reason}
    variant = _methods.resolve(cell.method)
    X, y = _data(cell)
    params = {**variant.fixed, **cell.param_dict}
    times: list[float] = []
    result: dict[str, Any] = {}
    try:
        for _ in range(max(1, int(cell.timing_repeats))):
            result = _fit(variant, params, X, y, cell.seed)
            if result["status"] != "ok":
                return result
            times.append(result["seconds"])
    except Exception as exc:
        return {"status": "failed", "error": f"unexpected {type(exc).__name__}: {exc}"}
    if cell.timing_repeats:
        result["times"] = times
        result["time_median"] = float(np.median(times))
    return result
