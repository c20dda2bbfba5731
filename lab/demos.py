"""The Home page's three demos: their numbers, and captions computed from those numbers.

A caption may only say what the numbers beside it show. Each ``*_story`` function fits what
the demo opens (the same data, methods and parameters as the page its Home button opens, at
the lab's one λ and Λ: every MSP of a demo is the MSP the other pages show for the same
labeling), returns the numbers as a table and a caption whose every claim is decided by those
numbers, worded by :mod:`lab.verdicts`:

* :func:`afs_trap_story` — does multiplying ``noise`` by 10 break k-means (accuracy drops
  by at least 20 points)? Does the lab's MSPC move? Does multiplying ``signal`` by 10 as
  well rescue k-means?
* :func:`breast_story` — the lab's MSPC (as the Cluster page runs it) beside k-means and
  MSPC (EIG): is the labeling with the higher held-out MSP the more accurate one? Said
  outright only if it holds for every pair of methods; otherwise "usually, in X of Y" or
  "here it does not", with the counts.
* :func:`tasks_story` — the MSPC paper's Figs. 2-3 as the MSP vs accuracy page opens them:
  per family of tasks, Pearson's r between MSPC's held-out MSP and its accuracy, beside the
  paper's r.

Every fit goes through a ``fit`` callable with the signature of
:func:`lab.evaluation.fit_and_evaluate` (the page passes its cached wrapper), so the numbers
are the ones the demo pages show. Pure Python.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from clustering._lam import DEFAULT_LAM
from lab import verdicts
from lab.evaluation import MSP_REFERENCE_REGULARIZER, fit_and_evaluate

__all__ = [
    "AFS_BREAK",
    "AFS_RESCUE",
    "BREAK_POINTS",
    "Claim",
    "DemoStory",
    "afs_methods",
    "afs_trap_story",
    "breast_methods",
    "breast_story",
    "msp_order_claim",
    "tasks_story",
]

Fit = Callable[..., Any]

#: Accuracy drop (in accuracy units) that counts as "breaking" a method.
BREAK_POINTS = 0.20
#: A change smaller than this (half a point of accuracy) is "does not move".
STILL = 0.005
#: The AFS trap's break and rescue, as factors by feature name.
AFS_BREAK = {"noise": 10.0}
AFS_RESCUE = {"noise": 10.0, "signal": 10.0}


def afs_methods(lam: float = DEFAULT_LAM, regularizer: str = MSP_REFERENCE_REGULARIZER):
    """The AFS demo's methods as Feature scaling runs them: k-means and the lab's MSPC
    (its default start and search) with the lab's λ and Λ."""
    return {
        "k-means": ("kmeans", {}),
        "MSPC (MPM)": ("mspc-mpm", {"lam": float(lam), "regularizer": regularizer}),
    }


def breast_methods(lam: float = DEFAULT_LAM, regularizer: str = MSP_REFERENCE_REGULARIZER):
    """The breast demo's methods as the Cluster page runs them: k-means, the lab's MSPC
    (MPM, its default start and search) and MSPC (EIG), with the lab's λ and Λ."""
    shared = {"lam": float(lam), "regularizer": regularizer}
    return {
        "k-means": ("kmeans", {}),
        "MSPC (MPM)": ("mspc-mpm", dict(shared)),
        "MSPC (EIG)": ("mspc-eig", dict(shared)),
    }


