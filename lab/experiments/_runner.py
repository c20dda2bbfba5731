"""Run cells in parallel with an on-disk cache, so an interrupted sweep resumes.

Each finished cell is written to ``<cache_dir>/<cell.key>.json`` as soon as its result
reaches the parent process (atomically: a temporary file then a rename), so stopping a run
at any moment loses at most the cells that were being computed. A rerun reads the cached
cells and computes only the others.

A cell file holds ``{"schema": 2, "key", "cell", "result", "checksum"}``, the checksum being
the SHA-256 of the result's canonical JSON. A file that is not a regular file (a directory, a
FIFO, a symbolic link, a device), is larger than :data:`MAX_CELL_BYTES`, is not valid JSON,
is truncated, has the wrong shape or key, has no checksum or a wrong one, holds a value
outside its range (a score or MSP outside [0, 1] or not finite, a negative time) or says
"skipped" for a cell that can run is never used: the cell is recomputed and a warning goes to
the run log (the ``lab.experiments`` logger). A cell whose path is taken by a directory is
computed and not cached, with a warning.

What the checksum protects against: a cell file damaged by accident (a truncated write, a
disk or copy error, a hand edit of the result that forgot the checksum). It has no key, so
it does not protect against someone who edits a result and recomputes the checksum: such a
cell is accepted as long as its values are in range. The cache folder is trusted as the
rest of the checkout is; do not fill it with cells from someone you do not trust.

Interrupting a run (Ctrl-C, SIGTERM) stops the loky workers before :class:`RunInterrupted`
is raised, and each worker also watches its parent and exits within a second if the parent
dies (SIGKILL), so no orphan keeps computing.

Parallelism is joblib's: ``backend="loky"`` (processes on this machine) or
``backend="dask"`` (joblib's Dask backend, on the cluster at ``scheduler`` or on a
``LocalCluster`` started on 127.0.0.1 for the run).
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import os
import signal
import stat
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol

import joblib

from lab.experiments import _cells
from lab.experiments._cells import Cell

__all__ = [
    "BACKENDS",
    "CELL_SCHEMA",
    "Progress",
    "RunInterrupted",
    "TerminalProgress",
    "load_cached",
    "run_cells",
]

BACKENDS = ("loky", "dask", "sequential")

#: Version of the cell file layout (1: no checksum; 2: with ``schema`` and ``checksum``).
CELL_SCHEMA = 2

#: Largest cell file read (a cell's result is a few kB; its labels at most a few MB).
MAX_CELL_BYTES = 64_000_000

#: The run log: a warning per cached cell that is rejected and recomputed.
log = logging.getLogger("lab.experiments")

_STATUSES = ("ok", "failed", "skipped")
# Result fields that are fractions in [0, 1] (or None) and times that are >= 0.
_UNIT_FIELDS = ("accuracy", "nmi", "rand", "f_measure")
_TIME_FIELDS = ("seconds", "time_median")


class RunInterrupted(KeyboardInterrupt):
    """A run was stopped (Ctrl-C or SIGTERM); the finished cells are kept in the cache.

    Attributes
    ----------
    done, total : int
        Cells with a result (cached or computed) and cells in the run.
    cache_dir : Path
    """

    def __init__(self, done: int, total: int, cache_dir: Path):
        super().__init__(done, total, str(cache_dir))
        self.done, self.total, self.cache_dir = done, total, Path(cache_dir)

    def summary(self) -> str:
        """One line saying what was kept and how to resume."""
        return (
            f"interrupted: {self.done} of {self.total} cells are kept in {self.cache_dir}; "
            "run the same command again to compute only the rest."
        )


class Progress(Protocol):
    """Called after every finished cell: ``progress(done, total, message)``."""

    def __call__(self, done: int, total: int, message: str) -> None: ...


def _fmt_seconds(seconds: float) -> str:
    seconds = round(seconds)
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m:02d}:{s:02d}"


class TerminalProgress:
    """A one-line text progress bar on a stream (``stderr`` by default).

    On a terminal the line is redrawn in place; otherwise (a log file) a line is printed at
    most every ``interval`` seconds and at the end.
    """

    def __init__(self, label: str = "", stream=None, width: int = 30, interval: float = 10.0):
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.width = width
        self.interval = interval
        self.start = time.monotonic()
        self._last = 0.0
        self._tty = bool(getattr(self.stream, "isatty", lambda: False)())

    def __call__(self, done: int, total: int, message: str = "") -> None:
        now = time.monotonic()
        final = done >= total
        if not self._tty and not final and now - self._last < self.interval:
            return
        self._last = now
        frac = done / total if total else 1.0
        filled = round(self.width * frac)
        elapsed = now - self.start
        eta = f", ~{_fmt_seconds(elapsed / frac - elapsed)} left" if 0 < frac < 1 else ""
        line = (
            f"{self.label} [{'#' * filled}{'.' * (self.width - filled)}] {done}/{total} "
            f"{_fmt_seconds(elapsed)}{eta} {message}"
        )
        if self._tty:
            self.stream.write("\r" + line[:150].ljust(150) + ("\n" if final else ""))
        else:
            self.stream.write(line + "\n")
        self.stream.flush()


def _cache_path(cache_dir: Path, cell: Cell) -> Path:
    return cache_dir / f"{cell.key}.json"


def checksum(result: Any) -> str:
    """SHA-256 of the canonical JSON of a cell result (what a cell file stores)."""
    text = json.dumps(result, sort_keys=True, default=repr, allow_nan=True)
    return hashlib.sha256(text.encode()).hexdigest()


def _result_problem(result: Any) -> str | None:
    """Why ``result`` is not a plausible cell result, or ``None``."""
    if not isinstance(result, dict):
        return f"the result is a {type(result).__name__}, not an object"
    status = result.get("status")
    if status not in _STATUSES:
        return f"the result has no valid status (got {status!r})"
    if status != "ok":
        error = result.get("error")
        return None if error is None or isinstance(error, str) else "the error is not text"
    for name in _UNIT_FIELDS:
        if name not in result:
            return f"the result has no {name!r}"
    for name in (*_UNIT_FIELDS, *_TIME_FIELDS, "msp", "msp_own", "msp_heldout"):
        value = result.get(name)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return f"{name} is {value!r}, not a number"
        if name.startswith("msp") and math.isnan(value):
            continue  # an MSP the labeling does not define (one cluster)
        if not math.isfinite(value):
            return f"{name} is {value!r}"
        if (name in _UNIT_FIELDS or name.startswith("msp")) and not 0.0 <= value <= 1.0:
            return f"{name} = {value!r} is outside [0, 1]"
        if name in _TIME_FIELDS and value < 0:
            return f"{name} = {value!r} is negative"
    return None


def _read_cell_file(path: Path, cell: Cell) -> tuple[dict[str, Any] | None, str | None, bool]:
    """``(result, problem, needs_rewrite)`` of the cache file of ``cell``."""
    try:
        info = path.lstat()
    except FileNotFoundError:
        return None, None, False
    except OSError as exc:
        return None, f"unreadable ({type(exc).__name__})", False
    if not stat.S_ISREG(info.st_mode):
        return None, f"is {_file_kind(info.st_mode)}, not a regular file", False
    if info.st_size > MAX_CELL_BYTES:
        return None, f"is {info.st_size:,} bytes, more than a cell can hold", False
    try:
        # O_NOFOLLOW and O_NONBLOCK: a file swapped for a link or a FIFO since the check
        # fails or returns at once instead of hanging.
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        with os.fdopen(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                return None, "is not a regular file", False
            text = handle.read(MAX_CELL_BYTES + 1).decode("utf-8")
    except FileNotFoundError:
        return None, None, False
    except (OSError, UnicodeDecodeError) as exc:
        return None, f"unreadable ({type(exc).__name__})", False
    try:
        data = json.loads(text)
    except ValueError:
        return None, "not valid JSON (truncated?)", False
    if not isinstance(data, dict):
        return None, f"holds a JSON {type(data).__name__}, not an object", False
    if data.get("key") != cell.key:
        return None, f"belongs to another cell (key {data.get('key')!r})", False
    result = data.get("result")
    problem = _result_problem(result)
    if problem:
        return None, problem, False
    if "checksum" not in data:
        return None, "it has no checksum", False
    if data.get("checksum") != checksum(result):
        return None, "its checksum does not match its result (edited?)", False
    if result.get("status") == "skipped":
        try:
            reason = _cells.skip_reason(cell)
        except Exception:  # the task cannot be loaded: nothing confirms the skip
            reason = None
        if reason is None:
            return None, "it says 'skipped' but the cell can run", False
    return result, None, False


def _file_kind(mode: int) -> str:
    kinds = (
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISLNK, "a symbolic link"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISCHR, "a device"),
        (stat.S_ISBLK, "a device"),
    )
    return next((name for test, name in kinds if test(mode)), "a special file")


def load_cached(cache_dir: Path, cell: Cell) -> dict[str, Any] | None:
    """The cached result of ``cell``, or ``None`` (missing, unreadable or rejected file).

    A rejected file is reported on the run log with the reason.
    """
    path = _cache_path(Path(cache_dir), cell)
    result, problem, rewrite = _read_cell_file(path, cell)
    if problem:
        log.warning("cached cell %s is not used and will be recomputed: %s", path.name, problem)
        return None
    if rewrite and result is not None:
        try:
            _store(Path(cache_dir), cell, result)
        except OSError:
            pass
    return result


def _store(cache_dir: Path, cell: Cell, result: dict[str, Any]) -> None:
    cache_dir.mkdir(parents=True, exist_ok=True)
    payload = json.dumps(
        {
            "schema": CELL_SCHEMA,
            "key": cell.key,
            "cell": cell.to_json(),
            "result": result,
            "checksum": checksum(result),
        },
        default=repr,
    )
    path = _cache_path(cache_dir, cell)
    if path.is_dir() and not path.is_symlink():
        log.warning("cell %s is not cached: its path is taken by a directory", path.name)
        return
    fd, tmp = tempfile.mkstemp(dir=cache_dir, prefix=".tmp-", suffix=".json")
    try:
        with os.fdopen(fd, "w") as handle:
            handle.write(payload)
        os.replace(tmp, path)  # replaces a link or a FIFO itself, never what it points to
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


_watchdog_started = False


def _watch_parent(parent_pid: int | None, interval: float = 0.5) -> None:
    """In a loky worker process: exit as soon as ``parent_pid`` is no longer the parent.

    ``None`` (Dask workers, whose parent is a nanny or another machine) watches nothing.
    """
    global _watchdog_started
    if parent_pid is None or _watchdog_started or os.getpid() == parent_pid:
        return
    _watchdog_started = True

    def watch() -> None:
        while True:
            if os.getppid() != parent_pid:
                os._exit(1)
            time.sleep(interval)

    threading.Thread(target=watch, name="parent-watchdog", daemon=True).start()


def _execute(cell: Cell, parent_pid: int | None, compute=None) -> tuple[str, dict[str, Any]]:
    _watch_parent(parent_pid)
    # Looked up at call time so that tests can replace the cell function.
    return cell.key, (compute or _cells.compute_cell)(cell)


@contextmanager
def _dask_backend(scheduler: str | None, n_jobs: int):
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise RuntimeError(
            "--backend dask needs Dask's distributed scheduler, which is not installed. "
            "Install it with: pip install 'dask[distributed]' (it is in requirements-dev.txt), "
            "or use --backend loky."
        ) from None

    cluster = None
    if scheduler:
        client = Client(scheduler)
    else:
        cluster = LocalCluster(
            n_workers=max(1, n_jobs),
            threads_per_worker=1,
            host="127.0.0.1",
            dashboard_address=None,
        )
        client = Client(cluster)
    try:
        with joblib.parallel_config(backend="dask"):
            yield
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def run_cells(
    cells: Sequence[Cell],
    cache_dir,
    *,
    n_jobs: int = 1,
    backend: str = "loky",
    scheduler: str | None = None,
    progress: Progress | Callable[[int, int, str], None] | None = None,
    retry_failed: bool = False,
    compute: Callable[[Cell], dict[str, Any]] | None = None,
) -> list[tuple[Cell, dict[str, Any]]]:
    """Compute every cell not already cached, caching each result as it arrives.

    Parameters
    ----------
    cells : sequence of Cell
    cache_dir : path-like
        Directory of the per-cell JSON files (created if needed).
    n_jobs : int, default=1
        Parallel workers (``1`` computes in this process, in order).
    backend : {"loky", "dask", "sequential"}, default="loky"
        ``"dask"`` uses joblib's Dask backend on ``scheduler``, or on a ``LocalCluster``
        with ``n_jobs`` single-threaded workers on 127.0.0.1 when ``scheduler`` is ``None``.
    scheduler : str, optional
        Address of a running Dask scheduler (``tcp://host:8786``).
    progress : callable, optional
        ``progress(done, total, message)`` after the cache is read and after every cell.
    retry_failed : bool, default=False
        Recompute cells whose cached result is ``"failed"``.
    compute : callable, optional
        ``compute(cell) -> dict``, a module-level function (default
        :func:`~lab.experiments._cells.compute_cell`).

    Returns
    -------
    list of (Cell, dict)
        Every cell with its result, in the order of ``cells``.

    Raises
    ------
    RunInterrupted
        On Ctrl-C or SIGTERM, after the workers are stopped; every finished cell is cached.
    """
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(BACKENDS)}; got {backend!r}.")
    cache_dir = Path(cache_dir)
    unique: dict[str, Cell] = {}
    for cell in cells:
        unique.setdefault(cell.key, cell)
    results: dict[str, dict[str, Any]] = {}
    pending: list[Cell] = []
    for key, cell in unique.items():
        cached = load_cached(cache_dir, cell)
        if cached is not None and not (retry_failed and cached.get("status") == "failed"):
            results[key] = cached
        else:
            pending.append(cell)
    total = len(unique)
    done = len(results)
    report = progress or (lambda *_: None)
    report(done, total, f"({done} cached)" if done else "")
    if pending:
        stop = _StopRequest()
        try:
            with _signals_stop_run(stop, backend):
                for key, result in _iterate(pending, n_jobs, backend, scheduler, compute):
                    _store(cache_dir, unique[key], result)
                    results[key] = result
                    done += 1
                    cell = unique[key]
                    report(done, total, f"{cell.method} on {cell.task}")
                    if stop.signum is not None:
                        raise _Terminated
        except KeyboardInterrupt as exc:
            _stop_workers(backend)
            if isinstance(exc, RunInterrupted):
                raise
            raise RunInterrupted(done, total, cache_dir) from None
        except Exception:
            if stop.signum is None:
                raise
            # The signal handler killed the workers, so joblib ended its wait with an
            # error (TerminatedWorkerError): the run was stopped, not broken.
            _stop_workers(backend)
            raise RunInterrupted(done, total, cache_dir) from None
    return [(cell, results[cell.key]) for cell in cells]


class _Terminated(KeyboardInterrupt):
    pass


class _StopRequest:
    """The signal that asked a run to stop (``None``: none yet)."""

    signum: int | None = None


@contextmanager
def _signals_stop_run(stop: _StopRequest, backend: str):
    """Within the block, Ctrl-C (SIGINT) and SIGTERM stop the run (main thread only).

    With loky workers running, the handler records the signal and kills the workers instead
    of raising: an exception raised at an arbitrary point of the main thread can land inside
    joblib's or loky's waits and locks and leave them stuck (a Ctrl-C of a run whose cells
    were busy then hung, rarely, in full test runs). With the workers dead, joblib's
    own wait ends with an error at a defined point, which :func:`run_cells` turns into
    :class:`RunInterrupted`. Without workers (sequential runs, Dask) the handler raises
    :class:`KeyboardInterrupt` as Python's default does.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum, frame):
        stop.signum = signum
        if backend == "loky" and _kill_loky_workers():
            return
        raise _Terminated

    previous = {sig: signal.signal(sig, handler) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


def _kill_loky_workers() -> bool:
    """SIGKILL the worker processes of joblib's loky executor; False if there are none.

    Safe in a signal handler: it reads the executor's table of processes and calls
    ``os.kill``, taking no lock.
    """
    try:
        from joblib.externals.loky import reusable_executor
    except ImportError:  # pragma: no cover - joblib without loky
        return False
    executor = getattr(reusable_executor, "_executor", None)
    processes = dict(getattr(executor, "_processes", None) or {})
    killed = False
    for pid in processes:
        try:
            os.kill(pid, signal.SIGKILL)
            killed = True
        except (ProcessLookupError, PermissionError):
            pass
    return killed


def _stop_workers(backend: str) -> None:
    """Kill the loky worker processes (they would otherwise finish their current cells)."""
    if backend != "loky":
        return
    try:
        from joblib.externals.loky import reusable_executor
    except ImportError:  # pragma: no cover - joblib without loky
        return
    # The executor joblib ran the cells on, read without get_reusable_executor(): called
    # with other arguments than joblib's, that function replaces the executor and first
    # shuts the old one down with wait=True, i.e. after its running cells finish (a Ctrl-C
    # then hung for as long as a cell runs; seen once in a CI run of the SIGINT test), and
    # after joblib's own abort it would start new workers only to kill them.
    executor = getattr(reusable_executor, "_executor", None)
    if executor is None:
        return
    try:
        executor.shutdown(wait=False, kill_workers=True)
    except Exception:  # pragma: no cover - best effort while stopping
        pass


def _iterate(
    pending: Sequence[Cell], n_jobs: int, backend: str, scheduler: str | None, compute=None
) -> Iterable[tuple[str, dict[str, Any]]]:
    parent = os.getpid() if backend == "loky" else None
    if backend == "sequential" or (backend == "loky" and n_jobs == 1):
        for cell in pending:
            yield _execute(cell, parent, compute)
        return
    tasks = (joblib.delayed(_execute)(cell, parent, compute) for cell in pending)
    if backend == "dask":
        with _dask_backend(scheduler, n_jobs):
            yield from joblib.Parallel(n_jobs=-1, return_as="generator_unordered")(tasks)
        return
    # max_nbytes=None: cells carry no large arrays, and without a memory-mapped temporary
    # folder an interrupted run leaves nothing for loky's resource tracker to clean up.
    yield from joblib.Parallel(
        n_jobs=n_jobs,
        backend="loky",
        return_as="generator_unordered",
        batch_size=1,
        max_nbytes=None,
    )(tasks)
