"""Uploads on the Data page: the preview (columns and label guess) and a store that
outlives a reload.

:func:`preview` reads a file through :func:`datasets.upload.preview_csv`: the same limits
(bytes, rows, columns, checked by counting before anything is parsed), decoding and
delimiter as :func:`datasets.read_csv`, so the page never parses a file the reader refuses.

The file's bytes live in one place: a server-side store (``st.cache_resource``: one per
server process, in memory) under a random token that :mod:`ui.state` puts in the URL as
``upload=<token>``, so a reload of the same address finds it again with :func:`recall`. The
session state keeps only the file's name and hash, never its bytes, so nothing of an upload
outlives what the store releases.

The store keeps an upload while a browser session uses it (the session that uploaded it, and
any that opened its link), and for :data:`KEEP_SECONDS` (an hour, :func:`release_after`)
after the last of them has ended (closed or reloaded: a reload, or someone opening its link,
finds it again within that time). A session's end is seen when its connection closes (a
session-scoped ``st.cache_resource`` whose ``on_release`` lets go of the session's uploads).
Every upload counts against one server-wide budget (:data:`BUDGET`, by :func:`upload_cost`:
its bytes and its parsed table): a new upload that would not fit beside the uploads sessions
use is refused (:class:`OverBudget`, a message for the user) and nothing else is dropped for
it; uploads no session uses give way, oldest first, to a new one, and at most
:data:`MAX_FILES` of them are kept. A refused file is never stored. The store is lost when
the server stops, so a link carries an upload only on this server while it runs. A token
belongs to the session that made it: a session that opened someone else's
link reads that upload, and writes its own under a new token (:mod:`ui.state`), so nobody's
upload is replaced by another's.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import re
import secrets
import threading
import time
import weakref
from collections import OrderedDict
from typing import Any

import streamlit as st

from datasets import DatasetError
from datasets.label_guess import LabelGuess
from datasets.upload import (
    DEFAULT_MAX_BYTES,
    DEFAULT_MAX_CELLS,
    DEFAULT_MAX_COLUMNS,
    DEFAULT_MAX_ROWS,
    CsvPreview,
    preview_csv,
)

__all__ = [
    "BUDGET",
    "CELL_BYTES",
    "KEEP_SECONDS",
    "MAX_FILES",
    "TOKEN_PATTERN",
    "Mark",
    "OverBudget",
    "forget",
    "guess_label",
    "hold",
    "keeping_policy",
    "let_go",
    "limits_text",
    "new_token",
    "preview",
    "reading",
    "recall",
    "release_after",
    "remember",
    "track_session",
    "upload_cost",
]

#: How many uploads no session uses the server keeps for reloads (the oldest is dropped first).
MAX_FILES = 16
#: Seconds an upload stays on the server after the last session using it has ended (within
#: :data:`BUDGET`): a lesson's length, so a link shared in class keeps working after its
#: uploader closed the tab.
KEEP_SECONDS = 3600.0
#: What all uploads on the server may take at once, counted by :func:`upload_cost`. Four of
#: the densest uploads the reader accepts (20,000,000 cells) cost 4 x 200 MB.
BUDGET = 1_000_000_000
#: Bytes a parsed cell takes in the session that reads it (float64).
CELL_BYTES = 8


def upload_cost(size: int, cells: int) -> int:
    """What an upload costs the server: its bytes in the store and its table parsed
    (:data:`CELL_BYTES` a cell; ``cells`` as :class:`datasets.upload.CsvPreview` counts them).

    Examples
    --------
    >>> upload_cost(40_000_000, 20_000_000)
    200000000
    """
    return int(size) + CELL_BYTES * int(cells)


class OverBudget(Exception):
    """A new upload does not fit in :data:`BUDGET` beside the uploads sessions use; the
    message says so for the user."""


#: One read of an upload at a time on the server (the preview and the parse): a read's
#: memory is transient but large (a file at the cell limit took about +400 MB), so four
#: uploaded at once are read one after the other instead of all together.
_READ_LOCK = threading.Lock()


def reading():
    """Hold while reading an upload (:func:`preview`, :func:`ui.cache.read_upload`):
    one such read runs at a time on the server; the others wait their turn."""
    return _READ_LOCK


def limits_text() -> str:
    """The reader's limits in words (the Data page's uploader help)."""
    return (
        f"At most {DEFAULT_MAX_BYTES // 1_000_000} MB, {DEFAULT_MAX_ROWS:,} rows, "
        f"{DEFAULT_MAX_COLUMNS:,} columns and {DEFAULT_MAX_CELLS:,} cells (rows × columns)."
    )


def keeping_policy() -> str:
    """How long the server keeps an upload, in words (the Data page and the README say
    the same)."""
    return (
        "The file stays on this server, in memory, while a browser uses it and for "
        f"{KEEP_SECONDS / 3600:g} hour after the last one has closed, as long as the "
        f"server's room for all uploads ({BUDGET / 1e6:,.0f} MB, counting each file and "
        "its table) allows: when that room is full, new uploads are refused, and files no "
        "browser uses give way first, oldest first."
    )


def _cost(entry: dict[str, Any]) -> int:
    return int(entry.get("cost") or len(entry.get("content", b"")))


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
        with reading():
            return preview_csv(_content), None
    except DatasetError as err:
        return None, str(err)


def guess_label(content: bytes) -> LabelGuess | None:
    """The label-column guess of :func:`preview` (``None`` without one)."""
    import hashlib

    found, _ = preview(hashlib.blake2b(content, digest_size=12).hexdigest(), content)
    return None if found is None else found.label_guess


class _Store:
    """Uploads by token, and which sessions use each (``holders``: session keys).

    An entry with holders is never dropped to make room; one whose holders have all gone
    (``unheld_since``) is dropped by :meth:`purge` once ``after`` seconds have passed.
    """

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.files: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self.holders: dict[str, set[str]] = {}
        self.unheld_since: dict[str, float] = {}

    def put(self, token: str, entry: dict[str, Any], holder: str | None) -> None:
        """Keep ``entry`` under ``token``; raises :class:`OverBudget` when it does not fit
        in :data:`BUDGET` beside the entries sessions hold (the rest give way)."""
        with self.lock:
            held = sum(_cost(e) for t, e in self.files.items() if t in self.holders and t != token)
            cost = _cost(entry)
            if held + cost > BUDGET:
                raise OverBudget(
                    f"The server holds {held / 1e6:,.0f} MB of uploads for the people using "
                    f"them now; this file needs {cost / 1e6:,.0f} MB (its bytes and its table "
                    f"read), more than the {BUDGET / 1e6:,.0f} MB all uploads may take together "
                    "leave. Upload a smaller file (fewer rows or columns), or try again later."
                )
            self.files[token] = dict(entry)
            self.files.move_to_end(token)
            if holder is not None:
                self._hold(token, holder)
            self._make_room()

    def get(self, token: str, holder: str | None) -> dict[str, Any] | None:
        with self.lock:
            entry = self.files.get(token)
            if entry is None:
                return None
            if holder is not None:
                self._hold(token, holder)
            return dict(entry)

    def hold(self, token: str, holder: str) -> None:
        with self.lock:
            if token in self.files:
                self._hold(token, holder)

    def let_go(self, token: str, holder: str, now: float) -> None:
        with self.lock:
            self._let_go(token, holder, now)

    def release(self, holder: str, now: float) -> None:
        """A session has ended: it holds nothing any more."""
        with self.lock:
            for token in [t for t, keys in self.holders.items() if holder in keys]:
                self._let_go(token, holder, now)

    def drop(self, token: str) -> None:
        with self.lock:
            self._drop(token)

    def purge(self, now: float, after: float) -> int:
        """Drop the entries no session has used for ``after`` seconds; their bytes."""
        with self.lock:
            gone = [t for t, since in self.unheld_since.items() if now - since >= after]
            size = sum(len(self.files.get(t, {}).get("content", b"")) for t in gone)
            for token in gone:
                self._drop(token)
            return size

    def next_purge(self, after: float) -> float | None:
        """When :meth:`purge` will next have something to drop (``None``: nothing waits)."""
        with self.lock:
            return min(self.unheld_since.values()) + after if self.unheld_since else None

    def size(self) -> int:
        """What the kept uploads cost (:func:`upload_cost`)."""
        return sum(_cost(e) for e in self.files.values())

    def _hold(self, token: str, holder: str) -> None:
        self.holders.setdefault(token, set()).add(holder)
        self.unheld_since.pop(token, None)

    def _let_go(self, token: str, holder: str, now: float) -> None:
        keys = self.holders.get(token)
        if keys is None or holder not in keys:
            return
        keys.discard(holder)
        if not keys:
            del self.holders[token]
            if token in self.files:
                self.unheld_since[token] = now

    def _drop(self, token: str) -> None:
        self.files.pop(token, None)
        self.holders.pop(token, None)
        self.unheld_since.pop(token, None)

    def _make_room(self) -> None:
        """Drop the oldest entries no session uses while they are more than
        :data:`MAX_FILES` or all entries cost more than :data:`BUDGET` (the newest one
        always stays)."""
        while True:
            free = [t for t in self.files if t not in self.holders]
            over = len(free) > MAX_FILES or (sum(_cost(e) for e in self.files.values()) > BUDGET)
            newest = next(reversed(self.files))
            victims = [t for t in free if t != newest]
            if not over or not victims:
                return
            self._drop(victims[0])


@st.cache_resource(show_spinner=False)
def _store() -> _Store:
    return _Store()


def release_after() -> float:
    """Seconds an upload stays after the last session using it has ended
    (:data:`KEEP_SECONDS`), and never less than Streamlit's own wait for a disconnected
    browser to come back (``server.disconnectedSessionTTL``), so a session that resumes, a
    reload or a student opening the link later still finds it."""
    try:
        ttl = float(st.get_option("server.disconnectedSessionTTL"))
    except Exception:  # an option this Streamlit does not have
        ttl = 120.0
    return max(KEEP_SECONDS, ttl)


class Mark:
    """Kept in the state of a session that had an upload (:func:`track_session`): it lives
    as long as Streamlit keeps the session, so the housekeeping knows when such a session,
    with the uploader's copy of the file, has really been freed."""


