"""The factor sweep, the presets, MSPC's step-through and their animated figures."""

from __future__ import annotations

import warnings
from types import SimpleNamespace

import numpy as np
import pytest

from clustering import MSPC
from clustering.metrics import msp_score
from datasets.synthetic import afs_trap, two_gaussians
from lab.animation import (
    DEFAULT_FACTORS,
    PRESETS,
    log_factors,
    mspc_iterations,
    scaling_sweep,
)
from lab.plots.animation import mspc_steps_figure, scaling_animation_figure

INVARIANT = ("mspc-mpm", {"lam": 0.01, "regularizer": "diag", "init": "kmeans-standardized"})


def test_default_grid_is_log_from_a_thousandth_to_a_thousand_through_one():
    assert DEFAULT_FACTORS[0] == pytest.approx(1e-3) and DEFAULT_FACTORS[-1] == pytest.approx(1e3)
    assert 1.0 in DEFAULT_FACTORS.tolist() and len(DEFAULT_FACTORS) == 13
    np.testing.assert_allclose(np.diff(np.log10(DEFAULT_FACTORS)), 0.5)
    with pytest.raises(ValueError, match="low <= 1"):
        log_factors(2.0, 10.0)


def _recording_fit(calls):
    def fit(key, params, X, y, random_state=0):
        calls.append(X.copy())
        w = np.arange(1.0, X.shape[1] + 1)
        return SimpleNamespace(
            error=None,
            labels=(X @ w > np.median(X @ w)).astype(int),
            w=w,
            b=0.5,
            metrics={"accuracy": 1.0, "msp": 0.5},
        )

    return fit


def test_sweep_scales_one_column_and_maps_the_hyperplane_back_to_the_original_units():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 3))
    calls = []
    sweep = scaling_sweep(
        X,
        None,
        {"m": ("kmeans", {})},
        1,
        [0.1, 1.0, 7.0],
        fixed={2: 3.0},
        fit=_recording_fit(calls),
    )
    for t, f in enumerate([0.1, 1.0, 7.0]):
        np.testing.assert_allclose(calls[t], X * [1.0, f, 3.0])
        # The same decision values on the original data as the fit had on the scaled data.
        np.testing.assert_allclose(X @ sweep.w[0, t] - sweep.b[0, t], calls[t] @ [1, 2, 3] - 0.5)
        np.testing.assert_allclose(sweep.total_factors(t), [1.0, f, 3.0])


def test_sweep_refuses_bad_input_with_the_fix():
    X = np.zeros((10, 2))
    with pytest.raises(ValueError, match="column index between 0 and 1"):
        scaling_sweep(X, None, {"m": ("kmeans", {})}, 2)
    with pytest.raises(ValueError, match="positive finite"):
        scaling_sweep(X, None, {"m": ("kmeans", {})}, 0, [0.0, 1.0])
    with pytest.raises(ValueError, match="cannot also be held fixed"):
        scaling_sweep(X, None, {"m": ("kmeans", {})}, 0, fixed={0: 2.0})
    with pytest.raises(ValueError, match="use it on the AFS trap"):
        PRESETS["rescue"].indices(["a", "b"])


def test_break_and_rescue_presets_on_the_afs_trap():
    """Break: 'noise' x10 takes k-means from right to a coin flip while MSPC from the
    standardised start does not move; rescue: with noise x10, 'signal' x10 puts k-means back."""
    ds = afs_trap()
    methods = {"k-means": ("kmeans", {}), "MSPC": INVARIANT}
    j, fixed = PRESETS["break"].indices(ds.feature_names)
    broken = scaling_sweep(ds.X, ds.y, methods, j, [1.0, 10.0], fixed=fixed)
    assert broken.accuracy[0, 0] > 0.95 and broken.accuracy[0, 1] < 0.6
    assert broken.accuracy[1, 0] == broken.accuracy[1, 1] > 0.95
    np.testing.assert_array_equal(broken.labels[1, 0], broken.labels[1, 1])
    j, fixed = PRESETS["rescue"].indices(ds.feature_names)
    rescued = scaling_sweep(ds.X, ds.y, methods, j, [1.0, 10.0], fixed=fixed)
    assert rescued.accuracy[0, 0] < 0.6 and rescued.accuracy[0, 1] > 0.95
    assert rescued.accuracy[1, 1] == broken.accuracy[1, 0]

    fig = scaling_animation_figure(broken, ds.X, ds.y, feature_names=ds.feature_names)
    assert [f.name for f in fig.frames] == ["×1", "×10"]
    assert [s.label for s in fig.layout.sliders[0].steps] == ["×1", "×10"]
    assert fig.layout.updatemenus[0].buttons[0].label.endswith("Play")
    assert all(t.type == "scatter" for t in fig.data)  # SVG: no WebGL context per panel
    assert "accuracy 0.502" in fig.frames[1].layout.title.text
    # Each frame colours the points by that frame's clusters (two colours, every point).
    colours = fig.frames[1].data[0].marker.color
    assert len(colours) == len(ds.y) and len(set(colours)) == 2


