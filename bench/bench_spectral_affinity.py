"""Spectral clustering: label-free choice of the affinity (issue 15).

For every candidate graph (k-NN graphs of a few sizes, Gaussian affinities of a few widths)
this records, per task, the accuracy / ARI of the labeling it gives and the label-free
scores a rule could select by: the eigengap of the normalised affinity, the normalised cut
of the labeling on its own graph, and the MSP of the labeling. The rules are then compared.

    python bench/bench_spectral_affinity.py [--tasks ...] [--out /tmp/spectral.json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
from sklearn.cluster import KMeans
from sklearn.datasets import make_circles, make_moons
from sklearn.metrics import adjusted_rand_score
from sklearn.preprocessing import StandardScaler

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import datasets
from clustering.metrics import clustering_accuracy, msp_score
from clustering.spectral import (
    SpectralBaseline,
    normalized_affinity,
    top_eigenvectors,
)

KNN = (10, 20, 40)
WIDTHS = (0.25, 0.5, 1.0)  # multiples of the median distance


def _tasks(names):
    for name in names:
        if name.startswith(("moons", "circles")):
            shape, seed = name.split("-")
            if shape == "moons":
                X, y = make_moons(n_samples=500, noise=0.05, random_state=int(seed))
            else:
                X, y = make_circles(n_samples=500, factor=0.5, noise=0.05, random_state=int(seed))
            yield name, StandardScaler().fit_transform(X), y
        else:
            ds = datasets.load(name)
            yield name, ds.X, ds.y


def _ncut(A, labels):
    deg = np.asarray(A.sum(axis=1)).ravel()
    total = 0.0
    for c in np.unique(labels):
        m = labels == c
        vol = deg[m].sum()
        within = A[m][:, m].sum()
        total += (vol - within) / max(vol, 1e-300)
    return float(total)


def run(name, X, y):
    """Every k-NN and Gaussian affinity on one task: one row per candidate with its accuracy,
    the MSP of its labels and its time."""
    rows = []
    cands = [("knn", k) for k in KNN] + [("gaussian", w) for w in WIDTHS]
    from clustering.spectral import median_distance

    med = median_distance(X, np.random.RandomState(0))
    for kind, p in cands:
        rs = np.random.RandomState(0)
        t0 = time.process_time()
        if kind == "knn":
            est = SpectralBaseline(affinity="knn", n_neighbors=p, random_state=0)
        else:
            est = SpectralBaseline(affinity="gaussian", sigma=p * med, random_state=0)
        if kind == "knn":
            A, k_used, _ = est._knn_affinity(X)
        else:
            A, k_used = est._gaussian_affinity(X, rs)[0], None
        vals, U = top_eigenvectors(normalized_affinity(A), 3, rs)
        U = U[:, :2] / np.maximum(np.linalg.norm(U[:, :2], axis=1, keepdims=True), 1e-300)
        km = KMeans(2, n_init=10, random_state=0).fit(U)
        labels = km.labels_
        cpu = time.process_time() - t0
        try:
            msp = msp_score(X, labels, lam=0.1)
        except Exception:
            msp = float("nan")
        rows.append(
            {
                "task": name,
                "kind": kind,
                "param": p,
                "k_used": k_used,
                "acc": clustering_accuracy(y, labels),
                "ari": adjusted_rand_score(y, labels),
                "l2": float(vals[1]),
                "l3": float(vals[2]),
                "ncut": _ncut(A, labels),
                "distortion": float(km.inertia_ / len(labels)),
                "msp": msp,
                "min_frac": float(np.bincount(labels, minlength=2).min() / len(labels)),
                "cpu": cpu,
            }
        )
        print(json.dumps(rows[-1]), flush=True)
    return rows


def main():
    """Run every affinity on the tasks and print which the label-free rule picks against the
    most accurate."""
    ap = argparse.ArgumentParser()
    default = (
        datasets.list_datasets("tasks")
        + list(datasets.MMC_DIGITS_PAIRS)
        + ["wine:1v2"]
        + [f"{s}-{i}" for s in ("moons", "circles") for i in (0, 1, 2, 3, 170)]
    )
    ap.add_argument("--tasks", nargs="*", default=default)
    ap.add_argument("--out", default="/tmp/spectral_affinity.jsonl")
    args = ap.parse_args()
    with open(args.out, "a") as fh:
        for name, X, y in _tasks(args.tasks):
            for row in run(name, X, y):
                fh.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()
