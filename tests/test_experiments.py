"""The experiment runner: tiny sweeps end to end, resume, the Dask backend, and the MSPC
paper's Table 2 numbers for MSPC-MPM."""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd
import pytest

import datasets
from lab.experiments import (
    EXPERIMENTS,
    PUBLISHED_DIR,
    Cell,
    _cells,
    load_stored,
    run_cells,
    run_experiment,
)
from lab.experiments.__main__ import main as cli_main
from lab.experiments._methods import LAM_GRID

TINY = {
    "methods": ["mspc-mpm", "mspc-eig"],
    "tasks": ["ionosphere", "breast"],
    "options": {"grid": {"lam": [0.1, 1.0]}},
}


def _cache_files(path):
    return sorted(p.name for p in path.glob("*.json"))


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    """One tiny table2 run shared by the tests that only read its output."""
    out = tmp_path_factory.mktemp("tiny")
    seen = []
    result = run_experiment("table2", out, progress=lambda d, t, m: seen.append((d, t, m)), **TINY)
    return out, result, seen


def test_tiny_table2_end_to_end(tiny_run):
    tmp_path, result, seen = tiny_run
    # Progress is reported once with the cache read and once after every cell (2 methods x
    # 2 tasks x (2 lam values + the default setting)).
    assert [(d, t) for d, t, _ in seen] == [(i, 12) for i in range(13)]
    table = pd.read_csv(tmp_path / "table2.csv")
    assert table["task"].tolist() == ["ionosphere", "breast"]
    for method in TINY["methods"]:
        assert ((table[method] >= 0) & (table[method] <= 50)).all()
        assert f"paper_{method}" in table
    assert table.loc[table["task"] == "breast", "paper_mspc-mpm"].item() == 2.93
    # Selection by accuracy can only beat (or tie) the label-free selections on the grid.
    for name in ("msp", "msp_heldout"):
        label_free = pd.read_csv(tmp_path / f"table2_{name}.csv")
        assert (table["mspc-mpm"] <= label_free["mspc-mpm"] + 1e-9).all()
        assert label_free[TINY["methods"]].notna().all().all()
    # 2 methods x 2 tasks x (2 lam values + the default), each cached once.
    assert len(_cache_files(tmp_path / "cells" / "table2")) == 12
    assert (tmp_path / "table2.md").read_text().startswith("## MSPC paper, Table 2")
    stored = load_stored("table2", tmp_path)
    pd.testing.assert_frame_equal(stored.main, result.main, check_exact=False, rtol=1e-9)
    assert len(EXPERIMENTS["table2"].figures(stored)) == 1


def test_default_setting_is_reported_but_never_chosen(tiny_run):
    """The default-setting cells (MSPC's lam 0.2, off the overridden grid) fill the "no
    choice" table and take no part in the choices on the grid: on breast lam 0.2 is more
    accurate than both grid values, and the accuracy column still shows the grid's best."""
    _, result, _ = tiny_run
    cells = result.cells
    mpm = cells[(cells.method == "mspc-mpm") & (cells.task == "breast")]
    default = mpm[mpm.params == "{}"]["accuracy"].item()
    on_grid = mpm[mpm.params != "{}"]["accuracy"].max()
    assert default > on_grid  # what makes the test able to fail
    breast = result.tables["errors"].task == "breast"
    assert result.tables["errors"].loc[breast, "mspc-mpm"].item() == pytest.approx(
        100 * (1 - on_grid)
    )
    shown = result.tables["default"].loc[breast, "mspc-mpm"].item()
    assert shown == pytest.approx(100 * (1 - default))
    rules = result.tables["rules"].set_index("method")
    assert rules.loc["mspc-mpm", "default setting"] < rules.loc["mspc-mpm", "by accuracy (paper)"]


def test_error_table_matches_the_cells(tiny_run):
    _, result, _ = tiny_run
    cells = result.cells
    best = cells[(cells.method == "mspc-eig") & (cells.task == "breast")]["accuracy"].max()
    shown = result.main.loc[result.main.task == "breast", "mspc-eig"].item()
    assert shown == pytest.approx(100 * (1 - best))


def test_resume_after_interruption_recomputes_nothing_finished(tmp_path, monkeypatch):
    real = _cells.compute_cell
    calls: list[str] = []

    def crash_after_three(cell):
        if len(calls) == 3:
            raise KeyboardInterrupt  # the run is stopped (Ctrl-C, a killed job)
        calls.append(cell.key)
        return real(cell)

    monkeypatch.setattr(_cells, "compute_cell", crash_after_three)
    with pytest.raises(KeyboardInterrupt):
        run_experiment("table2", tmp_path, **TINY)
    cache = tmp_path / "cells" / "table2"
    assert len(_cache_files(cache)) == 3
    first = list(calls)

    calls.clear()

    def counting(cell):
        calls.append(cell.key)
        return real(cell)

    monkeypatch.setattr(_cells, "compute_cell", counting)
    resumed = run_experiment("table2", tmp_path, **TINY)
    assert len(calls) == 9 and not set(calls) & set(first)
    calls.clear()
    again = run_experiment("table2", tmp_path, **TINY)
    assert calls == []
    pd.testing.assert_frame_equal(again.main, resumed.main)
    fresh = run_experiment("table2", tmp_path / "fresh", **TINY)
    pd.testing.assert_frame_equal(fresh.main, resumed.main)


