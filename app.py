"""Discriminative Clustering Lab — home page (``streamlit run app.py``).

Three demos first (their numbers and the captions those numbers decide, from
:mod:`ui.demos`), then the theory in five sentences. The pages themselves live in
``pages/`` (Streamlit's multipage convention).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import streamlit as st

from ui import demos as ui_demos
from ui import lesson, presenter, shared, state, widgets

ROOT = Path(__file__).resolve().parent
#: The tab icon, served by the app itself: a ``:material/...:`` page icon would make the
#: browser fetch the favicon from an external font server, and the lab runs offline.
FAVICON = str(ROOT / "assets" / "favicon.png")


#: Sidebar icons of the known pages (Material Symbols, rendered by Streamlit's own font).
ICONS = {
    "1_Data": ":material/table_chart:",
    "2_Cluster": ":material/scatter_plot:",
    "3_Feature_scaling": ":material/straighten:",
    "4_MSP_vs_accuracy": ":material/insights:",
    "5_Learn": ":material/school:",
    "6_Reproduce": ":material/description:",
    "7_Compare": ":material/grid_view:",
    "8_Lecture": ":material/co_present:",
}


#: The two MSP columns of the demos' tables: short names (the tables are a third of the page
#: wide), the full name and what each estimates in the tooltip.
MSP_COLUMNS = {"msp_heldout": "held-out", "msp": "in-sample"}
#: Width of a number column in the demos' tables (pixels): four columns fit a third of the
#: page at 1280 px.
DEMO_COLUMN_PX = 62


def _numbers(frame, columns: dict[str, str], height: int | str = "auto") -> None:
    """A demo's numbers, three decimals, with readable column names (the MSPs' with their
    tooltips)."""
    config = {
        c: st.column_config.NumberColumn(
            label,
            format="%.3f",
            width=DEMO_COLUMN_PX,
            help=widgets.msp_help(c) if c in MSP_COLUMNS else None,
        )
        if pd.api.types.is_numeric_dtype(frame[c])
        else st.column_config.TextColumn(label)
        for c, label in columns.items()
        if c in frame
    }
    st.dataframe(frame, hide_index=True, width="stretch", column_config=config, height=height)


def _afs_demo() -> None:
    st.markdown("#### The AFS trap")
    with st.spinner("Fitting the AFS trap…"):
        story = ui_demos.afs_story()
    table = ui_demos.afs_table(story)
    _numbers(
        table,
        {m: m.split(" (")[0] for m in table if m != "rescaling"},
    )
    st.caption(
        "Accuracy after multiplying the features as on the left. " + story.caption,
        help="Computed from the numbers above. MSPC here is MSPC (MPM) as the lab runs it "
        "(its default start and search), as Feature scaling opens it.",
    )
    # Pressed, it opens its page before Home is drawn again (home(), DEMO_BUTTONS).
    st.button(
        "Open on Feature scaling (noise ×10)", key="demo.afs", type="primary", width="stretch"
    )


def _breast_demo() -> None:
    st.markdown("#### Breast cancer")
    with st.spinner("Fitting the breast-cancer task…"):
        story = ui_demos.breast_story()
    _numbers(
        story.table[["method", "accuracy", "msp_heldout"]],
        {"accuracy": "accuracy", "msp_heldout": MSP_COLUMNS["msp_heldout"]},
    )
    st.caption(
        "Does the labeling with the higher held-out MSP have the higher accuracy? " + story.caption,
        help="Computed from the numbers above; neither MSP needs the true labels. The methods "
        "run as the Cluster page runs them (MSPC with its default start and search). "
        + widgets.msp_help("msp_heldout"),
    )
    st.button("Open on Cluster", key="demo.breast", type="primary", width="stretch")


#: The tasks demo's columns: the family (with its number of tasks), the lab's r and the
#: paper's.
TASKS_COLUMNS = ("family", "r_heldout", "paper_r")


def _tasks_demo() -> None:
    st.markdown("#### MSP and accuracy across tasks")
    with st.spinner("Clustering the paper's tasks…"):
        story = ui_demos.tasks_story()
    table = story.table.assign(family=ui_demos.family_labels(story.table))[list(TASKS_COLUMNS)]
    config = {
        "family": st.column_config.TextColumn("family (tasks)"),
        "r_heldout": st.column_config.NumberColumn(
            "r",
            format="%.2f",
            width=DEMO_COLUMN_PX,
            help="Pearson's r between MSPC's held-out MSP and its accuracy over the tasks.",
        ),
        "paper_r": st.column_config.NumberColumn(
            "paper",
            format="%.2f",
            width=DEMO_COLUMN_PX,
            help="The MSPC paper's r (Fig. 3): its in-sample MSP over 10 UCI and MNIST "
            "tasks, 21 Satellite pairs and 45 USPS pairs.",
        ),
    }
    st.dataframe(table, hide_index=True, width="stretch", column_config=config)
    st.caption(
        "MSPC on every task of the paper's three families. " + story.caption,
        help="Computed from every task's numbers (MSP vs accuracy shows each task). "
        + widgets.msp_help("msp_heldout"),
    )
    st.button("Open on MSP vs accuracy", key="demo.tasks", type="primary", width="stretch")


#: Each demo's button (its key) and what it opens: the whole class presses them together,
#: so a press opens the page at once, before Home would be drawn again for nothing.
DEMO_BUTTONS = {
    "demo.afs": ui_demos.open_afs_trap,
    "demo.breast": ui_demos.open_breast,
    "demo.tasks": ui_demos.open_tasks,
}

#: The demos, by the name a lecturer picks them by in presenter mode.
DEMOS = {"The AFS trap": _afs_demo, "Breast cancer": _breast_demo, "Across tasks": _tasks_demo}

#: The theory, after the demos: five sentences.
THEORY = (
    "**Discriminative clustering** judges a grouping of unlabelled data by how well a "
    "classifier trained on it would work: good clusters are ones a simple rule can tell "
    "apart. "
    "**MSPC** (Maximin Separation Probability Clustering) makes this precise with the "
    "**MSP**, the worst-case probability — over every distribution with the clusters' means "
    "and covariances — that the Minimax Probability Machine's hyperplane separates the two "
    "clusters. "
    "The MSP is a lower bound on the accuracy of that classifier, computed from the data "
    "alone, so it can compare labelings and choose parameters without true labels. "
    "Unlike the margin of k-means or maximum-margin clustering, it does not change when a "
    "feature is measured in other units (Theorem 1 of the paper). "
    "MSPC's own search (with Λ = diag) is immune to such **anisotropic feature scaling** only "
    "when it also starts from a labeling that ignores the units, such as k-means on "
    "standardised features."
)


def home() -> None:
    """The home page: the three demos first, then the theory in five sentences."""
    state.init()
    for key, open_page in DEMO_BUTTONS.items():
        if state.widget_value(key, False):  # pressed: its page, without drawing Home
            open_page()
    lam, regularizer = ui_demos.msp_scale()
    lesson.header(
        "Discriminative Clustering Lab",
        "Three demos, each computed live; every caption is decided by the numbers above it. "
        + widgets.msp_note(lam, regularizer, short=True),
    )
    if presenter.enabled():
        # A projector holds one demo at a time: the lecturer picks it.
        chosen = st.segmented_control(
            "Demo",
            list(DEMOS),
            key="home.demo",
            default=next(iter(DEMOS)),
            label_visibility="collapsed",
        )
        DEMOS[chosen or next(iter(DEMOS))]()
    else:
        cols = st.columns(3, gap="medium")
        for column, demo in zip(cols, DEMOS.values(), strict=True):
            with column:
                demo()

    st.subheader("The idea in five sentences")
    st.markdown(THEORY)

    st.subheader("Or explore")
    widgets.page_link(
        "pages/1_Data.py",
        label="Data — choose, upload or generate a data set",
        icon=":material/table_chart:",
    )
    widgets.page_link(
        "pages/2_Cluster.py",
        label="Cluster — run methods side by side",
        icon=":material/scatter_plot:",
    )
    for path, label, icon in (
        (
            "pages/3_Feature_scaling.py",
            "Feature scaling — rescale features, see who moves",
            ICONS["3_Feature_scaling"],
        ),
        (
            "pages/4_MSP_vs_accuracy.py",
            "MSP vs accuracy — MSP as model selection",
            ICONS["4_MSP_vs_accuracy"],
        ),
        ("pages/5_Learn.py", "Learn — the MPM, the MSP and the theorems, live", ICONS["5_Learn"]),
        (
            "pages/6_Reproduce.py",
            "Reproduce — the papers' tables and figures",
            ICONS["6_Reproduce"],
        ),
        (
            "pages/7_Compare.py",
            "Compare — every method on every data set, side by side",
            ICONS["7_Compare"],
        ),
    ):
        widgets.page_link(path, label=label, icon=icon)

    widgets.data_caption()
    st.caption(
        "Based on G. Huang, J. Zhang, S. Song, Z. Chen, *Maximin Separation Probability "
        "Clustering*, AAAI 2015, and the discriminative clustering methods it is compared with."
    )
    state.sync_to_url()


def page_title(path: Path) -> str:
    """``pages/4_MSP_vs_accuracy.py`` -> ``MSP vs accuracy`` (Streamlit's own rule)."""
    return path.stem.split("_", 1)[-1].replace("_", " ")


if __name__ == "__main__":
    # One student's clear-cache message does not empty the whole class's caches (ui.shared).
    shared.refuse_clear_cache()
    st.set_page_config(page_title="Discriminative Clustering Lab", page_icon=FAVICON, layout="wide")
    # Every numbered file in pages/ is a page, in file-name order; pages added later by
    # others appear without touching this file.
    pages = [st.Page(home, title="Home", icon=":material/home:", default=True)]
    pages += [
        st.Page(str(path.relative_to(ROOT)), title=page_title(path), icon=ICONS.get(path.stem))
        for path in sorted((ROOT / "pages").glob("[0-9]*_*.py"))
    ]
    page = st.navigation(pages)
    # Widgets drawn under one key on several pages keep the user's values across a hop.
    state.enter_page(page.url_path)
    # Presenter mode: the toggle, the large fonts, and the export of the figures
    # the page draws, filled in after the page has run.
    slides = presenter.sidebar()
    try:
        page.run()
        presenter.export_button(slides)
    finally:
        # Last, so it wins over a page's own icon: a page without one would otherwise show
        # its ``:material/...:`` sidebar icon in the tab, fetched from the font server.
        st.set_page_config(page_icon=FAVICON)
