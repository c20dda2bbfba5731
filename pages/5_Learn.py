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
from ui import alerts, cache, learn, lesson, presenter, state, widgets
from ui import analysis as ua
from ui.text import plain

st.set_page_config(page_title="Learn · Discriminative Clustering Lab", layout="wide")
state.init()

#: The digits pair the held-out demonstration opens on.
HELDOUT_PAIR = "digits:1v3"
#: The lessons of the page's first screen (``topic=`` in the link).
TOPICS = {
    "mpm": "The MPM and its bound",
    "heldout": "In sample or held out",
    "theorem5": "Theorem 5: margins",
}


def section(title: str, theory, *, subheader: bool = False):
    """A section, folded under the lesson: an expander titled ``title`` with two columns, the
    theory (``learn.THEORY``) written in the left one; returns both columns (stacked in
    presenter mode at 1280 px)."""
    key = "learn-" + "".join(ch for ch in title.lower() if ch.isalnum())[:32]
    left, right = presenter.columns([1, 1], key=key, where=st.expander(title))
    with left:
        for element, text in theory:
            getattr(st, element)(text)
    return left, right


with lesson.header(
    "Learn: the ideas behind MSPC",
    "Each result of the MSPC paper (Huang, Zhang, Song & Chen, AAAI 2015) beside a live "
    "experiment on the current data.",
):
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

# ---- the lesson: one result, its control, its figure and verdict -----------------------------
box = lesson.layout()
with box.controls:
    state.url_seed("learn.topic", "topic", "mpm", list(TOPICS))
    topic = st.radio("Topic", list(TOPICS), key="learn.topic", format_func=TOPICS.get)
    state.record_url_value("topic", topic)
    state.seed_widget("learn.ho.pair", HELDOUT_PAIR)
    if topic == "heldout":
        st.selectbox(
            "Pair of handwritten digits",
            ua.digits_pairs(),
            key="learn.ho.pair",
            help="scikit-learn's 8x8 digits: each pair of classes is a two-cluster task with 64 "
            "pixel features (constant pixels dropped) and about 360 images, features scaled to "
            "[-1, 1].",
        )
    elif topic == "theorem5":
        state.seed("learn.t5.rho", state.KEYS.RHO)
        state.record(
            state.KEYS.RHO,
            st.slider(
                "ρ",
                0.0,
                1.0,
                step=0.05,
                key="learn.t5.rho",
                help="The relative margin to check is ρ/2: ρ = 0 asks only for the right side "
                "of the hyperplane, ρ = 1 for half the distance between the cluster means.",
            ),
        )
pair = str(state.widget_value("learn.ho.pair", HELDOUT_PAIR))
rho = state.get_rho()
with alerts.guard("The lesson could not be computed"):
    if topic == "heldout":
        splits, _ = learn.heldout_splits(pair, mspc_params, lam_eff, reg)
        lesson.chart(box, plots.heldout_bars_figure(splits), key="learn.lesson.heldout")
        box.verdict(learn.heldout_verdict(splits), help=learn.heldout_note(splits))
    else:
        mpm = ua.mpm_on_labels(current.fingerprint, lam_eff, reg, X, labels)
        margins = X @ mpm["w"] - mpm["b"]
        if topic == "mpm":
            fig = plots.margin_histogram(margins, labels, title=f"MPM hyperplane for the {source}")
            lesson.chart(box, fig, key="learn.lesson.mpm")
            box.verdict(learn.mpm_note(mpm, source))
        else:
            fig = plots.margin_histogram(margins, labels, mpm["alpha"], rho)
            lesson.chart(box, fig, key="learn.lesson.t5", title_lines=1)
            box.verdict(learn.theorem5_note(margins, labels, mpm["alpha"], rho))

# ---- 1. MPM -------------------------------------------------------------------------------
left, right = section("1 · The Minimax Probability Machine", learn.THEORY["mpm"])
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
left, right = section("2 · MSP: scoring a clustering without labels", learn.THEORY["msp"])
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
left, right = section(
    "In sample or held out: does the rule generalise?", learn.THEORY["heldout"], subheader=True
)
with right, alerts.guard("The MSPs could not be computed"):
    splits, pair_ds = learn.heldout_splits(pair, mspc_params, lam_eff, reg)
    st.caption(
        f"**{plain(pair)}** (the pair chosen above, topic 'In sample or held out'): "
        f"{pair_ds.n_samples} images, {pair_ds.n_features} features; λ = {lam_eff:g}, Λ = {reg}."
    )
    if topic != "heldout":  # else it is the lesson's figure
        presenter.chart(
            plots.heldout_bars_figure(splits, height=400), key="learn.ho.bars", width="stretch"
        )
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
left, right = section(
    "3 · Theorem 2: a lower bound that is cheap to maximise", learn.THEORY["theorem2"]
)
with left:
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
left, right = section("4 · Theorem 1: the MSP does not care about units", learn.THEORY["theorem1"])
with left:
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
left, right = section(
    "5 · Theorem 5: a high MSP guarantees a large relative margin", learn.THEORY["theorem5"]
)
with left:
    st.caption(f"ρ is {rho:g} here: set it above, topic 'Theorem 5: margins'.")
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
left, right = section("6 · Beyond two clusters: the multi-class MSP", learn.THEORY["multiclass"])
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
