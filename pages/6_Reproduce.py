"""Reproduce page: the papers' tables and figures as we measured them, next to the papers'.

Shows the stored results of every experiment in :mod:`clustering.experiments` (tables,
gaps, plotly figures) and re-runs one experiment live on one task behind a button, with a
progress bar. Widgets and layout only: the computation is in :mod:`clustering.experiments`.
"""

from __future__ import annotations

import tempfile

import streamlit as st

from clustering.experiments import (
    EXPERIMENTS,
    PUBLISHED_DIR,
    expand_tasks,
    load_stored,
    method_available,
    run_experiment,
)
from ui import state, widgets

st.set_page_config(
    page_title="Reproduce · Discriminative Clustering Lab", page_icon="📑", layout="wide"
)
state.init()

st.title("Reproduce the papers")
st.markdown(
    "Every number the papers publish that we can check, recomputed by "
    "`python -m clustering.experiments` and shown next to the paper's value. The stored "
    "results below come from the last full run (see `REPRODUCTION.md` for what we know about "
    "each gap); re-run any experiment on one task to watch it being computed."
)


@st.cache_data(show_spinner=False)
def stored(name: str):
    return load_stored(name, PUBLISHED_DIR)


@st.cache_data(show_spinner=False)
def stored_figures(name: str):
    result = load_stored(name, PUBLISHED_DIR)
    return [] if result is None else EXPERIMENTS[name].figures(result)


names = list(EXPERIMENTS)
name = st.selectbox(
    "Experiment",
    names,
    format_func=lambda n: EXPERIMENTS[n].title,
    key="repro.experiment",
)
experiment = EXPERIMENTS[name]
st.caption(f"Source: `{experiment.paper}`")

result = None
with widgets.guard("Could not read the stored result"):
    result = stored(name)

if result is None:
    st.info(
        f"No stored result for {name} yet. Run `python -m clustering.experiments {name} "
        f"--out clustering/experiments/published` to create it, or run it on one task below."
    )
else:
    st.markdown(result.markdown)
    for fig in stored_figures(name):
        st.plotly_chart(fig, width="stretch")
    st.download_button(
        "Download the table (CSV)",
        result.main.to_csv(index=False).encode(),
        file_name=f"{name}.csv",
        mime="text/csv",
        key=f"repro.download.{name}",
    )

# ---- live re-run on one task ------------------------------------------------------------
st.subheader("Run it yourself on one task")
tasks = expand_tasks(result.config.tasks if result is not None else experiment.tasks)
methods = result.config.methods if result is not None else []
if not methods:
    methods = [
        m.split("|")[0] for m in experiment.methods if method_available(m.split("|")[0]) is None
    ]
col_task, col_methods = st.columns([1, 2])
task = col_task.selectbox("Task", tasks, key=f"repro.task.{name}")
chosen = col_methods.multiselect("Methods", methods, default=methods, key=f"repro.methods.{name}")
options = {}
used = result.config.options if result is not None else experiment.options
for option in ("repeats", "runs"):
    if option in experiment.options:
        options[option] = st.number_input(
            f"{option} (the stored run used {used.get(option, experiment.options[option])})",
            min_value=1,
            max_value=50,
            value=min(3, int(experiment.options[option])),
            key=f"repro.{option}.{name}",
        )
st.caption(
    "Slow methods (IterSVR, the multivariate-loss MMC) can take minutes per task; finished "
    "cells are kept for this session, so running again is instant."
)

if state.widget_value("repro.cache") is None:
    state.set_widget("repro.cache", tempfile.mkdtemp(prefix="repro-"))

if st.button("Run", key=f"repro.run.{name}", type="primary", disabled=not chosen):
    bar = st.progress(0.0, text="Starting…")

    def progress(done: int, total: int, message: str) -> None:
        bar.progress(done / total if total else 1.0, text=f"{done}/{total} cells {message}")

    with widgets.guard("The run failed"):
        live = run_experiment(
            name,
            PUBLISHED_DIR,  # read-only here (write=False): table3 reads table2's choices
            methods=chosen,
            tasks=[task],
            options=options,
            cache_dir=f"{state.widget_value('repro.cache')}/{name}",
            progress=progress,
            write=False,
        )
        state.set_widget(f"repro.live.{name}", live)
    bar.empty()

live = state.widget_value(f"repro.live.{name}")
if live is not None:
    st.markdown(f"**Live result** ({', '.join(live.config.tasks)})")
    st.markdown(live.markdown)
    for fig in EXPERIMENTS[name].figures(live):
        st.plotly_chart(fig, width="stretch")
