"""The Home page's demos: their numbers and captions, cached, and the buttons' setups.

The numbers and captions come from :mod:`lab.demos` (each caption is decided by
the numbers beside it), at the lab's one λ and Λ (:func:`msp_scale`, the sidebar's),
computed once per server for every student (:func:`ui.shared.shared`, out of reach of a
client's clear-cache); every fit goes through :func:`ui.cache.fit_on`, so the pages the
demos open show the same fits and MSPs without recomputing them. :func:`open_afs_trap`,
:func:`open_breast` and :func:`open_tasks` set the session up through :mod:`ui.state` (the
settings the demo ran with) and switch page.
"""

from __future__ import annotations

import streamlit as st

from clustering import ALGORITHMS
from clustering._lam import effective_lam
from lab import demos
from lab.animation import PRESETS

from . import cache, state
from .analysis import RUN_ONCE
from .shared import shared

__all__ = [
    "AFS_CHOICE",
    "BREAST_CHOICE",
    "afs_preset_factors",
    "afs_story",
    "afs_table",
    "breast_story",
    "family_labels",
    "msp_scale",
    "open_afs_trap",
    "open_breast",
    "open_tasks",
    "tasks_story",
]

AFS_CHOICE = state.DataChoice.make("synthetic", "afs_trap", {}, normalize=False)
BREAST_CHOICE = state.DataChoice.make("bundled", "breast", None, True)


def msp_scale() -> tuple[float, str]:
    """The lab's one λ and Λ (the sidebar's): every demo's methods and MSPs use them."""
    lam, regularizer = state.get_lam(), state.get_regularizer()
    return effective_lam(lam, regularizer), regularizer


@shared(max_entries=16)
def _afs_story(lam: float, regularizer: str) -> demos.DemoStory:
    return demos.afs_trap_story(
        cache.load_choice(AFS_CHOICE), lam=lam, regularizer=regularizer, fit=cache.fit_on
    )


def afs_story() -> demos.DemoStory:
    """:func:`lab.demos.afs_trap_story` on the data the AFS-trap button opens, at the lab's
    λ and Λ."""
    return _afs_story(*msp_scale())


@shared(max_entries=16)
def _breast_story(lam: float, regularizer: str) -> demos.DemoStory:
    return demos.breast_story(
        cache.load_choice(BREAST_CHOICE), lam=lam, regularizer=regularizer, fit=cache.fit_on
    )


def breast_story() -> demos.DemoStory:
    """:func:`lab.demos.breast_story` on the data the breast button opens, at the lab's λ
    and Λ."""
    return _breast_story(*msp_scale())


@shared(max_entries=16)
def _tasks_story(lam: float, regularizer: str) -> demos.DemoStory:
    from .analysis import family_tasks

    # The parameters as MSP vs accuracy passes them (every UI parameter, defaults included),
    # so the page finds these fits in the cache.
    params = ALGORITHMS["mspc-mpm"].defaults()
    return demos.tasks_story(
        params=params, lam=lam, regularizer=regularizer, fit=cache.fit_on, load=family_tasks
    )


def tasks_story() -> demos.DemoStory:
    """:func:`lab.demos.tasks_story` (the MSP vs accuracy page's default view), at the lab's
    λ and Λ."""
    return _tasks_story(*msp_scale())


def afs_preset_factors(preset: str, feature_names) -> dict[int, float]:
    """The scaling factors a preset of :data:`lab.animation.PRESETS` leaves set:
    its fixed factors and its swept feature at the demo's value (``break``: noise ×10;
    ``rescue``: noise ×10 and signal ×10, :data:`lab.demos.AFS_RESCUE`)."""
    names = list(feature_names)
    chosen = demos.AFS_BREAK if preset == "break" else demos.AFS_RESCUE
    PRESETS[preset].indices(names)  # a clear error when the data lack its features
    return {names.index(k): float(v) for k, v in chosen.items()}


def open_afs_trap() -> None:
    """Set up Feature scaling on the AFS trap with the "break k-means" preset and the demo's
    methods (the lab's MSPC as it runs by default; λ and Λ stay the lab's), and go."""
    state.set_data_choice(AFS_CHOICE, chosen=True)
    state.set_algorithms(["kmeans", "mspc-mpm"])
    state.set_algorithm_params("mspc-mpm", {})
    state.set_view("features:0,1")
    names = cache.load_choice(AFS_CHOICE).feature_names
    state.set_scaling_factors(afs_preset_factors("break", names))
    state.set_scaling_preset("break")
    st.switch_page("pages/3_Feature_scaling.py")


def open_breast() -> None:
    """Set up the Cluster page with the breast demo's methods (the lab's MSPC as it runs by
    default; λ and Λ stay the lab's), and go."""
    state.set_data_choice(BREAST_CHOICE, chosen=True)
    state.set_algorithms(list(dict.fromkeys(k for k, _ in demos.breast_methods().values())))
    state.set_algorithm_params("mspc-mpm", {})
    state.set_view("discriminant")
    state.set_widget("cluster.autorun", True)
    st.switch_page("pages/2_Cluster.py")


def open_tasks() -> None:
    """Open MSP vs accuracy on the experiment the tasks demo shows (the paper's Figs. 2-3
    with MSPC (MPM), its default start and search, at the lab's λ and Λ), and run it."""
    state.set_algorithm_params("mspc-mpm", {})
    state.set_url_value("fam", "tasks")
    state.set_url_value("method", "mspc-mpm")
    state.set_widget("mva.family", "tasks")
    state.set_widget("mva.method", "mspc-mpm")
    state.set_widget(RUN_ONCE, True)  # computed on arrival, as if its button were pressed
    st.switch_page("pages/4_MSP_vs_accuracy.py")


def family_labels(summary) -> list[str]:
    """The tasks demo's family names with their number of tasks: ``"UCI tasks (7)"``."""
    return [f"{f} ({n})" for f, n in zip(summary["family"], summary["tasks"], strict=True)]


#: The AFS story's conditions as the Home table names them (rows, in this order).
AFS_CONDITIONS = {"x1": "×1", "break": "noise ×10", "rescue": "+ signal ×10"}


def afs_table(story: demos.DemoStory):
    """The AFS story's accuracies as shown on Home: one row per condition (×1, the break,
    the rescue), one column per method (the story's method names). Made once per story
    object (a shared :func:`afs_story` is one object for the whole class); do not change
    it."""
    made = _AFS_TABLES.get(id(story))
    if made is not None and made[0] is story:
        return made[1]
    table = _afs_table(story)
    if len(_AFS_TABLES) >= 16:  # one per λ and Λ in use: the memo stays small
        _AFS_TABLES.clear()
    _AFS_TABLES[id(story)] = (story, table)
    return table


_AFS_TABLES: dict[int, tuple[demos.DemoStory, object]] = {}


def _afs_table(story: demos.DemoStory):
    t = story.table
    out = t.pivot(index="condition", columns="method", values="accuracy")
    out = out.reindex(index=list(AFS_CONDITIONS), columns=list(dict.fromkeys(t["method"])))
    out.index = [AFS_CONDITIONS[c] for c in out.index]
    out.columns.name = None
    return out.rename_axis("rescaling").reset_index()
