"""Compare page: the chosen methods on several data sets at once, as small multiples.

Rows are data sets (the AFS trap before and after one change of units, two elongated
Gaussians, two moons, a bundled task and the current data), columns the chosen methods. In
the spirit of scikit-learn's "comparing clustering algorithms" figure. Widgets and layout only:
the fits are :func:`lab.compare.compare_grid` (parallel), cached in :mod:`ui.compare`;
the figure is :func:`lab.plots.compare_figure`.
"""

from __future__ import annotations

import streamlit as st

import datasets
from lab import plots
from ui import alerts, compare, lesson, presenter, state, widgets
from ui.text import plain

st.set_page_config(page_title="Compare · Discriminative Clustering Lab", layout="wide")
state.init()

with lesson.header(
    "Compare", "The chosen methods on several data sets: who changes its answer with the data?"
):
    current = widgets.data_caption()

with st.sidebar:
    keys, k, lam, reg = widgets.method_settings(current)
    tasks = datasets.list_datasets("tasks")
    # The current data are the last row: the bundled row starts on another task (breast,
    # or ionosphere when the current data are breast), so the grid shows no task twice.
    others = [
        t for t in ("breast", "ionosphere", *tasks) if t in tasks and t != current.dataset.name
    ]
    state.seed_widget("compare.bundled", others[0] if others else tasks[0])
    bundled = st.selectbox(
        "Bundled task (row 5)",
        tasks,
        key="compare.bundled",
        help="The real data set of the grid, scaled to [-1, 1] as in the papers.",
    )
    with_current = st.toggle(
        "Add the current data as the last row",
        value=True,
        key="compare.current",
        help="The data set chosen on the Data page (its first two principal components are "
        "shown when it has more than two features).",
    )

box = lesson.layout()
with st.expander("How to read the grid"):
    st.markdown(
        "Each row is one data set, each column one method. Within a row every panel shows "
        "the same points on the same axes (the two features, or the first two principal "
        "components), so only the clustering changes: colour is the cluster, a dark ring "
        "marks a point whose cluster does not match its class. The corner gives the "
        "accuracy, the in-sample MSP ('MSP': the MPM fitted and scored on the same points), "
        "the held-out MSP ('held-out': fitted on half of each cluster, scored on the other "
        "half, so a split that only fits the sample scores low; neither needs labels) and "
        "the fit time. The two AFS-trap rows "
        "differ only in the units of the noise feature (x10): a method that changes its "
        "answer between them depends on units."
    )

if not keys:
    box.figure.info("Choose at least one method in the sidebar.")
else:
    params = {key: state.get_algorithm_params(key) for key in keys}
    st.caption(widgets.msp_note(lam, reg))
    with alerts.guard("The comparison failed"), st.spinner("Fitting every panel…"):
        rows, cells = compare.grid(
            keys,
            params,
            current if with_current else None,
            bundled,
            msp=(lam, reg),
            n_clusters=k,
        )
        names = [str(r[0]) for r in rows]
        with box.controls:
            state.keep_widget_in("compare.row", list(range(len(rows))), 0)
            shown = st.radio(
                "Data set", list(range(len(rows))), key="compare.row", format_func=names.__getitem__
            )
        first = compare.column_groups(len(keys))[0]
        lesson.chart(
            box,
            plots.compare_figure(
                [rows[shown]],
                [keys[j] for j in first],
                [[cells[shown][j] for j in first]],
                font_size=12,
                panel_height=lesson.figure_height() - 90,
            ),
            key="compare.lesson",
        )
        box.verdict(compare.row_verdict(names[shown], cells[shown]))
        grid = st.expander("Every data set: the full grid")
        big = presenter.enabled()
        # At most four methods a figure: nine columns in one would leave panels too narrow
        # for their titles and corners at 1280 px. In presenter mode the panels are taller
        # and presenter.chart makes the text 1.5 times larger (the figure keeps 12 px).
        for part, columns in enumerate(compare.column_groups(len(keys))):
            fig = plots.compare_figure(
                rows,
                [keys[j] for j in columns],
                [[row[j] for j in columns] for row in cells],
                font_size=12,
                panel_height=260 if big else 210,
            )
            presenter.chart(fig, key=f"compare.grid.{part}", width="stretch", where=grid)
        skipped = [c for row in cells for c in row if c.status == "skipped"]
        failed = [c for row in cells for c in row if c.status == "error"]
        if skipped:
            st.caption(
                f"{len(skipped)} panel(s) not run ("
                + "; ".join(
                    f"{plots.method_name(c.key)} on {plain(c.row)}: {plain(c.message)}"
                    for c in skipped[:6]
                )
                + ("; …" if len(skipped) > 6 else "")
                + f"). A run predicted above the {compare.AUTO_RUN_SECONDS:.0f} s auto-run "
                "limit, alone or with the panels before it, can be run on the Cluster page."
            )
        kernels = [c for row in cells for c in row if c.extra.get("kernel")]
        if kernels:
            st.caption(
                "Kernel MSPC's width and rank, per row: "
                + "; ".join(f"{plain(c.row)}: {plain(c.extra['kernel'])}" for c in kernels)
            )
        for c in failed:
            st.warning(
                f"{plots.method_name(c.key)} on {plain(c.row)}: {plain(c.message)}",
                icon=":material/warning:",
            )
        st.caption(
            "Panels are fitted in parallel (two processes) and kept for the session: coming "
            "back to this page is instant."
        )

state.sync_to_url()
