"""MSP vs accuracy page: does a higher MSP mean a more accurate clustering?

A scatter of the held-out MSP (or, one click away, the paper's in-sample MSP) against
clustering accuracy over a family of runs — the λ grid on the current data, every pair task
of a multi-class source, or the seven UCI tasks of the MSPC paper — with both Pearson r and
the least-squares line (the paper's Figs. 2-3); and the MSP as unsupervised model
selection: the λ with the largest held-out MSP next to the λ with the best accuracy.
Widgets and layout only: runs go through :mod:`ui.analysis` (every fit cached), figures come
from :mod:`lab.plots`.
"""

from __future__ import annotations

import streamlit as st

import datasets
from clustering import ALGORITHMS
from lab import plots
from lab.experiments import protocols
from ui import alerts, downloads, presenter, shared, state, widgets
from ui import analysis as ua
from ui.text import finite, number, plain

st.set_page_config(page_title="MSP vs accuracy · Discriminative Clustering Lab", layout="wide")
state.init()

LAM_METHODS = [k for k, s in ALGORITHMS.items() if any(p.name == "lam" for p in s.params)]
FAMILIES = {
    "lam": "the λ grid on the current data",
    "pairs": "every pair of classes of a multi-class data set",
    "uci": "the seven UCI tasks of the MSPC paper",
}

st.title("MSP vs accuracy")
st.markdown(
    "The MSP scores a clustering without the true classes. If it is a good score, runs with a "
    "higher MSP should also be more accurate. Here each point is one clustering: its MSP "
    "(x) against its accuracy (y), with Pearson's correlation r. Two MSPs: the **in-sample** "
    "MSP (the paper's) fits the Minimax Probability Machine to the clusters and scores it on "
    "the same points; the **held-out** MSP fits it on half of each cluster and scores it on "
    "the other half, so a split that only fits the sample scores low. The r of both, over "
    "the runs computed here, is shown under the chart."
)
current = widgets.data_caption()
ds = current.dataset

# ---- controls -----------------------------------------------------------------------------
source_default = ua.pair_source_of(ds.name)
family_default = "pairs" if source_default else "lam"
family_url = ua.url_value(
    "fam",
    family_default if family_default == "lam" else f"pairs:{source_default}",
    ["lam", "uci", *(f"pairs:{s}" for s in datasets.PAIR_SOURCES)],
)
state.seed_widget("mva.family", family_url.split(":", 1)[0])
state.seed_widget(
    "mva.source",
    family_url.split(":", 1)[1] if family_url.startswith("pairs:") else source_default or "digits",
)

with st.sidebar:
    st.header("Settings")
    chosen = [k for k in state.get_algorithms() if k in LAM_METHODS]
    method_default = chosen[0] if chosen else ("mspc-mpm" if "mspc-mpm" in ALGORITHMS else None)
    if method_default is None:
        st.error("No registered method has a λ; this page needs one.")
        st.stop()
    url_method = ua.url_value("method", method_default, LAM_METHODS)
    state.seed_widget("mva.method", url_method)
    key = st.selectbox(
        "Method",
        LAM_METHODS,
        key="mva.method",
        format_func=lambda k: ALGORITHMS[k].name,
        help="The clustering method whose runs are scored. The paper uses MSPC (MPM). Only "
        "methods with a regulariser λ are listed, so that λ can be chosen by the held-out "
        "MSP.",
    )
    ua.set_url_value("method", key)
    if state.widget_value("mva.family") == "lam":
        # The λ-grid family tries every λ of the grid: no slider that it would ignore.
        lam = state.get_lam()
        st.caption(
            f"λ: the λ-grid family fits every λ from {protocols.DEFAULT_LAMS[0]:g} to "
            f"{protocols.DEFAULT_LAMS[-1]:g}; the λ slider is for the task families."
        )
    else:
        lam = widgets.lam_slider(
            "mva.lam",
            help="λ of every run in the task families. The MSP of each run is measured with "
            "the method's own λ, as in the paper.",
        )
    reg = widgets.regularizer_select("mva.regularizer")
    params = widgets.algorithm_params(key, widget_prefix="mva.param")

