"""Cached wrappers around the backend (``st.cache_data``: every caller gets its own copy).

Each wrapper is keyed by everything its result depends on:

- data: :func:`load_bundled` (name, normalise), :func:`generate` (generator, parameters,
  normalise), :func:`read_upload` (the file's bytes, label column, missing-value policy,
  normalise) and :func:`load_choice` dispatching on a :class:`ui.state.DataChoice`;
- :func:`dataset_fingerprint`: a hash of ``X``, ``y`` and every name that comes with them
  (:func:`dataset_names`) that keys the caches below and the figures shared by sessions, so
  a result is never recomputed for the same data and never shown with another's names;
- :func:`fit`: one registered algorithm on one data set → :class:`lab.evaluation.
  FitOutcome` (labels, metrics, time, ``w``/``b``, objective history, or the error message
  in place of an exception);
- :func:`projection`: a 2-D view of the data for the scatter plots.

Arrays passed as ``_X``/``_y`` are not hashed (the fingerprint stands for them), which keeps a
rerun cheap: hashing 5000 x 60 floats on every slider move would cost more than the lookup.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import streamlit as st

import datasets
from clustering._cost import Cost, refusal
from datasets.synthetic import check_generator
from lab import projections
from lab.budget import AUTO_RUN_SECONDS, REFUSED, WAITS, auto_run, decide, fit_cost
from lab.evaluation import FitOutcome, fit_and_evaluate

from . import work
from .model import DataChoice, fingerprint, numbers_part
from .uploads import reading

__all__ = [
    "AUTO_RUN_SECONDS",
    "WAITS_FOR_CLICK",
    "dataset_fingerprint",
    "fit",
    "fit_id",
    "fit_many",
    "forget_read_uploads",
    "generate",
    "load_bundled",
    "load_choice",
    "projection",
    "read_upload",
    "upload_digest",
]

_DATA_ENTRIES = 32
_FIT_ENTRIES = 512


@st.cache_data(max_entries=_DATA_ENTRIES, show_spinner="Loading the data set…")
def load_bundled(name: str, normalize: bool = True) -> datasets.Dataset:
    """A bundled task (:func:`datasets.load`); raises :class:`datasets.DatasetError`."""
    return datasets.load(name, normalize=normalize)


@st.cache_data(max_entries=_DATA_ENTRIES, show_spinner="Generating the data…")
def generate(key: str, params: tuple, normalize: bool = False) -> datasets.Dataset:
    """A synthetic data set from :data:`datasets.synthetic.GENERATORS`.

    ``params`` are ``(name, value)`` pairs (a tuple, so the call is hashable). Settings
    outside the ranges the lab's widgets offer are refused first
    (:func:`datasets.synthetic.check_generator` raises
    :class:`~clustering.exceptions.TooExpensiveError`, a ``ValueError``): generators share
    the UI's limits whether the values come from a widget or a link.
    """
    check_generator(key, dict(params))
    dataset = datasets.synthetic.make(key, **dict(params))
    return datasets.normalize(dataset) if normalize else dataset


# Uploads are large and belong to a session: a few entries per session, dropped when the
# session ends (Streamlit clears session-scoped caches when the browser disconnects).
@st.cache_data(scope="session", max_entries=2, show_spinner="Reading the file…")
def read_upload(
    content_digest: str,
    name: str,
    label_column: str | None = None,
    missing: str = "drop",
    normalize: bool = True,
    *,
    _content: bytes,
) -> datasets.Dataset:
    """An uploaded CSV file (:func:`datasets.read_csv`), named after the file.

    The cache is keyed by ``content_digest`` (:func:`upload_digest`), not by the bytes, so a
    rerun does not hash a large file again.

    ``label_column``: a column name, ``None`` or ``"__auto__"`` to detect a column called
    label/class/y/target, ``"__none__"`` for unlabelled data. Raises
    :class:`datasets.DatasetError` with a message for the user when the file cannot be used.
    """
    column: str | bool | None = label_column
    if label_column in (None, "", "__auto__"):
        column = None
    elif label_column == "__none__":
        column = False
    with reading():  # one upload read at a time on the server: their peaks do not add up
        dataset = datasets.read_csv(_content, label_column=column, missing=missing, name=name)
        dataset = dataset.replace(name=name)
        return datasets.normalize(dataset) if normalize else dataset


def forget_read_uploads() -> None:
    """Drop this session's parsed uploads (:func:`read_upload`): its file was replaced."""
    read_upload.clear()


