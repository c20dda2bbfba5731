"""Server time of the Cluster page from a slider change to the new figures (target 300 ms).

Two measurements, for MSPC (MPM) at N <= 5000, d <= 60:

1. The figure path, function by function: the cached fit lookup (``ui.cache.fit`` on a
   hit), the cached projection, building the scatter / margin histogram / objective figures
   and serialising them to JSON as ``st.plotly_chart`` does. Also the cold fit, for
   reference (a new ``lam`` value pays it once; the page then shows a spinner).
2. A whole page rerun with ``AppTest`` on the ``spam`` task (4601 x 57): move the ``lam``
   slider to a value already computed and time ``at.run()`` — script execution, widgets,
   cached fits, projections, figures and the metrics table.

Run: ``python bench/bench_app.py`` (``--quick`` for a smaller grid).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import logging  # noqa: E402

logging.getLogger("streamlit").setLevel(logging.ERROR)

from lab import plots  # noqa: E402
from ui import cache  # noqa: E402
from ui.state import fingerprint  # noqa: E402

TARGET_MS = 300.0


def _data(n: int, d: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    X = rng.normal(size=(n, d))
    X[:, : max(1, d // 4)] += 3.0 * y[:, None]
    X *= rng.uniform(0.1, 10.0, d)  # features in different units
    return X, y


def _median_ms(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(1000 * (time.perf_counter() - start))
    return statistics.median(times)


def figure_path(n: int, d: int, repeats: int) -> dict[str, float]:
    """Milliseconds of the Cluster page's path for an ``n`` x ``d`` data set: the cold fit,
    and the medians of the cached fit and of the fit with its view, three figures and JSON."""
    X, y = _data(n, d)
    fp = fingerprint(X, y)
    params = {"lam": 1.0, "regularizer": "diag", "init": "kmeans", "random_state": 0}
    start = time.perf_counter()
    result = cache.fit(
        "mspc-mpm", params, fp, X, y, msp_lam=1.0, msp_regularizer="diag", clicked=True
    )
    cold = 1000 * (time.perf_counter() - start)
    assert result.ok, result.error
    names = tuple(f"x{j}" for j in range(d))

    def lookup():
        cache.fit("mspc-mpm", params, fp, X, y, msp_lam=1.0, msp_regularizer="diag", clicked=True)

    def figures():
        r = cache.fit(
            "mspc-mpm", params, fp, X, y, msp_lam=1.0, msp_regularizer="diag", clicked=True
        )
        proj = cache.projection("discriminant", fp, X, r.w, r.b, names)
        figs = [
            plots.cluster_scatter(proj, r.labels, y, ("a", "b"), title="t"),
            plots.margin_histogram(r.margins(X), r.labels, r.msp, 0.5),
            plots.objective_plot({"MSPC": r.history}),
        ]
        for f in figs:
            f.to_json()

    return {
        "cold fit": cold,
        "cached fit": _median_ms(lookup, repeats),
        "fit + view + 3 figures + JSON": _median_ms(figures, repeats),
    }


def page_rerun(repeats: int) -> tuple[float, float]:
    """Milliseconds of a Cluster page rerun in ``AppTest``: ``(median over ``repeats`` λ
    changes between two cached values, one change to a λ not yet computed)``."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=600)
    at.query_params.update({"data": "spam", "algos": "mspc-mpm", "lam": "1"})
    at.run()
    at.switch_page("pages/2_Cluster.py").run()
    at.toggle(key="cluster.autorun").set_value(True).run()  # N > 3000: runs wait otherwise
    at.select_slider(key="lam").set_value(2.0).run()  # both values now computed
    assert not at.exception, at.exception
    times = []
    for i in range(repeats):
        at.select_slider(key="lam").set_value(1.0 if i % 2 == 0 else 2.0)
        start = time.perf_counter()
        at.run()
        times.append(1000 * (time.perf_counter() - start))
        assert not at.exception
        assert len(at.get("plotly_chart")) >= 3, "the page did not draw its figures"
    cold_start = time.perf_counter()
    at.select_slider(key="lam").set_value(5.0).run()
    cold = 1000 * (time.perf_counter() - cold_start)
    return statistics.median(times), cold


def main() -> None:
    """Print the Cluster page's server time per data size (``--quick``: a smaller grid) against
    the target."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller grid, fewer repeats")
    args = parser.parse_args()
    sizes = [(1000, 10), (5000, 60)] if args.quick else [(1000, 10), (2000, 30), (5000, 60)]
    repeats = 3 if args.quick else 7
    print(f"Cluster page server time (median of {repeats}); target {TARGET_MS:.0f} ms\n")
    header = f"{'N':>6} {'d':>4} {'cold fit':>10} {'cached fit':>11} {'figures+JSON':>13}  ok"
    print(header)
    print("-" * len(header))
    for n, d in sizes:
        r = figure_path(n, d, repeats)
        ok = "yes" if r["fit + view + 3 figures + JSON"] <= TARGET_MS else "NO"
        print(
            f"{n:>6} {d:>4} {r['cold fit']:>8.0f}ms {r['cached fit']:>9.1f}ms "
            f"{r['fit + view + 3 figures + JSON']:>11.0f}ms  {ok}"
        )
    rerun, cold = page_rerun(repeats)
    print(
        f"\nAppTest rerun of the Cluster page on spam (4601 x 57), lam slider moved to a "
        f"computed value: {rerun:.0f} ms ({'within' if rerun <= TARGET_MS else 'over'} "
        f"target); to a new value (fit included): {cold:.0f} ms"
    )


if __name__ == "__main__":
    main()
