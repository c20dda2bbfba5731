"""Widgets shared by the pages, built from the registries so no page hard-codes a list.

- :func:`data_caption`: what data the page uses, and a link to the Data page when it is the
  default.
- :func:`algorithm_multiselect`, :func:`lam_slider`, :func:`regularizer_select`,
  :func:`param_widget`, :func:`algorithm_params`, :func:`view_select`: controls whose values
  persist across pages and in the URL (through :mod:`ui.state`).

Downloads are in :mod:`ui.downloads`, errors shown as messages in :mod:`ui.alerts`.

Every widget takes a ``key`` so tests (``AppTest``) can find it; the defaults are the keys
the pages use.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import streamlit as st
from streamlit.errors import StreamlitAPIException

from clustering import ALGORITHMS
from clustering._lam import LAM_RANGE
from clustering._moments import REGULARIZERS
from clustering._spec import Param

from . import state
from .state import KEYS
from .text import plain

__all__ = [
    "DATA_PAGE",
    "REGULARIZER_HELP",
    "algorithm_multiselect",
    "algorithm_params",
    "data_caption",
    "format_number",
    "lam_slider",
    "link_warnings",
    "method_settings",
    "msp_column_config",
    "msp_help",
    "msp_note",
    "n_clusters_control",
    "page_link",
    "param_widget",
    "regularizer_select",
    "view_select",
]

#: The Data page, for ``st.page_link`` / ``st.switch_page``.
DATA_PAGE = "pages/1_Data.py"

REGULARIZER_HELP = {
    "diag": "diag(Σ): each feature's variance — the paper's choice; rescaling a feature "
    "does not change the result.",
    "identity": "I: the same amount on every feature — depends on the features' units.",
    "total": "Σ: the data's full covariance — immune to any linear change of the features.",
    "none": "0: no regularisation (λ unused); needs well-conditioned cluster covariances.",
}


# ----------------------------------------------------------------------------------------
# The two MSPs' names and tooltips (the same words on every page)
# ----------------------------------------------------------------------------------------


def msp_help(kind: str, lam: float | None = None, regularizer: str | None = None) -> str:
    """What the in-sample (``kind="msp"``) or held-out (``"msp_heldout"``) MSP estimates, for
    a tooltip; with ``lam`` and ``regularizer``, the values it was computed with."""
    where = "" if lam is None else f" (λ = {format_number(lam)}, Λ = {regularizer})"
    if kind == "msp":
        return (
            f"In-sample MSP{where}, the MSPC paper's: the worst-case probability that the "
            "Minimax Probability Machine fitted to the clusters puts their points on the right "
            "side, evaluated on the same points it was fitted to. With many features and few "
            "points it is near 1 even for splits unrelated to any structure. Needs no true "
            "labels."
        )
    if kind == "msp_heldout":
        return (
            f"Held-out MSP{where}: the same worst-case bound for a Minimax Probability Machine "
            "fitted on half of each cluster and evaluated on the other half (both ways, three "
            "random splits, averaged): it estimates how well a linear classifier learnt from "
            "the clusters separates points it has not seen. Needs no true labels. It measures "
            "how separable the clusters are, not whether they are the classes: on 235 class "
            "pairs of real data (REPRODUCTION.md, the real-data rounds; default λ = 0.2) it "
            "scored MSPC's clusters at least as high as the true classes on 173 of the 189 "
            "pairs where the two differ, and its correlation with accuracy across the pairs "
            "was r = 0.58."
        )
    raise ValueError(f"kind must be 'msp' or 'msp_heldout'; got {kind!r}.")


def msp_note(lam: float, regularizer: str, *, short: bool = False) -> str:
    """The sentence naming a page's one λ and Λ of every MSP it shows (``short``: beside a
    lesson's controls)."""
    if short:
        return (
            f"Every MSP here: λ = {format_number(lam)} and Λ = {regularizer}, the λ and Λ of "
            "every page's sidebar."
        )
    return (
        f"Every MSP on this page is computed with λ = {format_number(lam)} and Λ = "
        f"{regularizer} (the sidebar's), for every method, including those without a λ of "
        "their own: the same clusters show the same MSP."
    )


