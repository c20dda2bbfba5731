"""Choosing MSPC's default by measurement: every start, search and ``lam`` on families of data
sets, and the label-free rules that pick among them.

Usage: ``python bench/defaults_families.py [--families F,...] [--aside] [--fresh]
[--pipelines] [--rescaling]``

``--pipelines``: the shipped default, the default before it (``init="auto"``, monotone
search) and the paper's pipeline, fitted as they ship on every data set of each family.
``--rescaling``: whether the default's labels are identical after rescaling every feature
by ``10^U(-3, 3)`` (two sets of each family).

For every data set of a family it computes the candidate labelings once (cached in
``bench/.cache/defaults/``): each start (k-means on the raw features, on z-scored features,
on PCA-whitened features, the EIG labels) alone and climbed by each search (the paper's
alternation, the monotone search) at each ``lam`` of :data:`LAMS`; for each candidate its
accuracy, in-sample MSP and held-out MSP. Then it prints, per family, the accuracy of each
fixed pipeline and of each selection rule (the labeling of largest in-sample or held-out MSP
among a set of candidates), the pairs at chance (accuracy < 0.6) and Pearson's r between the
reported score and the accuracy over the family's data sets.

Families tuned on (the issue's): the seven UCI tasks, the 45 digits pairs, the 15 satimage
pairs, 20 letter pairs (a fixed draw), scikit-learn's anisotropic blobs. Held aside
(``--aside``; never used to choose anything): two-centre ``make_blobs`` and ``make_moons`` at
several seeds, wine and iris pairs, 20 other letter pairs, ``breast_cancer``, ``sonar`` and
the digits pairs with half the points of each class (a higher d / N).
"""

from __future__ import annotations

import argparse
import itertools
import pickle
import sys
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import datasets
from clustering import MSPC
from clustering._moments import standardize
from clustering.metrics import clustering_accuracy, msp_score
from clustering.msp_heldout import heldout_msp_from_std

CACHE = Path(__file__).resolve().parent / ".cache" / "defaults"
STARTS = ("kmeans", "kmeans-standardized", "kmeans-whitened", "eig")
SEARCHES = ("none", "paper", "monotone")
LAMS = (0.1, 0.2)


def _letter_pairs(seed: int, n: int = 20, exclude=()) -> list[str]:
    allp = [p for p in datasets.pairs("letter") if p not in exclude]
    rng = np.random.default_rng(seed)
    return sorted(allp[i] for i in rng.choice(len(allp), n, replace=False))


LETTER_TUNE = _letter_pairs(0)
LETTER_ASIDE = _letter_pairs(1, exclude=set(LETTER_TUNE) | {"letter:AvB"})


def _aniso(seed):
    from sklearn.datasets import make_blobs
    from sklearn.preprocessing import StandardScaler

    X, y = make_blobs(n_samples=500, centers=2, random_state=seed)
    A = np.array([[0.6, -0.6], [-0.4, 0.8]])
    return StandardScaler().fit_transform(X @ A), y


def _blobs(seed):
    from sklearn.datasets import make_blobs

    return make_blobs(n_samples=400, centers=2, n_features=5, cluster_std=2.0, random_state=seed)


def _moons(seed):
    from sklearn.datasets import make_moons

    return make_moons(n_samples=400, noise=0.1, random_state=seed)


