"""The one evaluator of the lab's protocols: fit one method, measure it, never raise.

:func:`evaluate_fit` wraps :func:`lab.evaluation.fit_and_evaluate` (the numbers of
the Cluster page and of the papers' tables) and returns the lab's one result type,
:class:`~lab.evaluation.FitOutcome`; the app passes a cached evaluator with the same
signature (:func:`ui.analysis.cached_evaluator`, over :func:`ui.cache.fit`, which returns the
same type).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from clustering.metrics import msp_score
from lab.evaluation import FitOutcome, fit_and_evaluate

__all__ = [
    "Evaluator",
    "FitOutcome",
    "MethodSpec",
    "Progress",
    "apply_factors",
    "evaluate_fit",
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
    """Fit the method ``key`` on ``X`` and measure it; never raises.

    :func:`lab.evaluation.fit_and_evaluate` (so the numbers are the Cluster page's)
    with every error turned into ``FitOutcome.error``: an unknown key, a bad parameter or a
    solver failure comes back as a message, so a sweep over many runs survives one failure.
    ``outcome.accuracy`` and ``outcome.msp`` are NaN where undefined.

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
        :data:`lab.evaluation.MSP_REFERENCE_LAM` with ``regularizer="diag"``.
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
        return fit_and_evaluate(
            key,
            dict(params or {}),
            X,
            y,
            msp_lam=msp_lam,
            msp_regularizer=msp_regularizer,
            random_state=random_state,
        )
    except KeyError as err:
        return FitOutcome(key, key, dict(params or {}), error=str(err.args[0]), error_type="")
    except Exception as err:  # a bad parameter name or a bug: a message, never a crash
        from clustering.registry import ALGORITHMS

        return FitOutcome(
            key,
            ALGORITHMS[key].name,
            dict(params or {}),
            error=f"{type(err).__name__}: {err}",
            error_type="",
        )


def msp_or_nan(X: np.ndarray, labels, lam: float, regularizer: str) -> float:
    if labels is None or np.unique(labels).shape[0] != 2:
        return np.nan
    try:
        return msp_score(X, labels, lam=lam, regularizer=regularizer)
    except Exception:
        return np.nan
