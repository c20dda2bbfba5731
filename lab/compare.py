"""The comparison grid: every chosen method on a few data sets, in the spirit of
scikit-learn's "comparing clustering algorithms on toy datasets".

:func:`standard_rows` gives the lab's rows (the AFS trap before and after its ``noise``
feature is measured in units ten times smaller, two Gaussians, two moons, a bundled task);
:func:`compare_grid` fits every (row, method) cell, in parallel with joblib, and returns one
:class:`CompareCell` per cell with its labels, accuracy, MSP and time. A cell whose predicted
cost (:func:`lab.budget.fit_cost`, once per cell) is above the auto-run limit, or would take the
grid past it with the cells before it (:func:`lab.budget.decide`), is not
started; it carries the prediction instead. The figure is :func:`lab.plots.compare.compare_figure`.

No Streamlit here; the app caches :func:`compare_grid` in :mod:`ui.compare`.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from clustering._cost import Cost
from lab.budget import AUTO_RUN_SECONDS, RUN, auto_run, decide, fit_cost
from lab.evaluation import fit_and_evaluate
from lab.projections import pca_view

__all__ = [
    "IDLE_WORKER_SECONDS",
    "MAX_JOBS",
    "CompareCell",
    "CompareRow",
    "compare_grid",
    "row_coords",
    "standard_rows",
]

#: The most worker processes a grid uses (each holds the lab's imports, ~0.23 GB): joblib's
#: loky pool is one per server process, shared by every session's grid, so this bounds them
#: all.
MAX_JOBS = 2
#: A worker idle this long exits (loky's default is 300 s: the workers of one Compare visit
#: stayed for minutes after everyone had left).
IDLE_WORKER_SECONDS = 10


@dataclass(frozen=True)
class CompareRow:
    """One data set of the grid: its display name, features and true classes."""

    name: str
    X: np.ndarray
    y: np.ndarray | None = None
    note: str = ""


@dataclass
class CompareCell:
    """One (data set, method) panel.

    ``status`` is ``"ok"``, ``"skipped"`` (predicted above the auto-run limit: ``message``
    gives the prediction) or ``"error"`` (the fit failed: ``message`` is its error).
    """

    row: str
    key: str
    status: str
    labels: np.ndarray | None = None
    accuracy: float | None = None
    msp: float | None = None
    msp_heldout: float | None = None
    seconds: float | None = None
    message: str = ""
    extra: dict = field(default_factory=dict)

    def corner(self) -> str:
        """The panel's corner text, two lines: ``acc 0.960 · MSP 0.889<br>held-out 0.850 ·
        0.12 s`` (or why it is empty); "MSP" is the in-sample MSP. Accuracy and MSPs have
        three decimals, as in every table of the lab."""
        if self.status == "skipped":  # the reason goes under the grid: a panel is narrow
            return "not run<br>(see below)"
        if self.status == "error":
            return "failed"
        parts = []
        if self.accuracy is not None:
            parts.append(f"acc {self.accuracy:.3f}")
        parts.append("MSP " + ("–" if self.msp is None else f"{self.msp:.3f}"))
        second = ["held-out " + ("–" if self.msp_heldout is None else f"{self.msp_heldout:.3f}")]
        if self.seconds is not None:
            second.append(f"{self.seconds:.2f} s")
        # Two short lines, so that the corner fits a panel a quarter of a 1280 px page wide.
        return " · ".join(parts) + "<br>" + " · ".join(second)


def standard_rows(bundled: str = "breast", n_samples: int = 300) -> list[CompareRow]:
    """The lab's rows: AFS trap (noise x1 and x10), two Gaussians, two moons, ``bundled``.

    Synthetic rows use ``n_samples`` points and seed 0; the bundled task is scaled to
    [-1, 1] (the papers' preprocessing).
    """
    import datasets
    from datasets.synthetic import make

    rows = []
    trap = make("afs_trap", n_samples=n_samples)
    rows.append(CompareRow("AFS trap (noise ×1)", trap.X, trap.y))
    rows.append(
        CompareRow(
            "AFS trap (noise ×10)",
            trap.X * np.array([1.0, 10.0]),
            trap.y,
            "the noise feature measured in units ten times smaller",
        )
    )
    gauss = make("two_gaussians", n_samples=n_samples, covariance="elongated")
    rows.append(CompareRow("Two Gaussians (elongated)", gauss.X, gauss.y))
    moons = make("moons", n_samples=n_samples)
    rows.append(CompareRow("Two moons", moons.X, moons.y))
    task = datasets.load(bundled, normalize=True)
    rows.append(CompareRow(f"{bundled} (bundled)", task.X, task.y))
    return rows


def row_coords(X) -> tuple[np.ndarray, str, str]:
    """2-D coordinates of a row's points (the features themselves for two features, else
    the first two principal components) and the two axis titles."""
    X = np.asarray(X, dtype=np.float64)
    if X.shape[1] == 2:
        return X, "feature 1", "feature 2"
    view = pca_view(X, max_points=X.shape[0])
    coords = np.zeros((X.shape[0], 2))
    coords[view.index] = view.coords
    return coords, "PC1", "PC2"


def _fit_cell(
    row: CompareRow,
    key: str,
    params: Mapping[str, Any],
    msp_lam: float | None = None,
    msp_regularizer: str | None = None,
) -> CompareCell:
    start = time.perf_counter()
    result = fit_and_evaluate(
        key, dict(params), row.X, row.y, msp_lam=msp_lam, msp_regularizer=msp_regularizer
    )
    elapsed = time.perf_counter() - start
    if not result.ok:
        return CompareCell(row.name, key, "error", message=str(result.error), seconds=elapsed)
    m = result.metrics
    return CompareCell(
        row.name,
        key,
        "ok",
        labels=np.asarray(result.labels),
        accuracy=m.get("accuracy"),
        msp=m.get("msp"),
        msp_heldout=m.get("msp_heldout"),
        seconds=float(result.seconds),
        extra={"kernel": result.kernel} if result.kernel else {},
    )


def compare_grid(
    rows: Sequence[CompareRow],
    methods: Sequence[str],
    params: Mapping[str, Mapping[str, Any]] | None = None,
    *,
    msp_lam: float | None = None,
    msp_regularizer: str | None = None,
    n_clusters: int = 2,
    n_jobs: int = 2,
) -> list[list[CompareCell]]:
    """Fit every method on every row; ``cells[i][j]`` is row ``i``, method ``j``.

    Parameters
    ----------
    rows : sequence of CompareRow
    methods : sequence of str
        Keys of :data:`clustering.ALGORITHMS`.
    params : mapping, optional
        ``{key: {param: value}}`` for methods that should not use their defaults.
    msp_lam, msp_regularizer : float and str, optional
        The one ``lam`` and ``Lambda`` every panel's MSP is computed with, so that two
        panels with the same labels show the same MSP (by default each method's own, see
        :func:`lab.evaluation.fit_and_evaluate`).
    n_clusters : int, default=2
        Asked of every method; a two-cluster method (``binary_only``) is ``"skipped"`` with
        the reason when it is above 2.
    n_jobs : int, default=2
        joblib workers (processes), at most :data:`MAX_JOBS`; 1 fits in this process.
        Workers exit after :data:`IDLE_WORKER_SECONDS` without work.

    Returns
    -------
    list of list of CompareCell
        A cell predicted above :data:`lab.budget.AUTO_RUN_SECONDS` (or the memory
        limit) is ``"skipped"`` and never started.

    Examples
    --------
    >>> rows = standard_rows()[:1]
    >>> cells = compare_grid(rows, ["kmeans"], n_jobs=1)
    >>> cells[0][0].status, round(cells[0][0].accuracy, 2)
    ('ok', 1.0)
    """
    from joblib import Parallel, delayed

    from clustering import ALGORITHMS

    params = {k: dict(v) for k, v in (params or {}).items()}
    if n_clusters != 2:
        for key in methods:
            if not ALGORITHMS[key].binary_only:
                params[key] = {**params.get(key, {}), "n_clusters": int(n_clusters)}
    grid: list[list[CompareCell | None]] = [[None] * len(methods) for _ in rows]
    jobs, costs = [], []
    for i, row in enumerate(rows):
        n, d = np.asarray(row.X).shape
        for j, key in enumerate(methods):
            if n_clusters != 2 and ALGORITHMS[key].binary_only:
                message = f"two-cluster method (k = {n_clusters})"
                grid[i][j] = CompareCell(row.name, key, "skipped", message=message)
                continue
            jobs.append((i, j))
            costs.append(fit_cost(key, n, d, params.get(key)) or Cost(0.0, 0))
    # The lab's one auto-run rule (lab.budget.decide), in grid order: all panels together
    # stay within the auto-run time; nothing here is clicked.
    verdicts = decide(costs)
    for (i, j), cost, verdict in zip(jobs, costs, verdicts, strict=True):
        if verdict != RUN:
            message = (
                f"{cost.describe()}, past the grid's {AUTO_RUN_SECONDS:.0f} s with the others"
                if auto_run(cost)
                else cost.describe()
            )
            grid[i][j] = CompareCell(rows[i].name, methods[j], "skipped", message=message)
    fits = [verdict == RUN for verdict in verdicts]
    jobs = [job for job, ok in zip(jobs, fits, strict=True) if ok]
    if jobs:
        tasks = [
            delayed(_fit_cell)(
                rows[i], methods[j], params.get(methods[j], {}), msp_lam, msp_regularizer
            )
            for i, j in jobs
        ]
        if n_jobs == 1 or len(jobs) == 1:
            done = [t[0](*t[1], **t[2]) for t in tasks]
        else:
            # max_nbytes=None: no memory-mapped temporary folder (the inputs are small), so nothing
            # is left for loky's resource tracker to clean up when workers are killed.
            done = Parallel(
                n_jobs=min(int(n_jobs), MAX_JOBS),
                max_nbytes=None,
                idle_worker_timeout=IDLE_WORKER_SECONDS,
            )(tasks)
        for (i, j), cell in zip(jobs, done, strict=True):
            grid[i][j] = cell
    return [[c for c in row if c is not None] for row in grid]
