"""``lab.evaluation``: the held-out MSP the lab shows (``heldout_msp``) and the scores of
``evaluate``, by property: a cluster too small to hold a point out scores 0 wherever it is,
the smallest cluster that can be validated is scored like any other, and every page's
number is the library's held-out MSP with the lab's one seed."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clustering.metrics import msp_heldout_score, msp_score
from clustering.msp_heldout import DEFAULT_N_SPLITS, min_cluster_size
from lab.evaluation import HELDOUT_RANDOM_STATE, evaluate, heldout_msp, heldout_msp_or_reason


def _clusters(sizes, d, seed, gap=12.0):
    """Gaussian clusters of the given sizes, their centres ``gap`` apart along axis 0."""
    rng = np.random.default_rng(seed)
    X = np.vstack([rng.normal(0, 1, (n, d)) + gap * c * np.eye(d)[0] for c, n in enumerate(sizes)])
    return X, np.repeat(np.arange(len(sizes)), sizes)


@settings(max_examples=25, deadline=None)
@given(
    others=st.lists(st.integers(8, 40), min_size=1, max_size=3),
    d=st.integers(1, 4),
    seed=st.integers(0, 10_000),
    position=st.sampled_from(["far", "inside", "between"]),
    regularizer=st.sampled_from(["diag", "identity", "total"]),
)
def test_a_one_point_cluster_scores_zero_wherever_it_lies(others, d, seed, position, regularizer):
    """One point cannot be split into a fitting part and a held-out part: nothing of its
    cluster can be validated, so the labeling scores 0, however far the point lies from the
    rest (where its in-sample MSP is high) and however many clusters there are."""
    X, labels = _clusters(others, d, seed)
    point = {"far": X.max(axis=0) + 50.0, "inside": X[0] + 0.01, "between": X.mean(axis=0)}
    X = np.vstack([X, point[position]])
    labels = np.append(labels, labels.max() + 1)
    perm = np.random.default_rng(seed).permutation(len(labels))  # anywhere in the data
    X, labels = X[perm], labels[perm]
    assert heldout_msp(X, labels, 0.01, regularizer) == 0.0
    assert heldout_msp_or_reason(X, labels, 0.01, regularizer) == (0.0, "")
    assert evaluate(X, None, labels, 0.01, regularizer)["msp_heldout"] == 0.0


def test_every_cluster_below_the_minimum_scores_zero_and_the_minimum_is_scored():
    """The cut is at :func:`min_cluster_size`: below it 0; from it on the library's held-out
    MSP, which for a small cluster far from the other is above 0 (here from 4 points)."""
    need = min_cluster_size(DEFAULT_N_SPLITS)
    assert need >= 2  # a one-point cluster is always below it
    for small in range(1, need):
        X, labels = _clusters([30, small], 2, seed=small, gap=100.0)
        assert heldout_msp(X, labels, 0.01, "diag") == 0.0
    shown = []
    for size in range(need, need + 3):
        X, labels = _clusters([30, size], 2, seed=0, gap=100.0)
        library = msp_heldout_score(
            X, labels, lam=0.01, regularizer="diag", random_state=HELDOUT_RANDOM_STATE
        )
        shown.append(heldout_msp(X, labels, 0.01, "diag"))
        assert shown[-1] == pytest.approx(library), size
    assert max(shown) > 0.3


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 1000), k=st.integers(2, 3))
def test_the_lab_shows_the_library_held_out_msp_with_its_one_seed(seed, k):
    X, labels = _clusters([25] * k, 3, seed, gap=3.0)
    expected = msp_heldout_score(
        X, labels, lam=0.1, regularizer="diag", random_state=HELDOUT_RANDOM_STATE
    )
    assert heldout_msp(X, labels, 0.1, "diag") == pytest.approx(expected)
    assert evaluate(X, None, labels, 0.1, "diag")["msp_heldout"] == pytest.approx(expected)


def test_a_single_cluster_has_no_held_out_msp_and_says_why():
    X, _ = _clusters([20], 2, 0)
    value, reason = heldout_msp_or_reason(X, np.zeros(20), 0.01, "diag")
    assert value is None and "single cluster" in reason


@pytest.mark.parametrize("regularizer", ["identity", "total", "none"])
def test_the_scores_shown_use_the_regularizer_asked_for(regularizer):
    """Both MSPs of ``evaluate`` are the library's with the given Λ, which on features of
    different spreads differ from those with the paper's ``diag``."""
    rng = np.random.default_rng(4)
    X = np.vstack([rng.normal(0, 1, (40, 3)), rng.normal(0, 1, (40, 3)) + [2.0, 0, 0]])
    X = X * [1.0, 30.0, 0.1] + rng.normal(0, 0.5, X.shape) @ np.diag([0, 20.0, 0])
    labels = np.repeat([0, 1], 40)
    row = evaluate(X, None, labels, 0.5, regularizer)
    ours = msp_heldout_score(
        X, labels, lam=0.5, regularizer=regularizer, random_state=HELDOUT_RANDOM_STATE
    )
    diag = msp_heldout_score(X, labels, lam=0.5, regularizer="diag", random_state=0)
    assert row["msp_heldout"] == pytest.approx(ours) and ours != pytest.approx(diag)
    assert heldout_msp(X, labels, 0.5, regularizer) == pytest.approx(ours)
    assert row["msp"] == pytest.approx(msp_score(X, labels, lam=0.5, regularizer=regularizer))
    assert row["msp"] != pytest.approx(msp_score(X, labels, lam=0.5, regularizer="diag"))
