"""What an experiment is, how its cells become tables, and how results are stored.

An :class:`Experiment` turns a :class:`Config` (methods, tasks, options) into cells
(``plan``) and a long table of cell results into summary tables and markdown
(``summarize``). The runner's output is stored as

* ``<name>.csv`` — the main table, ``<name>_<table>.csv`` — the other tables,
* ``<name>.md`` — the markdown report of the experiment,
* ``<name>_cells.csv`` — every cell with its result (everything the tables derive from),
* ``<name>_config.json`` — the configuration, the skipped methods and the machine,

so :func:`load_result` can rebuild the whole :class:`ExperimentResult` from a directory.
"""

from __future__ import annotations

import json
import os
import platform
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from lab.experiments import _methods
from lab.experiments._cells import Cell

__all__ = [
    "Config",
    "Experiment",
    "ExperimentResult",
    "cells_frame",
    "expand_tasks",
    "load_result",
    "machine_info",
    "markdown_table",
]

_CELL_COLUMNS = (
    "status",
    "error",
    "seconds",
    "accuracy",
    "nmi",
    "rand",
    "f_measure",
    "msp",
    "msp_own",
    "n_iter",
    "time_median",
    "partition_distance",
)
#: Columns kept only when some cell's result has them (multiclass: the number of clusters,
#: the adjusted Rand index and a hash of the partition, to compare two fits' labels; table2:
#: the held-out MSP of the labeling).
_OPTIONAL_COLUMNS = ("n_clusters", "ari", "labels_hash", "msp_heldout")


@dataclass
class Config:
    """The choices of one run of an experiment.

    Attributes
    ----------
    methods : list of str
        Method names that will run.
    tasks : list of str
        Task names.
    options : dict
        Experiment-specific options (grids, repeats, factors, ...), JSON-serialisable.
    skipped : dict
        Requested methods that cannot run, with the reason.
    machine : dict
        :func:`machine_info` of the computer that ran the cells.
    out : str
        Output directory of the run (where earlier experiments' results are read from).
    """

    methods: list[str]
    tasks: list[str]
    options: dict[str, Any] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)
    machine: dict[str, Any] = field(default_factory=dict)
    out: str = ""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Config:
        return cls(
            methods=list(data.get("methods", [])),
            tasks=list(data.get("tasks", [])),
            options=dict(data.get("options", {})),
            skipped=dict(data.get("skipped", {})),
            machine=dict(data.get("machine", {})),
            out=str(data.get("out", "")),
        )


@dataclass
class ExperimentResult:
    """Summary tables of an experiment run, its markdown report and its raw cells.

    Attributes
    ----------
    name : str
    title : str
    tables : dict of str to DataFrame
        The first is the main table (stored as ``<name>.csv``).
    markdown : str
        The report section of the experiment.
    cells : DataFrame
        One row per cell (see :func:`cells_frame`).
    config : Config
    """

    name: str
    title: str
    tables: dict[str, pd.DataFrame]
    markdown: str
    cells: pd.DataFrame
    config: Config

    @property
    def main(self) -> pd.DataFrame:
        return next(iter(self.tables.values()))

    def write(self, out) -> list[Path]:
        """Write the CSV files, the markdown and the configuration into ``out``."""
        out = Path(out)
        out.mkdir(parents=True, exist_ok=True)
        written = []
        for i, (tab, frame) in enumerate(self.tables.items()):
            path = out / (f"{self.name}.csv" if i == 0 else f"{self.name}_{tab}.csv")
            frame.to_csv(path, index=False, float_format="%.6g")
            written.append(path)
        path = out / f"{self.name}_cells.csv"
        self.cells.to_csv(path, index=False, float_format="%.12g")
        written.append(path)
        path = out / f"{self.name}.md"
        path.write_text(self.markdown)
        written.append(path)
        path = out / f"{self.name}_config.json"
        path.write_text(json.dumps(self.config.to_json(), indent=1, default=repr) + "\n")
        written.append(path)
        return written


