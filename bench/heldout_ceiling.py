"""How high can r(held-out MSP, accuracy) go over a family when a rule may pick, on every data
set, any of the labelings the default can produce (its climbed starts) or the class labeling?

Usage: ``python bench/heldout_variants.py --part max-r [--families F,...]`` (this module holds
the part and its optimiser; it reuses ``heldout_variants``' candidates and scores).

Choosing one candidate per data set to maximise Pearson's r over the family, subject to a
floor on the mean accuracy (and no data set below 0.6), has no closed form; two numbers
bracket the maximum:

- a **lower bound** (achieved): the best selection found by coordinate ascent (one data set,
  then two at a time) from random feasible starts, the most accurate selection, and the
  selections the upper bound's search visits;
- an **upper bound** (proved): ``t`` is an upper bound when no selection has r >= t. A selection
  with r >= t > 0 and mean accuracy v has, at its least-squares line a = c0 + b1 (s - s_ref)
  (b1 > 0), residual sum of squares (1 - r^2) V_a <= (1 - t^2) sum_i (a_i - v)^2, i.e.
  ``sum_i q_i <= 0`` with ``q_i = (a_i - c0 - b1 (s_i - s_ref))^2 - (1 - t^2) (a_i - v)^2
  + lam (a_i - v)`` for every ``lam`` (the last term sums to 0 at v = the mean accuracy).
  Over a box of (c0, b1, v), ``sum_i min_j min_box q_ij`` is a lower bound of that sum for
  every selection whose line and mean fall in the box: a box where it is positive for some
  ``lam`` holds no such selection. Boxes are split until every box of the region the line and
  the mean can take is excluded (then t is proved), or a box budget runs out (then not). The
  slope is at least ``t g / sqrt(2 max V_s)``, g the smallest positive gap between candidate
  accuracies (V_a >= g^2 / 2 as soon as two chosen accuracies differ), so b1 = 0, where every
  selection of equal accuracies sits, never has to be excluded.
"""

from __future__ import annotations

import itertools

import numpy as np

from bench import _heldout_setup as setup

#: multipliers tried on the mean-accuracy constraint (any value gives a valid bound)
_LAMS = np.concatenate([[0.0], np.geomspace(1e-6, 2.0, 20), -np.geomspace(1e-6, 2.0, 20)])


def candidates(acc, score, floor=0.6, at_least=None):
    """Padded (n, m) arrays of the distinct (accuracy, score) candidates of each data set:
    accuracy >= ``floor`` (and >= ``at_least[i]`` when given), score defined."""
    rows = []
    for i, (a, s) in enumerate(zip(acc, score, strict=True)):
        lo = floor if at_least is None else max(floor, at_least[i] - 1e-12)
        pairs = sorted(
            {(round(float(x), 9), float(y)) for x, y in zip(a, s, strict=True) if x >= lo}
        )
        pairs = [p for p in pairs if not np.isnan(p[1])]
        if not pairs:
            raise ValueError(f"data set {i} has no candidate with accuracy >= {lo}")
        rows.append(pairs)
    m = max(len(p) for p in rows)
    A = np.array([[p[min(j, len(p) - 1)][0] for j in range(m)] for p in rows])
    S = np.array([[p[min(j, len(p) - 1)][1] for j in range(m)] for p in rows])
    return A, S


def pearson(a, s) -> float:
    a, s = np.asarray(a, float), np.asarray(s, float)
    da, ds = a - a.mean(), s - s.mean()
    den = np.sqrt((da @ da) * (ds @ ds))
    return float(da @ ds / den) if den > 0 else np.nan


def _r_of_sums(n, sa, ss, qa, qs, p):
    va, vs = qa - sa * sa / n, qs - ss * ss / n
    with np.errstate(invalid="ignore", divide="ignore"):
        r = (p - sa * ss / n) / np.sqrt(np.maximum(va, 0) * np.maximum(vs, 0))
    return np.where((va > 1e-15) & (vs > 1e-15), r, -np.inf)


