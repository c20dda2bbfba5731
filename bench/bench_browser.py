"""Browser time of the lab's demo interactions: from a widget change until the figures are updated.

Drives the real app (``streamlit run app.py`` on a free loopback port, headless) in Debian's
Chromium through Playwright and prints, per interaction, the median over the repeats of

* **browser**: from the widget change (the key press, click or navigation, stamped with the
  page's ``performance.now()`` just before it) until the figures are updated;
* **server**: from the moment the browser sends the rerun request over Streamlit's websocket
  (the first ``BackMsg.rerun_script`` after the change) until the server's
  ``ForwardMsg.script_finished`` arrives — script execution plus transport, parsed with
  Streamlit's own protobuf classes.

"Figures updated" is detected in the page, robustly against how the figures are built:

1. the rerun has finished (``script_finished`` received, Streamlit's running indicator
   ``stStatusWidget`` and any ``stSkeleton`` gone), and the figure the interaction waits for
   (a widget key's container, e.g. ``st-key-fs-s-figure``) holds a drawn plotly graph;
2. a ``MutationObserver`` installed before the page loads stamps the last DOM mutation inside
   any ``stPlotlyChart`` element or the lab's own chart element (``.lab-chart``; plotly
   rewrites its SVG layers on every (re)draw, also for
   WebGL traces, whose axes and legend are SVG). Once no plotly element has changed for
   ``QUIET_MS``, the time of the last mutation is the moment the figures were updated;
3. beside the time, ``changed`` says whether the plotted data differ from before the change
   (a hash of every graph's ``gd.data`` x/y/colour arrays), so a figure that did not redraw
   is visible in the table rather than hidden in a fast number.

Widgets are found by their Streamlit keys (``st-key-<key>`` CSS classes, which survive a
restructure of the pages as long as the keys stay) and fall back to their labels.

Interactions (``--only NAME`` runs one):

* ``slider-afs``: one step of a Feature-scaling slider on the AFS trap (Home's demo button);
* ``slider-breast``: the same on the breast-cancer task;
* ``regulariser``: the Λ select box on Cluster (breast demo), cycling through its options;
* ``reload``: opening the Cluster page from its link (the URL the breast demo leaves in the
  address bar) in a fresh browser profile: nothing cached, so Streamlit's frontend and its
  4.7 MB plotly bundle are fetched and compiled again, as for a first-time visitor;
* ``reload-tab``: the same link in a new tab of a browser that has opened it twice before
  (its HTTP and compiled-code caches warm: a profile on disk, as a user's; Chromium keeps no
  compiled code for an off-the-record context), as a presenter opening a shared link;
* ``reload-f5``: the browser's reload (F5) of that page in the same tab;
* ``mva-tasks``: MSP vs accuracy's view across tasks (the paper's Figs. 2-3: 67 fits of
  MSPC on the UCI tasks, satimage and digits pairs), entered from its λ view on a fresh
  server;
* ``fig1``: the Fig. 1 sensitivity run on the AFS trap ("Run the experiment").

The two button runs are cached by the app after their first run, so each of their repeats uses
a fresh server (a cold run, what a presenter sees first); the other interactions run in one
session and step to values not computed before where the widget allows it.

Run: ``python bench/bench_browser.py`` (``--repeats 5`` by default; ``--quick`` = 2 repeats).
Needs ``/usr/bin/chromium`` (``tests/install_system_packages.sh``) and ``playwright``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
QUIET_MS = 400
#: The checkout whose app is measured (``--app-dir``, e.g. an exported older commit).
APP_DIR = ROOT
TIMEOUT_S = 600.0

TARGETS_S = {
    "slider-afs": 0.5,
    "slider-breast": 0.5,
    "regulariser": 1.0,
    "reload": 3.0,
    "reload-tab": 2.0,
    "reload-f5": 3.0,
    "mva-tasks": 8.0,
    "fig1": 8.0,
}

#: Installed before any page script: stamps plotly DOM mutations, hashes figure data.
INIT_JS = r"""
(() => {
  window.__lastPlotMutation = 0;
  const inPlot = (node) => {
    for (let n = node; n; n = n.parentNode) {
      if (n.getAttribute && n.getAttribute('data-testid') === 'stPlotlyChart') return true;
      if (n.classList && n.classList.contains('lab-chart')) return true;
    }
    return false;
  };
  const start = () => {
    new MutationObserver((records) => {
      for (const r of records) {
        if (inPlot(r.target)) { window.__lastPlotMutation = performance.now(); return; }
      }
    }).observe(document.documentElement, {subtree: true, childList: true, attributes: true});
  };
  if (document.documentElement) start(); else document.addEventListener('DOMContentLoaded', start);
  window.__plotHash = () => {
    let h = 0;
    const mix = (v) => {
      const s = String(v);
      for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) | 0;
    };
    for (const gd of document.querySelectorAll('.js-plotly-plot')) {
      for (const t of (gd.data || [])) {
        mix(t.type);
        for (const a of [t.x, t.y, t.marker && t.marker.color]) {
          if (!a || !a.length) continue;
          mix(a.length);
          for (let i = 0; i < a.length; i += Math.max(1, Math.floor(a.length / 64))) mix(a[i]);
        }
      }
    }
    return h;
  };
})();
"""


#: True when every chart element of the lab (``.lab-chart``) holds a drawn plotly graph.
_ALL_DRAWN = (
    "() => [...document.querySelectorAll('.lab-chart')].every(h => h.querySelector('.main-svg'))"
)
#: The number of drawn plotly graphs on the page (either chart element).
_DRAWN_GRAPHS = (
    "() => [...document.querySelectorAll('.js-plotly-plot')]"
    ".filter(g => g.querySelector('.main-svg')).length"
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def streamlit_server(
    app_dir: Path | None = None,
    log_path: Path | None = None,
    script: str = "app.py",
    env: dict[str, str] | None = None,
):
    """``streamlit run script`` in ``app_dir`` (default: this checkout; ``env``: the server's
    environment, default this process's) on a free loopback
    port; yields its URL. The server's output goes to ``log_path`` (kept) or a temporary
    file; if it does not start, the error quotes the log's end. Also the browser test's
    server."""
    port = _free_port()
    log = open(log_path, "w+b") if log_path is not None else tempfile.TemporaryFile()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            script,
            "--server.headless",
            "true",
            "--server.port",
            str(port),
            "--server.address",
            "127.0.0.1",
            "--browser.gatherUsageStats",
            "false",
        ],
        cwd=app_dir or APP_DIR,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                    if r.read().strip() == b"ok":
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                log.seek(0)
                raise RuntimeError("streamlit did not start:\n" + log.read().decode()[-2000:])
            time.sleep(0.3)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def _stamp(payload, message_class, kind: str, times: list[float]) -> None:
    """Append the time to ``times`` when a binary websocket frame is a ``kind`` message."""
    if isinstance(payload, str):
        return
    msg = message_class()
    with contextlib.suppress(Exception):
        msg.ParseFromString(payload)
        if msg.WhichOneof("type") == kind:
            times.append(time.perf_counter())


def interleaved(items, rounds: int):
    """The items of every round, in reverse order every other round (A B, B A, ...), so
    that each sees the same drift of the machine's load."""
    for r in range(rounds):
        yield from (items if r % 2 == 0 else items[::-1])


class WireClock:
    """Times of the websocket messages that bracket a rerun, on the Python clock."""

    def __init__(self, page):
        from streamlit.proto.BackMsg_pb2 import BackMsg
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        self._Back, self._Forward = BackMsg, ForwardMsg
        self.rerun_sent: list[float] = []
        self.finished: list[float] = []
        page.on("websocket", self._attach)

    def _attach(self, ws) -> None:
        ws.on("framesent", self._sent)
        ws.on("framereceived", self._received)

    def _sent(self, payload) -> None:
        _stamp(payload, self._Back, "rerun_script", self.rerun_sent)

    def _received(self, payload) -> None:
        _stamp(payload, self._Forward, "script_finished", self.finished)

    def mark(self) -> tuple[int, int]:
        return len(self.rerun_sent), len(self.finished)

    def server_seconds(self, mark: tuple[int, int]) -> float:
        sent, done = self.rerun_sent[mark[0] :], self.finished[mark[1] :]
        if not sent or not done:
            return float("nan")
        return done[-1] - sent[0]


@dataclass
class Row:
    """One interaction's measurements: browser and server seconds per repeat, and whether the
    figures changed."""

    name: str
    browser: list[float] = field(default_factory=list)
    server: list[float] = field(default_factory=list)
    changed: list[bool] = field(default_factory=list)


LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def _launch(p):
    return p.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)


