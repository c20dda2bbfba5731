"""The Feature scaling page's computations (the page only lays out what these return).

- :func:`paper_random_scaling`: the MSPC paper's random AFS (one feature times 2, 4, 8 or
  16) through :func:`datasets.scaling.random_afs`, reproducible per button press;
- :func:`scaled_fingerprint`: the cache key of the rescaled data, derived from the original
  data's fingerprint and the factors (no hash of the scaled ``X`` on every rerun);
- :func:`comparison_table`: accuracy, MSP and labels changed, before and after, per method;
- :func:`hyperplane_in_original_units`: the "after" hyperplane drawn in the original units.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np
import pandas as pd

import datasets
from clustering.evaluation import FitOutcome
from clustering.metrics import clustering_error

__all__ = [
    "comparison_table",
    "hyperplane_in_original_units",
    "paper_random_scaling",
    "scaled_fingerprint",
]


def paper_random_scaling(press: int, n_features: int) -> dict[int, float]:
    """``{feature: factor}`` of the ``press``-th press of "Random AFS" on ``n_features``
    features: one feature chosen at random, times a factor from ``PAPER_FACTORS``."""
    rng = np.random.default_rng([int(press), int(n_features)])
    factor = float(rng.choice(datasets.scaling.PAPER_FACTORS))
    _, _, chosen = datasets.scaling.random_afs(np.zeros((1, n_features)), factor, rng=rng)
    return {int(chosen[0]): factor}


def scaled_fingerprint(data_fingerprint: str, factors: Sequence[float]) -> str:
    """Cache key of the data rescaled by ``factors`` (the original fingerprint when every
    factor is 1)."""
    factors = np.asarray(factors, dtype=np.float64)
    if np.all(factors == 1.0):
        return data_fingerprint
    h = hashlib.blake2b(digest_size=12)
    h.update(data_fingerprint.encode())
    h.update(factors.tobytes())
    return h.hexdigest()


def _value(result: FitOutcome, metric: str) -> float:
    value = result.metrics.get(metric) if result.ok else None
    return np.nan if value is None else float(value)


def _changed(a: FitOutcome, b: FitOutcome) -> float:
    if a.labels is None or b.labels is None:
        return np.nan
    # Renaming clusters is no change: the share of labels that moves under the best matching.
    return clustering_error(a.labels, b.labels)


def comparison_table(before: Sequence[FitOutcome], after: Sequence[FitOutcome]) -> pd.DataFrame:
    """One row per method: accuracy and MSP before/after, their changes, labels changed."""
    rows = [
        {
            "method": rb.name,
            "accuracy_before": _value(rb, "accuracy"),
            "accuracy_after": _value(ra, "accuracy"),
            "msp_before": _value(rb, "msp"),
            "msp_after": _value(ra, "msp"),
            "changed": _changed(rb, ra),
        }
        for rb, ra in zip(before, after, strict=True)
    ]
    table = pd.DataFrame(rows)
    table["accuracy_change"] = table["accuracy_after"] - table["accuracy_before"]
    table["msp_change"] = table["msp_after"] - table["msp_before"]
    return table


def hyperplane_in_original_units(w, factors: Sequence[float]) -> np.ndarray | None:
    """``w`` of a hyperplane fitted on ``X * factors``, as a hyperplane on ``X``:
    ``w . (x * f) = (w * f) . x``."""
    return None if w is None else np.asarray(w, dtype=float) * np.asarray(factors, dtype=float)
