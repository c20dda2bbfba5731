"""The Learn page's captions, computed from the numbers the page shows beside them.

No Streamlit here: pure functions of the tables and arrays the page draws, so a test can
check every claim against the numbers (captions never assert what the numbers beside them
contradict).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from clustering.metrics import chebyshev_fraction
from lab.plots.clusters import oriented_margins

__all__ = [
    "RHO_GRID",
    "heldout_note",
    "labelings_note",
    "multiclass_display",
    "multiclass_note",
    "multiclass_rows",
    "theorem5_note",
]

#: The values of rho at which :func:`theorem5_note` counts where the guarantee holds.
RHO_GRID = np.round(np.linspace(0.0, 1.0, 21), 2)

#: The MSP below which a labeling is called "near 0" (no linear rule separates it).
NEAR_ZERO = 0.1


def labelings_note(table: pd.DataFrame, searched: str = "MSPC (MPM) clustering") -> str:
    """What the table of labelings shows: the largest MSP, where MSPC's search landed, and
    the random labeling's MSP.

    Examples
    --------
    >>> t = pd.DataFrame({"labeling": ["MSPC (MPM) clustering", "k-means clustering",
    ...                                "random labeling"], "MSP": [0.71, 0.90, 0.01]})
    >>> note = labelings_note(t)
    >>> note.split(". ")[0]
    "The largest MSP here is the k-means clustering's (0.900)"
    >>> "MSPC's search reached 0.710, below it" in note
    True
    """
    rows = table.dropna(subset=["MSP"]).set_index("labeling")["MSP"]
    if rows.empty:
        return ""
    best = rows.idxmax()
    parts = [f"The largest MSP here is the {best}'s ({rows[best]:.3f})."]
    if searched in rows.index and searched != best:
        value = rows[searched]
        if value >= rows[best] - 5e-4:
            parts.append(f"MSPC's search reached {value:.3f}, as high to three decimals.")
        else:
            parts.append(
                f"MSPC's search reached {value:.3f}, below it: the search climbs from its start "
                "to a local maximum, so it can stop below another labeling's MSP."
            )
    elif searched == best:
        parts[0] = f"The largest MSP here is the one MSPC's search found ({rows[best]:.3f})."
    if "random labeling" in rows.index:
        r = rows["random labeling"]
        if r < NEAR_ZERO:
            parts.append(
                f"The random labeling's MSP is {r:.3f}, near 0: no hyperplane separates two "
                "random halves."
            )
        else:
            parts.append(f"The random labeling's MSP is {r:.3f}.")
    return " ".join(parts)


def heldout_note(table: pd.DataFrame) -> str:
    """What the in-sample / held-out table shows (:func:`lab.theorems.nonsense_splits`):
    the true classes' two MSPs, how high the random splits score in sample and held out,
    and each given labeling's two MSPs.

    Examples
    --------
    >>> t = pd.DataFrame({
    ...     "labeling": ["true classes", "random group of 4 points vs the rest",
    ...                  "random half vs the other half", "MSPC (MPM) clustering"],
    ...     "kind": ["true classes", "random", "random", "given"],
    ...     "smaller": [182, 4, 182, 1], "msp": [0.912, 0.817, 0.06, 0.998],
    ...     "msp_heldout": [0.884, 0.0, 0.001, 0.0], "accuracy": [1.0, 0.51, 0.526, 0.501]})
    >>> print(heldout_note(t))  # doctest: +NORMALIZE_WHITESPACE
    The true classes score 0.912 in sample and 0.884 held out. The 2 random splits know
    nothing of the classes (accuracy 0.510 to 0.526), yet in sample they score up to 0.817
    (the random group of 4 points vs the rest); held out they score at most 0.001, all
    below the true classes' 0.884. MSPC (MPM) clustering (accuracy 0.501) scores 0.998 in
    sample and 0.000 held out: its smaller cluster has 1 point, too few to hold any out,
    which the held-out MSP counts as 0.
    """
    ok = table[np.isfinite(table["msp"].astype(float)) & np.isfinite(table["msp_heldout"])]
    parts = []
    undefined = table[~np.isfinite(table["msp_heldout"].astype(float))]
    if len(undefined):
        reason = str(undefined["error"].iloc[0]).removeprefix("held-out MSP undefined: ")
        parts.append(
            f"The held-out MSP of {len(undefined)} of the {len(table)} labelings is undefined "
            f"here: {reason}"
        )
    if ok.empty:
        return " ".join(parts)
    true = ok[ok["kind"] == "true classes"]
    true_ho = None
    if not true.empty:
        row = true.iloc[0]
        true_ho = float(row["msp_heldout"])
        parts.append(
            f"The true classes score {row['msp']:.3f} in sample and {true_ho:.3f} held out."
        )
    rand = ok[ok["kind"] == "random"]
    if not rand.empty:
        top = rand.loc[rand["msp"].idxmax()]
        acc = rand["accuracy"].dropna()
        knows = f" (accuracy {acc.min():.3f} to {acc.max():.3f})" if len(acc) > 1 else ""
        by_size = rand.sort_values("smaller")["msp"].to_numpy()
        monotone = len(by_size) > 2 and bool(np.all(np.diff(by_size) < 0))
        trend = "; the smaller the group, the higher" if monotone else ""
        text = (
            f"The {len(rand)} random splits know nothing of the classes{knows}, yet in sample "
            f"they score up to {top['msp']:.3f} (the {top['labeling']}{trend}); held out they "
            f"score at most {rand['msp_heldout'].max():.3f}"
        )
        if true_ho is not None:
            below = int((rand["msp_heldout"] < true_ho).sum())
            if below == len(rand):
                text += f", all below the true classes' {true_ho:.3f}"
            else:
                text += f", {below} of {len(rand)} below the true classes' {true_ho:.3f}"
        above = 0 if true.empty else int((rand["msp"] >= float(true.iloc[0]["msp"])).sum())
        if above:
            text += (
                f". In sample {above} of them score{'s' if above == 1 else ''} at least as "
                "high as the true classes"
            )
        parts.append(text + ".")
    for _, row in ok[ok["kind"].isin(["given", "searched"])].iterrows():
        acc = "" if not np.isfinite(row["accuracy"]) else f" (accuracy {row['accuracy']:.3f})"
        text = (
            f"{row['labeling']}{acc} scores {row['msp']:.3f} in sample and "
            f"{row['msp_heldout']:.3f} held out"
        )
        if row["smaller"] < 2:
            text += (
                f": its smaller cluster has {int(row['smaller'])} point, too few to hold any "
                "out, which the held-out MSP counts as 0"
            )
        parts.append(text + ".")
    return " ".join(parts)


def theorem5_note(margins, labels, msp: float, rho: float) -> str:
    """Theorem 5's guarantee against the sample, at ``rho`` and over :data:`RHO_GRID`.

    Examples
    --------
    >>> m = np.array([-3.0, -2.0, -1.0, 1.0, 2.0, 3.0])
    >>> print(theorem5_note(m, [0, 0, 0, 1, 1, 1], 0.9, 0.5))  # doctest: +NORMALIZE_WHITESPACE
    At ρ = 0.5 the theorem guarantees 36% of each cluster beyond ρ/2; the sample has 100%
    and 100%: it holds. Over the 21 values of ρ from 0 to 1 it holds at 21.
    """
    _signed, own, _delta = oriented_margins(margins, labels)
    labels = np.asarray(labels)
    clusters = np.unique(labels)

    def observed(r: float) -> list[float]:
        return [float(np.mean(own[labels == c] >= r / 2)) for c in clusters]

    def holds(r: float) -> bool:
        return min(observed(r)) >= chebyshev_fraction(float(msp), float(r)) - 1e-12

    now = observed(rho)
    guarantee = chebyshev_fraction(float(msp), float(rho))
    shown = " and ".join(f"{100 * o:.0f}%" for o in now)
    verdict = "it holds" if holds(rho) else "it is not met here"
    count = sum(holds(float(r)) for r in RHO_GRID)
    text = (
        f"At ρ = {rho:g} the theorem guarantees {100 * guarantee:.0f}% of each cluster beyond "
        f"ρ/2; the sample has {shown}: {verdict}. Over the {len(RHO_GRID)} values of ρ from 0 "
        f"to 1 it holds at {count}."
    )
    return text


def multiclass_rows(X, labelings: Sequence[tuple[str, np.ndarray]], lam: float, reg: str):
    """For each labeling: its number of clusters, the multi-class MSP and, for two clusters,
    the binary MSP beside it (they must agree)."""
    from clustering.metrics import msp_score
    from clustering.mpm import fit_mpm_to_labels

    rows = []
    for name, labels in labelings:
        labels = np.asarray(labels)
        k = int(np.unique(labels).shape[0])
        value = float(msp_score(X, labels, lam, reg))
        binary = None
        if k == 2:
            values = np.unique(labels)
            sol, _w, _b = fit_mpm_to_labels(X, (labels == values[1]).astype(int), lam, reg)
            binary = float(sol.alpha)
        rows.append({"labeling": name, "k": k, "MSP_k": value, "binary MSP (k = 2)": binary})
    return pd.DataFrame(rows)


def multiclass_display(rows: pd.DataFrame) -> pd.DataFrame:
    """:func:`multiclass_rows` as the page shows it: the binary MSP as text, with a dash
    saying why for more than two clusters (a table cell never shows a bare ``None``).

    Examples
    --------
    >>> rows = pd.DataFrame({"labeling": ["a", "b"], "k": [2, 3], "MSP_k": [0.8, 0.6],
    ...                      "binary MSP (k = 2)": [0.8, None]})
    >>> multiclass_display(rows)["binary MSP (k = 2)"].tolist()
    ['0.8000', '— (k = 3)']
    """
    out = rows.copy()
    column = "binary MSP (k = 2)"
    out[column] = [
        f"{v:.4f}" if v is not None and np.isfinite(v) else f"— (k = {k})"
        for v, k in zip(rows[column], rows["k"], strict=True)
    ]
    return out


def multiclass_note(rows: pd.DataFrame) -> str:
    """What the multi-class table shows: k = 2 agreement, and the MSP as k grows.

    Examples
    --------
    >>> rows = pd.DataFrame({"labeling": ["a", "b"], "k": [2, 3], "MSP_k": [0.8, 0.6],
    ...                      "binary MSP (k = 2)": [0.8, None]})
    >>> print(multiclass_note(rows))  # doctest: +NORMALIZE_WHITESPACE
    For the two-cluster labeling MSP_k equals the binary MSP (0.8000 and 0.8000).
    With more clusters: 0.6000 at k = 3.
    """
    parts = []
    two = rows[rows["k"] == 2]
    for _, row in two.iterrows():
        a, b = row["MSP_k"], row["binary MSP (k = 2)"]
        same = b is not None and abs(a - b) <= 1e-9
        parts.append(
            f"For the two-cluster labeling MSP_k {'equals' if same else 'differs from'} the "
            f"binary MSP ({a:.4f} and {b:.4f})."
        )
    more = rows[rows["k"] > 2]
    if not more.empty:
        listed = ", ".join(f"{r['MSP_k']:.4f} at k = {r['k']}" for _, r in more.iterrows())
        parts.append(f"With more clusters: {listed}.")
    return " ".join(parts)


# ---- the page's small computations (no numpy in the page) -----------------------------------


def n_clusters_of(labels) -> int:
    """How many distinct labels ``labels`` has (0 for ``None``).

    Examples
    --------
    >>> n_clusters_of([0, 1, 1]), n_clusters_of(None)
    (2, 0)
    """
    return 0 if labels is None else int(np.unique(np.asarray(labels)).shape[0])


def reference_labelings(X, n_samples: int, feature_name: str) -> list[tuple[str, np.ndarray]]:
    """Two labelings every data set has, to compare MSPs with: a random one (seed 0) and the
    split at the median of the first feature."""
    random_labels = np.random.default_rng(0).integers(0, 2, n_samples)
    first = np.asarray(X[:, 0])
    return [
        ("random labeling", random_labels),
        (f"split at the median of '{feature_name}'", first > np.median(first)),
    ]


def random_transform(seed: int, n_features: int, rescale: bool) -> tuple[tuple, Sequence, float]:
    """A random transformation of the features for Theorem 1's check, drawn from ``seed``:
    per-feature factors ``10^u``, ``u ~ U(-3, 3)`` (``rescale``), or an invertible matrix
    ``P = N(0, 1) + 2 I``. Returns ``(transform, factors or P, condition number)``: the
    transform as nested tuples (hashable, for the cache)."""
    rng = np.random.default_rng([int(seed), int(n_features)])
    if rescale:
        factors = 10.0 ** rng.uniform(-3, 3, n_features)
        return tuple(float(f) for f in factors), factors, float("nan")
    P = rng.normal(size=(n_features, n_features)) + 2.0 * np.eye(n_features)
    return tuple(tuple(float(v) for v in row) for row in P), P, float(np.linalg.cond(P))