def test_failed_cells_are_cached_and_can_be_retried(tmp_path, monkeypatch):
    cells = [Cell.make("t", "mspc-mpm", "breast", {"lam": lam}) for lam in (0.1, 1.0)]
    monkeypatch.setattr(_cells, "compute_cell", lambda cell: {"status": "failed", "error": "boom"})
    out = run_cells(cells, tmp_path)
    assert [r["status"] for _, r in out] == ["failed", "failed"]
    monkeypatch.undo()
    assert [r["status"] for _, r in run_cells(cells, tmp_path)] == ["failed", "failed"]
    retried = run_cells(cells, tmp_path, retry_failed=True)
    assert [r["status"] for _, r in retried] == ["ok", "ok"]


def test_missing_methods_are_skipped_with_a_reason(tmp_path):
    result = run_experiment(
        "table2",
        tmp_path,
        methods=["mspc-eig", "no-such-method"],
        tasks=["breast"],
        options={"grid": {"lam": [1.0]}},
    )
    assert result.config.methods == ["mspc-eig"]
    assert "no-such-method" in result.config.skipped
    assert "not available" in result.markdown and "no-such-method" in result.markdown


def test_dask_backend_on_a_local_cluster_gives_the_same_tables(tmp_path):
    distributed = pytest.importorskip("distributed")
    loky = run_experiment("table2", tmp_path / "loky", n_jobs=2, **TINY)
    cluster = distributed.LocalCluster(
        n_workers=1,
        threads_per_worker=2,
        processes=False,
        protocol="tcp",
        host="127.0.0.1",
        dashboard_address=None,
    )
    try:
        dask = run_experiment(
            "table2",
            tmp_path / "dask",
            backend="dask",
            scheduler=cluster.scheduler_address,
            **TINY,
        )
    finally:
        cluster.close()
    assert len(_cache_files(tmp_path / "dask" / "cells" / "table2")) == 12
    pd.testing.assert_frame_equal(dask.main, loky.main)


def test_command_line_writes_csv_and_markdown(tmp_path, capsys):
    code = cli_main(
        [
            "afs",
            "--out",
            str(tmp_path),
            "--methods",
            "mspc-mpm-std,mspc-mpm",
            "--tasks",
            "breast",
            "--option",
            "repeats=2",
            "--option",
            "factors=[1,16]",
            "--quiet",
        ]
    )
    assert code == 0
    table = pd.read_csv(tmp_path / "afs.csv")
    invariant = table[table.method == "mspc-mpm-std"].iloc[0]
    # The AFS-invariant pipeline (issue 8) gives the same labels whatever the scaling.
    assert invariant["x1"] == invariant["x16"]
    assert (tmp_path / "afs.md").is_file()
    config = json.loads((tmp_path / "afs_config.json").read_text())
    assert config["options"]["repeats"] == 2


@pytest.mark.parametrize(("task", "paper"), [("breast", 2.93), ("satellite", 0.63)])
def test_table2_mspc_mpm_matches_the_paper(tmp_path, task, paper):
    """MSPC paper Table 2, MSPC-MPM, lam chosen by accuracy from {1e-4, ..., 1e4}."""
    result = run_experiment(
        "table2",
        tmp_path,
        methods=["mspc-mpm"],
        tasks=[task],
        options={"grid": {"lam": list(LAM_GRID)}},
    )
    assert result.main["mspc-mpm"].item() == pytest.approx(paper, abs=0.5)


def test_published_results_have_the_documented_columns():
    stored = load_stored("table2", PUBLISHED_DIR)
    if stored is None:
        pytest.skip("no published table2 result")
    table = pd.read_csv(PUBLISHED_DIR / "table2.csv")
    assert table["task"].tolist() == list(datasets.UCI_TASKS)  # its order: test_datasets_bundled
    assert {"mspc-mpm", "paper_mspc-mpm", "kmeans", "paper_kmeans"} <= set(table.columns)
    breast = table.loc[table.task == "breast", "mspc-mpm"].item()
    assert np.isclose(breast, 2.93, atol=0.5)


def test_report_puts_measured_and_paper_values_side_by_side(tiny_run, tmp_path):
    out, _, _ = tiny_run
    target = tmp_path / "REPRODUCTION.md"
    assert cli_main(["report", "--out", str(out), "--file", str(target)]) == 0
    text = target.read_text()
    assert "### MSPC paper, Table 2" in text
    assert "2.93 (2.93" in text or "(2.93, " in text
    assert "Gap summary" in text
    assert "python -m lab.experiments report" in text
    assert "_Not run yet" in text  # the experiments without a stored result say so


