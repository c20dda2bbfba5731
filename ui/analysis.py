"""Streamlit glue of the analysis pages (Feature scaling, MSP vs accuracy, Learn).

- Scaling factors: :data:`FACTOR_OPTIONS` (the log slider's stops), :func:`snap_factor`,
  :func:`feature_order` (largest variance first).
- Fits: :data:`cached_evaluator` plugs :func:`ui.cache.fit_on` (``st.cache_data``, shared
  with the Cluster page) into :mod:`lab.experiments.protocols`, so every single fit
  of a sweep is cached and a progress bar can run outside the cache;
  :func:`run_with_progress` runs such an experiment under ``st.progress``.
- Data families: :func:`family_tasks` (cached loads of pair tasks and the UCI tasks);
  :func:`family_correlations` and :func:`family_note` (the MSP vs accuracy page's r of both
  MSPs and its caption, computed from the runs shown).
- Small cached computations for the Learn page: :func:`mpm_on_labels`,
  :func:`random_labelings_bound`, :func:`theorem1_table`, :func:`margin_table`,
  :func:`nonsense_splits`.
- Page-specific URL parameters next to :mod:`ui.state`'s: :func:`url_value`,
  :func:`sync_to_url`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

import datasets
from clustering._lam import effective_lam
from clustering.metrics import clustering_accuracy, msp_score
from clustering.mpm import MinimaxProbabilityMachine
from lab import theorems
from lab.experiments import protocols

from . import cache, state
from .model import FACTOR_OPTIONS, snap_factor
from .shared import SharedCache, freeze

__all__ = [
    "FACTOR_OPTIONS",
    "as_bytes",
    "cached_evaluator",
    "digits_pairs",
    "effective_lam",
    "family_correlations",
    "family_note",
    "family_tasks",
    "feature_order",
    "margin_table",
    "mpm_on_labels",
    "msp_of_labelings",
    "nonsense_splits",
    "pair_source_of",
    "random_labelings_bound",
    "run_with_progress",
    "set_url_value",
    "snap_factor",
    "sync_to_url",
    "theorem1_table",
    "url_value",
]


def feature_order(X: np.ndarray) -> np.ndarray:
    """Feature indices by decreasing variance (ties keep their order).

    Examples
    --------
    >>> import numpy as np
    >>> feature_order(np.array([[0.0, 0, 5], [1, 0, -5]])).tolist()
    [2, 0, 1]
    """
    return np.argsort(-np.var(np.asarray(X, dtype=np.float64), axis=0), kind="stable")


# ----------------------------------------------------------------------------------------
# Fits
# ----------------------------------------------------------------------------------------


#: :func:`lab.experiments.evaluator.evaluate_fit` through the lab's one cached fit adapter,
#: :func:`ui.cache.fit_on` (shared with the Cluster page's entries).
cached_evaluator = cache.fit_on


#: Finished experiments kept for the whole class (:mod:`ui.shared`): a sweep or a family
#: depends only on its inputs, so each is computed once per server, not once per student.
_EXPERIMENTS = SharedCache("ui.analysis.run_with_progress", max_entries=32)


def run_with_progress(
    experiment: Callable[..., Any], *args: Any, text: str = "Running…", **kwargs: Any
) -> Any:
    """``experiment(*args, progress=..., evaluator=cached_evaluator, **kwargs)``, computed
    once per server for these inputs (:class:`ui.shared.SharedCache`, keyed by the
    experiment and its arguments, arrays by a hash of their values) with a progress bar
    while it runs. The result is shared by every session: do not change it."""
    key = (f"{experiment.__module__}.{experiment.__qualname__}", freeze(args), freeze(kwargs))

    def compute() -> Any:
        bar = st.progress(0.0, text=text)

        def progress(fraction: float, message: str) -> None:
            bar.progress(min(max(float(fraction), 0.0), 1.0), text=f"{text} {message}")

        try:
            return experiment(*args, progress=progress, evaluator=cached_evaluator, **kwargs)
        finally:
            bar.empty()

    return _EXPERIMENTS.get(key, compute)


# ----------------------------------------------------------------------------------------
# Families of tasks
# ----------------------------------------------------------------------------------------


def family_tasks(names: Sequence[str], normalize: bool = True) -> list[tuple[str, Any, Any]]:
    """``(name, X, y)`` of bundled tasks, each loaded through :func:`ui.cache.load_bundled`."""
    out = []
    for name in names:
        ds = cache.load_bundled(name, normalize)
        out.append((name, ds.X, ds.y))
    return out


def family_correlations(table: pd.DataFrame) -> dict[str, float]:
    """Pearson r between accuracy and each MSP of :data:`lab.experiments.protocols.SCORES`
    over the runs of ``table`` (NaN where undefined)."""
    return {
        column: protocols.pearson(table[column], table["accuracy"])
        if column in table
        else float("nan")
        for column in protocols.SCORES
    }


#: Accuracy below which a two-cluster run counts as "at chance" in :func:`family_note`.
CHANCE_ACCURACY = 0.6
#: A cluster of at most this many points counts as small in :func:`family_note` (the
#: held-out MSP's two parts then hold at most half of it each).
SMALL_CLUSTER = 10


def family_note(table: pd.DataFrame) -> str:
    """What the runs show: each MSP's r with accuracy, which follows accuracy more closely,
    and what each MSP gives the runs at chance (accuracy below :data:`CHANCE_ACCURACY`).

    Examples
    --------
    >>> t = pd.DataFrame({"msp": [0.99, 0.98, 0.90, 0.92], "msp_heldout": [0.1, 0.0, 0.85, 0.9],
    ...                   "accuracy": [0.51, 0.50, 0.97, 0.99], "smallest": [4, 150, 170, 160]})
    >>> print(family_note(t))  # doctest: +NORMALIZE_WHITESPACE
    Over these 4 runs, accuracy correlates with the held-out MSP at r = 1.00 and with the
    in-sample MSP at r = -0.97: the held-out MSP follows accuracy more closely. The 2 runs
    at chance (accuracy below 0.6) have a mean in-sample MSP of 0.985 and a mean held-out
    MSP of 0.050. 1 of them put at most 10 points in one cluster, which the held-out MSP
    then judges on at most 5 held-out points (their mean held-out MSP: 0.100).
    """
    ok = table.dropna(subset=["accuracy"])
    if ok.empty:
        return ""
    rs = family_correlations(ok)
    rh, ri = rs["msp_heldout"], rs["msp"]
    if np.isnan(rh) or np.isnan(ri):
        return (
            f"Over these {len(ok)} runs the MSPs or the accuracies do not vary enough for a "
            "correlation."
        )
    text = (
        f"Over these {len(ok)} runs, accuracy correlates with the held-out MSP at r = "
        f"{rh:.2f} and with the in-sample MSP at r = {ri:.2f}"
    )
    if abs(round(rh, 2) - round(ri, 2)) < 0.05:
        text += ": the two follow accuracy about equally closely."
    elif rh > ri:
        text += ": the held-out MSP follows accuracy more closely."
    else:
        text += ": here the in-sample MSP follows accuracy more closely."
    chance = ok[ok["accuracy"] < CHANCE_ACCURACY]
    if len(chance):
        runs = "run" if len(chance) == 1 else "runs"
        has = "has" if len(chance) == 1 else "have"
        mean = "" if len(chance) == 1 else "mean "
        text += (
            f" The {len(chance)} {runs} at chance (accuracy below {CHANCE_ACCURACY:g}) {has} "
            f"a {mean}in-sample MSP of {chance['msp'].mean():.3f} and a {mean}held-out MSP "
            f"of {chance['msp_heldout'].mean():.3f}."
        )
        if "smallest" in chance:
            tiny = chance[chance["smallest"] <= SMALL_CLUSTER]
            if len(tiny):
                text += (
                    f" {len(tiny)} of {'it' if len(chance) == 1 else 'them'} put at most "
                    f"{SMALL_CLUSTER} points in one cluster, which the held-out MSP then judges "
                    f"on at most {SMALL_CLUSTER // 2} held-out points (their mean held-out "
                    f"MSP: {tiny['msp_heldout'].mean():.3f})."
                )
    return text


def digits_pairs() -> list[str]:
    """The pair tasks of scikit-learn's digits (``"digits:0v1"``, ...)."""
    return list(datasets.pairs("digits"))


