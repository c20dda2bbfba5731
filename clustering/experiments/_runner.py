"""Run cells in parallel with an on-disk cache, so an interrupted sweep resumes.

Each finished cell is written to ``<cache_dir>/<cell.key>.json`` as soon as its result
reaches the parent process (atomically: a temporary file then a rename), so stopping a run
at any moment loses at most the cells that were being computed. A rerun reads the cached
cells and computes only the others.

Parallelism is joblib's: ``backend="loky"`` (processes on this machine) or
``backend="dask"`` (joblib's Dask backend, on the cluster at ``scheduler`` or on a
``LocalCluster`` started on 127.0.0.1 for the run).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol

import joblib

from . import _cells
from ._cells import Cell

__all__ = ["BACKENDS", "Progress", "TerminalProgress", "load_cached", "run_cells"]

BACKENDS = ("loky", "dask", "sequential")


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


def load_cached(cache_dir: Path, cell: Cell) -> dict[str, Any] | None:
    """The cached result of ``cell``, or ``None`` (missing or unreadable file)."""
    path = _cache_path(Path(cache_dir), cell)
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    if data.get("key") != cell.key:
        return None
    return data.get("result")


def _store(cache_dir: Path, cell: Cell, result: dict[str, Any]) -> None:
    cache_dir.mkdir(parents=True, exist_ok=True)
    payload = json.dumps({"key": cell.key, "cell": cell.to_json(), "result": result}, default=repr)
    fd, tmp = tempfile.mkstemp(dir=cache_dir, prefix=".tmp-", suffix=".json")
    try:
        with os.fdopen(fd, "w") as handle:
            handle.write(payload)
        os.replace(tmp, _cache_path(cache_dir, cell))
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _execute(cell: Cell) -> tuple[str, dict[str, Any]]:
    # Looked up at call time so that tests can replace the cell function.
    return cell.key, _cells.compute_cell(cell)


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

    Returns
    -------
    list of (Cell, dict)
        Every cell with its result, in the order of ``cells``.
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
        for key, result in _iterate(pending, n_jobs, backend, scheduler):
            _store(cache_dir, unique[key], result)
            results[key] = result
            done += 1
            cell = unique[key]
            report(done, total, f"{cell.method} on {cell.task}")
    return [(cell, results[cell.key]) for cell in cells]


def _iterate(
    pending: Sequence[Cell], n_jobs: int, backend: str, scheduler: str | None
) -> Iterable[tuple[str, dict[str, Any]]]:
    if backend == "sequential" or (backend == "loky" and n_jobs == 1):
        for cell in pending:
            yield _execute(cell)
        return
    tasks = (joblib.delayed(_execute)(cell) for cell in pending)
    if backend == "dask":
        with _dask_backend(scheduler, n_jobs):
            yield from joblib.Parallel(n_jobs=-1, return_as="generator_unordered")(tasks)
        return
    yield from joblib.Parallel(
        n_jobs=n_jobs, backend="loky", return_as="generator_unordered", batch_size=1
    )(tasks)
