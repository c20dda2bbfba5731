"""The experiments added for issue 15 (DIFFRAC Fig. 1 and Table 1, MVC Fig. 2) and the
coverage table of REPRODUCTION.md, in tiny configurations."""

from __future__ import annotations

import numpy as np
import pytest

from lab.experiments import EXPERIMENTS, load_stored, run_experiment
from lab.experiments._coverage import COVERAGE, STATUSES, coverage_frame
from lab.experiments.diffrac_fig1 import noise_dims
from lab.experiments.diffrac_table1 import (
    _constrained_kmeans,
    matching_pairs,
    supervision,
)
from lab.experiments.mvc_fig2 import parse_task, subset


def test_diffrac_fig1_tiny_run_is_perfect_without_noise(tmp_path):
    # Without noise dimensions the two bumps are separated by a wide gap along x1: every
    # method recovers them exactly (partition distance 0), as in the paper's figure at m = 0.
    result = run_experiment(
        "diffrac-fig1",
        tmp_path,
        methods=["kmeans", "diffrac", "mspc-mpm"],
        tasks=["bumps+0", "bumps+4"],
        options={"repeats": 1, "n_samples": 30},
    )
    curve = result.tables["curve"]
    assert list(curve["noise_dims"]) == [0, 4]
    row0 = curve[curve["noise_dims"] == 0].iloc[0]
    for method in ("kmeans", "diffrac", "mspc-mpm"):
        assert row0[method] == pytest.approx(0.0, abs=1e-12)
    assert ((curve[["kmeans", "diffrac", "mspc-mpm"]] >= 0) & (curve[["kmeans"]] <= 1)).all().all()
    assert "Fig. 1" in result.markdown
    assert len(EXPERIMENTS["diffrac-fig1"].figures(result)) == 1


def test_diffrac_fig1_task_names_are_checked():
    assert noise_dims("bumps+12") == 12
    with pytest.raises(ValueError, match="bumps\\+m"):
        noise_dims("bumps12")


def test_matching_pairs_link_distinct_samples_of_one_class():
    y = np.repeat(np.arange(4), 25)
    pairs = matching_pairs(y, 40, np.random.default_rng(0))
    assert pairs.shape == (40, 2)
    assert (pairs[:, 0] != pairs[:, 1]).all()
    assert (y[pairs[:, 0]] == y[pairs[:, 1]]).all()


def test_constrained_kmeans_keeps_every_chunk_together():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3))
    must = [(0, 59), (1, 30), (30, 45), (2, 3)]
    labels = _constrained_kmeans(X, must, 3, seed=0)
    for i, j in must:
        assert labels[i] == labels[j]
    assert set(labels) == {0, 1, 2}


def test_diffrac_table1_task_names_are_checked():
    assert supervision("digits-ml40") == 40
    with pytest.raises(ValueError, match="digits-ml"):
        supervision("mnist-ml40")


def test_mvc_fig2_tiny_run(tmp_path):
    result = run_experiment(
        "mvc-fig2",
        tmp_path,
        methods=["kmeans", "mvc-soft"],
        tasks=["digits:1v7@20"],
        options={"repeats": 1},
    )
    table = result.tables["errors"]
    assert list(table["n"]) == [20]
    assert (
        ((table[["kmeans", "mvc-soft"]] >= 0) & (table[["kmeans", "mvc-soft"]] <= 50)).all().all()
    )
    assert len(EXPERIMENTS["mvc-fig2"].figures(result)) == 1


def test_mvc_fig2_subsets_are_balanced_and_seeded():
    y = np.array([0] * 50 + [1] * 40)
    a, b = subset(y, 21, 3), subset(y, 21, 3)
    assert np.array_equal(a, b) and len(set(a)) == 21
    assert (y[a] == 0).sum() == 10 and (y[a] == 1).sum() == 11
    assert parse_task("digits:3v5@60") == ("digits:3v5", 60)
    with pytest.raises(ValueError, match="digits pair"):
        parse_task("digits:3v5")


def test_coverage_rows_name_registered_experiments_and_valid_statuses():
    papers = {item.paper for item in COVERAGE}
    assert papers == {"MSPC", "MMC multivariate loss", "DIFFRAC", "MVC", "3SMIC"}
    for item in COVERAGE:
        assert item.status in STATUSES
        assert item.experiment is None or item.experiment in EXPERIMENTS
    # An experiment without a stored result is never shown as reproduced.
    frame = coverage_frame({})
    named = frame[frame["experiment"] != ""]
    assert (named["status"] == "not run yet (no stored result)").all()


def test_every_new_experiment_has_a_stored_result():
    for name in ("diffrac-fig1", "diffrac-table1", "mvc-fig2"):
        result = load_stored(name)
        assert result is not None, name
        assert (result.cells["status"] == "ok").any(), name


def test_mmc_digits_tiny_run_shows_the_spread_and_the_default_c(tmp_path):
    import re

    result = run_experiment(
        "mmc-digits",
        tmp_path,
        methods=["kmeans", "mmc-nmi"],
        tasks=["digits:1v7"],
        options={"runs": 2, "grid": {"C": [0.5]}},
    )
    md = result.markdown
    table3 = md.split("### Table III")[1].split("###")[0]
    row = next(line for line in table3.splitlines() if line.startswith("| digits:1v7"))
    cells = re.findall(r"(\d\.\d{3}) \[(\d\.\d{3})–(\d\.\d{3})\]", row)
    assert len(cells) == 2  # kmeans and mmc-nmi, each mean [lowest–highest]
    for mean, low, high in cells:
        assert float(low) <= float(mean) <= float(high)
    default = md.split("### At the default C (no choice by the labels)")[1]
    row = next(line for line in default.splitlines() if line.startswith("| digits:1v7"))
    assert len(re.findall(r"\d\.\d{3} \[", row)) == 1  # mmc-nmi at its default C = 0.5


def test_a_coverage_item_without_its_status_is_refused(tmp_path):
    from lab.experiments._coverage import read_coverage

    good = "## MSPC · Table 9\n\n- status: reproduced\n- experiment: none\n\nHow, as prose.\n"
    (tmp_path / "c.md").write_text(good)
    (item,) = read_coverage(tmp_path / "c.md")
    assert (item.paper, item.item, item.experiment, item.how) == (
        "MSPC",
        "Table 9",
        None,
        "How, as prose.",
    )
    (tmp_path / "c.md").write_text(good.replace("reproduced", "done"))
    with pytest.raises(ValueError, match="Table 9"):
        read_coverage(tmp_path / "c.md")
