"""The lab's verdicts: one sentence per figure, worded by the numbers it is computed from.

Every caption that judges a score against accuracy (does the MSP follow accuracy? is the
labeling with the higher MSP the more accurate one? what does choosing λ by the MSP cost?)
is written here, by rules stated once:

* :func:`correlation` words Pearson's r by its sign and size: "follows" only at
  ``r >= FOLLOWS_R`` (:data:`FOLLOWS_R`, 0.5), "closely" only at ``r >= CLOSELY_R`` (0.8),
  "runs against" at ``r <= -FOLLOWS_R``, and otherwise "does not follow", always with r, the
  number of points, and how many pairs of points agree (the count is the truth when it is
  only "usually").
* :func:`compare_correlations` says "more closely" only when both scores follow accuracy
  (both r at least :data:`FOLLOWS_R`) and their r differ by at least :data:`TIE_R`.
* :func:`order_claim` decides pair by pair whether the higher score is the more accurate,
  outright only when every pair agrees, "usually" with the count when most do.
* :func:`leaders` names the labeling with the highest score and the most accurate one
  (ties at the three decimals shown are ties).
* :func:`selection_cost` says what choosing a parameter by a score costs in accuracy
  against the best value on the grid.

Every function returns a :class:`Verdict`: the sentence and the numbers it was decided by
(``numbers``), so a test can recompute each number from the data and check the words. Numbers
are written as the lab's tables write them: three decimals for MSPs and accuracies (fractions,
never percent), two for r.

Pure Python (numpy); never imports streamlit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import numpy as np

__all__ = [
    "CLOSELY_R",
    "FOLLOWS_R",
    "TIE_R",
    "Verdict",
    "compare_correlations",
    "correlation",
    "finite_pairs",
    "fmt",
    "leaders",
    "order_claim",
    "pair_counts",
    "pearson",
    "selection_cost",
]

#: r at or above which a score "follows" accuracy (and at or below whose negative it "runs
#: against" it). Below it in size the verdict says it does not follow.
FOLLOWS_R = 0.5
#: r at or above which a score follows accuracy "closely".
CLOSELY_R = 0.8
#: Two r closer than this (at two decimals) follow accuracy "about equally".
TIE_R = 0.05
#: Two scores closer than this are the same score (pairs of equal scores are not counted).
SAME = 1e-9


def fmt(value: float) -> str:
    """An MSP or an accuracy as the lab writes it: a fraction with three decimals.

    Examples
    --------
    >>> fmt(0.99249), fmt(float("nan"))
    ('0.992', '–')
    """
    return f"{value:.3f}" if np.isfinite(value) else "–"


def _r(value: float) -> str:
    return f"{_shown(value):.2f}"


def _shown(r: float) -> float:
    """r as the screen shows it (two decimals, no "-0.00"): every word about r is decided
    on this value, so a sentence never says "r = 0.50" and "does not follow"."""
    return round(float(r), 2) + 0.0


def _plural(n: int, word: str, plural: str | None = None) -> str:
    return f"{n} {word if n == 1 else plural or word + 's'}"


@dataclass(frozen=True)
class Verdict:
    """A sentence and the numbers that decided it.

    Attributes
    ----------
    text : str
        The sentence(s) for the screen.
    kind : str
        Which rule fired (``"closely"``, ``"follows"``, ``"none"``, ``"against"``,
        ``"undefined"``, ``"holds"``, ``"usually"``, ``"fails"``, ``"tie"``, ...).
    numbers : dict
        What the text was computed from (``r``, ``n``, ``concordant``, ``total``, ...).
    """

    text: str
    kind: str
    numbers: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.text


def finite_pairs(x, y) -> tuple[np.ndarray, np.ndarray]:
    """The pairs ``(x[i], y[i])`` where both are finite, as two float arrays; ``x`` and
    ``y`` must have one entry per point.

    Examples
    --------
    >>> finite_pairs([1, float("nan"), 3], [4, 5, float("inf")])
    (array([1.]), array([4.]))
    """
    x = np.asarray(x, dtype=np.float64).ravel()
    y = np.asarray(y, dtype=np.float64).ravel()
    if x.shape != y.shape:
        raise ValueError(f"x and y must have one entry per point; got {x.size} and {y.size}.")
    keep = np.isfinite(x) & np.isfinite(y)
    return x[keep], y[keep]


def pearson(x, y) -> tuple[float, int]:
    """Pearson's r over the finite pairs and their number (r is NaN with fewer than 3 pairs
    or no spread in either).

    Examples
    --------
    >>> r, n = pearson([0.1, 0.5, 0.9, float("nan")], [0.6, 0.7, 0.95, 0.5])
    >>> round(r, 4), n
    (0.9707, 3)
    """
    x, y = finite_pairs(x, y)
    if x.size < 3 or np.ptp(x) == 0 or np.ptp(y) == 0:
        return float("nan"), int(x.size)
    return float(np.corrcoef(x, y)[0, 1]), int(x.size)


def pair_counts(score, accuracy) -> tuple[int, int, int]:
    """``(concordant, discordant, total)``: of the ``total`` pairs of points whose scores
    differ (by more than :data:`SAME`), how many have the strictly higher accuracy at the
    higher score, and how many the strictly lower (pairs of equal accuracy are neither).

    Examples
    --------
    >>> pair_counts([0.9, 0.8, 0.7], [0.9, 0.95, 0.9])
    (1, 1, 3)
    """
    s, a = finite_pairs(score, accuracy)
    ds = s[:, None] - s[None, :]
    da = a[:, None] - a[None, :]
    upper = np.triu(np.ones(ds.shape, dtype=bool), 1)
    counted = upper & (np.abs(ds) > SAME)
    concordant = counted & (np.sign(ds) == np.sign(da)) & (da != 0)
    discordant = counted & (np.sign(ds) == -np.sign(da)) & (da != 0)
    return int(concordant.sum()), int(discordant.sum()), int(counted.sum())


def correlation(
    score,
    accuracy,
    *,
    score_name: str = "held-out MSP",
    what: str = "runs",
    target: str = "accuracy",
) -> Verdict:
    """Does ``score`` follow ``target`` over these points? Worded by r's sign and size.

    The sentence gives r, the number of points and the pair count (of the pairs of points
    with different scores, how many have the higher ``target`` at the higher score).

    Examples
    --------
    >>> print(correlation([0.9, 0.8, 0.7, 0.6], [0.97, 0.9, 0.8, 0.85], what="tasks"))
    ... # doctest: +NORMALIZE_WHITESPACE
    Over these 4 tasks the held-out MSP follows accuracy closely: r = 0.82; the higher MSP
    has the higher accuracy in 5 of 6 pairs.
    >>> v = correlation([0.9, 0.8, 0.7], [0.8, 0.9, 0.95])
    >>> v.kind, v.text.split(":")[0]
    ('against', 'Over these 3 runs the held-out MSP runs against accuracy')
    """
    r, n = pearson(score, accuracy)
    concordant, discordant, total = pair_counts(score, accuracy)
    numbers = {"r": r, "n": n, "concordant": concordant, "discordant": discordant, "total": total}
    head = f"Over these {_plural(n, what[:-1] if what.endswith('s') else what, what)}"
    if not np.isfinite(r):
        return Verdict(
            f"{head} the {score_name} or the {target} do not vary enough for a correlation.",
            "undefined",
            numbers,
        )
    pairs = f"in {concordant} of {_plural(total, 'pair')}"
    r = _shown(r)
    if r >= CLOSELY_R:
        kind, verb = "closely", f"follows {target} closely"
    elif r >= FOLLOWS_R:
        kind, verb = "follows", f"follows {target} moderately"
    elif r <= -FOLLOWS_R:
        kind, verb = "against", f"runs against {target}"
    else:
        kind = "none"
        verb = f"does not follow {target} (the lab says it follows from r = {FOLLOWS_R:g})"
    short = score_name.split()[-1]  # "MSP": the sentence has named it in full already
    if kind == "against":
        tail = f"the higher {short} has the lower {target} in {discordant} of " + (
            _plural(total, "pair")
        )
    else:
        tail = f"the higher {short} has the higher {target} {pairs}"
    text = f"{head} the {score_name} {verb}: r = {_r(r)}; {tail}."
    return Verdict(text, kind, numbers)


def compare_correlations(
    r_a: float, r_b: float, name_a: str = "held-out MSP", name_b: str = "in-sample MSP"
) -> Verdict:
    """Which of two scores follows accuracy more closely, if either does.

    "More closely" only when both follow (both r at least :data:`FOLLOWS_R`) and their r
    differ by at least :data:`TIE_R` at two decimals.

    Examples
    --------
    >>> print(compare_correlations(-0.78, -0.98))  # doctest: +NORMALIZE_WHITESPACE
    Neither MSP follows accuracy here (r = -0.78 with the held-out MSP, -0.98 with the
    in-sample MSP).
    >>> compare_correlations(0.86, 0.62).kind
    'a'
    """
    numbers = {"r_a": r_a, "r_b": r_b}
    if not (np.isfinite(r_a) and np.isfinite(r_b)):
        return Verdict("", "undefined", numbers)
    r_a, r_b = _shown(r_a), _shown(r_b)
    both = f"r = {_r(r_a)} with the {name_a}, {_r(r_b)} with the {name_b}"
    follows_a, follows_b = r_a >= FOLLOWS_R, r_b >= FOLLOWS_R
    if follows_a and follows_b:
        if abs(r_a - r_b) < TIE_R - 1e-9:
            return Verdict(f"Both MSPs follow accuracy about equally ({both}).", "tie", numbers)
        closer, kind = (name_a, "a") if r_a > r_b else (name_b, "b")
        return Verdict(f"The {closer} follows accuracy more closely ({both}).", kind, numbers)
    if follows_a or follows_b:
        only, kind = (name_a, "only a") if follows_a else (name_b, "only b")
        return Verdict(f"Only the {only} follows accuracy here ({both}).", kind, numbers)
    return Verdict(f"Neither MSP follows accuracy here ({both}).", "neither", numbers)


def order_claim(
    names: Sequence[str], score, accuracy, *, what: str = "methods", score_name: str = "MSP"
) -> Verdict:
    """Does the labeling with the higher score have the higher accuracy? Decided pair by pair.

    A pair counts when the two scores differ (by more than :data:`SAME`); it is concordant
    when the one with the higher score is strictly more accurate. The rule is stated
    outright only when every counted pair is concordant, "usually" with the count when
    more than half are, and otherwise "here it does not", with the count.

    Examples
    --------
    >>> order_claim(["a", "b"], [0.9, 0.7], [0.95, 0.80]).kind
    'holds'
    >>> order_claim(["a", "b", "c"], [0.9, 0.8, 0.7], [0.9, 0.95, 0.5]).text
    'Usually the labeling with the higher MSP is the more accurate: in 2 of 3 pairs of methods.'
    """
    s = np.asarray(score, dtype=float).ravel()
    a = np.asarray(accuracy, dtype=float).ravel()
    if not (len(names) == s.size == a.size):
        raise ValueError(
            f"names, score and accuracy must have one entry per labeling; got {len(names)}, "
            f"{s.size} and {a.size}."
        )
    ok = np.flatnonzero(np.isfinite(s) & np.isfinite(a))
    concordant = total = 0
    for i, j in combinations(ok, 2):
        if abs(s[i] - s[j]) <= SAME:
            continue
        total += 1
        hi, lo = (i, j) if s[i] > s[j] else (j, i)
        concordant += bool(a[hi] > a[lo])
    numbers = {"concordant": concordant, "total": total}
    if total == 0:
        text = (
            f"The labelings have the same {score_name} here, so the {score_name} cannot tell "
            "them apart."
        )
        return Verdict(text, "tie", numbers)
    if concordant == total and total == 1:
        i, j = (ok[0], ok[1]) if s[ok[0]] > s[ok[1]] else (ok[1], ok[0])
        text = (
            f"The labeling with the higher {score_name} ({names[i]}, {fmt(s[i])}) is the more "
            f"accurate one ({fmt(a[i])} against {fmt(a[j])})."
        )
        return Verdict(text, "holds", numbers)
    if concordant == total:
        text = (
            f"The labeling with the higher {score_name} is the more accurate one, in all "
            f"{total} pairs of {what} here."
        )
        return Verdict(text, "holds", numbers)
    if concordant > total / 2:
        text = (
            f"Usually the labeling with the higher {score_name} is the more accurate: in "
            f"{concordant} of {_plural(total, 'pair')} of {what}."
        )
        return Verdict(text, "usually", numbers)
    text = (
        f"Here the higher {score_name} does not pick the more accurate labeling: it does in "
        f"{concordant} of {_plural(total, 'pair')} of {what}."
    )
    return Verdict(text, "fails", numbers)


def _top(names: Sequence[str], values: np.ndarray) -> tuple[list[str], float]:
    """The names with the largest value as shown (three decimals) and that value."""
    shown = np.array([float(fmt(v)) for v in values])
    top = float(shown.max())
    return [n for n, v in zip(names, shown, strict=True) if v == top], top


def leaders(names: Sequence[str], score, accuracy=None, *, score_name: str = "MSP") -> Verdict:
    """The labeling with the highest score, the most accurate one, and whether they coincide.

    Values are compared as the tables show them (three decimals), so a tie on screen is
    called a tie. Labelings with a missing score are left out; the sentence is empty with
    fewer than two scored labelings.

    Examples
    --------
    >>> leaders(["A", "B"], [0.85, 0.6], [0.8, 0.95]).text.split(". ")[0]
    'Highest MSP: A (0.850); highest accuracy: B (0.950)'
    """
    s = np.asarray(score, dtype=float).ravel()
    a = np.full(s.shape, np.nan) if accuracy is None else np.asarray(accuracy, float).ravel()
    keep = np.flatnonzero(np.isfinite(s))
    names = [names[i] for i in keep]
    s, a = s[keep], a[keep]
    if len(names) < 2:
        return Verdict("", "undefined", {})
    top_names, top = _top(names, s)
    text = f"Highest {score_name}: {' = '.join(top_names)} ({fmt(top)})"
    numbers: dict[str, Any] = {"score_leaders": top_names, "top_score": top}
    with_acc = np.isfinite(a)
    if with_acc.sum() < 2:
        return Verdict(text + ".", "no accuracy", numbers)
    acc_names, top_acc = _top([n for n, k in zip(names, with_acc, strict=True) if k], a[with_acc])
    numbers.update(accuracy_leaders=acc_names, top_accuracy=top_acc)
    text += f"; highest accuracy: {' = '.join(acc_names)} ({fmt(top_acc)})."
    if len(top_names) > 1:
        return Verdict(
            text + f" The highest {score_name}s tie at three decimals, so here it does not tell "
            "these clusterings apart.",
            "tie",
            numbers,
        )
    if top_names[0] in acc_names:
        return Verdict(
            text + f" Here the clustering with the highest {score_name} is also the most accurate.",
            "holds",
            numbers,
        )
    return Verdict(
        text + f" Here the highest {score_name} is not the most accurate clustering: the MSP is a "
        "bound on how well a linear rule separates the clusters, not a promise about the "
        "classes.",
        "fails",
        numbers,
    )


def selection_cost(
    values, score, accuracy, *, param: str = "λ", score_name: str = "held-out MSP"
) -> Verdict:
    """What choosing ``param`` by the largest ``score`` costs against the best accuracy.

    Ties of the score go to the first value (the grid's order). The cost is the accuracy of
    the best value minus that of the chosen one, as the tables show them (three decimals).

    Examples
    --------
    >>> print(selection_cost([1e-4, 1, 100], [0.9, 0.8, 0.7], [0.892, 0.971, 0.95]))
    ... # doctest: +NORMALIZE_WHITESPACE
    Choosing λ by the largest held-out MSP picks λ = 0.0001, with accuracy 0.892; the best
    λ, 1, reaches 0.971: a cost of 0.079 in accuracy.
    """
    v = np.asarray(values, dtype=float).ravel()
    s = np.asarray(score, dtype=float).ravel()
    a = np.asarray(accuracy, dtype=float).ravel()
    if not (v.size == s.size == a.size):
        raise ValueError("values, score and accuracy must have one entry per run.")
    if not np.isfinite(s).any():
        article = "an" if score_name[:1].lower() in "aeiou" else "a"  # "an in-sample MSP"
        return Verdict(
            f"No run has {article} {score_name}, so it cannot choose {param}.", "undefined", {}
        )
    i = int(np.nanargmax(np.where(np.isfinite(s), s, -np.inf)))
    picked = f"Choosing {param} by the largest {score_name} picks {param} = {v[i]:g}"
    if not np.isfinite(a).any():
        return Verdict(picked + ".", "no accuracy", {"chosen": v[i]})
    j = int(np.nanargmax(np.where(np.isfinite(a), a, -np.inf)))
    chosen_acc, best_acc = float(fmt(a[i])) if np.isfinite(a[i]) else np.nan, float(fmt(a[j]))
    cost = best_acc - chosen_acc
    numbers = {
        "chosen": v[i],
        "chosen_accuracy": chosen_acc,
        "best": v[j],
        "best_accuracy": best_acc,
    }
    numbers["cost"] = cost
    if not np.isfinite(chosen_acc):
        return Verdict(picked + ", a run without an accuracy.", "undefined", numbers)
    if cost <= 0:
        return Verdict(
            picked + f", with accuracy {fmt(chosen_acc)}: the most accurate on the grid.",
            "free",
            numbers,
        )
    return Verdict(
        picked + f", with accuracy {fmt(chosen_acc)}; the best {param}, {v[j]:g}, reaches "
        f"{fmt(best_acc)}: a cost of {cost:.3f} in accuracy.",
        "costs",
        numbers,
    )


def families(
    rows: Sequence[tuple[str, Any, Any, float]], *, score_name: str = "held-out MSP"
) -> Verdict:
    """Does the score follow accuracy within each family of tasks? One sentence for all.

    ``rows`` holds ``(label, score, accuracy, paper_r)`` per family (``paper_r`` NaN when
    the paper gives none). Each family's r is worded by :func:`correlation`'s rules; the
    sentence counts the families in which the score follows accuracy.

    Examples
    --------
    >>> v = families([("UCI tasks", [0.9, 0.8, 0.7, 0.6], [0.97, 0.9, 0.8, 0.85], 0.72),
    ...               ("digits pairs", [0.9, 0.8, 0.7], [0.8, 0.9, 0.95], 0.81)])
    >>> print(v)  # doctest: +NORMALIZE_WHITESPACE
    The held-out MSP follows accuracy in 1 of 2 families of tasks: closely over the 4 UCI
    tasks (r = 0.82; paper 0.72); it runs against it over the 3 digits pairs (r = -0.98;
    paper 0.81).
    """
    parts_follow, parts_not = [], []
    numbers: dict[str, Any] = {}
    for label, score, accuracy, paper_r in rows:
        v = correlation(score, accuracy, score_name=score_name)
        numbers[label] = {**v.numbers, "kind": v.kind, "paper_r": paper_r}
        paper = f"; paper {_r(paper_r)}" if np.isfinite(paper_r) else ""
        where = f"the {v.numbers['n']} {label}"
        if v.kind == "undefined":
            parts_not.append(f"over {where} it cannot be told (too little spread)")
        elif v.kind in ("closely", "follows"):
            how = "closely" if v.kind == "closely" else "moderately"
            parts_follow.append(f"{how} over {where} (r = {_r(v.numbers['r'])}{paper})")
        elif v.kind == "against":
            parts_not.append(f"it runs against it over {where} (r = {_r(v.numbers['r'])}{paper})")
        else:
            parts_not.append(f"it does not over {where} (r = {_r(v.numbers['r'])}{paper})")
    n_follow, n = len(parts_follow), len(rows)
    numbers["follow"] = n_follow
    if n == 0:
        return Verdict("", "undefined", numbers)
    count = f"all {n}" if n_follow == n and n > 1 else f"{n_follow} of {n}"
    if n_follow == 0:
        head = f"The {score_name} does not follow accuracy in any of the {n} families of tasks"
        listed = [
            f"r = {_r(numbers[label]['r'])} over the {numbers[label]['n']} {label}"
            for label, *_ in rows
        ]
        text = head + f" (the lab says it follows from r = {FOLLOWS_R:g}): " + "; ".join(listed)
        text += "."
        return Verdict(text, "none", numbers)
    head = f"The {score_name} follows accuracy in {count} famil{'y' if n == 1 else 'ies'} of tasks"
    text = head + ": " + ", ".join(parts_follow)
    if parts_not:
        text += "; " + "; ".join(parts_not)
    kind = "all" if n_follow == n else "some"
    return Verdict(text + ".", kind, numbers)
