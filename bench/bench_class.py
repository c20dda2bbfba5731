"""A class in lockstep: N students doing one lesson at the same moment, over Streamlit's
websocket protocol (:mod:`bench._stclient`, no browser competing for the cores).

The lesson (:data:`LESSON`): Home → the AFS demo's button → one scaling-slider step (noise)
→ Home → the breast demo's button → one λ step → Home → the tasks demo's button (MSP vs
accuracy across the paper's tasks). Every student does
each step at once; the next step starts when all have finished. Per N it prints the p50,
p95 and max of the time from an interaction to the end of the run it caused, the errors
(exceptions shown, runs that did not finish), the server's CPU seconds per student (the
server and its child processes) and its resident memory with its children, with the 40
sessions still connected:

* ``cold``: the first class right after the server started (nothing computed yet);
* ``warm``: a second class of N new students on the same server;
* ``--proxy K``: K server processes behind nginx (``deploy/nginx.conf``'s sticky sessions),
  each measured the same way; CPU and memory are summed over the K processes.

``--clear-cache``: after the warm class, one student sends Streamlit's clear-cache message
and then opens Home; its server CPU is printed beside a warm Home's.

Run: ``python -m bench.bench_class --users 1 10 20 40 [--proxy 2] [--clear-cache]``.
Any error (a step whose widget is missing from its page, an exception shown, a run that did
not finish) is printed under its row and again at the end, and the exit status is 1.
The machine's load average is printed: on a shared machine the numbers move with it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import numpy as np
import psutil

from ._stclient import Student

ROOT = Path(__file__).resolve().parents[1]
NGINX_CONF = ROOT / "deploy" / "nginx.conf"
#: The shipped server without the warm start (``ui.serve`` runs the same after warming).
STREAMLIT_RUN = (sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"))

#: The lesson, one step at a time: (what, argument).
LESSON = (
    ("open", ""),
    ("click", "demo.afs"),
    ("slider", "fs.factor.1"),
    ("open", ""),
    ("click", "demo.breast"),
    ("slider", "lam"),
    ("open", ""),
    ("click", "demo.tasks"),
)


def free_port() -> int:
    """A free TCP port on the loopback interface."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_healthy(url: str, proc: subprocess.Popen | None = None, seconds: float = 300) -> None:
    """Until ``url/_stcore/health`` answers ``ok`` (at most ``seconds``)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError):
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                if r.read().strip() == b"ok":
                    return
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"the server exited with {proc.returncode}")
        time.sleep(0.3)
    raise RuntimeError(f"{url} did not become healthy in {seconds:.0f} s")


@contextlib.contextmanager
def lab_servers(count: int = 1, *, log_dir: Path | None = None, warm: bool = True):
    """``count`` lab servers as a class is served (``python -m ui.serve``: ``streamlit run
    app.py`` with the shipped ``.streamlit/config.toml``, warmed before it listens; with
    ``warm=False`` the same server without the warm start, for tests of routing alone) on
    free loopback ports; yields their ``(url, Popen)``."""
    procs, logs = [], []
    try:
        for i in range(count):
            port = free_port()
            log = (
                open(log_dir / f"streamlit-{i}.log", "w+b")
                if log_dir is not None
                else tempfile.TemporaryFile()
            )
            logs.append(log)
            cmd = [sys.executable, "-m", "ui.serve"] if warm else [*STREAMLIT_RUN]
            cmd += ["--server.port", str(port), "--server.address", "127.0.0.1"]
            proc = subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
            procs.append((f"http://127.0.0.1:{port}", proc))
        for url, proc in procs:
            wait_healthy(url, proc)
        yield procs
    finally:
        for _, proc in procs:
            proc.terminate()
        for _, proc in procs:
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
        for log in logs:
            log.close()


def nginx_config(upstreams: list[str], port: int, workdir: Path) -> Path:
    """``deploy/nginx.conf`` with its processes (the upstream's servers and the pinned map)
    and listening port replaced by these (``upstreams``: ``host:port``), runnable by an
    unprivileged user in ``workdir``."""
    text = NGINX_CONF.read_text()
    for block, lines in (
        ("servers", "".join(f"    server {u};\n" for u in upstreams)),
        ("pinned", "".join(f"    {u} {u};\n" for u in upstreams)),
    ):
        start = text.index(f"    # {block}: begin\n")
        end = text.index(f"    # {block}: end\n")
        text = text[:start] + f"    # {block}: begin\n" + lines + text[end:]
    text = text.replace("listen 8080;", f"listen 127.0.0.1:{port};")
    head = (
        f"pid {workdir}/nginx.pid;\nerror_log {workdir}/error.log;\n"
        "worker_processes 1;\nevents { worker_connections 1024; }\n"
    )
    body = (
        f"http {{\n    access_log off;\n    client_body_temp_path {workdir}/body;\n"
        f"    proxy_temp_path {workdir}/proxy;\n    fastcgi_temp_path {workdir}/fcgi;\n"
        f"    uwsgi_temp_path {workdir}/uwsgi;\n    scgi_temp_path {workdir}/scgi;\n"
        + text
        + "\n}\n"
    )
    path = workdir / "nginx.conf"
    path.write_text(head + body)
    return path


@contextlib.contextmanager
def nginx_proxy(upstreams: list[str]):
    """nginx (Debian's ``/usr/sbin/nginx``) in front of ``upstreams`` with the repository's
    ``deploy/nginx.conf``; yields its URL."""
    binary = shutil.which("nginx") or "/usr/sbin/nginx"
    workdir = Path(tempfile.mkdtemp(prefix="lab-nginx-"))
    port = free_port()
    conf = nginx_config(upstreams, port, workdir)
    proc = subprocess.Popen(
        [binary, "-c", str(conf), "-p", str(workdir), "-g", "daemon off;"],
        stdout=subprocess.DEVNULL,
        stderr=open(workdir / "stderr.log", "wb"),
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, proc, seconds=20)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        shutil.rmtree(workdir, ignore_errors=True)


def tree(pids: list[int]) -> list[psutil.Process]:
    """The processes ``pids`` and all their children."""
    out = []
    for pid in pids:
        with contextlib.suppress(psutil.NoSuchProcess):
            p = psutil.Process(pid)
            out.append(p)
            out.extend(p.children(recursive=True))
    return out


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds of ``pids`` and their children (live and reaped)."""
    total = 0.0
    for p in tree(pids):
        with contextlib.suppress(psutil.NoSuchProcess):
            t = p.cpu_times()
            total += t.user + t.system
            if p.pid in pids:
                total += t.children_user + t.children_system
    return total


def rss_mb(pids: list[int]) -> float:
    """Resident memory of ``pids`` and their children (MB)."""
    total = 0
    for p in tree(pids):
        with contextlib.suppress(psutil.NoSuchProcess):
            total += p.memory_info().rss
    return total / 1e6


async def _step(students, what: str, arg: str):
    async def one(s):
        try:
            if what == "open":
                return await s.open(arg)
            if what == "click":
                return await s.click(arg)
            return await s.step_slider(arg)
        except Exception as err:  # a run that did not finish is an error, not a crash
            return err

    return await asyncio.gather(*(one(s) for s in students))


async def run_class(url: str, n: int, pids: list[int], *, keep: list | None = None) -> dict:
    """N students through :data:`LESSON` in lockstep on ``url``; their times, errors, the
    server's CPU seconds (``pids`` and children) and memory with them connected. With
    ``keep`` (a list), the students stay connected and are appended to it."""
    students = [Student(url) for _ in range(n)]
    await asyncio.gather(*(s.__aenter__() for s in students))
    cpu0 = cpu_seconds(pids)
    times, errors, peak, steps = [], [], 0.0, []
    for what, arg in LESSON:
        cpu_step = cpu_seconds(pids)
        step_times = []
        for r in await _step(students, what, arg):
            if isinstance(r, Exception):
                errors.append(f"{what} {arg}: {type(r).__name__}: {r}")
            else:
                step_times.append(r.seconds)
                errors.extend(f"{what} {arg}: {e}" for e in r.exceptions)
        times += step_times
        p95 = float(np.percentile(step_times, 95)) if step_times else float("nan")
        steps.append((f"{what} {arg or 'Home'}", p95, cpu_seconds(pids) - cpu_step))
        peak = max(peak, rss_mb(pids))
    cpu = cpu_seconds(pids) - cpu0
    upstreams = {
        u: sum(s.upstream == u for s in students) for u in sorted({s.upstream for s in students})
    }
    if keep is None:
        await asyncio.gather(*(s.close() for s in students))
    else:
        keep.extend(students)
    t = np.asarray(times) if times else np.asarray([np.nan])
    return {
        "n": n,
        "p50": float(np.percentile(t, 50)),
        "p95": float(np.percentile(t, 95)),
        "max": float(np.max(t)),
        "errors": errors,
        "cpu_per_user": cpu / n,
        "rss_mb": peak,
        "upstreams": upstreams,
        "steps": steps,
    }


async def _home_cpu(url: str, pids: list[int], *, clear_first: bool) -> float:
    """Server CPU seconds of one new student's Home, after sending clear-cache if asked."""
    async with Student(url) as s:
        if clear_first:
            await s.clear_cache()
            await asyncio.sleep(0.5)
        cpu0 = cpu_seconds(pids)
        await s.open("")
        return cpu_seconds(pids) - cpu0


def load() -> str:
    """The machine's load average (1 and 5 min) and its number of cores, as printed."""
    one, five, _ = os.getloadavg()
    return f"load {one:.2f} (1 min), {five:.2f} (5 min), {os.cpu_count()} cores"


def _row(label: str, r: dict) -> str:
    err = len(r["errors"])
    return (
        f"| {label} | {r['n']} | {r['p50']:.2f} | {r['p95']:.2f} | {r['max']:.2f} | {err} | "
        f"{r['cpu_per_user']:.2f} | {r['rss_mb']:.0f} |"
    )


def measure(
    users: list[int], processes: int, clear_cache: bool, errors: list[str] | None = None
) -> list[str]:
    """The table rows for ``users`` on ``processes`` servers (behind nginx when > 1); every
    error of every class is appended to ``errors``."""
    rows = []
    errors = [] if errors is None else errors
    for n in users:
        with lab_servers(processes) as servers:
            pids = [p.pid for _, p in servers]
            proxy = (
                nginx_proxy([u.removeprefix("http://") for u, _ in servers])
                if processes > 1
                else contextlib.nullcontext(servers[0][0])
            )
            with proxy as url:
                where = f"{processes} behind nginx" if processes > 1 else "1 process"
                cold = asyncio.run(run_class(url, n, pids))
                rows.append(_row(f"{where}, cold", cold))
                print(rows[-1], f"[{load()}]", flush=True)
                kept: list = []

                async def warm_then_hold(url=url, n=n, pids=pids, kept=kept):
                    r = await run_class(url, n, pids, keep=kept)
                    rss = rss_mb(pids)
                    extra = {}
                    if clear_cache:
                        extra["warm_home"] = await _home_cpu(url, pids, clear_first=False)
                        extra["cleared_home"] = await _home_cpu(url, pids, clear_first=True)
                    await asyncio.gather(*(s.close() for s in kept))
                    return r, rss, extra

                warm, held, extra = asyncio.run(warm_then_hold())
                warm["rss_mb"] = max(warm["rss_mb"], held)
                rows.append(_row(f"{where}, warm", warm))
                print(rows[-1], f"[{load()}]", flush=True)
                for r in (cold, warm):
                    print(
                        "   per step (p95 s, server CPU-s): "
                        + "; ".join(f"{name} {p:.2f}, {c:.2f}" for name, p, c in r["steps"]),
                        flush=True,
                    )
                    for e in r["errors"][:5]:
                        print("   ERROR:", e, flush=True)
                errors.extend(cold["errors"] + warm["errors"])
                if processes > 1:
                    print(f"   students per process (warm class): {warm['upstreams']}", flush=True)
                if extra:
                    print(
                        f"   Home after clear-cache: {extra['cleared_home']:.3f} CPU-s; "
                        f"warm Home: {extra['warm_home']:.3f} CPU-s",
                        flush=True,
                    )
    return rows


def main(argv=None) -> None:
    """Measure the classes the command line asks for and print their table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--users", type=int, nargs="+", default=[1, 10, 20, 40])
    parser.add_argument("--proxy", type=int, default=0, help="server processes behind nginx")
    parser.add_argument("--clear-cache", action="store_true")
    args = parser.parse_args(argv)
    print(f"# bench_class [{load()}]")
    print("| servers | students | p50 (s) | p95 (s) | max (s) | errors | CPU-s per student | MB |")
    print("|---|---|---|---|---|---|---|---|")
    errors: list[str] = []
    measure(args.users, 1, args.clear_cache, errors)
    if args.proxy > 1:
        measure(args.users, args.proxy, args.clear_cache, errors)
    if errors:
        # A lesson step that failed (a widget gone from its page, an exception shown) makes
        # every number above meaningless: said last, and in the exit status.
        print(f"# {len(errors)} ERRORS; first: {errors[0]}", file=sys.stderr, flush=True)
        sys.exit(1)


if __name__ == "__main__":
    main()
