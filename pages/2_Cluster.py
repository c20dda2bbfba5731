"""Cluster page: run one or several methods side by side on the current data.

Metrics table, 2-D views with the separating line (a grid of at most three panels a row,
shared axis ranges), margin histograms with Theorem 5, the objective per iteration, MSPC
step by step, the MSP against k, lasso constraints for DIFFRAC/SMIC, and downloads. The
number of clusters k goes to every method. Widgets and layout only: what may run is
decided by the cost guard in :mod:`ui.runs`, fits go through :mod:`ui.cache`, captions and
layout come from :mod:`ui.cluster`, figures from :mod:`lab.plots`.
"""

from __future__ import annotations

import streamlit as st

from clustering import ALGORITHMS
from lab import plots
from ui import alerts, cache, downloads, lesson, presenter, runs, state, widgets
from ui import cluster as cluster_ui
from ui import learn as learn_ui
from ui.text import finite

st.set_page_config(
    page_title="Cluster · Discriminative Clustering Lab",
    layout="wide",
)
state.init()

with lesson.header(
    "Cluster", "Run methods side by side: where does each draw its line, and how sure is it?"
):
    current = widgets.data_caption()
ds = current.dataset
X, y = ds.X, ds.y

# ---- controls ---------------------------------------------------------------------------
with st.sidebar:
    keys, k, lam, reg = widgets.method_settings(current)
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
    st.caption(
        "λ and Λ apply to every method that has them, and to the MSP column for all methods, "
        "so their MSPs are comparable."
    )
    state.seed_widget("cluster.autorun", True)
    autorun = st.toggle(
        "Run automatically on every change",
        key="cluster.autorun",
        help="On: every change of a setting re-runs the methods predicted to finish within "
        f"{runs.AUTO_RUN_LIMIT} (results already computed come back at once). Off: change "
        "several settings, then press Run. A method predicted to cost more always waits for "
        "its own button, which shows the prediction.",
    )
    run = st.button("Run", type="primary", key="cluster.run", width="stretch")

must_link, cannot_link = state.get_constraints(current.fingerprint)

box = lesson.layout()
if not keys:
    box.figure.info("Choose at least one algorithm in the sidebar.")
    state.sync_to_url()
    st.stop()

# ---- the cost guard: what may run now ------------------------------------------------------
planned = runs.plan(
    keys,
    params,
    ds.n_samples,
    ds.n_features,
    msp=(lam, reg),
    n_clusters=k,
    context=(
        current.fingerprint,
        tuple(map(tuple, must_link)),
        tuple(map(tuple, cannot_link)),
    ),
)
if run:
    state.approve_runs([p.signature for p in planned if p.auto_run])
with st.spinner("Clustering…"):
    fitted, waiting = runs.run_planned(
        planned,
        autorun=autorun,
        data_fingerprint=current.fingerprint,
        X=X,
        y=y,
        must_link=must_link,
        cannot_link=cannot_link,
        msp=(lam, reg),
    )
results = [fitted[p.key] for p in planned if p.key in fitted]
waiting_keys = {p.key for p in waiting}

# ---- the lesson: one method's clusters or margins, beside what moves them ----------------
ok_results = [r for r in results if r.ok]
SHOW = {"clusters": "Clusters in 2-D", "margins": "Margins (Theorem 5)"}
with box.controls:
    state.url_seed("cluster.show", "show", "clusters", list(SHOW))
    show = st.radio("Show", list(SHOW), key="cluster.show", format_func=SHOW.get, horizontal=True)
    state.record_url_value("show", show)
    names = {r.key: r.name for r in ok_results}
    state.keep_widget_in("cluster.lesson_method", list(names), next(iter(names), None))
    chosen_key = st.selectbox(
        "Method", list(names), key="cluster.lesson_method", format_func=names.get
    )
    if show == "clusters":
        view = widgets.view_select(ds.n_features, ds.feature_names, key="view", compact=True)
    else:
        view = state.get_view()
        state.seed("cluster.rho", state.KEYS.RHO)
        rho = st.slider(
            "ρ (relative margin threshold)",
            0.0,
            1.0,
            step=0.05,
            key="cluster.rho",
            help="Theorem 5 of the MSPC paper: if the clusters' true means and covariances are "
            "the ones measured, at least a fraction 1 − r of each cluster lies at relative margin "
            "ρ/2 or more from the hyperplane, where r = (1/p − 1) / ((1/p − 1) + (1 − ρ)²/4) and "
            "p is the MSP. Move ρ to see the guarantee against what the data show.",
        )
        state.record(state.KEYS.RHO, float(rho))
