"""MVC paper, Fig. 2 protocol: error on small random subsets of digit pairs (n <= 100).

The paper draws ``n`` samples (n <= 100) of the MNIST pairs 1 vs 4, 1 vs 7, 3 vs 5 and 5 vs 8
and plots the error ``d_H / n`` (the clustering error) of k-means, SL-MVC, HL-MVC, spectral
clustering, MMC and GMMC against ``n``. MNIST is not bundled, so the pairs come from
scikit-learn's 8x8 digits (features scaled to [-1, 1]); each repetition (seed) draws a new
random subset of ``n`` samples, half from each digit. The figure prints no numbers, so the
comparison is with the paper's claim: the two MVC algorithms are comparable with the others.

Methods, with their registered (label-free) defaults: ``kmeans``, ``spectral``,
``mvc-soft`` (SL-MVC), ``mvc-hard`` (HL-MVC, the SDP; ``n <= 150``). The paper picked each
method's graph size or kernel width as the best of a small grid (with the labels) and
reported the best of five k-means / spectral runs; MMC and GMMC are not implemented. Tasks
are named ``<pair>@<n>``, e.g. ``digits:1v7@60``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from lab.experiments._base import (
    Config,
    Experiment,
    ExperimentResult,
    failures_markdown,
    markdown_table,
    skipped_markdown,
)
from lab.experiments._cells import Cell
from lab.experiments._generated import failed_cell, score_fit, seeded_plan
from lab.experiments._methods import LINEUPS

__all__ = ["EXPERIMENT", "compute", "parse_task", "subset"]

_PAIRS = ("digits:1v4", "digits:1v7", "digits:3v5", "digits:5v8")
_SIZES = (20, 60, 100)
_METHODS = LINEUPS["mvc-fig2"]


def parse_task(task: str) -> tuple[str, int]:
    """``("digits:1v7", 60)`` from ``"digits:1v7@60"``."""
    pair, sep, n = task.rpartition("@")
    if not sep or not pair.startswith("digits:") or not n.isdigit() or int(n) < 4:
        raise ValueError(
            f"mvc-fig2 tasks are named '<digits pair>@<n>' (e.g. digits:1v7@60), got {task!r}."
        )
    return pair, int(n)


def subset(y: np.ndarray, n: int, seed: int) -> np.ndarray:
    """Indices of ``n`` random samples, ``n // 2`` of the first class and the rest of the other."""
    rng = np.random.default_rng(seed)
    classes = np.unique(y)
    first = rng.choice(np.flatnonzero(y == classes[0]), n // 2, replace=False)
    second = rng.choice(np.flatnonzero(y == classes[1]), n - n // 2, replace=False)
    return np.sort(np.concatenate([first, second]))


def compute(cell: Cell) -> dict[str, Any]:
    """One fit on one random subset (never raises)."""
    import datasets

    try:
        pair, n = parse_task(cell.task)
        ds = datasets.load(pair)
        idx = subset(ds.y, n, cell.seed)
        return score_fit(cell.method, {}, ds.X[idx], ds.y[idx], cell.seed)
    except Exception as exc:
        return failed_cell(exc)


def plan(config: Config) -> list[Cell]:
    return seeded_plan("mvc-fig2", config)


def summarize(frame: pd.DataFrame, config: Config):
    ok = frame[frame["status"] == "ok"].copy()
    ok["error_pct"] = 100.0 * (1.0 - ok["accuracy"])
    rows = []
    for task in config.tasks:
        pair, n = parse_task(task)
        row: dict = {"pair": pair, "n": n}
        for method in config.methods:
            values = ok[(ok["method"] == method) & (ok["task"] == task)]["error_pct"]
            row[method] = float(values.mean()) if len(values) else np.nan
        rows.append(row)
    table = pd.DataFrame(rows)
    means = {m: table[m].mean() for m in config.methods}
    md = [
        "## MVC paper, Fig. 2 protocol: digits pairs, small n",
        "",
        "Substitute data: scikit-learn's 8x8 digits in place of MNIST (not bundled). "
        f"Clustering error (%) on random balanced subsets of n samples, mean over "
        f"{config.options['repeats']} subsets; every method with its registered defaults "
        "(nothing chosen with the labels). The paper's figure prints no numbers; its claim "
        "is that SL-MVC and HL-MVC are comparable with k-means, spectral clustering, MMC and "
        "GMMC.",
        "",
        markdown_table(table),
        "Mean over all pairs and sizes: "
        + ", ".join(f"{m} {v:.2f}" for m, v in means.items() if np.isfinite(v))
        + ".",
        skipped_markdown(config),
        failures_markdown(frame),
    ]
    return {"errors": table}, "\n".join(md)


def figures(result: ExperimentResult) -> list:
    import plotly.graph_objects as go

    table = result.tables["errors"]
    methods = [c for c in table.columns if c not in ("pair", "n")]
    figs = []
    for pair in dict.fromkeys(table["pair"]):
        sub = table[table["pair"] == pair]
        fig = go.Figure()
        for method in methods:
            fig.add_scatter(name=method, x=sub["n"], y=sub[method], mode="lines+markers")
        fig.update_layout(
            title=f"MVC Fig. 2 protocol, {pair}: error (%) vs. n",
            xaxis_title="n",
            yaxis_title="error (%)",
            legend={"orientation": "h"},
        )
        figs.append(fig)
    return figs


EXPERIMENT = Experiment(
    name="mvc-fig2",
    title="MVC paper, Fig. 2 protocol: digits pairs at n <= 100",
    paper="Niu, Dai, Shang & Sugiyama, Maximum Volume Clustering, Figure 2 (MNIST replaced "
    "by scikit-learn digits)",
    methods=_METHODS,
    tasks=tuple(f"{p}@{n}" for p in _PAIRS for n in _SIZES),
    options={"repeats": 3, "seed": 0},
    plan=plan,
    summarize=summarize,
    figures=figures,
    compute=compute,
)