def load_choice(choice: DataChoice, upload: Mapping[str, Any] | None = None) -> datasets.Dataset:
    """The data set a :class:`~ui.state.DataChoice` stands for.

    ``upload`` is ``{"name", "content"}`` of the uploaded file (needed when
    ``choice.kind == "upload"``). Raises :class:`datasets.DatasetError` (or ``ValueError``
    for bad parameters) when the data cannot be produced.
    """
    if choice.kind == "bundled":
        return load_bundled(choice.name, choice.normalize)
    if choice.kind == "synthetic":
        return generate(choice.name, tuple(choice.params), choice.normalize)
    if choice.kind == "upload":
        if not upload or upload.get("name") != choice.name:
            raise datasets.DatasetError(
                f"The uploaded file {choice.name!r} is no longer in this session (uploads are "
                "not kept in links). Upload it again on the Data page."
            )
        options = choice.param_dict
        return read_upload(
            upload_digest(upload),
            choice.name,
            options.get("label_column"),
            options.get("missing", "drop"),
            choice.normalize,
            _content=upload["content"],
        )
    raise ValueError(f"Unknown kind of data choice {choice.kind!r}.")


@st.cache_data(max_entries=_DATA_ENTRIES, show_spinner=False)
def _fingerprint(choice: DataChoice, upload_digest: str, _dataset: datasets.Dataset) -> str:
    return fingerprint(_dataset.X, _dataset.y, dataset_names(_dataset))


def dataset_names(dataset: datasets.Dataset) -> list[str]:
    """Every text that comes with a data set's numbers (its name, feature and class names,
    description): part of its fingerprint, so caches shared by sessions never mix them."""
    return [
        dataset.name,
        dataset.description,
        *dataset.feature_names,
        "\x00",  # feature names end here, class names start
        *dataset.class_names,
    ]


def dataset_fingerprint(
    choice: DataChoice, upload: Mapping[str, Any] | None, dataset: datasets.Dataset
) -> str:
    """The :func:`~ui.model.fingerprint` of a loaded data set and its names, computed once
    per choice."""
    digest = upload_digest(upload) if choice.kind == "upload" and upload else ""
    return _fingerprint(choice, digest, dataset)


def upload_digest(upload: Mapping[str, Any]) -> str:
    """A hash of an upload's bytes: the one :func:`ui.state.set_upload` stored with it, or
    computed (BLAKE2b, 12 bytes)."""
    return upload.get("digest") or hashlib.blake2b(upload["content"], digest_size=12).hexdigest()


def _call(fn, *args, **kwargs):
    return fn(*args, **kwargs)


def _as_pairs(pairs: Sequence[Sequence[int]] | None) -> tuple[tuple[int, int], ...]:
    return tuple((int(i), int(j)) for i, j in (pairs or ()))


@st.cache_data(max_entries=_FIT_ENTRIES, show_spinner=False)
def _fit(
    key: str,
    params: tuple,
    data_fingerprint: str,
    must_link: tuple,
    cannot_link: tuple,
    msp_lam: float | None,
    msp_regularizer: str | None,
    _X: np.ndarray,
    _y: np.ndarray | None,
    _in_child: bool = False,
) -> FitOutcome:
    # A long fit runs where it can be stopped when its session ends (ui.work); a stopped
    # fit raises work.Cancelled, which is not cached.
    run = work.run_in_child if _in_child else _call
    try:
        return run(
            fit_and_evaluate,
            key,
            dict(params),
            _X,
            _y,
            must_link=list(must_link),
            cannot_link=list(cannot_link),
            msp_lam=msp_lam,
            msp_regularizer=msp_regularizer,
        )
    except work.Cancelled:
        raise
    except Exception as err:  # the app never shows a traceback; report the bug as text
        from clustering import ALGORITHMS

        spec = ALGORITHMS.get(key)
        return FitOutcome(
            key=key,
            name=spec.name if spec else key,
            params=dict(params),
            error=f"{type(err).__name__}: {err}. This is a bug in the lab; please report it "
            "with the link of this page.",
            error_type=type(err).__name__,
        )


#: ``FitOutcome.error_type`` of a run that waits for a click (:func:`fit`).
WAITS_FOR_CLICK = "WaitsForClick"


def _not_started(key: str, params: Mapping[str, Any], error: str, error_type: str) -> FitOutcome:
    from clustering import ALGORITHMS

    spec = ALGORITHMS.get(key)
    return FitOutcome(
        key=key,
        name=spec.name if spec else key,
        params=dict(params),
        error=error,
        error_type=error_type,
    )


