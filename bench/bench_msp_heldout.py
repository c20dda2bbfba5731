"""Cost of the held-out MSP against one in-sample MSP and against a whole MSPC fit.

Usage: ``python bench/bench_msp_heldout.py [--quick] [--repeats R] [--budget [--no-before]]``
(with ``--budget``, ``--repeats R`` is the number of alternating rounds)

``--budget``: on 14000x784, the default ``MSPC()`` fit against one 10-restart k-means and
against the paper's pipeline (that k-means plus one MPM search), the default with its
k-means restarts shared among its starts (``n_init=3``: 3 each, as before every k-means
start had all 10) and the default choosing its start on every sample instead of a
subsample (as before it did), in one run.

Data: two Gaussian clusters of the shapes of the MSPC paper's tasks (``make_data`` of
``bench/bench_mspc.py``: letter 1555x16, spam 4601x57, MNIST pairs 14000x784), labelled by
the true split. Columns: the in-sample MSP of that labeling (``msp_score``), its held-out MSP
with the defaults (``msp_heldout_score``, 2 parts, 3 repeats) and with one repeat, and a
whole default ``MSPC().fit`` (which computes ``msp_heldout_`` of its result and, with the
default ``init="heldout"``, of every start's labeling); ratios to the in-sample MSP and to
the fit, measured in the same run. Medians of ``--repeats`` runs (1 for 14000x784).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._common import machine, measure, print_table
from bench.bench_mspc import make_data
from clustering import MSPC
from clustering.metrics import msp_heldout_score, msp_score

SHAPES = [(1555, 16), (4601, 57), (14000, 784)]
LAM = 0.2


def main() -> None:
    """Print the held-out MSP's cost against the in-sample MSP and a whole fit (``--budget``:
    the default fit against its budget on 14000 x 784)."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="only the two small shapes")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--budget", action="store_true", help="only the 14000x784 budget table")
    ap.add_argument("--no-before", action="store_true", help="--budget without the old path")
    args = ap.parse_args()
    if args.budget:
        budget(rounds=args.repeats if args.repeats != 5 else 1, before=not args.no_before)
        return
    print(machine())
    shapes = SHAPES[:2] if args.quick else SHAPES
    rows = []
    for n, d in shapes:
        X = make_data(n, d)
        labels = (np.arange(n) < n // 2).astype(int)
        reps = args.repeats if n * d < 1_000_000 else 1
        t_in, m_in, _ = measure(lambda X=X, labels=labels: msp_score(X, labels, lam=LAM), reps)
        t_ho, m_ho, _ = measure(
            lambda X=X, labels=labels: msp_heldout_score(X, labels, lam=LAM, random_state=0), reps
        )
        t_ho1, _, _ = measure(
            lambda X=X, labels=labels: msp_heldout_score(
                X, labels, lam=LAM, n_repeats=1, random_state=0
            ),
            reps,
        )
        t_fit, m_fit, _ = measure(lambda X=X: MSPC(lam=LAM, random_state=0).fit(X), reps)
        rows.append(
            [
                f"{n}x{d}",
                f"{t_in:.4f}",
                f"{t_ho:.4f}",
                f"{t_ho1:.4f}",
                f"{t_fit:.3f}",
                f"{t_ho / t_in:.1f}",
                f"{t_ho / t_fit:.2f}",
                f"{m_in:.1f} / {m_ho:.1f} / {m_fit:.1f}",
            ]
        )
        print(f"{n}x{d} done", flush=True)
    print()
    print_table(
        [
            "N x d",
            "in-sample MSP (s)",
            "held-out MSP (s)",
            "held-out, 1 repeat (s)",
            "MSPC().fit (s)",
            "held-out / in-sample",
            "held-out / fit",
            "peak MiB (in / held-out / fit)",
        ],
        rows,
    )


def _without_subsample(X):
    """The default as it was before it chose its start on a subsample: every start climbed
    and scored on all of ``X``."""
    import clustering.mspc as mspc

    keep = mspc.HELDOUT_SUBSAMPLE
    mspc.HELDOUT_SUBSAMPLE = X.shape[0]
    try:
        return MSPC(lam=LAM, random_state=0).fit(X)
    finally:
        mspc.HELDOUT_SUBSAMPLE = keep


def budget(n: int = 14000, d: int = 784, rounds: int = 1, before: bool = True) -> None:
    """The default fit against its budget, measured in one run: one 10-restart k-means plus
    one MPM search (the paper's pipeline: ``init="kmeans"``, ``search="paper"``). With
    ``rounds > 1`` the fits alternate round by round (the load of a shared machine changes
    over minutes) and each round's ratio of the default to the budget is printed; the table
    gives medians. ``before``: also the default choosing its start on every sample (first
    round only)."""
    from sklearn.cluster import KMeans

    X = make_data(n, d)
    fits = [
        ("k-means, 10 restarts", lambda: KMeans(2, n_init=10, random_state=0).fit(X)),
        (
            "k-means (10 restarts) + one MPM search",
            lambda: MSPC(init="kmeans", search="paper", lam=LAM, random_state=0).fit(X),
        ),
        ("MSPC() default", lambda: MSPC(lam=LAM, random_state=0).fit(X)),
        # The default before each k-means start had all n_init restarts (3 each of the 10).
        ("MSPC(n_init=3): restarts shared", lambda: MSPC(lam=LAM, n_init=3, random_state=0).fit(X)),
    ]
    times = {label: [] for label, _ in fits}
    mems = {}
    for r in range(rounds):
        for label, fn in fits:
            t, mem, _ = measure(fn, 1)
            times[label].append(t)
            mems[label] = mem
            print(f"round {r + 1}: {label}: {t:.2f} s", flush=True)
        ratio = times["MSPC() default"][-1] / times["k-means (10 restarts) + one MPM search"][-1]
        print(f"round {r + 1}: default / budget = {ratio:.2f}", flush=True)
    if before:
        label = "MSPC() choosing on every sample"
        t, mem, _ = measure(lambda: _without_subsample(X), 1)
        times[label], mems[label] = [t], mem
        print(f"{label}: {t:.2f} s", flush=True)
    print()
    rows = [
        [f"{n}x{d}", label, f"{np.median(ts):.2f}", f"{mems[label]:.0f}"]
        for label, ts in times.items()
    ]
    print_table(["N x d", "fit", "time (s, median)", "peak MiB"], rows)


if __name__ == "__main__":
    main()
