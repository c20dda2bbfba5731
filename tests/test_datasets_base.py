"""The Dataset container, [-1, 1] scaling, and the package's import hygiene."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import datasets
from datasets import Dataset, DatasetError, normalize, scale_to_unit_range
from tests.conftest import packages_loaded_by

ROOT = Path(__file__).resolve().parents[1]


def _toy(**changes):
    fields = dict(
        X=np.array([[1.0, 7.0, 0.0], [3.0, 7.0, 1.0], [2.0, 7.0, 4.0], [5.0, 7.0, 2.0]]),
        y=np.array([0, 1, 0, 1]),
        feature_names=("a", "b", "c"),
        class_names=("no", "yes"),
        name="toy",
        description="A toy.",
    )
    fields.update(changes)
    return Dataset(**fields)


def test_dataset_error_is_a_value_error():
    assert issubclass(DatasetError, ValueError)


def test_dataset_validates_its_fields():
    with pytest.raises(ValueError, match="2 feature names were given for 3 columns"):
        _toy(feature_names=("a", "b"))
    with pytest.raises(ValueError, match="y must have shape"):
        _toy(y=np.array([0, 1]))
    with pytest.raises(ValueError, match=r"coded 0 \.\. 1"):
        _toy(y=np.array([0, 1, 2, 1]))
    with pytest.raises(ValueError, match="integer class codes"):
        _toy(y=np.array([0.5, 1, 0, 1]))
    with pytest.raises(ValueError, match="2-D array"):
        _toy(X=np.ones(4))


def test_dataset_properties_and_replace():
    ds = _toy()
    assert ds.shape == (4, 3) and ds.n_classes == 2
    assert ds.class_counts() == {"no": 2, "yes": 2}
    copy = ds.replace(add_notes=("hello",))
    copy.X[0, 0] = 100.0
    assert ds.X[0, 0] == 1.0 and copy.notes == ("hello",)
    with pytest.raises(AttributeError):
        ds.name = "other"  # frozen
    unlabelled = _toy(y=None, class_names=())
    assert unlabelled.n_classes == 0 and unlabelled.class_counts() == {}


def test_dataset_pickles_for_the_app_cache():
    import pickle

    ds = datasets.load("digits:3v8")
    back = pickle.loads(pickle.dumps(ds))
    np.testing.assert_array_equal(back.X, ds.X)
    np.testing.assert_array_equal(back.y, ds.y)
    assert (back.name, back.feature_names, back.notes) == (ds.name, ds.feature_names, ds.notes)


def test_normalize_drops_constant_features_and_says_so():
    out = normalize(_toy())
    assert out.feature_names == ("a", "c")
    np.testing.assert_allclose(out.X[:, 0], [-1, 0, -0.5, 1])
    np.testing.assert_allclose(out.X[:, 1], [-1, -0.5, 1, 0])
    assert out.notes == ("Feature 'b' has the same value in every row and was dropped.",)
    assert "1 constant feature was dropped: b" in out.description
    assert out.description.startswith("A toy.")


def test_scale_to_unit_range_rejects_non_finite():
    with pytest.raises(ValueError, match="NaN or infinite"):
        scale_to_unit_range(np.array([[1.0], [np.nan]]))
    X_scaled, kept = scale_to_unit_range(np.ones((3, 2)))
    assert X_scaled.shape == (3, 0) and kept.size == 0


def test_public_api():
    for name in (
        "Dataset",
        "DatasetError",
        "list_datasets",
        "load",
        "read_csv",
        "scaling",
        "synthetic",
        "pairs",
        "normalize",
        "UCI_TASKS",
        "DEFAULT_DATASET",
    ):
        assert hasattr(datasets, name), name
    assert datasets.DEFAULT_DATASET in datasets.list_datasets()


def test_datasets_never_imports_streamlit_or_pickle_loaders():
    code = (
        "import datasets; datasets.load('breast'); "
        "datasets.read_csv(b'a,b\\n1,2\\n3,4\\n5,6\\n7,8\\n'); "
        "datasets.synthetic.make('moons')"
    )
    assert "streamlit" not in packages_loaded_by(code)
    for path in (ROOT / "datasets").glob("*.py"):
        source = path.read_text()
        assert "import streamlit" not in source
        assert "pickle.load" not in source and "eval(" not in source, path.name