VIEWPORT = {"width": 1400, "height": 1600}


def _new_page(browser):
    pg = browser.new_page(viewport=VIEWPORT)
    pg.add_init_script(INIT_JS)
    clock = WireClock(pg)
    return pg, clock


def _by_key(pg, key: str):
    """The element container of the widget with Streamlit key ``key``."""
    return pg.locator(".st-key-" + "".join(c if c.isalnum() or c in "_-" else "-" for c in key))


def _idle(
    pg,
    clock: WireClock,
    mark,
    *,
    expect_rerun: bool = True,
    wait_key: str | None = None,
    min_graphs: int = 0,
):
    """Block until the rerun after ``mark`` finished, at least ``min_graphs`` plotly graphs
    are drawn and the figures are quiet."""
    deadline = time.monotonic() + TIMEOUT_S
    while time.monotonic() < deadline:
        done = len(clock.finished) > mark[1] or not expect_rerun
        busy = (
            pg.locator("[data-testid='stStatusWidget']").count()
            + pg.locator("[data-testid='stSkeleton']").count()
        )
        ready = wait_key is None or _by_key(pg, wait_key).locator(".main-svg").count() > 0
        # The lab's chart element mounts before plotly.js has loaded: every one must hold a
        # drawn graph, or a reload would stop at the first quiet moment before any chart.
        ready = ready and pg.evaluate(_ALL_DRAWN)
        # A reload: the chart elements may mount after the script has finished; until the
        # page's graphs are there, "every chart drawn" holds for none.
        ready = ready and (min_graphs == 0 or pg.evaluate(_DRAWN_GRAPHS) >= min_graphs)
        if done and not busy and ready:
            break
        pg.wait_for_timeout(25)
    else:
        raise TimeoutError("the app did not become idle")
    # Quiet period: no plotly mutation for QUIET_MS.
    while time.monotonic() < deadline:
        quiet = pg.evaluate("performance.now() - window.__lastPlotMutation")
        if quiet >= QUIET_MS:
            break
        pg.wait_for_timeout(50)


