"""MSPC paper, Table 2: clustering error (%) of each method on the seven UCI tasks.

Protocol of the paper: features scaled to ``[-1, 1]``; each method's regularisation weight
(or ``C``) is chosen from ``{1e-4, ..., 1e4}`` by the clustering accuracy it reaches — a
choice that uses the true labels. Beside it we report the honest, label-free choice: the
setting whose labeling has the largest MSP, every labeling scored at one common ``lam``
(:data:`clustering._lam.MSP_REFERENCE_LAM`), so that settings are comparable.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd

from clustering._lam import MSP_REFERENCE_LAM
from lab.experiments import _methods, _paper
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
from lab.experiments._select import select

__all__ = ["EXPERIMENT"]

#: Cells left out by default: measured far too slow on the 2-core machine of the stored run
#: (``--option exclude=[]`` runs them).
_SLOW = ("itersvr@spam",)
_SLOW_REASON = (
    "IterSVR took more than 5 minutes per fit on spam (4597 x 57) with the linear kernel, and "
    "one Gaussian-kernel fit of its 30-setting grid did not finish in 240 s, on the shared "
    "2-core machine; pass --option exclude=[] to run it"
)

_TASKS = ("ionosphere", "breast", "australian", "diabetes", "letter", "satellite", "spam")
_METHODS = (
    "kmeans",
    "itersvr",
    "mvc-soft",
    "lda-kmeans",
    "dis-kmeans",
    "mspc-mpm",
    "mspc-gep",
    "mspc-eig",
    "mspc-mpm-monotone",
    "mspc-gep-monotone",
)


def _overrides(options) -> dict:
    return {p: tuple(v) for p, v in (options.get("grid") or {}).items()}


def plan(config: Config) -> list[Cell]:
    cells = []
    overrides = _overrides(config.options)
    excluded = excluded_cells(config)
    for method in config.methods:
        for task in config.tasks:
            if f"{method}@{task}" in excluded:
                continue
            for params in _methods.grid(method, overrides):
                cells.append(Cell.make("table2", method, task, params, seed=config.options["seed"]))
    return cells


def _error_table(chosen: pd.DataFrame, config: Config, with_paper: bool) -> pd.DataFrame:
    rows = []
    for task in config.tasks:
        row: dict = {"task": task}
        for method in config.methods:
            hit = chosen[(chosen["method"] == method) & (chosen["task"] == task)]
            row[method] = 100.0 * (1.0 - float(hit["accuracy"].iloc[0])) if len(hit) else np.nan
        if with_paper:
            for method in [*config.methods, *config.skipped]:
                paper = _paper.MSPC_TABLE2.get(task, {}).get(method)
                if method in _paper.MSPC_TABLE2["breast"]:
                    row[f"paper_{method}"] = np.nan if paper is None else paper
        rows.append(row)
    return pd.DataFrame(rows)


def _selected_long(chosen: pd.DataFrame, selection: str) -> pd.DataFrame:
    if chosen.empty:
        return pd.DataFrame(
            columns=["task", "method", "selection", "params", "error_pct", "msp", "paper"]
        )
    out = chosen[["task", "method", "params", "accuracy", "msp", "msp_own"]].copy()
    out.insert(2, "selection", selection)
    out["error_pct"] = 100.0 * (1.0 - out.pop("accuracy"))
    out["paper"] = [
        _paper.MSPC_TABLE2.get(t, {}).get(m)
        for t, m in zip(out["task"], out["method"], strict=True)
    ]
    out["paper"] = pd.to_numeric(out["paper"], errors="coerce")
    out["gap"] = out["error_pct"] - out["paper"]
    return out


def _comparison_markdown(errors: pd.DataFrame, config: Config) -> str:
    shown = pd.DataFrame({"task": errors["task"]})
    for method in config.methods:
        paper_col = f"paper_{method}"
        values = []
        for ours, paper in zip(
            errors[method],
            errors[paper_col] if paper_col in errors else [np.nan] * len(errors),
            strict=True,
        ):
            if np.isnan(ours):
                values.append("–")
            elif np.isnan(paper):
                values.append(f"{ours:.2f}")
            else:
                values.append(f"{ours:.2f} ({paper:.2f}, {round(ours - paper, 2) + 0.0:+.2f})")
        shown[method] = values
    return markdown_table(shown)


def summarize(frame: pd.DataFrame, config: Config):
    by_acc = select(frame, "accuracy")
    by_msp = select(frame, "msp")
    errors = _error_table(by_acc, config, with_paper=True)
    errors_msp = _error_table(by_msp, config, with_paper=False)
    selected = pd.concat(
        [_selected_long(by_acc, "accuracy"), _selected_long(by_msp, "msp")], ignore_index=True
    )
    grid_note = ", ".join(f"{p} in {list(v)}" for p, v in _overrides(config.options).items())
    md = [
        "## MSPC paper, Table 2: clustering error (%)",
        "",
        "Features scaled to [-1, 1]. Each cell: **ours (paper, ours − paper)**, the "
        "regularisation weight chosen by accuracy as in the paper"
        + (f" (grid overridden: {grid_note})" if grid_note else "")
        + ".",
        "",
        _comparison_markdown(errors, config),
        f"Label-free choice: the setting whose labeling has the largest MSP at lam = "
        f"{MSP_REFERENCE_LAM:g} (no labels used):",
        "",
        markdown_table(errors_msp),
        "Chosen settings (by accuracy / by MSP):",
        "",
    ]
    if not selected.empty:
        compact = selected.pivot_table(
            index=["task", "method"], columns="selection", values="params", aggfunc="first"
        ).reset_index()
        compact.columns.name = None
        md.append(markdown_table(compact))
    md.append(skipped_markdown(config))
    md.append(excluded_markdown(config))
    md.append(failures_markdown(frame))
    tables = {"errors": errors, "msp": errors_msp, "selected": selected}
    return tables, "\n".join(md)


def figures(result: ExperimentResult) -> list:
    import plotly.graph_objects as go

    errors = result.tables["errors"]
    methods = [c for c in errors.columns if c != "task" and not c.startswith("paper_")]
    fig = go.Figure()
    for method in methods:
        fig.add_bar(name=f"{method} (ours)", x=errors["task"], y=errors[method])
        paper = f"paper_{method}"
        if paper in errors and errors[paper].notna().any():
            fig.add_scatter(
                name=f"{method} (paper)",
                x=errors["task"],
                y=errors[paper],
                mode="markers",
                marker={"symbol": "line-ew-open", "size": 18, "line": {"width": 3}},
            )
    values = [errors[m] for m in methods] + [
        errors[f"paper_{m}"] for m in methods if f"paper_{m}" in errors
    ]
    top = max((float(v.max()) for v in values if v.notna().any()), default=50.0)
    fig.update_layout(
        title="Clustering error (%) — bars: ours (lam chosen by accuracy), marks: paper",
        barmode="group",
        # Every bar and mark inside the plot (spam's k-means bar is 40.13 %).
        yaxis={"title": "error (%)", "range": [0, top * 1.08]},
        legend={"orientation": "h"},
    )
    return [fig]


EXPERIMENT = Experiment(
    name="table2",
    title="MSPC paper, Table 2: clustering error on the UCI tasks",
    paper="Huang et al., Maximin Separation Probability Clustering, Table 2",
    methods=_METHODS,
    tasks=_TASKS,
    # "exclude": "method@task" cells not to run (e.g. a method far too slow on one task).
    options={"grid": {}, "seed": 0, "exclude": list(_SLOW), "exclude_reason": _SLOW_REASON},
    plan=plan,
    summarize=summarize,
    figures=figures,
)


def chosen_params(directory) -> dict[tuple[str, str], dict]:
    """``{(method, task): params}`` chosen by accuracy in a stored ``table2`` result."""
    from pathlib import Path

    path = Path(directory) / "table2_selected.csv"
    if not path.is_file():
        return {}
    frame = pd.read_csv(path)
    frame = frame[frame["selection"] == "accuracy"]
    return {
        (m, t): json.loads(p)
        for m, t, p in zip(frame["method"], frame["task"], frame["params"], strict=True)
    }