rho = state.get_rho()
constraint_keys = [r.key for r in ok_results if ALGORITHMS[r.key].constraints]
projected: dict[str, object] = {}
for result in ok_results:
    with alerts.guard(title="This view cannot be drawn"):
        projected[result.key] = cache.projection(
            view, current.fingerprint, X, result.w, result.b, ds.feature_names
        )
chosen = fitted.get(chosen_key) if chosen_key else None
if chosen is not None and show == "clusters" and chosen.key in projected:
    lesson.chart(
        box,
        cluster_ui.scatter_panel(
            view,
            current.fingerprint,
            chosen,
            projected[chosen.key],
            y,
            ds.class_names,
            height=lesson.figure_height(),
            ranges=None,
            grid=False,
        ),
        key="lesson.scatter",
    )
    sentence, why = cluster_ui.lesson_verdict(results, chosen)
    box.verdict(sentence, help=why)
elif chosen is not None and show == "margins":
    if chosen.w is not None and chosen.n_clusters == 2 and finite(chosen.msp):
        lesson.chart(
            box,
            cluster_ui.margin_panel(
                current.fingerprint, chosen, X, rho, grid=False, height=lesson.figure_height()
            ),
            key="lesson.margins",
            title_lines=1,
        )
        box.verdict(learn_ui.theorem5_note(chosen.margins(X), chosen.labels, chosen.msp, rho))
    else:
        box.figure.info(
            f"{chosen.name} has no two-cluster hyperplane with a finite MSP to measure margins "
            "against; with more clusters, see 'Margins and Theorem 5' below."
        )

# ---- metrics ----------------------------------------------------------------------------
more_metrics = st.expander("Metrics of every method")
if not results:
    box.figure.info(
        "Nothing has run yet: press **Run** in the sidebar (or turn on 'Run automatically'), "
        "or the button of a method below."
    )
else:
    with more_metrics:
        st.caption(widgets.msp_note(lam, reg))
        table = runs.metrics_with_reasons(planned, fitted)
        if y is None:
            table = table.drop(columns=["accuracy", "NMI", "Rand", "F"])
        if not table["error"].astype(bool).any():
            table = table.drop(columns=["error"])
        st.dataframe(
            table,
            hide_index=True,
            width="stretch",
            column_config=cluster_ui.metrics_columns(lam, reg),
        )
        note = cluster_ui.comparison_note(results)
        if note:
            st.caption(note, help="Computed from the table above.")
        if y is None:
            st.caption(
                "These data have no class labels, so only the MSP can judge the clusterings."
            )

# ---- views ------------------------------------------------------------------------------
with st.expander("Every method's clusters", expanded=bool(waiting_keys)):
    ranges = cluster_ui.shared_ranges([p.coords for p in projected.values()])

    figures: dict[str, object] = {}
    selection: dict[str, list[int]] = {}
    order = [p.key for p in planned]
    row_start = 0
    per_row = presenter.per_row(3)
    for row_size in cluster_ui.grid_rows(len(order), per_row):
        columns = st.columns(per_row if len(order) > per_row else row_size)
        for key, panel in zip(order[row_start : row_start + row_size], columns, strict=False):
            with panel:
                st.markdown(f"**{ALGORITHMS[key].name}**")
                item = next(p for p in planned if p.key == key)
                if item.unavailable:
                    st.info(item.unavailable, icon=":material/info:")
                    continue
                if key in waiting_keys:
                    if item.auto_run:
                        st.info(
                            "Waiting: press **Run** in the sidebar (predicted "
                            f"{item.cost.describe()})."
                        )
                    else:
                        st.info(item.wait_message(ds.n_samples, ds.n_features))
                        if st.button(
                            f"Run {item.name} ({item.cost.describe()})",
                            key=f"cluster.run.{key}",
                            width="stretch",
                        ):
                            state.approve_runs([item.signature])
                            st.rerun()
                    continue
                result = fitted[key]
                if not alerts.show_result_problems(result) or key not in projected:
                    continue
                panel = cluster_ui.scatter_panel(
                    view,
                    current.fingerprint,
                    result,
                    projected[key],
                    y,
                    ds.class_names,
                    height=420,
                    ranges=ranges,
                    grid=len(order) > 1,
                )
                figures[f"{key}-scatter"] = panel.figure
                if key in constraint_keys:
                    event = presenter.chart(
                        panel,
                        key=f"scatter.{key}",
                        on_select="rerun",
                        selection_mode="lasso",
                    )
                    selection[key] = cluster_ui.lasso_indices(event, panel.figure)
                else:
                    presenter.chart(panel, key=f"scatter.{key}")
                if result.hyperplane == "mpm":
                    st.caption(
                        "This method draws no hyperplane; the line and margins are those of the "
                        "MPM fitted to its clusters — what its MSP measures."
                    )
                if result.kernel:
                    st.caption(result.kernel)
        row_start += row_size
    if ranges is not None and len(projected) > 1:
        st.caption(cluster_ui.axes_note(view))

