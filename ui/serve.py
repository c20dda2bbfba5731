"""Serve the lab to a class: ``python -m ui.serve [options of streamlit run]``.

The same server as ``streamlit run app.py`` (same ``.streamlit/config.toml``, same options),
warmed before it accepts its first connection: the modules every page imports are loaded,
and what a whole class opens alike is computed once, by walking the app as a student does
(:func:`lesson_walks`: Home and each demo's button at the default λ and one slider step
either side, every Lecture step) in Streamlit's AppTest, in this process, so the results
(:mod:`ui.shared`, ``st.cache_data``, the shared figures) are there for the server. Without
this the first students of a class wait together for the imports (about 2 CPU-s, while the
event loop serves nobody) and for the demos, all on one thread (bench/bench_class.py,
"cold", bench/RESULTS.md).

Examples: ``python -m ui.serve`` (port 8501), ``python -m ui.serve --server.port 8502
--server.address 0.0.0.0``.
"""

from __future__ import annotations

import importlib
import logging
import sys
import time
from pathlib import Path

__all__ = ["DEMO_BUTTONS", "LAM_STEPS", "WARM_MODULES", "lesson_walks", "main", "walk", "warm"]

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


#: How many steps of the λ slider either side of the default the warm start also walks Home
#: and its demos' pages at: a lecturer's "move λ one step" is then computed for the class too
#: (Home's demos and every page they open use the lab's one λ).
LAM_STEPS = 1
#: The longest a page of the walk may run in the warm start (seconds; the longest measured,
#: MSP vs accuracy across the paper's 67 tasks, takes about 11 s alone, most of it in the
#: held-out MSP's no-structure reference fits).
WALK_TIMEOUT = 300


def lesson_walks() -> list[tuple[str, dict[str, str], str | None, str | None]]:
    """What every student of a class opens alike, as ``(name, link query, page, button)``
    walks of the app: Home and each of its demos' buttons at the λ a new session starts
    with and :data:`LAM_STEPS` slider steps either side (``lam`` in the link), then every
    step of the Lecture (its link, on its page)."""
    from ui.lecture import STEPS
    from ui.model import DEFAULT_LAM, lam_grid

    grid = lam_grid()
    at = grid.index(DEFAULT_LAM)
    lams = [DEFAULT_LAM] + [
        grid[i] for i in range(at - LAM_STEPS, at + LAM_STEPS + 1) if 0 <= i < len(grid) and i != at
    ]
    walks = []
    for lam in lams:
        query = {} if lam == DEFAULT_LAM else {"lam": f"{lam:g}"}
        walks.append((f"Home at λ = {lam:g}", query, None, None))
        for button in DEMO_BUTTONS:
            walks.append((f"{button} at λ = {lam:g}", query, None, button))
    for number, step in enumerate(STEPS, start=1):
        walks.append((f"Lecture step {number}", step.query(number), step.page, None))
    return walks


#: Home's demos' buttons (app.py), each opening the page its demo continues on.
DEMO_BUTTONS = ("demo.afs", "demo.breast", "demo.tasks")


def walk(query: dict[str, str], page: str | None, button: str | None) -> list[str]:
    """Run the app once as a new student does, in Streamlit's AppTest (no browser, no
    server): ``app.py`` opened with ``query`` in its link, then ``page`` opened or
    ``button`` pressed. What it computes stays in this process's caches (:mod:`ui.shared`,
    ``st.cache_data``) for the server that starts next. The exceptions shown, if any."""
    from streamlit.testing.v1 import AppTest

    from ui import state

    at = state.give_link(
        AppTest.from_file(str(ROOT / "app.py"), default_timeout=WALK_TIMEOUT), query
    )
    at.run()
    if page is not None:
        at.switch_page(page).run()
    if button is not None:
        at.button(key=button).click().run()
    return [e.message for e in at.exception]


def warm(walks=None) -> float:
    """Import :data:`WARM_MODULES` and walk :func:`lesson_walks` (Home, its demos' pages,
    the Lecture's steps), so that what they compute is in this process's shared caches
    before the first student arrives; the seconds it took. A walk that fails is reported
    on stderr and does not stop the server from starting (its page computes on first
    visit instead)."""
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
        for name, query, page, button in lesson_walks() if walks is None else walks:
            try:
                problems = walk(query, page, button)
            except Exception as err:  # the server starts anyway
                problems = [f"{type(err).__name__}: {err}"]
            for problem in problems:
                print(f"Warm start, {name}: {problem}", file=sys.stderr, flush=True)
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
