"""Checks every registered algorithm must pass, driven by ``clustering.ALGORITHMS``.

A new method is covered here the moment it is registered.
"""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from sklearn.metrics import adjusted_rand_score
from sklearn.utils.estimator_checks import parametrize_with_checks

from clustering import ALGORITHMS, MinimaxProbabilityMachine, make_estimator
from tests.conftest import two_gaussians

KEYS = list(ALGORITHMS)


def _build(key):
    spec = ALGORITHMS[key]
    return (
        spec.make(**{**spec.test_params, "random_state": 0})
        if _takes_seed(spec)
        else (spec.make(**spec.test_params))
    )


def _takes_seed(spec):
    return "random_state" in spec.make().get_params()


def _expected_failed(estimator):
    for spec in ALGORITHMS.values():
        if type(spec.make()) is type(estimator):
            return dict(spec.expected_failed_checks)
    return {}


@parametrize_with_checks(
    [_build(k) for k in KEYS] + [MinimaxProbabilityMachine()],
    expected_failed_checks=_expected_failed,
)
def test_sklearn_compatible(estimator, check):
    check(estimator)


@pytest.mark.parametrize("key", KEYS)
def test_separates_two_gaussians(key):
    X, y = two_gaussians(n_per=40, d=3, gap=10.0, seed=1)
    labels = _build(key).fit_predict(X)
    assert adjusted_rand_score(y, labels) == 1.0


@pytest.mark.parametrize("key", KEYS)
def test_pickle_roundtrip(key):
    X, _ = two_gaussians(n_per=30, d=2, seed=2)
    model = _build(key).fit(X)
    clone = pickle.loads(pickle.dumps(model))
    np.testing.assert_array_equal(clone.labels_, model.labels_)
    if ALGORITHMS[key].linear:
        np.testing.assert_allclose(clone.decision_function(X), model.decision_function(X))


@pytest.mark.parametrize("key", KEYS)
def test_spec_is_complete(key):
    spec = ALGORITHMS[key]
    assert spec.name and spec.summary and spec.cost, "the app shows these"
    defaults = spec.defaults()
    estimator = spec.make(**defaults)
    params = estimator.get_params()
    for p in spec.params:
        assert p.name in params, f"{key}: UI parameter {p.name} is not an estimator parameter"
        assert p.help, f"{key}: parameter {p.name} needs help text"
        if p.kind == "choice":
            assert p.default in p.choices
        if p.kind in ("float", "int") and p.low is not None:
            assert p.low <= p.default <= p.high


@pytest.mark.parametrize("key", KEYS)
def test_rejects_invalid_parameter(key):
    spec = ALGORITHMS[key]
    numeric = [p for p in spec.params if p.kind in ("float", "int") and p.low is not None]
    choice = [p for p in spec.params if p.kind == "choice"]
    X, _ = two_gaussians(n_per=10, seed=3)
    if choice:
        p = choice[0]
        with pytest.raises(ValueError, match=p.name):
            spec.make(**{p.name: "no-such-option"}).fit(X)
    elif numeric:
        p = numeric[0]
        with pytest.raises(ValueError, match=p.name):
            spec.make(**{p.name: -1e9}).fit(X)


def test_make_estimator_unknown_key_lists_keys():
    with pytest.raises(KeyError, match="mspc-mpm"):
        make_estimator("no-such-method")