# ---- lasso constraints --------------------------------------------------------------------
with st.expander("Constraints from the lasso (DIFFRAC, SMIC)"):
    if constraint_keys:
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
            with alerts.guard():
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
with st.expander("Margins and Theorem 5, every method"):
    st.caption(f"At ρ = {rho:g} (set it beside the figure above with Show: margins).")
    margin_results = [r for r in ok_results if r.w is not None and r.n_clusters == 2]
    multi_results = [r for r in ok_results if r.n_clusters > 2]
    if multi_results:
        # More than two clusters: one cluster against the rest, through the MPM fitted to it.
        k_max = max(r.n_clusters for r in multi_results)
        state.seed_widget("cluster.vs_rest", 0)
        if state.widget_value("cluster.vs_rest") >= k_max:
            state.set_widget("cluster.vs_rest", 0)
        chosen = st.selectbox(
            "Cluster against the rest",
            list(range(k_max)),
            key="cluster.vs_rest",
            format_func=lambda c: f"cluster {c} against the other clusters",
            help="With more than two clusters there is one hyperplane per pair of clusters. Here "
            "the MPM is fitted to one cluster against all the others, and its margins and MSP are "
            "shown: the same view as for two clusters.",
        )
        cols = st.columns(min(len(multi_results), per_row))
        for i, result in enumerate(multi_results):
            with cols[i % len(cols)], alerts.guard(title="The margins cannot be drawn"):
                if chosen >= result.n_clusters:
                    st.caption(f"{result.name} found {result.n_clusters} clusters.")
                    continue
                margins, binary, alpha = cluster_ui.one_vs_rest(
                    current.fingerprint, X, result.labels, chosen, lam, reg
                )
                fig = plots.margin_histogram(
                    margins,
                    binary,
                    alpha,
                    rho,
                    title=f"{result.name}: cluster {chosen} vs the rest",
                )
                if len(multi_results) > 1:
                    plots.grid_panel(fig)
                figures[f"{result.key}-margins-{chosen}"] = fig
                presenter.chart(fig, key=f"margins.vs_rest.{result.key}")
                st.caption(
                    f"The MPM of cluster {chosen} against the rest: MSP {alpha:.3f} (λ = {lam:g}, "
                    f"Λ = {reg})."
                )
    if not margin_results and not multi_results:
        st.info("No clustering here has a separating hyperplane to measure.")
    elif margin_results:
        show_guarantee = st.toggle(
            "Guarantee for every ρ",
            key="cluster.guarantee_on",
            help="Under each histogram, Theorem 5's guaranteed fraction against the observed one "
            "as ρ runs from 0 to 1 (one more figure per method).",
        )
        cols = st.columns(min(len(margin_results), per_row))
        for i, result in enumerate(margin_results):
            with cols[i % len(cols)], alerts.guard(title="The margins cannot be drawn"):
                panel = cluster_ui.margin_panel(
                    current.fingerprint, result, X, rho, grid=len(margin_results) > 1
                )
                figures[f"{result.key}-margins"] = panel.figure
                presenter.chart(panel, key=f"margins.{result.key}")
                if show_guarantee and finite(result.msp):
                    curve = plots.guarantee_curve(
                        result.margins(X),
                        result.labels,
                        result.msp,
                        title=f"{result.name}: guarantee for every ρ",
                    )
                    figures[f"{result.key}-guarantee"] = curve
                    presenter.chart(curve, key=f"guarantee.{result.key}")

