"""Measure every registered method's fit time and peak memory on a grid of (N, d), fit the
cost model of :mod:`clustering._cost` to them, and compare its predictions with the measured
values.

Run: ``python -m bench.bench_cost_model`` (about 10 minutes on 2 cores). It prints

1. the table measured vs predicted (time in s, traced peak memory in MiB, ratio), with the
   model currently in ``clustering/_cost.py``;
2. the coefficients fitted to this run, in the form of ``_cost._MODELS``, to paste there when
   the machine or a method changes.

The time model of a method is ``seconds = t0 + c * N**a * d**b``: ``t0`` (the fixed
overhead) is 0.8 times the fastest measured fit, the rest is least squares on the logarithms of
``seconds - t0``, with ``a`` held at least at 3 for the SDPs (:data:`MIN_EXPONENT`) and ``b`` at
least at 0. Fitted on N <= 400, the power law may under-predict methods whose O(N**3) part
(a dense eigendecomposition) only dominates at N in the thousands; the memory model is
``bytes = m0 + m1 * N * d + m2 * N**2 (+ m3 * N**3 for an SDP)`` (non-negative least squares).
``--from-log FILE`` refits from the table printed by an earlier run.
Fits are timed under ``tracemalloc`` so one fit gives both numbers (the tracing overhead makes
the model slightly pessimistic, the safe side for a guard; the methods in
:data:`UNTRACED_TIME` are timed untraced and traced in a second fit), and with BLAS/OpenMP
limited to one thread: on a 2-core machine shared with other jobs, multi-threaded BLAS and
OpenMP spin while waiting for a core and made small fits 10 to 25 times slower than
single-threaded ones.
"""

from __future__ import annotations

import argparse
import time
import tracemalloc
import warnings

import numpy as np
from scipy.optimize import nnls
from threadpoolctl import threadpool_limits

from clustering import ALGORITHMS, _cost, make_estimator

from ._common import machine

#: (model name, registry key, fixed params, N grid, d grid).
GRID = [
    *(
        (key, key, {}, (100, 200, 400), (5, 40))
        for key in ALGORITHMS
        if key not in ("mvc-hard", "diffrac") and not key.startswith("mmc-")
    ),
    # MMC's O(N^2) contingency scan only dominates from N ~ 2000: measured up to N = 3200.
    *(
        (key, key, {}, (100, 200, 400, 800, 1600, 3200), (5, 40))
        for key in ALGORITHMS
        if key.startswith("mmc-")
    ),
    # DIFFRAC's eigen relaxation takes milliseconds up to N = 400: measured up to 3200.
    ("diffrac", "diffrac", {}, (100, 200, 400, 800, 1600, 3200), (5, 40)),
    ("diffrac:convex", "diffrac", {"relaxation": "convex"}, (30, 60, 90), (5, 40)),
    ("mvc-hard", "mvc-hard", {}, (50, 100, 150), (5, 40)),
]

#: The growth in N an SDP has at least (a fitted exponent below it is raised to it): on the
#: small N measured, solver set-up hides it.
MIN_EXPONENT = {"mvc-hard": 3.0, "diffrac:convex": 3.0}

#: Methods whose memory may grow like N**3 (an SDP's constraint data); the others fit
#: without that term, which small-N noise would otherwise inflate when extrapolated.
CUBIC_MEMORY = {"diffrac:convex", "mvc-hard"}

#: Methods timed without tracemalloc (memory from a second, traced fit): MMC's dual QP makes
#: many small numpy calls, and tracing made its fits 5-8 times slower (N = 100-400);
#: DIFFRAC's (eigen) fits of 2-9 ms took 17-60 ms traced.
UNTRACED_TIME = {"mmc-nmi", "mmc-rand", "mmc-f", "mmc-error", "diffrac"}

#: Stop growing N for a method once one fit takes longer than this (seconds).
BUDGET = 8.0


