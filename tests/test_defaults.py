"""Every registered algorithm clusters a clearly separable pair well with its defaults
(issue 15): accuracy at least 0.9 on digits 1 vs 7 and on wine classes 1 vs 2 (scikit-learn's
classes 0 and 1), both with features scaled to [-1, 1] and constant pixels dropped, exactly
as the Cluster page runs them. Before issue 15, Dis-KM (0.59) and soft-label MVC (0.57)
failed on digits 1 vs 7 and Dis-KM (0.885) on wine."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import datasets
from clustering import ALGORITHMS
from clustering.metrics import clustering_accuracy

PAIRS = ("digits:1v7", "wine:1v2")

#: Kernel MSPC (experimental) with its default gamma=None keeps a k-eigenvector fit at
#: accuracy 0.831 on this pair, and still does with the k + 1 fits among its candidates;
#: k + 1 eigenvectors alone reach 0.915 (the rule before the width choice, which does worse on
#: moons and circles: mean ARI 0.463 against 0.753 over draws not tuned on). Strict: it
#: fails the day the default clusters this pair.
KERNEL_WINE = pytest.mark.xfail(
    strict=True,
    reason="kernel MSPC's label-free width and rank choice reaches 0.831 on wine 1v2",
)


def _cases():
    for key in ALGORITHMS:
        marks = [pytest.mark.slow] if key == "smic" else []
        for pair in PAIRS:
            extra = [KERNEL_WINE] if (key, pair) == ("mspc-rbf", "wine:1v2") else []
            yield pytest.param(key, pair, marks=marks + extra, id=f"{key}-{pair}")


@pytest.fixture(scope="module")
def pairs():
    return {name: datasets.load(name) for name in PAIRS}


@pytest.mark.parametrize(("key", "pair"), list(_cases()))
def test_defaults_cluster_a_separable_pair(key, pair, pairs):
    ds = pairs[pair]
    spec = ALGORITHMS[key]
    if spec.max_samples is not None and ds.n_samples > spec.max_samples:
        pytest.skip(
            f"{key} refuses N = {ds.n_samples} > max_samples = {spec.max_samples} "
            "(its SDP is O(N^6.5)); the wine pair covers it"
        )
    if key == "mvc-hard":
        pytest.skip(
            "mvc-hard's SDP took 10-24 s on wine 1v2 alone (accuracy 0.946, UI defaults 0.962, "
            "measured for issue 15) and 2 minutes on a loaded 2-core machine: too slow for CI"
        )
    model = spec.make(**spec.defaults())
    if "random_state" in model.get_params():
        model.set_params(random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        labels = model.fit(ds.X).labels_
    assert clustering_accuracy(ds.y, labels) >= 0.9
    assert np.unique(labels).size == 2


def test_default_mspc_keeps_digits_1v8_above_chance_at_every_seed():
    """The digits pair whose default clustering depended on the k-means draws: with the 10
    restarts shared among the default's three k-means starts, ``1v8`` fell to 0.503, 0.520
    and 0.590 at ``random_state`` 2, 3 and 5 (the other 44 pairs stay at 0.84 or above at
    every seed; ``bench/default_seeds.py``). Each start now has all 10 restarts. The labeling kept
    is a split of the 1s (0.615 at most seeds), not the classes: the target is only that it
    is not at chance, whatever the seed."""
    from clustering import MSPC

    ds = datasets.load("digits:1v8")
    accuracies = []
    for seed in range(10):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            labels = MSPC(random_state=seed).fit(ds.X).labels_
        accuracies.append(clustering_accuracy(ds.y, labels))
    assert min(accuracies) >= 0.6, accuracies