# ---- objective --------------------------------------------------------------------------
with st.expander("Objective per iteration"):
    histories = {r.name: r.history for r in ok_results if r.history is not None and r.history.size}
    if histories:
        if any(h.size > 1 for h in histories.values()):  # a single value has no course to draw
            panel = cluster_ui.objective_panel(histories)
            figures["objective"] = panel.figure
            presenter.chart(panel, key="objective")
        for line in cluster_ui.objective_notes(ok_results):
            st.caption(line)
        st.caption(
            "Each method's own objective, on its own scale: MSPC (MPM) the MSP of the current "
            "labels, MSPC (GEP) the lower bound (4), MSPC (EIG) its eigenvalue."
        )

# ---- MSPC step by step ----------------------------------------------------------------------
with st.expander("MSPC step by step"):
    stepper = next((r for r in ok_results if r.key in ("mspc-mpm", "mspc-gep")), None)
    if stepper is not None and k == 2:
        replay = runs.replay_cost(runs.planned_cost(planned, stepper.key), stepper.n_iter)
        st.caption(
            f"Replays {stepper.name}'s search from its start: the labels, the hyperplane and the "
            f"MSP after every iteration ({(stepper.n_iter or 1) + 1} fits, predicted "
            f"{replay.describe()})."
        )
        # On request only: the figure with its frames is the page's heaviest to draw (see
        # bench/RESULTS.md).
        if st.toggle("Replay it", key="cluster.steps_on"):
            with alerts.guard(title="The iterations cannot be replayed"):
                steps = cluster_ui.mspc_steps(current.fingerprint, X, stepper.params)
                feats = (0, 1 if ds.n_features > 1 else 0)
                if view.startswith("features:"):
                    feats = tuple(int(j) for j in view.split(":", 1)[1].split(","))
                fig = plots.mspc_steps_figure(
                    steps, X, features=feats, feature_names=ds.feature_names
                )
                figures["mspc-steps"] = fig
                presenter.chart(fig, key="mspc.steps")
                st.caption(cluster_ui.steps_note(stepper.name, steps))

# ---- choosing k --------------------------------------------------------------------------
with st.expander("How many clusters? MSP against k"):
    cost = runs.curve_cost(ds.n_samples, ds.n_features)
    st.caption(
        f"Multi-class MSPC for every k from {runs.CURVE_KS[0]} to {runs.CURVE_KS[-1]} and the MSP "
        f"of each labeling (predicted {cost.describe()}). The suggested k is the one after which "
        "the MSP falls the most."
    )
    curve_key = (current.fingerprint, lam, reg)
    if cost.refused:
        st.info("These data are too large for the curve on this machine; use a subsample.")
    elif st.button(f"Compute the MSP curve ({cost.describe()})", key="cluster.curve"):
        state.set_widget("cluster.curve_for", curve_key)
    if state.widget_value("cluster.curve_for") == curve_key:
        with alerts.guard(title="The MSP curve cannot be computed"):
            curve = cluster_ui.msp_curve(current.fingerprint, X, lam, reg)
            fig = plots.msp_curve_figure(curve)
            figures["msp-curve"] = fig
            presenter.chart(fig, key="msp.curve")
            st.caption(cluster_ui.curve_note(curve))
            best = int(curve["suggested_k"])
            state.record_suggested_k(current.fingerprint, best)
            if best != k and st.button(f"Use k = {best}", key="cluster.use_k"):
                state.set_n_clusters(best)
                st.rerun()

# ---- downloads --------------------------------------------------------------------------
with st.expander("Downloads"):
    d1, d2, d3 = st.columns(3)
    downloads.download_labels(ds, results, key="download.labels", container=d1)
    downloads.download_config(
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
            downloads.download_figure(figures[name], f"{ds.name}-{name}", key="download.figure")

state.sync_to_url()
