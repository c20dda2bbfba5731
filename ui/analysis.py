"""Streamlit glue of the analysis pages (Feature scaling, MSP vs accuracy, Learn).

- Scaling factors: :data:`FACTOR_OPTIONS` (the log slider's stops), :func:`snap_factor`,
  :func:`feature_order` (largest variance first).
- Fits: :data:`cached_evaluator` plugs :func:`ui.cache.fit_on` (``st.cache_data``, shared
  with the Cluster page) into :mod:`lab.experiments.protocols`, so every single fit
  of a sweep is cached and a progress bar can run outside the cache;
  :func:`run_with_progress` runs such an experiment under ``st.progress``.
- The MSP vs accuracy page: its views (:data:`VIEWS`, :func:`url_view`), the paper's
  families of tasks (:func:`family_tasks`, cached loads; :func:`families_table`), the
  runs of a view planned once with their costs (:func:`plan_runs`) and the verdicts of
  both views (:func:`families_verdict`, :func:`sweep_verdict`, worded by
  :mod:`lab.verdicts`).
- Small cached computations for the Learn page: :func:`mpm_on_labels`,
  :func:`random_labelings_bound`, :func:`theorem1_table`, :func:`margin_table`,
  :func:`nonsense_splits`.
- Page-specific URL parameters next to :mod:`ui.state`'s: :func:`url_value`,
  :func:`sync_to_url`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

import datasets
from clustering._lam import effective_lam
from clustering.metrics import clustering_accuracy, msp_score
from clustering.mpm import MinimaxProbabilityMachine
from lab import theorems, verdicts
from lab.experiments import families, protocols

from . import cache, runs, state
from .model import FACTOR_OPTIONS, snap_factor
from .shared import SharedCache, freeze, shared

__all__ = [
    "FACTOR_OPTIONS",
    "VIEWS",
    "as_bytes",
    "as_sweep",
    "cached_evaluator",
    "digits_pairs",
    "effective_lam",
    "families_summary",
    "families_table",
    "families_verdict",
    "family_correlations",
    "family_tasks",
    "feature_order",
    "margin_table",
    "mpm_on_labels",
    "msp_of_labelings",
    "nonsense_splits",
    "pair_source_of",
    "paper_note",
    "plan_runs",
    "random_labelings_bound",
    "record_url_value",
    "run_with_progress",
    "seed_view",
    "set_url_value",
    "snap_factor",
    "summary_columns",
    "sweep_comparison",
    "sweep_params",
    "sweep_verdict",
    "sync_to_url",
    "theorem1_table",
    "url_value",
    "url_view",
    "wait_message",
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
    experiment: Callable[..., Any],
    *args: Any,
    text: str = "Running…",
    evaluator: Callable[..., Any] | None = None,
    **kwargs: Any,
) -> Any:
    """``experiment(*args, progress=..., evaluator=evaluator, **kwargs)``, computed
    once per server for these inputs (:class:`ui.shared.SharedCache`, keyed by the
    experiment and its arguments, arrays by a hash of their values) with a progress bar
    while it runs. ``evaluator``: the fits' adapter, by default :data:`cached_evaluator`;
    a planned batch's (:meth:`ui.runs.Batch.evaluator`) hands each fit the cost predicted
    when it was planned. It does not change the result, so it is not part of the key.
    The result is shared by every session: do not change it."""
    key = (f"{experiment.__module__}.{experiment.__qualname__}", freeze(args), freeze(kwargs))

    def compute() -> Any:
        bar = st.progress(0.0, text=text)

        def progress(fraction: float, message: str) -> None:
            bar.progress(min(max(float(fraction), 0.0), 1.0), text=f"{text} {message}")

        try:
            fit = evaluator or cached_evaluator
            return experiment(*args, progress=progress, evaluator=fit, **kwargs)
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


# ----------------------------------------------------------------------------------------
# The MSP vs accuracy page: its two views, their runs and their verdicts
# ----------------------------------------------------------------------------------------

#: The page's views: the paper's experiment across tasks (the default) and the λ sweep.
VIEWS = {"tasks": "Across tasks (paper's Figs. 2-3)", "lam": "Across λ on {data}"}
#: Values of the link's ``fam`` that older links carry, all now the view across tasks.
_LEGACY_VIEWS = ("uci", *(f"pairs:{s}" for s in datasets.PAIR_SOURCES))


def url_view() -> str:
    """The view the link asks for (``fam``): ``"tasks"`` by default and for older links'
    task families, or ``"lam"``."""
    value = state.url_value("fam", "tasks", [*VIEWS, *_LEGACY_VIEWS])
    return value if value in VIEWS else "tasks"


def record_url_value(name: str, value: str) -> None:
    """Note what a control seeded by :func:`ui.state.url_seed` shows, for the link, keeping
    the control's own key (:func:`ui.state.set_url_value` drops it, so that a value set from
    elsewhere, a Lecture step or Home's button, reaches the control: called for the value the
    control itself shows, it would undo the user's next click)."""
    state.record(f"dcl.url.{name}", str(value))