def test_animated_hyperplane_lies_on_the_fitted_hyperplane():
    ds = two_gaussians(n_samples=80, random_state=2)
    sweep = scaling_sweep(ds.X, ds.y, {"MSPC": INVARIANT}, 0, [0.5, 4.0])
    fig = scaling_animation_figure(sweep, ds.X, ds.y)
    for t, frame in enumerate(fig.frames):
        line = frame.data[1]
        pts = np.column_stack([line.x, line.y]).astype(float)
        np.testing.assert_allclose(pts @ sweep.w[0, t], sweep.b[0, t], atol=1e-9)


def test_mspc_step_through_ends_at_the_fit_and_reports_its_objective():
    ds = two_gaussians(n_samples=150, covariance="elongated", separation=3.0, random_state=4)
    # The paper's k-means start: the default held-out start is already a fixed point here.
    params = {"lam": 0.1, "init": "kmeans"}
    steps = mspc_iterations(ds.X, params)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        full = MSPC(**params, random_state=0).fit(ds.X)
    np.testing.assert_array_equal(steps[0].labels, full.init_labels_)
    agree = np.mean(steps[-1].labels == full.labels_)
    assert agree in (0.0, 1.0)  # the same partition (names may be swapped)
    np.testing.assert_allclose([s.objective for s in steps], full.history_, rtol=1e-6)
    for s in steps:
        assert s.objective == pytest.approx(msp_score(ds.X, s.labels, 0.1, "diag"), rel=1e-6)
    assert all(s.n_changed > 0 for s in steps[1:]) and len(steps) >= 2
    fig = mspc_steps_figure(steps, ds.X)
    assert len(fig.frames) == len(steps)
    assert list(fig.frames[-1].data[2].y) == [s.objective for s in steps]
    with pytest.raises(ValueError, match="no iterations"):
        mspc_iterations(ds.X, {"method": "eig"})


def test_numeric_frame_colours_map_to_the_palette():
    """The frames colour points by number through a banded scale (fast to validate); every
    code must land in the band of its palette colour, and -1 (a failed fit) in the grey one."""
    from lab.plots import OKABE_ITO
    from lab.plots.animation import _COLOR_MARKER, _FAILED, _colors

    labels = np.array([-1, *range(len(OKABE_ITO)), len(OKABE_ITO) + 1])
    codes = _colors(labels)
    scale = _COLOR_MARKER["colorscale"]
    lo, hi = _COLOR_MARKER["cmin"], _COLOR_MARKER["cmax"]
    expected = [_FAILED, *OKABE_ITO, OKABE_ITO[(len(OKABE_ITO) + 1) % len(OKABE_ITO)]]
    for code, colour in zip(codes, expected, strict=True):
        t = (code - lo) / (hi - lo)
        # The band containing t: the last stop at or below t whose next stop is above it.
        band = [c for (a, c), (b, _) in zip(scale[::2], scale[1::2], strict=True) if a < t < b]
        assert band == [colour], (code, t)


def test_step_through_of_labels_kept_at_a_smaller_lam_ends_at_the_fit():
    """The default kept labels climbed at lam/20 (groups along a low-variance direction):
    the replay climbs at that lam, ends at the fit, shows every MSP at the fit's lam (what
    every other view shows for the same labels), and its note says where the climb ran."""
    from ui.cluster import steps_note

    rng = np.random.default_rng(0)
    y = np.repeat([0, 1], 100)
    shape = np.where(y == 1, 1.0, -1.0)[:, None] * np.array([0.5, -0.5, 0, 0, 0])
    X = rng.normal(size=(200, 1)) * 3.0 * np.ones((1, 5)) + shape
    X = X + rng.normal(scale=0.25, size=X.shape)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        full = MSPC(random_state=0).fit(X)
    assert full.search_lam_ < full.lam
    steps = mspc_iterations(X, {})
    assert np.mean(steps[-1].labels == full.labels_) in (0.0, 1.0)
    assert all(s.climb_lam == full.search_lam_ for s in steps)
    for s in steps:
        assert s.objective == pytest.approx(msp_score(X, s.labels, full.lam, "diag"), rel=1e-9)
    assert steps[-1].objective == pytest.approx(full.msp_, rel=1e-9)
    assert f"The climb ran at λ = {full.search_lam_:.3g}" in steps_note("MSPC", steps)
