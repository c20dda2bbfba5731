"""Time and peak memory of the eigen/alternation baselines as N grows, against k-means
measured in the same run.

Usage: ``python bench/bench_baselines_eig.py [--sizes 200 1000 5000] [--d 10] [--repeats R]``

Data: two Gaussian clusters in ``d`` dimensions (means 3 apart along the diagonal). Every
method runs with its registry defaults (the app's settings); DIFFRAC is run with both
relaxations. Peak memory is the largest amount traced by ``tracemalloc`` during one fit
(numpy buffers included), beyond the data itself.

Stated costs (time; memory beyond the data):
- k-means: O(n_init N d) per Lloyd iteration; O(N).
- LDA-k-means: O(N d^2 + d^3) per alternation plus k-means in k-1 dims; O(N d + d^2).
- Dis-k-means: O(N d^2 + d^3) once, then k-means on N x d features; O(N d + d^2).
- Spectral (gaussian): O(N^2 d) affinity + Lanczos O(N^2) per product; O(N^2).
- Spectral (knn): O(N log N d) neighbours + Lanczos O(N k); O(N k).
- DIFFRAC eigen (linear): O(N d^2) thin SVD, then k-means; O(N d).
- DIFFRAC convex: SDP with N^2 variables, ~O(N^3) per SCS iteration; O(N^2); refuses
  N > max_samples (300).
- SMIC: per neighbour count, O(N log N d) + Lanczos O(N t) per product + O(N b) LSMI;
  O(N (t + b)).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._common import machine, measure, print_table
from clustering import ALGORITHMS, ProblemTooLargeError
from clustering.metrics import clustering_accuracy

# (label, registry key, extra parameters)
METHODS = [
    ("k-means", "kmeans", {}),
    ("LDA-k-means", "lda-kmeans", {}),
    ("Dis-k-means", "dis-kmeans", {}),
    ("spectral (gaussian)", "spectral", {"affinity": "gaussian"}),
    ("spectral (knn)", "spectral", {"affinity": "knn"}),
    ("DIFFRAC (eigen)", "diffrac", {"relaxation": "eigen"}),
    ("DIFFRAC (convex)", "diffrac", {"relaxation": "convex"}),
    ("SMIC (auto t)", "smic", {}),
]


def make_data(n: int, d: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Two Gaussian clusters of ``n`` points in ``d`` features, their means 3 apart: ``(X, y)``."""
    rng = np.random.default_rng(seed)
    y = np.repeat([0, 1], [n // 2, n - n // 2])
    X = rng.normal(size=(n, d)) + y[:, None] * (3.0 / np.sqrt(d))
    return X, y


def main(argv=None) -> None:
    """Time and peak memory of each eigen/alternation baseline at every ``--sizes`` N, with
    k-means' in the same run, as a table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[200, 1000, 5000])
    parser.add_argument("--d", type=int, default=10, help="number of features")
    parser.add_argument("--repeats", type=int, default=1, help="timed runs per cell (median)")
    args = parser.parse_args(argv)

    print(f"Machine: {machine()}")
    rows, skipped = [], []
    for n in args.sizes:
        X, y = make_data(n, args.d)
        base = None
        for label, key, extra in METHODS:
            spec = ALGORITHMS[key]
            params = {**spec.defaults(), **extra, "random_state": 0}
            limit = params.get("max_samples") if extra.get("relaxation") == "convex" else None
            if limit is not None and n > limit:
                skipped.append(f"{label} at N={n}: above max_samples={limit}")
                continue

            def fit(spec=spec, params=params, X=X):
                return spec.make(**params).fit(X)

            try:
                seconds, peak, model = measure(fit, repeats=args.repeats)
            except ProblemTooLargeError as exc:  # pragma: no cover - guarded above
                skipped.append(f"{label} at N={n}: {exc}")
                continue
            if key == "kmeans":
                base = seconds
            ratio = f"{seconds / base:.1f}" if base else "-"
            acc = clustering_accuracy(y, model.labels_)
            rows.append([label, n, args.d, f"{seconds:.3f}", f"{peak:.1f}", ratio, f"{acc:.3f}"])
            print(f"  done: {label} N={n} in {seconds:.2f} s", file=sys.stderr, flush=True)
    print_table(
        ["method", "N", "d", "time (s)", "peak memory (MiB)", "time / k-means", "accuracy"],
        rows,
    )
    for line in skipped:
        print(f"skipped: {line}")


if __name__ == "__main__":
    main()
