"""A method keeps one colour on every figure (ARCHITECTURE.md's colour rule), and every MSP
axis shows the MSP's range.

Feature scaling's Fig. 1 drew "MSPC (MPM), paper start" in the colour of its position among
the curves (orange beside k-means, blue alone), so MSPC changed colour between the page's
sections; here the colour of a method's series is checked against which other series are
drawn beside it and in which order, on every figure function that draws one series per method.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from clustering import ALGORITHMS
from lab import plots
from lab.plots._common import msp_range
from lab.plots.style import METHOD_PALETTE, method_color, series_color

KEYS = list(ALGORITHMS)
#: Labels of series the lab draws that name a method: its key, its name, and its variants.
VARIANTS = (", paper start", ", standardised start", "-monotone", " (λ = 0.2)")


def _labels(key: str) -> list[str]:
    name = ALGORITHMS[key].name
    return [key, name, *(name + v for v in VARIANTS[:2]), key + VARIANTS[2], name + VARIANTS[3]]


def _summary(labels: list[str]) -> pd.DataFrame:
    rows = [
        {
            "method": label,
            "factor": f,
            "accuracy_mean": 0.5 + 0.01 * i,
            "accuracy_std": 0.01,
            "accuracy_sem": 0.005,
            "n_runs": 3,
        }
        for i, label in enumerate(labels)
        for f in (1.0, 2.0, 4.0)
    ]
    return pd.DataFrame(rows)


def _colour_of(fig, label: str) -> str:
    (trace,) = [t for t in fig.data if t.name == label and t.mode != "lines"]
    return trace.marker.color


def test_every_method_has_its_own_colour_and_its_variants_share_it():
    colours = [method_color(k) for k in KEYS]
    assert len(set(colours)) == len(KEYS) <= len(METHOD_PALETTE)
    for key in KEYS:
        assert {method_color(label) for label in _labels(key)} == {method_color(key)}
    # A series that names no method keeps the figure's order.
    assert series_color("breast", 2) != series_color("breast", 3)


companions = st.lists(
    st.sampled_from([label for key in KEYS for label in _labels(key)] + ["runs", "breast"]),
    max_size=6,
    unique=True,
)


@settings(max_examples=40, deadline=None)
@given(
    key=st.sampled_from(KEYS), variant=st.integers(0, 5), others=companions, at=st.integers(0, 6)
)
def test_a_methods_colour_does_not_depend_on_the_series_beside_it(key, variant, others, at):
    label = _labels(key)[variant]
    others = [o for o in others if o != label]
    labels = [*others[:at], label, *others[at:]]
    expected = method_color(key)
    # Fig. 1 (Feature scaling, section 5): one curve per method or variant.
    assert _colour_of(plots.sensitivity_figure(_summary(labels)), label) == expected
    # MSP vs accuracy with one family per method.
    table = pd.DataFrame(
        {
            "name": [f"t{i}" for i in range(3 * len(labels))],
            "msp": np.linspace(0.2, 0.9, 3 * len(labels)),
            "accuracy": np.linspace(0.5, 0.95, 3 * len(labels)),
            "family": [g for g in labels for _ in range(3)],
        }
    )
    fig = plots.msp_accuracy_figure(table, group="family")
    (points,) = [t for t in fig.data if t.name.startswith(label + " (3, r")]
    assert points.marker.color == expected
    # The objective per iteration (Cluster).
    histories = {name: [0.5, 0.6] for name in labels}
    (line,) = [t for t in plots.objective_plot(histories).data if t.name == label]
    assert line.line.color == expected


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.floats(-0.5, 1.5) | st.just(float("nan")),
        min_size=1,
        max_size=30,
    )
)
def test_an_msp_axis_shows_the_msps_range(values):
    lo, hi = msp_range(values)
    assert 0.0 <= lo < hi <= 1.0
    inside = np.clip([v for v in values if np.isfinite(v)], 0.0, 1.0)
    if inside.size:
        assert lo <= inside.min() and inside.max() <= hi


def test_the_msp_vs_accuracy_axes_hold_the_points_within_zero_and_one():
    # Every λ of a sweep on an easy upload gives one MSP: plotly's autorange spread it over
    # -0.2 ... 1.6.
    table = pd.DataFrame(
        {"name": list("abcd"), "msp_heldout": [0.716] * 4, "accuracy": [1.0, 1.0, 1.0, 1.0]}
    )
    fig = plots.msp_accuracy_figure(table, x="msp_heldout")
    x_lo, x_hi = fig.layout.xaxis.range
    y_lo, y_hi = fig.layout.yaxis.range
    assert 0.0 <= x_lo <= 0.716 <= x_hi <= 1.0 and x_hi - x_lo <= 0.2
    assert 0.0 <= y_lo < y_hi == 1.0
