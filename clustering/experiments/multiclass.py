"""Beyond the papers: multi-class MSPC against the multi-class baselines (issue 14).

Protocol (no labels are used to choose anything):

* Tasks: ``iris``, ``wine-raw`` (unscaled units), ``digits`` (10 classes), ``satimage``
  (6) and ``letter-26`` (26); tasks with more than :data:`MAX_SAMPLES` samples are cut to a
  stratified random subsample of that size (seed 0), because SMIC, DIFFRAC and spectral
  clustering build ``N x N`` matrices. ``n_clusters`` = the number of classes.
* Methods: MSPC with each solver (``mpm``, ``gep``, ``eig``) and each start (``kmeans``,
  ``kmeans-standardized``, ``kmeans-whitened``, ``eig``), and ``mpm`` with the
  multi-starts ``auto-invariant`` and ``auto`` (the library's default: every start climbed,
  the highest multi-class MSP kept), ``lam = 0.1``,
  ``regularizer="diag"``; k-means, spectral, DIFFRAC, SMIC, LDA-k-means, Dis-KM with their
  registered defaults; ``random_state=0`` everywhere.
* Every fit twice: on the task's features and after a random per-feature scaling
  ``x_j -> 10^u_j x_j``, ``u_j ~ U(-3, 3)`` (seed 1); ``same_labels`` says whether the two
  labelings are identical.
* Scores: NMI, adjusted Rand, accuracy under the optimal cluster-to-class matching; for
  MSPC also its multi-class MSP; the Pearson correlation of MSP and accuracy over all MSPC
  fits with ``k > 2``.

Run ``python -m clustering.experiments.multiclass [--out DIR] [--tasks iris,wine-raw]``;
the stored results are ``published/multiclass.csv`` and ``published/multiclass.md``.
"""

from __future__ import annotations

import argparse
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats
from sklearn.metrics import adjusted_rand_score

from .. import metrics
from ..mspc import MSPC
from ..n_clusters import make_estimator_k

__all__ = ["BASELINES", "MAX_SAMPLES", "MSPC_RUNS", "TASKS", "run", "summarize"]

TASKS = ("iris", "wine-raw", "digits", "satimage", "letter-26")
MAX_SAMPLES = 2000
LAM = 0.1
BASELINES = ("kmeans", "spectral", "diffrac", "smic", "lda-kmeans", "dis-kmeans")
MSPC_RUNS = tuple(
    (method, init)
    for method in ("mpm", "gep")
    for init in ("kmeans", "kmeans-standardized", "kmeans-whitened", "eig")
) + (("eig", "-"), ("mpm", "auto-invariant"), ("mpm", "auto"))

PUBLISHED = Path(__file__).resolve().parent / "published"


def _task(name: str):
    import datasets

    ds = datasets.load(name)
    X, y = ds.X, ds.y
    if X.shape[0] > MAX_SAMPLES:
        from sklearn.model_selection import train_test_split

        X, _, y, _ = train_test_split(X, y, train_size=MAX_SAMPLES, stratify=y, random_state=0)
    return np.ascontiguousarray(X), y


def _estimator(method: str, init: str, k: int):
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


def run(tasks=TASKS) -> pd.DataFrame:
    """Fit every method on every task, unscaled and scaled; one row per fit."""
    rows = []
    for task in tasks:
        X, y = _task(task)
        k = int(np.unique(y).shape[0])
        scale = 10.0 ** np.random.default_rng(1).uniform(-3, 3, X.shape[1])
        runs = [(f"mspc-{m}", i) for m, i in MSPC_RUNS] + [(b, "-") for b in BASELINES]
        for method, init in runs:
            labels = {}
            for scaled in (False, True):
                data = X * scale if scaled else X
                est = _estimator(method, init, k)
                start = time.perf_counter()
                try:
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        pred = np.asarray(est.fit(data).labels_)
                except Exception as exc:  # a failing method is a result, not a crash
                    rows.append(
                        {
                            "task": task,
                            "method": method,
                            "init": init,
                            "scaled": scaled,
                            "status": f"{type(exc).__name__}: {exc}"[:200],
                        }
                    )
                    continue
                seconds = time.perf_counter() - start
                labels[scaled] = pred
                rows.append(
                    {
                        "task": task,
                        "n": X.shape[0],
                        "k": k,
                        "method": method,
                        "init": init,
                        "scaled": scaled,
                        "status": "ok",
                        "nmi": metrics.nmi(y, pred),
                        "ari": adjusted_rand_score(y, pred),
                        "accuracy": metrics.clustering_accuracy(y, pred),
                        "msp": float(est.msp_) if method.startswith("mspc-") else np.nan,
                        "seconds": seconds,
                    }
                )
                print(task, method, init, scaled, round(rows[-1]["nmi"], 3), flush=True)
            if len(labels) == 2:
                same = bool(np.array_equal(labels[False], labels[True]))
                for row in rows[-2:]:
                    row["same_labels"] = same
    return pd.DataFrame(rows)