def seed_view(widget_key: str) -> None:
    """Seed the view control from the link's ``fam`` (:func:`ui.state.url_seed`, so a
    Lecture step or a link opened later moves it); an older link's task family is the view
    across tasks."""
    state.url_seed(widget_key, "fam", "tasks", [*VIEWS, *_LEGACY_VIEWS])
    if state.widget_value(widget_key) not in VIEWS:
        state.set_url_value("fam", "tasks")
        state.set_widget(widget_key, "tasks")


#: The registry keys whose fits on the paper's tasks are measured to be quick together: the
#: three MSPC solvers on the 67 tasks took 3.7 s (MPM, the slowest) on a 2-core machine,
#: while the cost model, made for one fit on larger data, predicts 102 s for them.
QUICK_ON_TASKS = ("mspc-mpm", "mspc-gep", "mspc-eig")


def plan_runs(
    view: str,
    key: str,
    params: Mapping[str, Any],
    lam: float,
    regularizer: str,
    dataset: datasets.Dataset,
) -> runs.Batch:
    """The fits a view starts, each one's cost predicted once (:func:`ui.runs.plan_batch`).

    ``"tasks"``: ``key`` on every task of the paper's families, with the fit parameters of
    :func:`families_table`; it may start without a click only for :data:`QUICK_ON_TASKS`,
    each fit below the auto-run limits. ``"lam"``: ``key`` on ``dataset`` for every λ of
    :data:`lab.experiments.protocols.DEFAULT_LAMS` (the parameters
    :func:`lab.experiments.protocols.lam_sweep` fits with), together within the auto-run
    time. Hand :meth:`~ui.runs.Batch.evaluator` to :func:`run_with_progress`.
    """
    if view == "tasks":
        fit_params = _task_params(params, lam, regularizer)
        fits = [(key, fit_params, n, d) for n, d in _task_shapes()]
        return runs.plan_batch(fits, each=True, alone=key in QUICK_ON_TASKS)
    others = sweep_params(params)
    fits = [
        (key, {**others, "lam": float(v)}, dataset.n_samples, dataset.n_features)
        for v in protocols.DEFAULT_LAMS
    ]
    return runs.plan_batch(fits)


@shared(max_entries=1)
def _task_shapes() -> tuple[tuple[int, int], ...]:
    """``(n_samples, n_features)`` of every task of the paper's families, read once per
    server: the 67 tasks are more than :func:`ui.cache.load_bundled` keeps, so reading them
    on each visit loaded them all again."""
    return tuple(
        (ds.n_samples, ds.n_features)
        for family in families.PAPER_FAMILIES
        for ds in (cache.load_bundled(name, True) for name in family.tasks)
    )


def sweep_params(params: Mapping[str, Any]) -> dict[str, Any]:
    """The parameters :func:`lab.experiments.protocols.lam_sweep` gets: all but ``lam``,
    which the sweep sets."""
    return {k: v for k, v in params.items() if k != "lam"}


def _task_params(params: Mapping[str, Any], lam: float, regularizer: str) -> dict[str, Any]:
    """The parameters every task of the view across tasks is fitted with."""
    return {**params, "lam": effective_lam(lam, regularizer), "regularizer": regularizer}


def wait_message(view: str, method: str) -> str:
    """Why a view waits for its button (:func:`plan_runs`)."""
    if view == "tasks":
        return (
            f"{method} on the paper's 67 tasks has not been measured to be quick (the lab "
            "starts this view by itself for MSPC only): press **Compute** to run it (runs "
            "already computed come back at once)."
        )
    return (
        f"{len(protocols.DEFAULT_LAMS)} runs of {method} on these data are predicted to take "
        "longer than the lab starts by itself: press **Compute** to run them (runs already "
        "computed come back at once)."
    )


