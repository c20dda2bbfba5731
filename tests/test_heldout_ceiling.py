"""The optimiser and the proved upper bound of ``bench/heldout_ceiling.py`` (the largest r over
choices of one candidate labeling per data set) against brute force on small instances."""

import itertools

import numpy as np
import pytest

from bench.heldout_ceiling import (
    candidates,
    contributions,
    greedy_to,
    max_r_search,
    pearson,
    r_upper_bound,
    r_upper_bound_holds,
    score_variants,
)


def _instance(seed, n=6, m=3):
    """Like the bench's: one candidate of accuracy 1 (the classes) per set, the others at
    k / 50, scores loosely tied to accuracy; the mean floor binds."""
    rng = np.random.default_rng(seed)
    A = np.column_stack([np.ones(n), rng.integers(30, 50, (n, m - 1)) / 50])
    S = 0.3 * A + rng.normal(0, 0.1, (n, m))
    floor = float(np.sort(A, axis=1)[:, 1].mean())
    return A, S, floor


def _brute(A, S, floor):
    n, m = A.shape
    rows = np.arange(n)
    best = -np.inf
    for sel in itertools.product(range(m), repeat=n):
        a, s = A[rows, sel], S[rows, sel]
        if a.mean() >= floor - 1e-12 and a.std() > 0:
            best = max(best, pearson(a, s))
    return best


@pytest.mark.parametrize("seed", [1, 2, 4, 6])
def test_search_finds_the_brute_force_maximum_and_the_bound_brackets_it(seed):
    A, S, floor = _instance(seed)
    best = _brute(A, S, floor)
    found, sel = max_r_search(A, S, floor, restarts=20)
    assert found == pytest.approx(best, abs=1e-9)
    assert A[np.arange(len(A)), sel].mean() >= floor - 1e-12
    ub, _, _ = r_upper_bound(A, S, floor, found, tol=0.01)
    assert best <= ub <= best + 0.03
    # the boxes alone (no selection read off them) never exclude an achieved value
    assert not r_upper_bound_holds(A, S, best - 1e-3, floor, 3000, witness=False)[0]


def test_the_floors_filter_candidates_and_the_shares_sum_to_r():
    acc = [[0.55, 0.7, 1.0], [0.9, 0.9, 1.0]]
    score = [[0.1, 0.5, 0.8], [0.6, 0.6, np.nan]]
    A, S = candidates(acc, score)
    assert A.tolist() == [[0.7, 1.0], [0.9, 0.9]]  # < 0.6, duplicates and n/a dropped
    assert S.tolist() == [[0.5, 0.8], [0.6, 0.6]]
    A, _ = candidates(acc, score, at_least=[0.8, 0.0])
    assert A.tolist() == [[1.0], [0.9]]
    with pytest.raises(ValueError, match="no candidate"):
        candidates(acc, score, floor=0.95, at_least=[0.0, 0.95])
    a, s = np.array([0.6, 0.9, 1.0, 0.95]), np.array([0.5, 0.8, 0.7, 0.9])
    assert contributions(a, s).sum() == pytest.approx(pearson(a, s))


def test_greedy_moves_only_to_starts_at_least_as_accurate():
    names = ["d:a", "d:b", "d:c"]
    ship_a, ship_s = [1.0, 0.9, 0.7], [0.9, 0.95, 0.5]  # r 0.907
    # per set: the starts, then the classes (last). After b's move (r 0.996), c's less
    # accurate start (r 0.9998) or c's classes (r 1.0) would reach 0.999; neither may be taken
    acc = [[1.0, 1.0], [0.9, 0.95, 1.0], [0.7, 0.6, 1.0]]
    score = [[0.9, 0.9], [0.95, 0.8, 0.1], [0.5, 0.2, 0.9]]
    assert greedy_to(acc, score, ship_a, ship_s, names, 0.9) == "none needed"
    assert greedy_to(acc, score, ship_a, ship_s, names, 0.95) == (
        "b 0.900 at 0.950 -> 0.950 at 0.800: r 0.996"
    )
    assert greedy_to(acc, score, ship_a, ship_s, names, 0.999).startswith("none (1 moves")


def test_score_variants_cover_the_pipelines_scores_once():
    v = score_variants()
    assert v["5 parts, lam 0.05"] == {"n_splits": 5, "lam": 0.05}
    settings = [tuple(sorted(x.items())) for x in v.values()]
    assert len(settings) == len(set(settings))  # "margin 0" and "lam 0.05" are not repeated