def _measure(pg, clock, row: Row, action, **idle_kw) -> None:
    before = pg.evaluate("window.__plotHash()")
    mark = clock.mark()
    t0 = pg.evaluate("window.__t0 = performance.now()")
    action()
    _idle(pg, clock, mark, **idle_kw)
    last = pg.evaluate("window.__lastPlotMutation")
    row.browser.append(max(0.0, last - t0) / 1000.0)
    row.server.append(clock.server_seconds(mark))
    row.changed.append(pg.evaluate("window.__plotHash()") != before)
    print(f"  {row.name}: browser {row.browser[-1]:.2f} s, server {row.server[-1]:.2f} s")


def _open_demo(pg, clock, url: str, key: str, landing: str) -> None:
    """Open Home, press the demo button ``key`` and wait until the widget ``landing`` of the
    page the demo switches to is drawn and the app is idle."""
    pg.goto(url)
    button = _by_key(pg, key).locator("button")
    button.wait_for(timeout=TIMEOUT_S * 1000)
    _idle(pg, clock, (0, 0), expect_rerun=False)
    button.click()
    _by_key(pg, landing).wait_for(timeout=TIMEOUT_S * 1000)
    _idle(pg, clock, clock.mark(), expect_rerun=False)


def _goto_page(pg, clock, title: str, landing: str) -> None:
    pg.locator("[data-testid='stSidebarNav'] a", has_text=title).first.click()
    _by_key(pg, landing).wait_for(timeout=TIMEOUT_S * 1000)
    _idle(pg, clock, clock.mark(), expect_rerun=False)


def _breast_link(pg, clock, url: str) -> str:
    """Open the breast demo, change its regulariser and back, and return the page's link
    (the state a reload bench opens again)."""
    _open_demo(pg, clock, url, "demo.breast", "regularizer")
    for option in ("identity I", "diag(Σ)"):
        mark = clock.mark()
        _choose(pg, "regularizer", option)
        _idle(pg, clock, mark)
    return pg.url


