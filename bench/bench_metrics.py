"""The external measures of a labeling (accuracy, NMI, Rand, ARI, pairwise F) from one
contingency table, :func:`clustering.metrics.external_scores`, against the four
scikit-learn calls that computed them before (``normalized_mutual_info_score``,
``rand_score``, ``adjusted_rand_score``, ``pair_confusion_matrix``, each validating the
labels and building its own table) and the Hungarian matching for the accuracy, measured in
the same run. Every fit the lab shows is scored this way, so at small N this was the larger
part of a Fig. 1 run's server time.

Cost: one ``np.unique`` per labeling (``O(N log N)``) and ``O(k k')`` on the table.

Run: ``python -m bench.bench_metrics [--repeats 50]``.
"""

from __future__ import annotations

import argparse
import os

import numpy as np

from ._common import machine, measure, print_table


def main(argv: list[str] | None = None) -> None:
    """Time the five external measures from one contingency table against scikit-learn's four
    calls and the Hungarian matching; print medians and the ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=50)
    args = parser.parse_args(argv)
    from scipy.optimize import linear_sum_assignment
    from sklearn import metrics as skm

    from clustering.metrics import external_scores

    def scikit_learn(y, labels):
        table = skm.cluster.contingency_matrix(y, labels)
        rows, cols = linear_sum_assignment(-table)
        return (
            table[rows, cols].sum() / table.sum(),
            skm.normalized_mutual_info_score(y, labels, average_method="geometric"),
            skm.rand_score(y, labels),
            skm.adjusted_rand_score(y, labels),
            skm.cluster.pair_confusion_matrix(y, labels),
        )

    rng = np.random.default_rng(0)
    rows = []
    for n, k in ((400, 2), (5000, 2), (5000, 10), (70000, 10)):
        y, labels = rng.integers(0, k, n), rng.integers(0, k, n)
        ours, mem, _ = measure(lambda y=y, labels=labels: external_scores(y, labels), args.repeats)
        theirs, _, _ = measure(lambda y=y, labels=labels: scikit_learn(y, labels), args.repeats)
        times = [f"{ours * 1e3:.2f}", f"{theirs * 1e3:.2f}", f"{theirs / ours:.0f}x"]
        rows.append([n, k, *times, f"{mem:.1f}"])
    print(machine())
    print(f"load average {os.getloadavg()[0]:.1f}; median of {args.repeats}\n")
    headers = ["N", "k", "one table (ms)", "scikit-learn (ms)", "ratio", "peak MiB (ours)"]
    print_table(headers, rows)


if __name__ == "__main__":
    main()
