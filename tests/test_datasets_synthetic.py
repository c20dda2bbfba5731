"""Synthetic generators: seeded, shaped as asked, validated, and doing what they are for."""

from __future__ import annotations

import numpy as np
import pytest

from datasets import Dataset, DatasetError, synthetic
from datasets.synthetic import GENERATORS


def _two_means(X, n_init=10, seed=0):
    """Plain Lloyd 2-means, best of ``n_init`` starts (scikit-learn's KMeans spins OpenMP
    threads, which is slow on a loaded CI machine; this is all the tests need)."""
    rng = np.random.default_rng(seed)
    best, best_inertia = None, np.inf
    for _ in range(n_init):
        centers = X[rng.choice(len(X), 2, replace=False)]
        for _ in range(100):
            labels = ((X[:, None, :] - centers[None]) ** 2).sum(-1).argmin(1)
            new = np.array(
                [X[labels == k].mean(0) if (labels == k).any() else centers[k] for k in (0, 1)]
            )
            if np.allclose(new, centers):
                break
            centers = new
        inertia = ((X - centers[labels]) ** 2).sum()
        if inertia < best_inertia:
            best, best_inertia = labels, inertia
    return best


def _accuracy(y, labels):
    agree = np.mean(y == labels)
    return max(agree, 1 - agree)


@pytest.mark.parametrize("key", list(GENERATORS))
def test_defaults_give_a_labelled_dataset_reproducibly(key):
    spec = GENERATORS[key]
    first, second = spec.make(), spec.make()
    assert isinstance(first, Dataset)
    np.testing.assert_array_equal(first.X, second.X)
    np.testing.assert_array_equal(first.y, second.y)
    assert first.n_classes == 2 and first.source == "synthetic" and first.name == key
    assert np.isfinite(first.X).all()
    other = spec.make(random_state=spec.defaults()["random_state"] + 1)
    assert not np.array_equal(first.X, other.X)
    assert "Parameters:" in first.description


@pytest.mark.parametrize("key", list(GENERATORS))
def test_registry_parameters_describe_the_function(key):
    spec = GENERATORS[key]
    import inspect

    signature = inspect.signature(spec.function)
    assert [p.name for p in spec.params] == list(signature.parameters)
    for param in spec.params:
        assert signature.parameters[param.name].default == param.default
        assert param.help and param.display_name
        if param.kind in ("int", "float"):
            assert param.low <= param.default <= param.high
            # both ends of the offered range are accepted
            spec.make(**{param.name: param.low})
            spec.make(**{param.name: param.high if param.name != "n_samples" else 300})
        if param.kind == "choice":
            assert param.default in param.choices
            for choice in param.choices:
                spec.make(**{param.name: choice})


@pytest.mark.parametrize(
    ("key", "params", "match"),
    [
        ("two_gaussians", {"n_samples": 2}, "n_samples must be between 20 and 5000"),
        ("two_gaussians", {"n_samples": 100_000}, "n_samples must be between 20 and 5000"),
        ("two_gaussians", {"n_samples": 10.5}, "n_samples must be a whole number"),
        ("two_gaussians", {"covariance": "round"}, "covariance must be"),
        ("two_gaussians", {"imbalance": 1.0}, r"imbalance must be in \[0.05, 0.95\]"),
        ("two_gaussians", {"imbalance": 0.0}, "imbalance must be in"),
        ("two_gaussians", {"separation": float("nan")}, "separation must be in"),
        ("two_gaussians", {"random_state": "seed"}, "random_state must be an integer"),
        ("diffrac_bumps", {"n_noise_dims": -1}, "n_noise_dims must be between 0"),
        ("circles", {"factor": 1.0}, r"factor must be in \[0.1, 0.9\]"),
        ("afs_trap", {"scale": 0.0}, "scale must be in"),
        ("moons", {"wiggle": 1}, "moons has no parameter wiggle"),
    ],
)
def test_invalid_parameters_raise_dataset_error(key, params, match):
    with pytest.raises(DatasetError, match=match):
        synthetic.make(key, **params)


