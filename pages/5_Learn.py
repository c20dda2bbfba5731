"""Learn page: the theory of MSPC, each result beside a live demonstration on the current data.

The Minimax Probability Machine (eq. 1-2), the MSP (Definition 1) and MSPC (eq. 3), the
lower bound (4) of Theorem 2, the invariance of Theorem 1 and the relative-margin guarantee
of Theorem 5 of Huang et al., Maximin Separation Probability Clustering (AAAI 2015).
Widgets and layout
only: computations go through :mod:`ui.analysis` and :mod:`ui.cache`, figures come from
:mod:`lab.plots` and :mod:`lab.plots`.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from clustering import ALGORITHMS
from lab import plots
from ui import alerts, cache, learn, presenter, state, widgets
from ui import analysis as ua
from ui.text import plain

st.set_page_config(page_title="Learn · Discriminative Clustering Lab", layout="wide")
state.init()

#: The digits pair the held-out demonstration opens on.
HELDOUT_PAIR = "digits:1v3"

st.title("Learn: the ideas behind MSPC")
st.markdown(
    "Each result of the MSPC paper (Huang, Zhang, Song & Chen, AAAI 2015) next to a small "
    "experiment on the current data. Change λ, Λ or the data set and the experiments follow."
)
current = widgets.data_caption()
ds = current.dataset
X, y = ds.X, ds.y
binary_y = learn.n_clusters_of(y) == 2

# ---- controls -----------------------------------------------------------------------------
with st.sidebar:
    st.header("Settings")
    lam = widgets.lam_slider("learn.lam")
    reg = widgets.regularizer_select("learn.regularizer")
    sources = (["true classes"] if binary_y else []) + (
        ["MSPC (MPM) clustering"] if "mspc-mpm" in ALGORITHMS else []
    )
    if not sources:
        st.error("This page needs two classes or the MSPC (MPM) method.")
        st.stop()
    source = st.radio(
        "Labeling used in the demonstrations",
        sources,
        key="learn.labeling",
        help="The true classes show what the theory says about a known good split; MSPC's "
        "clustering shows it on the split MSPC found without labels.",
    )

mspc_result = None
mspc_params: dict = {}
if "mspc-mpm" in ALGORITHMS:
    mspc_params = state.get_algorithm_params("mspc-mpm")
    with st.spinner("Clustering with MSPC…"):
        mspc_result = cache.fit("mspc-mpm", mspc_params, current.fingerprint, X, y)
if source == "true classes":
    labels = y
else:
    if mspc_result is None or not alerts.show_result_problems(mspc_result):
        st.stop()
    labels = mspc_result.labels
if learn.n_clusters_of(labels) != 2:
    st.error("The labeling has a single cluster, so there is nothing to separate.")
    st.stop()

lam_eff = ua.effective_lam(lam, reg)

# ---- 1. MPM -------------------------------------------------------------------------------
st.header("1 · The Minimax Probability Machine")
left, right = presenter.columns([1, 1], key="learn-mpm")
with left:
    st.markdown(
        "Given two labelled groups, the MPM looks for the hyperplane with the largest "
        "probability $p$ that each group falls on its own side — for the **worst** "
        "distribution with the groups' means and covariances (eq. 1):"
    )
    st.latex(
        r"\begin{aligned} \max_{p,\,\mathbf w,\,b}\;& p \\"
        r"\text{s.t.}\;& \inf_{\mathbf X_1 \sim (\hat\mu_1, \hat\Sigma_1)}"
        r" \Pr(\mathbf w^\top \mathbf X_1 + b \ge 0) \ge p \\"
        r"& \inf_{\mathbf X_2 \sim (\hat\mu_2, \hat\Sigma_2)}"
        r" \Pr(\mathbf w^\top \mathbf X_2 + b \le 0) \ge p \end{aligned}"
    )
    st.markdown("The multivariate Chebyshev inequality turns it into one ratio (eq. 2):")
    st.latex(
        r"\begin{aligned} \kappa &= \max_{\mathbf w}\; \frac{\mathbf w^\top(\hat\mu_1"
        r" - \hat\mu_2)}{\sqrt{\mathbf w^\top(\hat\Sigma_1 + \lambda\Lambda)\mathbf w}"
        r" + \sqrt{\mathbf w^\top(\hat\Sigma_2 + \lambda\Lambda)\mathbf w}} \\"
        r" p &= \frac{\kappa^2}{1 + \kappa^2} \end{aligned}"
    )
    st.caption("λΛ is the regulariser of eq. (3), set in the sidebar.")
with right:
    with alerts.guard("The MPM could not be fitted"):
        mpm = ua.mpm_on_labels(current.fingerprint, lam_eff, reg, X, labels)
        c = st.columns(3)
        c[0].metric("κ", f"{mpm['kappa']:.3f}", help="Optimal value of eq. (2).")
        c[1].metric(
            "p = κ²/(1+κ²)",
            f"{mpm['alpha']:.3f}",
            help="The worst-case probability of landing on the right side: the MSP of this "
            "labeling.",
        )
        c[2].metric(
            "observed share on the right side",
            f"{mpm['train_accuracy']:.3f}",
            help="Share of this labeling's own points on their side of the MPM hyperplane. "
            "Usually above p, because real data are not the worst case.",
        )
        margins = X @ mpm["w"] - mpm["b"]
        presenter.chart(
            plots.margin_histogram(
                margins, labels, title=f"MPM hyperplane for the {source}", height=330
            ),
            key="learn.mpm.hist",
            width="stretch",
        )

# ---- 2. MSP and MSPC ----------------------------------------------------------------------
st.header("2 · MSP: scoring a clustering without labels")
left, right = presenter.columns([1, 1], key="learn-msp")
with left:
    st.markdown(
        "**Definition 1.** The *minimum separation probability* (MSP) of a labeling "
        "$\\mathbf y$ is the optimal $p$ of the MPM trained on the data labelled by "
        "$\\mathbf y$: a lower bound on the accuracy of a classifier learnt from the "
        "clustering. **MSPC** searches for the labeling with the largest MSP (eq. 3):"
    )
    st.latex(
        r"\max_{\mathbf w,\; \mathbf y \in \{1,2\}^N}\;"
        r"\frac{|\mathbf w^\top(\hat\mu_1(\mathbf y) - \hat\mu_2(\mathbf y))|}"
        r"{\sum_{k=1,2} \sqrt{\mathbf w^\top(\hat\Sigma_k(\mathbf y) + \lambda\Lambda)\mathbf w}}"
    )
with right:
    labelings: list[tuple[str, bytes]] = []
    if binary_y:
        labelings.append(("true classes", ua.as_bytes(y)))
    if mspc_result is not None and mspc_result.ok:
        labelings.append(("MSPC (MPM) clustering", ua.as_bytes(mspc_result.labels)))
    if "kmeans" in ALGORITHMS:
        km = cache.fit("kmeans", state.get_algorithm_params("kmeans"), current.fingerprint, X, y)
        if km.ok and learn.n_clusters_of(km.labels) == 2:
            labelings.append(("k-means clustering", ua.as_bytes(km.labels)))
    for name, reference in learn.reference_labelings(X, ds.n_samples, ds.feature_names[0]):
        labelings.append((name, ua.as_bytes(reference)))
    table = ua.msp_of_labelings(current.fingerprint, lam_eff, reg, tuple(labelings), X, y)
    columns = ["labeling", "MSP"] + (["accuracy"] if y is not None else [])
    st.dataframe(
        table[columns],
        hide_index=True,
        width="stretch",
        column_config={
            "labeling": st.column_config.TextColumn(width=170),
            "MSP": st.column_config.ProgressColumn(
                "MSP (in sample)",
                width=110,
                format="%.3f",
                min_value=0.0,
                max_value=1.0,
                help="Higher: the two groups are easier to tell apart by a linear rule. "
                + widgets.msp_help("msp", lam_eff, reg),
            ),
            "accuracy": st.column_config.NumberColumn(
                format="%.3f", width=75, help="Agreement with the true classes (for reference)."
            ),
        },
    )
    st.caption(learn.labelings_note(table), help="Computed from the table above.")

# ---- 2b. In sample or held out ------------------------------------------------------------
st.subheader("In sample or held out: does the rule generalise?")
left, right = presenter.columns([1, 1], key="learn-heldout")
with left:
    st.markdown(
        "The MSP above is measured **in sample**: the MPM is fitted to a labeling's points and "
        "scored on the same points. With many features and few points it can separate almost "
        "any small group of points from the rest, so the in-sample MSP rewards splits that "
        "only fit the sample. The **held-out MSP** fits the MPM on half of each cluster and "
        "scores it on the other half (both ways, three random splits, averaged): a rule that "
        "only fits the sample fails on points it has not seen. The random groups below are "
        "drawn without looking at the classes; the MSPs use the sidebar's λ and Λ."
    )
    state.seed_widget("learn.ho.pair", HELDOUT_PAIR)
    pair = st.selectbox(
        "Pair of handwritten digits",
        ua.digits_pairs(),
        key="learn.ho.pair",
        help="scikit-learn's 8x8 digits: each pair of classes is a two-cluster task with 64 "
        "pixel features (constant pixels dropped) and about 360 images, features scaled to "
        "[-1, 1].",
    )
splits = None
with right, alerts.guard("The MSPs could not be computed"):
    pair_ds = cache.load_bundled(pair, True)
    extra: tuple = ()
    if "mspc-mpm" in ALGORITHMS:
        pair_fit = ua.cached_evaluator("mspc-mpm", mspc_params, pair_ds.X, pair_ds.y)
        if pair_fit.ok:
            extra = (("MSPC (MPM) clustering", ua.as_bytes(pair_fit.labels)),)
    splits = ua.nonsense_splits(
        state.fingerprint(pair_ds.X, pair_ds.y), lam_eff, reg, extra, pair_ds.X, pair_ds.y
    )
    st.caption(
        f"**{plain(pair)}**: {pair_ds.n_samples} images, {pair_ds.n_features} features; "
        f"λ = {lam_eff:g}, Λ = {reg}."
    )
    presenter.chart(
        plots.heldout_bars_figure(splits, height=400), key="learn.ho.bars", width="stretch"
    )
if splits is not None:
    st.dataframe(
        splits[["labeling", "msp", "msp_heldout", "accuracy", "sizes"]],
        hide_index=True,
        width="stretch",
        column_config={
            **widgets.msp_column_config(
                lam_eff, reg, columns={"msp": "msp", "msp_heldout": "msp_heldout"}
            ),
            "sizes": st.column_config.TextColumn(help="Points in each cluster."),
            "accuracy": st.column_config.NumberColumn(
                format="%.3f", help="Agreement with the true classes (for reference)."
            ),
        },
    )
    st.caption(learn.heldout_note(splits), help="Computed from the table above.")

# ---- 3. Theorem 2 -------------------------------------------------------------------------
st.header("3 · Theorem 2: a lower bound that is cheap to maximise")
left, right = presenter.columns([1, 1], key="learn-theorem2")
with left:
    st.markdown(
        "With $r_k = N_k / N$ the cluster shares and $\\hat\\Sigma$ the covariance of all the "
        "data, for every $\\mathbf w$ (eq. 4):"
    )
    st.latex(
        r"\kappa^2 \;\ge\; \frac{\delta^2}{2\,(r_1 \wedge r_2)^{-1}\, s"
        r" \;-\; 2\,(r_1 \vee r_2)\,\delta^2}"
    )
    st.latex(
        r"\delta = \mathbf w^\top(\hat\mu_1 - \hat\mu_2),\qquad "
        r"s = \mathbf w^\top(\hat\Sigma + \lambda\Lambda)\mathbf w"
    )
    st.markdown(
        "The right side needs only the *total* covariance, which does not change with the "
        "labels, so MSPC (GEP) maximises it by one eigenproblem and a sort. It is tight when "
        "the clusters are balanced."
    )
    count = st.slider(
        "Random labelings",
        5,
        50,
        20,
        key="learn.t2.count",
        help="How many random labelings to test the bound on (each with a random share of "
        "points in cluster 1).",
    )
    if st.button("Draw new labelings", key="learn.t2.draw", help="New random labelings."):
        state.bump_counter("learn.t2.seed")
with right:
    extra = ()
    if source != "true classes":
        extra = (("MSPC (MPM) clustering", ua.as_bytes(labels)),)
    with alerts.guard("The bound could not be computed"):
        bound_table = ua.random_labelings_bound(
            current.fingerprint,
            lam_eff,
            reg,
            int(count),
            int(state.widget_value("learn.t2.seed", 0)),
            X,
            y if binary_y else None,
            extra,
        )
        ok = bound_table[bound_table["error"] == ""]
        presenter.chart(plots.lower_bound_figure(ok), key="learn.t2.figure", width="stretch")
        holds = int((ok["bound"] <= ok["kappa_squared"] * (1 + 1e-9)).sum())
        st.caption(
            f"The bound stays below κ² for {holds} of {len(ok)} labelings (the theorem says: "
            "all). Points near the dotted line are the balanced labelings."
        )

# ---- 4. Theorem 1 -------------------------------------------------------------------------
st.header("4 · Theorem 1: the MSP does not care about units")
left, right = presenter.columns([1, 1], key="learn-theorem1")
with left:
    st.markdown(
        "For any invertible $\\mathbf P \\in \\mathbb R^{d \\times d}$, the data "
        "$\\{\\mathbf x_i\\}$ and $\\{\\mathbf P^\\top \\mathbf x_i\\}$ have the same optimal "
        "MSP — and the same MSP for every fixed labeling, because the means and covariances "
        "move with $\\mathbf P$ and the ratio (2) does not:"
    )
    st.latex(
        r"\begin{aligned} \frac{\mathbf w^\top \mathbf P^\top (\hat\mu_1 - \hat\mu_2)}"
        r"{\sum_k \sqrt{\mathbf w^\top \mathbf P^\top \hat\Sigma_k \mathbf P \mathbf w}}"
        r"&= \frac{\mathbf v^\top(\hat\mu_1 - \hat\mu_2)}{\sum_k \sqrt{\mathbf v^\top "
        r"\hat\Sigma_k \mathbf v}} \\ \text{with } \mathbf v &= \mathbf P \mathbf w"
        r"\end{aligned}"
    )
    st.markdown(
        "With $\\lambda > 0$ the regulariser must move along: $\\Lambda = "
        "\\operatorname{diag}(\\hat\\Sigma)$ does for any rescaling of features, "
        "$\\Lambda = \\hat\\Sigma$ for any $\\mathbf P$, $\\Lambda = \\mathbf I$ for neither."
    )
    kind = st.radio(
        "Transformation",
        ["rescale every feature", "random invertible matrix"],
        key="learn.t1.kind",
        horizontal=True,
        help="Rescaling multiplies each feature by its own random factor between 0.001 and "
        "1000 (a change of units). A random matrix mixes the features too.",
    )
    if st.button("Draw another transformation", key="learn.t1.draw"):
        state.bump_counter("learn.t1.seed")
with right:
    d = ds.n_features
    transform, drawn, condition = learn.random_transform(
        state.widget_value("learn.t1.seed", 0), d, kind == "rescale every feature"
    )
    if kind == "rescale every feature":
        factors = drawn
        st.caption(
            "Factors: "
            + ", ".join(
                f"{plain(n)} ×{f:.3g}" for n, f in zip(ds.feature_names[:6], factors, strict=False)
            )
            + (" …" if d > 6 else "")
        )
    else:
        st.caption(f"A random {d} × {d} matrix P (condition number {condition:.0f}).")
    with alerts.guard("The MSP could not be computed"):
        checks = ua.theorem1_table(current.fingerprint, transform, lam_eff, X, labels)
        if kind != "rescale every feature":
            zero = ua.theorem1_table(current.fingerprint, transform, 0.0, X, labels, ("diag",))
            checks = pd.concat([zero, checks], ignore_index=True)
        presenter.chart(plots.theorem1_figure(checks), key="learn.t1.figure", width="stretch")
        st.dataframe(
            checks[
                ["setting", "msp_before", "msp_after", "relative_difference", "expected_invariant"]
            ],
            hide_index=True,
            width="stretch",
            column_config={
                "setting": st.column_config.TextColumn(width=110),
                "msp_before": st.column_config.NumberColumn("MSP before", format="%.8f", width=85),
                "msp_after": st.column_config.NumberColumn("MSP after", format="%.8f", width=85),
                "relative_difference": st.column_config.NumberColumn(
                    "relative change", format="%.1e", width=70
                ),
                "expected_invariant": st.column_config.CheckboxColumn(
                    "theory says unchanged",
                    width=45,
                    help="Whether Theorem 1 (with the regulariser rule above) promises "
                    "equality here.",
                ),
            },
        )

# ---- 5. Theorem 5 -------------------------------------------------------------------------
st.header("5 · Theorem 5: a high MSP guarantees a large relative margin")
left, right = presenter.columns([1, 1], key="learn-theorem5")
with left:
    st.markdown(
        "If the clusters have MSP $p$, there is a hyperplane such that at least a fraction "
        "$1 - r$ of each cluster lies at relative margin "
        "$|\\mathbf w^\\top \\mathbf x - b| / \\Delta \\ge \\rho / 2$, where "
        "$\\Delta = |\\mathbf w^\\top(\\mu_1 - \\mu_2)|$ and"
    )
    st.latex(r"r = \frac{p^{-1} - 1}{(p^{-1} - 1) + (1 - \rho)^2 / 4},\qquad 0 \le \rho \le 1.")
    st.markdown(
        "Unlike the absolute margin of maximum margin clustering, the relative margin does "
        "not change when features are rescaled. The paper states it with λ = 0; with λ > 0 "
        "the MSP is computed from larger covariances, so the guarantee is weaker but still "
        "holds."
    )
    rho = st.slider(
        "ρ",
        0.0,
        1.0,
        0.5,
        step=0.05,
        key="learn.t5.rho",
        help="The relative margin to check is ρ/2: ρ = 0 asks only for the right side of "
        "the hyperplane, ρ = 1 for half the distance between the cluster means.",
    )
with right:
    with alerts.guard("The guarantee could not be computed"):
        mpm = ua.mpm_on_labels(current.fingerprint, lam_eff, reg, X, labels)
        margins = X @ mpm["w"] - mpm["b"]
        presenter.chart(
            plots.margin_histogram(margins, labels, mpm["alpha"], rho, height=330),
            key="learn.t5.hist",
            width="stretch",
        )
        presenter.chart(
            plots.guarantee_curve(margins, labels, mpm["alpha"], height=300),
            key="learn.t5.curve",
            width="stretch",
        )
        st.caption(learn.theorem5_note(margins, labels, mpm["alpha"], rho))

# ---- 6. Beyond two clusters ----------------------------------------------------------------
st.header("6 · Beyond two clusters: the multi-class MSP")
left, right = presenter.columns([1, 1], key="learn-multiclass")
with left:
    st.markdown(
        "For two clusters the MSP is the MPM's optimum $\\alpha$. For $k$ clusters, fit one "
        "MPM to every pair $(i, j)$, with optimum $\\alpha_{ij}$, and classify a new point "
        "by one-vs-one voting. A point of cluster $i$ is classified correctly whenever each "
        "of the $k - 1$ hyperplanes that involve $i$ puts it on $i$'s side: then $i$ has "
        "$k - 1$ votes and every other cluster at most $k - 2$. Hyperplane $(i, j)$ fails "
        "on a point of $i$ with worst-case probability at most $1 - \\alpha_{ij}$, so by "
        "the union bound, for every distribution with the clusters' means and covariances,"
    )
    st.latex(
        r"P(\text{correct} \mid i) \ge b_i = \max\Big(0,\; 1 - \sum_{j \ne i}"
        r"(1 - \alpha_{ij})\Big),\qquad \mathrm{MSP}_k = \sum_i \frac{N_i}{N}\, b_i ."
    )
    st.markdown(
        "- **k = 2**: $b_0 = b_1 = \\alpha_{01}$, so $\\mathrm{MSP}_2$ is the binary MSP.\n"
        "- **Invariance** (Theorem 1): each $\\alpha_{ij}$ is unchanged by an invertible "
        "linear map of the features when $\\Lambda$ follows the data (diag: any rescaling "
        "of the features), and the cluster sizes do not change, so $\\mathrm{MSP}_k$ is "
        "invariant too.\n"
        "- **A bound, not an estimate**: the union bound is loose when $k$ is large (it is 0 "
        "once a cluster's pairwise failures add up to 1), so it falls as $k$ grows even for "
        "well separated clusters; compare MSPs across $k$ with that in mind."
    )
with right:
    with alerts.guard("The multi-class MSPs could not be computed"):
        multi = [("the labeling above", labels)]
        if learn.n_clusters_of(y) > 2:
            multi.append(("true classes", y))
        for kk in (3, 4):
            km_k = cache.fit(
                "kmeans", {"n_clusters": kk}, current.fingerprint, X, y, msp_lam=lam_eff
            )
            if km_k.ok and km_k.n_clusters == kk:
                multi.append((f"k-means, k = {kk}", km_k.labels))
        rows = learn.multiclass_rows(X, multi, lam_eff, reg)
        st.dataframe(
            learn.multiclass_display(rows),
            hide_index=True,
            width="stretch",
            column_config={
                "MSP_k": st.column_config.NumberColumn("MSP_k", format="%.4f"),
                "binary MSP (k = 2)": st.column_config.TextColumn(
                    help="The MPM's optimum for a two-cluster labeling; defined for k = 2 only."
                ),
            },
        )
        st.caption(learn.multiclass_note(rows))

ua.sync_to_url()
