"""Beyond the papers: multi-class and kernel MSPC against the multi-class baselines.

Protocol (no labels are used to choose anything):

* Tasks: ``iris``, ``wine-raw`` (unscaled units), ``digits`` (10 classes), ``satimage`` (6),
  ``letter-26`` (26) and two generated two-cluster sets for the RBF kernel, ``moons``
  (``make_moons(400, noise=0.1, random_state=0)``) and ``circles`` (``make_circles(400,
  noise=0.05, factor=0.5, random_state=0)``). Tasks with more than :data:`MAX_SAMPLES`
  samples are cut to a stratified random subsample of that size (seed 0), because SMIC,
  DIFFRAC and spectral clustering build ``N x N`` matrices. ``n_clusters`` = the number of classes.
* Methods: MSPC with each solver (``mspc-mpm``, ``mspc-gep``: one cell per start
  ``kmeans``, ``kmeans-standardized``, ``kmeans-whitened``, ``eig``; ``mpm`` also with the
  multi-starts ``auto-invariant`` and ``auto``, the library's default), ``mspc-eig``, and
  ``mspc-rbf`` (``MSPC(kernel="rbf")`` with its defaults), all at ``lam = 0.1``,
  ``regularizer="diag"``; k-means, spectral, DIFFRAC, SMIC, LDA-k-means, Dis-KM with their
  registered defaults; ``random_state=0`` everywhere.
* Every fit twice (cell parameter ``scaled``): on the task's features and after a random
  per-feature scaling ``x_j -> 10^u_j x_j``, ``u_j ~ U(-3, 3)`` (seed 1); ``same_labels``
  says whether the two labelings are the same partition (compared by ``labels_hash``).
* Scores: NMI, adjusted Rand, accuracy under the optimal cluster-to-class matching; for
  MSPC also its multi-class MSP; the Pearson correlation of MSP and accuracy over the
  unscaled linear MSPC fits with ``k > 2`` (``mspc-rbf`` is left out: its MSP is measured
  in the kernel's spectral coordinates, not comparable with the linear fits').

Run ``python -m lab.experiments multiclass --out DIR --jobs 2``: 252 cells (most of the fit
time on ``letter-26`` and ``digits``; the stored run's total is in its report); cells are
cached and checksummed like every experiment's.
"""

from __future__ import annotations

import hashlib
import time
import warnings
from functools import lru_cache

import numpy as np
import pandas as pd
from scipy import stats
from sklearn.metrics import adjusted_rand_score

from clustering import metrics
from clustering.mspc import MSPC
from lab.experiments._base import (
    Config,
    Experiment,
    ExperimentResult,
    failures_markdown,
    skipped_markdown,
)
from lab.experiments._cells import Cell
from lab.experiments._methods import make_estimator_k

__all__ = [
    "BASELINES",
    "EXPERIMENT",
    "GENERATED",
    "MAX_SAMPLES",
    "MSPC_INITS",
    "TASKS",
    "compute",
    "summarize",
]

TASKS = ("iris", "wine-raw", "digits", "satimage", "letter-26", "moons", "circles")
MAX_SAMPLES = 2000
LAM = 0.1
BASELINES = ("kmeans", "spectral", "diffrac", "smic", "lda-kmeans", "dis-kmeans")
#: Starts run for each MSPC solver that climbs (one cell each).
MSPC_INITS = {
    "mspc-mpm": (
        "kmeans",
        "kmeans-standardized",
        "kmeans-whitened",
        "eig",
        "auto-invariant",
        "auto",
    ),
    "mspc-gep": ("kmeans", "kmeans-standardized", "kmeans-whitened", "eig"),
}
METHODS = ("mspc-mpm", "mspc-gep", "mspc-eig", "mspc-rbf", *BASELINES)
#: Generated two-cluster tasks (for the RBF kernel): name -> (generator, arguments).
GENERATED = {
    "moons": ("make_moons", {"n_samples": 400, "noise": 0.1, "random_state": 0}),
    "circles": (
        "make_circles",
        {"n_samples": 400, "noise": 0.05, "factor": 0.5, "random_state": 0},
    ),
}


@lru_cache(maxsize=8)
def _task(name: str):
    if name in GENERATED:
        import sklearn.datasets

        fn, kwargs = GENERATED[name]
        X, y = getattr(sklearn.datasets, fn)(**kwargs)
        return np.ascontiguousarray(X), y
    import datasets

    ds = datasets.load(name)
    X, y = ds.X, ds.y
    if X.shape[0] > MAX_SAMPLES:
        from sklearn.model_selection import train_test_split

        X, _, y, _ = train_test_split(X, y, train_size=MAX_SAMPLES, stratify=y, random_state=0)
    return np.ascontiguousarray(X), y