#: The score the breast and tasks stories judge the labelings by (the lab's label-free
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
    """Does the higher MSP go with the higher accuracy? Decided pair by pair by
    :func:`lab.verdicts.order_claim` (the lab's one rule), as a :class:`Claim`.

    Examples
    --------
    >>> msp_order_claim(["a", "b"], [0.9, 0.7], [0.95, 0.80]).holds
    True
    >>> msp_order_claim(["a", "b", "c"], [0.9, 0.8, 0.7], [0.9, 0.95, 0.5]).text
    'Usually the labeling with the higher MSP is the more accurate: in 2 of 3 pairs of methods.'
    """
    v = verdicts.order_claim(names, msp, accuracy, what=what, score_name=score)
    n = v.numbers
    return Claim(v.text, n["concordant"], n["total"], v.kind == "holds", v.kind == "usually")


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
    lam: float = DEFAULT_LAM,
    regularizer: str = MSP_REFERENCE_REGULARIZER,
    fit: Fit = fit_and_evaluate,
) -> DemoStory:
    """The AFS-trap demo: k-means and MSPC at ×1, after the break and after the rescue.

    Parameters
    ----------
    dataset : datasets.Dataset, optional
        Default: ``datasets.synthetic.afs_trap()`` (what the Home button opens).
    methods : mapping, optional
        Display name -> (key, params); the first is the scale-sensitive method (k-means),
        the second the invariant one. Default :func:`afs_methods` (``lam``, ``regularizer``).
    broken, rescue : mapping of feature name to factor
        The break (``noise`` ×10) and the rescue (``noise`` ×10 and ``signal`` ×10).
    lam, regularizer : float, str
        The lab's one λ and Λ: the methods' and every MSP's.
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
    methods = dict(methods or afs_methods(lam, regularizer))
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
            result = fit(
                key,
                dict(params),
                Xs,
                dataset.y,
                random_state=0,
                msp_lam=float(lam),
                msp_regularizer=regularizer,
            )
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
    lam: float = DEFAULT_LAM,
    regularizer: str = MSP_REFERENCE_REGULARIZER,
    fit: Fit = fit_and_evaluate,
) -> DemoStory:
    """The breast-cancer demo: does the higher held-out MSP pick the more accurate labeling?

    Every MSP is measured with ``lam`` and ``regularizer`` (the lab's one λ and Λ, which the
    Cluster page uses for every method), so each labeling shows the MSP the Cluster page
    shows.

    Parameters
    ----------
    dataset : datasets.Dataset, optional
        Default: the bundled ``breast`` task, normalised (what the Home button opens).
    methods : mapping, optional
        Default :func:`breast_methods` (k-means, the lab's MSPC (MPM), MSPC (EIG)).
    lam, regularizer : float, str
    fit : callable, default=fit_and_evaluate
    """
    if dataset is None:
        import datasets

        dataset = datasets.load("breast", normalize=True)
    table = _run_table(
        fit,
        dict(methods or breast_methods(lam, regularizer)),
        dataset.X,
        dataset.y,
        msp_lam=float(lam),
        msp_regularizer=regularizer,
    )
    claim = msp_order_claim(
        list(table["method"]), table["msp_heldout"], table["accuracy"], score=HELDOUT
    )
    caption = claim.text
    if not claim.holds:
        lead = verdicts.leaders(
            list(table["method"]), table["msp_heldout"], table["accuracy"], score_name=HELDOUT
        )
        caption += " " + lead.text.split(". ", 1)[0] + "."
    return DemoStory("breast", table, caption, {"claim": claim})


def tasks_story(
    *,
    key: str = "mspc-mpm",
    params: Mapping[str, Any] | None = None,
    lam: float = DEFAULT_LAM,
    regularizer: str = MSP_REFERENCE_REGULARIZER,
    fit: Fit = fit_and_evaluate,
    load=None,
) -> DemoStory:
    """The MSPC paper's Figs. 2-3 as the MSP vs accuracy page opens them: per family of
    tasks, Pearson's r between MSPC's held-out MSP and its accuracy, beside the paper's r.

    Every task is clustered with ``params`` (default: the method's defaults), ``lam`` and
    ``regularizer``, and both MSPs measured with them. ``table`` has one row per family
    (:func:`lab.experiments.families.families_summary`), ``facts["runs"]`` one per task;
    the caption is :func:`lab.experiments.families.families_verdict` of those runs.
    """
    from lab.experiments import families

    params = {**dict(params or {}), "lam": float(lam), "regularizer": regularizer}
    runs = families.families_table(
        key,
        params,
        msp_lam=float(lam),
        msp_regularizer=regularizer,
        evaluator=fit,
        **({} if load is None else {"load": load}),
    )
    table = families.families_summary(runs)
    verdict = families.families_verdict(runs, "msp_heldout")
    return DemoStory("tasks", table, verdict.text, {"verdict": verdict, "runs": runs})
