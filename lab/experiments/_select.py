"""Choosing one parameter setting per method and task from a grid of cells."""

from __future__ import annotations

import pandas as pd

__all__ = ["select"]


def select(frame: pd.DataFrame, by: str, *, keys=("method", "task")) -> pd.DataFrame:
    """The cell with the largest ``by`` for every group of ``keys``.

    Only cells with status ``"ok"`` and a finite ``by`` take part. Ties go to the cell planned
    first (the smallest value of the grid), so the choice is reproducible.

    Parameters
    ----------
    frame : DataFrame
        Cells (see :func:`lab.experiments.cells_frame`), optionally with extra columns
        such as a mean over seeds.
    by : str
        Column to maximise (``"accuracy"``: the papers' protocol, uses the labels;
        ``"msp"``: the MSP at a common ``lam``, uses no labels).
    keys : tuple of str
        Grouping columns.

    Returns
    -------
    DataFrame
        One row per group (the chosen cell's row).
    """
    ok = frame[(frame["status"] == "ok") & frame[by].notna()] if "status" in frame else frame
    ok = ok[ok[by].notna()]
    if ok.empty:
        return ok.copy()
    index = ok.groupby(list(keys), sort=False)[by].idxmax()
    return ok.loc[index.to_numpy()].reset_index(drop=True)
