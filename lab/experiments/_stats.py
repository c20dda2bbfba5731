"""The statistics the lab's protocols report: the λ a label-free score picks from a sweep
(next to the oracle's), Pearson's r and the least-squares line over the finite pairs."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd

from lab import verdicts

__all__ = ["SCORES", "LamChoice", "fit_line", "lam_choice", "pearson"]

#: The label-free scores a λ sweep and a family of runs report, by column: the held-out MSP
#: (:func:`lab.evaluation.heldout_msp`, the one the lab chooses by) and the in-sample MSP.
SCORES = {"msp_heldout": "held-out MSP", "msp": "in-sample MSP"}


def pearson(x, y) -> float:
    """Pearson correlation of the finite pairs; NaN with fewer than 3 pairs or no spread
    (:func:`lab.verdicts.pearson`, the r every verdict words).

    Examples
    --------
    >>> pearson([0.1, 0.5, 0.9], [0.6, 0.7, 0.95])
    0.9707...
    """
    return verdicts.pearson(x, y)[0]


def fit_line(x, y) -> tuple[float, float]:
    """Least-squares line ``y = slope * x + intercept`` over the finite pairs (NaNs if
    fewer than 2 pairs or no spread in ``x``).

    Examples
    --------
    >>> fit_line([0, 1, 2], [1, 3, 5])
    (2.0..., 1.0...)
    """
    x, y = verdicts.finite_pairs(x, y)
    if x.shape[0] < 2 or np.ptp(x) == 0:
        return float("nan"), float("nan")
    slope, intercept = np.polyfit(x, y, 1)
    return float(slope), float(intercept)


class LamChoice(NamedTuple):
    """The λ a label-free score picks from a :func:`lam_sweep` table, next to the oracle's.

    Attributes
    ----------
    by : str
        The column chosen by: ``"msp_heldout"`` or ``"msp"`` (:data:`SCORES`).
    lam : float
        The ``lam`` whose labeling has the largest score (no labels used); NaN if every run
        failed. Ties go to the smallest ``lam``.
    accuracy : float
        The accuracy of that labeling: what the label-free choice achieves.
    best_accuracy_lam : float
        The ``lam`` with the largest accuracy (needs labels; NaN without ``y``).
    best_accuracy : float
        The best accuracy on the grid: what an oracle would achieve.
    """

    by: str
    lam: float
    accuracy: float
    best_accuracy_lam: float
    best_accuracy: float


def lam_choice(table: pd.DataFrame, by: str = "msp_heldout") -> LamChoice:
    """The λ the score ``by`` picks from a :func:`lam_sweep` table, and the oracle's.

    Examples
    --------
    >>> t = pd.DataFrame({"lam": [0.01, 1.0], "msp": [0.9, 0.5],
    ...                   "msp_heldout": [0.2, 0.4], "accuracy": [0.55, 0.97]})
    >>> lam_choice(t).lam, lam_choice(t, "msp").lam
    (1.0, 0.01)
    """
    if by not in SCORES:
        raise ValueError(f"by must be one of {sorted(SCORES)}; got {by!r}.")
    lam = _argmax_of(table, by)
    acc_at = (
        float(table.loc[table["lam"] == lam, "accuracy"].iloc[0]) if np.isfinite(lam) else np.nan
    )
    best_acc = float(table["accuracy"].max()) if table["accuracy"].notna().any() else np.nan
    return LamChoice(by, lam, acc_at, _argmax_of(table, "accuracy"), best_acc)


def _argmax_of(table: pd.DataFrame, column: str) -> float:
    values = table[column]
    if not values.notna().any():
        return np.nan
    return float(table.loc[values.idxmax(), "lam"])  # first of ties: the smallest lam
