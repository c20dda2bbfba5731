"""The Learn page's theory texts, and its captions computed from the numbers the page shows
beside them.

No Streamlit here: the texts are data, the captions pure functions of the tables and arrays
the page draws, so a test can check every claim against the numbers (captions never assert
what the numbers beside them contradict).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from clustering.metrics import chebyshev_fraction
from lab.plots.clusters import oriented_margins

__all__ = [
    "RHO_GRID",
    "THEORY",
    "heldout_note",
    "labelings_note",
    "multiclass_display",
    "multiclass_note",
    "multiclass_rows",
    "theorem5_note",
]

#: The theory beside each demonstration of the Learn page, in order: (Streamlit element,
#: text) pairs the page writes into the section's left column.
THEORY: dict[str, tuple[tuple[str, str], ...]] = {
    "mpm": (
        (
            "markdown",
            "Given two labelled groups, the MPM looks for the hyperplane with the largest "
            "probability $p$ that each group falls on its own side — for the **worst** "
            "distribution with the groups' means and covariances (eq. 1):",
        ),
        (
            "latex",
            r"\begin{aligned} \max_{p,\,\mathbf w,\,b}\;& p \\"
            r"\text{s.t.}\;& \inf_{\mathbf X_1 \sim (\hat\mu_1, \hat\Sigma_1)}"
            r" \Pr(\mathbf w^\top \mathbf X_1 + b \ge 0) \ge p \\"
            r"& \inf_{\mathbf X_2 \sim (\hat\mu_2, \hat\Sigma_2)}"
            r" \Pr(\mathbf w^\top \mathbf X_2 + b \le 0) \ge p \end{aligned}",
        ),
        ("markdown", "The multivariate Chebyshev inequality turns it into one ratio (eq. 2):"),
        (
            "latex",
            # Two lines: the ratio on one ran past a half-page column at 1280 px.
            r"\begin{aligned} \kappa &= \max_{\mathbf w}\; \frac{\mathbf w^\top(\hat\mu_1"
            r" - \hat\mu_2)}{s_1(\mathbf w) + s_2(\mathbf w)}, \qquad p = \frac{\kappa^2}"
            r"{1 + \kappa^2} \\ s_k(\mathbf w) &= \sqrt{\mathbf w^\top(\hat\Sigma_k"
            r" + \lambda\Lambda)\mathbf w} \end{aligned}",
        ),
        ("caption", "λΛ is the regulariser of eq. (3), set in the sidebar."),
    ),
    "msp": (
        (
            "markdown",
            "**Definition 1.** The *minimum separation probability* (MSP) of a labeling "
            "$\\mathbf y$ is the optimal $p$ of the MPM trained on the data labelled by "
            "$\\mathbf y$: a lower bound on the accuracy of a classifier learnt from the "
            "clustering. **MSPC** searches for the labeling with the largest MSP (eq. 3):",
        ),
        (
            "latex",
            r"\max_{\mathbf w,\; \mathbf y \in \{1,2\}^N}\;"
            r"\frac{|\mathbf w^\top(\hat\mu_1(\mathbf y) - \hat\mu_2(\mathbf y))|}"
            r"{\sum_{k=1,2} \sqrt{\mathbf w^\top(\hat\Sigma_k(\mathbf y)"
            r" + \lambda\Lambda)\mathbf w}}",
        ),
    ),
    "heldout": (
        (
            "markdown",
            "The MSP above is measured **in sample**: the MPM is fitted to a labeling's points and "
            "scored on the same points. With many features and few points it can separate almost "
            "any small group of points from the rest, so the in-sample MSP rewards splits that "
            "only fit the sample. The **held-out MSP** fits the MPM on half of each cluster and "
            "scores it on the other half (both ways, three random splits, averaged): a rule that "
            "only fits the sample fails on points it has not seen. The random groups below are "
            "drawn without looking at the classes; the MSPs use the sidebar's λ and Λ.",
        ),
    ),
    "theorem2": (
        (
            "markdown",
            "With $r_k = N_k / N$ the cluster shares and $\\hat\\Sigma$ the covariance of all the "
            "data, for every $\\mathbf w$ (eq. 4):",
        ),
        (
            "latex",
            r"\kappa^2 \;\ge\; \frac{\delta^2}{2\,(r_1 \wedge r_2)^{-1}\, s"
            r" \;-\; 2\,(r_1 \vee r_2)\,\delta^2}",
        ),
        (
            "latex",
            r"\delta = \mathbf w^\top(\hat\mu_1 - \hat\mu_2),\qquad "
            r"s = \mathbf w^\top(\hat\Sigma + \lambda\Lambda)\mathbf w",
        ),
        (
            "markdown",
            "The right side needs only the *total* covariance, which does not change with the "
            "labels, so MSPC (GEP) maximises it by one eigenproblem and a sort. It is tight when "
            "the clusters are balanced.",
        ),
    ),
    "theorem1": (
        (
            "markdown",
            "For any invertible $\\mathbf P \\in \\mathbb R^{d \\times d}$, the data "
            "$\\{\\mathbf x_i\\}$ and $\\{\\mathbf P^\\top \\mathbf x_i\\}$ have the same optimal "
            "MSP — and the same MSP for every fixed labeling, because the means and covariances "
            "move with $\\mathbf P$ and the ratio (2) does not:",
        ),
        (
            "latex",
            r"\begin{aligned} \frac{\mathbf w^\top \mathbf P^\top (\hat\mu_1 - \hat\mu_2)}"
            r"{\sum_k \sqrt{\mathbf w^\top \mathbf P^\top \hat\Sigma_k \mathbf P \mathbf w}}"
            r"&= \frac{\mathbf v^\top(\hat\mu_1 - \hat\mu_2)}{\sum_k \sqrt{\mathbf v^\top "
            r"\hat\Sigma_k \mathbf v}} \\ \text{with } \mathbf v &= \mathbf P \mathbf w"
            r"\end{aligned}",
        ),
        (
            "markdown",
            "With $\\lambda > 0$ the regulariser must move along: $\\Lambda = "
            "\\operatorname{diag}(\\hat\\Sigma)$ does for any rescaling of features, "
            "$\\Lambda = \\hat\\Sigma$ for any $\\mathbf P$, $\\Lambda = \\mathbf I$ for neither.",
        ),
    ),
    "theorem5": (
        (
            "markdown",
            "If the clusters have MSP $p$, there is a hyperplane such that at least a fraction "
            "$1 - r$ of each cluster lies at relative margin "
            "$|\\mathbf w^\\top \\mathbf x - b| / \\Delta \\ge \\rho / 2$, where "
            "$\\Delta = |\\mathbf w^\\top(\\mu_1 - \\mu_2)|$ and",
        ),
        (
            "latex",
            r"r = \frac{p^{-1} - 1}{(p^{-1} - 1) + (1 - \rho)^2 / 4},\qquad 0 \le \rho \le 1.",
        ),
        (
            "markdown",
            "Unlike the absolute margin of maximum margin clustering, the relative margin does "
            "not change when features are rescaled. The paper states it with λ = 0; with λ > 0 "
            "the MSP is computed from larger covariances, so the guarantee is weaker but still "
            "holds.",
        ),
    ),
    "multiclass": (
        (
            "markdown",
            "For two clusters the MSP is the MPM's optimum $\\alpha$. For $k$ clusters, fit one "
            "MPM to every pair $(i, j)$, with optimum $\\alpha_{ij}$, and classify a new point "
            "by one-vs-one voting. A point of cluster $i$ is classified correctly whenever each "
            "of the $k - 1$ hyperplanes that involve $i$ puts it on $i$'s side: then $i$ has "
            "$k - 1$ votes and every other cluster at most $k - 2$. Hyperplane $(i, j)$ fails "
            "on a point of $i$ with worst-case probability at most $1 - \\alpha_{ij}$, so by "
            "the union bound, for every distribution with the clusters' means and covariances,",
        ),
        (
            "latex",
            # Two lines: on one it ran past a half-page column at 1280 px.
            r"\begin{aligned} P(\text{correct} \mid i) &\ge b_i = \max\Big(0,\; 1 - "
            r"\sum_{j \ne i} (1 - \alpha_{ij})\Big), \\ \mathrm{MSP}_k &= \sum_i"
            r" \frac{N_i}{N}\, b_i . \end{aligned}",
        ),
        (
            "markdown",
            "- **k = 2**: $b_0 = b_1 = \\alpha_{01}$, so $\\mathrm{MSP}_2$ is the binary MSP.\n"
            "- **Invariance** (Theorem 1): each $\\alpha_{ij}$ is unchanged by an invertible "
            "linear map of the features when $\\Lambda$ follows the data (diag: any rescaling "
            "of the features), and the cluster sizes do not change, so $\\mathrm{MSP}_k$ is "
            "invariant too.\n"
            "- **A bound, not an estimate**: the union bound is loose when $k$ is large (it is 0 "
            "once a cluster's pairwise failures add up to 1), so it falls as $k$ grows even for "
            "well separated clusters; compare MSPs across $k$ with that in mind.",
        ),
    ),
}

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
                f"MSPC's search reached {value:.3f}, below it: the search alternates from its "
                "start until the labels stop changing and returns its last labeling, whose MSP "
                "can be below the start's, not the largest of all labelings."
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


def mpm_note(mpm: dict, source: str) -> str:
    """The MPM lesson's sentence, from :func:`ui.analysis.mpm_on_labels`'s numbers."""
    return (
        f"For the {source}, each cluster lands on its side with probability at least p = "
        f"{mpm['alpha']:.3f} (κ = {mpm['kappa']:.2f}) under every distribution with these "
        f"means and covariances; in this sample {100 * mpm['train_accuracy']:.1f}% of the "
        "points do."
    )


def heldout_splits(pair: str, mspc_params: dict, lam: float, regularizer: str):
    """The in-sample / held-out table of a digits ``pair`` (:func:`ui.analysis.
    nonsense_splits`, with MSPC (MPM)'s clustering when registered) and the pair's data set."""
    from clustering import ALGORITHMS

    from . import analysis as ua
    from . import cache, state

    pair_ds = cache.load_bundled(pair, True)
    extra: tuple = ()
    if "mspc-mpm" in ALGORITHMS:
        pair_fit = ua.cached_evaluator("mspc-mpm", mspc_params, pair_ds.X, pair_ds.y)
        if pair_fit.ok:
            extra = (("MSPC (MPM) clustering", ua.as_bytes(pair_fit.labels)),)
    table = ua.nonsense_splits(
        state.fingerprint(pair_ds.X, pair_ds.y), lam, regularizer, extra, pair_ds.X, pair_ds.y
    )
    return table, pair_ds


def heldout_verdict(table: pd.DataFrame) -> str:
    """The held-out lesson's one sentence (:func:`heldout_note` says the rest): how high the
    random splits score in sample and held out, against the true classes."""
    ok = table[np.isfinite(table["msp"].astype(float)) & np.isfinite(table["msp_heldout"])]
    rand, true = ok[ok["kind"] == "random"], ok[ok["kind"] == "true classes"]
    if rand.empty or true.empty:
        return heldout_note(table)
    row = true.iloc[0]
    return (
        f"{len(rand)} random splits score up to {rand['msp'].max():.3f} in sample but at most "
        f"{rand['msp_heldout'].max():.3f} held out; the true classes score {row['msp']:.3f} "
        f"and {row['msp_heldout']:.3f}."
    )
