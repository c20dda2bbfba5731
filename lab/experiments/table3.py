"""MSPC paper, Table 3: wall-clock time (s) of each method per task.

Each cell fits the method ``repeats`` times on the same data and reports the median time of
``fit`` (data loading excluded). Cells run one at a time whatever ``--jobs`` says, so that
timings do not compete for cores. Each method uses the setting table2 chose by accuracy
when a ``table2`` result is in the same output directory (the paper times the tuned
methods), otherwise its defaults; the settings used are in the cells table.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from lab.experiments import _paper
from lab.experiments._base import (
    Config,
    Experiment,
    ExperimentResult,
    excluded_cells,
    excluded_markdown,
    failures_markdown,
    markdown_table,
    skipped_markdown,
)
from lab.experiments._cells import Cell
from lab.experiments._methods import LINEUPS
from lab.experiments.table2 import _SLOW, _SLOW_REASON, chosen_params

__all__ = ["EXPERIMENT"]

_TASKS = ("letter", "satellite", "spam")
_METHODS = LINEUPS["table3"]


def plan(config: Config) -> list[Cell]:
    tuned = chosen_params(config.out) if config.out else {}
    repeats = int(config.options["repeats"])
    excluded = excluded_cells(config)
    cells = []
    for method in config.methods:
        for task in config.tasks:
            if f"{method}@{task}" in excluded:
                continue
            params = tuned.get((method, task), {})
            cells.append(
                Cell.make(
                    "table3",
                    method,
                    task,
                    params,
                    seed=config.options["seed"],
                    timing_repeats=repeats,
                )
            )
    return cells


def _machine_markdown(machine: dict) -> str:
    if not machine:
        return ""
    return (
        f"Machine: {machine.get('cpu')}, {machine.get('cores')} cores; {machine.get('os')}; "
        f"Python {machine.get('python')}, numpy {machine.get('numpy')} with "
        f"{machine.get('blas')} ({machine.get('blas_threads')} BLAS threads), scikit-learn "
        f"{machine.get('scikit-learn')}; load average {machine.get('load_average', '?')} when "
        "the run started (the machine was shared, so times are upper bounds). Paper: MATLAB "
        "on an Intel i7 quad core 3.39 GHz, 16 GB."
    )


def summarize(frame: pd.DataFrame, config: Config):
    ok = frame[frame["status"] == "ok"]
    rows = []
    for task in config.tasks:
        row: dict = {"task": task}
        for method in config.methods:
            hit = ok[(ok["method"] == method) & (ok["task"] == task)]
            row[method] = float(hit["time_median"].iloc[0]) if len(hit) else np.nan
        for method in [*config.methods, *config.skipped]:
            if method in _paper.MSPC_TABLE3["letter"]:
                paper = _paper.MSPC_TABLE3.get(task, {}).get(method)
                row[f"paper_{method}"] = np.nan if paper is None else paper
        rows.append(row)
    times = pd.DataFrame(rows)
    shown = pd.DataFrame({"task": times["task"]})
    for method in config.methods:
        paper_col = f"paper_{method}"
        values = []
        for i, ours in enumerate(times[method]):
            paper = times[paper_col].iloc[i] if paper_col in times else np.nan
            if np.isnan(ours):
                values.append("–")
            elif np.isnan(paper):
                values.append(f"{ours:.3g}")
            else:
                values.append(f"{ours:.3g} ({paper:.3g}, ×{ours / paper:.2g})")
        shown[method] = values
    md = [
        "## MSPC paper, Table 3: wall-clock time (s)",
        "",
        f"Median of {config.options['repeats']} fits per cell, one cell at a time. Each "
        "cell: **ours (paper, ours / paper)**.",
        "",
        _machine_markdown(config.machine),
        "",
        markdown_table(shown),
        skipped_markdown(config),
        excluded_markdown(config),
        failures_markdown(frame),
    ]
    return {"times": times}, "\n".join(md)


def figures(result: ExperimentResult) -> list:
    import plotly.graph_objects as go

    times = result.tables["times"]
    methods = [c for c in times.columns if c != "task" and not c.startswith("paper_")]
    fig = go.Figure()
    for method in methods:
        fig.add_bar(name=method, x=times["task"], y=times[method])
    fig.update_layout(
        title="Wall-clock time per fit (median, s; log scale)",
        barmode="group",
        yaxis={"type": "log", "title": "seconds"},
        legend={"orientation": "h"},
    )
    return [fig]


EXPERIMENT = Experiment(
    name="table3",
    title="MSPC paper, Table 3: wall-clock time",
    paper="Huang et al., Maximin Separation Probability Clustering, Table 3",
    methods=_METHODS,
    tasks=_TASKS,
    options={"repeats": 5, "seed": 0, "exclude": list(_SLOW), "exclude_reason": _SLOW_REASON},
    plan=plan,
    summarize=summarize,
    figures=figures,
    serial=True,
)
