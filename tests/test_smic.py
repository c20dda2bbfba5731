"""SMIC / 3SMIC: kernel, optimality of the eigen solution for (6), the SMI estimate,
model selection and must-/cannot-links."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import adjusted_rand_score

from clustering import SMIC
from clustering.smic import local_scaling_kernel, smi_model_value, smi_score
from tests.conftest import two_gaussians


def _three_blobs(seed=0):
    rng = np.random.default_rng(seed)
    centres = ([0.0, 0.0], [3.0, 0.0], [9.0, 0.0])
    return np.vstack([rng.normal(c, 0.5, (30, 2)) for c in centres])


def test_local_scaling_kernel_matches_its_definition():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 3))
    t = 4
    K = local_scaling_kernel(X, t).toarray()
    D = np.linalg.norm(X[:, None] - X[None], axis=-1)
    order = np.argsort(D, axis=1)
    sigma = D[np.arange(40), order[:, t]]
    neigh = np.zeros((40, 40), dtype=bool)
    neigh[np.repeat(np.arange(40), t + 1), order[:, : t + 1].ravel()] = True
    neigh |= neigh.T
    expected = np.where(neigh, np.exp(-(D**2) / (2 * np.outer(sigma, sigma))), 0.0)
    np.testing.assert_allclose(K, expected, atol=1e-12)
    np.testing.assert_allclose(np.diag(K), 1.0)


def test_eigenvectors_maximise_the_smi_approximation_6():
    X, _ = two_gaussians(n_per=30, d=2, gap=4.0, seed=0)
    model = SMIC(n_neighbors=5, random_state=0).fit(X)
    K = local_scaling_kernel(X, 5)
    Kd = K.toarray()
    _, vecs = np.linalg.eigh(Kd @ Kd)
    best = smi_model_value(K, vecs[:, -2:])
    assert model.smi_model_ == pytest.approx(best, rel=1e-9)
    assert model.objective_ == pytest.approx(best, rel=1e-9)  # no links: J = SMI^ (6)
    rng = np.random.default_rng(1)
    for _ in range(20):  # any other orthonormal alpha does worse
        Q, _ = np.linalg.qr(rng.normal(size=(60, 2)))
        assert smi_model_value(K, Q) <= best + 1e-12


def test_assignment_rule_and_sign_fix_as_in_the_paper():
    X, _ = two_gaussians(n_per=25, d=2, gap=3.0, seed=5)
    model = SMIC(n_neighbors=6, random_state=0).fit(X)
    Kd = local_scaling_kernel(X, 6).toarray()
    _, V = np.linalg.eigh(Kd)
    phi = V[:, ::-1][:, :2] * np.sign(V[:, ::-1][:, :2].sum(axis=0))  # sign(phi' 1)
    pos = np.maximum(phi, 0)
    labels = np.argmax(pos / pos.sum(axis=0), axis=1)
    assert adjusted_rand_score(labels, model.labels_) == 1.0


def test_smi_estimate_is_higher_for_the_true_labeling_than_for_random_ones():
    X, y = two_gaussians(n_per=60, d=3, gap=8.0, seed=2)
    true = smi_score(X, y, random_state=0)
    assert 0.4 < true < 0.6  # 1/2 for two balanced, perfectly predictable classes
    rng = np.random.default_rng(0)
    for _ in range(5):
        assert smi_score(X, rng.permutation(y), random_state=0) < true - 0.3


def test_model_selection_keeps_the_best_scoring_neighbour_count():
    X, y = two_gaussians(n_per=40, d=3, gap=10.0, seed=1)
    model = SMIC(neighbor_candidates=(1, 3, 5), random_state=0).fit(X)
    assert set(model.scores_) == {1, 3, 5}
    assert model.smi_ == max(model.scores_.values())
    assert model.scores_[model.n_neighbors_] == model.smi_
    assert adjusted_rand_score(y, model.labels_) == 1.0


def test_must_links_and_cannot_links_change_the_split():
    X = _three_blobs()
    free = SMIC(random_state=0).fit_predict(X)
    assert free[0] == free[30] != free[60]  # the two near blobs together
    must = [(i, 60 + i) for i in range(10)]  # glue blob 0 to the far blob 2
    linked = SMIC(random_state=0).fit_predict(X, must_link=must)
    assert np.all(linked[:30] == linked[0]) and np.all(linked[60:] == linked[0])
    assert np.all(linked[30:60] != linked[0])


def _agreement(X, model, pairs):
    """sum over pairs and classes of p_y(x_i) p_y(x_j) for the model outputs K alpha."""
    P = local_scaling_kernel(X, model.n_neighbors_) @ model.alpha_
    pairs = np.asarray(pairs)
    return float(np.sum(P[pairs[:, 0]] * P[pairs[:, 1]]))


@pytest.mark.parametrize("kind", ["must_link", "cannot_link"])
def test_links_move_the_agreement_of_linked_posteriors_the_right_way(kind):
    # J_eta(phi_eta) >= J_eta(phi_0) and SMI(phi_0) >= SMI(phi_eta) add up to
    # eta * agree(phi_eta) <= eta * agree(phi_0) for cannot-links (>= for must-links).
    X = _three_blobs()
    pairs = [(i, 30 + i) for i in range(10)] if kind == "cannot_link" else [(0, 60), (5, 65)]
    free = SMIC(n_neighbors=5, random_state=0).fit(X)
    weight = {"must_link_weight" if kind == "must_link" else "cannot_link_weight": 3.0}
    linked = SMIC(n_neighbors=5, random_state=0, **weight).fit(X, **{kind: pairs})
    before, after = _agreement(X, free, pairs), _agreement(X, linked, pairs)
    if kind == "cannot_link":
        assert after < before
    else:
        assert after > before


def test_bad_links_are_rejected():
    X, _ = two_gaussians(n_per=10, seed=0)
    with pytest.raises(ValueError, match="contradict"):
        SMIC().fit(X, must_link=[(0, 1)], cannot_link=[(1, 0)])
    with pytest.raises(ValueError, match="cannot_link refers to sample index -1"):
        SMIC().fit(X, cannot_link=[(-1, 2)])
    with pytest.raises(ValueError, match="neighbor_candidates"):
        SMIC(neighbor_candidates=(0, 2)).fit(X)


def test_lanczos_path_agrees_with_the_dense_path():
    X, y = two_gaussians(n_per=250, d=2, gap=8.0, seed=3)  # N = 500: Lanczos
    model = SMIC(n_neighbors=7, random_state=0).fit(X)
    assert adjusted_rand_score(y, model.labels_) == 1.0
    K = local_scaling_kernel(X, 7).toarray()
    ref = np.sort(np.linalg.eigvalsh(K @ K))[::-1][:2] / 500.0  # K U K = K^2 c/(2n)
    np.testing.assert_allclose(model.eigenvalues_, ref, rtol=1e-8)
