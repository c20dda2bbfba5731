"""The two-cluster linear MSPC's multi-start, and the default's climbs at smaller ``lam``.

:func:`multi_start` climbs from each named start (or the array given as ``init``) at one
``lam`` and keeps the best labeling: by the held-out MSP for ``init="heldout"``
(:func:`clustering._starts.better` with :data:`clustering._starts.HELDOUT_MARGIN`, among
:func:`clustering._starts.eligible` labelings), by the in-sample MSP otherwise.

:func:`lam_path` is what ``init="heldout"`` adds: the same multi-start at ``lam`` times each
factor of :data:`LAM_PATH`, a smaller-``lam`` labeling replacing the ``lam`` one when
its held-out MSP at the smallest of these ``lam`` is the largest of them and larger than the
``lam`` one's by more than :data:`PATH_MARGIN` (among eligible labelings, if the ``lam`` one
is).

Why: the regulariser ``lam * diag(Sigma)`` adds ``lam`` (in z-scored units) to every
direction's variance, so groups that differ along a direction of little variance (the
shapes of MASS ``crabs``, where most of the variance is size) are invisible to a climb at
the default ``lam = 0.2``: the starts find them and the climb walks away, and the held-out
MSP at 0.2 rates them below size splits. At 0.05 or 0.01 the climbs keep them and the
held-out MSP rates them above. A smaller ``lam`` for every fit loses elsewhere (the lab's
400 bundled tasks: ``ionosphere`` 0.689 to 0.516 at 0.05), so the smaller ``lam`` wins only
by a margin on a criterion common to all the labelings compared.

Measured (``bench/real_families.py``, the groups tuned on; ``bench/RESULTS.md``): pairs
at chance (accuracy below 0.6) 43 to 34 of 195 real class pairs, mean accuracy 0.799 to
0.809; the lab's 400 bundled two-class tasks 0.857 / 52 both.
"""

from __future__ import annotations

import numpy as np

from ._base import two_cluster_labels
from ._moments import heldout_reg
from ._starts import HELDOUT_MARGIN, better, eligible
from .exceptions import DegenerateDataError
from .mpm import kappa_to_alpha
from .msp_heldout import heldout_msp_z
from .mspc_multiclass import heldout_key

__all__ = ["LAM_PATH", "PATH_MARGIN", "lam_path", "multi_start", "smaller_lams", "subsample_path"]

#: The smaller ``lam`` the default also climbs at, as factors of ``lam`` (0.05 and 0.01 at
#: the default 0.2); the last is the ``lam`` of the held-out MSP that compares them.
LAM_PATH = (0.25, 0.05)
#: How much larger that held-out MSP must be for a smaller ``lam``'s labeling to be kept.
PATH_MARGIN = 0.05


def smaller_lams(est, lam: float) -> list[float]:
    """The smaller ``lam`` the fit also climbs at: those of :data:`LAM_PATH` for the default
    ``search="paper"`` and ``lam > 0`` (the other searches promise a rise of the MSP at
    ``lam`` itself), none otherwise or in a fit of one ``lam`` (:func:`subsample_path`)."""
    if est.search != "paper" or lam <= 0 or getattr(est, "_one_lam", False):
        return []
    return [lam * f for f in LAM_PATH]


def _choose(candidates: list, d: int) -> int:
    """Which of ``candidates`` (``(labels, score)``, the first at ``lam``, the others at
    the smaller ``lam``; ``score`` the held-out MSP at the smallest) is kept: the smaller
    ``lam``'s of largest score when it beats the first's by more than :data:`PATH_MARGIN`,
    among those :func:`clustering._starts.eligible` (all of them if the first is not)."""
    first_labels, first_score = candidates[0]
    floor = eligible(first_labels, d)
    others = [i for i in range(1, len(candidates)) if eligible(candidates[i][0], d) or not floor]
    if not others:
        return 0
    best = max(others, key=lambda i: candidates[i][1])  # the larger lam on a tie
    return best if candidates[best][1] > first_score + PATH_MARGIN else 0


