"""Server-side time of the lab's demo interactions, with and without the small-data thread
limit (one BLAS and one OpenMP thread below 1,000,000 entries, ``clustering._threads.
small_data_threads``), both measured in the same run.

Each row is the computation an interaction triggers in the app, run here without Streamlit
and without its caches (what a first visit costs):

* ``slider-afs``: one Feature-scaling step on the AFS trap ('noise' ×20): k-means and MSPC
  (MPM) from the standardised start, λ = 0.01;
* ``slider-breast``: one step on breast (first feature ×2): k-means and MSPC (MPM) with its
  default multi-start;
* ``regulariser``: the breast demo's three methods refitted with Λ = full;
* ``digits-pairs``: MSP vs accuracy on the 45 digits pairs, MSPC (MPM) with its defaults;
* ``fig1``: the Fig. 1 sensitivity run on the AFS trap (k-means, MSPC's two starts, factors
  2, 4, 8, 16, every feature once).

``limited`` is the lab as shipped, ``library default`` the same code with the limit switched
off (scikit-learn's and OpenBLAS's own thread counts); ``ratio`` = default / limited. On a
busy machine (the load average is printed) the default's threads stall each other, so the
ratio grows with the load.

Run: ``python -m bench.bench_server [--repeats 1]``.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from ._common import machine, print_table


def _workloads():
    import datasets
    from datasets.synthetic import afs_trap
    from lab.evaluation import fit_and_evaluate
    from lab.experiments import protocols

    afs = afs_trap()
    breast = datasets.load("breast", normalize=True)
    pairs = protocols.load_tasks(datasets.pairs("digits"))
    std = {"lam": 0.01, "regularizer": "diag", "init": "kmeans-standardized"}

    def slider_afs():
        X = afs.X * np.array([1.0, 20.0])
        fit_and_evaluate("kmeans", {}, X, afs.y)
        fit_and_evaluate("mspc-mpm", std, X, afs.y)

    def slider_breast():
        X = breast.X.copy()
        X[:, 0] *= 2.0
        fit_and_evaluate("kmeans", {}, X, breast.y)
        fit_and_evaluate("mspc-mpm", {}, X, breast.y)

    def regulariser():
        for key, params in (
            ("kmeans", {}),
            ("mspc-mpm", {"lam": 0.01, "regularizer": "full", "init": "kmeans"}),
            ("mspc-eig", {"lam": 0.01, "regularizer": "full"}),
        ):
            fit_and_evaluate(key, params, breast.X, breast.y)

    def digits_pairs():
        protocols.msp_accuracy_family(pairs, "mspc-mpm", {"regularizer": "diag", "lam": 0.2})

    def fig1():
        methods = {
            "k-means": ("kmeans", {}),
            "paper start": ("mspc-mpm", {**std, "init": "kmeans"}),
            "standardised start": ("mspc-mpm", std),
        }
        protocols.afs_sensitivity(afs.X, afs.y, methods, factors=[1, 2, 4, 8, 16], n_repeats=2)

    return {
        "slider-afs": slider_afs,
        "slider-breast": slider_breast,
        "regulariser": regulariser,
        "digits-pairs": digits_pairs,
        "fig1": fig1,
    }


def _time(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return float(np.median(times))


def main(argv: list[str] | None = None) -> int:
    """Time the demo interactions on the server with and without the small-data thread limit, in
    the same run; print the medians."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=1)
    args = parser.parse_args(argv)
    import clustering._threads as threads

    limit = threads.SMALL_DATA_SIZE
    rows = []
    for name, fn in _workloads().items():
        fn()  # warm-up: imports, first-call costs
        threads.SMALL_DATA_SIZE = limit
        limited = _time(fn, args.repeats)
        threads.SMALL_DATA_SIZE = 0  # every array is "large": library default threads
        try:
            default = _time(fn, args.repeats)
        finally:
            threads.SMALL_DATA_SIZE = limit
        rows.append([name, f"{limited:.2f}", f"{default:.2f}", f"{default / limited:.1f}"])
    load = os.getloadavg()
    print(machine())
    print(f"load average {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} on {os.cpu_count()} cores")
    print_table(["interaction", "limited s", "library default s", "ratio"], rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
