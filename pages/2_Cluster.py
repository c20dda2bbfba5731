"""Cluster page: run one or several methods side by side on the current data.

Metrics table, 2-D views with the separating line, margin histograms with Theorem 5, the
objective per iteration, lasso constraints for DIFFRAC/SMIC, and downloads. Widgets and
layout only: fits go through :mod:`ui.cache`, figures come from :mod:`clustering.plots`.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from clustering import ALGORITHMS, plots
from clustering.evaluation import metrics_table
from ui import cache, state, widgets

st.set_page_config(
    page_title="Cluster · Discriminative Clustering Lab",
    layout="wide",
)
state.init()

#: Above this many samples runs wait for the Run button unless "run automatically" is on.
AUTO_RUN_MAX_SAMPLES = 3000
#: Set once for every method (sidebar) and passed once to the backend.
SHARED = ("lam", "regularizer")

st.title("Cluster")
current = widgets.data_caption()
ds = current.dataset
X, y = ds.X, ds.y

# ---- controls ---------------------------------------------------------------------------
with st.sidebar:
    st.header("Settings")
    keys = widgets.algorithm_multiselect("algorithms")
    lam = widgets.lam_slider("lam")
    reg = widgets.regularizer_select("regularizer")
    params: dict[str, dict] = {}
    for key in keys:
        spec = ALGORITHMS[key]
        own = [p for p in spec.params if p.name not in ("lam", "regularizer")]
        if own:
            with st.expander(f"{spec.name} settings"):
                st.caption(spec.summary)
                params[key] = widgets.algorithm_params(key)
        else:
            params[key] = state.get_algorithm_params(key)
        params[key] = {k: v for k, v in params[key].items() if k not in SHARED}
    st.caption(
        "λ and Λ apply to every method that has them, and to the MSP column for all methods, "
        "so their MSPs are comparable."
    )
    state.seed_widget("cluster.autorun", ds.n_samples <= AUTO_RUN_MAX_SAMPLES)
    autorun = st.toggle(
        "Run automatically on every change",
        key="cluster.autorun",
        help="On: every change of a setting re-runs the methods (results already computed "
        "come back at once). Off: change several settings, then press Run — better for "
        "large data sets or slow methods.",
    )
    run = st.button("Run", type="primary", key="cluster.run", width="stretch")

must_link, cannot_link = state.get_constraints(current.fingerprint)
signature = (
    current.fingerprint,
    tuple(keys),
    tuple((k, tuple(sorted(params[k].items()))) for k in keys),
    lam,
    reg,
    tuple(map(tuple, must_link)),
    tuple(map(tuple, cannot_link)),
)

if not keys:
    st.info("Choose at least one algorithm in the sidebar.")
    state.sync_to_url()
    st.stop()

stored = state.widget_value("cluster.results")
if run or autorun or (stored is not None and stored["signature"] == signature):
    with st.spinner("Clustering…"):
        results = cache.fit_many(
            keys,
            params,
            current.fingerprint,
            X,
            y,
            must_link=must_link,
            cannot_link=cannot_link,
            shared={"lam": lam, "regularizer": reg},
        )
    state.set_widget("cluster.results", {"signature": signature, "results": results})
    stale = False
elif stored is not None and stored["signature"][0] == current.fingerprint:
    results = [r for r in stored["results"] if r.key in keys] or stored["results"]
    stale = True
else:
    st.info(
        f"These data have {ds.n_samples:,} samples, so runs wait for you: press **Run** in "
        "the sidebar (or turn on 'Run automatically')."
    )
    state.sync_to_url()
    st.stop()

if stale:
    st.warning("The settings changed since these results were computed — press **Run**.")

# ---- metrics ----------------------------------------------------------------------------
st.subheader("Metrics")
table = metrics_table(results)
if y is None:
    table = table.drop(columns=["accuracy", "NMI", "Rand", "F"])
if not table["error"].astype(bool).any():
    table = table.drop(columns=["error"])
st.dataframe(
    table,
    hide_index=True,
    width="stretch",
    column_config={
        "MSP": st.column_config.NumberColumn(
            "MSP",
            format="%.3f",
            help=f"Minimum separation probability of each labeling (λ = {lam:g}, Λ = {reg}): "
            "a lower bound on how well a linear classifier trained on the clusters would "
            "separate them. Needs no true labels.",
        ),
        "accuracy": st.column_config.NumberColumn(
            format="%.3f",
            help="Share of samples whose cluster matches their class under the "
            "best matching of clusters to classes.",
        ),
        "NMI": st.column_config.NumberColumn(
            format="%.3f", help="Normalised mutual information between clusters and classes."
        ),
        "Rand": st.column_config.NumberColumn(
            format="%.3f",
            help="Share of pairs of samples on which clusters and classes agree "
            "(together / apart).",
        ),
        "F": st.column_config.NumberColumn(
            format="%.3f", help="F1 score over pairs of samples put together."
        ),
        "time (s)": st.column_config.NumberColumn(format="%.3f", help="Fit time."),
        "iterations": st.column_config.NumberColumn(help="Iterations the method ran."),
    },
)
if y is None:
    st.caption("These data have no class labels, so only the MSP can judge the clusterings.")

# ---- views ------------------------------------------------------------------------------
st.subheader("Clusters in two dimensions")
view = widgets.view_select(ds.n_features, ds.feature_names, key="view")
constraint_keys = [r.key for r in results if r.ok and ALGORITHMS[r.key].constraints]

ok_results = [r for r in results if r.ok]
if len(results) <= 3:
    panels = list(zip(results, st.columns(len(results)), strict=True))
else:
    panels = list(zip(results, st.tabs([r.name for r in results]), strict=True))

figures: dict[str, object] = {}
selection: dict[str, list[int]] = {}
for result, panel in panels:
    with panel:
        st.markdown(f"**{result.name}**")
        if not widgets.show_result_problems(result):
            continue
        with widgets.guard(title="This view cannot be drawn"):
            proj = cache.projection(
                view, current.fingerprint, X, result.w, result.b, ds.feature_names
            )
            msp = result.msp
            acc = result.metrics.get("accuracy")
            title = f"MSP {msp:.3f}" if np.isfinite(msp) else "MSP —"
            if acc is not None:
                title += f" · accuracy {acc:.3f}"
            fig = plots.cluster_scatter(proj, result.labels, y, ds.class_names, title=title)
            figures[f"{result.key}-scatter"] = fig
            if result.key in constraint_keys:
                event = st.plotly_chart(
                    fig,
                    key=f"scatter.{result.key}",
                    on_select="rerun",
                    selection_mode="lasso",
                )
                chosen = []
                for point in event.selection.get("points", []):
                    data = point.get("customdata")
                    if data is None:
                        trace = fig.data[point["curve_number"]]
                        data = trace.customdata[point["point_index"]]
                    chosen.append(int(np.ravel(data)[0]))
                selection[result.key] = chosen
            else:
                st.plotly_chart(fig, key=f"scatter.{result.key}")
            if result.hyperplane == "mpm":
                st.caption(
                    "This method draws no hyperplane; the line and margins are those of the "
                    "MPM fitted to its clusters — what its MSP measures."
                )

# ---- lasso constraints --------------------------------------------------------------------
if constraint_keys:
    st.subheader("Constraints from the lasso")
    chosen = sorted({i for k in constraint_keys for i in selection.get(k, [])})
    st.caption(
        "Draw around points with the lasso on a DIFFRAC or SMIC plot. **Must-link**: the "
        "selected points belong together (they become the reference group). **Cannot-link**: "
        "the selected points do not belong with the reference group. The methods that take "
        "constraints re-run with them."
    )
    c1, c2, c3, c4 = st.columns(4)
    c1.metric("Selected points", len(chosen))
    if c2.button("Must-link the selection", key="constraints.must", disabled=len(chosen) < 2):
        added = state.add_constraints(current.fingerprint, "must", chosen)
        st.toast(f"{added} must-link pairs added.")
        st.rerun()
    if c3.button("Cannot-link to the group", key="constraints.cannot", disabled=not chosen):
        with widgets.guard():
            added = state.add_constraints(current.fingerprint, "cannot", chosen)
            st.toast(f"{added} cannot-link pairs added.")
            st.rerun()
    if c4.button(
        "Clear constraints", key="constraints.clear", disabled=not (must_link or cannot_link)
    ):
        state.clear_constraints(current.fingerprint)
        st.rerun()
    st.caption(f"Now: {len(must_link)} must-link and {len(cannot_link)} cannot-link pairs.")

# ---- margins ------------------------------------------------------------------------------
st.subheader("Margins and Theorem 5")
rho = st.slider(
    "ρ (relative margin threshold)",
    0.0,
    1.0,
    0.5,
    0.05,
    key="cluster.rho",
    help="Theorem 5 of the MSPC paper: if the clusters' true means and covariances are the "
    "ones measured, at least a fraction 1 − r of each cluster lies at relative margin ρ/2 or "
    "more from the hyperplane, where r = (1/p − 1) / ((1/p − 1) + (1 − ρ)²/4) and p is the "
    "MSP. Move ρ to see the guarantee against what the data show.",
)
margin_results = [r for r in ok_results if r.w is not None and r.n_clusters == 2]
if not margin_results:
    st.info("No clustering here has two clusters and a separating hyperplane to measure.")
else:
    cols = st.columns(min(len(margin_results), 3))
    for i, result in enumerate(margin_results):
        with cols[i % len(cols)], widgets.guard(title="The margins cannot be drawn"):
            margins = result.margins(X)
            msp = result.msp if np.isfinite(result.msp) else None
            fig = plots.margin_histogram(margins, result.labels, msp, rho, title=result.name)
            figures[f"{result.key}-margins"] = fig
            st.plotly_chart(fig, key=f"margins.{result.key}")
            if np.isfinite(result.msp):
                with st.expander("Guarantee for every ρ"):
                    curve = plots.guarantee_curve(margins, result.labels, result.msp)
                    figures[f"{result.key}-guarantee"] = curve
                    st.plotly_chart(curve, key=f"guarantee.{result.key}")

# ---- objective --------------------------------------------------------------------------
histories = {r.name: r.history for r in ok_results if r.history is not None and r.history.size}
if histories:
    st.subheader("Objective per iteration")
    fig = plots.objective_plot(histories, y_title="objective (method's own scale)")
    figures["objective"] = fig
    st.plotly_chart(fig, key="objective")
    st.caption(
        "Each method's own objective: MSPC (MPM) the MSP of the current labels, MSPC (GEP) "
        "the lower bound (4), MSPC (EIG) its eigenvalue. Scales differ between methods."
    )

# ---- downloads --------------------------------------------------------------------------
st.subheader("Downloads")
d1, d2, d3 = st.columns(3)
widgets.download_labels(ds, results, key="download.labels", container=d1)
widgets.download_config(
    key="download.config",
    container=d2,
    extra={
        "metrics": {r.key: r.metrics for r in results},
        "errors": {r.key: r.error for r in results if r.error},
        "must_link": must_link,
        "cannot_link": cannot_link,
    },
)
if figures:
    with d3:
        name = st.selectbox("Figure", list(figures), key="download.figure_name")
        widgets.download_figure(figures[name], f"{ds.name}-{name}", key="download.figure")

state.sync_to_url()
