"""Choosing the number of clusters without labels: the held-out MSP against the in-sample MSP
and the silhouette of standardised k-means.

Usage: ``python bench/choose_k.py [--sets N] [--aside]``

Data: 25 Gaussian blob sets (``make_blobs``; k = 2..6, five seeds each; 3 to 8 features;
cluster spread 1.0 to 2.0 around centres drawn in a box of half-width 10), each feature then
multiplied by ``10^U(0, 2)`` (units that differ by up to 100x). ``--aside``: 25 other sets
(seeds not used while choosing the rule). For each set and each candidate ``k`` in 2..8 it
fits ``MSPC(n_clusters=k)`` once (cached in ``bench/.cache/choose_k``) and prints how often
each rule returns the true ``k``:

- ``msp_curve`` (held-out): :func:`lab.model_selection.msp_curve` as shipped;
- gap of the in-sample MSP (the rule ``msp_curve`` used before the held-out MSP);
- largest in-sample MSP;
- silhouette of k-means on z-scored features (the standard label-free rule).
"""

from __future__ import annotations

import argparse
import pickle
import sys
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sklearn.cluster import KMeans
from sklearn.datasets import make_blobs
from sklearn.metrics import silhouette_score
from sklearn.preprocessing import StandardScaler

from clustering import MSPC
from lab.model_selection import msp_curve

CACHE = Path(__file__).resolve().parent / ".cache" / "choose_k"
KS = list(range(2, 9))


def blob_sets(aside: bool):
    """25 Gaussian blob sets with 2 to 6 clusters (other seeds with ``aside``): ``(name, X, true
    k)``."""
    base = 1000 if aside else 0
    for i in range(25):
        k = 2 + i % 5
        seed = base + i
        rng = np.random.default_rng(seed)
        d = int(rng.integers(3, 9))
        std = float(rng.uniform(1.0, 2.0))
        X, _ = make_blobs(
            n_samples=80 * k, centers=k, n_features=d, cluster_std=std, random_state=seed
        )
        X = X * 10.0 ** rng.uniform(0, 2, size=d)
        yield f"blobs{seed}-k{k}", X, k


def scores(name, X, fresh=False):
    """The in-sample MSP and the silhouette of each candidate k on ``X`` (cached on disk unless
    ``fresh``)."""
    path = CACHE / f"{name}.pkl"
    if path.exists() and not fresh:
        return pickle.loads(path.read_bytes())
    out = {"in": [], "silhouette": []}
    Z = StandardScaler().fit_transform(X)
    for k in KS:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            m = MSPC(n_clusters=k, lam=0.1, init="kmeans-standardized", random_state=0).fit(X)
        out["in"].append(m.msp_)
        labels = KMeans(k, n_init=10, random_state=0).fit_predict(Z)
        out["silhouette"].append(silhouette_score(Z, labels))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out["curve"] = msp_curve(X, ks=KS, random_state=0)
    CACHE.mkdir(parents=True, exist_ok=True)
    path.write_bytes(pickle.dumps(out))
    return out


def main() -> None:
    """Score every candidate k on the blob sets and the bundled tasks; print how often each rule
    finds the true k."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--aside", action="store_true")
    ap.add_argument("--fresh", action="store_true")
    args = ap.parse_args()
    hits = {"msp_curve (held-out, shipped)": 0, "gap of in-sample MSP": 0}
    hits.update({"largest in-sample MSP": 0, "silhouette, standardised k-means": 0})
    rows = []
    for name, X, k in blob_sets(args.aside):
        s = scores(name, X, args.fresh)
        ins = np.array(s["in"])
        gap_in = KS[int(np.argmax(ins[:-1] - ins[1:]))]
        picks = {
            "msp_curve (held-out, shipped)": s["curve"]["suggested_k"],
            "gap of in-sample MSP": gap_in,
            "largest in-sample MSP": KS[int(np.argmax(ins))],
            "silhouette, standardised k-means": KS[int(np.argmax(s["silhouette"]))],
        }
        for rule, kk in picks.items():
            hits[rule] += int(kk == k)
        rows.append((name, k, picks))
        print(name, k, {r[:12]: v for r, v in picks.items()}, flush=True)
    print("\n| rule | true k found (of 25) |\n|---|---|")
    for rule, h in hits.items():
        print(f"| {rule} | {h} |")


if __name__ == "__main__":
    main()
