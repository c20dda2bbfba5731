"""Several server processes behind nginx (``deploy/nginx.conf``): a session stays on one
process, and the processes share the class.

Two ``streamlit run app.py`` processes and Debian's nginx with the repository's
configuration (its processes and port replaced, :func:`bench.bench_class.nginx_config`);
students talk to nginx over Streamlit's websocket protocol (:mod:`bench._stclient`), each
with the sticky cookie a browser gets on its first request. nginx names the process that
answered in ``X-Lab-Upstream``. The processes start without the warm start (routing does
not depend on it; ``tests/test_serving.py`` tests the warmed server).
"""

from __future__ import annotations

import asyncio
import os
import shutil
from pathlib import Path

import pytest

from bench._stclient import Student

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


@pytest.fixture(scope="module")
def proxied():
    """``(proxy url, [upstream host:port, ...])`` for two lab processes behind nginx."""
    if not Path(NGINX).exists():
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("nginx is missing (bash tests/install_system_packages.sh).")
        pytest.skip("nginx is missing (bash tests/install_system_packages.sh).")
    from bench.bench_class import lab_servers, nginx_proxy

    with lab_servers(2, warm=False) as servers:
        upstreams = [url.removeprefix("http://") for url, _ in servers]
        with nginx_proxy(upstreams) as url:
            yield url, upstreams


def test_a_sessions_reruns_stay_on_one_process_and_a_class_is_split_evenly(proxied):
    url, upstreams = proxied

    async def student() -> list[str]:
        """Where each of a student's connections went: Home and a demo's button on one
        connection, then a reload (a new connection with the cookie the first request got)
        and a rerun."""
        seen = []
        async with Student(url) as s:
            cookie = s.cookie
            seen.append(s.upstream)
            assert not (await s.open("")).exceptions
            assert not (await s.click("demo.breast")).exceptions
        async with Student(url, cookie=cookie) as s:
            seen.append(s.upstream)
            assert not (await s.open("")).exceptions
        assert cookie == seen[0], (cookie, seen)
        return seen

    async def class_of(n: int):
        return await asyncio.gather(*(student() for _ in range(n)))

    visits = asyncio.run(class_of(12))
    for seen in visits:
        assert len(set(seen)) == 1, f"a student's connections went to {seen}"
        assert seen[0] in upstreams
    per_process = {u: sum(seen[0] == u for seen in visits) for u in upstreams}
    # A class arriving at once goes to the process with the fewest connections: an even
    # split up to the requests in flight together (a hash of random cookies gave 12/0 to
    # 9/3 as often as 6/6).
    assert max(per_process.values()) - min(per_process.values()) <= 2, per_process


def test_a_forged_cookie_cannot_choose_where_nginx_connects(proxied):
    """The sticky cookie is matched against the listed processes: any other value (another
    host, another port) is a new browser's, balanced over the listed processes."""
    url, upstreams = proxied

    async def where(cookie: str) -> str:
        async with Student(url, cookie=cookie) as s:
            return s.upstream

    for forged in ("127.0.0.1:22", "10.0.0.1:8501", "lab", f"{upstreams[0]}x"):
        assert asyncio.run(where(forged)) in upstreams, forged
    for pinned in upstreams:
        assert asyncio.run(where(pinned)) == pinned
