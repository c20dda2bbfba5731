"""Maximum volume clustering: Theorem 1 (spectral clustering), the SQP step against an
independent cvxpy solve, stationarity, the SDP's form, its size guard and failure path."""

from __future__ import annotations

import warnings

import cvxpy as cp
import numpy as np
import pytest
from sklearn.datasets import load_digits
from sklearn.exceptions import ConvergenceWarning
from sklearn.metrics import adjusted_rand_score

import datasets
from clustering import HardLabelMVC, ProblemTooLargeError, SoftLabelMVC, SolverFailedError
from clustering.mvc import (
    _KKTStep,
    affinity_matrix,
    build_hard_label_sdp,
    graph_laplacian,
    rbf_kernel_matrix,
    solve_soft_label_mvc,
)
from tests.conftest import make_cvxpy_fail, two_gaussians


def _unnormalized_laplacian(X):
    return graph_laplacian(affinity_matrix(X, "knn", 6, None), normalized=False)


def test_theorem1_strict_balance_and_large_gamma_give_the_fiedler_vector():
    # Two overlapping clusters: the Fiedler vector is not piecewise constant, so the SQP
    # has to move from its sign-vector start to reach it.
    X, _ = two_gaussians(n_per=40, d=2, gap=3.0, seed=11)
    L = _unnormalized_laplacian(X)
    evals, evecs = np.linalg.eigh(L)
    assert evals[1] > 1e-8, "the graph must be connected"
    fiedler = evecs[:, 1]
    # Entries of h near 0 flip sign from step to step (the kink of ||h||_1), so the step
    # test of Algorithm 1 need not be met although h has reached v_2.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model = SoftLabelMVC(gamma=1e6, b=0.0, Q=_unnormalized_laplacian, max_iter=200).fit(X)
    assert abs(model.h_ @ fiedler) > 1 - 1e-6
    spectral = (fiedler > 0).astype(int)
    assert adjusted_rand_score(spectral, model.labels_) == 1.0
    assert abs(model.h_.sum()) <= 1e-9


def _cvxpy_step(Q, gamma, b):
    """The QP (5) written directly from the paper (not through the eigenbasis), solved by
    cvxpy as the paper did with CVX: returns ``p`` and whether the balance constraint binds."""

    def step(h, eta, g):
        n = h.shape[0]
        p = cp.Variable(n)
        qp = cp.Problem(
            cp.Minimize(cp.quad_form(p, gamma * Q - eta * np.eye(n), assume_PSD=True) + 2 * g @ p),
            [2 * p @ h + h @ h == 1, cp.abs(cp.sum(p) + h.sum()) <= b],
        )
        qp.solve(solver="CLARABEL")
        active = abs(h.sum() + p.value.sum()) >= b * (1 - 1e-6) - 1e-9
        return np.asarray(p.value, dtype=float), active

    return step


def test_kkt_step_equals_an_independent_cvxpy_solve():
    rng = np.random.default_rng(2)
    X, _ = two_gaussians(n_per=15, d=2, seed=2)
    Q = graph_laplacian(affinity_matrix(X, "knn", 5, None))
    evals, evecs = np.linalg.eigh(Q)
    for b in (1e-7, 0.5, 10.0):
        h = rng.normal(size=30)
        h /= np.linalg.norm(h) * 1.1
        eta, gamma = -0.7, 0.3
        g = gamma * Q @ h - np.sign(h)
        p_kkt, _ = _KKTStep(evals, evecs, gamma, b)(h, eta, g)
        p_cvx, _ = _cvxpy_step(Q, gamma, b)(h, eta, g)
        np.testing.assert_allclose(p_kkt, p_cvx, atol=1e-6)


def test_kkt_and_cvxpy_steps_give_the_same_clustering(monkeypatch):
    import clustering.mvc as mvc

    X, _ = two_gaussians(n_per=20, d=3, gap=4.0, seed=3)
    fast = SoftLabelMVC().fit(X)
    Q = graph_laplacian(affinity_matrix(X, "knn", 5, None))
    # Algorithm 1 again, with every step solved by cvxpy instead of the closed form.
    monkeypatch.setattr(mvc, "_KKTStep", lambda evals, evecs, gamma, b: _cvxpy_step(Q, gamma, b))
    slow = SoftLabelMVC().fit(X)
    np.testing.assert_allclose(fast.h_, slow.h_, atol=1e-5)
    np.testing.assert_array_equal(fast.labels_, slow.labels_)


def test_solution_is_a_kkt_point_of_problem_4():
    X, y = two_gaussians(n_per=30, d=3, gap=5.0, seed=4)
    model = SoftLabelMVC(gamma=0.5, b=1e-7, tol=1e-14, max_iter=500).fit(X)
    assert model.converged_
    Q = graph_laplacian(affinity_matrix(X, "knn", 5, None))
    h, gamma = model.h_, 0.5
    assert np.linalg.norm(h) == pytest.approx(1.0, abs=1e-8)
    assert abs(h.sum()) <= 1e-7 * (1 + 1e-6)
    # Stationarity of -2||h||_1 + gamma h'Qh - eta (h'h - 1) + kappa h'1, kappa free.
    r = gamma * Q @ h - np.sign(h) - model.eta_ * h
    r -= r.mean()
    assert np.linalg.norm(r) < 1e-6
    assert adjusted_rand_score(y, model.labels_) > 0.9


