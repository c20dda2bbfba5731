"""Reproductions of the papers' tables and figures, one command each.

>>> from lab.experiments import EXPERIMENTS
>>> list(EXPERIMENTS)  # doctest: +NORMALIZE_WHITESPACE
['table2', 'table3', 'afs', 'msp-accuracy', 'mmc-digits', 'diffrac-fig1',
 'diffrac-table1', 'mvc-fig2', 'multiclass']

Command line (from the repository root)::

    python -m lab.experiments table2 --out results/ --jobs 2
    python -m lab.experiments afs --out results/ --methods kmeans,mspc-mpm --tasks breast
    python -m lab.experiments table2 --out results/ --backend dask --scheduler tcp://host:8786
    python -m lab.experiments report      # rebuild REPRODUCTION.md from stored results

From Python, :func:`run_experiment` runs one experiment (every finished cell is cached under
``<out>/cells/<experiment>/``, so an interrupted run resumes), and :func:`load_stored` reads
the results kept in the repository (:data:`PUBLISHED_DIR`), which the app's Reproduce page
shows.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any

from lab.evaluation import MSP_REFERENCE_LAM
from lab.experiments import _methods
from lab.experiments._base import (
    Config,
    Experiment,
    ExperimentResult,
    cells_frame,
    expand_tasks,
    load_result,
    machine_info,
)
from lab.experiments._cells import Cell, compute_cell
from lab.experiments._runner import BACKENDS, RunInterrupted, TerminalProgress, run_cells
from lab.experiments.afs import EXPERIMENT as _AFS
from lab.experiments.diffrac_fig1 import EXPERIMENT as _DIFFRAC_FIG1
from lab.experiments.diffrac_table1 import EXPERIMENT as _DIFFRAC_TABLE1
from lab.experiments.mmc_digits import EXPERIMENT as _MMC
from lab.experiments.msp_accuracy import EXPERIMENT as _MSP_ACC
from lab.experiments.multiclass import EXPERIMENT as _MULTICLASS
from lab.experiments.mvc_fig2 import EXPERIMENT as _MVC_FIG2
from lab.experiments.table2 import EXPERIMENT as _TABLE2
from lab.experiments.table3 import EXPERIMENT as _TABLE3

__all__ = [
    "BACKENDS",
    "EXPERIMENTS",
    "MSP_REFERENCE_LAM",
    "PUBLISHED_DIR",
    "Cell",
    "Config",
    "Experiment",
    "ExperimentResult",
    "RunInterrupted",
    "TerminalProgress",
    "cells_frame",
    "compute_cell",
    "expand_tasks",
    "load_stored",
    "machine_info",
    "method_available",
    "method_label",
    "run_cells",
    "run_experiment",
]

#: Every experiment, by command-line name, in the order of the report.
EXPERIMENTS: Mapping[str, Experiment] = MappingProxyType(
    {
        e.name: e
        for e in (
            _TABLE2,
            _TABLE3,
            _AFS,
            _MSP_ACC,
            _MMC,
            _DIFFRAC_FIG1,
            _DIFFRAC_TABLE1,
            _MVC_FIG2,
            _MULTICLASS,
        )
    }
)

#: The measured results kept in the repository (CSV, markdown, per-cell tables).
PUBLISHED_DIR = Path(__file__).resolve().parent / "published"

method_label = _methods.label
method_available = _methods.available


def _experiment(name: str) -> Experiment:
    try:
        return EXPERIMENTS[name]
    except KeyError:
        raise KeyError(
            f"There is no experiment called {name!r}. Choose one of: {', '.join(EXPERIMENTS)}."
        ) from None


def run_experiment(
    name: str,
    out,
    *,
    methods: Sequence[str] | None = None,
    tasks: Sequence[str] | None = None,
    options: Mapping[str, Any] | None = None,
    n_jobs: int = 1,
    backend: str = "loky",
    scheduler: str | None = None,
    cache_dir=None,
    progress: Callable[[int, int, str], None] | None = None,
    retry_failed: bool = False,
    write: bool = True,
    replace: bool = False,
) -> ExperimentResult:
    """Run one experiment and write its tables into ``out``.

    Parameters
    ----------
    name : str
        A key of :data:`EXPERIMENTS`.
    out : path-like
        Directory for ``<name>.csv``, ``<name>.md``, ``<name>_cells.csv`` and
        ``<name>_config.json``.
    methods, tasks : sequence of str, optional
        Override the experiment's defaults. Methods that are not registered are skipped and
        listed in the result; ``"source:*"`` stands for every pair task of a source.
    options : mapping, optional
        Experiment options (``{"grid": {"lam": [0.1, 1.0]}}``, ``{"repeats": 3}``, ...).
    n_jobs : int, default=1
        Parallel workers (ignored by experiments that time methods: they run serially).
    backend : {"loky", "dask", "sequential"}, default="loky"
    scheduler : str, optional
        Dask scheduler address; without it ``backend="dask"`` starts a local cluster.
    cache_dir : path-like, optional
        Where finished cells are cached (default ``<out>/cells/<name>``).
    progress : callable, optional
        ``progress(done, total, message)``; see :class:`TerminalProgress`.
    retry_failed : bool, default=False
        Recompute cells whose cached result is a failure.
    write : bool, default=True
        Write the result files into ``out``.
    replace : bool, default=False
        Overwrite a run of ``name`` with another configuration (methods, tasks, options)
        already in ``out``; without it such a run raises ``ValueError`` before any cell is
        computed, so two different runs never overwrite each other's tables.

    Returns
    -------
    ExperimentResult
    """
    experiment = _experiment(name)
    config = experiment.configure(methods, tasks, options)
    config.out = str(out)
    if write and not replace:
        _check_out(Path(out), name, config)
    cells = experiment.plan(config)
    cache = Path(cache_dir) if cache_dir is not None else Path(out) / "cells" / name
    records = run_cells(
        cells,
        cache,
        n_jobs=1 if experiment.serial else n_jobs,
        backend="sequential" if experiment.serial else backend,
        scheduler=scheduler,
        progress=progress,
        retry_failed=retry_failed,
        compute=experiment.compute,
    )
    result = experiment.build(cells_frame(records), config)
    if write:
        result.write(out)
    return result


def _check_out(out: Path, name: str, config) -> None:
    """Refuse to write over another configuration's run of ``name`` in ``out``."""
    path = out / f"{name}_config.json"
    if not path.exists() and not path.is_symlink():
        return
    wanted = json.loads(json.dumps(config.to_json(), default=repr))
    try:
        if not path.is_file() or path.is_symlink() or path.stat().st_size > 10_000_000:
            raise ValueError
        stored = json.loads(path.read_text(encoding="utf-8"))
        differs = [k for k in ("methods", "tasks", "options") if stored.get(k) != wanted[k]]
    except (OSError, ValueError, AttributeError):
        differs = ["an unreadable configuration file"]
    if differs:
        raise ValueError(
            f"{out} already holds a run of {name} with other {', '.join(differs)}; this run "
            "would overwrite its tables, report and configuration. Choose another --out, or "
            "pass --replace to overwrite it."
        )


def load_stored(name: str, directory=None) -> ExperimentResult | None:
    """The stored result of an experiment (default: the published one), or ``None``."""
    return load_result(_experiment(name), directory if directory is not None else PUBLISHED_DIR)