def _half(name):
    def load():
        ds = datasets.load(name)
        rng = np.random.default_rng(0)
        keep = np.concatenate(
            [rng.permutation(np.flatnonzero(ds.y == c))[: (ds.y == c).sum() // 2] for c in (0, 1)]
        )
        return ds.X[keep], ds.y[keep]

    return load


def _bundled(name):
    def load():
        ds = datasets.load(name)
        return ds.X, ds.y

    return load


def families(aside: bool) -> dict[str, list[tuple[str, callable]]]:
    """The families of data sets the default is chosen on (``aside``: the held-aside families,
    never used to choose): name to ``(data set name, loader)``."""
    if not aside:
        return {
            "uci": [(n, _bundled(n)) for n in datasets.UCI_TASKS],
            "digits": [(n, _bundled(n)) for n in datasets.pairs("digits")],
            "satimage": [(n, _bundled(n)) for n in datasets.pairs("satimage")],
            "letter": [(n, _bundled(n)) for n in LETTER_TUNE],
            "aniso": [(f"aniso:{s}", lambda s=s: _aniso(s)) for s in (170, 0, 1, 2, 3)],
        }
    return {
        "blobs*": [(f"blobs:{s}", lambda s=s: _blobs(s)) for s in range(10, 20)],
        "moons*": [(f"moons:{s}", lambda s=s: _moons(s)) for s in range(10, 15)],
        "wine/iris*": [(n, _bundled(n)) for n in datasets.pairs("wine") + datasets.pairs("iris")],
        "letter*": [(n, _bundled(n)) for n in LETTER_ASIDE],
        "uci-extra*": [(n, _bundled(n)) for n in ("breast_cancer", "sonar")],
        "digits-half*": [(n + "/2", _half(n)) for n in datasets.pairs("digits")],
    }


def _start_labels(X, lam):
    """The four starts (the EIG one depends on lam; the k-means ones do not)."""
    out = {}
    for name in STARTS:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            m = MSPC(init=name, lam=lam, max_iter=1, search="paper", random_state=0).fit(X)
        out[name] = m.init_labels_.copy()
    return out


def candidates(name: str, load, fresh: bool = False) -> list[dict]:
    """Every candidate labeling of one data set with its scores (cached)."""
    path = CACHE / (name.replace(":", "_").replace("/", "_") + ".pkl")
    if path.exists() and not fresh:
        return pickle.loads(path.read_bytes())
    X, y = load()
    X = np.asarray(X, dtype=float)
    std = standardize(X)
    rows = []
    km = None
    for lam in LAMS:
        starts = _start_labels(X, lam)
        if km is None:
            km = {k: v for k, v in starts.items() if k != "eig"}
        starts.update(km)
        for start, search in itertools.product(STARTS, SEARCHES):
            labels0 = starts[start]
            if search == "none":
                labels = labels0
            else:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    labels = (
                        MSPC(init=labels0, lam=lam, search=search, random_state=0).fit(X).labels_
                    )
            if np.unique(labels).shape[0] < 2:
                continue
            _, codes = np.unique(labels, return_inverse=True)
            row = {
                "start": start,
                "search": search,
                "lam": lam,
                "acc": clustering_accuracy(y, labels),
                "msp": msp_score(X, labels, lam=lam),
                "sizes": tuple(sorted(np.bincount(codes).tolist())),
            }
            for lam_h in LAMS:
                row[f"ho{lam_h}"] = heldout_msp_from_std(
                    std, codes, 2, lam_h, "diag", random_state=0, too_small="zero"
                )
            rows.append(row)
    CACHE.mkdir(parents=True, exist_ok=True)
    path.write_bytes(pickle.dumps(rows))
    return rows


def pick(rows, starts, search, lam, score):
    """The candidate of largest ``score`` among the given starts (first on ties)."""
    pool = [r for r in rows if r["start"] in starts and r["search"] == search and r["lam"] == lam]
    return max(pool, key=lambda r: r[score(r)] if callable(score) else r[score])


def summarise(fam_rows: dict[str, list[dict]], rules) -> list[list]:
    """For each label-free rule: mean accuracy, data sets below 0.6 and r(score, accuracy) of
    the labelings it picks, over the families."""
    out = []
    for label, rule in rules:
        chosen = [rule(rows) for rows in fam_rows.values()]
        acc = np.array([c[0]["acc"] for c in chosen])
        score = np.array([c[1] for c in chosen])
        r = np.corrcoef(score, acc)[0, 1] if acc.std() > 0 and score.std() > 0 else np.nan
        out.append([label, f"{acc.mean():.3f}", int((acc < 0.6).sum()), f"{r:.2f}"])
    return out


def default_rules():
    """The label-free rules compared: every λ, search and start, and the multi-start choices by
    the in-sample or held-out MSP."""
    rules = []
    inv = ("kmeans-standardized", "kmeans-whitened", "eig")
    for lam in LAMS:
        for search in SEARCHES:
            for s in STARTS:
                rules.append(
                    (
                        f"{s} / {search} / lam {lam} (in-sample MSP)",
                        lambda rows, s=s, se=search, lam=lam: (
                            (c := pick(rows, (s,), se, lam, "msp")),
                            c["msp"],
                        ),
                    )
                )
            for starts_label, starts in (
                ("all 4", STARTS),
                ("std+eig", ("kmeans-standardized", "eig")),
                ("invariant 3", inv),
                ("std+eig+raw", ("kmeans-standardized", "eig", "kmeans")),
            ):
                rules.append(
                    (
                        f"best of {starts_label} / {search} / lam {lam} by in-sample",
                        lambda rows, st=starts, se=search, lam=lam: (
                            (c := pick(rows, st, se, lam, "msp")),
                            c["msp"],
                        ),
                    )
                )
                rules.append(
                    (
                        f"best of {starts_label} / {search} / lam {lam} by held-out",
                        lambda rows, st=starts, se=search, lam=lam: (
                            (c := pick(rows, st, se, lam, f"ho{lam}")),
                            c[f"ho{lam}"],
                        ),
                    )
                )
    return rules


#: The pipelines ``--pipelines`` compares, fitted as they ship (``random_state=0``).
PIPELINES = {
    "default (heldout, paper search)": {},
    "before: auto, monotone": {"init": "auto", "search": "monotone"},
    "paper: kmeans, paper search": {"init": "kmeans", "search": "paper"},
}


def pipelines(fams, aside_label: str, only: str = "") -> None:
    """Each shipped pipeline on each family: mean accuracy, sets below 0.6, and Pearson's r
    of the held-out and in-sample MSP with accuracy; then the default's rescaling check."""
    print(f"\n### Pipelines as shipped, {aside_label}\n")
    print("| family | pipeline | mean accuracy | below 0.6 | r(msp_heldout_, acc) | r(msp_, acc) |")
    print("|---|---|---|---|---|---|")
    for fam, sets in fams.items():
        data = [(name, *load()) for name, load in sets]
        for label, params in PIPELINES.items():
            if only and not label.startswith(only):
                continue
            accs, ho, ins = [], [], []
            for _, X, y in data:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    m = MSPC(random_state=0, **params).fit(np.asarray(X, dtype=float))
                accs.append(clustering_accuracy(y, m.labels_))
                ho.append(m.msp_heldout_)
                ins.append(m.msp_)
            a = np.array(accs)

            def r(v, a=a):
                v = np.asarray(v)
                return np.corrcoef(v, a)[0, 1] if a.std() > 0 and v.std() > 0 else np.nan

            print(
                f"| {fam} ({len(data)}) | {label} | {a.mean():.3f} | {int((a < 0.6).sum())} | "
                f"{r(ho):.2f} | {r(ins):.2f} |",
                flush=True,
            )


def rescaling(fams, n_sets: int = 12) -> None:
    """Labels of the default under per-feature rescaling by 10^U(-3, 3): identical or not."""
    same = total = 0
    names = []
    for sets in fams.values():
        for name, load in sets[:2]:
            names.append((name, load))
    for name, load in names[:n_sets]:
        X, _ = load()
        X = np.asarray(X, dtype=float)
        factors = 10.0 ** np.random.default_rng(0).uniform(-3, 3, X.shape[1])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            a = MSPC(random_state=0).fit(X).labels_
            b = MSPC(random_state=0).fit(X * factors).labels_
        ok = np.array_equal(a, b) or np.array_equal(a, 1 - b)
        same += ok
        total += 1
        print(f"rescaled {name}: {'identical' if ok else 'DIFFERENT'}", flush=True)
    print(f"\nDefault labels identical under per-feature rescaling on {same} of {total} sets.")


def main() -> None:
    """Fit every candidate on the families (``--aside``, ``--pipelines``) and print the rules'
    tables."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--pipelines", action="store_true", help="fit the shipped pipelines")
    ap.add_argument("--rescaling", action="store_true", help="the default under rescaling")
    ap.add_argument("--families", default="")
    ap.add_argument("--aside", action="store_true")
    ap.add_argument("--fresh", action="store_true")
    ap.add_argument("--grep", default="", help="print only rules containing this text")
    ap.add_argument("--only", default="", help="--pipelines: only those whose name starts so")
    args = ap.parse_args()
    fams = families(args.aside)
    if args.families:
        fams = {k: v for k, v in fams.items() if k in args.families.split(",")}
    if args.pipelines:
        pipelines(fams, "held aside" if args.aside else "tuned on", args.only)
    if args.rescaling:
        rescaling(fams)
    if args.pipelines or args.rescaling:
        return
    rules = default_rules()
    for fam, sets in fams.items():
        fam_rows = {}
        for name, load in sets:
            fam_rows[name] = candidates(name, load, args.fresh)
        print(f"\n## {fam} ({len(sets)} data sets)\n")
        print("| rule | mean accuracy | at chance | r(score, accuracy) |")
        print("|---|---|---|---|")
        for row in summarise(fam_rows, rules):
            if args.grep in row[0]:
                print("| " + " | ".join(str(v) for v in row) + " |")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
