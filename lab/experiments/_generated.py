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
from clustering._lam import MSP_REFERENCE_LAM as MSP_REF_LAM
from lab.evaluation import fit_and_evaluate
from lab.experiments._cells import F_BETA

__all__ = ["score_fit"]


def score_fit(key: str, params: dict, X, y, seed: int, must_link=None) -> dict[str, Any]:
    """Fit ``ALGORITHMS[key]`` with ``params`` and score it against ``y``.

    Returns the cell dict of :func:`~lab.experiments._cells.compute_cell` plus
    ``partition_distance`` (DIFFRAC's squared distance between partitions, section 5: 0 for
    the true partition, at most ``k - 1`` for ``k`` clusters and classes). The MSP (at
    :data:`~clustering._lam.MSP_REFERENCE_LAM`) is only scored for two clusters.
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
    if not result.ok:
        return {
            "status": "failed",
            "error": f"{result.error_type}: {result.error}",
            "seconds": result.seconds,
        }
    labels = result.labels
    return {
        "status": "ok",
        "error": None,
        "seconds": result.seconds,
        "accuracy": result.metrics.get("accuracy"),
        "nmi": result.metrics.get("nmi"),
        "rand": result.metrics.get("rand"),
        "f_measure": metrics.f_measure(y, labels, beta=F_BETA) if binary else None,
        "msp": result.metrics.get("msp") if binary else None,
        "partition_distance": metrics.partition_distance(y, labels),
        "n_iter": result.n_iter,
        "n_clusters": result.n_clusters,
    }