@pytest.mark.parametrize("key", list(GENERATORS))
def test_functions_accept_exactly_the_declared_ranges(key):
    """The function, the cost guard and the link decoder refuse the same values."""
    from clustering.exceptions import TooExpensiveError
    from datasets.synthetic import check_generator
    from ui.url import decode_param

    spec = GENERATORS[key]
    for param in spec.params:
        if param.kind not in ("int", "float"):
            continue
        step = 1 if param.kind == "int" else 1e-9 * max(1.0, abs(param.high))
        for outside in (param.low - step, param.high + step):
            with pytest.raises(DatasetError, match=f"{param.name} must be"):
                spec.function(**{param.name: outside})
            with pytest.raises(TooExpensiveError, match=param.name):
                check_generator(key, {param.name: outside})
            with pytest.raises(ValueError, match="accepted"):
                decode_param(param, repr(outside))


def test_unknown_generator():
    with pytest.raises(DatasetError, match="no generator called 'blobs'"):
        synthetic.make("blobs")


@pytest.mark.parametrize("covariance", ["spherical", "elongated", "random"])
def test_two_gaussians_shape_balance_and_separation(covariance):
    ds = synthetic.two_gaussians(
        n_samples=4000, n_features=3, separation=4.0, covariance=covariance, imbalance=0.25
    )
    assert ds.shape == (4000, 3)
    assert ds.class_counts() == {"A": 1000, "B": 3000}
    X0, X1 = ds.X[ds.y == 0], ds.X[ds.y == 1]
    diff = X1.mean(axis=0) - X0.mean(axis=0)
    pooled = (np.cov(X0.T) + np.cov(X1.T)) / 2
    mahalanobis = np.sqrt(diff @ np.linalg.solve(pooled, diff))
    assert mahalanobis == pytest.approx(4.0, rel=0.1)


def test_elongated_clusters_fool_kmeans_but_spherical_do_not():
    spherical = synthetic.two_gaussians(n_samples=600, separation=4.0)
    elongated = synthetic.two_gaussians(
        n_samples=600, separation=4.0, covariance="elongated", elongation=6.0
    )
    for ds, good in ((spherical, True), (elongated, False)):
        labels = _two_means(ds.X)
        assert bool(_accuracy(ds.y, labels) > 0.9) is good


def test_diffrac_bumps_are_separable_and_noise_has_the_data_variance():
    ds = synthetic.diffrac_bumps(n_samples=2000, n_noise_dims=20, random_state=1)
    assert ds.shape == (2000, 22)
    assert ((ds.X[:, 0] > 0) == (ds.y == 1)).all()
    bumps_var = ds.X[:, :2].var(axis=0).mean()
    np.testing.assert_allclose(ds.X[:, 2:].var(axis=0), bumps_var, rtol=0.15)
    assert synthetic.diffrac_bumps(n_noise_dims=0).shape == (100, 2)


def test_kmeans_degrades_with_diffrac_noise_dimensions():
    def kmeans_accuracy(p):
        accs = []
        for seed in range(5):
            ds = synthetic.diffrac_bumps(n_noise_dims=p, random_state=seed)
            labels = _two_means(ds.X)
            accs.append(_accuracy(ds.y, labels))
        return np.mean(accs)

    assert kmeans_accuracy(0) > 0.95
    assert kmeans_accuracy(30) < 0.85


def test_afs_trap_traps_kmeans_only_when_the_scale_is_large():
    small = synthetic.afs_trap(scale=1.0)
    large = synthetic.afs_trap(scale=1000.0)
    np.testing.assert_array_equal(small.y, large.y)
    assert small.class_counts() == {"A": 200, "B": 200}
    assert _accuracy(small.y, _two_means(small.X)) > 0.95
    assert _accuracy(large.y, _two_means(large.X)) < 0.65
    # the noise feature is uninformative: its class means are close relative to its spread
    noise = large.X[:, 1]
    gap = abs(noise[large.y == 0].mean() - noise[large.y == 1].mean())
    assert gap < 0.3 * noise.std()


def test_moons_and_circles():
    moons = synthetic.moons(n_samples=101)
    assert moons.shape == (101, 2) and sum(moons.class_counts().values()) == 101
    circles = synthetic.circles(n_samples=200, noise=0.0, factor=0.3)
    radius = np.linalg.norm(circles.X, axis=1)
    np.testing.assert_allclose(radius[circles.y == 0], 1.0)
    np.testing.assert_allclose(radius[circles.y == 1], 0.3)


def test_generator_accepts_numpy_generator():
    rng = np.random.default_rng(5)
    assert synthetic.two_gaussians(random_state=rng).shape == (400, 2)