def _ascend(A, S, sel, min_sum):
    """Coordinate ascent on r from ``sel``: single then pair moves keeping sum(a) >= min_sum."""
    n, m = A.shape
    idx = np.arange(n)
    while True:
        a, s = A[idx, sel], S[idx, sel]
        sums = np.array([a.sum(), s.sum(), a @ a, s @ s, a @ s])
        cur = _r_of_sums(n, *sums)
        # every single move (i, j)
        d = [A - a[:, None], S - s[:, None], A**2 - (a**2)[:, None], S**2 - (s**2)[:, None]]
        d.append(A * S - (a * s)[:, None])
        r1 = _r_of_sums(n, *(sums[k] + d[k] for k in range(5)))
        r1[sums[0] + d[0] < min_sum - 1e-12] = -np.inf
        if r1.max() > cur + 1e-12:
            i, j = np.unravel_index(r1.argmax(), r1.shape)
            sel = sel.copy()
            sel[i] = j
            continue
        # every pair move (i, j, k, l), i < k
        flat = [x.reshape(-1) for x in d]
        r2 = _r_of_sums(n, *(sums[k] + flat[k][:, None] + flat[k][None, :] for k in range(5)))
        same = np.repeat(idx, m)
        r2[same[:, None] == same[None, :]] = -np.inf
        r2[sums[0] + flat[0][:, None] + flat[0][None, :] < min_sum - 1e-12] = -np.inf
        if r2.max() > cur + 1e-12:
            u, w = np.unravel_index(r2.argmax(), r2.shape)
            sel = sel.copy()
            sel[u // m], sel[w // m] = u % m, w % m
            continue
        return float(cur), sel


def max_r_search(A, S, min_mean, restarts=200, seed=0, starts=()):
    """Best r found (a lower bound of the maximum) and its selection."""
    n, m = A.shape
    min_sum = n * min_mean
    rng = np.random.default_rng(seed)
    best = (-np.inf, None)
    top = A.argmax(axis=1)
    if A[np.arange(n), top].sum() < min_sum - 1e-12:
        raise ValueError("no selection reaches the mean accuracy floor")
    inits = [top, *starts]
    for _ in range(restarts):
        sel = rng.integers(0, m, n)
        for i in rng.permutation(n):  # repair: the most accurate candidate until feasible
            if A[np.arange(n), sel].sum() >= min_sum - 1e-12:
                break
            sel[i] = top[i]
        inits.append(sel)
    for sel in inits:
        r, sel = _ascend(A, S, np.asarray(sel), min_sum)
        if r > best[0]:
            best = (r, sel)
    return best


def _gap(A) -> float:
    vals = np.unique(A)
    return float(np.diff(vals).min()) if len(vals) > 1 else np.inf


def _var_bounds(X):
    """(lower bound of min, upper bound of max) over selections of sum_i (x_i - mean)^2."""
    grid = np.linspace(X.min(), X.max(), 401)
    hi = min(float(((X - u) ** 2).max(1).sum()) for u in grid)  # any u bounds the max
    lo = np.inf
    for u0, u1 in itertools.pairwise(grid):  # the mean lies in some [u0, u1]
        dist = np.maximum(np.maximum(u0 - X, X - u1), 0)
        lo = min(lo, float((dist**2).min(1).sum()))
    return lo, hi


def _box_bounds(A, D, t, boxes, lams=_LAMS):
    """Lower bound of sum_i q_i over each box (rows c0L, c0U, b1L, b1U, vL, vU), best lam."""
    c0l, c0u, b1l, b1u = (boxes[:, k, None, None] for k in range(4))
    lo_slope = np.minimum(b1l * D, b1u * D)
    hi_slope = np.maximum(b1l * D, b1u * D)
    e_lo, e_hi = A - c0u - hi_slope, A - c0l - lo_slope
    t1 = np.where(e_lo > 0, e_lo**2, np.where(e_hi < 0, e_hi**2, 0.0))  # (B, n, m)
    k = 1 - t * t
    L = lams[None, :, None, None]

    def t2(v):  # v: (B,) -> (B, L, n, m)
        dev = A - v[:, None, None, None]
        return -k * dev**2 + L * dev

    q = t1[:, None] + np.minimum(t2(boxes[:, 4]), t2(boxes[:, 5]))  # (B, L, n, m)
    tot = q.min(axis=3).sum(axis=2)
    best = tot.argmax(axis=1)
    return tot[np.arange(len(boxes)), best], lams[best]


def r_upper_bound_holds(A, S, t, min_mean, max_boxes=200_000, chunk=256, witness=True):
    """True when no selection (one candidate per row, mean accuracy >= min_mean) has
    Pearson r >= t (proved by excluding boxes, see the module docstring); False when the box
    budget runs out first. Also returns the number of boxes evaluated and the best r of the
    selections read off the boxes (each an achieved value); with ``witness`` it stops, not
    proved, as soon as one of them reaches t."""
    n = len(A)
    s_ref = float(np.median(S))
    D = S - s_ref
    vs_lo, vs_hi = _var_bounds(S)
    _, va_hi = _var_bounds(A)
    g = _gap(A)
    if not (t > 0) or vs_lo <= 0 or not np.isfinite(g):
        return False, 0, -np.inf, None
    b1_lo = t * g / np.sqrt(2 * vs_hi) * (1 - 1e-9)
    b1_hi = np.sqrt(va_hi / vs_lo) * (1 + 1e-9)
    v_lo, v_hi = max(min_mean - 1e-12, A.min()), A.max()
    c0_lo = v_lo + b1_hi * min(0.0, s_ref - S.max())
    c0_hi = v_hi + b1_hi * max(0.0, s_ref - S.min())
    queue = [np.array([c0_lo, c0_hi, b1_lo, b1_hi, v_lo, v_hi])]
    width = np.array([1.0, np.abs(D).max(), 1.0])
    done, seen, seen_sel = 0, -np.inf, None
    idx = np.arange(n)
    while queue:
        batch = np.array(queue[-chunk:])
        del queue[-chunk:]
        done += len(batch)
        if done > max_boxes:
            return False, done, seen, seen_sel
        lb, lam = _box_bounds(A, D, t, batch)
        for box, bound, la in zip(batch, lb, lam, strict=True):
            if bound > 1e-12:
                continue
            c0, b1, v = (box[0] + box[1]) / 2, np.sqrt(box[2] * box[3]), (box[4] + box[5]) / 2
            q = (A - c0 - b1 * D) ** 2 - (1 - t * t) * (A - v) ** 2 + la * (A - v)
            sel = q.argmin(axis=1)
            a = A[idx, sel]
            if a.mean() >= min_mean - 1e-12 and pearson(a, S[idx, sel]) > seen:
                seen, seen_sel = pearson(a, S[idx, sel]), sel
                if witness and seen >= t:
                    return False, done, seen, seen_sel
            w = np.array([box[1] - box[0], box[3] - box[2], box[5] - box[4]]) * width
            d = int(w.argmax())
            lo, hi = box[2 * d], box[2 * d + 1]
            mid = np.sqrt(lo * hi) if d == 1 and hi > 4 * lo else (lo + hi) / 2
            left, right = box.copy(), box.copy()
            left[2 * d + 1], right[2 * d] = mid, mid
            queue += [left, right]
    return True, done, seen, seen_sel


def r_upper_bound(A, S, min_mean, lower, tol=0.01, max_boxes=200_000):
    """Smallest t (to ``tol``, bisected between ``lower`` and 1) proved an upper bound of r
    (1.0 when none is), the boxes evaluated, and the best selection read off the boxes (its
    r, which may exceed ``lower``, and the selection)."""
    lo, hi, boxes, best = lower, 1.0, 0, (-np.inf, None)
    while hi - lo > tol:
        t = (lo + hi) / 2
        ok, n_boxes, seen, sel = r_upper_bound_holds(A, S, t, min_mean, max_boxes)
        boxes += n_boxes
        if seen > best[0]:
            best = (seen, sel)
        if ok:
            hi = t
        else:
            lo = max(t, seen)
    return hi, boxes, best


def contributions(a, s) -> np.ndarray:
    """Each data set's share of Pearson's r (the shares sum to r)."""
    a, s = np.asarray(a, float), np.asarray(s, float)
    da, ds = a - a.mean(), s - s.mean()
    return da * ds / np.sqrt((da @ da) * (ds @ ds))


def _carriers(names, a, s, k=2) -> tuple[str, str]:
    """The k largest shares of r (and 1v8's when the family has it), and r without the
    largest share (and without 1v8)."""
    c = contributions(a, s)
    short = [n.split(":")[-1] for n in names]
    order = list(np.argsort(-c)[:k])
    focus = next((i for i, n in enumerate(short) if n.split("/")[0] == "1v8"), None)
    top = ", ".join(f"{short[i]} {c[i]:+.2f}" for i in order)
    drop = [order[0]]
    if focus is not None and focus not in order:
        top += f" ({short[focus]} {c[focus]:+.2f})"
    if focus is not None and focus != order[0]:
        drop.append(focus)
    without = [pearson(np.delete(np.asarray(a), i), np.delete(np.asarray(s), i)) for i in drop]
    return top, " / ".join(f"{w:.2f}" for w in without)


def family_candidates(rows, lam, **score_kw):
    """Per data set: accuracies and held-out MSPs (at ``lam``, other settings of
    ``heldout_variants._score`` in ``score_kw``) of the climbed starts and the class labeling,
    and the shipped labels' accuracy and score."""
    from clustering._moments import standardize
    from clustering.metrics import clustering_accuracy

    acc, score, ship_a, ship_s = [], [], [], []
    for r in rows:
        std = standardize(r["X"])
        cands = [*r["starts"], r["y"]]
        acc.append([clustering_accuracy(r["y"], c) for c in cands])
        score.append([setup._score(std, c, lam=lam, **score_kw) for c in cands])
        ship_a.append(r["acc"])
        ship_s.append(setup._score(std, r["labels"], lam=lam, **score_kw))
    return acc, score, np.array(ship_a), np.array(ship_s)


def _rules(fam, ship_a):
    """(label, mean-accuracy floor, per-set floor, per-set minimum, with the classes) of each
    constrained maximum."""
    rules = []
    if fam.startswith("digits"):  # the targets for the digits pairs
        rules += [("mean accuracy >= 0.96", 0.96, 0.6, None, True)]
        rules += [("mean accuracy >= 0.96, the starts only", 0.96, 0.6, None, False)]
        rules += [("mean accuracy >= 0.96, no set below 0.8", 0.96, 0.8, None, True)]
    return [
        *rules,
        (f"mean accuracy >= the shipped {ship_a.mean():.3f}", ship_a.mean(), 0.6, None, True),
        ("every set at least its shipped accuracy", 0.0, 0.6, ship_a, True),
        ("no other constraint", 0.0, 0.6, None, True),
    ]


def part_max_r(data, restarts=200, max_boxes=200_000) -> None:
    """The table of ``--part max-r``: per family and score, the shipped labels, then the
    selection of largest r under each accuracy constraint (found / proved bound)."""

    print("\n### Largest r(held-out MSP, accuracy) of any choice among the climbed starts and")
    print(f"### the class labeling ({restarts} random restarts; bounds to 0.01)\n")
    print(
        "| family | score at lam | selection (max r: no set below 0.6, and) | mean accuracy "
        "| r found | r upper bound (proved) | largest shares of r (1v8's) "
        "| r without the largest / without 1v8 | sets chosen below 0.9 "
        "| sets less / more accurate than shipped |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for fam in (f for f in setup.CEILING_FAMILIES if f in data):
        rows = data[fam]
        names = [r["name"] for r in rows]
        short = [n.split(":")[-1] for n in names]
        for lam in (setup.FIT_LAM, 0.05):
            acc, score, ship_a, ship_s = family_candidates(rows, lam)
            top, without = _carriers(names, ship_a, ship_s)
            head = f"| {fam} | {lam} |"
            low = ", ".join(short[i] for i in np.flatnonzero(ship_a < 0.9))
            print(
                f"{head} shipped labels ({int((ship_a < 0.6).sum())} below 0.6) "
                f"| {ship_a.mean():.3f} | {pearson(ship_a, ship_s):.3f} | | {top} | {without} "
                f"| {low} | |"
            )
            for label, mean_floor, floor, at_least, classes in _rules(fam, ship_a):
                keep = slice(None) if classes else slice(0, -1)  # the classes come last
                A, S = candidates([x[keep] for x in acc], [x[keep] for x in score], floor, at_least)
                found, sel = max_r_search(A, S, mean_floor, restarts=restarts)
                ub, _, (seen, seen_sel) = r_upper_bound(A, S, mean_floor, found, 0.01, max_boxes)
                if seen > found:
                    found, sel = max_r_search(A, S, mean_floor, restarts=0, starts=[seen_sel])
                a, s = A[np.arange(len(A)), sel], S[np.arange(len(A)), sel]
                top, without = _carriers(names, a, s)
                low = ", ".join(short[i] for i in np.flatnonzero(a < 0.9))
                less, more = int((a < ship_a - 1e-9).sum()), int((a > ship_a + 1e-9).sum())
                print(
                    f"{head} {label} | {a.mean():.3f} | {found:.3f} | {ub:.3f} | {top} "
                    f"| {without} | {low} | {less} / {more} |",
                    flush=True,
                )


def score_variants() -> dict:
    """Every held-out MSP setting measured in ``heldout_variants``: the rescore variants and
    the score settings of the pipeline variants (their margin does not change the score)."""

    out = dict(setup.RESCORE_VARIANTS)
    known = [dict(v) for v in out.values()]
    for label, v in setup.PIPELINE_VARIANTS.items():
        kw = {k: x for k, x in v.items() if k != "margin"}
        if kw and kw not in known:
            out[label.removeprefix("scored at ")] = kw
            known.append(kw)
    return out


def _bracket(A, S, min_mean, restarts, max_boxes):
    """(found, proved upper bound) of the largest r; the bound is 1.0 when not proved."""
    found, _ = max_r_search(A, S, min_mean, restarts=restarts)
    ub, _, (seen, _) = r_upper_bound(A, S, min_mean, found, 0.01, max_boxes)
    return max(found, seen), ub


def greedy_to(acc, score, ship_a, ship_s, names, target=0.8, max_moves=3) -> str:
    """From the shipped labels, replace one data set's labeling at a time by the climbed start
    (never the classes; the classes come last in ``acc``) at least as accurate that raises r
    most, until r >= ``target``: the moves, or "none" when ``max_moves`` do not reach it."""
    a, s = np.array(ship_a, float), np.array(ship_s, float)
    moves = []
    while pearson(a, s) < target and len(moves) < max_moves:
        best, move = pearson(a, s), None
        for i, (ai, si) in enumerate(zip(acc, score, strict=True)):
            for x, y in zip(ai[:-1], si[:-1], strict=True):
                if x < ship_a[i] - 1e-12 or np.isnan(y):
                    continue
                b, t = a.copy(), s.copy()
                b[i], t[i] = x, y
                if pearson(b, t) > best + 1e-12:
                    best, move = pearson(b, t), (i, x, y)
        if move is None:
            break
        i, x, y = move
        a[i], s[i] = x, y
        moves.append(
            f"{names[i].split(':')[-1]} {ship_a[i]:.3f} at {ship_s[i]:.3f} -> "
            f"{a[i]:.3f} at {s[i]:.3f}: r {best:.3f}"
        )
    if pearson(a, s) < target:
        return "none" if not moves else f"none ({len(moves)} moves: r {pearson(a, s):.3f})"
    return "; ".join(moves) or "none needed"


def _chosen_by_score(rows, label, fam) -> str:
    """The default pipeline with the score setting both choosing among the starts and
    reported (as ``--part pipelines``); only for settings the pipeline can change (lam, parts,
    repeats) and on the digits pairs."""
    from clustering.metrics import clustering_accuracy

    kw = score_variants()[label]
    if fam != "digits" or not set(kw) <= {"lam", "n_splits", "n_repeats"}:
        return ""
    fits = [setup._fit(r["X"], **kw) for r in rows]
    a = np.array([clustering_accuracy(r["y"], m.labels_) for r, m in zip(rows, fits, strict=True)])
    r = setup._r([m.msp_heldout_ for m in fits], a)
    return f"{a.mean():.3f} / {int((a < 0.6).sum())} / {r:.3f}"


def part_max_r_variants(data, restarts=200, max_boxes=200_000) -> None:
    """The table of ``--part max-r-variants``: per score setting, the largest r of a choice
    among the climbed starts and the class labeling that is never less accurate than the
    shipped labels, and of one with mean accuracy >= 0.96 (found / proved bound)."""

    print("\n### Largest r(score, accuracy) of a choice among the climbed starts and the class")
    print(f"### labeling, per score setting ({restarts} random restarts; bounds to 0.01)\n")
    print(
        "| family | score | data sets | r of the shipped labels | every set >= its shipped "
        "accuracy (no set < 0.6): found / bound | same, no 0.6 floor: found / bound "
        "| mean accuracy >= 0.96, no set < 0.6: found / bound "
        "| fewest starts at least as accurate to reach r 0.8 (greedy) "
        "| the score choosing among the starts too: mean accuracy / below 0.6 / r |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    fams = [f for f in ("digits", "digits-half*") if f in data]
    for fam in fams:
        variants = score_variants()
        if fam != "digits":  # the held-aside family: the shipped score and lam 0.05 only
            variants = {k: v for k, v in variants.items() if v in ({}, {"lam": 0.05})}
        for label, kw in variants.items():
            kw = dict(kw)
            lam = kw.pop("lam", setup.FIT_LAM)
            acc, score, ship_a, ship_s = family_candidates(data[fam], lam, **kw)
            ok = np.array([not np.isnan(s) for s in ship_s]) & np.array(
                [not np.isnan(s).all() for s in score]
            )
            keep = np.flatnonzero(ok)
            acc, score = [acc[i] for i in keep], [score[i] for i in keep]
            ship_a, ship_s = ship_a[keep], ship_s[keep]
            cells = []
            for floor, at_least, mean in ((0.6, ship_a, 0.0), (0.0, ship_a, 0.0)):
                A, S = candidates(acc, score, floor, at_least)
                cells.append("{:.3f} / {:.3f}".format(*_bracket(A, S, mean, restarts, max_boxes)))
            if fam == "digits":
                A, S = candidates(acc, score, 0.6)
                cells.append("{:.3f} / {:.3f}".format(*_bracket(A, S, 0.96, restarts, max_boxes)))
            else:
                cells.append("")
            names = [data[fam][i]["name"] for i in keep]
            cells.append(greedy_to(acc, score, ship_a, ship_s, names))
            cells.append(_chosen_by_score(data[fam], label, fam))
            print(
                f"| {fam} | {label} | {len(keep)} | {pearson(ship_a, ship_s):.3f} | "
                + " | ".join(cells)
                + " |",
                flush=True,
            )
