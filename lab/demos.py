"""The Home page's three demos: their numbers, and captions computed from those numbers.

A caption may only say what the numbers beside it show. Each ``*_story`` function fits what
the demo opens (the same data, methods and parameters as the Home buttons set up), returns
the numbers as a table and a caption whose every claim is decided by those numbers:

* :func:`afs_trap_story` — does multiplying ``noise`` by 10 break k-means (accuracy drops
  by at least 20 points)? Does MSPC from the standardised start move? Does multiplying
  ``signal`` by 10 as well rescue k-means?
* :func:`breast_story` — is the labeling with the higher held-out MSP the more accurate one?
  Said outright only if it holds for every pair of methods; otherwise "usually, in X of Y"
  or "here it does not", with the counts.
* :func:`digits_story` — across MSPC's runs on digits 3 vs 8 over the λ grid (both MSPs
  measured with one λ), Pearson's r between the held-out MSP and accuracy (and the in-sample
  MSP's r beside it) and the same pair count.

Both stories judge by the held-out MSP (:func:`lab.evaluation.heldout_msp`, the lab's
label-free score) and keep the in-sample MSP in their tables.

:func:`msp_order_claim` is the rule shared by the last two. Every fit goes through a ``fit``
callable with the signature of :func:`lab.evaluation.fit_and_evaluate` (the page
passes its cached wrapper), so the numbers are the ones the demo pages show. Pure Python.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np
import pandas as pd

from lab.evaluation import MSP_REFERENCE_LAM, fit_and_evaluate

__all__ = [
    "AFS_BREAK",
    "AFS_RESCUE",
    "BREAK_POINTS",
    "DIGITS_LAMS",
    "Claim",
    "DemoStory",
    "afs_trap_story",
    "breast_story",
    "digits_story",
    "msp_order_claim",
]

Fit = Callable[..., Any]

#: Accuracy drop (in accuracy units) that counts as "breaking" a method.
BREAK_POINTS = 0.20
#: A change smaller than this (half a point of accuracy) is "does not move".
STILL = 0.005
#: The AFS trap's break and rescue, as factors by feature name.
AFS_BREAK = {"noise": 10.0}
AFS_RESCUE = {"noise": 10.0, "signal": 10.0}
#: The Home demos' methods, as the Home buttons set them up.
AFS_METHODS = {
    "k-means": ("kmeans", {}),
    "MSPC (MPM), standardised start": (
        "mspc-mpm",
        {"lam": 0.01, "regularizer": "diag", "init": "kmeans-standardized"},
    ),
}
BREAST_METHODS = {
    "k-means": ("kmeans", {}),
    "MSPC (MPM)": ("mspc-mpm", {"lam": 0.01, "regularizer": "diag", "init": "kmeans"}),
    "MSPC (EIG)": ("mspc-eig", {"lam": 0.01, "regularizer": "diag"}),
}
DIGITS_LAMS = tuple(10.0 ** np.arange(-4, 5))
#: The score the breast and digits stories judge the labelings by (the lab's label-free
#: score, :func:`lab.evaluation.heldout_msp`); their tables show the in-sample MSP beside it.
HELDOUT = "held-out MSP"


@dataclass(frozen=True)
class Claim:
    """What the MSP says about accuracy on a set of labelings, decided by their numbers.

    Attributes
    ----------
    text : str
        The sentence for the caption.
    concordant : int
        Pairs of labelings with different MSP where the higher MSP has the higher accuracy.
    total : int
        Pairs of labelings with different MSP.
    holds : bool
        Whether "the higher MSP is the more accurate" holds for every such pair (and there
        is at least one).
    usually : bool
        Whether it holds for more than half of them, but not all.
    """

    text: str
    concordant: int
    total: int
    holds: bool
    usually: bool


@dataclass(frozen=True)
class DemoStory:
    """A demo's numbers and its caption.

    Attributes
    ----------
    key : str
        ``"afs"``, ``"breast"`` or ``"digits"``.
    table : pandas.DataFrame
        The numbers the caption is computed from (one row per method and condition, or per
        run).
    caption : str
        Sentences whose claims hold for ``table``.
    facts : dict
        The decisions behind the caption (``breaks``, ``mspc_still``, ``rescued``,
        ``claim``, ``pearson_r`` ...), for tests and for the page.
    """

    key: str
    table: pd.DataFrame
    caption: str
    facts: dict


def _pct(x: float) -> str:
    return f"{x:.3f}"


def msp_order_claim(
    names: Sequence[str], msp, accuracy, *, what: str = "methods", score: str = "MSP"
) -> Claim:
    """Does the higher MSP go with the higher accuracy? Decided pair by pair.

    A pair of labelings counts when their MSPs differ (by more than 1e-9); it is concordant
    when the one with the higher MSP is strictly more accurate. The sentence states the rule
    outright only when every counted pair is concordant, says "usually" with the count when
    more than half are, and otherwise says that here it does not, with the count.

    Parameters
    ----------
    names : sequence of str
        One name per labeling (methods or runs).
    msp, accuracy : array-like of float
        Their MSP and accuracy (NaN entries are left out).
    what : str, default="methods"
        What the labelings are, for the sentence ("methods", "runs").
    score : str, default="MSP"
        The name of the score in the sentence ("held-out MSP", ...).

    Returns
    -------
    Claim

    Examples
    --------
    >>> msp_order_claim(["a", "b"], [0.9, 0.7], [0.95, 0.80]).holds
    True
    >>> msp_order_claim(["a", "b", "c"], [0.9, 0.8, 0.7], [0.9, 0.95, 0.5]).text
    'Usually the labeling with the higher MSP is the more accurate: in 2 of 3 pairs of methods.'
    """
    msp = np.asarray(msp, dtype=float)
    acc = np.asarray(accuracy, dtype=float)
    if not (len(names) == msp.size == acc.size):
        raise ValueError(
            f"names, msp and accuracy must have one entry per labeling; got {len(names)}, "
            f"{msp.size} and {acc.size}."
        )
    ok = np.flatnonzero(np.isfinite(msp) & np.isfinite(acc))
    concordant = total = 0
    for i, j in combinations(ok, 2):
        if abs(msp[i] - msp[j]) <= 1e-9:
            continue
        total += 1
        hi, lo = (i, j) if msp[i] > msp[j] else (j, i)
        concordant += bool(acc[hi] > acc[lo])
    if total == 0:
        text = f"The labelings have the same {score} here, so the {score} cannot tell them apart."
        return Claim(text, 0, 0, False, False)
    holds = concordant == total
    usually = not holds and concordant > total / 2
    if holds and total == 1:
        i, j = ok[:2] if msp[ok[0]] > msp[ok[1]] else ok[:2][::-1]
        text = (
            f"The labeling with the higher {score} ({names[i]}, {_pct(msp[i])}) is the more "
            f"accurate one ({_pct(acc[i])} against {_pct(acc[j])})."
        )
    elif holds:
        text = (
            f"The labeling with the higher {score} is the more accurate one, in all "
            f"{total} pairs of {what} here."
        )
    elif usually:
        text = (
            f"Usually the labeling with the higher {score} is the more accurate: in "
            f"{concordant} of {total} pairs of {what}."
        )
    else:
        text = (
            f"Here the higher {score} does not pick the more accurate labeling: it does in "
            f"{concordant} of {total} pairs of {what}."
        )
    return Claim(text, concordant, total, holds, usually)


def _metric(result, name: str) -> float:
    value = None if result.error else result.metrics.get(name)
    return np.nan if value is None else float(value)


def _factor_vector(names: Sequence[str], factors: Mapping[str, float]) -> np.ndarray:
    missing = [f for f in factors if f not in names]
    if missing:
        raise ValueError(
            f"The data have no feature {', '.join(missing)} (features: {', '.join(names)})."
        )
    return np.array([float(factors.get(n, 1.0)) for n in names])


def _describe(factors: Mapping[str, float]) -> str:
    return " and ".join(f"'{k}' ×{v:g}" for k, v in factors.items())


def afs_trap_story(
    dataset=None,
    *,
    methods: Mapping[str, tuple[str, Mapping[str, Any]]] | None = None,
    broken: Mapping[str, float] = AFS_BREAK,
    rescue: Mapping[str, float] = AFS_RESCUE,
    fit: Fit = fit_and_evaluate,
) -> DemoStory:
    """The AFS-trap demo: k-means and MSPC at ×1, after the break and after the rescue.

    Parameters
    ----------
    dataset : datasets.Dataset, optional
        Default: ``datasets.synthetic.afs_trap()`` (what the Home button opens).
    methods : mapping, optional
        Display name -> (key, params); the first is the scale-sensitive method (k-means),
        the second the invariant one. Default :data:`AFS_METHODS`.
    broken, rescue : mapping of feature name to factor
        The break (``noise`` ×10) and the rescue (``noise`` ×10 and ``signal`` ×10).
    fit : callable, default=fit_and_evaluate

    Returns
    -------
    DemoStory
        ``table`` has one row per method and condition (``x1``, ``break``, ``rescue``) with
        ``accuracy`` and ``msp``; ``facts`` holds ``breaks``, ``mspc_still``, ``rescued``.
    """
    if dataset is None:
        from datasets.synthetic import afs_trap

        dataset = afs_trap()
    methods = dict(methods or AFS_METHODS)
    if len(methods) != 2:
        raise ValueError("The AFS story compares exactly two methods: k-means and MSPC.")
    names = list(dataset.feature_names)
    conditions = {
        "x1": np.ones(len(names)),
        "break": _factor_vector(names, broken),
        "rescue": _factor_vector(names, rescue),
    }
    rows = []
    for cond, factors in conditions.items():
        Xs = dataset.X * factors
        for name, (key, params) in methods.items():
            result = fit(key, dict(params), Xs, dataset.y, random_state=0)
            rows.append(
                {
                    "method": name,
                    "condition": cond,
                    "accuracy": _metric(result, "accuracy"),
                    "msp": _metric(result, "msp"),
                    "error": result.error or "",
                }
            )
    table = pd.DataFrame(rows)
    acc = table.pivot(index="method", columns="condition", values="accuracy")
    km, inv = list(methods)
    k1, kb, kr = (acc.loc[km, c] for c in ("x1", "break", "rescue"))
    m1, mb = acc.loc[inv, "x1"], acc.loc[inv, "break"]
    breaks = bool(k1 - kb >= BREAK_POINTS)
    still = bool(abs(mb - m1) < STILL)
    rescued = bool(breaks and kr - kb >= BREAK_POINTS and kr >= k1 - 0.05)
    sentences = []
    if breaks:
        sentences.append(
            f"Multiply {_describe(broken)} and {km} breaks: accuracy {_pct(k1)} → {_pct(kb)}."
        )
    else:
        sentences.append(
            f"Multiplying {_describe(broken)} moves {km} only from {_pct(k1)} to {_pct(kb)}."
        )
    if still:
        sentences.append(f"{inv} does not move ({_pct(m1)} before and after).")
    else:
        sentences.append(f"{inv} moves too: {_pct(m1)} → {_pct(mb)}.")
    extra = {k: v for k, v in rescue.items() if broken.get(k) != v} or dict(rescue)
    if rescued:
        sentences.append(f"Multiply {_describe(extra)} as well and {km} is rescued: {_pct(kr)}.")
    elif breaks:
        sentences.append(
            f"Multiplying {_describe(extra)} as well does not rescue {km} ({_pct(kr)})."
        )
    facts = {"breaks": breaks, "mspc_still": still, "rescued": rescued}
    return DemoStory("afs", table, " ".join(sentences), facts)


def _run_table(fit: Fit, runs: Mapping[str, tuple[str, Mapping[str, Any]]], X, y, **kw):
    rows = []
    for name, (key, params) in runs.items():
        result = fit(key, dict(params), X, y, random_state=0, **kw)
        rows.append(
            {
                "method": name,
                "accuracy": _metric(result, "accuracy"),
                "msp": _metric(result, "msp"),
                "msp_heldout": _metric(result, "msp_heldout"),
                "error": result.error or "",
            }
        )
    return pd.DataFrame(rows)


def breast_story(
    dataset=None,
    *,
    methods: Mapping[str, tuple[str, Mapping[str, Any]]] | None = None,
    fit: Fit = fit_and_evaluate,
) -> DemoStory:
    """The breast-cancer demo: does the higher MSP pick the more accurate labeling?

    The MSP of each labeling is the one the Cluster page shows (each method's own λ and Λ;
    k-means and other methods without λ use :data:`lab.evaluation.MSP_REFERENCE_LAM`,
    Λ = diag).

    Parameters
    ----------
    dataset : datasets.Dataset, optional
        Default: the bundled ``breast`` task, normalised (what the Home button opens).
    methods : mapping, optional
        Default :data:`BREAST_METHODS` (k-means, MSPC-MPM from k-means, MSPC-EIG; λ = 0.01).
    fit : callable, default=fit_and_evaluate
    """
    if dataset is None:
        import datasets

        dataset = datasets.load("breast", normalize=True)
    table = _run_table(fit, dict(methods or BREAST_METHODS), dataset.X, dataset.y)
    claim = msp_order_claim(
        list(table["method"]), table["msp_heldout"], table["accuracy"], score=HELDOUT
    )
    held = table["msp_heldout"]
    best = table.loc[held.idxmax()] if held.notna().any() else None
    caption = claim.text
    if best is not None and not claim.holds:
        top = table["accuracy"].max()
        verdict = "is" if best["accuracy"] >= top else "is not"
        caption += (
            f" The highest {HELDOUT} ({best['method']}, {_pct(best['msp_heldout'])}) {verdict} "
            f"the most accurate labeling ({_pct(best['accuracy'])}; best {_pct(top)})."
        )
    return DemoStory("breast", table, caption, {"claim": claim})


def digits_story(
    dataset=None,
    *,
    key: str = "mspc-mpm",
    params: Mapping[str, Any] | None = None,
    lams: Sequence[float] = DIGITS_LAMS,
    msp_lam: float = MSP_REFERENCE_LAM,
    fit: Fit = fit_and_evaluate,
) -> DemoStory:
    """The digits demo: across MSPC's runs over the λ grid, does a higher MSP come with a
    higher accuracy?

    Every run's MSP is measured with the same ``msp_lam`` so the labelings are compared on
    one scale (as the MSP vs accuracy page does).

    Parameters
    ----------
    dataset : datasets.Dataset, optional
        Default: the bundled ``digits:3v8`` task, normalised (what the Home button opens).
    key : str, default="mspc-mpm"
    params : mapping, optional
        Parameters other than ``lam`` (default ``regularizer="diag"``).
    lams : sequence of float, default=1e-4 … 1e4
    msp_lam : float, default=MSP_REFERENCE_LAM (0.01)
    fit : callable, default=fit_and_evaluate
    """
    if dataset is None:
        import datasets

        dataset = datasets.load("digits:3v8", normalize=True)
    base = dict(params or {"regularizer": "diag"})
    runs = {f"λ = {lam:g}": (key, {**base, "lam": float(lam)}) for lam in lams}
    table = _run_table(fit, runs, dataset.X, dataset.y, msp_lam=msp_lam)
    table = table.rename(columns={"method": "run"})
    claim = msp_order_claim(
        list(table["run"]), table["msp_heldout"], table["accuracy"], what="runs", score=HELDOUT
    )

    def pearson(column: str) -> tuple[float, int]:
        ok = table[[column, "accuracy"]].dropna()
        distinct = ok[column].nunique() > 1 and ok["accuracy"].nunique() > 1
        return (float(np.corrcoef(ok[column], ok["accuracy"])[0, 1]) if distinct else np.nan), len(
            ok
        )

    r, n = pearson("msp_heldout")
    r_in, _ = pearson("msp")
    sentences = []
    if np.isfinite(r):
        trend = (
            f"a higher {HELDOUT} comes with a higher accuracy"
            if r >= 0.8
            else f"a higher {HELDOUT} tends to come with a higher accuracy"
            if r >= 0.5
            else f"a higher {HELDOUT} comes with a lower accuracy"
            if r <= -0.5
            else f"the {HELDOUT} and accuracy are only weakly related"
        )
        in_sample = "undefined" if np.isnan(r_in) else f"{r_in:.2f}"
        sentences.append(
            f"Across the {n} runs {trend} (Pearson's r = {r:.2f}; with the in-sample MSP "
            f"r is {in_sample})."
        )
    else:
        sentences.append(
            f"The {n} runs do not differ enough in {HELDOUT} or accuracy for a correlation."
        )
    sentences.append(claim.text)
    facts = {"claim": claim, "pearson_r": r, "pearson_r_in_sample": r_in}
    return DemoStory("digits", table, " ".join(sentences), facts)