def pair_source_of(name: str) -> str | None:
    """The multi-class source of a pair task name (``"digits:3v8"`` -> ``"digits"``)."""
    source = name.split(":", 1)[0] if ":" in name else None
    return source if source in datasets.PAIR_SOURCES else None


# ----------------------------------------------------------------------------------------
# Learn page computations (cached; arrays keyed by the data fingerprint)
# ----------------------------------------------------------------------------------------


@st.cache_data(max_entries=64, show_spinner=False)
def mpm_on_labels(
    data_fingerprint: str, lam: float, regularizer: str, _X: np.ndarray, labels: np.ndarray
) -> dict[str, Any]:
    """Fit the Minimax Probability Machine to a labeling: ``kappa``, ``alpha`` (the MSP),
    the hyperplane and the training accuracy of the MPM classifier."""
    model = MinimaxProbabilityMachine(lam=lam, regularizer=regularizer).fit(_X, labels)
    predicted = model.predict(_X)
    return {
        "kappa": float(model.kappa_),
        "alpha": float(model.alpha_),
        "w": np.asarray(model.w_, dtype=float),
        "b": float(model.b_),
        "train_accuracy": float(np.mean(predicted == np.asarray(labels))),
        "classes": np.asarray(model.classes_),
    }


def _random_labelings(n: int, count: int, seed: int) -> list[tuple[str, np.ndarray]]:
    rng = np.random.default_rng(seed)
    out = []
    for i in range(count):
        share = rng.uniform(0.1, 0.9)
        labels = (rng.random(n) < share).astype(int)
        labels[:2] = (0, 1)  # never a single cluster
        out.append((f"random labeling {i + 1}", labels))
    return out


