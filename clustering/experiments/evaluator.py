"""The one evaluator of the lab's protocols: fit one method, measure it, never raise.

:func:`evaluate_fit` wraps :func:`clustering.evaluation.fit_and_evaluate` (the numbers of
the Cluster page and of the papers' tables) and returns one result type, :class:`FitOutcome`;
the app passes a cached evaluator with the same signature
(:func:`ui.analysis.cached_evaluator`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..evaluation import FitResult, fit_and_evaluate
from ..metrics import msp_score

__all__ = [
    "Evaluator",
    "FitOutcome",
    "MethodSpec",
    "Progress",
    "apply_factors",
    "evaluate_fit",
    "outcome_from_result",
]

Progress = Callable[[float, str], Any] | None
MethodSpec = tuple[str, Mapping[str, Any]]
#: ``evaluator(key, params, X, y, *, msp_lam, random_state) -> FitOutcome``, the signature
#: of :func:`evaluate_fit`; the app passes a cached one.
Evaluator = Callable[..., "FitOutcome"]


def report(progress: Progress, fraction: float, message: str) -> None:
    if progress is not None:
        progress(float(min(max(fraction, 0.0), 1.0)), message)


def apply_factors(X, factors) -> np.ndarray:
    """``X`` with feature ``j`` multiplied by ``factors[j]`` (a new array).

    Uses :func:`datasets.scaling.apply` (which validates the factors and accepts a dict
    ``{feature index: factor}``) when the :mod:`datasets` package is importable, otherwise
    the same plain multiplication with the same checks on a vector of factors.

    Examples
    --------
    >>> import numpy as np
    >>> apply_factors(np.ones((1, 3)), [1, 8, 0.5])
    array([[1. , 8. , 0.5]])
    """
    try:
        from datasets import scaling
    except Exception:  # pragma: no cover - only while the datasets package is incomplete
        scaling = None
    if scaling is not None:
        return scaling.apply(X, factors)
    X = np.asarray(X, dtype=np.float64)
    vector = np.asarray(factors, dtype=np.float64).ravel()
    if vector.shape[0] != X.shape[1]:
        raise ValueError(f"{vector.shape[0]} scaling factors were given for {X.shape[1]} features.")
    if not (np.isfinite(vector).all() and (vector > 0).all()):
        raise ValueError("Scaling factors must be positive and finite.")
    return X * vector


# --------------------------------------------------------------------------------------------
# One fit, measured
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FitOutcome:
    """One fitted method, measured (the numbers an analysis table needs).

    Attributes
    ----------
    labels : ndarray of shape (n_samples,) or None
        Cluster labels (``None`` if the fit failed).
    accuracy : float
        Clustering accuracy against ``y`` (NaN without ``y`` or on failure).
    msp : float
        MSP of ``labels`` (NaN on failure or when the labeling does not have two clusters).
    msp_lam : float
        The ``lam`` the MSP was measured with.
    seconds : float
        Wall time of ``fit``.
    error : str
        Empty on success, else the error message (a readable one from the estimator).
    result : clustering.evaluation.FitResult or None
        The full result of :func:`clustering.evaluation.fit_and_evaluate` (hyperplane,
        history, NMI, ...); ``None`` when the method could not even be built.
    """

    labels: np.ndarray | None
    accuracy: float
    msp: float
    msp_lam: float
    seconds: float
    error: str
    result: FitResult | None = None

    @property
    def ok(self) -> bool:
        """Whether the fit succeeded."""
        return not self.error

    def to_dict(self) -> dict[str, Any]:
        """The outcome as plain JSON values (what an experiment cell stores on disk).

        ``status`` (``"ok"`` or ``"failed"``), ``error`` (``"<type>: <message>"`` or
        ``None``), ``seconds``, and on success ``warnings``, ``accuracy``, ``nmi``,
        ``rand``, ``msp`` (``None`` where undefined), ``n_iter`` and ``n_clusters``.
        """
        result = self.result
        if not self.ok:
            error = self.error
            if result is not None and result.error_type:
                error = f"{result.error_type}: {result.error}"
            return {"status": "failed", "error": error, "seconds": self.seconds}
        assert result is not None  # a successful outcome always carries its result
        return {
            "status": "ok",
            "error": None,
            "seconds": result.seconds,
            "warnings": list(result.warnings),
            "accuracy": result.metrics["accuracy"],
            "nmi": result.metrics["nmi"],
            "rand": result.metrics["rand"],
            "msp": result.metrics["msp"],
            "n_iter": result.n_iter,
            "n_clusters": result.n_clusters,
        }


def _nan(value: Any) -> float:
    return np.nan if value is None else float(value)


def evaluate_fit(
    key: str,
    params: Mapping[str, Any] | None,
    X,
    y=None,
    *,
    msp_lam: float | None = None,
    msp_regularizer: str | None = None,
    random_state: int | None = 0,
) -> FitOutcome:
    """Fit the method ``key`` on ``X`` and measure accuracy (against ``y``) and MSP.

    A thin layer over :func:`clustering.evaluation.fit_and_evaluate` (so the numbers are
    the Cluster page's) that never raises: an unknown key, a bad parameter or a solver
    failure comes back as ``FitOutcome.error``, so a sweep over many runs survives one
    failure, and undefined numbers are NaN rather than ``None``.

    Parameters
    ----------
    key : str
        A key of :data:`clustering.ALGORITHMS`.
    params : mapping or None
        Estimator parameters (the registry's defaults fill in the others).
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,) or None
        True classes, for the accuracy.
    msp_lam : float or None, default=None
        ``lam`` of the MSP. ``None``: the method's own ``lam`` and ``regularizer`` when it
        has them (MSPC reports the MSP it maximised), else
        :data:`clustering._lam.MSP_REFERENCE_LAM` with ``regularizer="diag"``.
    msp_regularizer : str or None, default=None
        ``Lambda`` of the MSP (``None``: as for ``msp_lam``).
    random_state : int or None, default=0
        Set on estimators that take a ``random_state`` and were not given one.

    Returns
    -------
    FitOutcome
    """
    X = np.asarray(X, dtype=np.float64)
    try:
        result = fit_and_evaluate(
            key,
            dict(params or {}),
            X,
            y,
            msp_lam=msp_lam,
            msp_regularizer=msp_regularizer,
            random_state=random_state,
        )
    except KeyError as err:
        return FitOutcome(None, np.nan, np.nan, np.nan, 0.0, str(err.args[0]))
    except Exception as err:  # a bad parameter name or a bug: a message, never a crash
        return FitOutcome(None, np.nan, np.nan, np.nan, 0.0, f"{type(err).__name__}: {err}")
    return outcome_from_result(result)


def outcome_from_result(result: FitResult) -> FitOutcome:
    """The :class:`FitOutcome` of a :class:`clustering.evaluation.FitResult`."""
    if not result.ok:
        return FitOutcome(
            None, np.nan, np.nan, result.msp_lam, result.seconds, result.error, result
        )
    return FitOutcome(
        labels=result.labels,
        accuracy=_nan(result.metrics.get("accuracy")),
        msp=_nan(result.metrics.get("msp")),
        msp_lam=float(result.msp_lam),
        seconds=float(result.seconds),
        error="",
        result=result,
    )


def msp_or_nan(X: np.ndarray, labels, lam: float, regularizer: str) -> float:
    if labels is None or np.unique(labels).shape[0] != 2:
        return np.nan
    try:
        return msp_score(X, labels, lam=lam, regularizer=regularizer)
    except Exception:
        return np.nan
