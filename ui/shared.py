"""What the whole class shares: results computed once per server process, that no client
can wipe.

A lecturer's server holds one copy of what every student's page shows alike (the Home
demos, a lesson's default results): :func:`shared` caches a function's result in this
process's memory, keyed by its arguments, computed once however many sessions ask at the
same moment (one lock per key; the others wait for it), and handed to every caller as the
same object, so a rerun costs a dictionary lookup, not a copy. Callers must not change what
they get. Each function keeps at most ``max_entries`` results (the least recently used is
dropped first), so the memory is bounded.

Streamlit's ``st.cache_data`` and ``st.cache_resource`` are emptied for everyone when any
client sends the clear-cache message (``BackMsg.clear_cache``, which needs no developer
menu: one websocket frame). This store is a plain module of the server, out of that
message's reach; and :func:`refuse_clear_cache` makes the server ignore the message
altogether, so one student cannot make the whole class's caches start again. A restart
empties everything.
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

__all__ = ["SharedCache", "clear_all", "figure", "freeze", "refuse_clear_cache", "shared"]

T = TypeVar("T")

_ALL: list[SharedCache] = []
_ALL_LOCK = threading.Lock()


class SharedCache:
    """A bounded, thread-safe memo of one function: ``key -> result``, computed once per key.

    Two sessions asking for a key no one has computed yet do not both compute it: the
    second waits on the key's lock and gets the first one's result. A call that raises
    stores nothing (the next caller tries again).
    """

    def __init__(self, name: str, max_entries: int) -> None:
        if max_entries < 1:
            raise ValueError(f"max_entries must be at least 1, got {max_entries}.")
        self.name = name
        self.max_entries = int(max_entries)
        self._values: OrderedDict[Hashable, Any] = OrderedDict()
        self._locks: dict[Hashable, threading.Lock] = {}
        self._lock = threading.Lock()
        self.computed = 0  # how many times the function ran (for tests and the bench)
        with _ALL_LOCK:
            _ALL.append(self)

    def get(self, key: Hashable, compute: Callable[[], T]) -> T:
        with self._lock:
            if key in self._values:
                self._values.move_to_end(key)
                return self._values[key]
            key_lock = self._locks.setdefault(key, threading.Lock())
        with key_lock:
            with self._lock:
                if key in self._values:
                    self._values.move_to_end(key)
                    return self._values[key]
            try:
                value = compute()
                self.computed += 1
            finally:
                with self._lock:
                    self._locks.pop(key, None)
            with self._lock:
                self._values[key] = value
                while len(self._values) > self.max_entries:
                    self._values.popitem(last=False)
            return value

    def __len__(self) -> int:
        return len(self._values)

    def clear(self) -> None:
        with self._lock:
            self._values.clear()


def shared(max_entries: int = 8) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """Decorator: the function's results shared by every session of this server process
    (see the module's docstring). Its arguments must be hashable; the wrapper has a
    ``shared_cache`` attribute (the :class:`SharedCache`)."""

    def decorate(fn: Callable[..., T]) -> Callable[..., T]:
        cache = SharedCache(f"{fn.__module__}.{fn.__qualname__}", max_entries)

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            key = (args, tuple(sorted(kwargs.items())))
            return cache.get(key, lambda: fn(*args, **kwargs))

        wrapper.shared_cache = cache  # type: ignore[attr-defined]
        return wrapper

    return decorate


def freeze(value: Any) -> Hashable:
    """A hashable key standing for ``value``: arrays by their shape, type and a hash of
    their bytes, data frames and series by pandas' hash of their rows; dataclasses, lists,
    tuples and mappings field by field; anything else as it is (it must be hashable).

    Examples
    --------
    >>> import numpy as np
    >>> freeze([np.zeros(3), {"b": 1, "a": (2,)}]) == freeze([np.zeros(3), {"a": (2,), "b": 1}])
    True
    >>> freeze(np.zeros(3)) == freeze(np.ones(3))
    False
    """
    import dataclasses
    import hashlib

    import numpy as np
    import pandas as pd

    if isinstance(value, np.ndarray):
        data = np.ascontiguousarray(value)
        digest = hashlib.blake2b(data.view(np.uint8).ravel(), digest_size=12).hexdigest()
        return ("ndarray", data.shape, data.dtype.str, digest)
    if isinstance(value, pd.DataFrame | pd.Series):
        rows = pd.util.hash_pandas_object(value, index=True).to_numpy()
        columns = tuple(value.columns) if isinstance(value, pd.DataFrame) else value.name
        digest = hashlib.blake2b(rows.tobytes(), digest_size=12).hexdigest()
        return (type(value).__name__, columns, tuple(map(str, np.atleast_1d(value.dtypes))), digest)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = dataclasses.fields(value)
        return (type(value).__qualname__, tuple(freeze(getattr(value, f.name)) for f in fields))
    if isinstance(value, list | tuple):
        return (type(value).__name__, tuple(freeze(v) for v in value))
    if isinstance(value, dict):
        return ("dict", tuple(sorted((k, freeze(v)) for k, v in value.items())))
    hash(value)  # a clear TypeError for what cannot key a cache
    return value


#: Figures built for the whole class (:func:`figure`): a few dozen per page and setting.
_FIGURES = SharedCache("ui.shared.figure", max_entries=256)


def figure(build: Callable[..., Any], *args: Any, **kwargs: Any):
    """``build(*args, **kwargs)`` (a :mod:`lab.plots` function returning a ``go.Figure``)
    as a :class:`ui.chart.SharedChart`: built and turned into the JSON the page sends once
    per server for these inputs (keyed by :func:`freeze` of them), then handed to every
    session that shows the same figure. Draw it with :func:`ui.presenter.chart`."""
    from .chart import SharedChart

    key = (f"{build.__module__}.{build.__qualname__}", freeze(args), freeze(kwargs))
    return _FIGURES.get(key, lambda: SharedChart.of(build(*args, **kwargs)))


def clear_all() -> None:
    """Empty every shared cache of this process (for tests; no client can call this)."""
    with _ALL_LOCK:
        caches = list(_ALL)
    for cache in caches:
        cache.clear()


def _ignore_clear_cache(self) -> None:
    """In place of Streamlit's ``AppSession._handle_clear_cache_request``: one client does
    not empty the caches every other session relies on. Nothing is cleared."""


def refuse_clear_cache() -> bool:
    """Make this server ignore the clear-cache message of every client (Streamlit's
    handler empties ``st.cache_data`` and ``st.cache_resource`` for all sessions). Returns
    whether the handler was found and replaced (``False`` on a Streamlit without it: the
    shared results of :func:`shared` are out of its reach either way)."""
    from streamlit.runtime import app_session

    cls = getattr(app_session, "AppSession", None)
    if cls is None or not hasattr(cls, "_handle_clear_cache_request"):
        return False
    if cls._handle_clear_cache_request is not _ignore_clear_cache:
        cls._handle_clear_cache_request = _ignore_clear_cache
    return True
