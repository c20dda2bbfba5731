"""``lab.verdicts`` by property, rule by rule (``tests/test_verdicts.py`` checks the sentences
on every bundled data set × method × demo): every verdict's numbers are recomputed here from
the data by brute force, and its words are checked against the rules the module states (the
thresholds of r, "outright only when every pair agrees", ties at three decimals, the first of equal
scores chosen)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lab import verdicts as v

finite = st.floats(0.0, 1.0, allow_nan=False, width=32)
values = st.lists(st.one_of(finite, st.just(float("nan"))), min_size=0, max_size=9)


def _pairs(score, accuracy):
    """Brute-force concordant, discordant and counted pairs of the finite points."""
    points = [(s, a) for s, a in zip(score, accuracy, strict=True) if math.isfinite(s + a)]
    concordant = discordant = total = 0
    for (s1, a1), (s2, a2) in itertools.combinations(points, 2):
        if abs(s1 - s2) <= v.SAME:
            continue
        total += 1
        if a1 != a2:
            concordant += (s1 > s2) == (a1 > a2)
            discordant += (s1 > s2) != (a1 > a2)
    return concordant, discordant, total


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_pair_counts_and_pearson_are_the_brute_force_ones(data):
    n = data.draw(st.integers(0, 9))
    score = data.draw(st.lists(st.one_of(finite, st.just(float("nan"))), min_size=n, max_size=n))
    accuracy = data.draw(st.lists(finite, min_size=n, max_size=n))
    assert v.pair_counts(score, accuracy) == _pairs(score, accuracy)
    keep = [i for i in range(n) if math.isfinite(score[i])]
    s, a = np.array(score)[keep], np.array(accuracy)[keep]
    r, count = v.pearson(score, accuracy)
    assert count == len(keep)
    if len(keep) < 3 or np.ptp(s) == 0 or np.ptp(a) == 0:
        assert math.isnan(r)
    else:
        assert r == pytest.approx(np.corrcoef(s, a)[0, 1], abs=1e-9)


def _with_r(r: float, n: int = 40, seed: int = 0):
    """Points whose Pearson r is ``r`` (up to rounding)."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=n)
    z = rng.normal(size=n)
    x = (x - x.mean()) / x.std()
    z = z - z.mean() - (z @ x) / n * x
    z /= z.std()
    return x, r * x + math.sqrt(1 - r * r) * z


@pytest.mark.parametrize(
    ("r", "kind"),
    [(0.95, "closely"), (0.81, "closely"), (0.79, "follows"), (0.51, "follows"),
     (0.49, "none"), (0.0, "none"), (-0.49, "none"), (-0.51, "against"), (-0.9, "against")],
)  # fmt: skip
def test_correlation_is_worded_by_the_size_and_sign_of_r(r, kind):
    score, accuracy = _with_r(r)
    verdict = v.correlation(score, accuracy, what="tasks")
    assert verdict.numbers["r"] == pytest.approx(r, abs=1e-9)
    assert verdict.kind == kind
    concordant, discordant, total = _pairs(score, accuracy)
    assert f"r = {r:.2f}" in verdict.text and "Over these 40 tasks" in verdict.text
    shown = discordant if kind == "against" else concordant
    assert f"in {shown} of {total} pairs." in verdict.text
    assert ("closely" in verdict.text) == (kind == "closely")
    assert ("runs against" in verdict.text) == (kind == "against")
    assert ("does not follow" in verdict.text) == (kind == "none")


def test_correlation_without_spread_says_it_cannot_be_told():
    verdict = v.correlation([0.5, 0.5, 0.5], [0.1, 0.2, 0.3])
    assert verdict.kind == "undefined" and "do not vary enough" in verdict.text


@settings(max_examples=80, deadline=None)
@given(st.floats(-1, 1), st.floats(-1, 1))
def test_compare_correlations_follows_its_stated_rule(r_a, r_b):
    verdict = v.compare_correlations(r_a, r_b)
    # Decided on r as shown (two decimals, no "-0.00"), as the sentence writes it.
    r_a, r_b = round(r_a, 2) + 0.0, round(r_b, 2) + 0.0
    follows_a, follows_b = r_a >= v.FOLLOWS_R, r_b >= v.FOLLOWS_R
    if follows_a and follows_b:
        tie = abs(r_a - r_b) < v.TIE_R - 1e-9
        expected = "tie" if tie else ("a" if r_a > r_b else "b")
    elif follows_a or follows_b:
        expected = "only a" if follows_a else "only b"
    else:
        expected = "neither"
    assert verdict.kind == expected
    assert f"r = {r_a:.2f}" in verdict.text and f"{r_b:.2f}" in verdict.text
    assert ("more closely" in verdict.text) == (expected in ("a", "b"))


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_order_claim_is_outright_only_when_every_pair_agrees(data):
    n = data.draw(st.integers(2, 7))
    score = data.draw(st.lists(st.sampled_from([0.1, 0.4, 0.7, 0.9]), min_size=n, max_size=n))
    accuracy = data.draw(st.lists(st.sampled_from([0.5, 0.6, 0.8]), min_size=n, max_size=n))
    names = [f"m{i}" for i in range(n)]
    verdict = v.order_claim(names, score, accuracy)
    total = concordant = 0
    for i, j in itertools.combinations(range(n), 2):
        if score[i] != score[j]:
            total += 1
            hi, lo = (i, j) if score[i] > score[j] else (j, i)
            concordant += accuracy[hi] > accuracy[lo]
    assert verdict.numbers == {"concordant": concordant, "total": total}
    if total == 0:
        assert verdict.kind == "tie"
    elif concordant == total:
        assert verdict.kind == "holds"
    elif concordant > total / 2:
        assert verdict.kind == "usually" and f"in {concordant} of {total} pair" in verdict.text
    else:
        assert verdict.kind == "fails" and f"in {concordant} of {total} pair" in verdict.text


