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
from lab.experiments._coverage import coverage_frame

__all__ = ["NOTES_DIR", "PARTS", "build_report", "demote", "gap_summary", "note", "wrap_prose"]

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


#: The parts of the report, one per paper plus the lab's own measurements: its heading, the
#: note introducing it (``notes/part-<name>.md``), the papers' short names in the coverage
#: table and the experiments it shows, in order. An experiment not named here is shown in
#: the last part.
PARTS: tuple[tuple[str, str, tuple[str, ...], tuple[str, ...]], ...] = (
    ("The MSPC paper", "mspc", ("MSPC",), ("table2", "table3", "afs", "msp-accuracy")),
    ("The MMC paper (multivariate loss)", "mmc", ("MMC multivariate loss",), ("mmc-digits",)),
    ("The DIFFRAC paper", "diffrac", ("DIFFRAC",), ("diffrac-fig1", "diffrac-table1")),
    ("The MVC paper", "mvc", ("MVC",), ("mvc-fig2",)),
    ("The 3SMIC paper", "smic", ("3SMIC",), ()),
    ("Beyond the papers", "beyond", (), ("multiclass",)),
)

#: Prose is wrapped to this width; tables, code and headings are left as they are.
WIDTH = 92


def slug(heading: str) -> str:
    """The anchor GitHub gives a Markdown heading."""
    kept = "".join(c for c in heading.lower() if c.isalnum() or c in " -_")
    return kept.replace(" ", "-")


def _is_prose(line: str) -> bool:
    stripped = line.lstrip()
    return bool(stripped) and not stripped.startswith(("|", "#", "<!--", "```"))


def _starts_a_block(word: str) -> bool:
    """Whether a line starting with ``word`` would begin a list, heading, table or quote."""
    head = word.split(".", 1)[0].split(")", 1)[0]
    return word[:1] in "-+*#|>=" or (head.isdigit() and word != head)


def wrap(line: str, width: int = WIDTH) -> list[str]:
    """One line of prose as lines of at most ``width`` characters (longer only for a
    single word), indented like a list item's continuation when it is one; a break never
    puts a word that would start a Markdown block at the start of a line."""
    indent = len(line) - len(line.lstrip())
    words = line.split()
    first = words[0] if words else ""
    hang = indent + (len(first) + 1 if first in ("-", "*", "+") or first[:-1].isdigit() else 0)
    lines, current = [], " " * indent + first
    for word in words[1:]:
        if len(current) + 1 + len(word) <= width:
            current += " " + word
        elif not _starts_a_block(word):
            lines.append(current)
            current = " " * hang + word
        else:  # the word cannot open a line: break before the word in front of it
            head, _, last = current.rpartition(" ")
            if head.strip() and not _starts_a_block(last):
                lines.append(head)
                current = " " * hang + last + " " + word
            else:
                current += " " + word
    return [*lines, current]


def wrap_prose(markdown: str, width: int = WIDTH) -> str:
    """``markdown`` with every prose line longer than ``width`` wrapped (outside code)."""
    out, in_code = [], False
    for line in markdown.splitlines():
        if line.lstrip().startswith("```"):
            in_code = not in_code
        if in_code or len(line) <= width or not _is_prose(line):
            out.append(line)
        else:
            out.extend(wrap(line, width))
    return "\n".join(out)


def demote(markdown: str) -> str:
    """``markdown`` with every heading one level lower (``##`` -> ``###``), outside code."""
    out, in_code = [], False
    for line in markdown.splitlines():
        if line.startswith("```"):
            in_code = not in_code
        out.append("#" + line if not in_code and line.startswith("#") else line)
    return "\n".join(out)


def _coverage_list(frame: pd.DataFrame, papers: tuple[str, ...]) -> list[str]:
    rows = frame[frame["paper"].isin(papers)]
    lines = []
    for row in rows.itertuples():
        where = f", {row.experiment}" if row.experiment else ""
        lines.append(f"- **{row.item}** ({row.status}{where}): {row.how}")
    return lines


def _experiment_section(name: str, result: ExperimentResult | None) -> list[str]:
    if result is None:
        return [f"### {name}", "", "_Not run yet: no stored result._", ""]
    parts = [demote(result.markdown.strip()), ""]
    gaps = gap_summary(result)
    if not gaps.empty and name != "table3":
        parts += ["Gap summary (ours − paper):", "", markdown_table(gaps, digits=3), ""]
    gap_notes = note(f"gaps-{name}")
    if gap_notes:
        parts += ["What we know about the gaps:", "", gap_notes, ""]
    return parts


def build_report(results: dict[str, ExperimentResult | None], source_dir: Path) -> str:
    """The full markdown of ``REPRODUCTION.md``: an introduction, then one part per paper
    and one beyond the papers, each opening with what it reproduces and how."""
    listed = {name for *_, names in PARTS for name in names}
    unlisted = tuple(name for name in results if name not in listed)
    headings = [f"Part {i}: {title}" for i, (title, *_) in enumerate(PARTS, start=1)]
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
    coverage = coverage_frame(results)
    counts = ", ".join(f"{s}: {n}" for s, n in coverage["status"].value_counts().items())
    parts += [
        f"Every table and figure of the five papers is listed at the start of its paper's part "
        f"({len(coverage)} in all; {counts}). The parts:",
        "",
        *(f"- [{heading}](#{slug(heading)})" for heading in headings),
        "",
    ]
    for heading, (_, key, papers, names) in zip(headings, PARTS, strict=True):
        parts += [f"## {heading}", "", note(f"part-{key}"), ""]
        covered = _coverage_list(coverage, papers)
        if covered:
            parts += ["What became of each of its tables and figures:", "", *covered, ""]
        if key == "beyond":
            names = names + unlisted
        for name in names:
            if name in results:
                parts += _experiment_section(name, results[name])
        if key == "beyond":
            from lab.experiments.table2 import lam_choice_markdown

            lam_tables = lam_choice_markdown(results.get("table2")).strip()
            parts += [note("beyond-heldout").replace(LAM_TABLES, lam_tables), ""]
    return wrap_prose("\n".join(parts)).rstrip() + "\n"