@dataclass(frozen=True)
class Experiment:
    """A reproducible comparison from a paper.

    Attributes
    ----------
    name : str
        Command-line name (``table2``).
    title : str
    paper : str
        Which paper and which table or figure, by title (``""`` for the lab's own
        experiments, beyond the papers).
    methods : tuple of str
        Default methods.
    tasks : tuple of str
        Default tasks.
    options : mapping
        Default options.
    plan : callable
        ``plan(config) -> list[Cell]``.
    summarize : callable
        ``summarize(cells_frame, config) -> (tables, markdown)``.
    figures : callable
        ``figures(result) -> list[plotly Figure]``.
    serial : bool
        Whether cells must run one at a time (timings).
    compute : callable or None
        ``compute(cell) -> dict``, a module-level function computing one cell; ``None``
        uses :func:`~lab.experiments._cells.compute_cell` (one fit on a bundled task).
        Experiments on generated data or with constraints bring their own.
    """

    name: str
    title: str
    paper: str
    methods: tuple[str, ...]
    tasks: tuple[str, ...]
    options: Mapping[str, Any]
    plan: Callable[[Config], list[Cell]]
    summarize: Callable[[pd.DataFrame, Config], tuple[dict[str, pd.DataFrame], str]]
    figures: Callable[[ExperimentResult], list[Any]]
    serial: bool = False
    compute: Callable[[Cell], dict[str, Any]] | None = None

    def configure(
        self,
        methods: Sequence[str] | None = None,
        tasks: Sequence[str] | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> Config:
        """Resolve defaults, check which methods can run and record the machine."""
        wanted = list(methods) if methods else list(self.methods)
        unknown = [o for o in (options or {}) if o not in self.options]
        if unknown:
            raise ValueError(
                f"Unknown option(s) {', '.join(unknown)} for {self.name}; "
                f"it accepts: {', '.join(self.options) or 'none'}."
            )
        skipped = {}
        runnable = []
        for entry in wanted:
            # "a|b": the first of the alternatives that can run (e.g. whichever linear MMC).
            reasons = {}
            for name in entry.split("|"):
                reason = _methods.available(name)
                if reason is None:
                    runnable.append(name)
                    break
                reasons[name] = reason
            else:
                skipped[entry] = " ".join(reasons.values())
        merged = {**self.options, **(options or {})}
        merged = json.loads(json.dumps(merged, default=list))
        return Config(
            methods=runnable,
            tasks=expand_tasks(tasks if tasks else self.tasks),
            options=merged,
            skipped=skipped,
            machine=machine_info(),
        )

    def build(self, frame: pd.DataFrame, config: Config) -> ExperimentResult:
        tables, markdown = self.summarize(frame, config)
        return ExperimentResult(self.name, self.title, tables, markdown, frame, config)


def expand_tasks(tasks: Sequence[str]) -> list[str]:
    """Task names with ``"source:*"`` expanded to all pairs of that source (in order).

    Examples
    --------
    >>> expand_tasks(["breast", "digits:*"])[:3]
    ['breast', 'digits:0v1', 'digits:0v2']
    """
    out: list[str] = []
    for task in tasks:
        task = task.strip()
        if task.endswith(":*"):
            import datasets

            out.extend(datasets.pairs(task[:-2]))
        elif task:
            out.append(task)
    return list(dict.fromkeys(out))


def cells_frame(records: Sequence[tuple[Cell, Mapping[str, Any]]]) -> pd.DataFrame:
    """One row per cell: its fields, its parameters as JSON and its result's scalars."""
    rows = []
    optional = [c for c in _OPTIONAL_COLUMNS if any(c in result for _, result in records)]
    for cell, result in records:
        row: dict[str, Any] = {
            "method": cell.method,
            "task": cell.task,
            "params": json.dumps(cell.param_dict, sort_keys=True),
            "scale_feature": -1 if cell.scale_feature is None else int(cell.scale_feature),
            "scale_factor": float(cell.scale_factor),
            "seed": int(cell.seed),
            "timing_repeats": int(cell.timing_repeats),
        }
        for column in (*_CELL_COLUMNS, *optional):
            row[column] = result.get(column)
        rows.append(row)
    frame = pd.DataFrame(rows)
    if frame.empty:
        frame = pd.DataFrame(
            columns=[
                "method",
                "task",
                "params",
                "scale_feature",
                "scale_factor",
                "seed",
                "timing_repeats",
                *_CELL_COLUMNS,
            ]
        )
    for column in (
        "accuracy",
        "nmi",
        "rand",
        "f_measure",
        "msp",
        "msp_own",
        "seconds",
        "partition_distance",
    ):
        frame[column] = pd.to_numeric(frame[column], errors="coerce")
    return frame


def load_result(experiment: Experiment, directory) -> ExperimentResult | None:
    """Rebuild a stored result from ``directory``; ``None`` when it has none."""
    directory = Path(directory)
    cells_path = directory / f"{experiment.name}_cells.csv"
    config_path = directory / f"{experiment.name}_config.json"
    if not cells_path.is_file() or not config_path.is_file():
        return None
    frame = pd.read_csv(cells_path, keep_default_na=True)
    frame["error"] = frame["error"].astype(object).where(frame["error"].notna(), None)
    config = Config.from_json(json.loads(config_path.read_text()))
    return experiment.build(frame, config)


def machine_info() -> dict[str, Any]:
    """CPU model, core count, Python, numpy and its BLAS, with the thread pools in use."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    info: dict[str, Any] = {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "os": platform.platform(),
        "python": platform.python_version(),
        "numpy": np.__version__,
    }
    try:
        info["load_average"] = round(os.getloadavg()[0], 2)
    except (AttributeError, OSError):
        pass
    try:
        config = np.show_config(mode="dicts")
        blas = config["Build Dependencies"]["blas"]
        info["blas"] = f"{blas.get('name')} {blas.get('version')}"
    except Exception:
        info["blas"] = "unknown"
    try:
        from threadpoolctl import threadpool_info

        info["blas_threads"] = max(
            (p.get("num_threads", 1) for p in threadpool_info() if p.get("user_api") == "blas"),
            default=None,
        )
    except Exception:
        info["blas_threads"] = None
    import sklearn

    info["scikit-learn"] = sklearn.__version__
    return info


def _fmt(value: Any, digits: int) -> str:
    if value is None or (isinstance(value, float) and not np.isfinite(value)):
        return "–"
    if isinstance(value, (float, np.floating)):
        return f"{value:.{digits}f}"
    return str(value)


def markdown_table(frame: pd.DataFrame, digits: int = 2) -> str:
    """A GitHub markdown table (no extra dependency), floats with ``digits`` decimals."""
    if frame.empty:
        return "_(no rows)_\n"
    header = "| " + " | ".join(str(c) for c in frame.columns) + " |"
    rule = "|" + "|".join("---" for _ in frame.columns) + "|"
    lines = [header, rule]
    for row in frame.itertuples(index=False):
        cells = []
        for v in row:
            if isinstance(v, float) and np.isnan(v):
                cells.append("–")
            else:
                cells.append(_fmt(v, digits))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def skipped_markdown(config: Config) -> str:
    if not config.skipped:
        return ""
    lines = ["", "Methods not run:", ""]
    lines += [f"- `{m}`: {reason}" for m, reason in config.skipped.items()]
    return "\n".join(lines) + "\n"


def excluded_cells(config: Config) -> set[str]:
    """The ``"method@task"`` pairs an experiment's ``exclude`` option keeps from running."""
    return set(config.options.get("exclude") or ())


def excluded_markdown(config: Config) -> str:
    excluded = config.options.get("exclude") or ()
    if not excluded:
        return ""
    reason = config.options.get("exclude_reason") or "no reason given"
    cells = ", ".join(f"`{e}`" for e in excluded)
    return f"\nCells not run (excluded with the `exclude` option: {reason}): {cells}.\n"


def failures_markdown(frame: pd.DataFrame) -> str:
    bad = frame[frame["status"].isin(["failed", "skipped"])]
    if bad.empty:
        return ""
    grouped = bad.groupby(["method", "task", "status"], sort=False)["error"].agg(
        lambda s: s.dropna().iloc[0] if s.notna().any() else ""
    )
    counts = bad.groupby(["method", "task", "status"], sort=False).size()
    lines = ["", "Cells that did not produce a result:", ""]
    for (method, task, status), message in grouped.items():
        n = counts[(method, task, status)]
        lines.append(f"- `{method}` on `{task}`: {n} cell(s) {status} — {str(message)[:300]}")
    return "\n".join(lines) + "\n"