def test_order_claim_of_one_pair_names_the_labeling_with_the_higher_score():
    verdict = v.order_claim(["low", "high"], [0.2, 0.9], [0.5, 0.7])
    assert verdict.kind == "holds"
    assert "(high, 0.900)" in verdict.text and "(0.700 against 0.500)" in verdict.text


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_leaders_are_the_largest_values_as_shown(data):
    n = data.draw(st.integers(2, 6))
    score = data.draw(st.lists(st.sampled_from([0.5, 0.7001, 0.7004, 0.9]), min_size=n, max_size=n))
    accuracy = data.draw(st.lists(st.sampled_from([0.6, 0.8, 0.9]), min_size=n, max_size=n))
    names = [f"m{i}" for i in range(n)]
    verdict = v.leaders(names, score, accuracy)
    shown = [round(s, 3) for s in score]
    top = [m for m, s in zip(names, shown, strict=True) if s == max(shown)]
    best = [m for m, a in zip(names, accuracy, strict=True) if a == max(accuracy)]
    assert verdict.numbers["score_leaders"] == top
    assert verdict.numbers["accuracy_leaders"] == best
    if len(top) > 1:
        assert verdict.kind == "tie"
    else:
        assert verdict.kind == ("holds" if top[0] in best else "fails")
    assert f"Highest MSP: {' = '.join(top)} ({max(shown):.3f})" in verdict.text


def test_leaders_leave_out_labelings_without_a_score():
    verdict = v.leaders(["a", "b", "c"], [float("nan"), 0.4, 0.6], [0.99, 0.5, 0.6])
    assert verdict.numbers["score_leaders"] == ["c"] and verdict.kind == "holds"
    assert v.leaders(["a", "b"], [float("nan"), 0.4]).kind == "undefined"


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_selection_cost_is_the_best_accuracy_minus_the_chosen_one(data):
    n = data.draw(st.integers(1, 6))
    grid = [10.0**k for k in range(n)]
    score = data.draw(st.lists(st.sampled_from([0.2, 0.5, 0.8]), min_size=n, max_size=n))
    accuracy = data.draw(st.lists(st.sampled_from([0.61, 0.7777, 0.9]), min_size=n, max_size=n))
    verdict = v.selection_cost(grid, score, accuracy)
    i = score.index(max(score))  # ties go to the first value of the grid
    j = accuracy.index(max(accuracy))
    assert verdict.numbers["chosen"] == grid[i] and verdict.numbers["best"] == grid[j]
    cost = round(accuracy[j], 3) - round(accuracy[i], 3)
    assert verdict.numbers["cost"] == pytest.approx(cost)
    assert verdict.kind == ("free" if cost <= 0 else "costs")
    if cost > 0:
        assert f"a cost of {cost:.3f} in accuracy" in verdict.text


def test_selection_cost_without_scores_or_accuracy_says_so():
    assert v.selection_cost([1, 2], [float("nan")] * 2, [0.5, 0.6]).kind == "undefined"
    assert v.selection_cost([1, 2], [0.3, 0.4], [float("nan")] * 2).kind == "no accuracy"


@settings(max_examples=30, deadline=None)
@given(st.lists(st.sampled_from([0.95, 0.6, 0.1, -0.7]), min_size=1, max_size=4))
def test_families_count_the_families_in_which_the_score_follows(rs):
    rows = [(f"family {k}", *_with_r(r, seed=k), float("nan")) for k, r in enumerate(rs)]
    verdict = v.families(rows)
    follow = sum(r >= v.FOLLOWS_R for r in rs)
    assert verdict.numbers["follow"] == follow
    expected = "none" if follow == 0 else "all" if follow == len(rs) else "some"
    assert verdict.kind == expected
    for k, r in enumerate(rs):
        assert verdict.numbers[f"family {k}"]["kind"] == v.correlation(*rows[k][1:3]).kind
        assert f"r = {r:.2f}" in verdict.text


def test_no_score_to_choose_by_is_worded_with_its_article():
    nan = float("nan")
    for name, article in (("in-sample MSP", "an"), ("held-out MSP", "a")):
        text = v.selection_cost([0.1, 1.0], [nan, nan], [0.6, 0.7], score_name=name).text
        assert f"No run has {article} {name}," in text, text
