"""Time and peak memory of multi-class MSPC as N and k grow, against k-means in the same run.

Usage: ``python bench/bench_multiclass.py [--quick]``

Data: ``k`` Gaussian clusters in ``d = 16`` dimensions (centres drawn from N(0, 9 I)).
Every MSPC method starts from k-means on z-scored features (``n_init=10``), so "MSPC time"
includes that k-means; ``lam = 0.1``; the ratio column is MSPC time over plain k-means
(``n_init=10``) on the same data.

Cost (memory beyond the data): one multi-class MSP evaluation is ``O(N d^2)`` for the
moments plus ``k (k - 1) / 2`` MPM problems of ``O(d^3)``; the MPM search evaluates it up to
``1 + MAX_HALVINGS`` times per step; GEP once per step plus ``O(N d k + d^3)``; EIG one
``d x d`` eigenproblem and k-means on ``N x (k - 1)``. Memory ``O(N d + k d^2)``; no N x N
matrix.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path

import numpy as np
from sklearn.cluster import KMeans

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._common import machine, measure, print_table
from clustering import MSPC

D = 16
GRID = [(1000, 3), (4000, 3), (16000, 3), (4000, 10), (4000, 26)]
QUICK_GRID = [(1000, 3), (4000, 3), (4000, 10)]


def make_data(n: int, k: int, seed: int = 0) -> np.ndarray:
    """``n`` points around ``k`` random centres in ``D`` features."""
    rng = np.random.default_rng(seed)
    centres = rng.normal(0, 3, (k, D))
    return centres[rng.integers(0, k, n)] + rng.normal(size=(n, D))


def main() -> None:
    """Time and peak memory of multi-class MSPC as N and k grow, with k-means' in the same run,
    as a table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    print(f"Machine: {machine()}\n")
    rows = []
    for n, k in QUICK_GRID if args.quick else GRID:
        X = make_data(n, k)
        base, _, _ = measure(
            lambda X=X, k=k: KMeans(n_clusters=k, n_init=10, random_state=0).fit(X)
        )
        row = [n, k, f"{base:.2f}"]
        for method in ("mpm", "gep", "eig"):
            est = MSPC(
                method=method, n_clusters=k, lam=0.1, init="kmeans-standardized", random_state=0
            )
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                t, mem, fitted = measure(lambda est=est, X=X: est.fit(X))
            row += [f"{t:.2f}", f"{t / base:.1f}x", f"{mem:.0f}", fitted.n_iter_]
        rows.append(row)
        print(row, flush=True)
    headers = ["N", "k", "k-means s"]
    for m in ("MPM", "GEP", "EIG"):
        headers += [f"{m} s", f"{m}/k-means", f"{m} MiB", f"{m} iter"]
    print()
    print_table(headers, rows)


if __name__ == "__main__":
    main()
