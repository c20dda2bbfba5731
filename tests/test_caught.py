"""Tests that catch bugs the rest of the suite let through: each computes its expected value
independently of the code under test (by hand, from the stored results, or from what the
user set), so a changed constant, a removed check, an inverted caption or a broken fit
fails here."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.utils._param_validation import InvalidParameterError

from clustering import MSPC, MinimaxProbabilityMachine
from clustering.metrics import chebyshev_fraction
from lab.evaluation import FitOutcome

ROOT = Path(__file__).resolve().parents[1]
PUBLISHED = ROOT / "lab" / "experiments" / "published"


# ---- Theorem 5's constant, against numbers worked out by hand ----------------------------


@pytest.mark.parametrize(
    ("msp", "rho", "expected"),
    [
        # 1 - r = (1 - rho)^2 p / ((1 - rho)^2 p + 4 (1 - p)), worked out as fractions:
        (0.9, 0.0, 9 / 13),  # 0.9 / (0.9 + 0.4)
        (0.5, 0.5, 1 / 17),  # 0.125 / (0.125 + 2)
        (0.8, 0.2, 16 / 41),  # 0.512 / (0.512 + 0.8)
        (0.99, 0.0, 99 / 103),  # 0.99 / (0.99 + 0.04)
        (0.75, 1.0, 0.0),  # a margin of half the distance between the means: no guarantee
    ],
)
def test_theorem5_guarantee_matches_hand_computed_values(msp, rho, expected):
    assert chebyshev_fraction(msp, rho) == pytest.approx(expected, rel=1e-12, abs=1e-15)


# ---- lam >= 0 is checked, with a message naming the parameter -----------------------------


def _two_blobs():
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(0, 1, (20, 2)), rng.normal(5, 1, (20, 2))])
    return X, np.repeat([0, 1], 20)


@pytest.mark.parametrize(
    "params",
    [{}, {"method": "gep"}, {"method": "eig"}, {"n_clusters": 3}, {"kernel": "rbf"}],
    ids=["mpm", "gep", "eig", "k=3", "rbf"],
)
def test_mspc_refuses_a_negative_lam_with_a_message(params):
    X, _ = _two_blobs()
    with pytest.raises(InvalidParameterError, match=r"'lam' parameter of MSPC must be .*\[0"):
        MSPC(lam=-1.0, **params).fit(X)


def test_mpm_refuses_a_negative_lam_with_a_message():
    X, y = _two_blobs()
    with pytest.raises(InvalidParameterError, match=r"'lam' parameter of Minimax.*\[0"):
        MinimaxProbabilityMachine(lam=-0.5).fit(X, y)


# ---- the Cluster page's comparison caption: both branches, with data where they differ ----


def _outcome(name: str, msp: float, accuracy: float) -> FitOutcome:
    """A fit whose held-out MSP (the score the caption ranks by) is ``msp``; its in-sample
    MSP is set the other way round, so a caption ranking by it would fail."""
    return FitOutcome(
        name.lower(),
        name,
        labels=np.zeros(4),
        metrics={"msp": 1.0 - msp, "msp_heldout": msp, "accuracy": accuracy},
    )


def test_comparison_note_says_when_the_highest_msp_is_not_the_most_accurate():
    from ui.cluster import comparison_note

    note = comparison_note([_outcome("A", 0.95, 0.70), _outcome("B", 0.80, 0.90)])
    assert note.startswith("Highest held-out MSP: A (0.950); highest accuracy: B (0.900).")
    assert "the highest held-out MSP is not the most accurate clustering" in note
    assert "also the most accurate" not in note


def test_comparison_note_says_when_the_highest_msp_is_also_the_most_accurate():
    from ui.cluster import comparison_note

    note = comparison_note([_outcome("A", 0.95, 0.90), _outcome("B", 0.80, 0.70)])
    assert note.startswith("Highest held-out MSP: A (0.950); highest accuracy: A (0.900).")
    assert "also the most accurate" in note
    assert "not the most accurate" not in note


def test_comparison_note_calls_a_tie_at_three_decimals_a_tie():
    from ui.cluster import comparison_note

    note = comparison_note([_outcome("A", 0.9501, 0.90), _outcome("B", 0.9499, 0.70)])
    assert note.startswith("Highest held-out MSP: A = B (0.950)")
    assert "tie at three decimals" in note


# ---- stored cells re-computed with today's code -------------------------------------------

#: A few cheap cells of the stored Table 2 run (breast and ionosphere, every MSPC solver,
#: the paper's pipeline) and of the multi-class run (MSPC with k = 3 on iris).
RECOMPUTED = [
    ("table2", "mspc-mpm", "breast", {"lam": 0.01}),
    ("table2", "mspc-mpm", "breast", {"lam": 0.1}),
    ("table2", "mspc-gep", "breast", {"lam": 1.0}),
    ("table2", "mspc-eig", "breast", {"lam": 0.01}),
    ("table2", "mspc-mpm", "ionosphere", {"lam": 1.0}),
    ("table2", "kmeans", "breast", {}),
]


def _stored(experiment: str, method: str, task: str, params: dict) -> pd.Series:
    cells = pd.read_csv(PUBLISHED / f"{experiment}_cells.csv")
    same = (
        (cells["method"] == method)
        & (cells["task"] == task)
        & (cells["params"].map(lambda p: json.loads(p) if isinstance(p, str) else {}) == params)
        & (cells["seed"] == 0)
        & (cells["scale_feature"] == -1)
    )
    rows = cells[same]
    assert len(rows) == 1, f"{experiment}: {method} on {task} with {params}: {len(rows)} rows"
    return rows.iloc[0]


@pytest.mark.parametrize(
    ("experiment", "method", "task", "params"),
    RECOMPUTED,
    ids=[f"{m}-{t}-{p}" for _, m, t, p in RECOMPUTED],
)
def test_stored_cells_are_what_the_current_code_computes(experiment, method, task, params):
    from lab.experiments._cells import Cell, compute_cell

    stored = _stored(experiment, method, task, params)
    result = compute_cell(Cell.make(experiment, method, task, params, seed=0))
    assert result["status"] == stored["status"] == "ok", result.get("error")
    for column in ("accuracy", "nmi", "rand", "f_measure", "msp", "msp_own"):
        if pd.isna(stored[column]):
            assert result.get(column) is None, column
        else:
            assert result[column] == pytest.approx(stored[column], abs=1e-9), column


@pytest.mark.parametrize(
    ("method", "params"),
    [
        ("mspc-mpm", {"init": "kmeans", "scaled": False}),
        ("mspc-mpm", {"init": "kmeans-standardized", "scaled": True}),
        ("mspc-gep", {"init": "eig", "scaled": False}),
    ],
)
def test_stored_multiclass_cells_are_what_the_current_code_computes(method, params):
    from lab.experiments import multiclass
    from lab.experiments._cells import Cell

    stored = _stored("multiclass", method, "iris", params)
    result = multiclass.compute(Cell.make("multiclass", method, "iris", params))
    assert result["status"] == stored["status"] == "ok", result.get("error")
    assert result["labels_hash"] == stored["labels_hash"]
    for column in ("accuracy", "nmi", "ari", "msp"):
        assert result[column] == pytest.approx(stored[column], abs=1e-9), column
