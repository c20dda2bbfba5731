"""Uploads on the Data page: the label-column guess and a store that outlives a reload.

A browser reload starts a new Streamlit session, and the session state (where the
uploaded bytes live) is gone. :func:`remember` also keeps the file in a server-side store
(``st.cache_resource``: one per server process, in memory) under a random token that
:mod:`ui.state` puts in the URL as ``upload=<token>``; a reload of the same address finds
it again with :func:`recall`. The store keeps the last :data:`MAX_FILES` files and is lost
when the server stops, so a link carries an upload only on this server while it runs.
"""

from __future__ import annotations

import io
import re
import secrets
import threading
from collections import OrderedDict
from typing import Any

import pandas as pd
import streamlit as st

from datasets.label_guess import LabelGuess, guess_label_column

__all__ = ["MAX_FILES", "TOKEN_PATTERN", "guess_label", "new_token", "recall", "remember"]

#: How many uploads the server keeps for reloads (the oldest is dropped first).
MAX_FILES = 16
#: What an upload token in a link looks like.
TOKEN_PATTERN = re.compile(r"^[A-Za-z0-9_-]{8,32}$")


@st.cache_data(max_entries=8, show_spinner=False)
def guess_label(content: bytes) -> LabelGuess | None:
    """:func:`datasets.label_guess.guess_label_column` on an uploaded CSV file's columns
    (``None`` when the file cannot be read as a table; the reader then says why)."""
    try:
        frame = pd.read_csv(io.BytesIO(content), sep=None, engine="python", dtype=str)
    except Exception:  # the reader (datasets.read_csv) explains a bad file
        return None
    try:
        return guess_label_column(_typed(frame))
    except Exception:
        return None


def _typed(frame: pd.DataFrame) -> pd.DataFrame:
    """Numbers as numbers, text as text (``dtype=str`` keeps '1.0' and 'setosa' apart)."""
    out = {}
    for name in frame.columns:
        numeric = pd.to_numeric(frame[name], errors="coerce")
        out[name] = numeric if numeric.notna().sum() >= frame[name].notna().sum() else frame[name]
    return pd.DataFrame(out)


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
        while len(store.files) > MAX_FILES:
            store.files.popitem(last=False)


def recall(token: str) -> dict[str, Any] | None:
    """The entry kept under ``token`` (``None`` when the server no longer has it)."""
    if not TOKEN_PATTERN.match(str(token)):
        return None
    store = _store()
    with store.lock:
        entry = store.files.get(token)
        return None if entry is None else dict(entry)
