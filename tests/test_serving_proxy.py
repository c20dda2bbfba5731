"""Several server processes behind nginx (``deploy/nginx.conf``): a session stays on one
process, and the processes share the class.

Two ``streamlit run app.py`` processes and Debian's nginx with the repository's
configuration (its upstream list and port replaced, :func:`bench.bench_class.nginx_config`);
students talk to nginx over Streamlit's websocket protocol (:mod:`bench._stclient`), each
with the sticky cookie a browser gets on its first request. nginx names the process that
answered in ``X-Lab-Upstream``.
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

    with lab_servers(2) as servers:
        upstreams = [url.removeprefix("http://") for url, _ in servers]
        with nginx_proxy(upstreams) as url:
            yield url, upstreams


def test_a_sessions_reruns_stay_on_one_process_and_both_processes_serve(proxied):
    url, upstreams = proxied

    async def student(cookie: str) -> list[str]:
        """Where each of a student's connections went: Home and a demo's button on one
        connection, then a reload (a new connection with the same cookie) and a rerun."""
        seen = []
        async with Student(url, cookie=cookie) as s:
            seen.append(s.upstream)
            assert not (await s.open("")).exceptions
            assert not (await s.click("demo.breast")).exceptions
        async with Student(url, cookie=cookie) as s:
            seen.append(s.upstream)
            assert not (await s.open("")).exceptions
        return seen

    async def class_of(n: int):
        return await asyncio.gather(*(student(f"student{i:02d}") for i in range(n)))

    visits = asyncio.run(class_of(12))
    for seen in visits:
        assert len(set(seen)) == 1, f"a student's connections went to {seen}"
        assert seen[0] in upstreams
    served = {seen[0] for seen in visits}
    assert served == set(upstreams), f"only {served} served 12 students"
