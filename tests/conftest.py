"""Shared fixtures."""

from __future__ import annotations

import os
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlparse

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
APP = str(ROOT / "app.py")


def packages_loaded_by(code: str) -> set[str]:
    """The top-level packages in ``sys.modules`` after ``code`` ran in a fresh interpreter at
    the repository root."""
    code += "\nimport sys; print(' '.join(sorted({m.split('.')[0] for m in sys.modules})))"
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return set(out.stdout.splitlines()[-1].split())


def run_page(path: str, *, timeout: int = 120, **query: str):
    """One page file in Streamlit's AppTest, run once with ``query`` in its link."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(path, default_timeout=timeout)
    for key, value in query.items():
        at.query_params[key] = value
    return at.run()


def assert_clean(at) -> None:
    """The page ran without an exception and shows no error message."""
    assert not at.exception, [e.message for e in at.exception]
    assert not at.error, [e.value for e in at.error]


def open_app(page: str | None = None, query: dict | None = None, *, timeout: int = 120):
    """The lab in Streamlit's AppTest, opened at ``app.py`` with ``query`` in its link (as a
    user arrives), then switched to ``page``; no run may raise."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(APP, default_timeout=timeout)
    for k, v in (query or {}).items():
        at.query_params[k] = v
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    if page is not None:
        at.switch_page(page)
        at.run()
        assert not at.exception, [e.message for e in at.exception]
    return at


def upload_csv(at, name: str, content: bytes):
    """Upload ``content`` as the CSV file ``name`` on the Data page of ``at`` (choosing the
    upload source first); no run may raise."""
    if at.radio(key="data.source").value != "upload":
        at.radio(key="data.source").set_value("upload").run()
    at.file_uploader(key="data.upload").set_value((name, content, "text/csv")).run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def two_gaussians(n_per: int = 60, d: int = 2, gap: float = 8.0, seed: int = 0):
    """Two well-separated round Gaussian clusters, labels 0/1.

    The means differ by ``gap`` along the diagonal, so that every feature carries the
    cluster structure (a spectral relaxation on standardised features, such as MSPC-EIG,
    needs correlated features to see it).
    """
    rng = np.random.default_rng(seed)
    X0 = rng.normal(0.0, 1.0, (n_per, d))
    X1 = rng.normal(0.0, 1.0, (n_per, d)) + gap / np.sqrt(d)
    return np.vstack([X0, X1]), np.repeat([0, 1], n_per)


def make_cvxpy_fail(monkeypatch, message: str = "numerical trouble") -> None:
    """From here on in the test, every cvxpy solve raises cvxpy's ``SolverError(message)``."""
    import cvxpy as cp

    def broken(self, *args, **kwargs):
        raise cp.SolverError(message)

    monkeypatch.setattr(cp.Problem, "solve", broken)


@pytest.fixture
def blobs():
    return two_gaussians()


# Hypothesis: fixed examples in CI (a failure there is reproducible from the log); fresh random
# examples on developers' machines, where new failures are found and pinned with @example.
try:
    from hypothesis import settings

    settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
    settings.register_profile("dev", deadline=None)
    settings.load_profile("ci" if os.environ.get("CI") else "dev")
except ImportError:  # pragma: no cover - hypothesis is in requirements-dev.txt
    pass


def unescaped(text: str) -> str:
    """What Streamlit shows for Markdown escaped by :func:`ui.text.plain` (backslash escapes
    resolved, the invisible word joiners removed): for tests that look for a user's value
    or a backend message in an alert or caption."""
    import re

    return re.sub(r"\\(.)", r"\1", text).replace("\u2060", "")


# ------------------------------------------------------------------ the browser tests' set-up
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
LOOPBACK = {"127.0.0.1", "localhost", "::1", "[::1]"}


@pytest.fixture(scope="module")
def server():
    """The app served by ``streamlit run app.py`` on a free loopback port (its URL), one
    server per test module; its log goes to ``artifacts/streamlit-browser-test.log``."""
    from bench.bench_browser import streamlit_server

    (ROOT / "artifacts").mkdir(exist_ok=True)
    with streamlit_server(log_path=ROOT / "artifacts" / "streamlit-browser-test.log") as url:
        yield url


@contextmanager
def chromium():
    """Headless Chromium, closed on exit. The test is skipped when Chromium or Playwright is
    missing, and fails then under ``CI=true``."""
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
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def offline_context(browser, width: int = 1400, height: int = 2400):
    """A new context of ``browser`` (a ``width`` x ``height`` window) in which every request
    to a non-loopback host is aborted; returns it and the list those requests are recorded
    in."""
    context = browser.new_context(viewport={"width": width, "height": height})
    external: list[str] = []

    def route(r):
        url = r.request.url
        host = urlparse(url).hostname
        if url.startswith(("data:", "blob:", "about:")) or host in LOOPBACK:
            r.continue_()
        else:
            external.append(url)
            r.abort()

    context.route("**/*", route)
    return context, external


@pytest.fixture(autouse=True)
def _fresh_shared_results():
    """Every test starts with the server-wide results of :mod:`ui.shared` empty, as a new
    server does: one test's monkeypatched fit must not stay in them for the next test."""
    yield
    import sys

    shared = sys.modules.get("ui.shared")
    if shared is not None:
        shared.clear_all()
