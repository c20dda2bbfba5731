"""Kernel MSPC and spectral clustering on curved clusters, over data seeds not tuned on; and
the label-free choice of spectral clustering's affinity.

Usage: ``python bench/kernel_spectral.py [--seeds 100-109] [--part kernel,affinity,choice,cost]``

``kernel``: mean ARI of ``MSPC(kernel="rbf")`` (defaults, ``random_state=0``) against
scikit-learn's ``SpectralClustering(affinity="nearest_neighbors")`` on ``make_moons`` (400
points, noise 0.05, 0.1, 0.15, 0.2) and ``make_circles`` (400 points, factor 0.3 and 0.6,
noise 0.05 and 0.1), one draw per data seed, z-scored as the lab does.

``choice``: kernel MSPC's width and rank chosen without labels. Every candidate of
:data:`clustering.mspc_multiclass.AUTO_WIDTHS` x :data:`AUTO_RANK_OFFSETS` is fitted once
(``random_state=0``, the defaults otherwise) and the rules pick among the same fits: the
largest held-out MSP (``gamma=None``, what the estimator does), the largest in-sample MSP,
the fixed rule before (``k + 1`` eigenvectors, the spanning-tree width), the best candidate
by ARI (an oracle: the most any rule over this grid can reach), against scikit-learn's
spectral clustering with a k-NN graph.

``cost``: the fit time of ``gamma=None`` against one fit at a given width.

``affinity``: ``SpectralBaseline(affinity="auto")`` (the Gaussian or the k-NN labeling, kept
by the held-out MSP in kernel MSPC's feature space) against the rule it replaced (the
in-sample MSP in the input space) and against the k-NN graph alone, on the same curved sets
plus Gaussian blobs and four bundled tasks.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sklearn.cluster import SpectralClustering
from sklearn.datasets import make_blobs, make_circles, make_moons
from sklearn.metrics import adjusted_rand_score
from sklearn.preprocessing import StandardScaler

import datasets
from clustering import MSPC
from clustering._lam import DEFAULT_LAM
from clustering.metrics import msp_score
from clustering.spectral import SpectralBaseline


def curved(seeds, only=("moons", "circles")):
    """Moons and circles of 400 points at several noise levels for each data seed, z-scored:
    ``(group, X, y)``."""
    for noise in (0.05, 0.1, 0.15, 0.2) if "moons" in only else ():
        for s in seeds:
            X, y = make_moons(400, noise=noise, random_state=s)
            yield f"moons noise {noise}", StandardScaler().fit_transform(X), y
    for factor in (0.3, 0.6) if "circles" in only else ():
        for noise in (0.05, 0.1):
            for s in seeds:
                X, y = make_circles(400, noise=noise, factor=factor, random_state=s)
                yield f"circles factor {factor} noise {noise}", StandardScaler().fit_transform(X), y


def others(seeds):
    """Blobs and four bundled tasks, where an affinity rule must not hurt: ``(name, X, y)``."""
    for s in seeds:
        X, y = make_blobs(400, centers=2, n_features=4, cluster_std=2.0, random_state=s)
        yield "blobs", X, y
    for name in ("breast", "australian", "letter", "digits:3v8"):
        ds = datasets.load(name)
        yield name, ds.X, ds.y


def _table(rows, cols):
    groups = {}
    for g, vals in rows:
        groups.setdefault(g, []).append(vals)
    print("| data (draws) | " + " | ".join(cols) + " |")
    print("|---|" + "---|" * len(cols))
    alls = []
    for g, vs in groups.items():
        v = np.array(vs)
        alls.append(v)
        print(f"| {g} ({len(vs)}) | " + " | ".join(f"{m:.3f}" for m in v.mean(axis=0)) + " |")
    v = np.vstack(alls)
    print(f"| all ({len(v)}) | " + " | ".join(f"{m:.3f}" for m in v.mean(axis=0)) + " |")


def kernel_part(seeds):
    """ARI of kernel MSPC against spectral clustering (k-NN graph) per curved group."""
    rows = []
    for group, X, y in curved(seeds):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            km = MSPC(kernel="rbf", random_state=0).fit(X)
            sc = SpectralClustering(
                2, affinity="nearest_neighbors", random_state=0, assign_labels="kmeans"
            ).fit(X)
        aris = [adjusted_rand_score(y, km.labels_), adjusted_rand_score(y, sc.labels_)]
        rows.append((group, aris))
        print(group, f"{rows[-1][1][0]:.2f} {rows[-1][1][1]:.2f}", file=sys.stderr, flush=True)
    print("\nMean ARI, kernel MSPC (defaults) vs scikit-learn spectral clustering (k-NN graph)\n")
    _table(rows, ["kernel MSPC", "spectral, k-NN graph"])


def choice_part(seeds, only=("moons", "circles")):
    """Kernel MSPC with each candidate width and rank against the one its held-out MSP chooses,
    per curved group."""
    from types import SimpleNamespace

    from clustering import mspc_multiclass as mm
    from clustering._compat import check_random_state
    from clustering._moments import standardize

    defaults = MSPC(kernel="rbf", random_state=0).get_params()
    shipped = [(2 + o, s) for o in mm.AUTO_RANK_OFFSETS for s in mm.AUTO_WIDTHS]

    def among(c, pairs):
        return [d for d in c if (d["rank"], d["scale"]) in pairs]

    rules = {
        "held-out MSP (gamma=None)": lambda c: max(
            among(c, shipped), key=lambda d: (d["large"], d["msp_heldout"])
        ),
        "in-sample MSP": lambda c: max(among(c, shipped), key=lambda d: (d["large"], d["msp"])),
        "fixed k + 1, tree width (before)": lambda c: among(c, [(3, 1.0)])[0],
        "oracle (best candidate)": lambda c: max(among(c, shipped), key=lambda d: d["ari"]),
    }
    rows = []
    for group, X, y in curved(seeds, only):
        gamma0 = mm.spanning_tree_gamma(standardize(X).Z, check_random_state(0))
        cands = []
        for rank, scale in [*shipped, (3, 1.0)]:
            params = SimpleNamespace(**{**defaults, "gamma": gamma0 / scale**2})
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                fit = mm._fit_one(params, X, params.gamma, rank)
            cands.append(
                {
                    "rank": rank,
                    "scale": scale,
                    "ari": adjusted_rand_score(y, fit.labels),
                    "msp": fit.msp,
                    "msp_heldout": fit.msp_heldout,
                    "large": np.bincount(fit.labels, minlength=2).min() >= len(X) / 8,
                }
            )
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            sc = SpectralClustering(
                2, affinity="nearest_neighbors", random_state=0, assign_labels="kmeans"
            ).fit(X)
        rows.append(
            (
                group,
                [r(cands)["ari"] for r in rules.values()] + [adjusted_rand_score(y, sc.labels_)],
            )
        )
        print(group, " ".join(f"{v:.2f}" for v in rows[-1][1]), file=sys.stderr, flush=True)
    print("\nMean ARI of kernel MSPC by the rule choosing its width and rank\n")
    _table(rows, [*rules, "spectral, k-NN graph"])


def cost_part():
    """Fit time of ``gamma=None`` (one fit per candidate width) against one fit at a given
    width, both with the lab's thread limit (``small_data_threads``: one BLAS thread on
    these sizes), beside ``gamma=None`` with the libraries' own threads and the cost model's
    prediction (``clustering._cost.predict_cost``); interleaved, medians of three."""
    import time

    from clustering._compat import check_random_state
    from clustering._cost import predict_cost
    from clustering._moments import standardize
    from clustering._threads import small_data_threads
    from clustering.mspc_multiclass import spanning_tree_gamma

    def timed(fit, X, limit=True):
        t = time.perf_counter()
        with small_data_threads(X) if limit else contextlib.nullcontext():
            fit(X)
        return time.perf_counter() - t

    print(
        "\n| N x d | gamma given s | gamma=None s | ratio | gamma=None, library threads s"
        " | predicted for gamma=None s |\n|---|---|---|---|---|---|"
    )
    for n, d in ((400, 2), (2000, 2), (2000, 20)):
        X, _ = make_moons(n, noise=0.1, random_state=0)
        if d > 2:
            X = np.hstack([X, np.random.default_rng(0).normal(size=(n, d - 2))])
        g = spanning_tree_gamma(standardize(X).Z, check_random_state(0))
        fixed, auto, free = [], [], []
        for _ in range(3):
            fixed.append(timed(MSPC(kernel="rbf", gamma=g, random_state=0).fit, X))
            auto.append(timed(MSPC(kernel="rbf", random_state=0).fit, X))
            free.append(timed(MSPC(kernel="rbf", random_state=0).fit, X, limit=False))
        f, a, u = np.median(fixed), np.median(auto), np.median(free)
        p = predict_cost("mspc-rbf", n, d, {}).seconds
        print(f"| {n} x {d} | {f:.2f} | {a:.2f} | {a / f:.1f} | {u:.2f} | {p:.2f} |", flush=True)


def affinity_part(seeds):
    """Spectral clustering's ``affinity='auto'`` against the k-NN graph and the Gaussian alone,
    on curved and other data."""
    rows = []
    for group, X, y in list(curved(seeds)) + list(others(seeds)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            auto = SpectralBaseline(affinity="auto", random_state=0).fit(X)
            knn = SpectralBaseline(affinity="knn", random_state=0).fit(X)
            gauss = SpectralBaseline(affinity="gaussian", random_state=0).fit(X)

        # The rule before: the larger in-sample MSP in the input space (small clusters last).
        def old_key(labels, X=X):
            counts = np.bincount(labels, minlength=2)
            large = counts.min() >= len(labels) / 8
            return (large, msp_score(X, labels, lam=DEFAULT_LAM) if counts.min() > 0 else -1)

        _, _, split = knn._knn_affinity(np.asarray(X, dtype=float))
        if split or len(X) > 5000:
            old = knn.labels_  # the graph splits into the clusters: both rules keep it
        else:
            old = gauss.labels_ if old_key(gauss.labels_) > old_key(knn.labels_) else knn.labels_
        rows.append(
            (
                group,
                [
                    adjusted_rand_score(y, auto.labels_),
                    adjusted_rand_score(y, old),
                    adjusted_rand_score(y, knn.labels_),
                ],
            )
        )
    print("\nMean ARI of spectral clustering's affinity='auto' by each rule\n")
    _table(rows, ["held-out MSP (shipped)", "in-sample MSP (before)", "k-NN graph alone"])


def main() -> None:
    """Run the chosen parts over ``--seeds`` and print their tables."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", default="100-109")
    ap.add_argument("--part", default="kernel,affinity")
    ap.add_argument("--only", default="moons,circles", help="choice: which generators")
    args = ap.parse_args()
    lo, hi = (int(v) for v in args.seeds.split("-"))
    seeds = range(lo, hi + 1)
    if "kernel" in args.part:
        kernel_part(seeds)
    if "affinity" in args.part:
        affinity_part(seeds)
    if "cost" in args.part:
        cost_part()
    if "choice" in args.part:
        choice_part(seeds, tuple(args.only.split(",")))


if __name__ == "__main__":
    main()