def multi_start(est, names, X, std, Lambda, lam, random_state, seed, by_heldout, cache):
    """Climb at ``lam`` from each start of ``names`` and keep the best (see the module).

    ``cache`` maps a start's name to its labels (every start but ``"eig"`` is independent of
    ``lam``, so the climbs at other ``lam`` reuse them and k-means runs once). Returns
    ``(score, result, kappa, labels0, entries)``: the kept labeling's held-out MSP (or
    in-sample MSP), the solver's result, its ``kappa`` at ``lam``, its start and one
    ``starts_`` entry per start climbed.
    """
    n, d = std.Z.shape
    gram = cache.get("gram")
    if (
        gram is None
        and n > d
        and (len(names) > 1 or (isinstance(names[0], str) and names[0] == "eig"))
    ):
        # Z'Z, shared by the EIG start and the climbs (each then computes only its smaller
        # cluster's scatter), when there is more than one use for it and N > d.
        gram = cache["gram"] = std.Z.T @ std.Z
    reg_ho = heldout_reg(std, est.regularizer, lam)
    best, seen, entries = None, [], []
    climbed: list[tuple[np.ndarray, float]] = []
    for name in names:
        if not isinstance(name, str):
            labels0 = two_cluster_labels(name, X.shape[0])  # identical samples refused already
        elif name in cache and name != "eig":
            labels0 = cache[name]
        else:
            try:
                labels0 = est._start_labels(name, X, std, Lambda, lam, random_state, gram=gram)
            except DegenerateDataError:
                if len(names) == 1 or name != "eig":
                    raise
                continue  # EIG put every sample in one cluster; other starts remain
            cache[name] = labels0
        if any(np.array_equal(labels0, s) or np.array_equal(labels0, 1 - s) for s in seen):
            continue  # the same start climbs to the same labeling
        seen.append(labels0)
        result, kappa = est._climb(std, Lambda, lam, labels0, gram=gram)
        msp = kappa_to_alpha(kappa)
        entry = {"init": name if isinstance(name, str) else "array", "msp": msp}
        entry.update(n_iter=result.n_iter, lam=lam)
        key = (True, msp)
        if by_heldout:
            entry["msp_heldout"], key = heldout_key(climbed, result.labels, std.Z, 2, reg_ho, seed)
        entries.append(entry)
        if best is None or better(key, best[0], HELDOUT_MARGIN if by_heldout else 0.0):
            best = (key, result, kappa, labels0)
    (_, score), result, kappa, labels0 = best
    return score, result, kappa, labels0, entries


def lam_path(est, names, X, std, Lambda, lam, random_state, seed, cache):
    """The held-out multi-start at ``lam`` and at each smaller ``lam`` of :data:`LAM_PATH`,
    and the one kept (see the module). Returns ``(search_lam, score, result, kappa,
    labels0, entries)``: the ``lam`` whose climb is kept, its held-out MSP at that ``lam``,
    the rest as :func:`multi_start`, and the entries of every climb."""
    first = multi_start(est, names, X, std, Lambda, lam, random_state, seed, True, cache)
    lams = smaller_lams(est, lam)
    if not lams:
        return (lam,) + first
    reg_ref = heldout_reg(std, est.regularizer, lams[-1])
    found = [first] + [
        multi_start(est, names, X, std, Lambda, one, random_state, seed, True, cache)
        for one in lams
    ]
    scores = [
        heldout_msp_z(std.Z, f[1].labels, 2, reg_ref, random_state=seed, too_small="zero")
        for f in found
    ]
    i = _choose(
        [(f[1].labels, score) for f, score in zip(found, scores, strict=True)], std.Z.shape[1]
    )
    entries = [entry for f in found for entry in f[4]]
    return ([lam] + lams)[i], *found[i][:4], entries


def subsample_path(est, X, std, Lambda, lam, random_state, seed, size):
    """Above ``size`` samples: at ``lam`` and each of :func:`smaller_lams`, the held-out
    multi-start of that ``lam`` alone on one random subsample of ``size`` points (the same
    for every ``lam``), one climb on every sample from the side of its hyperplane, and the
    one kept as :func:`lam_path` keeps it (held-out MSPs of one split on every sample).

    The subsample depends only on ``random_state`` and the fits on it are invariant to
    rescaling features when the estimator's are, so the labels are too. Returns
    ``(search_lam, result, kappa, labels0, entries)``: ``entries`` are each subsample fit's
    ``starts_`` (marked ``subsample``) followed by its climb on every sample
    (``init="subsample"``).
    """
    from sklearn.base import clone

    idx = np.sort(random_state.choice(X.shape[0], size, replace=False))
    lams = smaller_lams(est, lam)
    reg_ref = heldout_reg(std, est.regularizer, lams[-1]) if lams else None
    found, entries = [], []
    for one in [lam] + lams:
        sub = clone(est).set_params(random_state=seed, lam=one)
        sub._one_lam = sub._skip_reference = True  # internal: this lam only, no reference
        sub.fit(X[idx])
        labels0 = (X @ sub.w_ - sub.b_ >= 0).astype(np.intp)
        if np.unique(labels0).shape[0] < 2:
            if one != lam:
                continue
            raise DegenerateDataError(
                "The hyperplane chosen on a subsample puts every sample on one side; "
                "pass init='kmeans-range' (or another single start)."
            )
        result, kappa = est._climb(std, Lambda, one, labels0)
        entries.extend(dict(entry, subsample=size) for entry in sub.starts_)
        entries.append(
            {"init": "subsample", "msp": kappa_to_alpha(kappa), "n_iter": result.n_iter, "lam": one}
        )
        score = 0.0
        if lams:
            score = heldout_msp_z(
                std.Z, result.labels, 2, reg_ref, n_repeats=1, random_state=seed, too_small="zero"
            )
        found.append((one, result, kappa, labels0, score))
    i = _choose([(f[1].labels, f[4]) for f in found], std.Z.shape[1])
    return *found[i][:4], entries
