"""MSP vs accuracy page: does a higher MSP mean a more accurate clustering?

Leads with the MSPC paper's experiment (Figs. 2-3): MSPC's MSP against its accuracy, task by
task, over the paper's three families of tasks, each family's r beside the paper's. A second
view sweeps λ on the current data, says whether the MSP follows accuracy there, and what
choosing λ by it costs. Every MSP is measured with the sidebar's λ and Λ (the lab's one
scale). Widgets and layout only: runs go through :mod:`ui.analysis` (every fit cached), the
verdicts come from :mod:`lab.verdicts`, the figures from :mod:`lab.plots`.
"""

from __future__ import annotations

import streamlit as st

from clustering import ALGORITHMS
from lab import plots
from lab.experiments import protocols
from ui import alerts, downloads, lesson, presenter, shared, state, widgets
from ui import analysis as ua
from ui.text import number, plain

st.set_page_config(page_title="MSP vs accuracy · Discriminative Clustering Lab", layout="wide")
state.init()

LAM_METHODS = [k for k, s in ALGORITHMS.items() if any(p.name == "lam" for p in s.params)]

lesson.header("MSP vs accuracy", "Does a higher MSP come with a more accurate clustering?")
current = state.get_current_data()
ds = current.dataset
if current.error:  # a link's data could not be used: said first
    widgets.data_caption(current)
# The lesson first: its controls beside its figure, the verdict under the figure.
box = lesson.layout()
controls = box.controls

# ---- controls -----------------------------------------------------------------------------
# The view and the axis follow the link (a Lecture step, a shared link, Home's button).
ua.seed_view("mva.family")
state.url_seed("mva.score", "axis", "msp_heldout", list(protocols.SCORES))

with st.sidebar:
    st.header("Settings")
    chosen = [k for k in state.get_algorithms() if k in LAM_METHODS]
    method_default = "mspc-mpm" if "mspc-mpm" in LAM_METHODS else (chosen or [None])[0]
    if method_default is None:
        st.error("No registered method has a λ; this page needs one.")
        st.stop()
    # Follows the link as the view and the axis do (the Lecture's step 3 sets MSPC (MPM)).
    state.url_seed("mva.method", "method", method_default, LAM_METHODS)
    key = st.selectbox(
        "Method",
        LAM_METHODS,
        key="mva.method",
        format_func=lambda k: ALGORITHMS[k].name,
        help="The clustering method whose runs are scored. The paper uses MSPC (MPM).",
    )
    lam = widgets.lam_slider(
        "mva.lam",
        help="The lab's one λ: every MSP on this page (and on every other page) is measured "
        "with it. Across tasks, every task is also clustered with it; across λ, the runs "
        "try every λ of the grid and are all scored with this one.",
    )
    reg = widgets.regularizer_select("mva.regularizer")
    params = widgets.algorithm_params(key, widget_prefix="mva.param")

widgets.link_warnings()
view = controls.radio(
    "View",
    list(ua.VIEWS),
    key="mva.family",
    format_func=lambda v: ua.VIEWS[v].format(data=ds.name),
    horizontal=True,
    help="Across tasks: the MSPC paper's Figs. 2-3, one point per task, each family's r "
    "beside the paper's. Across λ: the same data clustered with λ = "
    f"{protocols.DEFAULT_LAMS[0]:g} … {protocols.DEFAULT_LAMS[-1]:g}, the MSP as a way "
    "to choose λ without labels.",
)
score = controls.radio(
    "MSP on the x axis",
    list(protocols.SCORES),
    key="mva.score",
    format_func=protocols.SCORES.get,
    horizontal=True,
    help="**held-out MSP** (the lab's): the Minimax Probability Machine is fitted on half of "
    "each cluster and its worst-case separation bound is evaluated on the other half (both "
    "ways, three random splits). **in-sample MSP** (the MSPC paper's): fitted and evaluated "
    "on the same points; with many features and few points it is near 1 even for splits "
    "unrelated to any structure.",
)
label = protocols.SCORES[score]
fit_params = {**params, "regularizer": reg}
controls.caption(widgets.msp_note(lam, reg, short=True))

signature = (view, key, tuple(sorted(fit_params.items())), lam, reg, current.fingerprint)
stored = state.widget_value("mva.result")
fresh = stored is not None and stored["signature"] == signature
asked = bool(state.widget_value(ua.RUN_ONCE, False))  # a Home demo's button
state.set_widget(ua.RUN_ONCE, False)
batch = ua.plan_runs(view, key, fit_params, lam, reg, ds)  # each fit's cost, once
cheap = batch.auto_run
pressed = False
if not (fresh or cheap):
    pressed = controls.button("Compute", type="primary", key="mva.run")