# The link's fam and method are read above, after the data caption: their warnings here.
widgets.link_warnings()
family = st.radio(
    "Family of runs",
    list(FAMILIES),
    key="mva.family",
    format_func=FAMILIES.get,
    horizontal=True,
    help="λ grid: the same data clustered with λ = "
    f"{protocols.DEFAULT_LAMS[0]:g} … {protocols.DEFAULT_LAMS[-1]:g}. Pairs: each pair of "
    "classes of a multi-class data set as its own two-cluster task. UCI: the seven binary "
    "tasks of the MSPC paper's Table 2.",
)
source = None
names: list[str] = []
if family == "pairs":
    source = st.selectbox(
        "Multi-class data set",
        list(datasets.PAIR_SOURCES),
        key="mva.source",
        format_func=lambda s: f"{s} ({len(datasets.pairs(s))} pairs)",
        help="Every pair of its classes becomes one task, one fit per pair: the more "
        "classes, the longer the run.",
    )
    names = datasets.pairs(source)
    ua.set_url_value("fam", f"pairs:{source}")
elif family == "uci":
    names = list(datasets.UCI_TASKS)
    ua.set_url_value("fam", "uci")
else:
    ua.set_url_value("fam", "lam")

lams = list(protocols.DEFAULT_LAMS)
fit_params = {**params, "regularizer": reg}
if family == "lam":
    st.caption(
        f"{len(lams)} runs of {ALGORITHMS[key].name} on **{plain(ds.name)}**, "
        f"λ = {lams[0]:g} … {lams[-1]:g}. Both MSPs of every labeling are measured with the "
        f"same λ = {protocols.SWEEP_MSP_LAM:g}, so the labelings are compared on one scale."
    )
else:
    st.caption(
        f"{len(names)} tasks, each clustered by {ALGORITHMS[key].name} with λ = {lam:g}; "
        "features scaled to [-1, 1] as in the paper. Finished runs are cached."
    )

signature = (family, source, key, tuple(sorted(fit_params.items())), lam, current.fingerprint)
# A first visit shows the λ grid on the current data when it is predicted to be quick
# (every run is cached, so coming back costs nothing); other families wait for the button.
first = state.widget_value("mva.result") is None
cheap = family == "lam" and ua.sweep_is_cheap(key, ds.n_samples, ds.n_features, len(lams))
pressed = st.button("Compute the family", type="primary", key="mva.run")
asked = bool(state.widget_value(ua.RUN_ONCE, False))  # a Home demo's button
state.set_widget(ua.RUN_ONCE, False)
if pressed or asked or (first and cheap):
    with alerts.guard("The runs could not be computed"):
        if family == "lam":
            sweep = ua.run_with_progress(
                protocols.lam_sweep,
                ds.X,
                ds.y,
                key,
                lams,
                {k: v for k, v in fit_params.items() if k != "lam"},
                text="Sweeping λ…",
            )
            table = sweep.table.assign(name=[f"λ = {v:g}" for v in sweep.table["lam"]])
            state.set_widget("mva.result", {"signature": signature, "table": table, "sweep": sweep})
        else:
            with st.spinner("Loading the tasks…"):
                tasks = ua.family_tasks(names)
            table = ua.run_with_progress(
                protocols.msp_accuracy_family,
                tasks,
                key,
                {**fit_params, "lam": lam},
                text="Clustering every task…",
            )
            state.set_widget("mva.result", {"signature": signature, "table": table, "sweep": None})

stored = state.widget_value("mva.result")
if stored is None or stored["signature"][:3] != signature[:3]:
    st.info("Press **Compute the family** to run it (runs already computed come back at once).")