def test_soft_label_mvc_with_the_paper_graph_on_digits():
    # Section 5's protocol: cosine k-NN graph on raw pixel counts, the best k of 3..8.
    X, y = load_digits(return_X_y=True)
    pair = np.isin(y, [3, 8])
    scores = [
        adjusted_rand_score(
            y[pair], SoftLabelMVC(affinity="knn-cosine", n_neighbors=k).fit(X[pair]).labels_
        )
        for k in (3, 5, 8)
    ]
    assert max(scores) > 0.95


def test_hard_label_sdp_is_dcp_and_separates_two_gaussians():
    X, y = two_gaussians(n_per=15, d=2, gap=8.0, seed=5)
    problem, _ = build_hard_label_sdp(rbf_kernel_matrix(X, None), 1.0, 1e4, 0.3)
    assert problem.is_dcp(dpp=True)
    model = HardLabelMVC().fit(X)
    assert adjusted_rand_score(y, model.labels_) == 1.0
    assert np.allclose(np.diag(model.M_), 1.0, atol=1e-3)
    assert np.linalg.eigvalsh(model.M_).min() > -1e-3


def test_without_class_balance_the_sdp_puts_everything_in_one_cluster():
    # Why HardLabelMVC adds the balance constraint: the paper's (10) alone keeps every pair
    # together (M close to 1 1'), even for two clusters 8 standard deviations apart.
    X, _ = two_gaussians(n_per=10, d=2, gap=8.0, seed=6)
    model = HardLabelMVC(balance=1.0, solver="CLARABEL").fit(X)
    assert model.M_.min() > 0.9
    balanced = HardLabelMVC(balance=0.3, solver="CLARABEL").fit(X)
    assert balanced.M_.min() < -0.5


def test_hard_label_refuses_large_inputs_with_a_clear_message():
    X, _ = two_gaussians(n_per=76, d=2, seed=7)
    with pytest.raises(ProblemTooLargeError, match=r"max_samples=150.*O\(n\^6\.5\).*SoftLabelMVC"):
        HardLabelMVC().fit(X)
    with pytest.raises(ProblemTooLargeError, match="max_samples=20"):
        HardLabelMVC(max_samples=20).fit(X[:21])


def test_hard_label_solver_failure_is_explained(monkeypatch):
    make_cvxpy_fail(monkeypatch, "the solver ran out of iterations")
    X, _ = two_gaussians(n_per=5, seed=8)
    with pytest.raises(SolverFailedError, match=r"SDP \(10\) of HardLabelMVC.*Try another solver"):
        HardLabelMVC().fit(X)


def test_sqp_reports_its_iterations():
    X, _ = two_gaussians(n_per=20, seed=9)
    Q = graph_laplacian(affinity_matrix(X, "knn", 5, None))
    result = solve_soft_label_mvc(Q, gamma=0.01, b=1e-7, tol=1e-6, max_iter=100)
    assert result.status == "converged"
    assert len(result.history) == result.n_iter + 1


@pytest.mark.parametrize("affinity", ["knn", "knn-cosine"])
def test_knn_graph_is_connected_on_every_bundled_task(affinity):
    # The k-NN graph alone has 17 components on australian and 3 on letter; the minimum
    # spanning tree edges join them, so the Laplacian has exactly one zero eigenvalue and
    # the SQP start (its second eigenvector) is unique.
    from clustering.mvc import affinity_matrix, graph_components

    for name in datasets.list_datasets("tasks"):
        X = datasets.load(name).X
        if X.shape[0] > 2500:  # spam: the same code path, 4601^2 distances; kept out for time
            X = X[:2500]
        W = affinity_matrix(X, affinity, 5, None)
        assert graph_components(W) == 1, name
        np.testing.assert_array_equal(W, W.T)


def test_soft_label_mvc_is_deterministic_on_australian():
    X = datasets.load("australian").X
    a = SoftLabelMVC().fit(X).labels_
    b = SoftLabelMVC().fit(X[::-1]).labels_[::-1]
    assert adjusted_rand_score(a, b) == 1.0


def test_table2_grid_covers_the_papers_graphs_and_both_laplacians():
    # The MVC paper's own SL-MVC graph is the cosine k-NN graph with the normalised
    # Laplacian; Theorem 1 uses the unnormalised one; the MSPC paper tunes a Gaussian width.
    from lab.experiments import _methods

    settings = _methods.grid("mvc-soft")
    assert {s["affinity"] for s in settings} == {"knn", "knn-cosine", "rbf"}
    assert {s["normalized"] for s in settings} == {True, False}
    assert len({s["gamma"] for s in settings}) >= 5
    assert len({tuple(sorted(s.items())) for s in settings}) == len(settings)
    for s in settings:
        SoftLabelMVC(**s)._validate_params()


@pytest.mark.parametrize("affinity", ["knn", "knn-cosine"])
def test_unnormalized_laplacian_start_is_unique_and_fit_deterministic(affinity):
    # With D - W the start is still the eigenvector of a simple second eigenvalue (the graph
    # is connected), so the labels do not depend on the order of the samples.
    X = datasets.load("diabetes").X
    Q = graph_laplacian(affinity_matrix(X, affinity, 5, None), normalized=False)
    evals = np.linalg.eigvalsh(Q)
    assert evals[1] > 1e-3 and evals[2] - evals[1] > 1e-4
    a = SoftLabelMVC(affinity=affinity, normalized=False, gamma=10.0).fit(X).labels_
    b = SoftLabelMVC(affinity=affinity, normalized=False, gamma=10.0).fit(X[::-1]).labels_[::-1]
    assert adjusted_rand_score(a, b) == 1.0