def fit(
    key: str,
    params: Mapping[str, Any],
    data_fingerprint: str,
    X: np.ndarray,
    y: np.ndarray | None = None,
    must_link: Sequence[Sequence[int]] | None = None,
    cannot_link: Sequence[Sequence[int]] | None = None,
    msp_lam: float | None = None,
    msp_regularizer: str | None = None,
    *,
    clicked: bool = False,
    cost: Cost | None = None,
    decision: str | None = None,
) -> FitOutcome:
    """Fit the algorithm registered as ``key`` (cached).

    Parameters
    ----------
    key : str
        Registry key (:data:`clustering.ALGORITHMS`).
    params : mapping
        Estimator parameters (defaults fill in the rest).
    data_fingerprint : str
        :func:`dataset_fingerprint` of ``X`` and ``y``; the cache key stands for the data.
    X, y : arrays
        The data (not hashed).
    must_link, cannot_link : sequences of index pairs, optional
        Constraints for methods that take them.
    msp_lam, msp_regularizer : optional
        ``lam``/``Lambda`` for the MSP column (the same for every method on a page).
    clicked : bool, default=False
        The user asked for this run with a button. Without a click, a run predicted above
        the auto-run limits (:func:`lab.budget.decide`) is not started.
    cost : Cost, optional
        The fit's predicted cost, when the caller planned it (:func:`ui.runs.plan`,
        :func:`ui.runs.plan_batch`, :func:`fit_many`): it is not predicted again. Otherwise
        predicted here (:func:`lab.budget.fit_cost`), once.
    decision : str, optional
        :func:`lab.budget.decide`'s verdict for this fit within its batch
        (:func:`fit_many`); otherwise decided for this fit alone.

    Returns
    -------
    FitOutcome
        Never raises for a failing method: ``result.error`` holds the message. A run
        predicted above this machine's hard cap is not started: its result carries the
        :class:`~clustering.exceptions.TooExpensiveError` message. A run that waits for a
        click is not started either: its ``error_type`` is :data:`WAITS_FOR_CLICK` and the
        message gives the prediction.
    """
    X = np.asarray(X)
    n, d = X.shape[0], X.shape[1] if X.ndim == 2 else 1
    if cost is None:
        cost = fit_cost(key, n, d, params)
    if cost is not None:
        verdict = decision or decide([cost], [clicked])[0]
        if verdict == REFUSED:
            err = refusal(key, n, d, params, cost)
            return _not_started(key, params, str(err), type(err).__name__)
        if verdict == WAITS:
            why = (
                "with the methods before it, above what the lab starts without a click"
                if auto_run(cost)
                else "above what the lab starts without a click"
            )
            return _not_started(
                key,
                params,
                f"predicted to take {cost.describe()} on {n:,} samples × {d:,} features, "
                f"{why}. Start it with its button on the Cluster page, or choose fewer "
                "methods, fewer samples or a cheaper setting.",
                WAITS_FOR_CLICK,
            )
    return _fit(
        key,
        tuple(sorted(dict(params).items())),
        numbers_part(data_fingerprint),  # a fit shows no name: shared by equal numbers
        _as_pairs(must_link),
        _as_pairs(cannot_link),
        None if msp_lam is None else float(msp_lam),
        msp_regularizer,
        X,
        y,
        cost is not None and cost.seconds > work.CHILD_SECONDS,
    )


def fit_many(
    keys: Sequence[str],
    params: Mapping[str, Mapping[str, Any]],
    data_fingerprint: str,
    X: np.ndarray,
    y: np.ndarray | None = None,
    *,
    must_link=None,
    cannot_link=None,
    msp_lam: float | None = None,
    msp_regularizer: str | None = None,
    progress: bool = True,
    clicked: bool | Sequence[str] = False,
    budget: float = AUTO_RUN_SECONDS,
    costs: Mapping[str, Cost] | None = None,
    decisions: Mapping[str, str] | None = None,
) -> list[FitOutcome]:
    """:func:`fit` for several algorithms, with a progress bar when ``progress`` is true.

    ``params[key]`` are the parameters ``key`` is fitted with, as they are (a page's λ and Λ
    are already in them); ``msp_lam``/``msp_regularizer`` are the MSP column's λ and Λ for
    every method. Constraints go only to the methods whose spec accepts them. ``clicked``:
    the keys (or ``True`` for all) the user started with a button (see :func:`fit`).
    ``costs``: each key's predicted cost when the caller has it (:func:`ui.runs.plan`),
    else predicted here, once; ``decisions``: :func:`lab.budget.decide`'s verdicts when the
    caller has made them (:func:`ui.runs.run_planned`), else made here with ``budget``:
    without a click, the fits together stay within ``budget`` seconds of predicted time.
    """
    from clustering import ALGORITHMS

    clicked_keys = set(keys) if clicked is True else set() if clicked is False else set(clicked)
    n, d = X.shape[0], X.shape[1]
    known = dict(costs or {})
    cost = {k: known[k] if k in known else fit_cost(k, n, d, params.get(k, {})) for k in keys}
    verdicts = dict(decisions or {})
    if any(k not in verdicts for k in keys):
        pending = [k for k in keys if k not in verdicts and cost[k] is not None]
        made = decide([cost[k] for k in pending], [k in clicked_keys for k in pending], budget)
        verdicts.update(zip(pending, made, strict=True))
    bar = st.progress(0.0, text="Clustering…") if progress and keys else None
    out = []
    for i, key in enumerate(keys):
        if bar is not None:
            expected = f" (predicted {cost[key].describe()})" if cost[key] is not None else ""
            bar.progress(
                i / len(keys),
                text=f"Running {ALGORITHMS[key].name}{expected}: {i} of {len(keys)} done…",
            )
        takes = ALGORITHMS[key].constraints
        out.append(
            fit(
                key,
                params.get(key, {}),
                data_fingerprint,
                X,
                y,
                must_link if takes else None,
                cannot_link if takes else None,
                msp_lam,
                msp_regularizer,
                clicked=key in clicked_keys,
                cost=cost[key],
                decision=verdicts.get(key),
            )
        )
    if bar is not None:
        bar.empty()
    return out