def _choose(pg, key: str, option: str) -> None:
    """Pick ``option`` (a substring of its text) in the select box with key ``key``."""
    _by_key(pg, key).get_by_role("combobox").first.click()
    pg.get_by_role("option").filter(has_text=option).first.click()


def _slider(pg, clock, row: Row, steps: int, label: str | None = None) -> None:
    """``steps`` single steps to the right of a Feature-scaling factor slider (keys
    ``fs.factor.<j>``): the one labelled ``label``, else the first (largest variance)."""
    boxes = pg.locator("[class*='st-key-fs-factor-'] [data-testid='stSlider']")
    box = boxes.filter(has_text=label).first if label else boxes.first
    thumb = box.get_by_role("slider").first
    for _ in range(steps):
        thumb.focus()
        _measure(pg, clock, row, lambda: pg.keyboard.press("ArrowRight"))


def bench_sliders(p, url: str, repeats: int, rows: dict[str, Row]) -> None:
    """Move the Home demos' scaling sliders ``repeats`` times in a fresh browser; record each
    step's times in ``rows``."""
    browser = _launch(p)
    try:
        pg, clock = _new_page(browser)
        _open_demo(pg, clock, url, "demo.afs", "fs.factor.0")
        rows["slider-afs"] = row = Row("slider-afs")
        _slider(pg, clock, row, repeats, "noise")
        pg.close()
        pg, clock = _new_page(browser)
        _open_demo(pg, clock, url, "demo.breast", "regularizer")
        _goto_page(pg, clock, "Feature scaling", "fs.factor.0")
        rows["slider-breast"] = row = Row("slider-breast")
        _slider(pg, clock, row, repeats)
    finally:
        browser.close()


def bench_cluster(p, url: str, repeats: int, rows: dict[str, Row]) -> None:
    """Change the regulariser of the breast demo ``repeats`` times (cycling its options); record
    each change's times in ``rows``."""
    browser = _launch(p)
    try:
        pg, clock = _new_page(browser)
        _open_demo(pg, clock, url, "demo.breast", "regularizer")
        rows["regulariser"] = row = Row("regulariser")
        options = ["identity I", "total covariance", "none", "diag(Σ)"]
        for i in range(repeats):
            choice = options[i % len(options)]

            def act(choice=choice):
                _choose(pg, "regularizer", choice)

            _measure(pg, clock, row, act)
        # Back to the demo's regulariser so the link reloads the demo's state.
        mark = clock.mark()
        _choose(pg, "regularizer", "diag(Σ)")
        _idle(pg, clock, mark)
        link = pg.url
        for name in ("reload", "reload-tab", "reload-f5"):
            rows[name] = Row(name)
        # One browser profile that keeps its caches across the repeats, on disk as a user's:
        # Chromium keeps compiled code (V8's code cache) only there, not in an off-the-record
        # context, and only for a script loaded twice before. Warmed with two loads.
        profile = tempfile.mkdtemp(prefix="lab-bench-profile-")
        warm = p.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, args=LAUNCH_ARGS, viewport=VIEWPORT
        )
        warm.add_init_script(INIT_JS)
        for _ in range(2):
            first = warm.new_page()
            _open_link(first, WireClock(first), link)
            graphs = first.evaluate(_DRAWN_GRAPHS)
            first.close()
        for _ in range(repeats):
            page2, clock2 = _new_page(browser)  # a fresh context: a fresh profile
            _reload_row(rows["reload"], page2, clock2, lambda pg=page2: pg.goto(link), graphs)
            page2.close()
            page3 = warm.new_page()
            clock3 = WireClock(page3)
            _reload_row(rows["reload-tab"], page3, clock3, lambda pg=page3: pg.goto(link), graphs)
            _reload_row(rows["reload-f5"], page3, clock3, page3.reload, graphs)
            page3.close()
        warm.close()
        shutil.rmtree(profile, ignore_errors=True)
    finally:
        browser.close()


def _open_link(pg, clock, link: str) -> None:
    mark = clock.mark()
    pg.goto(link)
    _idle(pg, clock, mark)


def _reload_row(row: Row, pg, clock, navigate, graphs: int) -> None:
    """Time a navigation of ``pg`` (``goto`` or ``reload``) until its ``graphs`` figures are
    drawn."""
    mark = clock.mark()
    navigate()
    # performance.now() starts at the navigation, so the last mutation is the time.
    _idle(pg, clock, mark, min_graphs=graphs)
    row.browser.append(pg.evaluate("window.__lastPlotMutation") / 1000.0)
    row.server.append(clock.server_seconds(mark))
    row.changed.append(pg.evaluate(_DRAWN_GRAPHS) >= graphs > 0)