def families_table(
    key: str,
    params: Mapping[str, Any],
    lam: float,
    regularizer: str,
    *,
    progress=None,
    evaluator=None,
) -> pd.DataFrame:
    """:func:`lab.experiments.families.families_table` of ``key`` fitted with ``lam`` and
    ``regularizer``, both MSPs at that ``lam`` and Λ, tasks loaded through the cache."""
    return families.families_table(
        key,
        _task_params(params, lam, regularizer),
        progress,
        msp_lam=effective_lam(lam, regularizer),
        msp_regularizer=regularizer,
        load=family_tasks,
        evaluator=evaluator or cached_evaluator,
    )


def families_verdict(table: pd.DataFrame, score: str):
    """The view across tasks' verdict (:func:`lab.experiments.families.families_verdict`)."""
    return families.families_verdict(table, score)


def families_summary(table: pd.DataFrame) -> pd.DataFrame:
    """One row per family: tasks, both r, the paper's r, the pairs of tasks that agree."""
    return families.families_summary(table)


def summary_columns() -> dict[str, Any]:
    """Column settings of :func:`families_summary`'s table."""
    r = "Pearson's r between this MSP and accuracy over the family's tasks."
    return {
        "family": st.column_config.TextColumn("family"),
        "tasks": st.column_config.NumberColumn("tasks"),
        "r_heldout": st.column_config.NumberColumn("r, held-out", format="%.2f", help=r),
        "r_in_sample": st.column_config.NumberColumn("r, in-sample", format="%.2f", help=r),
        "paper_r": st.column_config.NumberColumn(
            "paper's r", format="%.2f", help="The MSPC paper's r (its in-sample MSP)."
        ),
        "pairs_agree": st.column_config.NumberColumn(
            "pairs agreeing",
            help="Of the pairs of tasks with different held-out MSPs, those whose higher "
            "held-out MSP has the higher accuracy.",
        ),
        "pairs": st.column_config.NumberColumn("pairs"),
    }


def paper_note() -> str:
    """What the paper's r are over, against the lab's tasks."""
    return (
        "The paper's r: "
        + "; ".join(
            f"{f.paper_r:.2f} over {f.paper_tasks} (here: {len(f.tasks)} {f.label})"
            for f in families.PAPER_FAMILIES
        )
        + ". Its MSPs are in-sample, each task at the λ it chose."
    )


def sweep_verdict(table: pd.DataFrame, score: str) -> str:
    """The λ sweep's verdict: whether ``score`` follows accuracy across λ here (worded by
    :func:`lab.verdicts.correlation`) and what choosing λ by it costs
    (:func:`lab.verdicts.selection_cost`)."""
    name = protocols.SCORES[score]
    ok = table[table["error"] == ""]
    parts = [
        verdicts.correlation(ok[score], ok["accuracy"], score_name=name, what="values of λ").text
    ]
    if ok["accuracy"].notna().any():
        parts.append(
            verdicts.selection_cost(ok["lam"], ok[score], ok["accuracy"], score_name=name).text
        )
    return " ".join(parts)


def sweep_comparison(table: pd.DataFrame, score: str) -> str:
    """How the two MSPs' r across λ compare (:func:`lab.verdicts.compare_correlations`;
    ``""`` when either is undefined)."""
    ok = table[table["error"] == ""]
    rs = family_correlations(ok)
    other = "msp" if score == "msp_heldout" else "msp_heldout"
    return verdicts.compare_correlations(
        rs[score], rs[other], protocols.SCORES[score], protocols.SCORES[other]
    ).text


def as_sweep(table: pd.DataFrame) -> protocols.LamSweep:
    """A :class:`~lab.experiments.protocols.LamSweep` from its table (for the figure)."""
    choice = protocols.lam_choice(table, "msp_heldout")
    return protocols.LamSweep(
        table, choice.lam, choice.best_accuracy_lam, choice.accuracy, choice.best_accuracy
    )


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


#: Set by a Home demo's button: MSP vs accuracy computes its family on arrival.
RUN_ONCE = "mva.run_once"