def msp_column_config(
    lam: float | None = None,
    regularizer: str | None = None,
    *,
    columns: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """``st.dataframe`` column settings for a table's in-sample and held-out MSP columns:
    labelled "in-sample MSP" and "held-out MSP", three decimals, each with its tooltip.

    ``columns`` maps each kind to the table's column name (default: ``"MSP"`` and
    ``"held-out MSP"``, as :func:`lab.tables.metrics_table` names them).
    """
    names = dict(columns or {"msp": "MSP", "msp_heldout": "held-out MSP"})
    labels = {"msp": "in-sample MSP", "msp_heldout": "held-out MSP"}
    return {
        names[kind]: st.column_config.NumberColumn(
            labels[kind], format="%.3f", help=msp_help(kind, lam, regularizer)
        )
        for kind in ("msp", "msp_heldout")
        if kind in names
    }


# ----------------------------------------------------------------------------------------
# Formatting and errors
# ----------------------------------------------------------------------------------------


def format_number(value: float) -> str:
    """Compact text for slider labels: ``0.0001``, ``0.5``, ``20``, ``1e+04``.

    Examples
    --------
    >>> [format_number(v) for v in (1e-4, 0.5, 20.0, 1e4)]
    ['0.0001', '0.5', '20', '10000']
    """
    return f"{value:g}"


# ----------------------------------------------------------------------------------------
# Data
# ----------------------------------------------------------------------------------------


def data_caption(
    current: state.CurrentData | None = None, *, link: bool = True
) -> state.CurrentData:
    """Caption naming the data the page works on.

    When nobody chose a data set, says it is the default and links to the Data page; when a
    requested data set could not be loaded (a bad link), shows why as a warning. ``link=False``
    leaves out the link (on the Data page itself). Returns the
    current data (loaded with :func:`ui.state.get_current_data` if not given).
    """
    current = current or state.get_current_data()
    if current.error:
        st.warning(plain(current.error), icon=":material/warning:")
        state.clear_data_error()
    ds = current.dataset
    if current.chosen:
        st.caption(f"Data: {plain(ds.summary())}")
    else:
        st.caption(
            f"Using the default data set **{plain(ds.name)}** ({ds.n_samples} samples × "
            f"{ds.n_features} features)"
            + (" — choose another on the Data page." if link else " — choose another here.")
        )
        if link:
            page_link(DATA_PAGE, label="Choose a data set", icon=":material/table_chart:")
    return current


def link_warnings() -> None:
    """Show, on this page, the link warnings raised after :func:`data_caption` (a page's own
    parameters read with :func:`ui.state.url_value`), instead of on the next page."""
    pending = state.get(KEYS.DATA_ERROR)
    if pending:
        st.warning(plain(pending), icon=":material/warning:")
        state.clear_data_error()


def page_link(page: str, *, label: str, icon: str | None = None, **kwargs: Any) -> None:
    """``st.page_link`` that never breaks a page.

    When the page is run on its own (``AppTest.from_file("pages/2_Cluster.py")``, where
    the script is its own entry point and knows no other page) ``st.page_link`` raises;
    this falls back to a plain markdown link to the page's URL path.
    """
    try:
        st.page_link(page, label=label, icon=icon, **kwargs)
    except StreamlitAPIException:
        url = page.rsplit("/", 1)[-1].removesuffix(".py").split("_", 1)[-1]
        st.markdown(f"{icon + ' ' if icon else ''}[{label}](/{url})")


# ----------------------------------------------------------------------------------------
# Controls
# ----------------------------------------------------------------------------------------


def algorithm_multiselect(
    key: str = "algorithms",
    *,
    label: str = "Algorithms",
    help: str | None = None,
    container: Any = st,
) -> list[str]:
    """Choose algorithms from :data:`clustering.ALGORITHMS` (persisted, in the URL).

    Returns the chosen registry keys, in the registry's order.
    """
    options = list(ALGORITHMS)
    state.seed(key, KEYS.ALGORITHMS, state.get_algorithms())
    if any(k not in options for k in state.widget_value(key)):
        state.set_widget(key, [k for k in state.widget_value(key) if k in options])
    chosen = container.multiselect(
        label,
        options,
        key=key,
        format_func=lambda k: ALGORITHMS[k].name,
        help=help
        or "Which clustering methods to run side by side. "
        + " ".join(f"**{s.name}**: {s.summary}" for s in ALGORITHMS.values()),
    )
    chosen = [k for k in options if k in chosen]
    state.record(KEYS.ALGORITHMS, chosen)
    return chosen


def _log_options(low: float, high: float) -> list[float]:
    return state.lam_grid(low, high)


def lam_slider(
    key: str = "lam",
    *,
    label: str = "λ (regulariser weight)",
    help: str | None = None,
    container: Any = st,
) -> float:
    """The shared regulariser weight ``lam`` on a log scale over ``LAM_RANGE`` (persisted)."""
    options = state.lam_grid()
    state.seed(key, KEYS.LAM, state.snap_lam(state.get_lam(), options))
    state.keep_widget_in(key, options, lambda old: state.snap_lam(old, options))
    value = container.select_slider(
        label,
        options=options,
        key=key,
        format_func=format_number,
        help=help
        or "How much each cluster's covariance is pulled towards the regulariser Λ, on a log "
        "scale. Small λ trusts the clusters' own shapes (and can overfit to a lucky split); "
        "large λ treats clusters as round blobs. The MSPC paper tries "
        f"{LAM_RANGE[0]:g} … {LAM_RANGE[1]:g} and keeps the λ with the highest (in-sample) "
        "MSP; the MSP vs accuracy page picks it by the held-out MSP, which does not reward "
        "splits that only fit the sample.",
    )
    state.record(KEYS.LAM, float(value))
    return float(value)


def regularizer_select(
    key: str = "regularizer",
    *,
    label: str = "Λ (kind of regulariser)",
    container: Any = st,
) -> str:
    """The kind of ``Lambda`` added to the cluster covariances (persisted)."""
    state.seed(key, KEYS.REGULARIZER, state.get_regularizer())
    value = container.selectbox(
        label,
        list(REGULARIZERS),
        key=key,
        format_func=lambda r: {
            "diag": "diag(Σ) — paper",
            "identity": "identity I",
            "total": "total covariance Σ",
            "none": "none",
        }.get(r, r),
        help="What is added (times λ) to each cluster's covariance. "
        + " ".join(f"**{k}**: {v}" for k, v in REGULARIZER_HELP.items()),
    )
    state.record(KEYS.REGULARIZER, value)
    return value


def param_widget(param: Param, key: str, value: Any = None, *, container: Any = st) -> Any:
    """One widget for a :class:`clustering.Param` (or a generator's parameter).

    ``float`` with ``log=True`` → a select slider over 1-2-5 steps per decade; other
    ``float``/``int`` → a slider over ``[low, high]`` (a number input when unbounded);
    ``choice`` → a select box; ``bool`` → a checkbox. ``value`` seeds the widget on first
    draw (default: ``param.default``).
    """
    value = param.default if value is None else value
    label = param.display_name
    help_text = param.help
    kind = param.kind
    if kind == "bool":
        if state.widget_value(key) is None:
            state.set_widget(key, bool(value))
        return container.checkbox(label, key=key, help=help_text)
    if kind == "choice":
        choices = list(param.choices)
        state.keep_widget_in(key, choices, value if value in choices else choices[0])
        return container.selectbox(label, choices, key=key, help=help_text)
    if kind == "float" and param.log and param.low and param.high and param.low > 0:
        options = _log_options(param.low, param.high)
        state.keep_widget_in(key, options, lambda _: state.snap_lam(float(value), options))
        return float(
            container.select_slider(
                label, options=options, key=key, format_func=format_number, help=help_text
            )
        )
    if kind in ("float", "int"):
        cast = int if kind == "int" else float
        low = None if param.low is None else cast(param.low)
        high = None if param.high is None else cast(param.high)
        v = cast(value)
        if low is not None:
            v = max(v, low)
        if high is not None:
            v = min(v, high)
        if state.widget_value(key) is None:
            state.set_widget(key, v)
        if low is not None and high is not None:
            step = 1 if kind == "int" else _nice_step(high - low)
            return cast(container.slider(label, low, high, step=step, key=key, help=help_text))
        return cast(
            container.number_input(
                label,
                min_value=low,
                max_value=high,
                step=1 if kind == "int" else None,
                key=key,
                help=help_text,
            )
        )
    raise ValueError(f"Parameter {param.name!r} has an unknown kind {kind!r}.")


def _nice_step(span: float) -> float:
    """A round slider step giving about 100 positions."""
    if span <= 0:
        return 0.01
    return float(10 ** math.floor(math.log10(span / 100)))


def algorithm_params(
    key: str,
    *,
    shared: Sequence[str] = ("lam", "regularizer"),
    container: Any = st,
    widget_prefix: str = "param",
) -> dict[str, Any]:
    """Widgets for algorithm ``key``'s own parameters (those not in ``shared``, which the
    page sets once for every method) and the full parameter dict to fit it with.

    Widget keys are ``f"{widget_prefix}.{key}.{name}"``; values persist in the session.
    """
    spec = ALGORITHMS[key]
    current = state.get_algorithm_params(key)
    for param in spec.params:
        if param.name in shared:
            continue
        wkey = f"{widget_prefix}.{key}.{param.name}"
        state.seed(wkey, KEYS.PARAMS, current[param.name])
        current[param.name] = param_widget(param, wkey, current[param.name], container=container)
    own = {k: v for k, v in current.items() if k not in ("lam", "regularizer")}
    defaults = spec.defaults()
    table = dict(state.get(KEYS.PARAMS))
    table[key] = {k: v for k, v in own.items() if k in defaults and v != defaults[k]}
    state.record(KEYS.PARAMS, table)
    return current


def view_select(
    n_features: int,
    feature_names: Sequence[str],
    key: str = "view",
    *,
    container: Any = st,
    compact: bool = False,
) -> str:
    """Choose the 2-D view: PCA, discriminant direction vs residual, or two raw features
    (``compact``: a drop-down with short names, for a lesson's column of controls; the
    feature pickers then stack).

    Returns ``"pca"``, ``"discriminant"`` or ``"features:i,j"`` (persisted, in the URL).
    """
    from lab.projections import parse_view

    try:
        kind, (i, j) = parse_view(state.get_view(), n_features)
    except ValueError:
        kind, (i, j) = "discriminant", (0, min(1, n_features - 1))
    labels = {
        "discriminant": "Discriminant direction w vs. main residual direction",
        "pca": "Principal components (PCA)",
        "features": "Two raw features",
    }
    state.seed(key, KEYS.VIEW, kind)
    if compact:
        labels = {
            "discriminant": "Discriminant w vs. residual",
            "pca": "PCA",
            "features": "Two features",
        }
    kind = (container.selectbox if compact else container.radio)(
        "2-D view",
        list(labels),
        key=key,
        format_func=labels.get,
        **({} if compact else {"horizontal": True}),
        help="How the data are flattened to two dimensions. 'Discriminant': x is the "
        "direction the clustering separates along (the separating hyperplane is the vertical "
        "line), y the largest spread left over. 'PCA': the two directions of largest spread. "
        "'Two raw features': the features you pick, in their own units.",
    )
    if kind != "features":
        state.record(KEYS.VIEW, kind)
        return kind
    names = list(feature_names)
    cols = [container, container] if compact else container.columns(2)
    state.seed(f"{key}.x", KEYS.VIEW, i)
    state.seed(f"{key}.y", KEYS.VIEW, j)
    for k, default in ((f"{key}.x", i), (f"{key}.y", j)):
        current = state.widget_value(k)
        if not isinstance(current, int) or not 0 <= current < n_features:
            state.set_widget(k, default)
    fx = cols[0].selectbox(
        "x feature", range(n_features), key=f"{key}.x", format_func=lambda k: names[k]
    )
    fy = cols[1].selectbox(
        "y feature", range(n_features), key=f"{key}.y", format_func=lambda k: names[k]
    )
    view = f"features:{fx},{fy}"
    state.record(KEYS.VIEW, view)
    return view


# ----------------------------------------------------------------------------------------
# Number of clusters
# ----------------------------------------------------------------------------------------


def method_settings(current: Any) -> tuple[list[str], int, float, str]:
    """The sidebar's settings of a page that fits several methods (Cluster, Compare): a
    "Settings" header, then the methods, ``k``, λ and Λ, under the keys both pages share.
    Call it inside ``with st.sidebar:``; returns ``(keys, k, lam, regularizer)``."""
    st.header("Settings")
    keys = algorithm_multiselect("algorithms")
    k = n_clusters_control("n_clusters", current=current)
    return keys, k, lam_slider("lam"), regularizer_select("regularizer")


def n_clusters_control(key: str = "n_clusters", *, container: Any = st, current: Any = None) -> int:
    """The number of clusters asked of every method (persisted, in the URL as ``k``).

    With ``current`` (the page's :class:`~ui.model.CurrentData`), ``k`` follows the data:
    a data set the user just picked starts at its number of classes, and a caption says
    where ``k`` comes from (the classes, or for unlabelled data the ``k`` the MSP curve
    suggested without labels).
    """
    from .model import N_CLUSTERS_RANGE

    low, high = N_CLUSTERS_RANGE
    ds = None if current is None else current.dataset
    n_classes = None if ds is None or ds.y is None else int(ds.n_classes)
    if current is not None:
        state.propose_n_clusters(n_classes)
    state.seed(key, state.N_CLUSTERS, state.get_n_clusters())
    value = container.number_input(
        "Number of clusters k",
        min_value=low,
        max_value=high,
        step=1,
        key=key,
        help="Every method is asked for k clusters. IterSVR, MMC and MVC are two-cluster "
        "methods by nature: with k > 2 their panels say so instead of running.",
    )
    k = int(value)
    state.record(state.N_CLUSTERS, k)
    if ds is not None:
        container.caption(k_note(k, n_classes, state.suggested_k(current.fingerprint), ds.name))
    return k


def k_note(k: int, n_classes: int | None, suggested: int | None, name: str) -> str:
    """Where the page's ``k`` comes from, in one sentence.

    Examples
    --------
    >>> k_note(3, 3, None, "iris")
    'k = 3: the number of classes of iris.'
    >>> k_note(2, 3, None, "iris")
    'iris has 3 classes; k = 2 is your choice.'
    >>> k_note(2, None, None, "f.csv")
    'No classes known: the MSP curve on the Cluster page suggests a k without labels.'
    >>> k_note(4, None, 4, "f.csv")
    'k = 4: the k the MSP curve suggested without labels.'
    """
    if n_classes:
        if k == n_classes:
            return f"k = {k}: the number of classes of {plain(name)}."
        return f"{plain(name)} has {n_classes} classes; k = {k} is your choice."
    if suggested is not None:
        if k == suggested:
            return f"k = {k}: the k the MSP curve suggested without labels."
        return f"The MSP curve suggested k = {suggested} without labels; k = {k} is your choice."
    return "No classes known: the MSP curve on the Cluster page suggests a k without labels."