@st.cache_data(max_entries=_FIT_ENTRIES, show_spinner=False)
def _projection(
    view: str,
    data_fingerprint: str,
    w: tuple | None,
    b: float | None,
    feature_names: tuple | None,
    max_points: int,
    _X: np.ndarray,
) -> projections.Projection:
    wv = None if w is None else np.asarray(w, dtype=np.float64)
    return projections.project(
        _X, view, w=wv, b=b, feature_names=feature_names, max_points=max_points
    )


def projection(
    view: str,
    data_fingerprint: str,
    X: np.ndarray,
    w: np.ndarray | None = None,
    b: float | None = None,
    feature_names: Sequence[str] | None = None,
    max_points: int = projections.MAX_POINTS,
) -> projections.Projection:
    """A 2-D view of ``X`` (cached; see :func:`lab.projections.project`)."""
    wt = None if w is None else tuple(float(v) for v in np.ravel(w))
    names = None if feature_names is None else tuple(feature_names)
    return _projection(
        view, data_fingerprint, wt, None if b is None else float(b), names, int(max_points), X
    )


# ----------------------------------------------------------------------------------------
# Fits on data that have no fingerprint yet (demos, animation frames)
# ----------------------------------------------------------------------------------------


def fit_id(key: str, n_samples: int, n_features: int, params: Mapping[str, Any]) -> tuple:
    """What a fit's predicted cost depends on (the arguments of :func:`lab.budget.fit_cost`):
    the key of a planned fit (:func:`ui.runs.plan_batch`, :func:`fit_on`)."""
    frozen = tuple(sorted((k, repr(v)) for k, v in dict(params).items()))
    return (key, int(n_samples), int(n_features), frozen)


def fit_on(
    key: str,
    params: Mapping[str, Any] | None,
    X,
    y=None,
    *,
    msp_lam: float | None = None,
    msp_regularizer: str | None = None,
    random_state: int | None = 0,
    planned: Mapping[tuple, tuple[Cost, str]] | None = None,
) -> FitOutcome:
    """:func:`fit` for arrays without a fingerprint (a rescaled copy, a demo's data, a
    sweep's task): the lab's one cached fit adapter.

    Same signature as :func:`lab.evaluation.fit_and_evaluate` for the arguments the
    backends' ``fit=`` / ``evaluator=`` callables use, so :mod:`lab.demos`,
    :mod:`lab.animation` and the protocols of :mod:`lab.experiments.protocols` fit through
    this cache. The data are keyed by their fingerprint (a hash of ``X`` and ``y``), so a
    rescaled copy is a new entry and the unscaled data share the Cluster page's entries;
    ``random_state`` is always 0 (the cache's setting). ``planned``: :func:`fit_id` → the
    cost and verdict of each fit a page planned (:meth:`ui.runs.Batch.evaluator`); a fit
    not in it is predicted and decided by :func:`fit`.
    """
    if random_state not in (0, None):
        raise ValueError(f"The cached fits use random_state=0, got {random_state!r}.")
    X = np.ascontiguousarray(X, dtype=np.float64)
    n, d = X.shape[0], X.shape[1] if X.ndim == 2 else 1
    cost, decision = (planned or {}).get(fit_id(key, n, d, params or {}), (None, None))
    return fit(
        key,
        dict(params or {}),
        fingerprint(X, y),
        X,
        y,
        msp_lam=msp_lam,
        msp_regularizer=msp_regularizer,
        cost=cost,
        decision=decision,
    )