else:
    if stored["signature"] != signature:
        st.warning("The settings changed since these runs — press the button again.")
    table = stored["table"]
    sweep = stored["sweep"]
    failed = table[table["error"] != ""]
    if not failed.empty:
        st.warning(
            f"{len(failed)} run(s) failed and are left out: "
            + plain(
                "; ".join(
                    f"{n}: {e}" for n, e in zip(failed["name"], failed["error"], strict=True)
                )[:800]
            )
        )
    if table["accuracy"].isna().all():
        st.info("These data have no class labels, so only the MSP is shown.")
    score = st.radio(
        "MSP on the x axis",
        list(protocols.SCORES),
        key="mva.score",
        format_func=protocols.SCORES.get,
        horizontal=True,
        help="**held-out MSP**: the Minimax Probability Machine is fitted on half of each "
        "cluster and its worst-case separation bound is evaluated on the other half (both "
        "ways, three random splits): it estimates how well a classifier learnt from the "
        "clusters separates points it has not seen. **in-sample MSP** (the MSPC paper's): "
        "fitted and evaluated on the same points; with many features and few points it is "
        "near 1 even for splits unrelated to any structure.",
    )
    label = protocols.SCORES[score]
    choice = None if sweep is None else protocols.lam_choice(sweep.table, score)
    highlight = []
    if choice is not None and finite(choice.lam):
        highlight = [f"λ = {choice.lam:g}"]
    fig = shared.figure(
        plots.msp_accuracy_figure,
        table,
        x=score,
        x_label=label,
        title=f"{ALGORITHMS[key].name}: {label} against accuracy",
        highlight=highlight,
    )
    presenter.chart(fig, key="mva.scatter", width="stretch")
    rs = ua.family_correlations(table)
    slope, _intercept = protocols.fit_line(table[score], table["accuracy"])
    m = st.columns(4)
    for i, (column, name) in enumerate(protocols.SCORES.items()):
        r = rs[column]
        m[i].metric(
            f"Pearson r, {name}",
            number(r, ".2f"),
            help="Linear correlation between this MSP and accuracy over the points: 1 means "
            "a higher MSP always comes with a proportionally higher accuracy, 0 means no "
            "linear relation, below 0 that a higher MSP comes with a lower accuracy.",
        )
    m[2].metric(
        "slope",
        number(slope, ".2f"),
        help=f"Accuracy gained per unit of {label} along the least-squares line (drawn only "
        "where it stays between 0 % and 100 % accuracy).",
    )
    m[3].metric("points", int(table[score].notna().sum()))
    st.caption(ua.family_note(table), help="Computed from the runs above.")
    with st.expander("Every run"):
        msp_lam = protocols.SWEEP_MSP_LAM if family == "lam" else lam
        st.dataframe(
            table,
            hide_index=True,
            width="stretch",
            column_config=widgets.msp_column_config(
                msp_lam, reg, columns={"msp": "msp", "msp_heldout": "msp_heldout"}
            ),
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

    if choice is not None:
        st.subheader("Choosing λ without labels")
        st.markdown(
            f"The MSP needs no true classes, so it can pick λ: keep the λ whose clustering has "
            f"the largest {label} (switch the MSP above to compare). How close does that "
            "come to the λ an oracle with the true classes would pick?"
        )
        presenter.chart(
            shared.figure(plots.lam_sweep_figure, sweep, by=score), key="mva.sweep", width="stretch"
        )
        c = st.columns(4)
        c[0].metric(
            f"λ by the {label}",
            number(choice.lam, "g"),
            help=f"The λ whose clustering has the largest {label} (no labels used).",
        )
        c[1].metric(
            "its accuracy",
            number(choice.accuracy),
        )
        c[2].metric(
            "λ with the best accuracy",
            number(choice.best_accuracy_lam, "g"),
            help="What an oracle that knows the true classes would pick.",
        )
        c[3].metric(
            "best accuracy",
            number(choice.best_accuracy),
            delta=None
            if not (finite(choice.best_accuracy) and finite(choice.accuracy))
            else f"{choice.accuracy - choice.best_accuracy:+.3f} for the chosen λ",
            delta_color="normal",
        )

ua.sync_to_url({"fam": ua.url_value("fam", "lam"), "method": ua.url_value("method", key)})
