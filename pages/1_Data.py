"""Data page: choose a bundled task or pair task, upload a CSV file, or generate data.

Leads with a lesson (:mod:`ui.lesson`): the data's controls beside a figure of each
feature's spread in its own units, and the verdict under it (the ratio of the largest to the
smallest spread, what it weighs for k-means); the data set's numbers, preview, statistics
and classes are folded below.

The choice persists across pages (and in the URL, except uploads). Widgets and layout only;
loading goes through :mod:`ui.cache`.
"""

from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

import datasets
from datasets.export import safe_frame
from datasets.synthetic import GENERATORS
from lab import plots
from lab.plots import TEMPLATE, cluster_colors, relayout
from ui import alerts, cache, lesson, presenter, state, uploads, widgets
from ui.text import plain, plain_lines

st.set_page_config(
    page_title="Data · Discriminative Clustering Lab",
    layout="wide",
)
state.init()

SOURCES = {
    "bundled": "Bundled task",
    "pair": "Pair task",
    "multiclass": "Multi-class data set",
    "upload": "Upload a CSV file",
    "synthetic": "Synthetic generator",
}
NONE = "__none__"

head = lesson.header(
    "Data",
    "Pick the data every page works on: how far does each feature spread, in its own units? "
    "The choice stays when you change page and is part of the link (except uploaded files).",
)

choice = state.get_data_choice()


def _seed(key: str, value) -> None:
    state.seed_widget(key, value)


# ---- seed the widgets from the current choice (first visit, or coming back) --------------
MULTICLASS = datasets.list_datasets("multiclass")
if choice.kind == "bundled" and choice.name in MULTICLASS:
    _seed("data.source", "multiclass")
    _seed("data.multiclass", choice.name)
elif choice.kind == "bundled" and ":" in choice.name:
    _seed("data.source", "pair")
    _seed("data.pair_source", choice.name.split(":", 1)[0])
    _seed("data.pair", choice.name)
else:
    _seed("data.source", choice.kind)
if choice.kind == "bundled" and ":" not in choice.name:
    _seed("data.task", choice.name)
if choice.kind == "synthetic":
    _seed("data.generator", choice.name)
    chosen_params = choice.param_dict
    for p in GENERATORS[choice.name].params:
        _seed(f"gen.{choice.name}.{p.name}", chosen_params.get(p.name, p.default))
if choice.kind == "upload":
    _seed("data.label_column", choice.param_dict.get("label_column", NONE))
    _seed("data.missing", choice.param_dict.get("missing", "drop"))
_seed("data.normalize", choice.normalize)


def _upload_section(choice):
    """The uploader, the label column and missing-value choices of an upload; the choice
    it makes (``None`` until the file can be used). A function, so that no page variable
    keeps the file's bytes once the run is over (the server store holds them, see
    ui.uploads)."""
    file = st.file_uploader(
        "CSV file",
        type=["csv", "txt", "tsv"],
        key="data.upload",
        help="A table with a header row and one row per sample. Numeric columns become "
        "features; a column called label, class, y or target (or the one you pick below) "
        "holds the classes, if you have them. Missing values: see below. " + uploads.limits_text(),
    )
    # A new file (the uploader's id) is checked, hashed and stored once, not on every rerun.
    if file is not None and state.get_upload_file_id() != file.file_id:
        state.set_upload(file.name, file.getvalue(), file_id=file.file_id)
    refusal = state.get_upload_refusal()
    if refusal:  # the reader's limits and checks, before any parsing: its message
        alerts.error_box(refusal, title=f"The file '{state.get_upload_name()}' cannot be used")
        st.caption("The file was not kept. Fix it as the message says and upload it again.")
        return None
    upload = state.get_upload()
    if upload is None:
        if state.get_upload_name():
            st.info(
                f"The file '{plain(state.get_upload_name())}' is no longer on the server "
                "(uploads are kept for an hour after the last browser using them has closed, "
                "while there is room). Upload it again to use it."
            )
        else:
            st.info("Upload a file to use it; the lab keeps the current data until then.")
        return None
    if file is None:
        st.caption(
            f"Using **{plain(upload['name'])}**, uploaded earlier in this browser session "
            "(kept across a reload). Upload another file to replace it."
        )
    # Columns and label guess read with read_csv's limits and decoding.
    preview, refused = uploads.preview(upload["digest"], upload["content"])
    header = list(preview.columns) if preview is not None else []
    guess = preview.label_guess if preview is not None else None
    guessed = guess.column if guess is not None and guess.column in header else NONE
    label_options = [NONE, *header]
    # A new file starts from the guess; coming back keeps the user's own choice.
    file_key = f"{upload['name']}:{upload['digest']}"
    if state.widget_value("data.label_file") != file_key:
        state.set_widget("data.label_file", file_key)
        if choice.kind != "upload" or choice.name != upload["name"]:
            state.set_widget("data.label_column", guessed)
    _seed("data.label_column", guessed)
    state.keep_widget_in("data.label_column", label_options, guessed)
    label_column = st.selectbox(
        "Label column",
        label_options,
        key="data.label_column",
        format_func=_label_option,
        help="Which column holds the true classes. They are used only to score the "
        "clusterings (accuracy, NMI, ...), never to find them.",
    )
    if guess is not None:
        if label_column == guess.column:
            st.info(plain(guess.note), icon=":material/label:")
        elif guess.column is None:
            st.caption(plain(guess.note))
        others = [c for c in (*guess.candidates, NONE) if c != label_column][:4]
        if others:
            st.caption("Use another label column with one click:")
            for col, option in zip(st.columns(len(others)), others, strict=True):
                col.button(
                    "no label" if option == NONE else plain(option),
                    key=f"data.label_pick.{option}",
                    on_click=state.set_widget,
                    args=("data.label_column", option),
                    width="stretch",
                )
    _seed("data.missing", "drop")
    missing = st.radio(
        "Missing values",
        ["drop", "mean"],
        key="data.missing",
        horizontal=True,
        format_func={"drop": "drop those rows", "mean": "fill with column mean"}.get,
        help="Empty cells, NA or '?' in a feature: remove the row, or replace the "
        "value by the mean of its column.",
    )
    candidate = state.DataChoice.make(
        "upload",
        upload["name"],
        {"label_column": label_column, "missing": missing},
        True,
    )
    message = refused
    if not message:
        try:
            cache.load_choice(candidate, upload)
        except datasets.DatasetError as err:
            message = str(err)  # the message only: the error's frames hold the bytes
    if message:
        state.forget_refused_upload()
        alerts.error_box(message, title=f"The file '{upload['name']}' cannot be used")
    st.caption(state.upload_link_note(upload_kind=True))
    return None if message else candidate


