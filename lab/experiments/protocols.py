"""The lab's protocols: the sweeps behind the analysis pages and the MSPC paper's Figs. 1-3.

Pure Python (numpy, pandas); never imports streamlit. Every function takes plain arrays, fits
estimators through :func:`lab.evaluation.fit_and_evaluate` and returns tidy
:class:`pandas.DataFrame` results, so the app, the experiment runner and a notebook share one
implementation.

* :func:`afs_sensitivity` -- anisotropic feature scaling (AFS), the protocol of the MSPC
  paper's Fig. 1: scale one random feature by ``a`` and record each method's accuracy.
* :func:`lam_sweep` -- in-sample and held-out MSP and accuracy over a grid of ``lam``: the MSP
  as unsupervised model selection (the ``lam`` maximising the held-out MSP, or with
  :func:`lam_choice` the in-sample MSP, next to the one maximising accuracy).
* :func:`msp_accuracy_family` with :func:`pearson` and :func:`fit_line` -- one (MSP,
  accuracy) point per task, in-sample and held out: the MSPC paper's Figs. 2-3.

Every protocol fits through one evaluator, :func:`evaluate_fit` (over
:func:`lab.evaluation.fit_and_evaluate`, the numbers of the Cluster page and of the
papers' tables), and measures with one result type, :class:`FitOutcome`; the app passes a
cached evaluator with the same signature. The live checks of the theorems are in
:mod:`lab.theorems`.

``progress`` arguments take a callable ``progress(fraction, message)`` (``fraction`` in
``[0, 1]``), which the app connects to ``st.progress``.

References
----------
G. Huang, J. Zhang, S. Song, Z. Chen. Maximin Separation Probability Clustering. AAAI 2015
(Huang et al., Maximin Separation Probability Clustering (AAAI 2015)).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from clustering._lam import effective_lam
from datasets.scaling import PAPER_FACTORS
from lab.evaluation import MSP_REFERENCE_LAM, MSP_REFERENCE_REGULARIZER
from lab.experiments._stats import SCORES, LamChoice, fit_line, lam_choice, pearson
from lab.experiments.evaluator import (
    Evaluator,
    FitOutcome,
    MethodSpec,
    Progress,
    apply_factors,
    evaluate_fit,
    msp_or_nan,
    report,
)

__all__ = [
    "DEFAULT_FACTORS",
    "DEFAULT_LAMS",
    "SCORES",
    "SWEEP_MSP_LAM",
    "AfsRun",
    "FitOutcome",
    "LamChoice",
    "LamSweep",
    "SensitivityResult",
    "afs_runs",
    "afs_schedule",
    "afs_sensitivity",
    "apply_factors",
    "evaluate_fit",
    "fit_line",
    "lam_choice",
    "lam_sweep",
    "load_tasks",
    "msp_accuracy_family",
    "pearson",
    "summarize_sensitivity",
]

#: Scaling factors of the MSPC paper's Fig. 1 (:data:`datasets.scaling.PAPER_FACTORS`), with
#: 1 (no scaling) as the reference.
DEFAULT_FACTORS = (1.0, *PAPER_FACTORS)

#: The paper's grid for ``lam``: ``10^-4, ..., 10^4``.
DEFAULT_LAMS = tuple(10.0 ** np.arange(-4, 5))

#: ``lam`` that :func:`lam_sweep` measures the MSP of every labeling with, so that the
#: labelings of different ``lam`` are compared on one scale: the lab's one reference,
#: :data:`lab.evaluation.MSP_REFERENCE_LAM` (also the papers' tables' label-free choice).
SWEEP_MSP_LAM = MSP_REFERENCE_LAM

# --------------------------------------------------------------------------------------------
# Fig. 1: sensitivity to anisotropic feature scaling
# --------------------------------------------------------------------------------------------


class SensitivityResult(NamedTuple):
    """Result of :func:`afs_sensitivity`; unpacks as ``runs, summary``.

    Attributes
    ----------
    runs : DataFrame
        One row per (method, factor, repeat): ``method``, ``factor``, ``repeat``,
        ``feature`` (index of the scaled feature), ``accuracy``, ``msp``, ``seconds``,
        ``error`` (empty string on success).
    summary : DataFrame
        One row per (method, factor): ``accuracy_mean``, ``accuracy_std``, ``accuracy_sem``
        (standard error of the mean), ``msp_mean``, ``n_runs`` (successful runs),
        ``n_failed``; accuracy in [0, 1].
    """

    runs: pd.DataFrame
    summary: pd.DataFrame


class AfsRun(NamedTuple):
    """One fit of the Fig. 1 protocol: ``method`` (display name) with registry ``key`` and
    ``params``, feature ``feature`` multiplied by ``factor`` (``feature`` is ``None`` for the
    unscaled fit, which every repeat shares)."""

    method: str
    key: str
    params: Mapping[str, Any]
    feature: int | None
    factor: float


def afs_schedule(
    d: int,
    n_repeats: int = 10,
    random_state: int | None = 0,
    features: Sequence[int] | None = None,
) -> np.ndarray:
    """The features scaled in the repetitions of Fig. 1: ``min(n_repeats, d)`` distinct ones
    drawn with ``random_state`` (:func:`datasets.scaling.afs_feature_schedule`), or exactly
    ``features``."""
    if features is not None:
        schedule = np.asarray(features, dtype=int).ravel()
        if schedule.size == 0 or (schedule < 0).any() or (schedule >= d).any():
            raise ValueError(f"features must be indices between 0 and {d - 1}.")
        return schedule
    if n_repeats < 1:
        raise ValueError(f"n_repeats must be at least 1; got {n_repeats}.")
    from datasets.scaling import afs_feature_schedule

    rng = np.random.default_rng(random_state)
    return np.asarray(afs_feature_schedule(d, int(n_repeats), rng=rng), dtype=int)


def afs_runs(
    methods: Mapping[str, MethodSpec], factors: Sequence[float], schedule: Sequence[int]
) -> list[AfsRun]:
    """Every fit the Fig. 1 protocol needs, method by method: the unscaled fit once (when 1 is
    among ``factors``), then each other factor for each scheduled feature.

    The lab's Feature scaling page (through :func:`afs_sensitivity`) and the stored
    experiment (``lab.experiments.afs``, one cell per run) use this list.
    """
    runs = []
    for name, (key, params) in methods.items():
        for a in factors:
            if a == 1.0:
                runs.append(AfsRun(name, key, params, None, 1.0))
                continue
            runs.extend(AfsRun(name, key, params, int(f), float(a)) for f in schedule)
    return runs


def afs_sensitivity(
    X,
    y,
    methods: Mapping[str, MethodSpec],
    factors: Sequence[float] = DEFAULT_FACTORS,
    n_repeats: int = 10,
    random_state: int | None = 0,
    progress: Progress = None,
    *,
    features: Sequence[int] | None = None,
    msp_lam: float | None = None,
    evaluator: Evaluator | None = None,
) -> SensitivityResult:
    """Accuracy of each method when one feature is rescaled: the MSPC paper's Fig. 1.

    Protocol (MSPC paper, section "Feature scaling"): in each repetition a different,
    randomly chosen feature is multiplied by ``a`` for every ``a`` in ``factors`` and every
    method is fitted on the scaled data; "we ensure 10 different features are scaled, and
    for *diabetes* all the eight features are selected and scaled once". So the number of
    repetitions is ``min(n_repeats, d)`` and the features are distinct.

    A factor of 1 leaves the data unchanged, so each method is fitted on it once and the
    result is shared by all repetitions (the fits are seeded, hence identical).

    Parameters
    ----------
    X : array-like of shape (n_samples, d)
        The data (the paper scales features to [-1, 1] first).
    y : array-like of shape (n_samples,)
        True classes.
    methods : mapping ``name -> (key, params)``
        Display name of each method, its registry key and estimator parameters, e.g.
        ``{"k-means": ("kmeans", {}), "MSPC": ("mspc-mpm", {"lam": 0.1})}``.
    factors : sequence of float, default=(1, 2, 4, 8, 16)
        Positive factors.
    n_repeats : int, default=10
        Repetitions (distinct features); capped at ``d``.
    random_state : int or None, default=0
        Seeds the choice of features and every estimator without its own ``random_state``.
    progress : callable(fraction, message) or None
    features : sequence of int or None, keyword-only
        Scale exactly these features (one per repetition) instead of a random choice.
    msp_lam : float or None, keyword-only
        See :func:`evaluate_fit`.
    evaluator : callable or None, keyword-only
        Replaces :func:`evaluate_fit` (same signature), e.g. with a cached version.

    Returns
    -------
    SensitivityResult
        ``(runs, summary)`` data frames.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(0, 1, (40, 3)), rng.normal(0, 1, (40, 3)) + [4, 0, 0]])
    >>> y = np.repeat([0, 1], 40)
    >>> runs, summary = afs_sensitivity(
    ...     X, y, {"MSPC": ("mspc-mpm", {"lam": 0.1, "init": "kmeans-standardized"})},
    ...     factors=(1, 16), n_repeats=3)
    >>> summary["accuracy_mean"].round(3).tolist()
    [1.0, 1.0]
    """
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y)
    if X.ndim != 2:
        raise ValueError(f"X must be a 2-D array; got shape {X.shape}.")
    if y.shape != (X.shape[0],):
        raise ValueError(f"y must have one class per sample ({X.shape[0]}); got {y.shape}.")
    if not methods:
        raise ValueError("Give at least one method: {name: (key, params)}.")
    factors = [float(a) for a in factors]
    if not factors or any(not np.isfinite(a) or a <= 0 for a in factors):
        raise ValueError(f"Factors must be positive and finite; got {factors}.")
    if n_repeats < 1:
        raise ValueError(f"n_repeats must be at least 1; got {n_repeats}.")
    d = X.shape[1]
    schedule = afs_schedule(d, n_repeats, random_state, features)

    fit = evaluator or evaluate_fit
    runs = afs_runs(methods, factors, schedule)
    outcomes: dict[tuple[str, int | None, float], FitOutcome] = {}
    for done, run in enumerate(runs):
        if run.feature is None:
            message, X_run = f"{run.method}: unscaled data", X
        else:
            message = f"{run.method}: feature {run.feature} × {run.factor:g}"
            vector = np.ones(d)
            vector[run.feature] = run.factor
            X_run = apply_factors(X, vector)
        report(progress, done / len(runs), message)
        outcomes[run.method, run.feature, run.factor] = fit(
            run.key, run.params, X_run, y, msp_lam=msp_lam, random_state=random_state
        )
    rows: list[dict[str, Any]] = []
    for repeat, feature in enumerate(schedule):
        for a in factors:
            for name in methods:
                outcome = outcomes[name, None if a == 1.0 else int(feature), a]
                rows.append(
                    {
                        "method": name,
                        "factor": a,
                        "repeat": repeat,
                        "feature": int(feature),
                        "accuracy": outcome.accuracy,
                        "msp": outcome.msp,
                        "seconds": outcome.seconds,
                        "error": outcome.error,
                    }
                )
    report(progress, 1.0, "done")
    runs = pd.DataFrame(rows)
    return SensitivityResult(runs, summarize_sensitivity(runs, order=list(methods)))


def summarize_sensitivity(runs: pd.DataFrame, order: Sequence[str] | None = None) -> pd.DataFrame:
    """Mean, spread and count of accuracy (and mean MSP) per method and factor."""
    ok = runs[runs["error"] == ""]
    grouped = ok.groupby(["method", "factor"], sort=False)
    summary = grouped.agg(
        accuracy_mean=("accuracy", "mean"),
        accuracy_std=("accuracy", lambda s: float(np.std(s, ddof=1)) if len(s) > 1 else 0.0),
        msp_mean=("msp", "mean"),
        n_runs=("accuracy", "size"),
    ).reset_index()
    summary["accuracy_sem"] = summary["accuracy_std"] / np.sqrt(summary["n_runs"])
    failures = runs[runs["error"] != ""]
    failed = failures.groupby(["method", "factor"], sort=False).size().rename("n_failed")
    summary = summary.merge(failed.reset_index(), on=["method", "factor"], how="outer")
    summary["n_failed"] = summary["n_failed"].fillna(0).astype(int)
    summary["n_runs"] = summary["n_runs"].fillna(0).astype(int)
    if order is not None:
        rank = {name: i for i, name in enumerate(order)}
        summary = summary.sort_values(
            ["method", "factor"], key=lambda s: s.map(rank) if s.name == "method" else s
        )
    columns = [
        "method",
        "factor",
        "accuracy_mean",
        "accuracy_std",
        "accuracy_sem",
        "msp_mean",
        "n_runs",
        "n_failed",
    ]
    return summary[columns].reset_index(drop=True)


# --------------------------------------------------------------------------------------------
# MSP as unsupervised model selection over lam
# --------------------------------------------------------------------------------------------


class LamSweep(NamedTuple):
    """Result of :func:`lam_sweep`.

    Attributes
    ----------
    table : DataFrame
        One row per ``lam``: ``lam``, ``msp`` (in-sample) and ``msp_heldout`` (held out),
        both at the sweep's ``msp_lam``, ``accuracy``, ``own_msp`` (the in-sample MSP with
        the run's own ``lam``), ``seconds``, ``error``.
    best_msp_lam : float
        The ``lam`` whose labeling has the largest held-out MSP (chosen without labels);
        NaN if every run failed. :func:`lam_choice` gives the in-sample MSP's choice.
    best_accuracy_lam : float
        The ``lam`` with the largest accuracy (needs labels; NaN without ``y``).
    accuracy_at_best_msp : float
        The accuracy of the labeling chosen by the held-out MSP: what unsupervised
        selection achieves.
    best_accuracy : float
        The best accuracy on the grid: what an oracle would achieve.
    """

    table: pd.DataFrame
    best_msp_lam: float
    best_accuracy_lam: float
    accuracy_at_best_msp: float
    best_accuracy: float


def lam_sweep(
    X,
    y,
    key: str,
    lams: Iterable[float] = DEFAULT_LAMS,
    params: Mapping[str, Any] | None = None,
    progress: Progress = None,
    *,
    msp_lam: float | None = SWEEP_MSP_LAM,
    msp_regularizer: str | None = None,
    random_state: int | None = 0,
    evaluator: Evaluator | None = None,
) -> LamSweep:
    """In-sample and held-out MSP and accuracy of ``key`` for every ``lam``: the MSP as
    unsupervised model selection.

    The MSPC paper picks ``lam`` from ``{1e-4, ..., 1e4}`` by the largest (in-sample) MSP;
    this sweep shows whether the labeling with the largest held-out MSP
    (:func:`lab.evaluation.heldout_msp`, which needs no labels either) is also the most
    accurate, and :func:`lam_choice` gives the in-sample MSP's pick beside it.

    Both MSPs of every labeling are measured with the same ``msp_lam`` (default
    :data:`SWEEP_MSP_LAM`) and ``Lambda`` (the method's ``regularizer``) so that the
    labelings are compared on one scale: measured with each run's own ``lam`` they would
    always favour the smallest ``lam``, because a larger ``lam`` inflates the covariances
    and lowers the MSP of any labeling. The run's own MSP is in the column ``own_msp``.

    Parameters
    ----------
    X : array-like of shape (n_samples, d)
    y : array-like of shape (n_samples,) or None
        True classes (only for the accuracy column).
    key : str
        A registry key of a method with a ``lam`` parameter.
    lams : iterable of float, default=10^-4 ... 10^4
    params : mapping or None
        Other estimator parameters (``lam`` is overridden).
    progress : callable(fraction, message) or None
    msp_lam : float or None, keyword-only, default=SWEEP_MSP_LAM (0.01)
        ``lam`` of the MSPs used for selection; ``None`` uses each run's own ``lam``. The
        lab passes its one MSP ``lam`` (the sidebar's), so a labeling of the sweep shows
        the MSP it shows on every other page.
    msp_regularizer : str or None, keyword-only
        ``Lambda`` of those MSPs (default: the method's ``regularizer``).
    random_state : int or None, keyword-only, default=0
    evaluator : callable or None, keyword-only
        Replaces :func:`evaluate_fit` (same signature), e.g. with a cached version.

    Returns
    -------
    LamSweep

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(0, 1, (50, 2)), rng.normal(0, 1, (50, 2)) + [4, 4]])
    >>> sweep = lam_sweep(X, np.repeat([0, 1], 50), "mspc-eig", lams=[0.01, 1, 100])
    >>> list(sweep.table.columns)
    ['lam', 'msp', 'msp_heldout', 'accuracy', 'own_msp', 'seconds', 'error']
    >>> sweep.accuracy_at_best_msp
    1.0
    """
    X = np.asarray(X, dtype=np.float64)
    y = None if y is None else np.asarray(y)
    lams = [float(v) for v in lams]
    if not lams:
        raise ValueError("Give at least one value of lam.")
    if any(not np.isfinite(v) or v < 0 for v in lams):
        raise ValueError(f"Every lam must be finite and >= 0; got {lams}.")
    fit = evaluator or evaluate_fit
    rows = []
    for i, lam in enumerate(lams):
        report(progress, i / len(lams), f"λ = {lam:g} ({i + 1} of {len(lams)})")
        run_params = {**dict(params or {}), "lam": lam}
        regularizer = str(run_params.get("regularizer", _default_regularizer(key)))
        # Both MSPs at the sweep's one lam are measured inside the (cached) evaluator: a
        # page that passes a cached evaluator computes them once per server, not per visit.
        scale = (
            {}
            if msp_lam is None
            else {
                "msp_lam": effective_lam(msp_lam, msp_regularizer or regularizer),
                "msp_regularizer": msp_regularizer or regularizer,
            }
        )
        outcome = fit(key, run_params, X, y, random_state=random_state, **scale)
        own = outcome.msp
        if scale and outcome.ok and outcome.labels is not None:
            own = msp_or_nan(X, outcome.labels, effective_lam(lam, regularizer), regularizer)
        rows.append(
            {
                "lam": lam,
                "msp": outcome.msp,
                "msp_heldout": outcome.msp_heldout,
                "accuracy": outcome.accuracy,
                "own_msp": own,
                "seconds": outcome.seconds,
                "error": outcome.error,
            }
        )
    report(progress, 1.0, "done")
    table = pd.DataFrame(rows)
    choice = lam_choice(table, "msp_heldout")
    return LamSweep(
        table, choice.lam, choice.best_accuracy_lam, choice.accuracy, choice.best_accuracy
    )


def _default_regularizer(key: str) -> str:
    from clustering.registry import ALGORITHMS

    spec = ALGORITHMS.get(key)
    defaults = spec.defaults() if spec is not None else {}
    return str(defaults.get("regularizer", MSP_REFERENCE_REGULARIZER))


# --------------------------------------------------------------------------------------------
# Figs. 2-3: MSP against accuracy over a family of tasks
# --------------------------------------------------------------------------------------------


def load_tasks(names: Iterable[str], normalize: bool = True) -> list[tuple[str, np.ndarray, Any]]:
    """Bundled tasks as ``(name, X, y)`` triples for :func:`msp_accuracy_family`.

    Examples
    --------
    ``load_tasks(datasets.UCI_TASKS)`` (the seven tasks of Table 2) or
    ``load_tasks(datasets.pairs("digits"))`` (the 45 digit pairs).
    """
    import datasets

    tasks = []
    for name in names:
        ds = datasets.load(name, normalize=normalize)
        tasks.append((name, ds.X, ds.y))
    return tasks


def msp_accuracy_family(
    tasks: Iterable[tuple[str, Any, Any]],
    key: str,
    params: Mapping[str, Any] | None = None,
    progress: Progress = None,
    *,
    msp_lam: float | None = None,
    msp_regularizer: str | None = None,
    random_state: int | None = 0,
    evaluator: Evaluator | None = None,
) -> pd.DataFrame:
    """One (MSP, accuracy) point per task: the MSPC paper's Figs. 2-3.

    Parameters
    ----------
    tasks : iterable of ``(name, X, y)``
        E.g. from :func:`load_tasks`.
    key : str
        Registry key of the method (the paper uses MSPC-MPM).
    params : mapping or None
        Estimator parameters.
    progress : callable(fraction, message) or None
    msp_lam, msp_regularizer : float or None, str or None, keyword-only
        See :func:`evaluate_fit` (default: the method's own ``lam`` and ``Lambda``, as in
        the paper).
    random_state : int or None, keyword-only, default=0
    evaluator : callable or None, keyword-only
        Replaces :func:`evaluate_fit` (same signature), e.g. with a cached version.

    Returns
    -------
    DataFrame
        ``name``, ``msp`` (in-sample), ``msp_heldout`` (:func:`lab.evaluation.heldout_msp`,
        same ``lam`` and ``Lambda``), ``accuracy``, ``smallest`` (points in the smallest
        cluster; 0 when the fit failed), ``n_samples``, ``n_features``,
        ``seconds``, ``error``; one row per task, in order. Correlate with
        ``pearson(df.msp_heldout, df.accuracy)``.
    """
    tasks = list(tasks)
    fit = evaluator or evaluate_fit
    rows = []
    for i, (name, X, y) in enumerate(tasks):
        report(progress, i / max(len(tasks), 1), f"{name} ({i + 1} of {len(tasks)})")
        X = np.asarray(X, dtype=np.float64)
        outcome = fit(
            key,
            params,
            X,
            y,
            msp_lam=msp_lam,
            msp_regularizer=msp_regularizer,
            random_state=random_state,
        )
        rows.append(
            {
                "name": str(name),
                "msp": outcome.msp,
                "msp_heldout": outcome.msp_heldout,
                "accuracy": outcome.accuracy,
                "smallest": _smallest_cluster(outcome.labels),
                "n_samples": X.shape[0],
                "n_features": X.shape[1],
                "seconds": outcome.seconds,
                "error": outcome.error,
            }
        )
    report(progress, 1.0, "done")
    return pd.DataFrame(
        rows,
        columns=[
            "name",
            "msp",
            "msp_heldout",
            "accuracy",
            "smallest",
            "n_samples",
            "n_features",
            "seconds",
            "error",
        ],
    )


def _smallest_cluster(labels) -> int:
    if labels is None:
        return 0
    return int(np.unique(np.asarray(labels), return_counts=True)[1].min())
