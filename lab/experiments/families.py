"""The MSPC paper's Figs. 2-3 as the lab shows them: MSPC's MSP against its accuracy, task by
task, in the paper's three families of tasks, each family's r beside the paper's.

* :data:`PAPER_FAMILIES` -- the families: the UCI tasks of Table 2 (the paper adds three
  MNIST tasks, not bundled: its r = 0.72 is over 10 tasks), the pairs of satimage's classes
  (the paper's 21 Satellite pairs; the public copy has 6 classes, hence 15 pairs) and the 45
  pairs of scikit-learn's 8x8 digits (the paper's USPS pairs are 16x16, not bundled).
* :func:`families_table` -- one row per task: the family, both MSPs and the accuracy of one
  method, every fit through one evaluator (the app passes its cached one).
* :func:`families_summary` -- per family: the number of tasks, both r, the paper's r and the
  pairs of tasks in which the higher MSP has the higher accuracy.

Pure Python; never imports streamlit. The stored experiment of the same figures (with λ chosen
per task) is :mod:`lab.experiments.msp_accuracy`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

import pandas as pd

from lab import verdicts
from lab.experiments._paper import PEARSON_R
from lab.experiments._stats import SCORES
from lab.experiments.evaluator import Evaluator, Progress, report
from lab.experiments.protocols import load_tasks, msp_accuracy_family

__all__ = ["PAPER_FAMILIES", "Family", "families_summary", "families_table", "families_verdict"]


class Family(NamedTuple):
    """A family of tasks of the paper's Figs. 2-3: ``key`` (``"uci"``, ...), ``label`` (the
    screen's name, plural: "UCI tasks"), ``tasks`` (bundled names), ``paper_r`` (the paper's
    Pearson r) and ``paper_tasks`` (what the paper's r is over)."""

    key: str
    label: str
    tasks: tuple[str, ...]
    paper_r: float
    paper_tasks: str


def _families() -> tuple[Family, ...]:
    import datasets

    return (
        Family(
            "uci",
            "UCI tasks",
            tuple(datasets.UCI_TASKS),
            PEARSON_R["uci"],
            "its 10 Table 2 tasks: these 7 and 3 MNIST pairs",
        ),
        Family(
            "satimage",
            "satimage pairs",
            tuple(datasets.pairs("satimage")),
            PEARSON_R["satimage"],
            "21 pairs of the 7-class Satellite data",
        ),
        Family(
            "digits",
            "digits pairs",
            tuple(datasets.pairs("digits")),
            PEARSON_R["digits"],
            "the 45 pairs of USPS (16x16 digits)",
        ),
    )


#: The paper's three families of tasks, in the paper's order.
PAPER_FAMILIES: tuple[Family, ...] = _families()


def families_table(
    key: str,
    params: Mapping[str, Any] | None = None,
    progress: Progress = None,
    *,
    families: Sequence[Family] = PAPER_FAMILIES,
    msp_lam: float | None = None,
    msp_regularizer: str | None = None,
    load: Callable[[Sequence[str]], list] = load_tasks,
    evaluator: Evaluator | None = None,
) -> pd.DataFrame:
    """One row per task of every family: :func:`msp_accuracy_family` with a ``group``
    (the family's key) and ``family`` (its label) column.

    ``load`` turns task names into ``(name, X, y)`` (default :func:`load_tasks`, features
    scaled to [-1, 1] as in the paper); the app passes its cached loader.
    """
    total = sum(len(f.tasks) for f in families) or 1
    done = 0
    frames = []
    for family in families:

        def inner(
            fraction: float, message: str, start=done, size=len(family.tasks), label=family.label
        ) -> None:
            report(progress, (start + fraction * size) / total, f"{label}: {message}")

        table = msp_accuracy_family(
            load(family.tasks),
            key,
            params,
            inner,
            msp_lam=msp_lam,
            msp_regularizer=msp_regularizer,
            evaluator=evaluator,
        )
        frames.append(table.assign(group=family.key, family=family.label))
        done += len(family.tasks)
    report(progress, 1.0, "done")
    return pd.concat(frames, ignore_index=True)


def families_summary(
    table: pd.DataFrame, families: Sequence[Family] = PAPER_FAMILIES
) -> pd.DataFrame:
    """Per family: ``family``, ``tasks`` (scored tasks), ``r_heldout``, ``r_in_sample``,
    ``paper_r``, ``pairs_agree`` and ``pairs`` (of the pairs of tasks with different
    held-out MSPs, those whose higher held-out MSP has the higher accuracy)."""
    rows = []
    for family in families:
        sub = table[(table["group"] == family.key) & (table["error"] == "")]
        r_ho, n = verdicts.pearson(sub["msp_heldout"], sub["accuracy"])
        r_in, _ = verdicts.pearson(sub["msp"], sub["accuracy"])
        agree, _against, pairs = verdicts.pair_counts(sub["msp_heldout"], sub["accuracy"])
        rows.append(
            {
                "family": family.label,
                "tasks": n,
                "r_heldout": r_ho,
                "r_in_sample": r_in,
                "paper_r": family.paper_r,
                "pairs_agree": agree,
                "pairs": pairs,
            }
        )
    return pd.DataFrame(rows)


def families_verdict(
    table: pd.DataFrame, score: str = "msp_heldout", families: Sequence[Family] = PAPER_FAMILIES
) -> verdicts.Verdict:
    """:func:`lab.verdicts.families` over the families of ``table``, by ``score``."""
    rows = []
    for family in families:
        sub = table[(table["group"] == family.key) & (table["error"] == "")]
        if len(sub):
            rows.append((family.label, sub[score], sub["accuracy"], family.paper_r))
    return verdicts.families(rows, score_name=SCORES[score])
