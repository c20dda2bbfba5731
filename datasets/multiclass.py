"""Bundled multi-class tasks: every class of a source at once.

* ``iris`` (3 classes), ``wine`` (3), ``digits`` (10), ``satimage`` (6; UCI's class 6 has
  no samples) and ``letter-26`` (all 26 letters, 20,000 samples; the binary ``letter`` task
  is A vs B) — scaled to ``[-1, 1]`` like every bundled task unless ``normalize=False``.
* ``wine-raw``: wine in the units it is distributed in, always unscaled. Proline (about
  280-1680 mg/l) has a range hundreds of times that of most other features, so k-means on
  these features is driven by proline alone: the multi-class lesson of anisotropic feature
  scaling (AFS).

:func:`datasets.load` accepts these names; :func:`datasets.list_datasets` lists them with
``kind="multiclass"`` (``"all"`` keeps listing the two-class tasks only).
"""

from __future__ import annotations

import numpy as np

from ._base import Dataset
from ._normalize import normalize as _normalize_dataset
from ._sources import _SOURCES, _raw

__all__ = ["MULTICLASS_TASKS", "load_multiclass"]

#: Multi-class task name -> (source, extra sentence for the description).
MULTICLASS_TASKS: dict[str, tuple[str, str]] = {
    "iris": ("iris", "All three species."),
    "wine": ("wine", "All three cultivars."),
    "wine-raw": (
        "wine",
        "All three cultivars, in the units the data are distributed in and never rescaled: "
        "proline (mg/l, range about 1400) dwarfs features such as hue (range about 1.2), "
        "so methods that are not invariant to feature scaling see little but proline.",
    ),
    "digits": ("digits", "All ten digits."),
    "satimage": (
        "satimage",
        "All six classes (UCI's class 6, 'mixture', has no samples).",
    ),
    "letter-26": ("letter", "All 26 letters (the task 'letter' is A vs B only)."),
}


def load_multiclass(name: str, normalize: bool = True) -> Dataset:
    """Load a multi-class task of :data:`MULTICLASS_TASKS` (``y`` coded ``0 .. k-1`` in the
    source's class order). ``wine-raw`` is never rescaled.

    Examples
    --------
    >>> from datasets.multiclass import load_multiclass
    >>> ds = load_multiclass("digits")
    >>> ds.shape, ds.n_classes
    ((1797, 61), 10)
    >>> raw = load_multiclass("wine-raw")
    >>> float(raw.X[:, -1].max())  # proline, mg/l
    1680.0
    """
    key = name.strip().lower()
    source_key, extra = MULTICLASS_TASKS[key]
    X_all, labels, feature_names = _raw(source_key)
    src = _SOURCES[source_key]
    codes = list(src.classes)
    values, inverse = np.unique(labels, return_inverse=True)
    y = np.array([codes.index(v) for v in values.tolist()])[inverse]
    counts = np.bincount(y, minlength=len(codes))
    class_list = "; ".join(
        f"{k} = {src.classes[c]} ({counts[k]} samples)" for k, c in enumerate(codes)
    )
    description = "\n".join(
        [
            f"{src.title}. {src.about}",
            f"Source: {src.origin}.",
            f"Size: {len(y)} samples x {X_all.shape[1]} features, {len(codes)} classes.",
            f"Classes: {class_list}.",
            f"Used in: multi-class MSPC (REPRODUCTION.md, 'Beyond the papers'). {extra}",
        ]
    )
    notes = (f"Differences from the paper's copy: {src.differences}",) if src.differences else ()
    dataset = Dataset(
        X=np.array(X_all, dtype=np.float64),
        y=y.astype(np.int64),
        feature_names=feature_names,
        class_names=tuple(src.classes[c] for c in codes),
        name=key,
        description=description,
        source=src.origin,
        notes=notes,
    )
    if normalize and key != "wine-raw":
        dataset = _normalize_dataset(dataset)
    return dataset
