"""Uploads on the Data page: the preview (columns and label guess) and a store that
outlives a reload.

:func:`preview` reads a file through :func:`datasets.upload.preview_csv`: the same limits
(bytes, rows, columns, checked by counting before anything is parsed), decoding and
delimiter as :func:`datasets.read_csv`, so the page never parses a file the reader refuses.

A browser reload starts a new Streamlit session, and the session state (where the
uploaded bytes live) is gone. :func:`remember` also keeps the file in a server-side store
(``st.cache_resource``: one per server process, in memory) under a random token that
:mod:`ui.state` puts in the URL as ``upload=<token>``; a reload of the same address finds
it again with :func:`recall`. The store keeps the last :data:`MAX_FILES` files (at most
:data:`MAX_BYTES` in all) and is lost when the server stops, so a link carries an upload only
on this server while it runs. A token belongs to the session that made it: a session that
opened someone else's link reads that upload, and writes its own under a new token
(:mod:`ui.state`), so nobody's upload is replaced by another's.
"""

from __future__ import annotations

import re
import secrets
import threading
from collections import OrderedDict
from typing import Any

import streamlit as st

from datasets import DatasetError
from datasets.label_guess import LabelGuess
from datasets.upload import CsvPreview, preview_csv

__all__ = [
    "MAX_BYTES",
    "MAX_FILES",
    "TOKEN_PATTERN",
    "forget",
    "guess_label",
    "new_token",
    "preview",
    "recall",
    "remember",
]

#: How many uploads the server keeps for reloads (the oldest is dropped first).
MAX_FILES = 16
#: Most bytes of uploads the server keeps for reloads (the oldest are dropped first).
MAX_BYTES = 400_000_000
#: What an upload token in a link looks like.
TOKEN_PATTERN = re.compile(r"^[A-Za-z0-9_-]{8,32}$")


@st.cache_data(max_entries=4, ttl=3600, show_spinner=False)
def preview(content_digest: str, _content: bytes) -> tuple[CsvPreview | None, str | None]:
    """:func:`datasets.upload.preview_csv` of an uploaded file: its columns and label guess,
    read with :func:`datasets.read_csv`'s limits and decoding, or ``None`` and the reader's
    message when it refuses the file (its size, rows, columns, encoding or header), which
    :func:`datasets.read_csv` would refuse with the same message. Cached by the bytes'
    ``content_digest`` (:func:`ui.cache.upload_digest`)."""
    try:
        return preview_csv(_content), None
    except DatasetError as err:
        return None, str(err)


def guess_label(content: bytes) -> LabelGuess | None:
    """The label-column guess of :func:`preview` (``None`` without one)."""
    import hashlib

    found, _ = preview(hashlib.blake2b(content, digest_size=12).hexdigest(), content)
    return None if found is None else found.label_guess


class _Store:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.files: OrderedDict[str, dict[str, Any]] = OrderedDict()


@st.cache_resource(show_spinner=False)
def _store() -> _Store:
    return _Store()


def new_token() -> str:
    """A fresh random token for a session's upload."""
    return secrets.token_urlsafe(12)


def remember(token: str, entry: dict[str, Any]) -> None:
    """Keep ``entry`` (``name``, ``content``, ``choice``) under ``token`` for reloads."""
    store = _store()
    with store.lock:
        store.files[token] = dict(entry)
        store.files.move_to_end(token)
        while len(store.files) > MAX_FILES or (len(store.files) > 1 and _size(store) > MAX_BYTES):
            store.files.popitem(last=False)


def _size(store: _Store) -> int:
    return sum(len(e.get("content", b"")) for e in store.files.values())


def forget(token: str) -> None:
    """Drop the entry kept under ``token`` (nothing happens when there is none)."""
    store = _store()
    with store.lock:
        store.files.pop(token, None)


def recall(token: str) -> dict[str, Any] | None:
    """The entry kept under ``token`` (``None`` when the server no longer has it)."""
    if not TOKEN_PATTERN.match(str(token)):
        return None
    store = _store()
    with store.lock:
        entry = store.files.get(token)
        return None if entry is None else dict(entry)
