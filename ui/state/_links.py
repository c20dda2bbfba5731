"""Links and uploads applied to the session: reading the URL once, writing it back, and the
uploads that survive a reload (see :mod:`ui.state`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import streamlit as st

from .. import cache, uploads, url
from ._data import (
    get_data_choice,
    mark_upload_session,
    set_data_choice,
)
from ._session import (
    KEYS,
    _set,
    get,
    get_algorithm_params,
    get_algorithms,
    get_lam,
    get_n_clusters,
    get_presenter,
    get_regularizer,
    get_rho,
    get_view,
    lecture_step_here,
    seed,
    set_algorithm_params,
    set_algorithms,
    set_lam,
    set_lecture_step,
    set_n_clusters,
    set_presenter,
    set_regularizer,
    set_rho,
    set_scaling_factors,
    set_view,
)

# ---- uploads that survive a reload -------------------------------------------

#: URL parameter of an upload's token (see :mod:`ui.uploads`).
UPLOAD_URL_KEY = "upload"


def _upload_url_params() -> dict[str, str]:
    if get_data_choice().kind == "upload" and get(KEYS.UPLOAD_TOKEN):
        return {UPLOAD_URL_KEY: get(KEYS.UPLOAD_TOKEN)}
    return {}


def _restore_upload(token: str | None) -> list[str]:
    """Bring back the upload a reloaded link names; a warning when the server lost it."""
    if not token:
        return []
    entry = uploads.recall(token)
    if entry is None:
        return [
            "Ignored the link's `upload`: the uploaded file it names is not on this server "
            "any more (uploads are kept in memory only while the lab runs, and never in the "
            "link itself). Upload the file again on the Data page."
        ]
    digest = entry.get("digest") or cache.upload_digest(entry)
    st.session_state[KEYS.UPLOAD] = {
        "name": entry["name"],
        "file_id": None,
        "digest": digest,
        "size": len(entry["content"]),
    }
    mark_upload_session()
    st.session_state[KEYS.UPLOAD_TOKEN] = token
    if entry.get("choice") is not None:
        set_data_choice(entry["choice"], chosen=True)
    return []


def upload_link_note(upload_kind: bool = False) -> str:
    """What a link carries of an upload (for the Data page): ``""`` unless the current data
    (or, with ``upload_kind=True``, the data being chosen) are an upload."""
    if get_data_choice().kind != "upload" and not upload_kind:
        return ""
    return (
        "The address bar keeps this upload for a reload (the file is never in the link). "
        f"{uploads.keeping_policy()} Anyone who opens this link on this server meanwhile "
        "sees the file too, read-only: a file they upload or a label column they pick goes "
        "under a link of their own and never replaces yours. After the lab restarts the "
        "link gives the default data set."
    )


# ----------------------------------------------------------------------------------------
# URL (the codec is ui.url; this applies it to the session)
# ----------------------------------------------------------------------------------------


def url_params() -> dict[str, str]:
    """The query parameters that describe the current state (see the module docstring)."""
    out = url.encode(
        get_data_choice(),
        get_algorithms(),
        get_lam(),
        get_regularizer(),
        get(KEYS.PARAMS),
        get(KEYS.SCALE),
        get_view(),
        presenter=get_presenter(),
        n_clusters=get_n_clusters(),
        rho=get_rho(),
        lecture_step=lecture_step_here(),
    )
    out.update(_upload_url_params())
    return out


def _query() -> dict[str, str]:
    return {k: st.query_params.get(k) for k in st.query_params.keys()}


def _repeated() -> set[str]:
    """The keys the link gives more than once (``st.query_params.get`` keeps the last)."""
    return {k for k in st.query_params.keys() if len(st.query_params.get_all(k)) > 1}


def sync_to_url(extra: Mapping[str, Any] | None = None) -> None:
    """Write the state (and a page's own parameters ``extra``) into the URL, only when it
    differs, so the browser history stays short. Call at the end of every page."""
    wanted = {**url_params(), **{k: str(v) for k, v in (extra or {}).items()}}
    if _query() != wanted:
        st.query_params.from_dict(wanted)


def _add_problems(problems: Sequence[str]) -> None:
    if problems:
        st.session_state[KEYS.DATA_ERROR] = " ".join([get(KEYS.DATA_ERROR), *problems]).strip()


def sync_from_url(force: bool = False) -> list[str]:
    """Read the state from the URL, once per session (or again with ``force=True``).

    :func:`ui.url.decode` checks every key against its declared range or choices; a bad one
    is left at its default and reported, the others are still used. Returns the warnings
    (also shown by :func:`ui.widgets.data_caption`). Never raises.
    """
    if get(KEYS.URL_READ) and not force:
        return []
    st.session_state[KEYS.URL_READ] = True
    decoded = url.decode(_query(), repeated=_repeated())
    problems = list(decoded.warnings)
    _apply(decoded, str(get(KEYS.PAGE) or ""))
    if UPLOAD_URL_KEY in _repeated():
        problems.append(f"Ignored the link's `{UPLOAD_URL_KEY}`: the link gives it more than once.")
    else:
        problems += _restore_upload(_query().get(UPLOAD_URL_KEY))
    if decoded.n_clusters is not None:  # after the upload, which may propose its own k
        set_n_clusters(decoded.n_clusters)
    _add_problems(problems)
    return problems


def give_link(app_test: Any, params: Mapping[str, str]) -> Any:
    """Put the link ``params`` in an AppTest of the app before its first run, as a browser
    arrives with it (the warm start's walks, :func:`ui.serve.walk`); ``app_test``."""
    for name, value in params.items():
        app_test.query_params[name] = value
    return app_test


def open_link(params: Mapping[str, str], page: str) -> list[str]:
    """Apply a link's parameters ``params`` to the session now, as if it had been opened on
    the page whose URL path is ``page`` (the Lecture's steps: :mod:`ui.lecture`); returns the
    warnings of :func:`ui.url.decode`."""
    decoded = url.decode(params)
    _apply(decoded, page)
    if decoded.n_clusters is not None:
        set_n_clusters(decoded.n_clusters)
    return decoded.warnings


def _apply(decoded: url.Decoded, page: str) -> None:
    """Set the state a decoded link asks for (its upload and ``k`` aside)."""
    if decoded.data is not None:
        set_data_choice(decoded.data, chosen=True, propose_k=False)
    if decoded.algorithms is not None:
        set_algorithms(decoded.algorithms)
    if decoded.lam is not None:
        set_lam(decoded.lam)
    if decoded.regularizer is not None:
        set_regularizer(decoded.regularizer)
    if decoded.view is not None:
        set_view(decoded.view)
    for key, values in decoded.params.items():
        set_algorithm_params(key, {**get_algorithm_params(key), **values})
    if decoded.scale is not None:
        set_scaling_factors(decoded.scale)
    if decoded.presenter is not None:
        set_presenter(decoded.presenter)
    if decoded.rho is not None:
        set_rho(decoded.rho)
    if decoded.lecture_step is not None:
        set_lecture_step(decoded.lecture_step, page)


def url_value(name: str, default: str, allowed: Sequence[str] | None = None) -> str:
    """A page's own URL parameter, read once per session (a value not in ``allowed`` falls
    back to ``default`` with a warning shown by :func:`ui.widgets.data_caption`)."""
    skey = f"dcl.url.{name}"
    if skey not in st.session_state:
        text = st.query_params.get(name)
        if name in _repeated():
            text = None
            _add_problems([f"Ignored the link's `{name}`: the link gives it more than once."])
        value, warning = url.decode_choice(name, text, default, allowed)
        if warning:
            _add_problems([warning])
        st.session_state[skey] = value
    return st.session_state[skey]


def set_url_value(name: str, value: str) -> None:
    """Remember a page parameter for :func:`sync_to_url` (``extra``); a widget seeded from it
    (:func:`url_seed`) takes the new value."""
    if st.session_state.get(f"dcl.url.{name}") != str(value):
        _set(f"dcl.url.{name}", str(value))


def record_url_value(name: str, value: str) -> None:
    """Remember what a page's own control (seeded by :func:`url_seed`) shows now, for the
    link; the control keeps its key (unlike :func:`set_url_value`, which moves it)."""
    st.session_state[f"dcl.url.{name}"] = str(value)


def url_seed(widget_key: str, name: str, default: str, allowed: Sequence[str]) -> None:
    """Seed the page's own control ``widget_key`` from its URL parameter ``name`` (read
    once per session by :func:`url_value`); :func:`set_url_value` later moves it."""
    seed(widget_key, f"dcl.url.{name}", url_value(name, default, allowed))


def _leave_legacy_pages_mode() -> None:
    """Rerun through ``app.py`` when Streamlit ran this page without it.

    A fresh server treats ``pages/`` as a legacy multipage folder until some session has
    called ``st.navigation`` (Streamlit's documented rule). If a sub-page is the server's
    first request, Streamlit runs that page alone: the sidebar then lists the entry point as
    "app" instead of "Home", and ``app.py``'s frame (the presenter toggle, the favicon) is
    missing. Switching the flag off and rerunning lets ``app.py`` route the same page (its
    hash is its URL path in both modes). The flag is Streamlit's own, private attribute; if a
    later version drops it, nothing happens here and the browser test's "Home" check fails.

    Why a private attribute (Streamlit 1.67): ``PagesManager.__init__`` sets
    ``uses_pages_directory`` from whether a ``pages`` folder sits next to the entry point,
    and while it is set the script runner runs the requested page through its legacy router
    (``script_runner._mpa_v1``) instead of the entry point; the only public call that clears
    it is ``st.navigation`` (``commands/navigation.py``), which the entry point never reaches
    on that first request, and no configuration option selects the mode. The supported ways
    out rename the folder (which the design card fixes as ``pages/``) or drop
    ``st.navigation`` for the folder's automatic navigation, which titles the home page
    after its file ("app"), loses the pages' Material icons and runs no shared frame.
    """
    try:
        from streamlit.runtime.pages_manager import PagesManager
    except ImportError:  # pragma: no cover - a Streamlit without the legacy folder mode
        return
    if getattr(PagesManager, "uses_pages_directory", None):
        PagesManager.uses_pages_directory = False
        st.rerun()


def init() -> None:
    """Call first on every page: restores the state from the URL on a session's first run,
    notes the session (:func:`ui.uploads.track_session`) and holds its upload in the
    server store (again, after a reconnect)."""
    _leave_legacy_pages_mode()
    sync_from_url()
    uploads.track_session(get(KEYS.UPLOAD_MARK))
    if get(KEYS.UPLOAD_TOKEN):
        uploads.hold(get(KEYS.UPLOAD_TOKEN))
