"""The multi-class and kernel experiment (issue 14) is a registered experiment: cached,
checksummed cells, a stored result, and its section of REPRODUCTION.md built from it."""

from __future__ import annotations

import json

import numpy as np
import pytest

from lab.experiments import EXPERIMENTS, PUBLISHED_DIR, load_stored, run_experiment
from lab.experiments import multiclass as mc


def test_registered_and_listed_last():
    assert list(EXPERIMENTS)[-1] == "multiclass"
    assert EXPERIMENTS["multiclass"] is mc.EXPERIMENT


def test_labels_hash_compares_partitions_not_names():
    a = np.array([0, 0, 1, 2, 2])
    assert mc.labels_hash(a) == mc.labels_hash(np.array([2, 2, 0, 1, 1]))
    assert mc.labels_hash(a) != mc.labels_hash(np.array([0, 1, 1, 2, 2]))


def test_small_run_caches_checksummed_cells_and_resumes(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    first = run_experiment(
        "multiclass", tmp_path, methods=["kmeans", "mspc-eig"], tasks=["iris"], cache_dir=cache
    )
    files = sorted(cache.glob("*.json"))
    assert len(files) == 4  # 2 methods x (unscaled, scaled)
    stored = json.loads(files[0].read_text())
    assert stored["schema"] == 2 and len(stored["checksum"]) == 64
    fits = first.tables["fits"]
    assert set(fits["status"]) == {"ok"} and set(fits["k"]) == {3}
    eig = fits[fits["method"] == "mspc-eig"]
    # MSPC-EIG on z-scored data: the same partition after per-feature scaling; k-means not.
    assert eig["same_labels"].all() and eig["labels_hash"].nunique() == 1
    assert not fits[fits["method"] == "kmeans"]["same_labels"].any()
    assert "| mspc-eig | " in first.markdown and " *" in first.markdown
    assert (tmp_path / "multiclass_cells.csv").is_file()

    def boom(task):
        raise AssertionError("a cached cell was recomputed")

    monkeypatch.setattr(mc, "_task", boom)
    again = run_experiment(
        "multiclass",
        tmp_path,
        methods=["kmeans", "mspc-eig"],
        tasks=["iris"],
        cache_dir=cache,
        write=False,
    )
    assert again.markdown == first.markdown


def test_stored_result_backs_the_documented_kernel_numbers():
    stored = load_stored("multiclass", PUBLISHED_DIR)
    if stored is None:
        pytest.skip("no stored multiclass result")
    fits = stored.tables["fits"]
    assert set(mc.TASKS) <= set(fits["task"])
    rbf = fits[(fits["method"] == "mspc-rbf") & ~fits["scaled"].astype(bool)]
    for task in ("moons", "circles"):
        assert rbf[rbf["task"] == task]["accuracy"].item() >= 0.95
    assert stored.markdown.startswith("## Beyond the papers")


def test_report_has_the_section_once(tmp_path):
    from lab.experiments.__main__ import main as cli_main

    if load_stored("multiclass", PUBLISHED_DIR) is None:
        pytest.skip("no stored multiclass result")
    target = tmp_path / "REPRODUCTION.md"
    assert cli_main(["report", "--file", str(target)]) == 0
    text = target.read_text()
    # Each "Beyond the papers" section once (multi-class MSPC, the held-out MSP).
    assert text.count("### Beyond the papers: multi-class and kernel MSPC") == 1
    assert text.count("### The held-out MSP and the label-free choices") == 1
