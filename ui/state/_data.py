"""The data the lab works on: the choice, the upload, loading them (through
:mod:`ui.cache`) with the default data set as the fallback, and keeping an upload across a
reload (:mod:`ui.uploads`). See :mod:`ui.state`."""

from __future__ import annotations

import streamlit as st

import datasets

from .. import cache, uploads
from ..model import CurrentData, DataChoice, default_data_choice
from ._session import K_PENDING, KEYS, _set, get, get_view


def get_data_choice() -> DataChoice:
    """The current :class:`DataChoice` (the default one until somebody picks)."""
    return get(KEYS.DATA)


def user_chose_data() -> bool:
    """Whether the data set was chosen (on the Data page, by a demo or by a link)."""
    return bool(get(KEYS.DATA_CHOSEN))


def set_data_choice(choice: DataChoice, chosen: bool = True, propose_k: bool = True) -> None:
    """Switch the lab to another data set.

    Scaling factors are cleared (they refer to the old features); constraints are kept per
    data set, keyed by its fingerprint. With ``propose_k`` (a data set picked by the user,
    not read from a link, which carries its own ``k``) the next page with a ``k`` control
    proposes one for the new data (:func:`ui.state.propose_n_clusters`).
    """
    if choice != get_data_choice():
        _set(KEYS.SCALE, {})
        if propose_k:
            st.session_state[K_PENDING] = True
    _set(KEYS.DATA, choice)
    st.session_state[KEYS.DATA_CHOSEN] = bool(chosen)
    st.session_state[KEYS.DATA_ERROR] = ""
    if choice.kind == "upload":
        try:
            _remember_upload()
        except uploads.OverBudget as err:  # a copy of a link's upload that does not fit
            st.session_state[KEYS.DATA_ERROR] = str(err)


def get_upload() -> dict | None:
    """The upload the lab works on as ``{"name", "content", "digest", "file_id"}``, or
    ``None`` (none, refused, or no longer on the server). The bytes come from the server
    store (:mod:`ui.uploads`); the session state keeps only the name and hash."""
    meta = get(KEYS.UPLOAD)
    token = get(KEYS.UPLOAD_TOKEN)
    if not meta or meta.get("refused") or not token:
        return None
    entry = uploads.recall(token)
    if entry is None or entry.get("digest") != meta.get("digest"):
        return None  # released, or replaced by its owner since this session read it
    return {
        "name": entry["name"],
        "content": entry["content"],
        "digest": entry["digest"],
        "file_id": meta.get("file_id"),
    }


def get_upload_refusal() -> str:
    """Why the last uploaded file was refused (its bytes are not kept), or ``""``."""
    meta = get(KEYS.UPLOAD)
    return str(meta.get("refused") or "") if meta else ""


def get_upload_name() -> str:
    """The name of the last uploaded file, usable or refused (``""`` without one)."""
    meta = get(KEYS.UPLOAD)
    return str(meta.get("name") or "") if meta else ""


def get_upload_file_id() -> str | None:
    """The uploader's ``file_id`` of the last uploaded file (``None`` without one)."""
    meta = get(KEYS.UPLOAD)
    return meta.get("file_id") if meta else None


def set_upload(name: str, content: bytes, file_id: str | None = None) -> None:
    """Take a newly uploaded file: checked with the reader's limits first
    (:func:`ui.uploads.preview`); a refused file keeps only its name and the reason, an
    accepted one goes to the server store under this session's token (replacing the
    session's previous upload there). The session state keeps the name, the hash that keys
    the caches (computed once here, not on every rerun) and the uploader's ``file_id`` (so
    a rerun need not compare the bytes), never the bytes."""
    digest = cache.upload_digest({"content": content})
    meta = {"name": str(name), "file_id": file_id, "digest": digest, "size": len(content)}
    mark_upload_session()
    found, refused = uploads.preview(digest, content)
    cache.forget_read_uploads()  # the session's previous file, parsed
    if found is not None:
        meta["cost"] = uploads.upload_cost(len(content), found.cells)
    if refused:
        meta["refused"] = refused
        st.session_state[KEYS.UPLOAD] = meta
        _let_go_of_upload()
        return
    st.session_state[KEYS.UPLOAD] = meta
    try:
        _remember_upload(content)
    except uploads.OverBudget as err:  # the server's uploads are full: nobody else's goes
        st.session_state[KEYS.UPLOAD] = {**meta, "refused": str(err)}
        _let_go_of_upload()


def mark_upload_session() -> None:
    """Mark this session as one that had an upload (:class:`ui.uploads.Mark`), so that it
    is collected once Streamlit drops it after it ends."""
    if get(KEYS.UPLOAD_MARK) is None:
        st.session_state[KEYS.UPLOAD_MARK] = uploads.Mark()
    uploads.track_session(get(KEYS.UPLOAD_MARK))


