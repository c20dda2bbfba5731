"""The MMC paper's Tables III-V (NMI, Rand index, F_1.5) for MMC_multi on the digits pairs,
measured with :func:`lab.experiments.mmc_digits.grid_search_mmc` (grid search over C and l,
k-means starts, results averaged over runs).

Usage: ``python bench/bench_mmc_tables.py [--pairs digits:3v8 digits:8v9] [--runs 3]``

Data: scikit-learn's digits (the paper's ``digits``: same sizes, 357 and 354 samples) as
raw pixel counts 0-16 (``sklearn.datasets.load_digits``), the form the paper's MATLAB code
received. Each table uses the loss that matches its measure.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sklearn.datasets import load_digits

from bench._common import machine, print_table
from lab.experiments.mmc_digits import grid_search_mmc

# Table III (NMI), IV (Rand), V (F, beta = 1.5): MMC_multi column of the paper.
PAPER = {
    "digits:1v7": {"nmi": 1.00, "rand": 1.00, "f": 1.00},
    "digits:2v7": {"nmi": 1.00, "rand": 1.00, "f": 1.00},
    "digits:3v8": {"nmi": 0.861, "rand": 0.961, "f": 0.961},
    "digits:8v9": {"nmi": 0.860, "rand": 0.962, "f": 0.962},
}


def digits_pair(name: str):
    """scikit-learn's digits ``a`` and ``b`` of a name such as ``digits:3v8``: ``(X, y)`` with
    ``y`` 1 for ``b``."""
    a, b = (int(c) for c in name.split(":")[1].split("v"))
    X, y = load_digits(return_X_y=True)
    keep = np.isin(y, [a, b])
    return X[keep], (y[keep] == b).astype(int)


def main(argv=None) -> None:
    """Grid-search MMC_multi on every digits pair and print its NMI, Rand and F next to the
    paper's Tables III-V."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", nargs="*", default=["digits:3v8", "digits:8v9"])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    print(machine())
    rows = []
    for name in args.pairs:
        X, y = digits_pair(name)
        for loss, table in (("nmi", "III"), ("rand", "IV"), ("f", "V")):
            res = grid_search_mmc(X, y, loss=loss, beta=1.5, n_runs=args.runs)
            paper = PAPER[name][loss]
            rows.append(
                [
                    table,
                    name,
                    X.shape[0],
                    loss,
                    f"{res['C']:.0e}",
                    res["l"],
                    f"{res[loss]:.3f}",
                    paper,
                    f"{res[loss] - paper:+.3f}",
                    f"{res['seconds']:.1f}",
                ]
            )
            print(rows[-1], flush=True)
    print()
    print_table(["table", "data", "N", "loss", "C", "l", "measured", "paper", "gap", "s/fit"], rows)


if __name__ == "__main__":
    main()