class _Session:
    """One browser session's hold on the store: released when the session ends."""

    def __init__(self, store: _Store) -> None:
        self.key = secrets.token_hex(8)
        self.store = store
        self.mark: weakref.ref[Mark] | None = None


def _session_ended(session: _Session) -> None:
    session.store.release(session.key, _housekeeping.clock())
    mark = session.mark() if session.mark is not None else None
    if mark is not None:
        _housekeeping.awaiting.add(mark)
    # Soon: Streamlit drops the sessions whose wait ran out when a browser disconnects, and
    # they are freed by the next full garbage collection (they hold reference cycles, and
    # the lab turns off Streamlit's collection after every run). Later: this session's
    # uploads, unless a session holds them again (the housekeeping comes back for them).
    if _housekeeping.awaiting or session.store.next_purge(release_after()) is not None:
        _housekeeping.schedule(session.store, 2.0)


class _Housekeeping:
    """One timer at a time that drops the uploads no session has held for
    :func:`release_after` seconds and, while an ended session that had an upload is not
    freed yet (``awaiting``: their marks) or when uploads were dropped, runs a full garbage
    collection and returns freed heap to the system; at most once every :attr:`MIN_GAP`
    seconds, however many sessions end (a full collection holds every session's script for
    a moment). Sessions without uploads never cause a collection."""

    MIN_GAP = 10.0

    def __init__(self, clock: Any = time.monotonic) -> None:
        self.lock = threading.Lock()
        self.clock = clock
        self.timer: Any = None
        self.timer_due = 0.0
        self.last_run = -float("inf")
        self.awaiting: weakref.WeakSet[Mark] = weakref.WeakSet()

    def schedule(self, store: _Store, delay: float) -> None:
        with self.lock:
            due = max(self.clock() + delay, self.last_run + self.MIN_GAP)
            if self.timer is not None:
                if self.timer_due <= due + 0.5:
                    return  # an earlier run comes, and comes back for what is left
                self.timer.cancel()
            self.timer_due = due
            self.timer = threading.Timer(max(0.0, due - self.clock()), self.run, args=(store,))
            self.timer.daemon = True
            self.timer.start()

    def run(self, store: _Store) -> None:
        with self.lock:
            self.timer = None
            self.last_run = self.clock()
        after = release_after()
        if store.purge(self.clock(), after) or self.awaiting:
            gc.collect()
            _return_freed_memory()
        waiting = store.next_purge(after)
        if waiting is not None:
            self.schedule(store, waiting - self.clock() + 0.5)