def _let_go_of_upload() -> None:
    """This session's upload is replaced by a refused one: drop its own entry from the
    store, and stop holding a link's."""
    token = get(KEYS.UPLOAD_TOKEN)
    if token and token == get(KEYS.UPLOAD_OWN_TOKEN):
        uploads.forget(token)
    elif token:
        uploads.let_go(token)
    st.session_state[KEYS.UPLOAD_TOKEN] = ""


def forget_refused_upload() -> None:
    """Drop this session's upload from the server store when the reader refused it: no
    reload or link needs a file that cannot be used (its name stays, for the message)."""
    token = get(KEYS.UPLOAD_OWN_TOKEN)
    if token and token == get(KEYS.UPLOAD_TOKEN):
        uploads.forget(token)


def get_current_data() -> CurrentData:
    """Load the current data set (through the caches in :mod:`ui.cache`).

    When the choice cannot be loaded (a bad name in a link, an upload lost with the session)
    the default data set is used and ``error`` says why; pages show it with
    :func:`ui.widgets.data_caption`.
    """
    choice = get_data_choice()
    error = get(KEYS.DATA_ERROR)
    try:
        dataset = cache.load_choice(choice, get_upload())
    except (datasets.DatasetError, ValueError) as err:
        error = " ".join(
            filter(None, [error, f"The data set {choice.label!r} could not be loaded: {err}"])
        )
        st.session_state[KEYS.DATA_ERROR] = error
        _set(KEYS.DATA, default_data_choice())
        st.session_state[KEYS.DATA_CHOSEN] = False
        choice = default_data_choice()
        dataset = cache.load_choice(choice, None)
    fp = cache.dataset_fingerprint(choice, get_upload(), dataset)
    error = " ".join(filter(None, [error, *_drop_missing_features(dataset.n_features)]))
    return CurrentData(dataset, fp, choice, user_chose_data(), error)


def _drop_missing_features(n_features: int) -> list[str]:
    """Scaling factors and a view that name features these data do not have (a link made
    for other data, or a hand-edited one) are dropped, so they leave the link too, and
    said so."""
    notes = []
    plural = "s" if n_features != 1 else ""
    have = f"these data have {n_features} feature{plural} (0 to {n_features - 1})"
    scale = get(KEYS.SCALE) or {}
    gone = sorted(j for j in scale if not 0 <= int(j) < n_features)
    if gone:
        _set(KEYS.SCALE, {j: f for j, f in scale.items() if 0 <= int(j) < n_features})
        shown = ", ".join(map(str, gone[:5])) + (" …" if len(gone) > 5 else "")
        notes.append(f"Ignored the scaling of feature {shown}: {have}.")
    view = get_view()
    if view.startswith("features:"):
        try:
            indices = [int(v) for v in view.split(":", 1)[1].split(",")]
        except ValueError:
            indices = [-1]
        if not all(0 <= j < n_features for j in indices):
            _set(KEYS.VIEW, "discriminant")
            notes.append(f"Ignored the view {view}: {have}; showing the discriminant view.")
    if notes:
        st.session_state[KEYS.DATA_ERROR] = " ".join([get(KEYS.DATA_ERROR), *notes]).strip()
    return notes


def get_dataset():
    """The current :class:`datasets.Dataset` (see :func:`get_current_data`)."""
    return get_current_data().dataset


def clear_data_error() -> None:
    """Forget the data error once a page has shown it."""
    st.session_state[KEYS.DATA_ERROR] = ""


def _remember_upload(content: bytes | None = None) -> None:
    """Keep the session's upload (and the choice made of it) in the server store: the new
    file's ``content``, or the one already there with a new choice."""
    meta = get(KEYS.UPLOAD)
    if not meta or meta.get("refused"):
        return
    if content is None:
        upload = get_upload()
        if upload is None:
            return
        content = upload["content"]
    choice = get_data_choice()
    entry = {
        "name": meta["name"],
        "content": content,
        "digest": meta["digest"],
        "choice": choice if choice.kind == "upload" else None,
        "cost": meta.get("cost"),
    }
    token = get(KEYS.UPLOAD_TOKEN)
    if token and token != get(KEYS.UPLOAD_OWN_TOKEN):
        # Opened from someone else's link: theirs is read-only. Nothing changed: keep
        # reading it; anything new (a file, a label column) goes under a token of our own.
        kept = uploads.recall(token)
        if kept is not None and _same_upload(kept, entry):
            return
        uploads.let_go(token)
        token = ""
    if not token:
        token = get(KEYS.UPLOAD_OWN_TOKEN) or uploads.new_token()
        st.session_state[KEYS.UPLOAD_OWN_TOKEN] = token
    uploads.remember(token, entry)  # first: a file over the budget changes no token
    st.session_state[KEYS.UPLOAD_TOKEN] = token


def _same_upload(a: dict, b: dict) -> bool:
    return (
        a.get("name") == b.get("name")
        and a.get("choice") == b.get("choice")
        and a.get("digest") == b.get("digest")
    )
