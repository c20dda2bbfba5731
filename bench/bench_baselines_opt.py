"""Time of the optimisation-based baselines (IterSVR, MMC, MVC) as N doubles, and the largest
N each fits within a time limit.

Usage: ``python bench/bench_baselines_opt.py [--limit 60] [--start 50] [--d 10] [--quick]
[--budget SECONDS] [--methods itersvr mmc-nmi ...]``

Data: two Gaussian clusters in ``d`` dimensions (means 3 apart along the diagonal). Every
method runs with its registry defaults (the app's settings). For each method N doubles from
``--start`` until a fit takes longer than ``--limit`` seconds, the next fit is predicted
(from the growth between the last two sizes) to take more than three times the limit, the
method refuses N (``max_samples``), or the method's share of ``--budget`` is spent; the
last N fitted within the limit is reported. ``--quick``: limit 10 s, budget 5 minutes.

Stated costs:
- IterSVR: one libsvm regression per iteration, O(N^2 d)-O(N^3); < 10 iterations.
- MMC (NMI/Rand/F/error): per cutting plane an O(N^2) contingency scan plus a few small
  dual QPs (one variable per plane); tens of planes.
- Soft-label MVC: O(N^2 d) graph, O(N^3) eigendecomposition, O(N^2) per SQP step.
- Hard-label MVC: SDP, O(N^6.5); refuses N > 150 by default.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._common import machine, print_table
from clustering import ALGORITHMS, ProblemTooLargeError
from clustering.metrics import clustering_accuracy

METHODS = (
    "itersvr",
    "itersvr-rbf",
    "mmc-nmi",
    "mmc-rand",
    "mmc-f",
    "mmc-error",
    "mvc-soft",
    "mvc-hard",
)


def two_gaussians(n: int, d: int, seed: int = 0):
    """Two Gaussian clusters of ``n`` points in ``d`` features, alternating labels, means 3
    apart: ``(X, y)``."""
    rng = np.random.default_rng(seed)
    y = np.arange(n) % 2
    X = rng.normal(size=(n, d)) + np.outer(y, np.full(d, 3.0 / np.sqrt(d)))
    return X, y


def scan(key: str, start: int, d: int, limit: float, budget: float) -> tuple[list, int | None, str]:
    """Rows ``[n, seconds, accuracy]``, the largest n within ``limit`` and why it stopped."""
    spec = ALGORITHMS[key]
    rows, best, why = [], None, ""
    spent, n = 0.0, start
    while True:
        X, y = two_gaussians(n, d)
        model = spec.make(
            **({"random_state": 0} if "random_state" in spec.make().get_params() else {})
        )
        t0 = time.perf_counter()
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                labels = model.fit_predict(X)
        except ProblemTooLargeError:
            why = f"refuses N > {spec.max_samples} (max_samples)"
            break
        seconds = time.perf_counter() - t0
        spent += seconds
        rows.append([n, f"{seconds:.2f}", f"{clustering_accuracy(y, labels):.3f}"])
        if seconds > limit:
            why = f"N={n} took {seconds:.0f} s > {limit:.0f} s"
            break
        best = n
        if len(rows) >= 2:
            t_prev, t_last = float(rows[-2][1]), seconds
            growth = max(t_last / max(t_prev, 1e-3), 1.0)
            if t_last * growth > 3 * limit:
                why = f"N={2 * n} predicted to take ~{t_last * growth:.0f} s"
                break
        if spent > budget:
            why = f"budget of {budget:.0f} s spent"
            break
        n *= 2
    return rows, best, why


def main(argv=None) -> None:
    """Double N from ``--start`` for every method until a fit takes ``--limit`` seconds (or
    ``--budget`` runs out); print the times and the largest N each fitted."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=float, default=60.0)
    parser.add_argument("--start", type=int, default=50)
    parser.add_argument("--d", type=int, default=10)
    parser.add_argument("--budget", type=float, default=1800.0, help="total seconds")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--methods", nargs="*", default=list(METHODS))
    args = parser.parse_args(argv)
    if args.quick:
        args.limit, args.budget = 10.0, 300.0
    print(machine())
    print(f"two Gaussians, d={args.d}; limit {args.limit:.0f} s per fit\n")
    summary = []
    share = args.budget / len(args.methods)
    for key in args.methods:
        rows, best, why = scan(key, args.start, args.d, args.limit, share)
        print(f"### {ALGORITHMS[key].name} ({key}) — {ALGORITHMS[key].cost}")
        print_table(["N", "seconds", "accuracy"], rows)
        print()
        summary.append([key, best if best is not None else f"< {args.start}", why])
    print(f"### Largest N fitted within {args.limit:.0f} s")
    print_table(["method", "largest N", "stopped because"], summary)


if __name__ == "__main__":
    main()
