"""The Home demos' captions: every claim is decided by the numbers beside it."""

from __future__ import annotations

from itertools import permutations
from types import SimpleNamespace

import numpy as np
import pytest

from lab import demos
from lab.demos import afs_trap_story, breast_story, digits_story, msp_order_claim


def _brute_force(msp, acc):
    """Concordant and counted pairs by enumerating ordered pairs."""
    good = total = 0
    for i, j in permutations(range(len(msp)), 2):
        if msp[i] > msp[j]:
            total += 1
            good += acc[i] > acc[j]
    return good, total


@pytest.mark.parametrize("seed", range(20))
def test_order_claim_counts_agree_with_brute_force_and_never_overclaim(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 7))
    msp = rng.choice([0.5, 0.6, 0.7, 0.8, 0.9], n)
    acc = rng.choice([0.6, 0.7, 0.8, 0.9], n)
    claim = msp_order_claim([f"m{i}" for i in range(n)], msp, acc)
    assert (claim.concordant, claim.total) == _brute_force(msp, acc)
    if claim.holds:
        assert claim.concordant == claim.total > 0 and "more accurate" in claim.text
        assert "Usually" not in claim.text and "not" not in claim.text
    elif claim.usually:
        assert claim.text.startswith("Usually")
        assert f"{claim.concordant} of {claim.total}" in claim.text
    elif claim.total:
        assert "does not pick" in claim.text and f"{claim.concordant} of" in claim.text
    else:
        assert "cannot tell" in claim.text


def test_order_claim_the_issue_screen_is_not_told_the_higher_msp_wins():
    # The breast screen of issue 13: k-means MSP 0.888 accuracy 0.960, MSPC 0.734 / 0.870.
    claim = msp_order_claim(["k-means", "MSPC"], [0.888, 0.734], [0.960, 0.870])
    assert claim.holds and "k-means, 0.888" in claim.text
    claim = msp_order_claim(["k-means", "MSPC"], [0.734, 0.888], [0.960, 0.870])
    assert not claim.holds and not claim.usually and "0 of 1" in claim.text


def test_order_claim_skips_missing_numbers_and_checks_lengths():
    claim = msp_order_claim(["a", "b", "c"], [0.9, np.nan, 0.5], [0.9, 0.1, 0.6])
    assert (claim.concordant, claim.total) == (1, 1)
    with pytest.raises(ValueError, match="one entry per labeling"):
        msp_order_claim(["a"], [0.1, 0.2], [0.3, 0.4])


def _fake_fit(table):
    """A fit returning given accuracy/MSP per (key, params-signature, scale of X)."""

    def fit(key, params, X, y, random_state=0, **kw):
        acc, msp = table(key, params, X)
        return SimpleNamespace(error=None, metrics={"accuracy": acc, "msp": msp})

    return fit


def test_afs_caption_follows_the_numbers_not_the_script():
    from datasets.synthetic import afs_trap

    ds = afs_trap(n_samples=20)

    def numbers(k_acc, m_acc):
        def table(key, params, X):
            cond = "x1" if X[:, 1].std() < 3 * ds.X[:, 1].std() else "scaled"
            if cond == "scaled" and X[:, 0].std() > 3 * ds.X[:, 0].std():
                cond = "rescue"
            elif cond == "scaled":
                cond = "break"
            return (k_acc if key == "kmeans" else m_acc)[cond], 0.5

        return table

    story = afs_trap_story(
        ds,
        fit=_fake_fit(
            numbers(
                {"x1": 0.99, "break": 0.5, "rescue": 0.98},
                dict.fromkeys(("x1", "break", "rescue"), 0.97),
            )
        ),
    )
    assert story.facts == {"breaks": True, "mspc_still": True, "rescued": True}
    assert "breaks: accuracy 0.990 → 0.500" in story.caption and "is rescued" in story.caption
    story = afs_trap_story(
        ds,
        fit=_fake_fit(
            numbers(
                {"x1": 0.99, "break": 0.85, "rescue": 0.99},
                {"x1": 0.97, "break": 0.6, "rescue": 0.97},
            )
        ),
    )
    assert story.facts == {"breaks": False, "mspc_still": False, "rescued": False}
    assert "breaks" not in story.caption and "moves too: 0.970 → 0.600" in story.caption


def test_afs_trap_story_on_the_real_demo():
    """The redesigned trap: noise x10 breaks k-means by >= 20 points, MSPC from the
    standardised start does not move, signal x10 rescues k-means; the caption says so."""
    story = afs_trap_story()
    assert story.facts == {"breaks": True, "mspc_still": True, "rescued": True}
    acc = story.table.pivot(index="method", columns="condition", values="accuracy")
    k, m = acc.loc["k-means"], acc.loc["MSPC (MPM), standardised start"]
    assert k["x1"] - k["break"] >= demos.BREAK_POINTS and k["rescue"] > 0.95
    assert m["x1"] == m["break"] == m["rescue"] > 0.95
    assert f"{k['x1']:.3f} → {k['break']:.3f}" in story.caption
    assert "does not move" in story.caption


@pytest.mark.slow
def test_breast_and_digits_captions_state_what_their_tables_show():
    for story in (breast_story(), digits_story()):
        table = story.table
        assert table["error"].eq("").all()
        names = table.iloc[:, 0].tolist()
        what = "runs" if story.key == "digits" else "methods"
        held = table["msp_heldout"]
        claim = msp_order_claim(names, held, table["accuracy"], what=what, score="held-out MSP")
        assert claim.text in story.caption
        assert (claim.concordant, claim.total) == _brute_force(
            held.to_numpy(), table["accuracy"].to_numpy()
        )
    r = story.facts["pearson_r"]
    assert r == pytest.approx(np.corrcoef(table["msp_heldout"], table["accuracy"])[0, 1])
    assert f"r = {r:.2f}" in story.caption
    r_in = story.facts["pearson_r_in_sample"]
    assert r_in == pytest.approx(np.corrcoef(table["msp"], table["accuracy"])[0, 1])
    assert f"with the in-sample MSP r is {r_in:.2f}" in story.caption