def _label_option(column: str) -> str:
    return "none — the data are unlabelled" if column == NONE else column


# The lesson first: the data's controls beside the figure of each feature's spread, the
# verdict under it; the data set's numbers, preview, statistics and classes folded below.
box = lesson.layout()

with box.controls:
    source = st.radio(
        "Where the data come from",
        list(SOURCES),
        key="data.source",
        format_func=SOURCES.get,
        help="Bundled tasks are the papers' data sets (no download needed). Pair tasks take "
        "two classes of a multi-class data set, as the papers do with digits and letters. "
        "Upload your own table as CSV, or generate data whose structure you control.",
    )
    new_choice = None
    if source == "bundled":
        tasks = datasets.list_datasets("tasks")
        _seed("data.task", datasets.DEFAULT_DATASET)
        state.keep_widget_in("data.task", tasks, datasets.DEFAULT_DATASET)
        name = st.selectbox(
            "Task",
            tasks,
            key="data.task",
            format_func=lambda t: f"{t}  (MSPC paper, Table 2)" if t in datasets.UCI_TASKS else t,
            help="Two-class tasks. The seven marked 'MSPC paper' are the ones of its Table 2.",
        )
        new_choice = state.DataChoice.make("bundled", name, None, True)
    elif source == "pair":
        _seed("data.pair_source", "digits")
        src = st.selectbox(
            "Source",
            list(datasets.PAIR_SOURCES),
            key="data.pair_source",
            help="A multi-class data set; a pair task keeps two of its classes.",
        )
        options = datasets.pairs(src)
        default_pair = next((p for p in datasets.MMC_DIGITS_PAIRS if p in options), options[0])
        state.keep_widget_in("data.pair", options, default_pair)
        name = st.selectbox(
            "Pair of classes",
            options,
            key="data.pair",
            format_func=lambda p: f"{p}  (MMC paper)" if p in datasets.MMC_DIGITS_PAIRS else p,
            help="The first class is coded 0, the second 1. The digits pairs marked 'MMC "
            "paper' are the hard pairs of the multivariate-loss MMC paper.",
        )
        new_choice = state.DataChoice.make("bundled", name, None, True)
    elif source == "multiclass":
        _seed("data.multiclass", MULTICLASS[0])
        name = st.selectbox(
            "Data set",
            MULTICLASS,
            key="data.multiclass",
            help="Data sets with more than two classes (every class of the source). Methods "
            "that are binary by nature say so on the Cluster page; set the number of clusters "
            "there. wine-raw keeps the original units (proline dwarfs the other features): "
            "the multi-class AFS lesson.",
        )
        new_choice = state.DataChoice.make("bundled", name, None, True)
    elif source == "upload":
        new_choice = _upload_section(choice)
    else:
        keys = list(GENERATORS)
        _seed("data.generator", "afs_trap" if "afs_trap" in keys else keys[0])
        gen = st.selectbox(
            "Generator",
            keys,
            key="data.generator",
            format_func=lambda k: GENERATORS[k].name,
            help="Data whose structure you control. "
            + " ".join(f"**{g.name}**: {g.summary}" for g in GENERATORS.values()),
        )
        spec = GENERATORS[gen]
        st.caption(spec.summary + (f" ({spec.paper})" if spec.paper else ""))
        params = {}
        for p in spec.params:
            start = state.GENERATOR_START.get(gen, {}).get(p.name)
            params[p.name] = widgets.param_widget(p, f"gen.{gen}.{p.name}", start)
        params = {k: v for k, v in params.items() if v != spec.defaults()[k]}
        new_choice = state.DataChoice.make("synthetic", gen, params, True)

    # A newly picked data set starts with its own default: raw units for the AFS trap,
    # whose lesson is in its units; [-1, 1] for the rest (the papers' preprocessing).
    _seed("data.normalize_for", (choice.kind, choice.name))
    if new_choice is not None:
        picked = (new_choice.kind, new_choice.name)
        if state.widget_value("data.normalize_for") != picked:
            state.set_widget("data.normalize", state.default_normalize(*picked))
            state.set_widget("data.normalize_for", picked)
    normalize = st.toggle(
        "Scale every feature to [-1, 1]",
        key="data.normalize",
        help="The MSPC paper's preprocessing: each feature is mapped linearly onto [-1, 1] "
        "(constant features are dropped). Turn it off to keep the original units — needed "
        "to see the AFS trap, where one feature's scale decides what k-means finds.",
    )
    if new_choice is not None:
        new_choice = state.DataChoice(
            new_choice.kind, new_choice.name, new_choice.params, bool(normalize)
        )
        if new_choice != choice:
            with alerts.guard(title="This data set cannot be used"):
                if new_choice.kind == "upload":
                    cache.load_choice(new_choice, state.get_upload())
                else:
                    cache.load_choice(new_choice)
                state.set_data_choice(new_choice, chosen=True)
                choice = new_choice

    widgets.page_link(
        "pages/2_Cluster.py", label="Cluster these data", icon=":material/scatter_plot:"
    )

