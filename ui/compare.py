"""The Compare page's cached computation (:func:`lab.compare.compare_grid`).

The grid is cached on the chosen methods, their parameters and the current data's
fingerprint, so moving between pages and coming back is instant.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import streamlit as st

from lab.budget import AUTO_RUN_SECONDS
from lab.compare import CompareRow, compare_grid, row_coords, standard_rows

__all__ = ["AUTO_RUN_SECONDS", "grid"]


@st.cache_data(max_entries=16, show_spinner=False)
def _grid(
    methods: tuple[str, ...],
    params: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...],
    current_name: str,
    current_fp: str,
    _X: np.ndarray | None,
    _y: np.ndarray | None,
    bundled: str,
    msp: tuple[float, str] | None = None,
    n_clusters: int = 2,
):
    rows = standard_rows(bundled)
    if _X is not None:
        rows.append(CompareRow(f"{current_name} (current data)", np.asarray(_X), _y))
    lam, reg = msp if msp is not None else (None, None)
    cells = compare_grid(
        rows,
        list(methods),
        {k: dict(v) for k, v in params},
        msp_lam=lam,
        msp_regularizer=reg,
        n_clusters=n_clusters,
    )
    shown = []
    for row in rows:
        coords, _, _ = row_coords(row.X)
        shown.append((row.name, coords, row.y))
    return shown, cells


def grid(
    methods: Sequence[str],
    params: Mapping[str, Mapping[str, Any]],
    current=None,
    bundled: str = "breast",
    *,
    msp: tuple[float, str] | None = None,
    n_clusters: int = 2,
):
    """``(rows, cells)``: each row's ``(name, coords, y)`` for the figure and the
    :class:`~lab.compare.CompareCell` grid. ``current`` (a
    :class:`~ui.model.CurrentData`) adds the current data as the last row. ``msp``:
    the page's ``(lam, regularizer)``, the one every panel's MSP is computed with;
    ``n_clusters``: asked of every method."""
    frozen = tuple(sorted((k, tuple(sorted(dict(v).items()))) for k, v in params.items()))
    msp = None if msp is None else (float(msp[0]), str(msp[1]))
    if current is None:
        return _grid(tuple(methods), frozen, "", "", None, None, bundled, msp, int(n_clusters))
    ds = current.dataset
    return _grid(
        tuple(methods),
        frozen,
        ds.name,
        current.fingerprint,
        ds.X,
        ds.y,
        bundled,
        msp,
        int(n_clusters),
    )


#: The most methods one figure of the grid holds (panels stay a quarter of the page wide).
MAX_COLUMNS = 4


def column_groups(n_methods: int, most: int = MAX_COLUMNS) -> list[list[int]]:
    """Column indices for each figure: ``n_methods`` split as evenly as possible into groups
    of at most ``most`` (9 -> 3, 3, 3; 5 -> 3, 2).

    Examples
    --------
    >>> column_groups(9), column_groups(2)
    ([[0, 1, 2], [3, 4, 5], [6, 7, 8]], [[0, 1]])
    """
    if n_methods <= 0:
        return []
    figures = -(-n_methods // most)
    size = -(-n_methods // figures)
    return [list(range(i, min(i + size, n_methods))) for i in range(0, n_methods, size)]


def row_verdict(row: str, cells) -> str:
    """The Compare lesson's sentence for one data set (one row of panels): each method's
    accuracy as its panel's corner shows it, and which has the highest held-out MSP."""
    from lab import plots

    done = [c for c in cells if c.status == "ok"]
    if not done:
        return f"No method ran on {row}: see the messages under the grid."
    parts = [f"{plots.method_name(c.key)} {c.accuracy:.3f}" for c in done if c.accuracy is not None]
    text = f"On {row}, accuracy: " + ", ".join(parts) + "." if parts else f"On {row}:"
    scored = [c for c in done if c.msp_heldout is not None and np.isfinite(c.msp_heldout)]
    if len(scored) > 1:
        top = max(round(c.msp_heldout, 3) for c in scored)
        leaders = [plots.method_name(c.key) for c in scored if round(c.msp_heldout, 3) == top]
        text += f" Highest held-out MSP: {' = '.join(leaders)} ({top:.3f})."
    return text
