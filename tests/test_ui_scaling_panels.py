"""ui.scaling: a panel's hyperplane key ignores what a rescaling cannot change."""

from __future__ import annotations

import numpy as np

from ui import scaling


def test_hyperplane_key_is_the_same_for_a_rescaled_immune_hyperplane():
    rng = np.random.default_rng(0)
    w, b = rng.normal(size=5), 0.7
    factors = np.array([1.0, 2.5, 1.0, 0.1, 10.0])
    # An immune method refitted on X * factors finds w / factors (up to a positive scale and
    # rounding); the page maps it back to the original units with * factors.
    w_after = (w / factors) * 3.0 * (1 + 1e-13 * rng.normal(size=5))
    mapped = scaling.hyperplane_in_original_units(w_after, factors)
    assert scaling._hyperplane_key(w, b) == scaling._hyperplane_key(mapped, b * 3.0)


def test_hyperplane_key_tells_different_hyperplanes_apart():
    w, b = np.array([1.0, -2.0, 0.5]), 0.3
    key = scaling._hyperplane_key(w, b)
    assert key != scaling._hyperplane_key(w * [1.0, -2.0, 1.0], b)
    assert key != scaling._hyperplane_key(w, b + 1e-6)
    assert key != scaling._hyperplane_key(-w, -b)  # the opposite side: a mirrored view
    unit, offset = key
    assert np.isclose(np.linalg.norm(unit), 1.0) and np.isclose(offset, b / np.linalg.norm(w))


def test_hyperplane_key_leaves_what_cannot_be_drawn_alone():
    assert scaling._hyperplane_key(None, None) == (None, None)
    assert scaling._hyperplane_key([0.0, 0.0], 1.0) == ((0.0, 0.0), 1.0)
    assert scaling._hyperplane_key([1.0, 2.0], None) == ((1.0, 2.0), None)


def test_every_start_of_mspc_has_a_name_on_feature_scaling():
    # A start added to clustering.mspc.INITS without a name here broke the page's radio
    # (format_func returned None: "bad argument type for built-in operation").
    from clustering.mspc import INITS

    assert set(scaling.START_LABELS) == set(INITS)
    assert all(isinstance(v, str) and v for v in scaling.START_LABELS.values())
