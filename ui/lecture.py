"""The Lecture: the lab's lessons in the order a lecturer presents them.

Each step is a lesson page opened with the settings its lesson needs: one screen (the
page's lesson, :mod:`ui.lesson`) and one link a student can open (the page's URL with the
settings and ``step=N``, decoded like any link by :mod:`ui.url`). The step's page draws the
Lecture's Previous / Next beside its title (:func:`nav`, called by
:func:`ui.lesson.header`). Nothing is computed here: a step is the page's own lesson.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import streamlit as st

from . import state
from .model import DEFAULT_VIEW, LECTURE_STEPS

__all__ = ["LECTURE_PAGE", "STEPS", "Step", "go", "nav", "step_here", "step_url"]

#: The Lecture's own page: the list of steps and where the walk starts and ends.
LECTURE_PAGE = "pages/8_Lecture.py"

#: Settings every step states, so a step opened after another does not keep that one's
#: (a rescaling, the number of clusters, the 2-D view, the figure Cluster shows).
_CLEAN = {"scale": "", "k": "2", "view": DEFAULT_VIEW}


@dataclass(frozen=True)
class Step:
    """One step: its ``title``, the ``question`` its lesson answers (shown on the Lecture
    page), the lesson page's file, the settings it opens with (``link``: a link's query,
    decoded by :func:`ui.url.decode`) and the page's own parameters (``values``: ``show``,
    ``topic``)."""

    title: str
    question: str
    page: str
    link: Mapping[str, str] = field(default_factory=dict)
    values: Mapping[str, str] = field(default_factory=dict)

    @property
    def url_path(self) -> str:
        """The page's URL path (``pages/2_Cluster.py`` -> ``Cluster``)."""
        return Path(self.page).stem.split("_", 1)[-1]

    def query(self, number: int) -> dict[str, str]:
        """The step's link parameters, ``step=number`` included."""
        return {**_CLEAN, **self.link, **self.values, "step": str(number)}


STEPS: tuple[Step, ...] = (
    Step(
        "The AFS trap",
        "Measure one feature in other units (noise ×10): who changes its answer?",
        "pages/3_Feature_scaling.py",
        {
            "data": "synthetic:afs_trap",
            "algos": "mspc-mpm,kmeans",
            "ap": "mspc-mpm.init=kmeans-standardized",
            "scale": "1:10",
            "view": "features:0,1",
        },
    ),
    Step(
        "The MPM and its bound",
        "On two Gaussian clouds in 2-D: how sure is the MPM that each lands on its side?",
        "pages/5_Learn.py",
        {"data": "synthetic:two_gaussians"},
        {"topic": "mpm"},
    ),
    Step(
        "MSP and accuracy",
        "Over many tasks, does a higher MSP come with a higher accuracy (the paper's Fig. 2–3)?",
        "pages/4_MSP_vs_accuracy.py",
        # The view across tasks with MSPC (MPM) scored by the held-out MSP, whatever view,
        # method or axis the page showed before.
        values={"fam": "tasks", "method": "mspc-mpm", "axis": "msp_heldout"},
    ),
    Step(
        "In sample or held out",
        "Random splits of digits know nothing of the classes: which MSP sees through them?",
        "pages/5_Learn.py",
        values={"topic": "heldout"},
    ),
    Step(
        "MSPC against the baselines",
        "On breast cancer: which method does the held-out MSP pick, and is it the most accurate?",
        "pages/2_Cluster.py",
        {"data": "breast", "algos": "mspc-mpm,mspc-eig,kmeans,spectral"},
        {"show": "clusters"},
    ),
    Step(
        "Margins and Theorem 5",
        "What share of each cluster does a high MSP promise beyond a margin ρ/2?",
        "pages/2_Cluster.py",
        {"data": "breast", "algos": "mspc-mpm,kmeans", "rho": "0.5"},
        {"show": "margins"},
    ),
    Step(
        "More than two clusters",
        "Wine has three classes: MSPC with k = 3 against k-means (choosing k: 'How many "
        "clusters?' under the figure).",
        "pages/2_Cluster.py",
        {"data": "wine", "algos": "mspc-mpm,kmeans", "k": "3"},
        {"show": "clusters"},
    ),
)
assert len(STEPS) == LECTURE_STEPS, "ui.model.LECTURE_STEPS counts the steps"


def step_url(number: int) -> str:
    """The step's link (a path and query, relative to the lab's address)."""
    step = STEPS[number - 1]
    return f"{step.url_path}?{urlencode(step.query(number))}"


def go(number: int) -> None:
    """Open step ``number`` (1 to ``LECTURE_STEPS``; 0 or past the last: the Lecture's own
    page): apply its settings, then switch to its page with them in the link."""
    if not 1 <= number <= len(STEPS):
        state.set_lecture_step(0)
        st.switch_page(LECTURE_PAGE)
        return
    step = STEPS[number - 1]
    query = step.query(number)
    state.open_link({k: v for k, v in query.items() if k not in step.values}, step.url_path)
    for name, value in step.values.items():
        state.set_url_value(name, value)
    st.switch_page(step.page, query_params=query)


def step_here() -> int:
    """The Lecture's step shown on this page (0: none, or a link naming a step of another
    page)."""
    number = state.lecture_step_here()
    if number and STEPS[number - 1].url_path != state.get(state.KEYS.PAGE):
        return 0
    return number


def nav(where: Any) -> None:
    """The Lecture's Previous / Next and the step's number, in the container ``where``
    (beside a lesson's title), when this page shows a step."""
    number = step_here()
    if not number:
        return
    count, back, forward = where.columns([1, 1, 1], vertical_alignment="center")
    count.markdown(f"**{number} / {len(STEPS)}**", help=STEPS[number - 1].title)
    if back.button(
        str(number - 1) if number > 1 else "All",
        icon=":material/arrow_back:",
        key="lecture.previous",
        width="stretch",
        help="The previous step of the Lecture" if number > 1 else "The Lecture's steps",
    ):
        go(number - 1)
    if forward.button(
        str(number + 1) if number < len(STEPS) else "All",
        icon=":material/arrow_forward:",
        key="lecture.next",
        type="primary",
        width="stretch",
        help="The next step of the Lecture" if number < len(STEPS) else "The Lecture's steps",
    ):
        go(number + 1)
