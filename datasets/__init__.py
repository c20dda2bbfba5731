"""Data for the Discriminative Clustering Lab: bundled tasks, CSV uploads, synthetic data.

Pure Python (numpy, pandas, scikit-learn); never imports streamlit. Every loader returns a
:class:`Dataset`; every problem with the data raises :class:`DatasetError` with a message
written for the person who chose the data.

* :func:`list_datasets`, :func:`load`, :func:`pairs`: the papers' tasks, offline
  (:mod:`datasets.bundled`).
* :func:`read_csv`: an uploaded CSV file, validated (:mod:`datasets.upload`).
* :mod:`datasets.synthetic`: seeded generators and their registry ``GENERATORS``.
* :mod:`datasets.scaling`: anisotropic feature scaling (AFS), its inverse and the MSPC
  paper's random-feature experiment.
* :func:`normalize`: scale features to ``[-1, 1]`` as the MSPC paper does.

Examples
--------
>>> import datasets
>>> ds = datasets.load(datasets.DEFAULT_DATASET)
>>> ds.name, ds.shape, ds.n_classes
('breast', (683, 9), 2)
"""

from . import scaling, synthetic
from ._base import Dataset, DatasetError
from ._normalize import normalize, scale_to_unit_range
from .bundled import (
    DEFAULT_DATASET,
    MMC_DIGITS_PAIRS,
    PAIR_SOURCES,
    UCI_TASKS,
    list_datasets,
    load,
    pairs,
)
from .upload import read_csv

__all__ = [
    "DEFAULT_DATASET",
    "MMC_DIGITS_PAIRS",
    "PAIR_SOURCES",
    "UCI_TASKS",
    "Dataset",
    "DatasetError",
    "list_datasets",
    "load",
    "normalize",
    "pairs",
    "read_csv",
    "scale_to_unit_range",
    "scaling",
    "synthetic",
]
