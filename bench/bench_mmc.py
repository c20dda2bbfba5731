"""MMCMultivariate (multivariate-loss MMC): per-seed results on digits 3 vs 8, fit time as N and
d grow, accuracy per loss on two Gaussians, held-aside pairs, and the objective (12) at the
labelings found against the classes' best hyperplane.

Usage: ``python -m bench.bench_mmc MODE [options]`` with MODE one of

* ``seeds``: digits 3 vs 8 with defaults, NMI / accuracy / seconds / objective per
  ``random_state`` (``--raw``: pixel counts 0-16 instead of ``[-1, 1]``; ``--n-init``,
  ``--init``, ``--C``, ``--loss`` override the defaults);
* ``scaling``: seconds per fit on two Gaussians as N doubles (d = 10) and as d grows
  (N = 400), losses ``--losses``;
* ``gaussians``: accuracy and seconds per loss on two Gaussians, N = 1600, d = 10, means 3
  apart on one axis (the issue's case);
* ``pairs``: accuracy with defaults on pairs of the bundled data sets (``--pairs``);
* ``objective``: digits 3 vs 8 as pixel counts: the objective of (12) at each seed's fit,
  at the fit started from the true classes, and along the classes' linear-SVM direction
  (the best scale of it), for ``--C`` values.

Every fit runs single-threaded (BLAS limited to one thread), as the cost model measures.
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
from threadpoolctl import threadpool_limits

import datasets
from clustering import MMCMultivariate, metrics
from clustering._mmc_losses import most_violated_constraint

from ._common import machine, print_table


def _fit(X, **params):
    start = time.perf_counter()
    with threadpool_limits(1), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = MMCMultivariate(**params).fit(X)
    return model, time.perf_counter() - start


def _digits_3v8(raw: bool):
    ds = datasets.load("digits:3v8", normalize=not raw)
    return ds.X, ds.y


def _params(args) -> dict:
    params = {}
    for key in ("loss", "init", "n_init", "C"):
        value = getattr(args, key, None)
        if value is not None:
            params[key] = value
    return params


def run_seeds(args) -> None:
    """MMC on digits 3 vs 8 at seeds ``0 .. args.seeds - 1``: NMI and seconds per seed, and
    their spread."""
    X, y = _digits_3v8(args.raw)
    params = _params(args)
    form = "pixel counts 0-16" if args.raw else "[-1, 1]"
    print(f"digits 3 vs 8 ({form}), {X.shape[0]} x {X.shape[1]}; params {params or 'defaults'}")
    rows, nmis, secs = [], [], []
    for seed in range(args.seeds):
        model, seconds = _fit(X, random_state=seed, **params)
        nmi = metrics.nmi(y, model.labels_)
        nmis.append(nmi)
        secs.append(seconds)
        rows.append(
            [
                seed,
                f"{nmi:.3f}",
                f"{metrics.clustering_accuracy(y, model.labels_):.3f}",
                f"{seconds:.2f}",
                model.n_qp_,
                f"{model.objective_:.6g}",
                getattr(model, "start_", "-"),
            ]
        )
    print_table(["seed", "NMI", "accuracy", "seconds", "QPs", "objective (12)", "start"], rows)
    print(
        f"\nNMI mean {np.mean(nmis):.3f}, min {np.min(nmis):.3f}, max {np.max(nmis):.3f}; "
        f"seconds mean {np.mean(secs):.2f}, max {np.max(secs):.2f}"
    )


def two_gaussians(n: int, d: int, seed: int = 0):
    """Means 3 apart along the first axis, unit covariance, classes alternating."""
    rng = np.random.default_rng(seed)
    y = np.arange(n) % 2
    X = rng.normal(size=(n, d))
    X[:, 0] += 3.0 * y
    return X, y


def run_scaling(args) -> None:
    """MMC's fit time per loss as N grows (d = 10) and as d grows (N = 400), on two Gaussians."""
    rows = []
    for loss in args.losses:
        for n, d in [(n, 10) for n in (200, 400, 800, 1600, 3200)] + [
            (400, d) for d in (50, 200, 800)
        ]:
            X, y = two_gaussians(n, d)
            model, seconds = _fit(X, loss=loss, random_state=0)
            rows.append(
                [
                    loss,
                    n,
                    d,
                    f"{seconds:.2f}",
                    model.n_iter_,
                    model.n_qp_,
                    f"{metrics.clustering_accuracy(y, model.labels_):.3f}",
                ]
            )
            print(rows[-1], flush=True)
    print()
    print_table(["loss", "N", "d", "seconds", "planes", "QPs", "accuracy"], rows)


def run_gaussians(args) -> None:
    """Accuracy, NMI and seconds of each loss on two Gaussians (N = 1600, d = 10)."""
    X, y = two_gaussians(1600, 10)
    rows = []
    for loss in ("nmi", "rand", "f", "error"):
        model, seconds = _fit(X, loss=loss, random_state=0)
        rows.append(
            [
                loss,
                f"{metrics.clustering_accuracy(y, model.labels_):.3f}",
                f"{seconds:.2f}",
                model.n_qp_,
            ]
        )
    print("two Gaussians, N = 1600, d = 10, means 3 apart on one axis; defaults, seed 0")
    print_table(["loss", "accuracy", "seconds", "QPs"], rows)