def _estimator(method: str, init: str, k: int):
    if method == "mspc-rbf":
        return MSPC(kernel="rbf", n_clusters=k, lam=LAM, random_state=0)
    if method.startswith("mspc-"):
        solver = method.split("-", 1)[1]
        params = {"method": solver, "n_clusters": k, "lam": LAM, "random_state": 0}
        if solver != "eig":
            params["init"] = init
        return MSPC(**params)
    est = make_estimator_k(method, k)
    if "random_state" in est.get_params():
        est.set_params(random_state=0)
    return est


def labels_hash(labels: np.ndarray) -> str:
    """Hash of the partition (clusters renamed in order of first appearance)."""
    _, first, inverse = np.unique(labels, return_index=True, return_inverse=True)
    canonical = np.argsort(np.argsort(first))[inverse].astype(np.int64)
    return hashlib.sha1(canonical.tobytes()).hexdigest()[:16]


def compute(cell: Cell) -> dict:
    """One fit of ``cell.method`` (start ``params["init"]``) on ``cell.task``, unscaled or
    randomly scaled per feature (``params["scaled"]``); never raises for a failing method."""
    params = cell.param_dict
    X, y = _task(cell.task)
    k = int(np.unique(y).shape[0])
    if params.get("scaled"):
        X = X * 10.0 ** np.random.default_rng(1).uniform(-3, 3, X.shape[1])
    try:
        est = _estimator(cell.method, str(params.get("init", "-")), k)
        start = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            pred = np.asarray(est.fit(X).labels_)
        seconds = time.perf_counter() - start
    except Exception as exc:  # a failing method is a result, not a crash
        return {"status": "failed", "error": f"{type(exc).__name__}: {exc}"[:300]}
    msp = getattr(est, "msp_", None) if cell.method.startswith("mspc-") else None
    return {
        "status": "ok",
        "error": None,
        "seconds": seconds,
        "accuracy": metrics.clustering_accuracy(y, pred),
        "nmi": metrics.nmi(y, pred),
        "rand": metrics.rand_index(y, pred),
        "f_measure": metrics.f_measure(y, pred),
        "ari": float(adjusted_rand_score(y, pred)),
        "msp": None if msp is None else float(msp),
        "n_clusters": k,
        "labels_hash": labels_hash(pred),
    }


def plan(config: Config) -> list[Cell]:
    cells = []
    for task in config.tasks:
        for method in config.methods:
            for init in MSPC_INITS.get(method, ("-",)):
                for scaled in (False, True):
                    params = {"scaled": scaled}
                    if init != "-":
                        params["init"] = init
                    cells.append(Cell.make("multiclass", method, task, params))
    return cells