def test_committed_reproduction_md_is_what_the_report_builds(tmp_path):
    """REPRODUCTION.md is generated: an edit by hand, a changed note in
    ``lab/experiments/notes/`` or a changed stored result without rebuilding it fails here."""
    target = tmp_path / "REPRODUCTION.md"
    assert cli_main(["report", "--file", str(target)]) == 0
    assert target.read_text() == _committed_reproduction(), (
        "REPRODUCTION.md differs from what `python -m lab.experiments report` builds: rebuild it"
    )


def test_each_paper_experiment_compares_the_lineup_spelled_once_in_methods():
    """A method joins a paper's table by one entry in ``_methods.LINEUPS``: every
    experiment but the multi-class one (which builds its own) compares exactly its lineup,
    and every column of a lineup runs a registered method."""
    from lab.experiments._methods import LINEUPS, resolve

    assert set(LINEUPS) == set(EXPERIMENTS) - {"multiclass"}
    for name, lineup in LINEUPS.items():
        assert tuple(EXPERIMENTS[name].methods) == lineup, name
        for column in lineup:
            assert any(_resolves(resolve, m) for m in column.split("|")), (name, column)


def _resolves(resolve, method: str) -> bool:
    try:
        resolve(method)
    except KeyError:
        return False
    return True


def _committed_reproduction() -> str:
    return (PUBLISHED_DIR.parents[2] / "REPRODUCTION.md").read_text()


def test_reproduction_md_has_one_part_per_paper_each_opening_with_what_it_reproduces():
    from lab.experiments._report import PARTS, slug

    text = _committed_reproduction()
    parts = re.split(r"^## ", text, flags=re.M)[1:]
    assert [part.splitlines()[0] for part in parts] == [
        f"Part {i}: {title}" for i, (title, *_) in enumerate(PARTS, start=1)
    ]
    for part in parts:
        heading = part.splitlines()[0]
        assert f"(#{slug(heading)})" in text  # listed, with its anchor, at the top
        opening = part.split("\n\n")[1]  # the paragraph under the heading: prose, not a table
        assert len(opening.split()) > 20 and not opening.startswith(("|", "#", "-"))
    named = {name for *_, names in PARTS for name in names}
    assert named == set(EXPERIMENTS)  # every experiment in exactly one part
    assert sum(len(names) for *_, names in PARTS) == len(named)


def test_reproduction_md_has_no_line_to_scroll_and_no_internal_reference():
    text = _committed_reproduction()
    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith("|"):
            continue  # a table row is as wide as its columns
        assert len(line) <= 100 or " " not in line.strip(), (number, line[:80])
    for pattern in (r"\bissue\b", r"\bcommit `", r"\bsession\b", r"shared/papers"):
        assert not re.search(pattern, text, flags=re.I), pattern


def test_wrapping_prose_keeps_every_word_and_starts_no_markdown_block():
    from lab.experiments._report import wrap_prose

    line = "- " + " ".join(["word"] * 30 + ["- 5", "# 3", "| x", "1. y", "`a b`"] * 4)
    wrapped = wrap_prose(line, width=40).splitlines()
    assert " ".join(wrapped).split() == line.split()
    assert wrapped[0].startswith("- ") and all(w.startswith("  ") for w in wrapped[1:])
    for w in wrapped[1:]:
        assert w.strip()[0] not in "-#|" and not re.match(r"\s*\d+\.", w)
    table = "| a | " + "b " * 80 + "|"
    assert wrap_prose(table, width=40) == table  # tables and code are left as they are
    code = "```\n" + "x " * 80 + "\n```"
    assert wrap_prose(code, width=40) == code


def test_wrapping_breaks_before_the_word_in_front_of_one_that_cannot_open_a_line():
    from lab.experiments._report import wrap

    # "0.3.31.188.0)," would open a numbered list: the break moves one word back.
    line = "Machine: AMD EPYC, numpy 2.4.6 (scipy-openblas 0.3.31.188.0), scikit-learn 1.9.1."
    wrapped = wrap(line, width=60)
    assert " ".join(wrapped).split() == line.split()
    assert all(len(w) <= 60 for w in wrapped), wrapped


def test_reproduce_page_shows_results_and_runs_one_task_live():
    from streamlit.testing.v1 import AppTest

    app = AppTest.from_file("../pages/6_Reproduce.py", default_timeout=120).run()
    assert not app.exception
    app.selectbox(key="repro.experiment").set_value("table2").run()
    app.selectbox(key="repro.task.table2").set_value("breast").run()
    app.multiselect(key="repro.methods.table2").set_value(["mspc-eig"]).run()
    app.button(key="repro.run.table2").click().run()
    assert not app.exception and not app.error
    assert any(m.value.startswith("**Live result** (breast)") for m in app.markdown)
    for name in EXPERIMENTS:
        app.selectbox(key="repro.experiment").set_value(name).run()
        assert not app.exception, name
