"""The default's climbs at smaller ``lam`` (:mod:`clustering._multistart`): groups that differ
along a direction of little variance, hidden from a climb at the default ``lam``, are found
at a smaller one; the reported scores stay at ``lam`` and agree with the metric functions."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clustering import MSPC
from clustering._multistart import LAM_PATH, PATH_MARGIN, _choose
from clustering._reference import reference_heldout
from clustering.metrics import clustering_accuracy, msp_heldout_score, msp_score
from clustering.msp_heldout import heldout_seed


def _shape_groups(seed: int, n: int = 100, d: int = 5):
    """Two groups that differ in "shape" (+-0.5 along (1, -1, 0, ...)) while most of the
    variance is a shared "size" factor (standard deviation 3 along (1, ..., 1)): MASS
    ``crabs`` in miniature."""
    rng = np.random.default_rng(seed)
    y = np.repeat([0, 1], n)
    size = rng.normal(size=(2 * n, 1)) * 3.0
    shape = np.where(y == 1, 1.0, -1.0)[:, None] * np.r_[0.5, -0.5, np.zeros(d - 2)]
    return size * np.ones((1, d)) + shape + rng.normal(scale=0.25, size=(2 * n, d)), y


def _fit(X, one_lam=False, **params):
    model = MSPC(random_state=0, **params)
    model._one_lam = one_lam  # internal: the multi-start at lam alone
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return model.fit(X)


@pytest.mark.parametrize("seed", range(3))
def test_groups_along_a_low_variance_direction_are_found_at_a_smaller_lam(seed):
    X, y = _shape_groups(seed)
    alone = _fit(X, one_lam=True)
    model = _fit(X)
    assert clustering_accuracy(y, alone.labels_) < 0.6  # the climbs at lam = 0.2 miss them
    assert clustering_accuracy(y, model.labels_) >= 0.99
    assert model.search_lam_ == pytest.approx(model.lam * LAM_PATH[-1])
    # The labels are those of the multi-start at that lam alone.
    kept = _fit(X, one_lam=True, lam=model.search_lam_)
    assert np.array_equal(kept.labels_, model.labels_)
    # Every climb is listed, at each lam in turn.
    lams = sorted({entry["lam"] for entry in model.starts_}, reverse=True)
    assert lams == pytest.approx([model.lam] + [model.lam * f for f in LAM_PATH])


def test_scores_stay_at_lam_and_agree_with_the_metric_functions():
    X, _ = _shape_groups(0)
    model = _fit(X)
    assert model.search_lam_ < model.lam
    assert msp_score(X, model.labels_) == model.msp_
    assert msp_heldout_score(X, model.labels_, random_state=0) == pytest.approx(
        model.msp_heldout_, abs=1e-12
    )
    at_search = msp_heldout_score(X, model.labels_, lam=model.search_lam_, random_state=0)
    assert at_search == pytest.approx(model.search_msp_heldout_, abs=1e-12)
    # The classes are far more separable on new points at the lam that found them.
    assert model.search_msp_heldout_ > model.msp_heldout_ + 0.3


def test_structure_is_judged_at_the_lam_the_labels_were_kept_at():
    """At lam = 0.2 the classes' held-out MSP is below the noise reference; at the smaller
    lam that found them it is well above the same search's reference there."""
    X, _ = _shape_groups(1)
    model = _fit(X)
    seed = heldout_seed(0, None)
    assert model.msp_heldout_reference_ == pytest.approx(
        reference_heldout(model, X, seed, model.search_lam_)
    )
    assert model.structure_found_
    assert model.msp_heldout_ < reference_heldout(model, X, seed)  # at lam: below noise


def test_labels_kept_at_a_smaller_lam_are_invariant_to_rescaling_features():
    X, _ = _shape_groups(2)
    factors = 10.0 ** np.random.default_rng(3).uniform(-3, 3, X.shape[1])
    a, b = _fit(X), _fit(X * factors)
    assert a.search_lam_ == b.search_lam_ < a.lam
    assert np.array_equal(a.labels_, b.labels_) or np.array_equal(a.labels_, 1 - b.labels_)


@pytest.mark.parametrize("search", ["best", "monotone"])
def test_only_the_papers_search_climbs_at_smaller_lam(search):
    """The monotone and best searches promise a rise of the MSP at lam itself."""
    X, _ = _shape_groups(0)
    model = _fit(X, search=search)
    assert model.search_lam_ == model.lam
    assert {entry["lam"] for entry in model.starts_} == {model.lam}


_SCORES = st.lists(st.floats(0, 1), min_size=3, max_size=3)
_FLAGS = st.lists(st.booleans(), min_size=3, max_size=3)


@settings(max_examples=300, deadline=None)
@given(scores=_SCORES, flags=_FLAGS)
def test_choice_among_lams_matches_its_definition(scores, flags):
    """Against a brute-force reading of the rule: a smaller lam's labeling is kept iff its
    score beats every other allowed smaller lam's (the earlier on a tie) and the lam one's by
    more than the margin; allowed means eligible, unless the lam one is not eligible."""
    d = 1
    big, small = np.repeat([0, 1], 20), np.r_[np.zeros(38, int), [1, 1]]
    candidates = [(big if ok else small, s) for ok, s in zip(flags, scores, strict=True)]
    allowed = [i for i in (1, 2) if flags[i] or not flags[0]]
    expected = 0
    for i in allowed:
        beats_others = all(scores[i] > scores[j] or (scores[i] == scores[j] and i < j)
                           for j in allowed if j != i)  # fmt: skip
        if beats_others and scores[i] > scores[0] + PATH_MARGIN:
            expected = i
    assert _choose(candidates, d) == expected


def test_without_a_regulariser_the_labels_are_kept_at_lam():
    """regularizer="none" uses no lam (its effective value is 0): no smaller lam to climb at,
    and search_lam_ is the lam the user gave, so nothing reports a climb at another lam."""
    X, _ = _shape_groups(0)
    model = _fit(X, regularizer="none")
    assert model.search_lam_ == model.lam
    assert {entry["lam"] for entry in model.starts_} == {0.0}
