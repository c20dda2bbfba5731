"""Helpers shared by the benchmark scripts: timing, peak memory, table printing."""

from __future__ import annotations

import platform
import time
import tracemalloc
from collections.abc import Callable

import numpy as np


def measure(fn: Callable[[], object], repeats: int = 1) -> tuple[float, float, object]:
    """Median wall time (s) over ``repeats``, peak traced memory (MiB) of one run, result."""
    times = []
    result = None
    for _ in range(repeats):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    tracemalloc.start()
    fn()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return float(np.median(times)), peak / 2**20, result


def machine() -> str:
    """One line describing the machine and the BLAS numpy uses."""
    import os

    try:
        from threadpoolctl import threadpool_info

        blas = ", ".join(f"{i['internal_api']} {i.get('version', '')}" for i in threadpool_info())
    except Exception:  # pragma: no cover - threadpoolctl is a scikit-learn dependency
        blas = "unknown BLAS"
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{cpu}; {os.cpu_count()} cores; numpy {np.__version__}; {blas}"


def print_table(headers: list[str], rows: list[list[object]]) -> None:
    """Print a markdown table."""
    cells = [[str(c) for c in row] for row in rows]
    widths = [max(len(h), *(len(r[i]) for r in cells)) for i, h in enumerate(headers)]
    print("| " + " | ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for r in cells:
        print("| " + " | ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) + " |")
