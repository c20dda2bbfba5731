"""Cache integrity of the experiment runner (issue 12, item 3): a corrupt, edited or foreign
cell file is recomputed with a warning and never used; an interrupted run leaves no worker."""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from lab.experiments import Cell, RunInterrupted, _cells, run_cells
from lab.experiments._runner import checksum

psutil = pytest.importorskip("psutil")

CELL = Cell.make("cache-test", "mspc-mpm", "breast", {"lam": 1.0})
GOOD = {"status": "ok", "error": None, "seconds": 0.5, "accuracy": 0.9, "nmi": 0.5,
        "rand": 0.8, "f_measure": 0.7, "msp": 0.6, "msp_own": None, "n_iter": 3,
        "n_clusters": 2, "warnings": []}  # fmt: skip


def _fake(cell):
    return dict(GOOD)


def _counting(monkeypatch):
    calls = []

    def compute(cell):
        calls.append(cell.key)
        return dict(GOOD)

    monkeypatch.setattr(_cells, "compute_cell", compute)
    return calls


def _path(tmp_path):
    return tmp_path / f"{CELL.key}.json"


def _stored(tmp_path):
    return json.loads(_path(tmp_path).read_text())


def test_stored_cell_carries_key_schema_and_checksum(tmp_path, monkeypatch):
    calls = _counting(monkeypatch)
    run_cells([CELL], tmp_path)
    data = _stored(tmp_path)
    assert data["key"] == CELL.key and data["schema"] == 2
    assert data["checksum"] == checksum(data["result"]) == checksum(GOOD)
    run_cells([CELL], tmp_path)
    assert len(calls) == 1  # the valid file is used


def _edit_accuracy(data):
    data["result"]["accuracy"] = 12.345
    return data


def _edit_small(data):  # plausible value, but the checksum no longer matches
    data["result"]["accuracy"] = 0.91
    return data


