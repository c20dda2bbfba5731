"""The session keys, their defaults, getters and setters (see :mod:`ui.state`)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import streamlit as st

from clustering import ALGORITHMS
from clustering._moments import REGULARIZERS

from ..model import (
    DEFAULT_LAM,
    DEFAULT_REGULARIZER,
    DEFAULT_VIEW,
    LECTURE_STEP_PARAM,
    N_CLUSTERS_PARAM,
    RHO_PARAM,
    VIEWS,
    default_data_choice,
    snap_lam,
    snap_rho,
)


class KEYS:
    """Names of the persistent session-state entries (no widget uses these keys)."""

    DATA = "dcl.data"  #: DataChoice
    DATA_CHOSEN = "dcl.data_chosen"  #: bool, the user (or a link, or a demo) picked the data
    UPLOAD = "dcl.upload"  #: dict(name=..., content=bytes) of the last uploaded file
    ALGORITHMS = "dcl.algorithms"  #: list of registry keys
    LAM = "dcl.lam"  #: float
    REGULARIZER = "dcl.regularizer"  #: str
    PARAMS = "dcl.params"  #: {algorithm key: {param: value}} (non-default values)
    SCALE = "dcl.scale"  #: {feature index: factor} (factors != 1)
    VIEW = "dcl.view"  #: str ("pca", "discriminant", "features:i,j")
    CONSTRAINTS = "dcl.constraints"  #: {data fingerprint: {"must": [...], "cannot": [...]}}
    URL_READ = "dcl.url_read"  #: bool, the URL was read into the state this session
    DATA_ERROR = "dcl.data_error"  #: str, why the requested data could not be used
    WIDGETS = "dcl.widgets"  #: {state key: set of widget keys seeded from it}
    PRESENTER = "dcl.presenter"  #: bool, presenter mode (large fonts, theory collapsed)
    UPLOAD_TOKEN = "dcl.upload_token"  #: str, the upload's key in ui.uploads' server store
    PAGE = "dcl.page"  #: str, the page the last run drew (see :func:`enter_page`)
    #: str, the token this session made (it may replace that store entry, and no other)
    UPLOAD_OWN_TOKEN = "dcl.upload_own_token"
    #: ui.uploads' mark of a session that had an upload (it lives as long as the session)
    UPLOAD_MARK = "dcl.upload_mark"
    RHO = "dcl.rho"  #: float, Theorem 5's ρ (the Cluster and Learn pages)
    LECTURE_STEP = "dcl.lecture_step"  #: int, the Lecture's step (0: not in the Lecture)
    LECTURE_PAGE = "dcl.lecture_page"  #: str, the page (URL path) that step is shown on


# ----------------------------------------------------------------------------------------
# Generic access
# ----------------------------------------------------------------------------------------


def _defaults() -> dict[str, Any]:
    return {
        KEYS.DATA: default_data_choice(),
        KEYS.DATA_CHOSEN: False,
        KEYS.UPLOAD: None,
        KEYS.ALGORITHMS: default_algorithms(),
        KEYS.LAM: DEFAULT_LAM,
        KEYS.REGULARIZER: DEFAULT_REGULARIZER,
        KEYS.PARAMS: {},
        KEYS.SCALE: {},
        KEYS.VIEW: DEFAULT_VIEW,
        KEYS.CONSTRAINTS: {},
        KEYS.URL_READ: False,
        KEYS.DATA_ERROR: "",
        KEYS.WIDGETS: {},
        KEYS.PRESENTER: False,
        KEYS.UPLOAD_TOKEN: "",
        KEYS.UPLOAD_OWN_TOKEN: "",
        KEYS.UPLOAD_MARK: None,
        KEYS.PAGE: "",
        KEYS.RHO: RHO_PARAM.default,
        KEYS.LECTURE_STEP: 0,
        KEYS.LECTURE_PAGE: "",
    }


def get(key: str) -> Any:
    """The persistent value under ``key`` (one of :class:`KEYS`), set to its default first."""
    if key not in st.session_state:
        st.session_state[key] = _defaults()[key]
    return st.session_state[key]


def _set(key: str, value: Any) -> None:
    st.session_state[key] = value
    for widget_key in get(KEYS.WIDGETS).get(key, ()):
        st.session_state.pop(widget_key, None)


def seed(widget_key: str, state_key: str, value: Any = None) -> None:
    """Give the widget ``widget_key`` its value from the persistent state before drawing it.

    Call right before creating the widget (without ``value=``/``index=``/``default=``). When
    the widget key is not in the session (first visit, or Streamlit dropped it after a page
    change) it gets ``value`` (by default the persistent value of ``state_key``); a setter of
    ``state_key`` later drops the widget key so the widget picks up the new value.
    """
    registry = get(KEYS.WIDGETS)
    registry.setdefault(state_key, set()).add(widget_key)
    if widget_key not in st.session_state:
        st.session_state[widget_key] = get(state_key) if value is None else value


def enter_page(name: str) -> None:
    """Note that the run draws page ``name``; on a page change, drop every seeded widget key.

    Two pages may draw a widget under the same key (the sidebar's ``algorithms`` on Cluster
    and Compare). Streamlit ties a widget's value to the page that drew it: on the next page
    the key still holds the old widget's value, :func:`seed` leaves it alone, and the new
    widget starts empty, which the page then records as the user's choice. Dropping the
    widget keys at a page change makes :func:`seed` give every widget its persistent value.
    """
    name = str(name)
    previous = st.session_state.get(KEYS.PAGE)
    if previous is not None and previous != name:
        for widget_keys in get(KEYS.WIDGETS).values():
            for widget_key in widget_keys:
                st.session_state.pop(widget_key, None)
    st.session_state[KEYS.PAGE] = name


def default_algorithms() -> list[str]:
    """k-means (when registered) next to MSPC: the comparison the lab is about."""
    preferred = [k for k in ALGORITHMS if k in ("kmeans", "mspc-mpm")]
    return preferred or list(ALGORITHMS)[:1]


# ----------------------------------------------------------------------------------------
# Typed getters and setters
# ----------------------------------------------------------------------------------------


def get_algorithms() -> list[str]:
    """Registry keys of the chosen algorithms (unknown keys are dropped)."""
    keys = [k for k in get(KEYS.ALGORITHMS) if k in ALGORITHMS]
    return keys


def set_algorithms(keys: Iterable[str]) -> None:
    """Choose the algorithms (keys not in :data:`clustering.ALGORITHMS` are dropped)."""
    _set(KEYS.ALGORITHMS, [k for k in dict.fromkeys(keys) if k in ALGORITHMS])


def get_lam() -> float:
    """The regulariser weight ``lam`` shared by the methods that have one."""
    return float(get(KEYS.LAM))


def set_lam(value: float) -> None:
    """Set ``lam`` (snapped to the slider's grid, 1e-4 .. 1e4)."""
    _set(KEYS.LAM, snap_lam(value))


def get_regularizer() -> str:
    """The kind of ``Lambda`` (``"diag"``, ``"identity"``, ``"total"``, ``"none"``)."""
    return str(get(KEYS.REGULARIZER))


def set_regularizer(value: str) -> None:
    """Set the kind of ``Lambda``; unknown kinds raise ``ValueError``."""
    if value not in REGULARIZERS:
        raise ValueError(f"Unknown regularizer {value!r}; choose one of {REGULARIZERS}.")
    _set(KEYS.REGULARIZER, value)


def get_algorithm_params(key: str) -> dict[str, Any]:
    """Every UI parameter of algorithm ``key``: the spec's defaults, overridden by the
    values set for it, with the shared ``lam`` and ``regularizer`` where it has them."""
    spec = ALGORITHMS[key]
    out = spec.defaults()
    out.update(get(KEYS.PARAMS).get(key, {}))
    if "lam" in out:
        out["lam"] = get_lam()
    if "regularizer" in out:
        out["regularizer"] = get_regularizer()
    return out


def set_algorithm_params(key: str, params: Mapping[str, Any]) -> None:
    """Store the parameters of algorithm ``key`` (``lam``/``regularizer`` go to the shared
    values; parameters equal to their defaults are not stored)."""
    spec = ALGORITHMS[key]
    defaults = spec.defaults()
    params = dict(params)
    if "lam" in params:
        set_lam(params.pop("lam"))
    if "regularizer" in params:
        set_regularizer(params.pop("regularizer"))
    stored = {k: v for k, v in params.items() if k in defaults and v != defaults[k]}
    table = dict(get(KEYS.PARAMS))
    table[key] = stored
    _set(KEYS.PARAMS, table)


def get_scaling_factors(n_features: int) -> np.ndarray:
    """The scaling factor of each of the ``n_features`` features (1 where none is set)."""
    out = np.ones(int(n_features))
    for j, f in get(KEYS.SCALE).items():
        if 0 <= int(j) < n_features:
            out[int(j)] = float(f)
    return out


def set_scaling_factors(factors: Mapping[int, float] | Sequence[float]) -> None:
    """Set the scaling factors: a dict ``{feature index: factor}`` or one factor per
    feature. Factors must be positive and finite (``ValueError`` otherwise)."""
    if isinstance(factors, Mapping):
        items = factors.items()
    else:
        items = enumerate(np.asarray(factors, dtype=float).ravel())
    table: dict[int, float] = {}
    for j, f in items:
        f = float(f)
        if not math.isfinite(f) or f <= 0:
            raise ValueError(f"The scaling factor of feature {j} must be positive; got {f}.")
        if f != 1.0:
            table[int(j)] = f
    _set(KEYS.SCALE, table)


def get_view() -> str:
    """The 2-D view: ``"pca"``, ``"discriminant"`` or ``"features:i,j"``."""
    return str(get(KEYS.VIEW))


def set_view(view: str) -> None:
    """Set the 2-D view (``"pca"``, ``"discriminant"``, ``"features:i,j"``)."""
    view = str(view)
    if view.split(":", 1)[0] not in VIEWS:
        raise ValueError(f"Unknown view {view!r}; choose one of {VIEWS}.")
    _set(KEYS.VIEW, view)


def get_rho() -> float:
    """Theorem 5's relative margin threshold ρ (on its 0.05 grid)."""
    return float(get(KEYS.RHO))


def set_rho(rho: float) -> None:
    """Set ρ (snapped to its grid, within [0, 1])."""
    _set(KEYS.RHO, snap_rho(rho))


def get_lecture_step() -> int:
    """The Lecture's current step (1 to ``LECTURE_STEPS``), or 0 outside the Lecture."""
    return int(get(KEYS.LECTURE_STEP))


def set_lecture_step(step: int, page: str = "") -> None:
    """Enter the Lecture at ``step``, shown on the page whose URL path is ``page`` (0 leaves
    the Lecture). The link carries the step only on that page."""
    step = int(step)
    if not 0 <= step <= int(LECTURE_STEP_PARAM.high):
        raise ValueError(f"The Lecture has steps 1 to {int(LECTURE_STEP_PARAM.high)}; got {step}.")
    _set(KEYS.LECTURE_STEP, step)
    _set(KEYS.LECTURE_PAGE, str(page) if step else "")


def lecture_step_here() -> int:
    """The Lecture's step when the current page is the one it is shown on, else 0."""
    step = get_lecture_step()
    return step if step and get(KEYS.LECTURE_PAGE) == st.session_state.get(KEYS.PAGE) else 0


def get_constraints(data_fingerprint: str) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """``(must_link, cannot_link)`` index pairs collected for the data set."""
    entry = get(KEYS.CONSTRAINTS).get(data_fingerprint, {})
    return list(entry.get("must", [])), list(entry.get("cannot", []))


def add_constraints(data_fingerprint: str, kind: str, indices: Sequence[int]) -> int:
    """Turn a selection of points into constraints; return how many new pairs were added.

    ``kind="must"``: the selected points belong together — the first is must-linked to every
    other one (which implies every pair), and the selection becomes the *reference group*.
    ``kind="cannot"``: the selected points do not belong with the reference group — each is
    cannot-linked to the group's first point (the group is already must-linked, so this
    separates them from all of it). Without a reference group, ``"cannot"`` raises
    ``ValueError`` telling the user to must-link a group first.
    """
    if kind not in ("must", "cannot"):
        raise ValueError("kind must be 'must' or 'cannot'.")
    idx = [int(i) for i in dict.fromkeys(indices)]
    table = dict(get(KEYS.CONSTRAINTS))
    entry = {
        k: (list(v) if isinstance(v, list) else v)
        for k, v in table.get(data_fingerprint, {}).items()
    }
    if kind == "must":
        if len(idx) < 2:
            return 0
        pairs = [(idx[0], j) for j in idx[1:]]
        entry["anchor"] = idx[0]
    else:
        anchor = entry.get("anchor")
        if anchor is None:
            raise ValueError(
                "Cannot-links separate the selected points from a group: first select a group "
                "with the lasso and press 'Must-link', then select the points that do not "
                "belong with it."
            )
        pairs = [(anchor, j) for j in idx if j != anchor]
    existing = set(map(tuple, entry.get(kind, [])))
    new = [p for p in pairs if p not in existing]
    entry[kind] = [*entry.get(kind, []), *new]
    table[data_fingerprint] = entry
    st.session_state[KEYS.CONSTRAINTS] = table
    return len(new)


def clear_constraints(data_fingerprint: str) -> None:
    """Forget the constraints of the data set."""
    table = dict(get(KEYS.CONSTRAINTS))
    table.pop(data_fingerprint, None)
    st.session_state[KEYS.CONSTRAINTS] = table


# ---- presenter mode ---------------------------------------------------------


def get_presenter() -> bool:
    """Whether presenter mode is on (large fonts, theory collapsed, slide export)."""
    return bool(get(KEYS.PRESENTER))


def set_presenter(on: bool) -> None:
    """Switch presenter mode on or off (kept in the URL as ``present=1``)."""
    _set(KEYS.PRESENTER, bool(on))


# ----------------------------------------------------------------------------------------
# Writes on behalf of widgets and pages (the only writes of session keys)
# ----------------------------------------------------------------------------------------


def record(key: str, value: Any) -> None:
    """Store what a widget shows as the persistent value of ``key`` (one of :class:`KEYS`).

    Unlike the setters this keeps the widget keys: the widget that was just drawn is where
    the value came from.
    """
    st.session_state[key] = value


def record_start(keys: Iterable[str], init: str) -> None:
    """Store the MSPC start ``init`` for the methods ``keys`` (a method's default start is
    not stored, as in :func:`set_algorithm_params`)."""
    table = dict(get(KEYS.PARAMS))
    for key in keys:
        entry = dict(table.get(key, {}))
        if init == ALGORITHMS[key].defaults().get("init"):
            entry.pop("init", None)
        else:
            entry["init"] = init
        table[key] = entry
    record(KEYS.PARAMS, table)


def set_widget(widget_key: str, value: Any) -> None:
    """Set the value a widget (or a page's own control) shows on its next draw."""
    st.session_state[widget_key] = value


def seed_widget(widget_key: str, value: Any) -> None:
    """Give a page's own control ``value`` unless it already has one this session."""
    if widget_key not in st.session_state:
        st.session_state[widget_key] = value


def keep_widget_in(widget_key: str, options, fallback: Any) -> None:
    """Set the widget to ``fallback`` (called with its value, when callable) unless its value
    is one of ``options``: a link, an earlier visit or another data set may have left one
    that no longer is."""
    value = st.session_state.get(widget_key)
    if value not in options:
        st.session_state[widget_key] = fallback(value) if callable(fallback) else fallback


def widget_value(widget_key: str, default: Any = None) -> Any:
    """The value of a widget key (``default`` when it is not in the session)."""
    return st.session_state.get(widget_key, default)


def bump_counter(key: str) -> int:
    """Increment the session counter ``key`` (0 at first) and return its new value."""
    value = int(st.session_state.get(key, 0)) + 1
    st.session_state[key] = value
    return value


# ----------------------------------------------------------------------------------------
# Cost guard: runs approved by a click (ui.runs)
# ----------------------------------------------------------------------------------------

_APPROVED = "dcl.approved_runs"
_APPROVED_MAX = 64


def approved_runs() -> frozenset:
    """The run signatures (:attr:`ui.runs.Planned.signature`) a user started by a click."""
    return frozenset(st.session_state.get(_APPROVED, ()))


def approve_runs(signatures: Iterable[tuple]) -> None:
    """Remember that the user asked for these runs (the most recent :data:`_APPROVED_MAX`)."""
    kept = [s for s in st.session_state.get(_APPROVED, ()) if s not in set(signatures)]
    st.session_state[_APPROVED] = (kept + list(signatures))[-_APPROVED_MAX:]


# ----------------------------------------------------------------------------------------
# Number of clusters, in the URL as ``k`` (left out for 2)
# ----------------------------------------------------------------------------------------

N_CLUSTERS = "dcl.n_clusters"  #: int, the number of clusters every method is asked for


def get_n_clusters() -> int:
    """The number of clusters asked of every method (2 until somebody changes it)."""
    return int(st.session_state.setdefault(N_CLUSTERS, 2))


K_PENDING = "dcl.k_pending"  #: bool, a new data set was picked: propose its k
K_SUGGESTED = "dcl.k_suggested"  #: {data fingerprint: k suggested by the MSP curve}


def propose_n_clusters(n_classes: int | None) -> bool:
    """After the user picked a new data set, set ``k`` to its number of classes (when known
    and within :data:`ui.model.N_CLUSTERS_PARAM`'s range); returns whether ``k`` was changed."""
    if not st.session_state.pop(K_PENDING, False) or not n_classes:
        return False
    low, high = int(N_CLUSTERS_PARAM.low), int(N_CLUSTERS_PARAM.high)
    k = int(min(max(int(n_classes), low), high))
    if k == get_n_clusters():
        return False
    set_n_clusters(k)
    return True


def record_suggested_k(data_fingerprint: str, k: int) -> None:
    """Remember the ``k`` the MSP curve suggested for these data (label-free)."""
    table = dict(st.session_state.get(K_SUGGESTED, {}))
    table[str(data_fingerprint)] = int(k)
    st.session_state[K_SUGGESTED] = table


def suggested_k(data_fingerprint: str) -> int | None:
    """The ``k`` the MSP curve suggested for these data this session (``None`` if not run)."""
    return st.session_state.get(K_SUGGESTED, {}).get(str(data_fingerprint))


def set_n_clusters(k: int) -> None:
    """Set the number of clusters; outside :data:`ui.model.N_CLUSTERS_PARAM`'s range raises
    ``ValueError``."""
    _set(N_CLUSTERS, N_CLUSTERS_PARAM.check(k))


# ----------------------------------------------------------------------------------------
# Feature scaling: the animation's preset. Kept apart for easy merges.
# ----------------------------------------------------------------------------------------

#: Session key of the Feature scaling animation's preset ("break", "rescue" or "").
SCALE_PRESET = "dcl.scale_preset"


def get_scaling_preset() -> str:
    """The preset the Feature scaling animation starts from ("" for none)."""
    return str(st.session_state.get(SCALE_PRESET, ""))


def set_scaling_preset(name: str) -> None:
    """Choose the Feature scaling animation's preset (a key of
    :data:`lab.animation.PRESETS`, or "" for none); ``ValueError`` otherwise."""
    from lab.animation import PRESETS

    if name and name not in PRESETS:
        raise ValueError(f"Unknown scaling preset {name!r}; choose one of {sorted(PRESETS)}.")
    st.session_state[SCALE_PRESET] = str(name)