@st.cache_data(max_entries=64, show_spinner=False)
def random_labelings_bound(
    data_fingerprint: str,
    lam: float,
    regularizer: str,
    count: int,
    seed: int,
    _X: np.ndarray,
    y: np.ndarray | None,
    extra: tuple[tuple[str, bytes], ...] = (),
) -> pd.DataFrame:
    """``kappa^2`` against bound (4) for the true classes (if known), the labelings in
    ``extra`` (``(name, int64 bytes)`` pairs) and ``count`` random labelings."""
    labelings: list[tuple[str, np.ndarray]] = []
    if y is not None and np.unique(y).shape[0] == 2:
        labelings.append(("true classes", np.asarray(y)))
    labelings.extend((name, np.frombuffer(raw, dtype=np.int64)) for name, raw in extra)
    labelings.extend(_random_labelings(_X.shape[0], count, seed))
    rows = []
    for name, labels in labelings:
        try:
            check = theorems.lower_bound_check(_X, labels, lam=lam, regularizer=regularizer)
        except Exception as err:  # a degenerate labeling: shown as a message row
            rows.append(
                {
                    "name": name,
                    "kappa_squared": np.nan,
                    "bound": np.nan,
                    "r1": np.nan,
                    "error": str(err),
                }
            )
            continue
        rows.append({"name": name, **check._asdict(), "error": ""})
    return pd.DataFrame(rows, columns=["name", "kappa_squared", "bound", "r1", "error"])


