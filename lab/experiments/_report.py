"""Build ``REPRODUCTION.md`` from stored experiment results (no computation).

The hand-written text (the introduction, what is known about each table's gaps, the
sections beyond the papers) lives in Markdown files in ``lab/experiments/notes/``; this
module only puts it together with the tables the experiments build from their stored cells.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from lab.experiments._base import ExperimentResult, markdown_table
from lab.experiments._coverage import coverage_markdown

__all__ = ["NOTES_DIR", "build_report", "gap_summary", "note"]

#: The hand-written Markdown the report reads.
NOTES_DIR = Path(__file__).with_name("notes")

#: Where the generated tables of the lam choices on the Table 2 tasks go in
#: ``beyond-heldout.md`` (:func:`lab.experiments.table2.lam_choice_markdown`).
LAM_TABLES = "<!-- table2: lam choices -->"

REPORT_COMMAND = "python -m lab.experiments report"
RUN_COMMAND = (
    "python -m lab.experiments all --out lab/experiments/published --cache results/cache --jobs 2"
)


def gap_summary(result: ExperimentResult) -> pd.DataFrame:
    """Per method: cells with a published value, median, mean and largest ours − paper.

    Works on every table with ``<method>`` and ``paper_<method>`` columns (table2, table3
    relative, mmc-digits per measure).
    """
    rows = []
    for table_name, table in result.tables.items():
        if "task" not in table:
            continue
        for column in table.columns:
            paper_col = f"paper_{column}"
            if column == "task" or column.startswith("paper_") or paper_col not in table:
                continue
            both = table[["task", column, paper_col]].dropna()
            if both.empty:
                continue
            gap = both[column] - both[paper_col]
            worst = int(np.argmax(np.abs(gap.to_numpy())))
            rows.append(
                {
                    "table": table_name,
                    "method": column,
                    "cells": len(both),
                    "median abs gap": float(np.abs(gap).median()),
                    "mean abs gap": float(np.abs(gap).mean()),
                    "largest gap": float(gap.iloc[worst]),
                    "at task": both["task"].iloc[worst],
                }
            )
    return pd.DataFrame(rows)


def note(name: str) -> str:
    """The text of ``notes/<name>.md``, stripped; ``""`` when there is no such file."""
    path = NOTES_DIR / f"{name}.md"
    return path.read_text(encoding="utf-8").strip() if path.is_file() else ""


def build_report(results: dict[str, ExperimentResult | None], source_dir: Path) -> str:
    """The full markdown of ``REPRODUCTION.md``."""
    parts = [
        "# Reproducing the papers",
        "",
        note("intro"),
        "",
        "Regenerate this file from the stored results (seconds, no computation):",
        "",
        "```bash",
        REPORT_COMMAND,
        "```",
        "",
        "Re-run every experiment (cells already cached are not recomputed; hours on 2 cores):",
        "",
        "```bash",
        RUN_COMMAND,
        REPORT_COMMAND,
        "```",
        "",
        f"Stored results: `{source_dir}` (one CSV and markdown file per table, the per-cell "
        "results they derive from, and the configuration with the machine).",
        "",
    ]
    machine = next((r.config.machine for r in results.values() if r is not None), None)
    if machine:
        parts += [
            f"Machine of the stored run: {machine.get('cpu')}, {machine.get('cores')} cores, "
            f"Python {machine.get('python')}, numpy {machine.get('numpy')} "
            f"({machine.get('blas')}), scikit-learn {machine.get('scikit-learn')}.",
            "",
        ]
    parts += [coverage_markdown(results), ""]
    for name, result in results.items():
        if result is None:
            parts += [f"## {name}", "", "_Not run yet: no stored result._", ""]
            continue
        section = result.markdown.strip()
        parts += [section, ""]
        gaps = gap_summary(result)
        if not gaps.empty and name != "table3":
            parts += ["Gap summary (ours − paper):", "", markdown_table(gaps, digits=3), ""]
        gap_notes = note(f"gaps-{name}")
        if gap_notes:
            parts += ["What we know about the gaps:", "", gap_notes, ""]
    from lab.experiments.table2 import lam_choice_markdown

    lam_tables = lam_choice_markdown(results.get("table2")).strip()
    parts += [note("beyond-heldout").replace(LAM_TABLES, lam_tables), ""]
    return "\n".join(parts).rstrip() + "\n"
