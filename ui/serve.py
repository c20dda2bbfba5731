"""Serve the lab to a class: ``python -m ui.serve [options of streamlit run]``.

The same server as ``streamlit run app.py`` (same ``.streamlit/config.toml``, same options),
warmed before it accepts its first connection: the modules every page imports are loaded
and the Home demos computed into :mod:`ui.shared`. Without this the first students of a
class wait together for the imports (about 2 CPU-s, while the event loop serves nobody) and
the demos, all on one thread (bench/bench_class.py, "cold", bench/RESULTS.md).

Examples: ``python -m ui.serve`` (port 8501), ``python -m ui.serve --server.port 8502
--server.address 0.0.0.0``.
"""

from __future__ import annotations

import importlib
import logging
import sys
import time
from pathlib import Path

__all__ = ["WARM_MODULES", "main", "warm"]

ROOT = Path(__file__).resolve().parents[1]

#: What the pages import (a page's own code is compiled on its first run, in milliseconds).
WARM_MODULES = (
    "pandas",
    "pyarrow",
    "plotly.graph_objects",
    "streamlit",
    "clustering",
    "datasets",
    "lab.plots",
    "lab.experiments.protocols",
    "ui.alerts",
    "ui.analysis",
    "ui.cache",
    "ui.cluster",
    "ui.compare",
    "ui.demos",
    "ui.downloads",
    "ui.learn",
    "ui.presenter",
    "ui.reproduce",
    "ui.scaling",
    "ui.state",
    "ui.widgets",
)


def warm() -> float:
    """Import :data:`WARM_MODULES` and compute the Home demos (kept in :mod:`ui.shared`);
    the seconds it took. Nothing here needs a browser session."""
    start = time.perf_counter()
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from streamlit import logger

    # Not the "no runtime" warning of every st.cache_data call in bare mode; the server sets
    # its own level from the configuration when it starts.
    logger.set_log_level(logging.ERROR)
    try:
        for name in WARM_MODULES:
            importlib.import_module(name)
        from clustering._lam import effective_lam
        from ui import demos
        from ui.model import DEFAULT_LAM, DEFAULT_REGULARIZER

        # The demos at the λ and Λ a new session starts with (ui.demos.msp_scale's).
        scale = (effective_lam(DEFAULT_LAM, DEFAULT_REGULARIZER), DEFAULT_REGULARIZER)
        for story in (demos._afs_story, demos._breast_story, demos._tasks_story):
            story(*scale)
    finally:
        logger.set_log_level(logging.INFO)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> None:
    """Warm the lab, then run ``streamlit run app.py`` with ``argv`` in this process."""
    args = sys.argv[1:] if argv is None else list(argv)
    seconds = warm()
    print(f"Lab warmed in {seconds:.1f} s; starting the server.", flush=True)
    from streamlit.web import cli

    sys.argv = ["streamlit", "run", str(ROOT / "app.py"), *args]
    cli.main()


if __name__ == "__main__":
    main()
