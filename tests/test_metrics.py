"""External clustering measures against independent implementations and hand counts."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from sklearn.metrics import adjusted_rand_score, normalized_mutual_info_score, rand_score
from sklearn.metrics.cluster import contingency_matrix, pair_confusion_matrix

from clustering.metrics import (
    chebyshev_fraction,
    clustering_accuracy,
    contingency,
    external_scores,
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


def test_nmi_of_a_perfect_match_is_never_above_one():
    """In exact arithmetic NMI is at most 1; rounding gave 1 + 2e-16 on this labeling (7
    groups of 258 points), which the experiments' cache check rejects as outside [0, 1]."""
    y = np.random.default_rng(0).integers(0, 7, 258)
    perm = np.random.default_rng(1).permutation(7)
    assert nmi(y, y) == 1.0 and nmi(y, perm[y]) == 1.0
    rng = np.random.default_rng(2)
    for _ in range(200):
        a = rng.integers(0, int(rng.integers(2, 9)), int(rng.integers(10, 300)))
        assert nmi(a, a) <= 1.0 and nmi(a, a) == pytest.approx(1.0)


def _labelings():
    """Random pairs of labelings of many shapes, and the edge cases: one sample, one group on
    either side or both, every sample its own group, string and float labels."""
    rng = np.random.default_rng(0)
    for n, k1, k2 in itertools.product((1, 2, 7, 60), (1, 2, 3, 9), (1, 2, 4)):
        yield _random_pair(rng, n, k1, k2)
    yield np.arange(12), np.arange(12)[::-1]
    yield np.array(list("aabbbccd")), np.array([2.5, 2.5, -1.0, -1.0, 7.0, 7.0, 7.0, 2.5])


@pytest.mark.filterwarnings("ignore:Clustering metrics expects discrete values")
def test_external_scores_equal_scikit_learns_on_every_kind_of_labeling():
    for a, b in _labelings():
        s = external_scores(a, b)
        want_nmi = normalized_mutual_info_score(a, b, average_method="geometric")
        assert s["nmi"] == pytest.approx(want_nmi, abs=1e-12), (a, b)
        assert s["rand"] == pytest.approx(rand_score(a, b), abs=1e-12), (a, b)
        assert s["ari"] == pytest.approx(adjusted_rand_score(a, b), abs=1e-12), (a, b)
        assert s["accuracy"] == clustering_accuracy(a, b)
        assert s["f"] == f_measure(a, b)
        assert (s["nmi"], s["rand"]) == (nmi(a, b), rand_index(a, b))
        (tn, fp), (fn, tp) = pair_confusion_matrix(a, b) // 2
        assert pair_counts(a, b) == (tp, fp, fn, tn)
        assert (contingency(a, b) == contingency_matrix(a, b).T).all()


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
