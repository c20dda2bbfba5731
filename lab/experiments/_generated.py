"""Cells on generated or subsampled data: one fit through the lab's evaluator, scored.

The papers' figures on synthetic data (DIFFRAC Fig. 1) or on random subsets (the MVC paper's
Fig. 2, DIFFRAC Table 1 with random must-links) draw new data for every repetition, so
their cells describe the data by a seed instead of naming a bundled task. The experiment
modules build ``(X, y, must_link)`` from a cell; :func:`score_fit` fits and scores it the way
:func:`~lab.experiments._cells.compute_cell` does for bundled tasks.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from clustering import metrics
from lab.evaluation import MSP_REFERENCE_LAM as MSP_REF_LAM
from lab.evaluation import fit_and_evaluate
from lab.experiments._cells import Cell, cell_result

__all__ = ["failed_cell", "score_fit", "seeded_plan"]


def score_fit(key: str, params: dict, X, y, seed: int, must_link=None) -> dict[str, Any]:
    """Fit ``ALGORITHMS[key]`` with ``params`` and score it against ``y``.

    Returns the cell dict of :func:`~lab.experiments._cells.compute_cell` plus
    ``partition_distance`` (DIFFRAC's squared distance between partitions, section 5: 0 for
    the true partition, at most ``k - 1`` for ``k`` clusters and classes). The MSP (at
    :data:`~lab.evaluation.MSP_REFERENCE_LAM`) is only scored for two clusters.
    """
    binary = np.unique(y).shape[0] == 2
    result = fit_and_evaluate(
        key,
        params,
        X,
        y,
        must_link=must_link,
        msp_lam=MSP_REF_LAM if binary else None,
        msp_regularizer="diag" if binary else None,
        random_state=seed,
    )
    return cell_result(
        result,
        y,
        partition_distance=lambda labels: metrics.partition_distance(y, labels),
        **({} if binary else {"f_measure": None, "msp": None}),
    )


def failed_cell(exc: BaseException) -> dict[str, Any]:
    """A cell's result for an exception raised while building its data or fitting: a cell
    never raises, the result says what failed."""
    return {"status": "failed", "error": f"{type(exc).__name__}: {exc}"}


def seeded_plan(experiment: str, config, params: dict | None = None) -> list:
    """The cells of an experiment on generated or subsampled data: every task and method,
    once per seed from ``options["seed"]`` on (``options["repeats"]`` seeds)."""
    seed0 = int(config.options["seed"])
    return [
        Cell.make(experiment, method, task, params, seed=seed)
        for task in config.tasks
        for method in config.methods
        for seed in range(seed0, seed0 + int(config.options["repeats"]))
    ]