CORRUPTIONS = {
    "list": lambda text, data: "[]",
    "string result": lambda text, data: json.dumps({"key": CELL.key, "result": "x"}),
    "empty result": lambda text, data: json.dumps({"key": CELL.key, "result": {}}),
    "number": lambda text, data: "3",
    "edited out of range": lambda text, data: json.dumps(_edit_accuracy(data)),
    "edited in range": lambda text, data: json.dumps(_edit_small(data)),
    "truncated": lambda text, data: text[: len(text) // 2],
    "empty file": lambda text, data: "",
    "other key": lambda text, data: json.dumps({**data, "key": "0" * 20}),
    "binary": lambda text, data: b"\xff\xfe\x00garbage".decode("latin-1"),
    "bad status": lambda text, data: json.dumps(
        {**data, "result": {**data["result"], "status": "great"}}
    ),
    "nan accuracy": lambda text, data: json.dumps(
        {**data, "result": {**data["result"], "accuracy": float("nan")}}
    ),
}


@pytest.mark.parametrize("corruption", list(CORRUPTIONS))
def test_corrupt_cell_is_recomputed_with_a_warning(tmp_path, monkeypatch, caplog, corruption):
    calls = _counting(monkeypatch)
    run_cells([CELL], tmp_path)
    text = _path(tmp_path).read_text()
    _path(tmp_path).write_text(CORRUPTIONS[corruption](text, json.loads(text)))
    with caplog.at_level(logging.WARNING, logger="lab.experiments"):
        [(_, result)] = run_cells([CELL], tmp_path)
    assert len(calls) == 2, "the corrupt cell must be recomputed"
    assert result == GOOD
    assert any(CELL.key in r.getMessage() and "recomputed" in r.getMessage()
               for r in caplog.records)  # fmt: skip
    assert _stored(tmp_path)["checksum"] == checksum(GOOD)  # repaired on disk


def test_cell_without_a_checksum_is_recomputed(tmp_path, monkeypatch):
    calls = _counting(monkeypatch)
    old = {"key": CELL.key, "cell": CELL.to_json(), "result": GOOD}
    _path(tmp_path).write_text(json.dumps(old))
    [(_, result)] = run_cells([CELL], tmp_path)
    assert len(calls) == 1 and result == GOOD
    assert _stored(tmp_path)["checksum"] == checksum(GOOD)


def _restamped(**changes):
    """A stored cell edited and given the checksum of its edited result."""

    def edit(text, data):
        result = {**data["result"], **changes}
        return json.dumps({**data, "result": result, "checksum": checksum(result)})

    return edit


@pytest.mark.parametrize(
    "changes",
    [
        {"msp": -5.0},
        {"msp": float("inf")},
        {"msp": 1.5},
        {"msp_own": -0.1},
        {"accuracy": float("inf")},
        {"status": "skipped", "error": "made up"},
    ],
    ids=["msp -5", "msp inf", "msp 1.5", "msp_own < 0", "accuracy inf", "ok turned skipped"],
)
def test_a_restamped_cell_out_of_range_is_recomputed(tmp_path, monkeypatch, caplog, changes):
    calls = _counting(monkeypatch)
    run_cells([CELL], tmp_path)
    text = _path(tmp_path).read_text()
    _path(tmp_path).write_text(_restamped(**changes)(text, json.loads(text)))
    with caplog.at_level(logging.WARNING, logger="lab.experiments"):
        [(_, result)] = run_cells([CELL], tmp_path)
    assert len(calls) == 2 and result == GOOD
    assert any("recomputed" in r.getMessage() for r in caplog.records)


def test_a_true_skip_is_kept(tmp_path, monkeypatch):
    cell = Cell.make("cache-test", "no-such-method", "breast")
    [(_, first)] = run_cells([cell], tmp_path)
    assert first["status"] == "skipped"
    calls = _counting(monkeypatch)
    [(_, again)] = run_cells([cell], tmp_path)
    assert calls == [] and again == first


def _fifo(path):
    os.mkfifo(path)


def _urandom(path):
    path.symlink_to("/dev/urandom")


def _directory(path):
    path.mkdir()
    (path / "inside.json").write_text("{}")


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    ("make", "kind"),
    [(_fifo, "a FIFO"), (_urandom, "a symbolic link"), (_directory, "a directory")],
    ids=["fifo", "symlink to /dev/urandom", "directory"],
)
def test_a_cell_path_that_is_not_a_regular_file_is_refused(
    tmp_path, monkeypatch, caplog, make, kind
):
    calls = _counting(monkeypatch)
    make(_path(tmp_path))
    with caplog.at_level(logging.WARNING, logger="lab.experiments"):
        [(_, result)] = run_cells([CELL], tmp_path)
    assert calls == [CELL.key] and result == GOOD
    assert any(kind in r.getMessage() for r in caplog.records)
    if kind == "a directory":  # cannot be replaced: computed, not cached, and said so
        assert any("not cached" in r.getMessage() for r in caplog.records)
        assert _path(tmp_path).is_dir()
    else:  # the link or FIFO itself is replaced by the cell file
        assert _stored(tmp_path)["result"] == GOOD
        assert Path("/dev/urandom").is_char_device()


def test_ctrl_c_raises_run_interrupted_with_a_one_line_summary(tmp_path, monkeypatch):
    cells = [Cell.make("cache-test", "mspc-mpm", "breast", {"lam": lam}) for lam in (1, 2, 3)]
    seen = []

    def stop_at_third(cell):
        if len(seen) == 2:
            raise KeyboardInterrupt
        seen.append(cell)
        return dict(GOOD)

    monkeypatch.setattr(_cells, "compute_cell", stop_at_third)
    with pytest.raises(RunInterrupted) as info:
        run_cells(cells, tmp_path)
    assert (info.value.done, info.value.total) == (2, 3)
    line = info.value.summary()
    assert "\n" not in line and "2 of 3 cells are kept" in line


