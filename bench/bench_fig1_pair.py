"""The Fig. 1 click ("Run the experiment" on the AFS trap) in two checkouts, interleaved
run by run (A B, B A, ...; each run on a fresh server, so no run finds the other's cache),
with the paired differences: a change of a few hundredths of a second is lost in
``bench_browser.py``'s blocks of runs when the machine's load drifts.

Per run: browser time (click until the last plot mutation), server time (rerun sent until
``script_finished``) and their difference, the browser's own share. Prints the medians
and, over the pairs, the median difference A - B and how often A was faster.

Run: ``python bench/bench_fig1_pair.py --app-dir START [--pairs 16]`` (A = this checkout).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import bench_browser as bb


def one_run(p, app: Path) -> tuple[float, float]:
    """One Fig. 1 click on a fresh server of ``app``: ``(browser seconds, server seconds)``
    until the chart is drawn."""
    with bb.streamlit_server(app) as url:
        browser = bb._launch(p)
        try:
            pg, clock = bb._new_page(browser)
            bb._open_demo(pg, clock, url, "demo.afs", "fs.factor.0")
            row = bb.Row("fig1")
            button = bb._by_key(pg, "fs.s.run").locator("button")
            bb._measure(pg, clock, row, button.click, wait_key="fs.s.figure")
            return row.browser[0], row.server[0]
        finally:
            browser.close()


def main(argv: list[str] | None = None) -> int:
    """Alternate runs of this checkout and ``--app-dir`` (A B, B A, ...) and print the paired
    differences with their median."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--app-dir", type=Path, required=True, help="checkout B")
    parser.add_argument("--pairs", type=int, default=16)
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    apps = {"A": bb.ROOT, "B": args.app_dir.resolve()}
    runs: dict[str, list[tuple[float, float]]] = {"A": [], "B": []}
    with sync_playwright() as p:
        for name in bb.interleaved(["A", "B"], args.pairs):
            runs[name].append(one_run(p, apps[name]))
    print(
        f"\nFig. 1 click, {args.pairs} interleaved pairs; load {os.getloadavg()[0]:.1f} at the end"
    )
    print("| checkout | browser s | server s | browser's share s |\n|---|---|---|---|")
    for name, app in apps.items():
        b, s = zip(*runs[name], strict=True)
        share = [x - y for x, y in runs[name]]
        cells = (statistics.median(b), statistics.median(s), statistics.median(share))
        print(f"| {name}: {app} | " + " | ".join(f"{v:.3f}" for v in cells) + " |")
    for label, of in (("browser", lambda r: r[0]), ("browser's share", lambda r: r[0] - r[1])):
        diff = [of(a) - of(b) for a, b in zip(runs["A"], runs["B"], strict=True)]
        faster = f"A faster in {sum(d < 0 for d in diff)}/{len(diff)}"
        print(f"A - B, {label}: median {statistics.median(diff):+.3f} s, {faster}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
