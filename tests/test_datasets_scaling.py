"""Anisotropic feature scaling: validation, the inverse, the paper's random experiment."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import datasets
from datasets import scaling


@settings(max_examples=200, deadline=None)
@given(
    arrays(
        np.float64,
        st.tuples(st.integers(1, 20), st.integers(1, 6)),
        elements=st.floats(-1e6, 1e6, allow_nan=False),
    ),
    st.data(),
)
def test_apply_then_invert_round_trips(X, data):
    d = X.shape[1]
    factors = data.draw(
        st.lists(st.floats(1e-3, 1e3, allow_nan=False), min_size=d, max_size=d), label="factors"
    )
    X_before = X.copy()
    X_scaled = scaling.apply(X, factors)
    np.testing.assert_array_equal(X, X_before)  # the input is not modified
    np.testing.assert_allclose(scaling.invert(X_scaled, factors), X, rtol=1e-12, atol=1e-9)
    np.testing.assert_allclose(X_scaled, X * np.asarray(factors))


def test_dict_factors_scale_only_the_named_features():
    X = np.arange(6.0).reshape(2, 3)
    np.testing.assert_array_equal(scaling.apply(X, {2: 4}), [[0, 1, 8], [3, 4, 20]])
    np.testing.assert_array_equal(scaling.apply(X, {-1: 4}), scaling.apply(X, {2: 4}))
    np.testing.assert_array_equal(scaling.factors_vector(3, {0: 2, 1: 0.5}), [2, 0.5, 1])


@pytest.mark.parametrize(
    ("factors", "match"),
    [
        ([1, 0, 1], r"factor of feature 1 is 0\.0; factors must be positive and finite"),
        ([1, -2, 1], r"feature 1 is -2\.0"),
        ([1, np.nan, 1], r"feature 1 is nan"),
        ([np.inf, 1, 1], r"feature 0 is inf"),
        ([1, 2], r"2 scaling factors were given for 3 features"),
        (4.0, r"one factor per feature"),
        (["a", 1, 1], r"must be a number, got 'a'"),
        ([True, 1, 1], r"must be a number, got True"),
        ({3: 2.0}, r"Feature index 3 is out of range: the data have 3 features"),
        ({"0": 2.0}, r"Feature indices must be integers"),
        ({0: 0.0}, r"feature 0 is 0\.0"),
    ],
)
def test_invalid_factors_raise_value_error(factors, match):
    X = np.ones((4, 3))
    with pytest.raises(ValueError, match=match):
        scaling.apply(X, factors)
    with pytest.raises(ValueError, match=match):
        scaling.invert(X, factors)


def test_apply_needs_a_2d_array():
    with pytest.raises(ValueError, match="2-D array"):
        scaling.apply(np.ones(3), [1, 1, 1])


@pytest.mark.parametrize("factor", scaling.PAPER_FACTORS)
def test_random_afs_scales_distinct_random_features(factor):
    X = np.random.default_rng(0).normal(size=(30, 8))
    X_scaled, factors, chosen = scaling.random_afs(X, factor, n_features=3, rng=1)
    assert len(chosen) == len(set(chosen.tolist())) == 3
    assert (np.diff(chosen) > 0).all()
    expected = np.ones(8)
    expected[chosen] = factor
    np.testing.assert_array_equal(factors, expected)
    np.testing.assert_allclose(X_scaled, X * expected)
    np.testing.assert_allclose(scaling.invert(X_scaled, factors), X)
    again = scaling.random_afs(X, factor, n_features=3, rng=1)
    np.testing.assert_array_equal(again[2], chosen)


def test_random_afs_accepts_generators_and_validates():
    X = np.ones((5, 4))
    _, _, a = scaling.random_afs(X, 2, rng=np.random.default_rng(3))
    _, _, b = scaling.random_afs(X, 2, rng=np.random.RandomState(3))
    assert a.shape == b.shape == (1,)
    for bad in (0, -4, np.nan, np.inf):
        with pytest.raises(ValueError, match="positive and finite"):
            scaling.random_afs(X, bad)
    with pytest.raises(ValueError, match="between 1 and 4"):
        scaling.random_afs(X, 2, n_features=5)


def test_afs_feature_schedule_follows_the_paper():
    diabetes = scaling.afs_feature_schedule(8, n_repeats=10, rng=0)
    assert sorted(diabetes.tolist()) == list(range(8))  # every feature once
    spam = scaling.afs_feature_schedule(57, n_repeats=10, rng=0)
    assert len(set(spam.tolist())) == 10 and spam.max() < 57


def test_describe_and_apply_to_dataset():
    ds = datasets.load("diabetes")
    scaled = scaling.apply_to_dataset(ds, {1: 16, 7: 2})
    assert scaled.notes[-1] == "Anisotropic feature scaling: 'glucose' × 16, 'age' × 2."
    np.testing.assert_allclose(scaled.X[:, 1], 16 * ds.X[:, 1])
    np.testing.assert_allclose(ds.X, datasets.load("diabetes").X)  # original unchanged
    assert scaling.describe([1, 2.5]) == "feature 1 × 2.5"
    assert scaling.describe({0: 1.0}, ["a"]) == "no feature scaled"
