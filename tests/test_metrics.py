"""External clustering measures against independent implementations and hand counts."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from sklearn.metrics import normalized_mutual_info_score, rand_score

from clustering.metrics import (
    chebyshev_fraction,
    clustering_accuracy,
    f_measure,
    nmi,
    pair_counts,
    partition_distance,
    rand_index,
)


def _random_pair(rng, n, k1, k2):
    return rng.integers(0, k1, n), rng.integers(0, k2, n)


@pytest.mark.parametrize("seed", range(10))
def test_nmi_and_rand_match_scikit_learn(seed):
    rng = np.random.default_rng(seed)
    a, b = _random_pair(rng, 50, 2 + seed % 3, 2 + seed % 2)
    assert nmi(a, b) == pytest.approx(
        normalized_mutual_info_score(a, b, average_method="geometric")
    )
    assert rand_index(a, b) == pytest.approx(rand_score(a, b))


@pytest.mark.parametrize("seed", range(6))
def test_accuracy_is_the_best_permutation(seed):
    rng = np.random.default_rng(seed)
    k = 2 + seed % 3
    truth, pred = _random_pair(rng, 40, k, k)
    best = max(np.mean(np.array(perm)[pred] == truth) for perm in itertools.permutations(range(k)))
    assert clustering_accuracy(truth, pred) == pytest.approx(best)


def test_pairwise_f_measure_matches_eq19_from_the_contingency_table():
    rng = np.random.default_rng(3)
    truth, pred = _random_pair(rng, 60, 2, 2)
    # Contingency table of the MMC paper's Table I: cluster y'=1 holds a (y=1) and b (y=-1).
    a = np.sum((pred == 1) & (truth == 1))
    b = np.sum((pred == 1) & (truth == 0))
    c = np.sum((pred == 0) & (truth == 1))
    d = np.sum((pred == 0) & (truth == 0))

    def c2(m):
        return m * (m - 1) / 2

    s = c2(a) + c2(b) + c2(c) + c2(d)
    for beta in (0.5, 1.0, 1.5, 3.0):
        eq19 = (beta**2 + 1) * s / (beta**2 * (s + a * c + b * d) + (s + a * b + c * d))
        assert f_measure(truth, pred, beta) == pytest.approx(eq19)


def test_pair_counts_by_brute_force():
    rng = np.random.default_rng(4)
    truth, pred = _random_pair(rng, 25, 3, 2)
    tp = fp = fn = tn = 0
    for i, j in itertools.combinations(range(25), 2):
        same_pred, same_true = pred[i] == pred[j], truth[i] == truth[j]
        tp += same_pred and same_true
        fp += same_pred and not same_true
        fn += same_true and not same_pred
        tn += not same_pred and not same_true
    assert pair_counts(truth, pred) == (tp, fp, fn, tn)


def test_partition_distance_range_and_identity():
    rng = np.random.default_rng(5)
    a = rng.integers(0, 3, 30)
    assert partition_distance(a, (a + 1) % 3) == 0.0
    b = rng.integers(0, 2, 30)
    value = partition_distance(a, b)
    assert 0 < value <= (3 + 2) / 2 - 1


def test_chebyshev_fraction_limits():
    assert chebyshev_fraction(1.0, 0.5) == 1.0
    assert chebyshev_fraction(0.0, 0.5) == 0.0
    # Larger rho asks for a wider margin, so the guaranteed fraction shrinks.
    assert (
        chebyshev_fraction(0.9, 0.0) > chebyshev_fraction(0.9, 0.5) > chebyshev_fraction(0.9, 0.9)
    )


def test_metric_errors_name_the_problem():
    with pytest.raises(ValueError, match="same length"):
        nmi([0, 1], [0, 1, 1])
    with pytest.raises(ValueError, match="beta"):
        f_measure([0, 1], [0, 1], beta=0)


def test_f_measure_without_any_pair_is_zero():
    # Every sample alone in its class and its cluster: no pair is together, so there is no
    # precision or recall to speak of; the measure says 0, not a perfect 1.
    assert f_measure([0, 1, 2], [0, 1, 2]) == 0.0
    assert f_measure([0, 1, 2], [2, 0, 1], beta=1.5) == 0.0
