"""The upload's label guess: name rule, last-column rule, ids and numeric columns refused."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from datasets import DatasetError
from datasets.label_guess import LABEL_NAMES, MAX_CLASSES, guess_label_column


def _iris_like(label_name="species", n=30):
    rng = np.random.default_rng(0)
    return pd.DataFrame(
        {
            "sepal_length": rng.normal(5, 1, n),
            label_name: np.resize(["setosa", "versicolor", "virginica"], n),
            "petal_width": rng.normal(1, 0.3, n),
        }
    )


@pytest.mark.parametrize("name", [*LABEL_NAMES, " Species ", "CLASS"])
def test_a_column_named_like_a_label_is_chosen_wherever_it_stands(name):
    guess = guess_label_column(_iris_like(name))
    assert guess.column == name
    assert guess.reason == "name"
    assert guess.classes == ("setosa", "versicolor", "virginica")
    assert f"'{name}'" in guess.note and "3 classes" in guess.note


def test_the_first_label_name_wins():
    frame = _iris_like("species")
    frame["class"] = np.resize(["a", "b"], len(frame))
    assert guess_label_column(frame).column == "class"
    assert guess_label_column(frame).candidates[:2] == ("class", "species")


def test_the_last_text_column_is_the_fallback():
    frame = _iris_like("kind")
    frame = frame[["sepal_length", "petal_width", "kind"]]
    guess = guess_label_column(frame)
    assert (guess.column, guess.reason) == ("kind", "last")
    # Not last: no guess, but the note and the candidates offer it.
    guess = guess_label_column(_iris_like("kind"))
    assert guess.column is None and guess.reason == "none"
    assert "'kind'" in guess.note and guess.candidates == ("kind",)


def test_whole_number_label_by_name_but_a_numeric_last_column_is_a_feature():
    frame = pd.DataFrame({"x": np.arange(10.0), "target": [0, 1] * 5})
    assert guess_label_column(frame).column == "target"
    frame = pd.DataFrame({"x": np.arange(10.0), "count": [0, 1] * 5})
    assert guess_label_column(frame).column is None


@pytest.mark.parametrize(
    "values",
    [
        [f"id{i}" for i in range(30)],  # one value per row: an id
        ["same"] * 30,  # one class
        [f"c{i % (MAX_CLASSES + 1)}" for i in range(60)],  # 21 classes
    ],
)
def test_ids_single_values_and_too_many_classes_are_refused(values):
    frame = pd.DataFrame({"x": np.arange(len(values), dtype=float), "label": values})
    guess = guess_label_column(frame)
    assert guess.column is None
    assert "'label' is named like a label" in guess.note


def test_twenty_classes_is_still_a_label_and_missing_cells_are_ignored():
    values = [f"c{i % MAX_CLASSES}" for i in range(60)]
    values[3] = None
    values[4] = "  "
    guess = guess_label_column(pd.DataFrame({"x": np.arange(60.0), "label": values}))
    assert guess.column == "label" and len(guess.classes) == MAX_CLASSES


def test_numbers_stored_as_text_are_not_text():
    frame = pd.DataFrame({"a": ["1.5", "2.5", "1.5", "2.5"], "b": ["1", "2", "1", "2"]})
    assert guess_label_column(frame).column is None


def test_bad_tables_are_refused_with_the_fix():
    with pytest.raises(DatasetError, match="DataFrame or a mapping"):
        guess_label_column([[1, 2], [3, 4]])
    with pytest.raises(DatasetError, match="no columns"):
        guess_label_column(pd.DataFrame())
    with pytest.raises(DatasetError, match="rename label"):
        guess_label_column(pd.DataFrame([[1, "a"], [2, "b"]], columns=["label", "label"]))
