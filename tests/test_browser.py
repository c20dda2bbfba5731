"""End-to-end: the real app in headless Chromium.

Starts ``streamlit run app.py`` on a free loopback port, waits for ``/_stcore/health``,
visits every page in ``pages/`` (so pages added later are covered automatically), moves a
slider on the Feature scaling page, checks that plotly figures rendered and that no
exception is shown, and saves a screenshot per page in ``artifacts/screenshots/``.

Skipped when Chromium or Playwright is missing, unless ``CI=true`` (then it fails).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
SHOTS = ROOT / "artifacts" / "screenshots"
# Pages that draw plotly figures on a first visit, without pressing a button.
PAGES_WITH_FIGURES = {"Data", "Cluster", "Feature_scaling"}
PAGE_TIMEOUT = 60.0

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]


def _require_browser():
    in_ci = os.environ.get("CI", "").lower() == "true"
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        if in_ci:
            pytest.fail("Playwright is not installed (pip install playwright).")
        pytest.skip("Playwright is not installed.")
    if not Path(CHROMIUM).exists():
        if in_ci:
            pytest.fail(f"{CHROMIUM} is missing (apt-get install chromium).")
        pytest.skip(f"{CHROMIUM} is missing.")
    return sync_playwright


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server():
    port = _free_port()
    (ROOT / "artifacts").mkdir(exist_ok=True)
    log = open(ROOT / "artifacts" / "streamlit-browser-test.log", "w")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            "app.py",
            "--server.headless",
            "true",
            "--server.port",
            str(port),
            "--server.address",
            "127.0.0.1",
            "--browser.gatherUsageStats",
            "false",
            "--server.fileWatcherType",
            "none",
        ],
        cwd=ROOT,
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
                pytest.fail("streamlit did not start; see artifacts/streamlit-browser-test.log")
            time.sleep(0.3)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def _url_path(page: Path) -> str:
    """Streamlit's URL path of a page file: ``3_Feature_scaling.py`` -> ``Feature_scaling``."""
    return page.stem.split("_", 1)[1] if page.stem[0].isdigit() else page.stem


def _wait_idle(pg) -> None:
    """Wait until the app has drawn and stopped running (the status widget disappears)."""
    pg.wait_for_selector("[data-testid='stApp']", timeout=PAGE_TIMEOUT * 1000)
    pg.wait_for_timeout(800)
    deadline = time.monotonic() + PAGE_TIMEOUT
    while time.monotonic() < deadline:
        running = pg.locator("[data-testid='stStatusWidget']").count()
        skeleton = pg.locator("[data-testid='stSkeleton']").count()
        if not running and not skeleton:
            break
        pg.wait_for_timeout(300)
    pg.wait_for_timeout(700)


def _assert_no_exception(pg, name: str) -> None:
    assert pg.locator("[data-testid='stException']").count() == 0, f"{name}: exception shown"
    text = pg.locator("[data-testid='stApp']").inner_text()
    assert "Traceback" not in text, f"{name}: traceback shown"


def test_every_page_renders_in_chromium(server):
    sync_playwright = _require_browser()
    SHOTS.mkdir(parents=True, exist_ok=True)
    pages = sorted((ROOT / "pages").glob("[0-9]*_*.py"))
    assert len(pages) >= 2
    started = time.monotonic()
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        try:
            pg = browser.new_page(viewport={"width": 1400, "height": 2400})
            pg.goto(server)
            _wait_idle(pg)
            _assert_no_exception(pg, "Home")
            assert "Discriminative Clustering Lab" in pg.inner_text("h1")
            pg.screenshot(path=str(SHOTS / "0_Home.png"))
            for page in pages:
                name = _url_path(page)
                pg.goto(f"{server}/{name}")
                _wait_idle(pg)
                _assert_no_exception(pg, name)
                if name == "Feature_scaling":
                    sliders = pg.locator("[data-testid='stSlider'] [role='slider']")
                    if sliders.count():
                        sliders.first.focus()
                        pg.keyboard.press("ArrowRight")
                        pg.keyboard.press("ArrowRight")
                        _wait_idle(pg)
                        _assert_no_exception(pg, f"{name} after moving a slider")
                pg.screenshot(path=str(SHOTS / f"{page.stem}.png"))
                plots = pg.locator(".js-plotly-plot").count()
                if name in PAGES_WITH_FIGURES:
                    assert plots > 0, f"{name}: no plotly figure rendered"
        finally:
            browser.close()
    assert time.monotonic() - started < 200