@st.cache_data(max_entries=64, show_spinner=False)
def theorem1_table(
    data_fingerprint: str,
    factors: tuple,
    lam: float,
    _X: np.ndarray,
    labels: np.ndarray,
    regularizers: tuple[str, ...] = ("diag", "identity", "total"),
) -> pd.DataFrame:
    """MSP of ``labels`` before and after the features are multiplied by ``factors`` (a
    tuple of ``d`` factors) or mapped by a matrix (a ``d x d`` tuple of tuples, ``X @ P``),
    for each regulariser: the live check of Theorem 1."""
    transform = np.asarray(factors, dtype=np.float64)
    rows = []
    for regularizer in regularizers:
        check = theorems.theorem1_check(_X, labels, transform, lam, regularizer)
        rows.append(
            {
                "setting": f"Λ = {regularizer}, λ = {lam:g}",
                "regularizer": regularizer,
                **check._asdict(),
            }
        )
    return pd.DataFrame(rows)


@st.cache_data(max_entries=64, show_spinner=False)
def msp_of_labelings(
    data_fingerprint: str,
    lam: float,
    regularizer: str,
    labelings: tuple[tuple[str, bytes], ...],
    _X: np.ndarray,
    y: np.ndarray | None = None,
) -> pd.DataFrame:
    """MSP (and accuracy, when ``y`` is given) of named labelings (``int64`` bytes)."""
    rows = []
    for name, raw in labelings:
        labels = np.frombuffer(raw, dtype=np.int64)
        try:
            msp = msp_score(_X, labels, lam=lam, regularizer=regularizer)
            error = ""
        except Exception as err:  # one cluster, singular covariances: a message in the row
            msp, error = np.nan, str(err)
        accuracy = np.nan if y is None else clustering_accuracy(y, labels)
        rows.append({"labeling": name, "MSP": msp, "accuracy": accuracy, "error": error})
    return pd.DataFrame(rows)


@st.cache_data(max_entries=32, show_spinner=False)
def nonsense_splits(
    data_fingerprint: str,
    lam: float,
    regularizer: str,
    extra: tuple[tuple[str, bytes], ...],
    _X: np.ndarray,
    y: np.ndarray | None,
) -> pd.DataFrame:
    """:func:`lab.theorems.nonsense_splits` (random groups against the rest, the true
    classes and the labelings in ``extra``, ``int64`` bytes), cached."""
    given = tuple((name, np.frombuffer(raw, dtype=np.int64)) for name, raw in extra)
    return theorems.nonsense_splits(_X, y, lam, regularizer, search_from=None, extra=given)


def as_bytes(labels) -> bytes:
    """A labeling as ``int64`` bytes (hashable, for the cached functions here)."""
    return np.ascontiguousarray(np.asarray(labels), dtype=np.int64).tobytes()


@st.cache_data(max_entries=64, show_spinner=False)
def margin_table(
    data_fingerprint: str,
    w: tuple[float, ...],
    b: float,
    msp: float,
    rhos: tuple[float, ...],
    _X: np.ndarray,
    labels: np.ndarray,
) -> pd.DataFrame:
    """Theorem 5 against the data (:func:`lab.theorems.margin_guarantee`)."""
    return theorems.margin_guarantee(_X, labels, np.asarray(w), b, msp, rhos)


# ----------------------------------------------------------------------------------------
# Page-specific URL parameters (kept here for the pages; ui.state owns them)
# ----------------------------------------------------------------------------------------

url_value = state.url_value
set_url_value = state.set_url_value
sync_to_url = state.sync_to_url


def sweep_is_cheap(key: str, n_samples: int, n_features: int, n_runs: int) -> bool:
    """Whether ``n_runs`` fits of ``key`` on ``n_samples x n_features`` data are predicted
    to take together at most the auto-run limit (a page may then run them unasked)."""
    from clustering._cost import predict_cost
    from lab.budget import RUN, decide

    cost = predict_cost(key, n_samples, n_features)
    return all(verdict == RUN for verdict in decide([cost] * n_runs))


#: Set by a Home demo's button: MSP vs accuracy computes its family on arrival.
RUN_ONCE = "mva.run_once"
