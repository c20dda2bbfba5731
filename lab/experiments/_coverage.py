"""Every table and figure of the five papers and what became of it.

One row per table or figure, in the order of each paper, written as prose in
``notes/coverage.md``. ``status`` is one of :data:`STATUSES`; a row that names an
experiment is shown as reproduced only when that experiment has a stored result (otherwise
"not run yet"), so the report cannot claim more than the stored numbers show. The report
lists each paper's rows at the start of its part (:func:`coverage_frame`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

__all__ = ["COVERAGE", "STATUSES", "Item", "coverage_frame", "read_coverage"]

REPRODUCED = "reproduced"
SUBSTITUTE = "reproduced on a substitute"
OFFLINE = "not possible offline"
NOT_RUN = "not reproduced"
NO_NUMBERS = "nothing to measure"
STATUSES = (REPRODUCED, SUBSTITUTE, OFFLINE, NOT_RUN, NO_NUMBERS)


@dataclass(frozen=True)
class Item:
    """One table or figure of a paper.

    Attributes
    ----------
    paper : str
        Short name of the paper.
    item : str
        "Table 2", "Fig. 1", ...
    status : str
        One of :data:`STATUSES`.
    experiment : str or None
        The ``lab.experiments`` experiment that reproduces it.
    how : str
        Numbers and gaps (where), the substitute and why, or why it cannot be done offline.
    """

    paper: str
    item: str
    status: str
    experiment: str | None
    how: str


#: Where the items are written, as prose (one heading per item).
COVERAGE_FILE = Path(__file__).with_name("notes") / "coverage.md"


def read_coverage(path: Path = COVERAGE_FILE) -> tuple[Item, ...]:
    """The items of ``path``: a heading ``## paper · item``, the lines ``- status: ...`` and
    ``- experiment: ...`` (``none`` for no experiment), then how, as prose.

    Raises
    ------
    ValueError
        If an item lacks its status or experiment line, or its status is not one of
        :data:`STATUSES`.
    """
    text = re.sub(r"<!--.*?-->", "", path.read_text(encoding="utf-8"), flags=re.S)
    items = []
    for block in re.split(r"(?m)^## ", text)[1:]:
        heading, _, body = block.partition("\n")
        paper, _, item = heading.partition(" · ")
        fields = dict(re.findall(r"(?m)^- (status|experiment): *(.*)$", body))
        how = " ".join(
            line.strip() for line in body.splitlines() if line.strip() and not line.startswith("- ")
        )
        if set(fields) != {"status", "experiment"} or fields["status"] not in STATUSES:
            raise ValueError(f"{path.name}: the item {heading.strip()!r} needs a status of "
                             f"{STATUSES} and an experiment line (or 'none').")  # fmt: skip
        experiment = None if fields["experiment"] == "none" else fields["experiment"]
        items.append(Item(paper.strip(), item.strip(), fields["status"], experiment, how))
    return tuple(items)


COVERAGE: tuple[Item, ...] = read_coverage()


def coverage_frame(stored: dict[str, object]) -> pd.DataFrame:
    """The coverage rows; an item whose experiment has no stored result is "not run yet"."""
    rows = []
    for item in COVERAGE:
        status = item.status
        where = ""
        if item.experiment is not None:
            where = f"`{item.experiment}`"
            if stored.get(item.experiment) is None:
                status = "not run yet (no stored result)"
        rows.append(
            {
                "paper": item.paper,
                "item": item.item,
                "status": status,
                "experiment": where,
                "how": item.how,
            }
        )
    return pd.DataFrame(rows)