_housekeeping = _Housekeeping()


def _malloc_trim() -> Any:
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
    except (OSError, AttributeError):  # not glibc
        return None


_TRIM = _malloc_trim()


def _return_freed_memory() -> None:
    """Ask glibc to give freed heap pages back to the system (``malloc_trim``; nothing
    elsewhere): a parsed upload leaves many freed pieces under glibc's mmap threshold (up
    to 32 MB), which the heap would otherwise keep."""
    if _TRIM is not None:
        _TRIM(0)


@st.cache_resource(scope="session", on_release=_session_ended, show_spinner=False)
def _this_session() -> _Session:
    return _Session(_store())


def _holder() -> str | None:
    """The current browser session's key in the store (``None`` outside a session)."""
    try:
        return _this_session().key
    except Exception:  # no script run (the store used directly, as in tests)
        return None


def new_token() -> str:
    """A fresh random token for a session's upload."""
    return secrets.token_urlsafe(12)


def remember(token: str, entry: dict[str, Any]) -> None:
    """Keep ``entry`` (``name``, ``content``, ``digest``, ``choice``, ``cost``) under
    ``token``, held by the current session; whatever was under ``token`` before is dropped.
    Raises :class:`OverBudget` when it does not fit in :data:`BUDGET`."""
    _store().put(token, entry, _holder())


def forget(token: str) -> None:
    """Drop the entry kept under ``token`` (nothing happens when there is none)."""
    _store().drop(token)


def recall(token: str) -> dict[str, Any] | None:
    """The entry kept under ``token`` (``None`` when the server no longer has it); the
    current session now holds it."""
    if not TOKEN_PATTERN.match(str(token)):
        return None
    return _store().get(token, _holder())


def track_session(mark: Mark | None = None) -> None:
    """Note the current browser session, so that its end is seen (call on every run): its
    uploads are let go of and, if it had one (``mark``, kept in its state), it is
    collected once Streamlit drops it."""
    try:
        session = _this_session()
    except Exception:  # no script run
        return
    if mark is not None:
        session.mark = weakref.ref(mark)
        _housekeeping.awaiting.discard(mark)  # back (a resumed session)


def hold(token: str) -> None:
    """The current session uses the upload under ``token`` (again: a resumed session)."""
    holder = _holder()
    if holder is not None and TOKEN_PATTERN.match(str(token)):
        _store().hold(token, holder)


def let_go(token: str) -> None:
    """The current session no longer uses the upload under ``token``."""
    holder = _holder()
    if holder is not None:
        _store().let_go(token, holder, time.monotonic())
