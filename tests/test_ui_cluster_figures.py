"""ui.cluster's figures shared by every session: the same fit gives the same built chart (a
new session does not build it again), another fit or setting another chart."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import datasets
from lab import projections
from lab.evaluation import fit_and_evaluate
from ui import cluster as cluster_ui
from ui.chart import SharedChart


@pytest.fixture(scope="module")
def fits():
    ds = datasets.load("breast")
    kmeans = fit_and_evaluate("kmeans", {}, ds.X, ds.y)
    mspc = fit_and_evaluate("mspc-eig", {"lam": 0.01}, ds.X, ds.y)
    return ds, kmeans, mspc


def _scatter(ds, result, *, grid=True, ranges=None):
    proj = projections.discriminant_view(ds.X, result.w, result.b)
    return cluster_ui.scatter_panel(
        "discriminant", "breast", result, proj, ds.y, ds.class_names,
        height=420, ranges=ranges, grid=grid,
    )  # fmt: skip


def test_the_same_fit_reuses_the_built_scatter_and_its_json(fits):
    ds, kmeans, _ = fits
    first = _scatter(ds, kmeans)
    # What a second session holds: an equal copy of the fit (st.cache_data returns copies).
    again = _scatter(ds, fit_and_evaluate("kmeans", {}, ds.X, ds.y))
    assert isinstance(first, SharedChart) and again is first
    assert first.figure.layout.title.text.replace("<br>", " ") == cluster_ui.panel_title(kmeans)
    assert sum(len(t.x) for t in first.figure.data if t.mode == "markers") >= ds.n_samples


def test_another_fit_or_setting_builds_another_scatter(fits):
    ds, kmeans, mspc = fits
    first = _scatter(ds, kmeans)
    assert _scatter(ds, mspc) is not first
    assert _scatter(ds, kmeans, grid=False) is not first
    assert _scatter(ds, kmeans, ranges=((-3.0, 3.0), (-2.0, 4.0))) is not first
    moved = dataclasses.replace(kmeans, labels=1 - np.asarray(kmeans.labels))
    assert _scatter(ds, moved) is not first


def test_margins_and_objective_are_shared_per_fit_and_rho(fits):
    ds, kmeans, mspc = fits
    m = cluster_ui.margin_panel("breast", mspc, ds.X, 0.5, grid=True)
    assert cluster_ui.margin_panel("breast", mspc, ds.X, 0.5, grid=True) is m
    assert cluster_ui.margin_panel("breast", mspc, ds.X, 0.6, grid=True) is not m
    assert cluster_ui.margin_panel("breast", kmeans, ds.X, 0.5, grid=True) is not m
    histories = {mspc.name: mspc.history}
    o = cluster_ui.objective_panel(histories)
    assert cluster_ui.objective_panel({mspc.name: np.array(mspc.history)}) is o
    assert cluster_ui.objective_panel({mspc.name: np.asarray(mspc.history) + 1.0}) is not o
