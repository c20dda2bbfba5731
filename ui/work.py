"""Work that belongs to a session: a long fit stops when the browser that asked for it has
gone.

A fit runs in the script thread of the session that asked for it, and nothing in Python
can stop a thread inside numpy or a solver. So a fit predicted to take longer than
:data:`CHILD_SECONDS` (only a run started with its button: every run the lab starts by
itself is predicted under :data:`lab.budget.AUTO_RUN_SECONDS`) runs in a child process
instead (:func:`run_in_child`), while the script thread waits for it and checks every
:data:`POLL_SECONDS` that its session is still connected (Streamlit's
``Runtime.is_active_session``: false as soon as the browser's connection closes). When it
is not, the child is killed and :class:`Cancelled` is raised: nothing is cached, and a
session that comes back reruns the page and asks again.

A fit predicted at :data:`CHILD_SECONDS` or less is not stopped: it runs in the script
thread, finishes after its browser has gone, and its result is cached for the next session
that asks (Streamlit keeps a disconnected session, and lets its run end, for
``disconnectedSessionTTL``: 30 s in ``.streamlit/config.toml``). Those are the fits the lab
starts by itself, so at worst the rest of a fit that takes its predicted 10 s keeps a core
after the browser closed. Measured (bench/RESULTS.md): soft-label MVC on letter (predicted
9.5 s) and spectral clustering on spam (predicted 7.4 s) each left 0.08 server CPU-s of
work after a browser closed 0.3 s into opening Cluster with it.

At most :data:`MAX_CHILDREN` such fits run at once on a server (each is a Python process
with the lab imported: 0.23 GB at its peak for MSPC on breast); the others wait for a
slot, and give it up if their session ends while they wait. A child is a fresh interpreter
(never a fork of the threaded server, nor multiprocessing's spawn, which would re-run the
page) and ends with its fit: no process stays behind.
"""

from __future__ import annotations

import pickle
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = [
    "CHILD_SECONDS",
    "MAX_CHILDREN",
    "POLL_SECONDS",
    "Cancelled",
    "run_in_child",
    "session_alive",
]

#: A fit predicted above this many seconds runs in a child process that can be stopped.
CHILD_SECONDS = 10.0
#: How many such fits run at once on one server process.
MAX_CHILDREN = 1
#: How often the waiting script thread checks that its session is still there.
POLL_SECONDS = 0.25

_slots = threading.BoundedSemaphore(MAX_CHILDREN)
_ROOT = Path(__file__).resolve().parents[1]


class Cancelled(RuntimeError):
    """The session that asked for this work has ended; the work was stopped."""


def session_alive() -> Callable[[], bool]:
    """A check that the session running this script is still connected (always true
    outside a Streamlit server, e.g. in AppTest or a notebook)."""
    from streamlit.runtime import Runtime
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    if ctx is None or not Runtime.exists():
        return lambda: True
    runtime, session_id = Runtime.instance(), ctx.session_id
    return lambda: runtime.is_active_session(session_id)


def _child() -> None:
    """The child's side: read ``(fn, args, kwargs)`` pickled on stdin, write ``(True,
    result)`` or ``(False, exception)`` pickled on stdout."""
    import pickle
    import sys

    fn, args, kwargs = pickle.load(sys.stdin.buffer)
    try:
        out = (True, fn(*args, **kwargs))
    except Exception as err:  # the parent re-raises it
        out = (False, err)
    sys.stdout.buffer.write(pickle.dumps(out))
    sys.stdout.buffer.flush()


def run_in_child(
    fn: Callable[..., Any],
    *args: Any,
    alive: Callable[[], bool] | None = None,
    poll: float = POLL_SECONDS,
    **kwargs: Any,
) -> Any:
    """``fn(*args, **kwargs)`` in a child process (``fn`` importable, its arguments and
    result picklable); its result, or its exception raised here.

    ``alive`` (default :func:`session_alive`) is checked every ``poll`` seconds while
    waiting for a slot and for the result; once it is false the child is killed and
    :class:`Cancelled` is raised.
    """
    alive = session_alive() if alive is None else alive
    while not _slots.acquire(timeout=poll):
        if not alive():
            raise Cancelled("The session ended while its fit waited for a free slot.")
    try:
        request = pickle.dumps((fn, args, kwargs))
        # A fresh interpreter that imports only what ``fn`` needs (never a fork of the
        # threaded server, nor a re-run of the page the way multiprocessing's spawn would).
        code = f"import sys; sys.path.insert(0, {str(_ROOT)!r}); import ui.work as w; w._child()"
        child = subprocess.Popen(
            [sys.executable, "-c", code],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=_ROOT,
        )
        try:
            pending: bytes | None = request
            while True:
                try:
                    out, _ = child.communicate(pending, timeout=poll)
                    break
                except subprocess.TimeoutExpired:
                    pending = None  # the input was sent; communicate goes on reading
                    if not alive():
                        raise Cancelled("The session ended; its fit was stopped.") from None
            if child.returncode != 0 or not out:
                raise RuntimeError(
                    f"The fit's process ended without a result (exit code {child.returncode})."
                )
            ok, value = pickle.loads(out)
            if ok:
                return value
            raise value
        finally:
            if child.poll() is None:
                child.kill()
                child.wait(timeout=5)
    finally:
        _slots.release()
