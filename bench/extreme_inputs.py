"""Every registered estimator (and the Minimax Probability Machine) on extreme and degenerate
inputs: the clean data ``X``, ``X * 1e-300``, ``X * 1e300``, all-identical rows and more
features than samples (d > N).

Each case is classified as
``same`` (labels agree with the clean fit up to renaming; for d > N: ARI >= 0.9 with the truth),
``refused`` (one of the project's exceptions, whose message names the problem and the fix),
``ugly`` (any other exception) or ``wrong`` (a result with different labels, one cluster, or
two "clusters" of identical points). Run: ``python -m bench.extreme_inputs``.
"""

from __future__ import annotations

import warnings

import numpy as np
from sklearn.metrics import adjusted_rand_score

from clustering import ALGORITHMS, MinimaxProbabilityMachine, make_estimator
from clustering.exceptions import DegenerateDataError, ProblemTooLargeError, SolverFailedError

PROJECT_ERRORS = (DegenerateDataError, ProblemTooLargeError, SolverFailedError)


def two_gaussians(n_per=30, d=2, gap=8.0, seed=0):
    """Two Gaussian clusters of ``n_per`` points each, ``gap`` apart: ``(X, y)``."""
    rng = np.random.default_rng(seed)
    X0 = rng.normal(0.0, 1.0, (n_per, d))
    X1 = rng.normal(0.0, 1.0, (n_per, d)) + gap / np.sqrt(d)
    return np.vstack([X0, X1]), np.repeat([0, 1], n_per)


def inputs():
    """The extreme and degenerate inputs: name to ``(X, y)``."""
    X, y = two_gaussians()
    Xw, yw = two_gaussians(n_per=10, d=40, gap=12.0, seed=1)
    return {
        "X*1e-300": (X * 1e-300, y),
        "X*1e300": (X * 1e300, y),
        "identical rows": (np.ones((60, 2)), y),
        "d > N": (Xw, yw),
    }


def _make(key):
    est = make_estimator(key)
    if "random_state" in est.get_params():
        est.set_params(random_state=0)
    return est


def _fit(key, X, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if key == "mpm":
            return MinimaxProbabilityMachine().fit(X, y).predict(X)
        return _make(key).fit_predict(X)


def classify(key, X, y, clean_labels) -> tuple[str, str]:
    """How a method answers ``X``: ``same`` labels as on clean data, ``refused`` with the
    project's error, ``ugly`` (another exception) or ``wrong``; with the detail."""
    try:
        labels = _fit(key, X, y)
    except PROJECT_ERRORS as exc:
        return "refused", f"{type(exc).__name__}: {exc}"
    except Exception as exc:
        return "ugly", f"{type(exc).__name__}: {str(exc)[:80]}"
    labels = np.asarray(labels)
    if np.unique(X, axis=0).shape[0] == 1:
        return "wrong", f"{np.unique(labels).size} clusters of identical points"
    reference = y if clean_labels is None else clean_labels
    ari = adjusted_rand_score(reference, labels)
    return (
        "same" if ari >= (0.9 if clean_labels is None else 0.999) else "wrong"
    ), f"ARI {ari:.2f}"


def run(keys=None):
    """Every method (``keys``, and the MPM) on every input: one row per method with its
    classification per input."""
    keys = list(keys or ALGORITHMS) + ["mpm"]
    X, y = two_gaussians()
    rows = []
    for key in keys:
        try:
            clean = np.asarray(_fit(key, X, y))
        except Exception as exc:
            clean = None
            print(f"{key}: clean fit failed: {exc}")
        for name, (Xc, yc) in inputs().items():
            ref = None if name == "d > N" else clean
            outcome, detail = classify(key, Xc, yc, ref)
            rows.append((key, name, outcome, detail))
    return rows


def main():
    """Print the table of :func:`run` for every registered method."""
    rows = run()
    print(f"{'method':<12} {'input':<15} {'outcome':<8} detail")
    for key, name, outcome, detail in rows:
        print(f"{key:<12} {name:<15} {outcome:<8} {detail[:110]}")
    counts = {o: sum(r[2] == o for r in rows) for o in ("same", "refused", "ugly", "wrong")}
    print(f"\n{len(rows)} cases: " + ", ".join(f"{v} {k}" for k, v in counts.items()))


if __name__ == "__main__":
    main()
