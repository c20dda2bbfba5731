"""Presenter mode's slide export: how long each page's "Prepare slides" takes.

Each page is run once in presenter mode (``present=1``, Streamlit's AppTest, the default
data and two methods) to collect the figures the button would export; then
:func:`lab.export.export_figures` renders them as PNG and SVG, two ways, alternating:
``keep=False`` (a browser started for the export, as the button did) and ``keep=True``
(the browser kept open between exports, as the button does now; warmed by one export
first). Prints a table per page (medians over ``--repeats``) and the totals, and the cost
of one browser start on its own (an export of one tiny figure, cold minus warm).

    python -m bench.bench_export [--repeats 3] [--only Cluster,Learn]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench._common import machine, print_table  # noqa: E402

#: Every page of the app (the home page is app.py) with presenter mode on.
PAGES = {
    "Home": None,
    "Data": "pages/1_Data.py",
    "Cluster": "pages/2_Cluster.py",
    "Feature scaling": "pages/3_Feature_scaling.py",
    "MSP vs accuracy": "pages/4_MSP_vs_accuracy.py",
    "Learn": "pages/5_Learn.py",
    "Reproduce": "pages/6_Reproduce.py",
    "Compare": "pages/7_Compare.py",
}


def page_figures(page: str | None) -> list:
    """The ``(name, figure)`` pairs presenter mode records on ``page`` (a first visit)."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=600)
    at.query_params["present"] = "1"
    at.query_params["algos"] = "mspc-mpm,kmeans"
    at.run()
    if page is not None:
        at.switch_page(page)
        at.run()
    if at.exception:
        raise RuntimeError(f"{page}: {[e.message for e in at.exception]}")
    return list(at.session_state["presenter.figures"])


def _timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> None:
    """Time presenter mode's slide export on every page, with a browser started per export and
    with one kept open; print the medians."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--only", default="", help="comma-separated page names")
    args = parser.parse_args(argv)

    import plotly.graph_objects as go

    from lab.export import export_figures

    only = {p.strip() for p in args.only.split(",") if p.strip()}
    print(machine())
    tiny = [go.Figure(go.Scatter(x=[0, 1], y=[0, 1]))]
    export_figures(tiny, keep=True)  # warm the kept browser
    cold = statistics.median(_timed(lambda: export_figures(tiny)) for _ in range(args.repeats))
    warm = statistics.median(
        _timed(lambda: export_figures(tiny, keep=True)) for _ in range(args.repeats)
    )
    print(f"one tiny figure (PNG + SVG): {cold:.2f} s with a browser start, {warm:.2f} s kept")
    print(f"one browser start: about {cold - warm:.2f} s\n")

    rows, totals, n_total = [], [0.0, 0.0], 0
    for name, path in PAGES.items():
        if only and name not in only:
            continue
        figures = [f for _, f in page_figures(path)]
        if not figures:
            rows.append([name, 0, "-", "-", "-", "-"])
            continue
        started, kept = [], []
        for _ in range(args.repeats):  # alternating, so the load of the machine hits both
            started.append(_timed(lambda figures=figures: export_figures(figures)))
            kept.append(_timed(lambda figures=figures: export_figures(figures, keep=True)))
        a, b = statistics.median(started), statistics.median(kept)
        rows.append(
            [name, len(figures), f"{a:.2f}", f"{b:.2f}", f"{b / len(figures):.2f}", f"{b / a:.2f}"]
        )
        totals[0] += a
        totals[1] += b
        n_total += len(figures)
    headers = [
        "page",
        "figures",
        "browser started s",
        "browser kept s",
        "kept s per figure",
        "ratio",
    ]
    print_table(headers, rows)
    print(
        f"\nall pages: {n_total} figures, {totals[0]:.2f} s with a browser start per export, "
        f"{totals[1]:.2f} s with the browser kept"
    )


if __name__ == "__main__":
    main()