def data(n: int, d: int, seed: int = 0) -> np.ndarray:
    """An ``n`` x ``d`` data set of two Gaussian clusters (the cost grid's input)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    X[: n // 2] += 4.0 / np.sqrt(d)
    return X


def measure(key: str, params: dict, n: int, d: int) -> tuple[float, int]:
    """Seconds of one fit, and the traced peak memory of a second one (``UNTRACED_TIME``
    models) or of the same fit (the others)."""
    X = data(n, d)

    def fit(traced: bool) -> tuple[float, int]:
        est = make_estimator(key, **params)
        if "random_state" in est.get_params():
            est.set_params(random_state=0)
        if traced:
            tracemalloc.start()
        start = time.perf_counter()
        with threadpool_limits(1), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                est.fit(X)
            except Exception as exc:
                print(f"  ({key} N={n} d={d}: {type(exc).__name__})")
        seconds = time.perf_counter() - start
        peak = 0
        if traced:
            _, peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()
        return seconds, peak

    if key in UNTRACED_TIME:
        seconds, _ = fit(traced=False)
        _, peak = fit(traced=True)
        return seconds, peak
    return fit(traced=True)


def fit_model(name, points):
    """``(c, a, b, m0, m1, m2, m3, t0)`` from ``[(n, d, seconds, bytes)]``."""
    n, d, t, m = (np.array(v, dtype=float) for v in zip(*points, strict=True))
    t0 = 0.8 * float(t.min()) if name not in MIN_EXPONENT else 0.0
    logt = np.log(np.maximum(t - t0, 1e-4))
    A = np.column_stack([np.ones_like(n), np.log(n), np.log(d)])
    coef, *_ = np.linalg.lstsq(A, logt, rcond=None)
    a_min = MIN_EXPONENT.get(name, 1.0)
    if coef[1] < a_min:  # hold a at its minimum, refit c and b
        B = A[:, [0, 2]]
        cb, *_ = np.linalg.lstsq(B, logt - a_min * np.log(n), rcond=None)
        coef = np.array([cb[0], a_min, cb[1]])
    if coef[2] < 0 or np.unique(d).size < 2:  # b unknown or < 0: hold it at 0, refit c
        a = coef[1]
        coef = np.array([np.mean(logt - a * np.log(n)), a, 0.0])
    columns = [np.ones_like(n), n * d, n * n] + ([n**3] if name in CUBIC_MEMORY else [])
    mem, _ = nnls(np.column_stack(columns), m)
    mem = np.concatenate([mem, np.zeros(4 - mem.size)])
    mem[1] = max(mem[1], 24.0)  # at least the data, its validated copy and one working copy
    return (float(np.exp(coef[0])), float(coef[1]), float(coef[2]), *map(float, mem), t0)


def _from_log(path):
    """``{model: [(n, d, seconds, bytes)]}`` from the table an earlier run printed."""
    points: dict[str, list] = {}
    for line in open(path):
        parts = line.split()
        if len(parts) == 8 and parts[1].isdigit():
            name, n, d, t, _, _, peak, _ = parts
            points.setdefault(name, []).append((int(n), int(d), float(t), float(peak) * 2**20))
    return points


def _print_fitted(fitted):
    print("\nFitted coefficients (c, a, b, m0, m1, m2, m3, t0):")
    for name, coef in fitted.items():
        print(f"    {name!r}: ({', '.join(f'{v:.4g}' for v in coef)}),")


def main(argv=None):
    """Measure every method (``--only``) on the N x d grid, fit the cost model and print
    measured against predicted; ``--from-log`` refits from an earlier run's table."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", help="comma-separated model names")
    parser.add_argument("--from-log", help="refit from the table of an earlier run")
    args = parser.parse_args(argv)
    if args.from_log:
        _print_fitted({k: fit_model(k, v) for k, v in _from_log(args.from_log).items()})
        return
    only = set(args.only.split(",")) if args.only else None
    print(machine())
    print(
        f"{'model':<16} {'N':>5} {'d':>4} {'time s':>8} {'pred s':>8} {'ratio':>6} "
        f"{'peak MiB':>9} {'pred MiB':>9}"
    )
    fitted = {}
    ratios = []
    for name, key, params, ns, ds in GRID:
        if only and name not in only:
            continue
        points = []
        for d in ds:
            for n in ns:
                seconds, peak = measure(key, params, n, d)
                points.append((n, d, seconds, peak))
                pred = _cost.predict_cost(key, n, d, params)
                ratio = pred.seconds / seconds
                ratios.append((name, n, d, ratio))
                print(
                    f"{name:<16} {n:>5} {d:>4} {seconds:>8.3f} {pred.seconds:>8.3f} "
                    f"{ratio:>6.2f} {peak / 2**20:>9.1f} {pred.peak_bytes / 2**20:>9.1f}",
                    flush=True,
                )
                if seconds > BUDGET:
                    break
        fitted[name] = fit_model(name, points)
    r = np.array([x[3] for x in ratios])
    off = np.abs(np.log(r))
    print(
        f"\npredicted/measured time over {r.size} fits: median {np.median(r):.2f}, "
        f"min {r.min():.2f}, max {r.max():.2f}; within a factor 3: {(off <= np.log(3)).sum()}"
        f", within a factor 10: {(off <= np.log(10)).sum()}"
    )
    _print_fitted(fitted)


if __name__ == "__main__":
    main()