def summarize(frame: pd.DataFrame) -> str:
    """The markdown section of REPRODUCTION.md."""
    ok = frame[frame["status"] == "ok"].copy()
    ok["column"] = np.where(
        ok["init"] == "-", ok["method"], ok["method"] + " / " + ok["init"].astype(str)
    )
    lines = [
        "### NMI (unscaled | random per-feature scaling 1e-3..1e3; * = identical labels)",
        "",
    ]
    tasks = list(dict.fromkeys(ok["task"]))
    columns = list(dict.fromkeys(ok["column"]))
    lines.append("| method | " + " | ".join(tasks) + " |")
    lines.append("|---|" + "---|" * len(tasks))
    for col in columns:
        cells = []
        for task in tasks:
            sub = ok[(ok["column"] == col) & (ok["task"] == task)]
            if sub.empty:
                cells.append("failed")
                continue
            plain = sub[~sub["scaled"]]["nmi"]
            scaled = sub[sub["scaled"]]["nmi"]
            same = bool(sub["same_labels"].fillna(False).all())
            text = f"{plain.iloc[0]:.3f} | " if len(plain) else "- | "
            text = text[:-3] + f" \\| {scaled.iloc[0]:.3f}" if len(scaled) else text
            cells.append(text + (" *" if same else ""))
        lines.append(f"| {col} | " + " | ".join(cells) + " |")
    failed = frame[frame["status"] != "ok"]
    if len(failed):
        lines += ["", "Failures:", ""]
        for _, row in failed.iterrows():
            lines.append(f"- {row['task']}, {row['method']} ({row['init']}): {row['status']}")
    mspc = ok[ok["method"].str.startswith("mspc-") & (ok["k"] > 2) & ~ok["scaled"]]
    if len(mspc) >= 3:
        r, p = stats.pearsonr(mspc["msp"], mspc["accuracy"])
        lines += [
            "",
            f"MSP vs accuracy over the {len(mspc)} unscaled MSPC fits with k > 2 (all tasks, "
            f"solvers and starts): Pearson r = {r:.2f} (p = {p:.2g}).",
        ]
        within = []
        for task, sub in mspc.groupby("task"):
            if sub["msp"].nunique() > 1 and sub["accuracy"].nunique() > 1:
                within.append(f"{task} {stats.pearsonr(sub['msp'], sub['accuracy'])[0]:.2f}")
        lines.append("Within a task (across solvers and starts): " + ", ".join(within) + ".")
    return "\n".join(lines) + "\n"


#: Hand-written findings that frame the stored table (numbers measured as stated).
BEYOND_INTRO = """
## Beyond the papers: multi-class and kernel MSPC

Neither paper has these; they are this project's extensions (issue 14), measured here.
Multi-class MSP (`clustering.msp_multiclass`): one MPM per pair of clusters, the pairwise
worst-case failure probabilities added per cluster (union bound), weighted by cluster
size, clipped at 0. It is a lower bound on the accuracy of the one-vs-one MPM classifier
learnt from the labeling, equals the binary MSP at k = 2 and is invariant to the same maps
(tests/test_multiclass.py checks all three). Multi-class MSPC (`MSPC(n_clusters=k)`)
accepts a relabelling only when this MSP rises. Stored run:
`python -m clustering.experiments.multiclass` (lam = 0.1, no labels used for any choice;
tasks above 2000 samples are a stratified subsample of 2000).
"""


def section(source_dir: Path = PUBLISHED) -> str:
    """The REPRODUCTION.md section: :data:`BEYOND_INTRO`, the stored table, the notes."""
    base = Path(source_dir)
    if not (base / "multiclass.md").is_file():
        base = PUBLISHED
    path = base / "multiclass.md"
    if not path.is_file():
        return ""
    notes = base / "multiclass_notes.md"
    parts = [BEYOND_INTRO.strip(), "", path.read_text().strip()]
    if notes.is_file():
        parts += ["", notes.read_text().strip()]
    return "\n".join(parts) + "\n"


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(PUBLISHED))
    parser.add_argument("--tasks", default=",".join(TASKS))
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    frame = run([t for t in args.tasks.split(",") if t])
    frame.to_csv(out / "multiclass.csv", index=False)
    (out / "multiclass.md").write_text(summarize(frame))
    print(summarize(frame))


if __name__ == "__main__":
    main()
