"""Bundled multi-class tasks (issue 14)."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import load_digits, load_wine

import datasets
from clustering.metrics import clustering_accuracy


def test_multiclass_tasks_listed_and_loaded():
    expected = {"iris": 3, "wine": 3, "wine-raw": 3, "digits": 10, "satimage": 6, "letter-26": 26}
    assert datasets.list_datasets("multiclass") == list(expected)
    assert not set(expected) & set(datasets.list_datasets())  # "all" stays two-class
    for name, k in expected.items():
        ds = datasets.load(name)
        assert ds.n_classes == k and np.bincount(ds.y).min() > 0
        assert "classes" in ds.description


def test_labels_match_the_source():
    X, y = load_digits(return_X_y=True)
    ds = datasets.load("digits", normalize=False)
    np.testing.assert_array_equal(ds.y, y)
    np.testing.assert_array_equal(ds.X, X)
    assert datasets.load("satimage").class_counts()["very damp grey soil"] == 1508
    assert datasets.load("letter-26").shape == (20000, 16)


def test_wine_raw_is_never_rescaled():
    X, y = load_wine(return_X_y=True)
    ds = datasets.load("wine-raw")  # normalize=True is ignored on purpose
    np.testing.assert_array_equal(ds.X, X)
    np.testing.assert_array_equal(ds.y, y)
    assert ds.X[:, -1].max() / ds.X[:, 7].max() > 1000  # proline vs nonflavanoid phenols
    assert datasets.load("wine").X.max() == 1.0


def test_accuracy_uses_optimal_matching_for_many_clusters():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 6, 300)
    perm = rng.permutation(6)
    assert clustering_accuracy(y, perm[y]) == 1.0
    noisy = perm[y].copy()
    noisy[:30] = (noisy[:30] + 1) % 6
    assert clustering_accuracy(y, noisy) == pytest.approx(
        1 - np.mean(noisy[:30] != perm[y][:30]) * 0.1
    )
