"""``ui.model``'s value grids, by property: λ and the scaling factors snap to their grids by
distance on a log scale (the sliders are logarithmic), each grid is 1-2-5 per decade, and
every value a slider or a link can bring lands on a stop."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clustering._lam import DEFAULT_LAM, LAM_RANGE
from ui.model import FACTOR_OPTIONS, lam_grid, snap_factor, snap_lam

GRIDS = {"lam": (lam_grid(), snap_lam), "factor": (list(FACTOR_OPTIONS), snap_factor)}


@pytest.mark.parametrize("name", sorted(GRIDS))
def test_a_value_snaps_to_the_neighbour_nearer_on_a_log_scale(name):
    """Between two neighbours the boundary is their geometric mean, not their arithmetic
    mean: just below it the lower one, just above it the upper one (for 1 and 2, 1.45
    snaps to 2 although it is nearer 1 on a linear scale)."""
    grid, snap = GRIDS[name]
    for low, high in itertools.pairwise(grid):
        middle = math.sqrt(low * high)
        assert snap(middle * (1 - 1e-6)) == low, (low, high)
        assert snap(middle * (1 + 1e-6)) == high, (low, high)
        assert abs(middle - (low + high) / 2) > 1e-3 * high  # the two rules differ here


@pytest.mark.parametrize("name", sorted(GRIDS))
def test_every_stop_snaps_to_itself_and_values_outside_to_the_ends(name):
    grid, snap = GRIDS[name]
    assert [snap(v) for v in grid] == grid
    assert snap(grid[0] / 1000) == grid[0] and snap(grid[-1] * 1000) == grid[-1]


@given(st.floats(1e-12, 1e12), st.sampled_from(sorted(GRIDS)))
def test_the_stop_is_the_one_of_least_log_distance(value, name):
    grid, snap = GRIDS[name]
    chosen = snap(value)
    assert chosen in grid
    distance = abs(math.log(chosen / value))
    assert all(distance <= abs(math.log(g / value)) + 1e-12 for g in grid)


@given(st.floats(1e-3, 1e2))
def test_snapping_lam_commutes_with_a_decade_inside_the_grid(value):
    """The grid repeats every decade, and a log-scale rule does not see a decade's shift:
    snapping ten times a value gives ten times its stop (away from the grid's ends)."""
    grid = lam_grid()
    if not (grid[0] * 10 <= value <= grid[-1] / 100):
        return
    assert snap_lam(value * 10) == pytest.approx(10 * snap_lam(value))


def test_the_lam_grid_is_1_2_5_per_decade_over_the_lab_range():
    grid = lam_grid()
    low, high = LAM_RANGE
    assert grid[0] == pytest.approx(low) and grid[-1] == pytest.approx(high)
    ratios = [b / a for a, b in itertools.pairwise(grid)]
    assert all(r == pytest.approx(2) or r == pytest.approx(2.5) for r in ratios)
    assert DEFAULT_LAM in grid


@pytest.mark.parametrize("bad", [0.0, -1.0, float("nan"), float("inf")])
def test_a_value_with_no_logarithm_gets_the_default(bad):
    assert snap_lam(bad) == DEFAULT_LAM
    assert snap_factor(bad) == 1.0


def test_an_unreadable_factor_is_one_and_a_grid_without_the_default_gives_its_middle():
    assert snap_factor("ten") == 1.0 and snap_factor(None) == 1.0
    assert snap_lam(float("nan"), grid=[1.0, 10.0, 100.0, 1000.0, 1e4]) == 100.0
