"""Time and peak memory of MSPC's three solvers against k-means, measured in the same run.

Usage: ``python bench/bench_mspc.py [--quick] [--shapes NxD,...] [--repeats R] [--solvers]
[--search] [--decompose]``

``--solvers``: each solver against a plain numpy implementation of the same algorithm written
below, from the same k-means start: ``ratio`` = MSPC's wall time / numpy's, ``CPU ratio`` the
same for CPU time (steadier on a loaded machine, see ``interleaved``). The comparison is
algorithm for algorithm: the paper's alternations (``search="paper"``) against
``numpy_mpm`` / ``numpy_gep``; the monotone searches (``search="monotone"``, a step accepted
only where the MSP rises) against ``numpy_climb_mpm`` / ``numpy_climb_gep``, which accept
and reject the same steps (the column ``same labels %`` checks that both end at the same
labeling); MSPC-EIG against ``numpy_eig`` with the same (invariant) prediction.
``ratio to numpy + MSP``: the same against the reference followed by the MSP of its labeling
in plain numpy (``with_msp``), for the two references that do not compute it on the way
(GEP with ``search="paper"``, EIG); ``MSPC.fit`` always returns ``msp_``. The numpy
versions are what one writes in a few lines: moments recomputed from the rows of each
labeling, the MPM by the plain fixed point in ``t``, no input validation, no MSP of the
result. MSPC's time is its whole ``fit`` (scikit-learn's parameter and data validation,
z-scoring, the MSP of the result). Each cell is the median of ``--repeats`` rounds (5x as
many for shapes below 100,000 entries) in which the two run in turn, so a change of the
machine's load hits both. Also the cheap starts (``n_init=1``: k-means++ once;
``init="eig"``) and the default multi-start end to end against the 10-restart k-means start.

``--decompose``: where one MSPC-EIG fit on 1555x16 spends its time (validation, z-scoring,
the labels, the MSP of the labels) against the labels-only reference.

``--search``: ARI of each start and of the default search on scikit-learn's toy sets, and
accuracy on the seven UCI tasks of today's pipeline (k-means start, the paper's alternation)
against the default search and the cheap starts.

Data: two Gaussian clusters of the shapes of the MSPC paper's tasks (letter 1555x16, spam
4601x57, MNIST pairs ~14000x784) and a large 1,000,000x20 set. Every MSPC method starts
from k-means (the paper's protocol, ``n_init=10``), so "MSPC time" includes k-means.

Cost as N and d grow (memory beyond the data itself: O(N d + d^2) for every solver, no N x N
matrix unless d >= N for EIG). ``n_sw``: points that switch cluster in an iteration; ``|C|``:
points on the wrong side of the MPM hyperplane; one MPM solve is one to three Cholesky
factorisations of d x d (warm start), O(d^3).
- k-means: O(N d k) per Lloyd iteration, memory O(N k).
- every MSPC fit: validation and z-scoring, O(N d) (six passes over X: the columns' minima
  and maxima, which also show a NaN or infinity, then the mean, centring, variance, scaling).
- MSPC-MPM, paper: O(N d^2) once (the two clusters' scatters), then per iteration
  O(N d + n_sw d^2 + d^3) (rank-one updates of the moments, one MPM solve).
- MSPC-MPM, monotone: the same start, then per iteration O(N d + |C| d^2 + d^3 log |C|)
  (the halvings try at most log2 |C| + 1 moves, one MPM solve each).
- MSPC-GEP, paper: O(N d^2 + d^3) once (scatters, one Cholesky of the total covariance),
  then O(N d + N log N + n_sw d^2) per iteration; one MPM solve for ``msp_`` at the end.
- MSPC-GEP, monotone: O(N d + N log N + n_sw d^2 + d^3) per iteration (the MSP of each
  proposal is one MPM solve).
- MSPC-EIG: O(N d^2 + d^3) when N > d (Z'Z, the leading eigenvector of a d x d problem),
  O(N^2 d + N^3) when d >= N; the MSP of its labels O(min(N1, N0) d^2 + d^3) (Z'Z reused).
- The plain-numpy references recompute the moments of every labeling they score: O(N d^2)
  per iteration (paper MPM), per trial move (monotone MPM) or per proposal (monotone GEP).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np
from sklearn.cluster import KMeans

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._common import machine, measure, print_table
from clustering import MSPC

SHAPES = [(1555, 16), (4601, 57), (14000, 784), (1_000_000, 20)]
QUICK_SHAPES = [(1555, 16), (4601, 57)]
#: ``lam`` of the solver comparison (the bench's data are two well separated clusters).
LAM = 1.0


def make_data(n: int, d: int, seed: int = 0) -> np.ndarray:
    """Two Gaussian clusters of ``n`` points in ``d`` features, each feature in its own unit
    (factors 1e-2 to 1e2)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    X[: n // 2] += 2.0 / np.sqrt(d) * 3
    # Anisotropic units, as in real data.
    X *= 10.0 ** rng.uniform(-2, 2, d)
    return X


# ---- plain numpy implementations of the same solvers (the ratio's baseline) ---------------


def _numpy_mpm_fit(X, y, lam, Lam, t=1.0):
    """Plain-numpy MPM of the labeling ``y`` (moments recomputed): ``w, b, alpha, t``."""
    X1, X0 = X[y], X[~y]
    mu1, mu0 = X1.mean(axis=0), X0.mean(axis=0)
    S1 = np.cov(X1.T, bias=True) + lam * Lam
    S0 = np.cov(X0.T, bias=True) + lam * Lam
    a = mu1 - mu0
    for _ in range(100):
        w = np.linalg.solve(S1 + t * S0, a)
        b1, b0 = np.sqrt(w @ S1 @ w), np.sqrt(w @ S0 @ w)
        t_new = b1 / b0
        if abs(np.log(t_new / t)) < 1e-7:
            break
        t = t_new
    kappa = (a @ w) / (b1 + b0)
    return w, w @ mu1 - kappa * b1, kappa**2 / (1 + kappa**2), t


def numpy_mpm(X, lam, labels0, max_iter=50):
    """The paper's MSPC-MPM in plain numpy: moments recomputed, MPM by the fixed point in t."""
    Lam = np.diag(X.var(axis=0))
    y = labels0.astype(bool)
    t = 1.0
    for _ in range(max_iter):
        w, b, _, t = _numpy_mpm_fit(X, y, lam, Lam, t)
        new = X @ w - b >= 0
        if np.array_equal(new, y):
            break
        y = new
    return y.astype(int)


def numpy_climb_mpm(X, lam, labels0, max_iter=50):
    """The monotone MPM search in plain numpy: the same algorithm as
    ``clustering.solvers.monotone.climb_mpm`` (move the wrong-side points in order of
    margin, halve the move until the MSP rises, stop when no move raises it), with the
    moments of every trial recomputed from scratch."""
    Lam = np.diag(X.var(axis=0))
    n = X.shape[0]
    y = labels0.astype(bool)
    w, b, alpha, t = _numpy_mpm_fit(X, y, lam, Lam)
    for _ in range(max_iter):
        margin = X @ w - b
        wrong = np.flatnonzero((margin >= 0) != y)
        if wrong.size == 0:
            break
        order = wrong[np.argsort(-np.abs(margin[wrong]), kind="stable")]
        m, accepted = order.size, None
        while m >= 1:
            trial = y.copy()
            trial[order[:m]] = ~trial[order[:m]]
            if 2 <= trial.sum() <= n - 2:
                fit = _numpy_mpm_fit(X, trial, lam, Lam, t)
                if fit[2] > alpha + 1e-10 * alpha:
                    accepted = fit
                    break
            m //= 2
        if accepted is None:
            break
        y = trial
        w, b, alpha, t = accepted
    return y.astype(int)


def _numpy_gep_step(X, C, y):
    """The paper's GEP step: w = C^-1 (mu1 - mu0), then the split maximising bound (4)."""
    n = X.shape[0]
    w = np.linalg.solve(C, X[y].mean(axis=0) - X[~y].mean(axis=0))
    w /= np.linalg.norm(w)
    quad = w @ C @ w
    proj = X @ w
    order = np.argsort(proj)
    sorted_proj = proj[order]
    prefix = np.cumsum(sorted_proj)[:-1]
    k = np.arange(1, n)
    delta = (sorted_proj.sum() - prefix) / (n - k) - prefix / k
    r = (n - k) / n
    rmin, rmax = np.minimum(r, 1 - r), np.maximum(r, 1 - r)
    den = 2 * quad / rmin - 2 * rmax * delta**2
    bound = np.where(den > 0, delta**2 / np.where(den > 0, den, 1), np.inf)
    new = np.ones(n, dtype=bool)
    new[order[: int(np.argmax(bound)) + 1]] = False
    return new


def numpy_gep(X, lam, labels0, max_iter=50):
    """The paper's MSPC-GEP in plain numpy: w = (Sigma + lam Lambda)^-1 (mu1 - mu0), best split."""
    C = np.cov(X.T, bias=True) + lam * np.diag(X.var(axis=0))
    y = labels0.astype(bool)
    for _ in range(max_iter):
        new = _numpy_gep_step(X, C, y)
        if np.array_equal(new, y):
            break
        y = new
    return y.astype(int)


def numpy_climb_gep(X, lam, labels0, max_iter=50):
    """The monotone GEP search in plain numpy: the same algorithm as
    ``clustering.solvers.monotone.climb_gep`` (a GEP step is accepted only if the MSP of its
    labeling, one MPM fit, is higher than the current one)."""
    Lam = np.diag(X.var(axis=0))
    n = X.shape[0]
    C = np.cov(X.T, bias=True) + lam * Lam
    y = labels0.astype(bool)
    _, _, alpha, t = _numpy_mpm_fit(X, y, lam, Lam)
    for _ in range(max_iter):
        new = _numpy_gep_step(X, C, y)
        if np.array_equal(new, y) or not 2 <= new.sum() <= n - 2:
            break
        _, _, alpha_new, t_new = _numpy_mpm_fit(X, new, lam, Lam, t)
        if not alpha_new > alpha + 1e-10 * alpha:
            break
        y, alpha, t = new, alpha_new, t_new
    return y.astype(int)


def numpy_eig(X, LAM):
    """MSPC-EIG in plain numpy: leading eigenvector of the d x d problem on z-scored features,
    labels by the sign of Z Z'q (MSPC's default, invariant, prediction)."""
    Z = X - X.mean(axis=0)
    Z /= Z.std(axis=0)
    _evals, V = np.linalg.eigh(Z.T @ Z)
    q = Z @ V[:, -1]
    return (Z @ (Z.T @ q) >= 0).astype(int)


def with_msp(solver, X, lam):
    """``solver`` (a plain-numpy reference returning labels) followed by the MSP of its
    labeling in plain numpy (one MPM fit, moments recomputed): what ``MSPC.fit`` returns
    beside the labels (``msp_``)."""

    def run():
        labels = solver()
        _numpy_mpm_fit(X, labels.astype(bool), lam, np.diag(X.var(axis=0)))
        return labels

    return run


def interleaved(fns, repeats):
    """Median wall time and median CPU time of each of ``fns`` over ``repeats`` rounds, the
    functions run in turn within each round (so a change of the machine's load hits all of
    them), and the results of the last round. CPU time (of this process, all threads) does
    not count the time other jobs hold the cores, so on a loaded machine it is the steadier
    measure of millisecond fits."""
    wall = [[] for _ in fns]
    cpu = [[] for _ in fns]
    results = [None] * len(fns)
    for _ in range(repeats):
        for i, fn in enumerate(fns):
            start, start_cpu = time.perf_counter(), time.process_time()
            results[i] = fn()
            wall[i].append(time.perf_counter() - start)
            cpu[i].append(time.process_time() - start_cpu)
    return (
        [float(np.median(t)) for t in wall],
        [float(np.median(t)) for t in cpu],
        results,
    )


def solvers_table(shapes, repeats) -> None:
    """MSPC's solvers against numpy_* from the same start, and the cheap starts."""
    for n, d in shapes:
        X = make_data(n, d)
        # Millisecond fits on a loaded machine: more rounds for the small shapes.
        reps = repeats * 5 if n * d < 1e5 else repeats
        start_reps = 1 if n * d > 5e6 else min(repeats, 3)
        lam = LAM
        start = KMeans(2, n_init=10, random_state=0).fit_predict(X)
        rows = []
        cases = [
            ("MPM", "paper", lambda X=X, s=start: numpy_mpm(X, LAM, s)),
            ("MPM", "monotone", lambda X=X, s=start: numpy_climb_mpm(X, LAM, s)),
            ("GEP", "paper", lambda X=X, s=start: numpy_gep(X, LAM, s)),
            ("GEP", "monotone", lambda X=X, s=start: numpy_climb_gep(X, LAM, s)),
            ("EIG", "-", lambda X=X: numpy_eig(X, LAM)),
        ]
        for method, search, reference in cases:
            kwargs = {"method": method.lower(), "lam": lam}
            if method != "EIG":
                kwargs.update(init=start, search=search)
            model = MSPC(**kwargs)
            # The paper's MPM and the monotone searches compute the MSP of their labeling on
            # the way; GEP (paper) and EIG do not, so they are also timed with it.
            fns = [reference, lambda model=model, X=X: model.fit(X)]
            if (method, search) in (("GEP", "paper"), ("EIG", "-")):
                fns.append(with_msp(reference, X, LAM))
            times, cpus, outs = interleaved(fns, reps)
            t_ref, t = times[:2]
            c_ref, c = cpus[:2]
            ref_labels, fitted = outs[:2]
            t_msp = times[2] if len(times) > 2 else t_ref
            _, mem, _ = measure(lambda model=model, X=X: model.fit(X))
            same = max(np.mean(ref_labels == fitted.labels_), np.mean(ref_labels != fitted.labels_))
            rows.append(
                [
                    f"{n}x{d}",
                    f"MSPC-{method}",
                    search,
                    f"{t:.4f}",
                    f"{t_ref:.4f}",
                    f"{t / t_ref:.2f}",
                    f"{c / c_ref:.2f}",
                    f"{t / t_msp:.2f}",
                    f"{mem:.1f}",
                    fitted.n_iter_,
                    f"{fitted.msp_:.3f}",
                    f"{100 * same:.1f}",
                ]
            )
        print_table(
            [
                "N x d",
                "solver",
                "search",
                "MSPC (s)",
                "plain numpy (s)",
                "ratio",
                "CPU ratio",
                "ratio to numpy + MSP",
                "peak MiB",
                "iters",
                "MSP",
                "same labels %",
            ],
            rows,
        )
        print()
        rows = []
        for label, kwargs in [
            ("k-means, 10 restarts", {"init": "kmeans", "n_init": 10}),
            ("k-means++ once (n_init=1)", {"init": "kmeans", "n_init": 1}),
            ("EIG labels (init='eig')", {"init": "eig"}),
            ("multi-start (init='auto')", {"init": "auto"}),
        ]:
            model = MSPC(method="mpm", lam=lam, random_state=0, **kwargs)
            t, mem, fitted = measure(lambda model=model, X=X: model.fit(X), repeats=start_reps)
            rows.append([f"{n}x{d}", label, f"{t:.3f}", f"{mem:.1f}", f"{fitted.msp_:.3f}"])
        print_table(["N x d", "MSPC-MPM start", "end to end (s)", "peak MiB", "MSP"], rows)
        print(flush=True)


def _toys():
    from sklearn.datasets import make_blobs
    from sklearn.preprocessing import StandardScaler

    X, y = make_blobs(n_samples=500, centers=2, random_state=170)
    yield "blobs", StandardScaler().fit_transform(X), y
    A = np.array([[0.6, -0.6], [-0.4, 0.8]])
    yield "anisotropic", StandardScaler().fit_transform(X @ A), y
    X, y = make_blobs(n_samples=500, centers=2, cluster_std=[1.0, 2.5], random_state=170)
    yield "varied", StandardScaler().fit_transform(X), y


def search_tables(lams=(0.01, 0.1, 0.2, 1.0)) -> None:
    """ARI per start on toy sets; UCI accuracy of today's pipeline vs the default search."""
    import warnings

    from sklearn.metrics import adjusted_rand_score

    import datasets
    from clustering.metrics import clustering_accuracy

    warnings.simplefilter("ignore")
    starts = ["kmeans", "kmeans-standardized", "kmeans-whitened", "eig"]
    rows = []
    for name, X, y in _toys():
        for lam in lams:
            paper = MSPC(lam=lam, init="kmeans", search="paper", random_state=0).fit(X)
            row = [name, lam, f"{adjusted_rand_score(y, paper.labels_):.2f} ({paper.msp_:.3f})"]
            for init in [*starts, "auto"]:
                m = MSPC(lam=lam, init=init, random_state=0).fit(X)
                row.append(f"{adjusted_rand_score(y, m.labels_):.2f} ({m.msp_:.3f})")
            rows.append(row)
    print("ARI (MSP) of MSPC-MPM; 'paper': k-means start and the paper's alternation; the")
    print("other columns climb monotonically from that start; 'auto' is the default search.\n")
    print_table(["data", "lam", "paper", *starts, "auto (default)"], rows)
    print()
    rows = []
    tasks = ("ionosphere", "breast", "australian", "diabetes", "letter", "satellite", "spam")
    configs = [
        ("today: k-means, paper", {"init": "kmeans", "search": "paper"}),
        ("k-means, monotone", {"init": "kmeans"}),
        ("k-means++ once, monotone", {"init": "kmeans", "n_init": 1}),
        ("eig start, monotone", {"init": "eig"}),
        ("auto (default)", {}),
    ]
    for method in ("mpm", "gep"):
        for task in tasks:
            ds = datasets.load(task)
            for lam in lams:
                row = [f"MSPC-{method.upper()}", task, lam]
                for _, kwargs in configs:
                    model = MSPC(method=method, lam=lam, random_state=0, **kwargs)
                    t, _, m = measure(lambda model=model, X=ds.X: model.fit(X))
                    row.append(f"{100 * clustering_accuracy(ds.y, m.labels_):.2f} ({t:.2f}s)")
                rows.append(row)
    print("Accuracy (%) on the UCI tasks (features in [-1, 1]) and fit time.\n")
    print_table(["solver", "task", "lam", *[c for c, _ in configs]], rows)


def eig_decomposition(n: int = 1555, d: int = 16, calls: int = 3000) -> None:
    """Where one ``MSPC(method="eig").fit`` spends its time, against the labels-only
    reference: median of ``calls`` calls of each part, in milliseconds."""
    from clustering._moments import RunningMoments, standardize
    from clustering._validation import validated_ranges
    from clustering.mpm import solve_mpm
    from clustering.solvers.eig import solve_eig

    X = make_data(n, d)
    model = MSPC(method="eig", lam=LAM)
    _, (lo, hi) = validated_ranges(model, X, dtype=np.float64, ensure_min_samples=4)
    std = standardize(X, ptp=hi - lo)
    Z, eye = std.Z, np.eye(d)
    gram = Z.T @ Z
    labels = solve_eig(Z, eye, LAM, gram=gram, with_kappa=False).labels

    def msp_of_labels():
        m = RunningMoments(Z, labels, total_scatter=gram).moments()
        return solve_mpm(m.mu1, m.mu0, m.Sigma1 + LAM * eye, m.Sigma0 + LAM * eye).kappa

    parts = [
        ('MSPC(method="eig").fit(X), whole', lambda: model.fit(X)),
        ("reference numpy_eig (labels only)", lambda: numpy_eig(X, LAM)),
        ("reference + the MSP of its labels", with_msp(lambda: numpy_eig(X, LAM), X, LAM)),
        ("in the fit: parameter validation", model._validate_params),
        (
            "in the fit: data validation and column ranges",
            lambda: validated_ranges(model, X, dtype=np.float64, ensure_min_samples=4),
        ),
        ("in the fit: z-scoring", lambda: standardize(X, ptp=hi - lo)),
        (
            "in the fit: EIG labels (Gram matrix, eigenvector, prediction)",
            lambda: solve_eig(Z, eye, LAM, with_kappa=False),
        ),
        ("in the fit: the MSP of the labels", msp_of_labels),
    ]
    print_table(
        ["part", "ms"], [[name, f"{measure(fn, repeats=calls)[0] * 1e3:.3f}"] for name, fn in parts]
    )


def main(argv=None) -> None:
    """Run the chosen comparison (solvers against k-means by default; ``--search``,
    ``--solvers``, ``--decompose``) and print its table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="only the two small shapes")
    parser.add_argument("--shapes", help="comma-separated shapes, e.g. 14000x784")
    parser.add_argument(
        "--repeats", type=int, default=5, help="timed runs per cell (median; interleaved)"
    )
    parser.add_argument("--solvers", action="store_true", help="ratio to plain numpy")
    parser.add_argument("--search", action="store_true", help="accuracy of the searches")
    parser.add_argument(
        "--decompose", action="store_true", help="where an EIG fit on 1555x16 spends its time"
    )
    args = parser.parse_args(argv)
    print(f"Machine: {machine()}; load average at start {os.getloadavg()[0]:.1f}\n")
    if args.decompose:
        eig_decomposition()
        return
    if args.search:
        search_tables()
        return
    if args.solvers:
        shapes = QUICK_SHAPES if args.quick else SHAPES[:3]
        if args.shapes:
            shapes = [tuple(map(int, s.split("x"))) for s in args.shapes.split(",")]
        solvers_table(shapes, args.repeats)
        print(f"Load average at the end: {os.getloadavg()[0]:.1f}")
        return
    rows = []
    for n, d in QUICK_SHAPES if args.quick else SHAPES:
        X = make_data(n, d)
        repeats = 1 if n * d > 5e6 else args.repeats
        t_km, m_km, _ = measure(
            lambda X=X: KMeans(2, n_init=10, random_state=0).fit(X), repeats=repeats
        )
        rows.append([f"{n}x{d}", "k-means", f"{t_km:.3f}", "", f"{m_km:.1f}", "1.00", "", ""])
        for method in ("mpm", "gep", "eig"):
            model = MSPC(method=method, lam=1.0, init="kmeans", search="paper", random_state=0)
            t, mem, fitted = measure(lambda X=X, model=model: model.fit(X), repeats=repeats)
            rows.append(
                [
                    f"{n}x{d}",
                    f"MSPC-{method.upper()}",
                    f"{t:.3f}",
                    # EIG has no k-means start: its own time is its whole time.
                    f"{t:.3f}" if method == "eig" else f"{max(t - t_km, 0.0):.3f}",
                    f"{mem:.1f}",
                    f"{t / t_km:.2f}",
                    fitted.n_iter_,
                    f"{fitted.msp_:.3f}",
                ]
            )
        print_table(
            [
                "N x d",
                "method",
                "time (s)",
                "beyond the k-means start (s)",
                "peak MiB",
                "time / k-means",
                "iters",
                "MSP",
            ],
            rows,
        )
        print(flush=True)
        rows = []


if __name__ == "__main__":
    main()