if not fresh and (pressed or asked or cheap):
    with box.figure, alerts.guard("The runs could not be computed"):
        if view == "tasks":
            table = ua.run_with_progress(
                ua.families_table,
                key,
                fit_params,
                lam,
                reg,
                text="Clustering every task…",
                evaluator=batch.evaluator(clicked=pressed or asked),
            )
            state.set_widget("mva.result", {"signature": signature, "table": table})
        else:
            sweep = ua.run_with_progress(
                protocols.lam_sweep,
                ds.X,
                ds.y,
                key,
                list(protocols.DEFAULT_LAMS),
                ua.sweep_params(fit_params),
                msp_lam=lam,
                msp_regularizer=reg,
                text="Sweeping λ…",
                evaluator=batch.evaluator(clicked=pressed or asked),
            )
            table = sweep.table.assign(name=[f"λ = {v:g}" for v in sweep.table["lam"]])
            state.set_widget("mva.result", {"signature": signature, "table": table})
        stored = state.widget_value("mva.result")

if stored is None or stored["signature"][:2] != signature[:2]:
    box.figure.info(ua.wait_message(view, ALGORITHMS[key].name))
else:
    if stored["signature"] != signature:
        box.figure.warning("The settings changed since these runs — press **Compute** again.")
    table = stored["table"]
    failed = table[table["error"] != ""]
    if view == "tasks":
        fig = shared.figure(
            plots.msp_accuracy_figure,
            table,
            x=score,
            x_label=label,
            group="family",
            title=f"{ALGORITHMS[key].name}, one point per task",
        )
        lesson.chart(box, fig, key="mva.scatter")
        box.verdict(
            ua.families_verdict(table, score).text, help="Computed from the points of the chart."
        )
        with lesson.more("Each family: both MSPs' r beside the paper's", key="mva.more.r"):
            st.dataframe(
                ua.families_summary(table),
                hide_index=True,
                width="stretch",
                column_config=ua.summary_columns(),
            )
            st.caption(ua.paper_note())
    else:
        choice = protocols.lam_choice(table, score)
        highlight = [f"λ = {choice.lam:g}"] if choice.lam == choice.lam else []
        fig = shared.figure(
            plots.msp_accuracy_figure,
            table,
            x=score,
            x_label=label,
            title=f"{ALGORITHMS[key].name} on {ds.name}, one point per λ",
            highlight=highlight,
        )
        lesson.chart(box, fig, key="mva.scatter")
        box.verdict(ua.sweep_verdict(table, score), help="Computed from the points of the chart.")
        more = lesson.more("The λ each choice picks, and both MSPs against λ", key="mva.more.lam")
        compared = ua.sweep_comparison(table, score)
        if compared:
            more.markdown(compared, help="Computed from the runs of the chart.")
        c = more.columns(4)
        c[0].metric(
            f"λ by the {label}",
            number(choice.lam, "g"),
            help=f"The λ whose clustering has the largest {label} (no labels used).",
        )
        c[1].metric("its accuracy", number(choice.accuracy))
        c[2].metric(
            "λ with the best accuracy",
            number(choice.best_accuracy_lam, "g"),
            help="What an oracle that knows the true classes would pick.",
        )
        c[3].metric("best accuracy", number(choice.best_accuracy))
        presenter.chart(
            shared.figure(plots.lam_sweep_figure, ua.as_sweep(table), by=score),
            where=more,
            key="mva.sweep",
            width="stretch",
        )
    if not failed.empty:
        st.warning(
            f"{len(failed)} run(s) failed and are left out: "
            + plain(
                "; ".join(
                    f"{n}: {e}" for n, e in zip(failed["name"], failed["error"], strict=True)
                )[:800]
            )
        )
    with lesson.more("Every run", key="mva.more.runs"):
        st.dataframe(
            table,
            hide_index=True,
            width="stretch",
            column_config={
                **widgets.msp_column_config(
                    lam, reg, columns={"msp": "msp", "msp_heldout": "msp_heldout"}
                ),
                "accuracy": st.column_config.NumberColumn("accuracy", format="%.3f"),
            },
        )
        d = st.columns(2)
        downloads.download_figure(fig, "msp-vs-accuracy", key="mva.download.fig", container=d[0])
        downloads.download_table(
            table,
            "msp-vs-accuracy.csv",
            key="mva.download.csv",
            help="One row per run: its name, in-sample MSP (msp), held-out MSP (msp_heldout), "
            "accuracy, size and time.",
            container=d[1],
        )

if not current.error:
    widgets.data_caption(current)
ua.record_url_value("fam", view)
ua.record_url_value("axis", score)
ua.record_url_value("method", key)
ua.sync_to_url({"fam": view, "method": key, "axis": score})
