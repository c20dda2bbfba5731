"""Reproduce page: the papers' tables and figures as we measured them, next to the papers'.

One experiment at a time (every registered one of :mod:`lab.experiments`, the
multi-class and kernel experiment beyond the papers included): first the live re-run on one
task, with its result right under the button, then the stored results as tidy tables and
figures with the lab's method colours and names. Widgets and layout only: the computation is in
:mod:`lab.experiments`, the tables and figures are prepared in :mod:`ui.reproduce`.
"""

from __future__ import annotations

import tempfile

import streamlit as st

from lab.experiments import (
    EXPERIMENTS,
    PUBLISHED_DIR,
    expand_tasks,
    method_available,
    run_experiment,
)
from lab.plots import display_label
from ui import alerts, lesson, presenter, reproduce, state

st.set_page_config(page_title="Reproduce · Discriminative Clustering Lab", layout="wide")
state.init()

lesson.header(
    "Reproduce the papers",
    "Every number the papers publish that the lab can check, recomputed beside the paper's.",
)
# The stored figures are wide (a table's methods along x): the one control takes less room.
box = lesson.layout(controls_share=0.24)
with st.expander("What this page shows"):
    st.markdown(
        "Every number the papers publish that we can check, recomputed by "
        "`python -m lab.experiments` and shown next to the paper's value, plus one "
        "experiment beyond the papers (multi-class and kernel MSPC). Re-run an experiment on "
        "one task to watch it being computed; the stored results of the last full run are below "
        "(`REPRODUCTION.md` says what we know about each gap)."
    )

names = list(EXPERIMENTS)
titles = {n: EXPERIMENTS[n].title for n in EXPERIMENTS}
name = box.controls.selectbox(
    "Experiment",
    names,
    format_func=lambda n: reproduce.short_title(titles[n]),
    key="repro.experiment",
)
box.controls.caption(titles[name])


def show_report(markdown: str, key: str) -> None:
    """Paragraphs as text, tables as tidy data frames (long ones folded)."""
    for kind, block in reproduce.blocks(markdown):
        if kind == "text":
            st.markdown(block)
        elif len(block) > reproduce.LONG_TABLE_ROWS:  # scrolls in a box of fixed height
            st.caption(f"Table: {len(block)} rows")
            st.dataframe(block, hide_index=True, width="stretch", height=400)
        elif reproduce.too_wide(block):
            # An HTML table wraps its cells and headers: nothing cut at 1280 px.
            st.table(block.set_index(block.columns[0]))
        else:
            st.dataframe(block, hide_index=True, width="stretch")


if state.widget_value("repro.cache") is None:
    state.set_widget("repro.cache", tempfile.mkdtemp(prefix="repro-"))

# ---- a registered experiment ---------------------------------------------------------------
experiment = EXPERIMENTS[name]
st.caption(
    f"Source: {experiment.paper}."
    if experiment.paper
    else "Not from the papers: an extension of this lab, measured here."
)

result = None
with alerts.guard("Could not read the stored result"):
    result = reproduce.stored(name)
stored_figures = reproduce.stored_figures(name) if result is not None else []
if stored_figures:
    lesson.chart(box, reproduce.lesson_figure(stored_figures[0]), key=f"repro.lesson.{name}")
    box.verdict(reproduce.summary(result.markdown))
elif result is None:
    box.figure.info(f"No stored result for {name} yet: run it on one task below.")

with st.expander("Run it yourself on one task"):
    tasks = expand_tasks(result.config.tasks if result is not None else experiment.tasks)
    methods = result.config.methods if result is not None else []
    if not methods:
        methods = [
            m.split("|")[0] for m in experiment.methods if method_available(m.split("|")[0]) is None
        ]
    col_task, col_methods = st.columns([1, 2])
    task = col_task.selectbox("Task", tasks, key=f"repro.task.{name}")
    chosen = col_methods.multiselect(
        "Methods", methods, default=methods, key=f"repro.methods.{name}", format_func=display_label
    )
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
        "Slow methods (IterSVR, the multivariate-loss MMC) take long on large tasks; "
        "finished cells are kept for this session, so running again is instant."
    )
    if st.button("Run", key=f"repro.run.{name}", type="primary", disabled=not chosen):
        bar = st.progress(0.0, text="Starting…")

        def progress(done: int, total: int, message: str) -> None:
            bar.progress(done / total if total else 1.0, text=f"{done}/{total} cells {message}")

        with alerts.guard("The run failed"):
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
        show_report(live.markdown, f"repro.live.{name}.table")
        for i, fig in enumerate(reproduce.styled_figures(name, live)):
            presenter.chart(fig, width="stretch", key=f"repro.live.{name}.fig{i}")

stored_box = st.expander("Stored results: every figure and table")
with stored_box:
    if result is None:
        st.info(
            f"No stored result for {name} yet. Run `python -m lab.experiments {name} "
            f"--out lab/experiments/published` to create it, or run it on one task above."
        )
    else:
        for i, fig in enumerate(reproduce.stored_figures(name)):
            presenter.chart(fig, width="stretch", key=f"repro.stored.{name}.fig{i}")
        show_report(result.markdown, f"repro.stored.{name}")
        st.download_button(
            "Download the table (CSV)",
            result.main.to_csv(index=False).encode(),
            file_name=f"{name}.csv",
            mime="text/csv",
            key=f"repro.download.{name}",
        )

state.sync_to_url()
