"""Time and peak memory of MSPC's three solvers against k-means, measured in the same run.

Usage: ``python bench/bench_mspc.py [--quick] [--repeats R]``

Data: two Gaussian clusters of the shapes of the MSPC paper's tasks (letter 1555x16, spam
4601x57, MNIST pairs ~14000x784) and a large 1,000,000x20 set. Every MSPC method starts
from k-means (the paper's protocol, ``n_init=10``), so "MSPC time" includes k-means.

Cost as N and d grow (memory beyond the data itself):
- k-means: O(N d k) per Lloyd iteration, memory O(N k).
- MSPC-MPM: O(N d^2) for the first moments, then O(n_switched d^2 + d^3) per iteration;
  memory O(N d + d^2) (no N x N matrix).
- MSPC-GEP: O(N d^2 + d^3) once (total covariance, Cholesky), then O(N d + N log N) per
  iteration; memory O(N d + d^2).
- MSPC-EIG: O(N d^2 + d^3) when N > d (d x d generalised eigenproblem), O(N^2 d + N^3) when
  d >= N; memory O(N d + min(N, d)^2).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from sklearn.cluster import KMeans

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._common import machine, measure, print_table
from clustering import MSPC

SHAPES = [(1555, 16), (4601, 57), (14000, 784), (1_000_000, 20)]
QUICK_SHAPES = [(1555, 16), (4601, 57)]


def make_data(n: int, d: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    X[: n // 2] += 2.0 / np.sqrt(d) * 3
    # Anisotropic units, as in real data.
    X *= 10.0 ** rng.uniform(-2, 2, d)
    return X


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="only the two small shapes")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs per cell (median)")
    args = parser.parse_args(argv)
    print(f"Machine: {machine()}\n")
    rows = []
    for n, d in QUICK_SHAPES if args.quick else SHAPES:
        X = make_data(n, d)
        repeats = 1 if n * d > 5e6 else args.repeats
        t_km, m_km, _ = measure(
            lambda X=X: KMeans(2, n_init=10, random_state=0).fit(X), repeats=repeats
        )
        rows.append([f"{n}x{d}", "k-means", f"{t_km:.3f}", "", f"{m_km:.1f}", "1.00", "", ""])
        for method in ("mpm", "gep", "eig"):
            model = MSPC(method=method, lam=1.0, random_state=0)
            t, mem, fitted = measure(lambda X=X, model=model: model.fit(X), repeats=repeats)
            rows.append(
                [
                    f"{n}x{d}",
                    f"MSPC-{method.upper()}",
                    f"{t:.3f}",
                    # EIG has no k-means start: its own time is its whole time.
                    f"{t:.3f}" if method == "eig" else f"{max(t - t_km, 0.0):.3f}",
                    f"{mem:.1f}",
                    f"{t / t_km:.2f}",
                    fitted.n_iter_,
                    f"{fitted.msp_:.3f}",
                ]
            )
        print_table(
            [
                "N x d",
                "method",
                "time (s)",
                "beyond the k-means start (s)",
                "peak MiB",
                "time / k-means",
                "iters",
                "MSP",
            ],
            rows,
        )
        print(flush=True)
        rows = []


if __name__ == "__main__":
    main()