def run_pairs(args) -> None:
    """Accuracy and seconds of MMC on the held-aside pairs ``args.pairs``, over ``args.seeds``
    seeds."""
    rows = []
    for name in args.pairs:
        ds = datasets.load(name)
        accs, secs = [], []
        for seed in range(args.seeds):
            model, seconds = _fit(ds.X, loss=args.loss or "nmi", random_state=seed)
            accs.append(metrics.clustering_accuracy(ds.y, model.labels_))
            secs.append(seconds)
        rows.append(
            [
                name,
                f"{ds.X.shape[0]} x {ds.X.shape[1]}",
                " ".join(f"{a:.3f}" for a in accs),
                f"{np.min(accs):.3f}",
                f"{np.max(secs):.2f}",
            ]
        )
        print(rows[-1], flush=True)
    print()
    print_table(["pair", "N x d", "accuracy per seed", "lowest", "max seconds"], rows)


def _objective_along(Xc, direction, C_paper, loss):
    """Smallest objective of (12) over hyperplanes ``t * direction`` through the mean (so
    the class balance holds), ``t > 0``, and the labels there."""
    g = Xc @ direction
    s = np.where(g >= 0, 1.0, -1.0)

    def value(t):
        slack = most_violated_constraint(t * g, s, loss).slack
        return 0.5 * t * t * direction @ direction + C_paper * max(slack, 0.0)

    ts = np.logspace(-8, 4, 121) / np.abs(g).sum()
    vals = [value(t) for t in ts]
    i = int(np.argmin(vals))
    lo, hi = ts[max(i - 1, 0)], ts[min(i + 1, len(ts) - 1)]
    for _ in range(60):  # golden section on the bracketing interval (convex in t)
        m1, m2 = lo + 0.382 * (hi - lo), lo + 0.618 * (hi - lo)
        if value(m1) < value(m2):
            hi = m2
        else:
            lo = m1
    return value(0.5 * (lo + hi)), (s > 0).astype(int)


def run_objective(args) -> None:
    """Objective (12) at the labeling MMC finds on digits 3 vs 8 against the objective along the
    classes' SVM direction."""
    from sklearn.svm import LinearSVC

    X, y = _digits_3v8(raw=True)
    Xc = X - X.mean(axis=0)
    svm = LinearSVC(C=1.0, max_iter=20000).fit(X, y)
    direction = svm.coef_[0]
    print("digits 3 vs 8 as pixel counts 0-16; objective (12) in the paper's units")
    rows = []
    for C in args.C_list:
        fits = []
        for seed in range(args.seeds):
            model, seconds = _fit(X, C=C, random_state=seed)
            fits.append((model, seconds))
            rows.append(
                [
                    C,
                    f"seed {seed}",
                    f"{model.objective_:.5g}",
                    f"{metrics.nmi(y, model.labels_):.3f}",
                    f"{seconds:.1f}",
                ]
            )
        truth, seconds = _fit(X, C=C, init=y, random_state=0)
        rows.append(
            [
                C,
                "CCCP from the true classes",
                f"{truth.objective_:.5g}",
                f"{metrics.nmi(y, truth.labels_):.3f}",
                f"{seconds:.1f}",
            ]
        )
        value, labels = _objective_along(Xc, direction, fits[0][0].C_paper_, "nmi")
        nmi = metrics.nmi(y, labels)
        rows.append([C, "classes' SVM direction, best scale", f"{value:.5g}", f"{nmi:.3f}", "-"])
        print(rows[-(args.seeds + 2) :], flush=True)
    print()
    print_table(["C", "hyperplane", "objective (12)", "NMI", "seconds"], rows)


def main(argv=None) -> None:
    """Run the chosen mode (seeds, scaling, gaussians, pairs, objective) and print its table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=["seeds", "scaling", "gaussians", "pairs", "objective"])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--raw", action="store_true")
    parser.add_argument("--loss")
    parser.add_argument("--init")
    parser.add_argument("--n-init", type=int, dest="n_init")
    parser.add_argument("--C", type=float)
    parser.add_argument("--C-list", type=float, nargs="*", dest="C_list", default=[21.06, 0.3])
    parser.add_argument("--losses", nargs="*", default=["nmi", "error"])
    parser.add_argument(
        "--pairs",
        nargs="*",
        default=["digits:1v7", "digits:4v9", "digits:5v6", "satimage:1v7", "satimage:3v4",
                 "letter:OvQ", "letter:MvN", "wine:1v2"],
    )  # fmt: skip
    args = parser.parse_args(argv)
    print(machine())
    {
        "seeds": run_seeds,
        "scaling": run_scaling,
        "gaussians": run_gaussians,
        "pairs": run_pairs,
        "objective": run_objective,
    }[args.mode](args)


if __name__ == "__main__":
    main()
