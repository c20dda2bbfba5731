"""The lab's display table of fits: one row per :class:`~lab.evaluation.FitOutcome`, its
metrics under the column titles the pages show (the fitting itself is
:mod:`lab.evaluation`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["METRIC_COLUMNS", "metrics_table", "outcome_row"]

#: Keys of :attr:`FitOutcome.metrics` and the column titles :func:`metrics_table` gives them.
METRIC_COLUMNS: Mapping[str, str] = {
    "msp": "MSP",
    "msp_heldout": "held-out MSP",
    "accuracy": "accuracy",
    "nmi": "NMI",
    "rand": "Rand",
    "ari": "ARI",
    "f": "F",
    "seconds": "time (s)",
    "n_iter": "iterations",
}


def outcome_row(result: Any) -> dict[str, Any]:
    """A fit's metrics row keyed by display column, with the algorithm's name first."""
    out: dict[str, Any] = {"algorithm": result.name}
    for key, title in METRIC_COLUMNS.items():
        out[title] = result.metrics.get(key)
    out["error"] = result.error or ""
    return out


def metrics_table(results: Sequence[Any]):
    """The metrics rows of several results (:class:`~lab.evaluation.FitOutcome`) as a
    :class:`pandas.DataFrame` (one row each).

    Failed fits keep their row, with empty metrics and the message in ``error``.

    Examples
    --------
    >>> import numpy as np
    >>> from lab.evaluation import fit_and_evaluate
    >>> X = np.array([[0.0, 0], [0, 1], [1, 0], [5, 5], [5, 6], [6, 5]])
    >>> table = metrics_table([fit_and_evaluate("mspc-eig", {}, X, [0, 0, 0, 1, 1, 1])])
    >>> list(table.columns)[:4], float(table["accuracy"].iloc[0])
    (['algorithm', 'MSP', 'held-out MSP', 'accuracy'], 1.0)
    """
    import pandas as pd

    return pd.DataFrame([outcome_row(r) for r in results])
