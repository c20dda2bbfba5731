"""A refused upload against another user's page, on one server (two Chromium contexts).

Starts ``streamlit run app.py`` on a free loopback port and, through Playwright:

1. **idle**: another user opens the Cluster page in a new tab (a new session; their
   browser has opened it before, so its files are cached); the time from the navigation
   until the page has stopped running and its charts are drawn, ``--repeats`` times;
2. **attack**: user A, on the Data page, uploads a hostile file (a one-line CSV of
   30,000,000 values, 60 MB; a CSV of 17,000,000 rows, 100 MB); right after the upload
   starts, the other user opens the Cluster page in a new tab. Reported: the time until A's page
   shows the refusal (from the start of the upload, transfer included) and the other
   user's page time, against the idle median;
3. the server's resident memory (RSS) at the start, after the attacks and after A's
   context is closed.

Targets (the hostile-users report): each file refused in under 5 s, the other user's page
within 1.5x its idle time.

Run: ``python -m bench.bench_hostile_upload [--repeats 3] [--small]`` (``--small``: files
ten times smaller, for a quick check). Needs ``/usr/bin/chromium`` and ``playwright``.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path
from urllib.parse import urlparse

from bench._common import machine, print_table
from bench.bench_browser import CHROMIUM, streamlit_server

PAGE_TIMEOUT_MS = 180_000


def _server_rss(url: str) -> float:
    """Resident memory (MB) of the process listening on the server's port."""
    import psutil

    port = urlparse(url).port
    for proc in psutil.process_iter(["cmdline"]):
        cmd = " ".join(proc.info.get("cmdline") or [])
        if "streamlit" in cmd and str(port) in cmd:
            return proc.memory_info().rss / 1e6
    return float("nan")


def _idle(pg) -> None:
    """Until the page has drawn and stopped running (no status widget, no skeleton)."""
    pg.wait_for_selector("[data-testid='stApp']", timeout=PAGE_TIMEOUT_MS)
    pg.wait_for_timeout(300)
    deadline = time.monotonic() + PAGE_TIMEOUT_MS / 1000
    quiet = 0
    while time.monotonic() < deadline:
        busy = pg.locator("[data-testid='stStatusWidget'], [data-testid='stSkeleton']").count()
        quiet = quiet + 1 if not busy else 0
        if quiet >= 3:
            return
        pg.wait_for_timeout(100)


def _start_page(other, url: str):
    """A new tab of the other user's browser opening the Cluster page (a new session)."""
    pg = other.new_page()
    start = time.perf_counter()
    pg.goto(f"{url}/Cluster", wait_until="commit")
    return pg, start


def _finish_page(pg, start: float) -> float:
    _idle(pg)
    pg.locator(".js-plotly-plot").first.wait_for(timeout=PAGE_TIMEOUT_MS)
    seconds = time.perf_counter() - start - 0.3  # the quiet period _idle waits for
    pg.close()
    return seconds


def _other_user_page(other, url: str) -> float:
    return _finish_page(*_start_page(other, url))


def _files(folder: Path, small: bool) -> dict[str, Path]:
    scale = 10 if small else 1
    one_line = folder / "one-line.csv"
    one_line.write_bytes(b",".join([b"1"] * (30_000_000 // scale)))
    rows = folder / "rows.csv"
    n_rows = 17_000_000 // scale
    with open(rows, "wb") as handle:
        handle.write(b"a,b\n")
        block = b"1,234\n" * 100_000
        for _ in range(n_rows // 100_000):
            handle.write(block)
    return {
        f"one line, {one_line.stat().st_size / 1e6:.0f} MB ({30_000_000 // scale:,} values)": (
            one_line
        ),
        f"{n_rows:,} rows, {rows.stat().st_size / 1e6:.0f} MB": rows,
    }


def _attack(browser, other, url: str, path: Path) -> tuple[float, float]:
    """(A's refusal time, the other user's page time during it)."""
    ctx_a = browser.new_context(viewport={"width": 1400, "height": 1600})
    a = ctx_a.new_page()
    a.goto(f"{url}/Data")
    _idle(a)
    a.get_by_text("Upload a CSV file").click()
    _idle(a)
    start = time.perf_counter()
    a.locator("[data-testid='stFileUploaderDropzoneInput']").set_input_files(str(path))
    b, b_start = _start_page(other, url)
    a.get_by_text("cannot be used").first.wait_for(timeout=PAGE_TIMEOUT_MS)
    refused = time.perf_counter() - start
    seconds = _finish_page(b, b_start)
    ctx_a.close()
    return refused, seconds


def main(argv: list[str] | None = None) -> int:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--small", action="store_true", help="files ten times smaller")
    args = parser.parse_args(argv)
    print(machine())
    with tempfile.TemporaryDirectory() as tmp, streamlit_server() as url:
        files = _files(Path(tmp), args.small)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            other = browser.new_context(viewport={"width": 1400, "height": 1600})
            _other_user_page(other, url)  # warm: imports, caches, the first fits
            rss_start = _server_rss(url)
            idle = [_other_user_page(other, url) for _ in range(args.repeats)]
            idle_median = statistics.median(idle)
            rows = [["(none: idle server)", "-", f"{idle_median:.2f}", "1.00"]]
            for name, path in files.items():
                runs = [_attack(browser, other, url, path) for _ in range(args.repeats)]
                refused = statistics.median(r for r, _ in runs)
                during = statistics.median(o for _, o in runs)
                rows.append(
                    [name, f"{refused:.2f}", f"{during:.2f}", f"{during / idle_median:.2f}"]
                )
            rss_after = _server_rss(url)
            browser.close()
        time.sleep(2)
        rss_closed = _server_rss(url)
    print(f"\nmedians of {args.repeats}; idle runs: {', '.join(f'{t:.2f}' for t in idle)} s")
    print_table(
        ["upload by user A", "refused after (s)", "other user's Cluster page (s)", "x idle"], rows
    )
    print(
        f"\nserver RSS: {rss_start:.0f} MB before the uploads, {rss_after:.0f} MB after them, "
        f"{rss_closed:.0f} MB with the browsers closed"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
