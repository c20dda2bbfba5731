"""The Home demos' captions: every claim is decided by the numbers beside it."""

from __future__ import annotations

from itertools import permutations
from types import SimpleNamespace

import numpy as np
import pytest

from lab import demos
from lab.demos import afs_trap_story, breast_story, msp_order_claim, tasks_story


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
        assert kw.get("msp_lam") is not None  # every MSP at the lab's one λ
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
    k, m = acc.loc["k-means"], acc.loc["MSPC (MPM)"]
    assert k["x1"] - k["break"] >= demos.BREAK_POINTS and k["rescue"] > 0.95
    assert m["x1"] == m["break"] == m["rescue"] > 0.95
    assert f"{k['x1']:.3f} → {k['break']:.3f}" in story.caption
    assert "does not move" in story.caption


@pytest.mark.slow
def test_breast_and_tasks_captions_state_what_their_tables_show():
    story = breast_story()
    table = story.table
    assert table["error"].eq("").all()
    names = table["method"].tolist()
    held = table["msp_heldout"]
    claim = msp_order_claim(names, held, table["accuracy"], score="held-out MSP")
    assert claim.text in story.caption
    assert (claim.concordant, claim.total) == _brute_force(
        held.to_numpy(), table["accuracy"].to_numpy()
    )
    story = tasks_story()
    runs = story.facts["runs"]
    for _, row in story.table.iterrows():
        sub = runs[runs["family"] == row["family"]]
        r = np.corrcoef(sub["msp_heldout"], sub["accuracy"])[0, 1]
        assert row["r_heldout"] == pytest.approx(r)
        assert f"{len(sub)} {row['family']} (r = {r:.2f}; paper {row['paper_r']:.2f})" in (
            story.caption
        )


def test_every_demo_measures_every_msp_at_the_lams_it_is_given():
    """One MSP per labeling: the breast story's MSPs are those of the Cluster page at the
    same λ and Λ (k-means included, which has no λ of its own)."""
    from lab.evaluation import fit_and_evaluate

    calls = []

    def fit(key, params, X, y, **kw):
        calls.append((key, params, kw))
        return fit_and_evaluate(key, params, X, y, **kw)

    import datasets

    ds = datasets.load("breast_cancer", normalize=True)
    story = breast_story(ds, lam=0.5, regularizer="identity", fit=fit)
    assert {(kw["msp_lam"], kw["msp_regularizer"]) for _, _, kw in calls} == {(0.5, "identity")}
    km = fit_and_evaluate("kmeans", {}, ds.X, ds.y, msp_lam=0.5, msp_regularizer="identity")
    row = story.table.set_index("method").loc["k-means"]
    assert row["msp_heldout"] == km.msp_heldout and row["msp"] == km.msp
