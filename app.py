"""Discriminative Clustering Lab — home page (``streamlit run app.py``).

What discriminative clustering and the MSP are, and three one-click demos that set up the
other pages. The pages themselves live in ``pages/`` (Streamlit's multipage convention).
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from ui import presenter, state, widgets

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
}


def _page(path: str, fallback: str = "pages/2_Cluster.py") -> str:
    """``path`` if that page exists, else ``fallback`` (pages are added as they land)."""
    return path if (ROOT / path).exists() else fallback


def _demo_afs_trap() -> None:
    state.set_data_choice(
        state.DataChoice.make("synthetic", "afs_trap", {}, normalize=False), chosen=True
    )
    state.set_algorithms(["kmeans", "mspc-mpm"])
    state.set_lam(0.01)
    state.set_regularizer("diag")
    state.set_algorithm_params("mspc-mpm", {"init": "kmeans-standardized"})
    state.set_view("features:0,1")
    st.switch_page(_page("pages/3_Feature_scaling.py"))


def _demo_breast() -> None:
    state.set_data_choice(state.DataChoice.make("bundled", "breast", None, True), chosen=True)
    state.set_algorithms(["kmeans", "mspc-mpm", "mspc-eig"])
    state.set_lam(0.01)
    state.set_regularizer("diag")
    state.set_algorithm_params("mspc-mpm", {"init": "kmeans"})
    state.set_view("discriminant")
    state.set_widget("cluster.autorun", True)
    st.switch_page("pages/2_Cluster.py")


def _demo_digits() -> None:
    state.set_data_choice(state.DataChoice.make("bundled", "digits:3v8", None, True), chosen=True)
    state.set_algorithms(["mspc-mpm"])
    state.set_regularizer("diag")
    st.switch_page(_page("pages/4_MSP_vs_accuracy.py"))


def home() -> None:
    """The home page."""
    state.init()
    st.title("Discriminative Clustering Lab")
    st.markdown(
        """
    **Discriminative clustering** judges a grouping of unlabelled data by how well a classifier
    trained on it would work: good clusters are ones a simple rule can tell apart. **MSPC**
    (Maximin Separation Probability Clustering) makes this precise with the **MSP**, the
    worst-case probability — over every distribution with the clusters' means and covariances —
    that the Minimax Probability Machine's hyperplane separates the two clusters. The MSP is a
    lower bound on the accuracy of that classifier, computed from the data alone, so it can
    compare labelings and choose parameters without any true labels. Unlike the margin of
    k-means or maximum-margin clustering, it does not change when a feature is measured in other
    units (Theorem 1 of the paper), so MSPC is not fooled by **anisotropic feature scaling**.
    """
    )

    st.subheader("Start with a demo")
    cols = st.columns(3)
    with cols[0]:
        st.markdown("#### The AFS trap")
        st.caption(
            "One uninformative feature with a huge scale: k-means splits along it, MSPC along "
            "the feature that carries the clusters. Rescale features yourself and watch who moves."
        )
        if st.button("Open the AFS trap", key="demo.afs", type="primary", width="stretch"):
            _demo_afs_trap()
    with cols[1]:
        st.markdown("#### Breast cancer: MSP tells a good labeling from a bad one")
        st.caption(
            "Three methods on the Wisconsin breast-cancer task. Without looking at the diagnoses, "
            "the labeling with the higher MSP is the more accurate one."
        )
        if st.button(
            "Open the breast-cancer demo", key="demo.breast", type="primary", width="stretch"
        ):
            _demo_breast()
    with cols[2]:
        st.markdown("#### Digits pairs: MSP vs accuracy")
        st.caption(
            "Handwritten digit pairs such as 3 vs 8: across runs, does a higher MSP come with a "
            "higher clustering accuracy? A scatter with Pearson's r answers it."
        )
        if st.button("Open the digits demo", key="demo.digits", type="primary", width="stretch"):
            _demo_digits()

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
        if (ROOT / path).exists():
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
    st.set_page_config(page_title="Discriminative Clustering Lab", page_icon=FAVICON, layout="wide")
    # Every numbered file in pages/ is a page, in file-name order; pages added later by
    # others appear without touching this file.
    pages = [st.Page(home, title="Home", icon=":material/home:", default=True)]
    pages += [
        st.Page(str(path.relative_to(ROOT)), title=page_title(path), icon=ICONS.get(path.stem))
        for path in sorted((ROOT / "pages").glob("[0-9]*_*.py"))
    ]
    page = st.navigation(pages)
    # Presenter mode (issue 13): the toggle, the large fonts, and the export of the figures
    # the page draws, filled in after the page has run.
    slides = presenter.sidebar()
    try:
        page.run()
        presenter.export_button(slides)
    finally:
        # Last, so it wins over a page's own icon: a page without one would otherwise show
        # its ``:material/...:`` sidebar icon in the tab, fetched from the font server.
        st.set_page_config(page_icon=FAVICON)