with head:
    current = widgets.data_caption(link=False)
ds = current.dataset
statistics = ds.feature_statistics()
spreads = plots.shown_spreads(statistics["feature"], statistics["std"])
lesson.chart(box, plots.feature_spread_figure(spreads), key="data.spread")
box.verdict(plain(plots.spread_sentence(spreads)))

with lesson.more("The data set: its size, preview, feature statistics and classes"):
    cols = st.columns(4)
    cols[0].metric("Samples", f"{ds.n_samples:,}")
    cols[1].metric("Features", ds.n_features)
    cols[2].metric("Classes", ds.n_classes if ds.y is not None else "none")
    cols[3].metric("Scaled to [-1, 1]", "yes" if current.choice.normalize else "no")
    for note in ds.notes:
        st.info(plain(note), icon=":material/info:")
    with st.expander("About this data set", expanded=False):
        st.markdown(plain_lines(ds.description) or "No description.")
    preview, stats, classes = st.tabs(["Preview", "Feature statistics", "Class counts"])
    frame = ds.to_frame()
    with preview:
        # The table's own download exports the cells as shown: formula-like text is escaped.
        # A spreadsheet of the raw data: it scrolls sideways when the features do not fit.
        with st.container(key="data-preview"):
            st.dataframe(safe_frame(frame.head(500)), height=320, width="stretch")
        if ds.n_samples > 500:
            st.caption(f"The first 500 of {ds.n_samples:,} rows.")
    with stats:
        st.dataframe(safe_frame(statistics), hide_index=True, width="stretch", height=320)
        st.caption(
            "std: the spread of each feature. Very different spreads are what anisotropic "
            "feature scaling creates; k-means is sensitive to them, MSPC is not."
        )
    with classes:
        if ds.y is None:
            st.info(
                "These data have no class labels: the pages show the MSP (which needs no "
                "labels) and leave accuracy, NMI, Rand and F empty."
            )
        else:
            counts = ds.class_counts()
            fig = go.Figure(
                go.Bar(
                    x=list(counts),
                    y=list(counts.values()),
                    marker={"color": cluster_colors(len(counts))},
                    text=list(counts.values()),
                    textposition="outside",
                )
            )
            relayout(
                fig,
                template=TEMPLATE,
                height=300,
                margin={"l": 40, "r": 20, "t": 30, "b": 40},
                xaxis={"title": "class", "type": "category"},
                yaxis={"title": "samples"},
            )
            presenter.chart(fig, key="data.class_counts")

state.sync_to_url()
