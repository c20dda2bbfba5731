"""The Home page's demos: their numbers and captions, cached, and the buttons' setups.

The numbers and captions come from :mod:`lab.demos` (each caption is decided by
the numbers beside it), computed once per server for every student
(:func:`ui.shared.shared`, out of reach of a client's clear-cache); every fit goes through
:func:`ui.cache.fit_on`, so the pages the demos open show the same fits without
recomputing them. :func:`open_afs_trap`,
:func:`open_breast` and :func:`open_digits` set the session up through :mod:`ui.state`
and switch page.
"""

from __future__ import annotations

import streamlit as st

from lab import demos
from lab.animation import PRESETS

from . import cache, state
from .analysis import RUN_ONCE
from .shared import shared

__all__ = [
    "AFS_CHOICE",
    "BREAST_CHOICE",
    "DIGITS_CHOICE",
    "afs_preset_factors",
    "afs_story",
    "afs_table",
    "breast_story",
    "digits_story",
    "open_afs_trap",
    "open_breast",
    "open_digits",
]

AFS_CHOICE = state.DataChoice.make("synthetic", "afs_trap", {}, normalize=False)
BREAST_CHOICE = state.DataChoice.make("bundled", "breast", None, True)
DIGITS_CHOICE = state.DataChoice.make("bundled", "digits:3v8", None, True)


@shared(max_entries=1)
def afs_story() -> demos.DemoStory:
    """:func:`lab.demos.afs_trap_story` on the data the AFS-trap button opens."""
    return demos.afs_trap_story(cache.load_choice(AFS_CHOICE), fit=cache.fit_on)


@shared(max_entries=1)
def breast_story() -> demos.DemoStory:
    """:func:`lab.demos.breast_story` on the data the breast button opens."""
    return demos.breast_story(cache.load_choice(BREAST_CHOICE), fit=cache.fit_on)


@shared(max_entries=1)
def digits_story() -> demos.DemoStory:
    """:func:`lab.demos.digits_story` on the data the digits button opens."""
    return demos.digits_story(cache.load_choice(DIGITS_CHOICE), fit=cache.fit_on)


def afs_preset_factors(preset: str, feature_names) -> dict[int, float]:
    """The scaling factors a preset of :data:`lab.animation.PRESETS` leaves set:
    its fixed factors and its swept feature at the demo's value (``break``: noise ×10;
    ``rescue``: noise ×10 and signal ×10, :data:`lab.demos.AFS_RESCUE`)."""
    names = list(feature_names)
    chosen = demos.AFS_BREAK if preset == "break" else demos.AFS_RESCUE
    PRESETS[preset].indices(names)  # a clear error when the data lack its features
    return {names.index(k): float(v) for k, v in chosen.items()}


def open_afs_trap() -> None:
    """Set up Feature scaling on the AFS trap with the "break k-means" preset, and go."""
    mspc_params = dict(demos.AFS_METHODS)["MSPC (MPM), standardised start"][1]
    state.set_data_choice(AFS_CHOICE, chosen=True)
    state.set_algorithms(["kmeans", "mspc-mpm"])
    state.set_lam(mspc_params["lam"])
    state.set_regularizer(mspc_params["regularizer"])
    state.set_algorithm_params("mspc-mpm", {"init": mspc_params["init"]})
    state.set_view("features:0,1")
    names = cache.load_choice(AFS_CHOICE).feature_names
    state.set_scaling_factors(afs_preset_factors("break", names))
    state.set_scaling_preset("break")
    st.switch_page("pages/3_Feature_scaling.py")


def open_breast() -> None:
    """Set up the Cluster page with the breast demo's methods, and go."""
    mspc = dict(demos.BREAST_METHODS)["MSPC (MPM)"][1]
    state.set_data_choice(BREAST_CHOICE, chosen=True)
    state.set_algorithms(["kmeans", "mspc-mpm", "mspc-eig"])
    state.set_lam(mspc["lam"])
    state.set_regularizer(mspc["regularizer"])
    state.set_algorithm_params("mspc-mpm", {"init": mspc["init"]})
    state.set_view("discriminant")
    state.set_widget("cluster.autorun", True)
    st.switch_page("pages/2_Cluster.py")


def open_digits() -> None:
    """Open MSP vs accuracy on the experiment the digits demo shows, and run it: the λ-grid
    family of MSPC (MPM) with its default start and Λ = diag on digits 3 vs 8 (the page
    would otherwise open the digits pairs family for these data)."""
    state.set_data_choice(DIGITS_CHOICE, chosen=True)
    state.set_algorithms(["mspc-mpm"])
    state.set_regularizer("diag")
    state.set_algorithm_params("mspc-mpm", {})
    state.set_url_value("fam", "lam")
    state.set_url_value("method", "mspc-mpm")
    state.set_widget("mva.family", "lam")
    state.set_widget("mva.method", "mspc-mpm")
    state.set_widget(RUN_ONCE, True)  # computed on arrival, as if its button were pressed
    st.switch_page("pages/4_MSP_vs_accuracy.py")


#: The AFS story's conditions as the Home table names them (rows, in this order).
AFS_CONDITIONS = {"x1": "×1", "break": "noise ×10", "rescue": "+ signal ×10"}


def afs_table(story: demos.DemoStory):
    """The AFS story's accuracies as shown on Home: one row per condition (×1, the break,
    the rescue), one column per method (the story's method names). Made once per story
    object (the shared :func:`afs_story` is one object for the whole class); do not change
    it."""
    made = _AFS_TABLES.get(id(story))
    if made is not None and made[0] is story:
        return made[1]
    table = _afs_table(story)
    _AFS_TABLES.clear()  # one story at a time: the memo never grows
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