def _fits(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per fit with ``init``, ``scaled``, ``k`` and ``same_labels`` columns."""
    import json

    fits = frame.copy()
    params = fits["params"].map(json.loads)
    fits["init"] = params.map(lambda p: p.get("init", "-"))
    fits["scaled"] = params.map(lambda p: bool(p.get("scaled", False)))
    fits["column"] = np.where(
        fits["init"] == "-", fits["method"], fits["method"] + " / " + fits["init"]
    )
    same = {}
    for key, sub in fits[fits["status"] == "ok"].groupby(["task", "column"]):
        hashes = sub["labels_hash"].dropna()
        same[key] = len(hashes) == 2 and hashes.nunique() == 1
    keys = zip(fits["task"], fits["column"], strict=True)
    fits["same_labels"] = [same.get(key, False) for key in keys]
    fits["k"] = pd.to_numeric(fits.get("n_clusters"), errors="coerce")
    return fits


def summarize(frame: pd.DataFrame, config: Config):
    """The stored tables and the "Beyond the papers" section of REPRODUCTION.md."""
    fits = _fits(frame)
    ok = fits[fits["status"] == "ok"]
    tasks = [t for t in config.tasks if t in set(ok["task"])]
    columns = list(dict.fromkeys(ok["column"]))
    rows = []
    for col in columns:
        row = {"method": col}
        for task in tasks:
            sub = ok[(ok["column"] == col) & (ok["task"] == task)]
            for scaled, suffix in ((False, ""), (True, " scaled")):
                hit = sub[sub["scaled"] == scaled]["nmi"]
                row[task + suffix] = float(hit.iloc[0]) if len(hit) else np.nan
            row[task + " same"] = bool(sub["same_labels"].any()) if len(sub) else False
        rows.append(row)
    nmi = pd.DataFrame(rows)
    lines = [
        BEYOND_INTRO.strip(),
        "",
        "### NMI (unscaled \\| random per-feature scaling 1e-3..1e3; * = identical labels)",
        "",
        "| method | " + " | ".join(tasks) + " |",
        "|---|" + "---|" * len(tasks),
    ]
    for row in rows:
        cells = []
        for task in tasks:
            a, b = row[task], row[task + " scaled"]
            if np.isnan(a) and np.isnan(b):
                cells.append("failed")
                continue
            text = ("–" if np.isnan(a) else f"{a:.3f}") + " \\| "
            text += "–" if np.isnan(b) else f"{b:.3f}"
            cells.append(text + (" *" if row[task + " same"] else ""))
        lines.append(f"| {row['method']} | " + " | ".join(cells) + " |")
    kernel_tasks = [t for t in tasks if t in GENERATED]
    if kernel_tasks:
        lines += ["", "Accuracy on the generated two-cluster sets (unscaled):", ""]
        for col in ("kmeans", "spectral", "mspc-mpm / auto", "mspc-rbf"):
            sub = ok[(ok["column"] == col) & ~ok["scaled"]]
            if len(sub):
                acc = ", ".join(
                    f"{t} {float(sub[sub['task'] == t]['accuracy'].iloc[0]):.3f}"
                    for t in kernel_tasks
                    if (sub["task"] == t).any()
                )
                lines.append(f"- `{col}`: {acc}")
    linear = ok["method"].str.startswith("mspc-") & (ok["method"] != "mspc-rbf")
    mspc = ok[linear & (ok["k"] > 2) & ~ok["scaled"]].dropna(subset=["msp"])
    if len(mspc) >= 3 and mspc["msp"].nunique() > 1:
        r, p = stats.pearsonr(mspc["msp"], mspc["accuracy"])
        lines += [
            "",
            f"MSP vs accuracy over the {len(mspc)} unscaled linear MSPC fits with k > 2 (all "
            f"tasks, solvers and starts): Pearson r = {r:.2f} (p = {p:.2g}).",
        ]
        within = []
        for task, sub in mspc.groupby("task", sort=False):
            if sub["msp"].nunique() > 1 and sub["accuracy"].nunique() > 1:
                within.append(f"{task} {stats.pearsonr(sub['msp'], sub['accuracy'])[0]:.2f}")
        if within:
            lines.append("Within a task (across solvers and starts): " + ", ".join(within) + ".")
    seconds = float(pd.to_numeric(fits["seconds"], errors="coerce").sum())
    lines += ["", f"Total fit time of the stored run: {seconds / 60:.1f} minutes."]
    lines += [skipped_markdown(config), failures_markdown(frame)]
    return {"nmi": nmi, "fits": fits.drop(columns=["column"])}, "\n".join(lines)


def figures(result: ExperimentResult) -> list:
    """One bar per method and task (unscaled fits). A method fitted from several starts
    (MSPC (MPM) and (GEP)) shows its default start's NMI, with a whisker spanning every
    start's; never the sum of its starts."""
    import plotly.graph_objects as go

    from clustering import ALGORITHMS

    fits = result.tables["fits"]
    ok = fits[(fits["status"] == "ok") & ~fits["scaled"].astype(bool)]
    fig = go.Figure()
    for method, sub in ok.groupby("method", sort=False):
        default = ALGORITHMS[method].defaults().get("init") if method in ALGORITHMS else None
        tasks, nmi, low, high = [], [], [], []
        for task, runs in sub.groupby("task", sort=False):
            values = runs["nmi"].astype(float)
            chosen = runs[runs["init"] == default]["nmi"] if "init" in runs else values
            value = float(chosen.iloc[0]) if len(chosen) else float(values.iloc[0])
            tasks.append(task)
            nmi.append(value)
            low.append(value - float(values.min()))
            high.append(float(values.max()) - value)
        several = len(sub) > sub["task"].nunique()
        fig.add_bar(
            name=method,
            x=tasks,
            y=nmi,
            error_y=(
                {"type": "data", "symmetric": False, "array": high, "arrayminus": low}
                if several
                else None
            ),
        )
    fig.update_layout(
        title="NMI per task (unscaled; MSPC from several starts: the default start, the "
        "whisker spans every start)",
        barmode="group",
        yaxis={"title": "NMI", "range": [0, 1.05]},
    )
    return [fig]


#: Hand-written findings that frame the stored table (numbers measured as stated).
BEYOND_INTRO = """
## Beyond the papers: multi-class and kernel MSPC

Neither paper has these; they are this lab's extensions, measured here.
Multi-class MSP (`clustering.msp_multiclass`): one MPM per pair of clusters, the pairwise
worst-case failure probabilities added per cluster (union bound), weighted by cluster
size, clipped at 0. It is a lower bound on the accuracy of the one-vs-one MPM classifier
learnt from the labeling, equals the binary MSP at k = 2 and is invariant to the same maps
(all three are tested). Multi-class MSPC (`MSPC(n_clusters=k)`)
accepts a relabelling only when this MSP rises. Stored run:
`python -m lab.experiments multiclass` (lam = 0.1, no labels used for any choice;
tasks above 2000 samples are a stratified subsample of 2000).
"""


EXPERIMENT = Experiment(
    name="multiclass",
    title="Beyond the papers: multi-class and kernel MSPC",
    paper="",
    methods=METHODS,
    tasks=TASKS,
    options={},
    plan=plan,
    summarize=summarize,
    figures=figures,
    compute=compute,
)