_SCRIPT = """
import sys, time
sys.path.insert(0, {tmp!r})
import slowcell
from lab.experiments import Cell, run_cells
cells = [Cell.make("kill-test", "mspc-mpm", "breast", {{"lam": float(i)}}) for i in range(8)]
run_cells(cells, {cache!r}, n_jobs=2, backend="loky", compute=slowcell.slow)
"""

_SLOWCELL = """
import os, time
def slow(cell):
    open(os.path.join(os.path.dirname(__file__), f"started-{os.getpid()}"), "w").close()
    end = time.monotonic() + 120
    while time.monotonic() < end:  # busy, like a real fit
        sum(i * i for i in range(10000))
    return {"status": "failed", "error": "slow"}
"""


def _workers_when_busy(proc, directory, n=2, timeout=120.0):
    """The worker processes, once ``n`` of them are inside a cell."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        started = list(directory.glob("started-*"))
        if len(started) >= n:
            return [psutil.Process(int(p.name.split("-")[1])) for p in started]
        if proc.poll() is not None:
            raise AssertionError(f"the run ended early: {proc.stderr.read()}")
        time.sleep(0.2)
    raise AssertionError("the loky workers never started")


@pytest.mark.parametrize(
    "sig", [signal.SIGKILL, signal.SIGTERM, signal.SIGINT], ids=lambda s: s.name
)
def test_interrupted_run_leaves_no_live_worker(tmp_path, sig):
    (tmp_path / "slowcell.py").write_text(_SLOWCELL)
    script = _SCRIPT.format(tmp=str(tmp_path), cache=str(tmp_path / "cache"))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), os.getcwd()])}
    proc = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(script)],
        env=env,
        stderr=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parents[1],
    )
    children: list = []
    descendants: list = []
    try:
        children = _workers_when_busy(proc, tmp_path)
        descendants = psutil.Process(proc.pid).children(recursive=True)
        os.kill(proc.pid, sig)
        proc.wait(timeout=30)
        _, alive = psutil.wait_procs(children, timeout=10)
        alive = [p for p in alive if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
        assert alive == [], f"workers still running 10 s after {sig.name}: {alive}"
    finally:
        if proc.poll() is None:
            proc.kill()
        # Only the run's own workers: the test process's other children (loky's resource
        # tracker of this pytest process, for one) must live on.
        for child in {*children, *descendants}:
            if child.is_running():
                child.kill()


def test_two_configurations_never_overwrite_each_other_in_one_out(tmp_path, monkeypatch):
    from lab.experiments import run_experiment
    from lab.experiments.__main__ import main

    _counting(monkeypatch)
    first = {"methods": ["mspc-mpm"], "tasks": ["breast"], "options": {"grid": {"lam": [1.0]}}}
    run_experiment("table2", tmp_path, **first)
    config = (tmp_path / "table2_config.json").read_text()
    table = (tmp_path / "table2.csv").read_text()
    other = {**first, "tasks": ["ionosphere"]}
    with pytest.raises(ValueError, match=r"already holds a run of table2 with other tasks"):
        run_experiment("table2", tmp_path, **other)
    assert (tmp_path / "table2_config.json").read_text() == config
    assert (tmp_path / "table2.csv").read_text() == table
    run_experiment("table2", tmp_path, **first)  # the same configuration resumes
    # (and records the machine it resumed on: its load average differs from run to run)
    config = (tmp_path / "table2_config.json").read_text()
    assert main(["table2", "--out", str(tmp_path), "--tasks", "ionosphere", "--quiet",
                 "--methods", "mspc-mpm"]) == 2  # fmt: skip
    assert (tmp_path / "table2_config.json").read_text() == config
    run_experiment("table2", tmp_path, replace=True, **other)
    assert json.loads((tmp_path / "table2_config.json").read_text())["tasks"] == ["ionosphere"]
