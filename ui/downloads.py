"""Downloads: the chosen labels (CSV), a figure (self-contained HTML) and the lab's
configuration (JSON, with the link that reproduces it)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

from datasets.export import safe_csv
from lab.evaluation import FitOutcome
from lab.plots.safe_text import safe_html

from . import state

__all__ = [
    "current_config",
    "download_config",
    "download_figure",
    "download_labels",
    "download_table",
    "labels_frame",
]


def current_config(extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The state of the lab as a JSON-ready dict: data set, algorithms and their parameters,
    lam, Lambda, scaling factors, view, and the URL query string that reproduces it."""
    choice = state.get_data_choice()
    algos = state.get_algorithms()
    config: dict[str, Any] = {
        "data": {
            "kind": choice.kind,
            "name": choice.name,
            "params": choice.param_dict,
            "normalize": choice.normalize,
        },
        "algorithms": {k: state.get_algorithm_params(k) for k in algos},
        "lam": state.get_lam(),
        "regularizer": state.get_regularizer(),
        "scaling_factors": {str(k): v for k, v in state.get(state.KEYS.SCALE).items()},
        "view": state.get_view(),
        "query": "?" + "&".join(f"{k}={v}" for k, v in state.url_params().items()),
    }
    if extra:
        config.update(extra)
    return config


def _json_default(value: Any) -> Any:
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    return str(value)


def download_config(
    key: str = "download.config",
    extra: Mapping[str, Any] | None = None,
    *,
    container: Any = st,
) -> None:
    """Download the configuration (:func:`current_config`) as JSON."""
    text = json.dumps(current_config(extra), indent=2, default=_json_default)
    container.download_button(
        "Configuration (JSON)",
        data=text,
        file_name="discriminative-clustering-config.json",
        mime="application/json",
        key=key,
        on_click="ignore",
        help="Everything needed to redo this run: data set, methods, parameters and the link.",
    )


def labels_frame(dataset, results: Sequence[FitOutcome]) -> pd.DataFrame:
    """One row per sample: its index, true class (if known) and each method's cluster."""
    frame = pd.DataFrame({"sample": np.arange(dataset.n_samples)})
    if dataset.y is not None:
        frame["class"] = np.asarray(dataset.class_names, dtype=object)[dataset.y]
    for r in results:
        if r.ok and r.labels is not None:
            frame[r.key] = np.asarray(r.labels)
    return frame


def download_labels(
    dataset, results: Sequence[FitOutcome], key: str = "download.labels", *, container: Any = st
) -> None:
    """Download the clusters of every successful fit (one column each) as CSV."""

    def build() -> str:  # class names from an upload may look like spreadsheet formulas
        return safe_csv(labels_frame(dataset, results))

    container.download_button(
        "Labels (CSV)",
        data=build,
        file_name=f"{_safe(dataset.name)}-labels.csv",
        mime="text/csv",
        key=key,
        on_click="ignore",
        help="One row per sample: its true class (when known) and the cluster each method gave it.",
    )


def download_figure(
    figure, file_name: str, key: str, *, label: str = "Figure (HTML)", container: Any = st
) -> None:
    """Download a plotly figure (or a :class:`ui.chart.SharedChart`'s) as a self-contained
    interactive HTML file (works offline; the file is built only when the button is
    pressed), its texts through the sanitiser (:mod:`lab.plots.safe_text`: no link, style or
    other attribute from a user's names)."""
    figure = getattr(figure, "figure", figure)  # a SharedChart's own figure

    def build() -> str:
        return safe_html(figure, include_plotlyjs=True, full_html=True)

    name = file_name if file_name.endswith(".html") else f"{file_name}.html"
    container.download_button(
        label,
        data=build,
        file_name=_safe(name),
        mime="text/html",
        key=key,
        on_click="ignore",
        help="The figure as an interactive web page you can open without the lab.",
    )


def download_table(
    frame: pd.DataFrame, file_name: str, key: str, *, help: str, container: Any = st
) -> None:
    """Download a table of runs as CSV (``Runs (CSV)``), ``help`` saying what a row is."""
    container.download_button(
        "Runs (CSV)",
        data=frame.to_csv(index=False),
        file_name=_safe(file_name),
        mime="text/csv",
        key=key,
        on_click="ignore",
        help=help,
    )


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "-" for c in str(name)) or "data"