def bench_button_runs(p, repeats: int, rows: dict[str, Row], only: set[str]) -> None:
    """Press the demos' run buttons named in ``only`` (each on a fresh server, so nothing is
    cached); record each run's times in ``rows``."""
    if "mva-tasks" in only:
        rows["mva-tasks"] = row = Row("mva-tasks")
        for _ in range(repeats):
            with streamlit_server() as url:
                browser = _launch(p)
                try:
                    pg, clock = _new_page(browser)
                    pg.goto(f"{url}/MSP_vs_accuracy?fam=lam")
                    _by_key(pg, "mva.scatter").wait_for(timeout=TIMEOUT_S * 1000)
                    _idle(pg, clock, (0, 0), expect_rerun=False)
                    option = _by_key(pg, "mva.family").locator(
                        "[data-testid='stRadioOption']", has_text="tasks"
                    )
                    _measure(pg, clock, row, option.first.click, wait_key="mva.scatter")
                finally:
                    browser.close()
    if "fig1" in only:
        rows["fig1"] = row = Row("fig1")
        for _ in range(repeats):
            with streamlit_server() as url:
                browser = _launch(p)
                try:
                    pg, clock = _new_page(browser)
                    _open_demo(pg, clock, url, "demo.afs", "fs.factor.0")
                    button = _by_key(pg, "fs.s.run").locator("button")
                    _measure(pg, clock, row, button.click, wait_key="fs.s.figure")
                finally:
                    browser.close()


def _with_server(bench, p, repeats: int, rows: dict[str, Row]) -> None:
    with streamlit_server() as url:
        bench(p, url, repeats, rows)


def _fmt(values: list[float]) -> str:
    good = [v for v in values if v == v]
    return f"{statistics.median(good):.2f}" if good else "n/a"


def main(argv: list[str] | None = None) -> int:
    """Run the chosen interactions (``--only``) in Chromium against ``--app-dir``'s app and
    print the medians with the server's share."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="2 repeats")
    parser.add_argument("--only", action="append", choices=sorted(TARGETS_S))
    parser.add_argument(
        "--app-dir", type=Path, default=ROOT, help="checkout whose app.py to run (a 'before')"
    )
    args = parser.parse_args(argv)
    global APP_DIR
    APP_DIR = args.app_dir.resolve()
    repeats = 2 if args.quick else args.repeats
    only = set(args.only or TARGETS_S)
    if not Path(CHROMIUM).exists():
        print(f"{CHROMIUM} is missing: run tests/install_system_packages.sh", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    rows: dict[str, Row] = {}
    started = time.perf_counter()
    with sync_playwright() as p:
        groups = []
        if only & {"slider-afs", "slider-breast"}:
            groups.append(lambda: _with_server(bench_sliders, p, repeats, rows))
        if only & {"regulariser", "reload", "reload-tab", "reload-f5"}:
            groups.append(lambda: _with_server(bench_cluster, p, repeats, rows))
        groups.append(lambda: bench_button_runs(p, repeats, rows, only))
        for group in groups:
            try:
                group()
            except Exception as exc:  # report what was measured, then the failure
                print(f"interaction failed: {type(exc).__name__}: {exc}"[:600], file=sys.stderr)
    print(f"\nBrowser time from the change until the figures are updated (median of {repeats})")
    print(f"{'interaction':<15}{'browser s':>11}{'server s':>10}{'target s':>10}  changed  all (s)")
    for name in TARGETS_S:
        if name not in rows or name not in only:
            continue
        r = rows[name]
        print(
            f"{name:<15}{_fmt(r.browser):>11}{_fmt(r.server):>10}{TARGETS_S[name]:>10.1f}"
            f"  {sum(r.changed)}/{len(r.changed)}    " + " ".join(f"{v:.2f}" for v in r.browser)
        )
    load = os.getloadavg()
    print(
        f"(total {time.perf_counter() - started:.0f} s; load average at the end "
        f"{load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} on {os.cpu_count()} cores; "
        f"app {APP_DIR.name})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
