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
3. **memory**: the server's resident memory (RSS) before the uploads and after each
   refused one (A's context is closed after each); then user R uploads a usable CSV
   (990,000 rows, 13 MB) and replaces it with another; then every browser is closed, and
   the RSS is read 3 s later, once Streamlit's wait for a disconnected browser
   (``server.disconnectedSessionTTL``) has passed, and once more after another browser has
   come and gone (Streamlit drops the sessions whose wait ran out when a browser
   disconnects).

Targets (the hostile-users report): each file refused in under 5 s, the other user's page
within 1.5x its idle time; memory released when a session ends or its upload is replaced.

With ``--hostile`` (issue 35): the files that cost a server memory rather than bytes, each
uploaded by a user while another opens the Cluster page, then four at once (three of the
densest accepted file and the text-cell file): the time until each upload is usable or
refused, the other user's page time against the idle median, and the server's peak
resident memory while it lasts (sampled every 50 ms). Targets: the densest accepted upload
usable within 30 s at a peak of at most 1 GB; the text-cell file refused within 10 s; four
at once under 2.7 GB with the other user's page within 2x its idle time.

Run: ``python -m bench.bench_hostile_upload [--repeats 3] [--small] [--hostile]
[--app-dir DIR]`` (``--small``: files ten times smaller, for a quick check; ``--app-dir``:
serve another checkout, e.g. an older version, with this script). Needs
``/usr/bin/chromium`` and ``playwright``.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlparse

import tomllib

from bench._common import machine, print_table
from bench.bench_browser import APP_DIR, CHROMIUM, streamlit_server

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


def _usable_files(folder: Path) -> list[Path]:
    """Two different CSV files the reader accepts: 990,000 and 980,000 rows of two
    features and a label, about 13 MB each."""
    paths = []
    for i in range(2):
        path = folder / f"usable-{i}.csv"
        block = b"".join(
            b"%d.%03d,%d.5,%d\n" % (j % 97, j % 1000, (j * 7 + i) % 13, j % 2) for j in range(1000)
        )
        with open(path, "wb") as handle:
            handle.write(b"a,b,label\n")
            for _ in range(990 - 10 * i):
                handle.write(block)
        paths.append(path)
    return paths


def _upload_usable(page, path: Path, n_rows: str) -> None:
    """Upload ``path`` on the Data page and wait until the lab shows its ``n_rows``."""
    page.locator("[data-testid='stFileUploaderDropzoneInput']").set_input_files(str(path))
    page.get_by_text(n_rows, exact=True).first.wait_for(timeout=PAGE_TIMEOUT_MS)
    _idle(page)


def _session_wait(app_dir: Path) -> float:
    """Streamlit's wait for a disconnected browser (``server.disconnectedSessionTTL``) in
    the served checkout's config (Streamlit's default, 120 s, without one)."""
    config = app_dir / ".streamlit" / "config.toml"
    if config.exists():
        with open(config, "rb") as handle:
            server = tomllib.load(handle).get("server", {})
        return float(server.get("disconnectedSessionTTL", 120))
    return 120.0


def _upload_page(browser, url: str):
    """A new user's Data page with the upload chosen as the source: (its context, the page)."""
    context = browser.new_context(viewport={"width": 1400, "height": 1600})
    page = context.new_page()
    page.goto(f"{url}/Data")
    _idle(page)
    page.get_by_text("Upload a CSV file").click()
    _idle(page)
    return context, page


def _attack(browser, other, url: str, path: Path) -> tuple[float, float]:
    """(A's refusal time, the other user's page time during it)."""
    ctx_a, a = _upload_page(browser, url)
    start = time.perf_counter()
    a.locator("[data-testid='stFileUploaderDropzoneInput']").set_input_files(str(path))
    b, b_start = _start_page(other, url)
    a.get_by_text("cannot be used").first.wait_for(timeout=PAGE_TIMEOUT_MS)
    refused = time.perf_counter() - start
    seconds = _finish_page(b, b_start)
    ctx_a.close()
    return refused, seconds


class _Peak:
    """The server's peak resident memory (MB) while the block runs, sampled every 50 ms."""

    def __init__(self, url: str) -> None:
        import psutil

        port = str(urlparse(url).port)
        self.proc = next(
            p
            for p in psutil.process_iter(["cmdline"])
            if "streamlit" in " ".join(p.info.get("cmdline") or [])
            and port in " ".join(p.info.get("cmdline") or [])
        )
        self.peak = 0.0
        self._stop = threading.Event()

    def _run(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, self.proc.memory_info().rss / 1e6)
            self._stop.wait(0.05)

    def __enter__(self) -> _Peak:
        self.peak = self.proc.memory_info().rss / 1e6
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()


def _write_lines(path: Path, header: bytes, line: bytes, n: int, tail: bytes = b"") -> Path:
    with open(path, "wb") as handle:
        handle.write(header)
        block = line * 1000
        for _ in range(n // 1000):
            handle.write(block)
        handle.write(line * (n % 1000) + tail)
    return path


def _hostile_files(folder: Path, small: bool) -> dict[str, tuple[Path, str | None]]:
    """name -> (file, the rows text the Data page shows when it is usable; None: refused)."""
    scale = 10 if small else 1
    wide = b",".join(b"c%d" % j for j in range(2000)) + b"\n"
    hundred = b",".join(b"c%d" % j for j in range(100)) + b"\n"
    dense_rows = 10_000 // scale
    files = {
        f"densest accepted: {dense_rows:,} x 2,000 cells of 0": (
            _write_lines(folder / "dense.csv", wide, b",".join([b"0"] * 2000) + b"\n", dense_rows),
            f"{dense_rows:,}",
        ),
        "text cells, 100 columns": (
            _write_lines(
                folder / "text.csv",
                hundred,
                b",".join([b"abcdefghi"] * 100) + b"\n",
                190_000 // scale,
            ),
            None,
        ),
        "empty cells, 100 columns": (
            _write_lines(folder / "empty.csv", hundred, b"," * 99 + b"\n", 200_000 // scale),
            None,
        ),
        "commas, 2,000 a line": (
            _write_lines(folder / "commas.csv", b"", b"," * 1999 + b"\n", 99_500 // scale),
            None,
        ),
        "ragged: a short last row": (
            _write_lines(
                folder / "ragged.csv",
                wide,
                b",".join([b"0"] * 2000) + b"\n",
                dense_rows - 1,
                b"0,0\n",
            ),
            None,
        ),
    }
    return {
        f"{name} ({path.stat().st_size / 1e6:.0f} MB)": (path, rows)
        for name, (path, rows) in files.items()
    }


def _idle_now(pg) -> bool:
    busy = pg.locator("[data-testid='stStatusWidget'], [data-testid='stSkeleton']").count()
    return not busy and pg.locator(".js-plotly-plot").count() > 0


def _watch(outcomes: list, other_page, start: float) -> tuple[list[float], float]:
    """Poll every 100 ms until each locator in ``outcomes`` shows and ``other_page`` has
    drawn its charts and stayed idle for 0.3 s: the seconds from ``start`` to each (the
    other page's without its quiet period)."""
    done: list[float | None] = [None] * len(outcomes)
    page_done, quiet_since = None, None
    deadline = time.monotonic() + PAGE_TIMEOUT_MS / 1000
    while time.monotonic() < deadline:
        now = time.perf_counter() - start
        for i, locator in enumerate(outcomes):
            if done[i] is None and locator.count() > 0:
                done[i] = now
        if page_done is None:
            if _idle_now(other_page):
                quiet_since = now if quiet_since is None else quiet_since
                if now - quiet_since >= 0.3:
                    page_done = quiet_since
            else:
                quiet_since = None
        if page_done is not None and all(d is not None for d in done):
            return done, page_done
        time.sleep(0.1)
    raise TimeoutError("an upload or the other user's page did not finish")


def _outcome(page, rows: str | None):
    done = page.get_by_text("cannot be used")
    if rows is not None:
        done = done.or_(page.get_by_text(rows, exact=True))
    return done.first


def _hostile(browser, other, url: str, files, idle_median: float) -> list[list[str]]:
    """Each file alone, then four at once, while the other user opens the Cluster page."""
    rows = []
    for name, (path, usable) in files.items():
        ctx, a = _upload_page(browser, url)
        with _Peak(url) as peak:
            start = time.perf_counter()
            a.locator("[data-testid='stFileUploaderDropzoneInput']").set_input_files(str(path))
            b, b_start = _start_page(other, url)
            (took,), during = _watch([_outcome(a, usable)], b, b_start)
            took += b_start - start
            refused = a.get_by_text("cannot be used").count() > 0
            b.close()
        ctx.close()
        rows.append(
            [
                name,
                f"{'refused' if refused else 'usable'} after {took:.1f}",
                f"{during:.2f} ({during / idle_median:.2f}x)",
                f"{peak.peak:,.0f}",
            ]
        )
    dense = next(v for k, v in files.items() if k.startswith("densest"))
    text = next(v for k, v in files.items() if k.startswith("text"))
    four = [dense, dense, dense, text]
    pages = [_upload_page(browser, url) for _ in four]
    with _Peak(url) as peak:
        start = time.perf_counter()
        for (_, page), (path, _) in zip(pages, four, strict=True):
            page.locator("[data-testid='stFileUploaderDropzoneInput']").set_input_files(str(path))
        b, b_start = _start_page(other, url)
        finished, during = _watch(
            [_outcome(p, u) for (_, p), (_, u) in zip(pages, four, strict=True)], b, b_start
        )
        times = [f"{t + b_start - start:.1f}" for t in finished]
        b.close()
        outcomes = [
            "refused" if page.get_by_text("cannot be used").count() else "usable"
            for _, page in pages
        ]
    for ctx, _ in pages:
        ctx.close()
    rows.append(
        [
            "four at once: 3 x densest + text cells",
            ", ".join(f"{o} {t}" for o, t in zip(outcomes, times, strict=True)),
            f"{during:.2f} ({during / idle_median:.2f}x)",
            f"{peak.peak:,.0f}",
        ]
    )
    return rows


def main(argv: list[str] | None = None) -> int:
    """Upload the two hostile files while another user works on the Cluster page, ``--repeats``
    times; print refusal times and the other user's page times against an idle server."""
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--small", action="store_true", help="files ten times smaller")
    parser.add_argument("--app-dir", type=Path, default=APP_DIR, help="checkout to serve")
    parser.add_argument(
        "--hostile", action="store_true", help="issue 35's files and four at once only"
    )
    args = parser.parse_args(argv)
    app_dir = args.app_dir.resolve()
    wait = _session_wait(app_dir)
    print(machine())
    print(f"serving {app_dir}; disconnected-session wait {wait:.0f} s")
    memory: list[list[str]] = []

    def rss(step: str) -> None:
        memory.append([step, f"{_server_rss(url):,.0f}"])

    with tempfile.TemporaryDirectory() as tmp, streamlit_server(app_dir) as url:
        files = _files(Path(tmp), args.small)
        usable = _usable_files(Path(tmp))
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            other = browser.new_context(viewport={"width": 1400, "height": 1600})
            _other_user_page(other, url)  # warm: imports, caches, the first fits
            idle = [_other_user_page(other, url) for _ in range(args.repeats)]
            rss("before the uploads (idle runs done)")
            idle_median = statistics.median(idle)
            if args.hostile:
                table = _hostile(
                    browser, other, url, _hostile_files(Path(tmp), args.small), idle_median
                )
                browser.close()
                print(f"\nidle runs: {', '.join(f'{t:.2f}' for t in idle)} s")
                print_table(
                    ["upload", "outcome, s from upload", "other user's page, s", "peak RSS MB"],
                    table,
                )
                print_table(["server memory", "RSS (MB)"], memory)
                return 0
            rows = [["(none: idle server)", "-", f"{idle_median:.2f}", "1.00"]]
            for name, path in files.items():
                runs = []
                for i in range(args.repeats):
                    runs.append(_attack(browser, other, url, path))
                    rss(f"after refused upload {i + 1} of {name} (A's browser closed)")
                refused = statistics.median(r for r, _ in runs)
                during = statistics.median(o for _, o in runs)
                rows.append(
                    [name, f"{refused:.2f}", f"{during:.2f}", f"{during / idle_median:.2f}"]
                )
            _, r = _upload_page(browser, url)
            _upload_usable(r, usable[0], "990,000")
            rss("R uploaded a usable 13 MB CSV (990,000 rows)")
            _upload_usable(r, usable[1], "980,000")
            rss("R replaced it with another (980,000 rows)")
            browser.close()
        closed = time.monotonic()
        time.sleep(3)
        rss("every browser closed, 3 s later")
        time.sleep(max(0.0, closed + wait + 5 - time.monotonic()))
        rss(f"every browser closed, {wait + 5:.0f} s later (the wait + 5 s)")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            _other_user_page(browser.new_context(), url)
            browser.close()
        time.sleep(5)
        rss("then another browser came and went, 5 s later")
    print(f"\nmedians of {args.repeats}; idle runs: {', '.join(f'{t:.2f}' for t in idle)} s")
    print_table(
        ["upload by user A", "refused after (s)", "other user's Cluster page (s)", "x idle"], rows
    )
    print()
    print_table(["server memory", "RSS (MB)"], memory)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
