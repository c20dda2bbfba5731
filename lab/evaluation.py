"""Fit a registered algorithm and score its labeling into the lab's one result type.

One function computes the row every page, experiment and benchmark reports — MSP,
accuracy, NMI, Rand, F, time and iterations — so the numbers agree wherever they appear:

- :data:`MSP_REFERENCE_LAM` / :data:`MSP_REFERENCE_REGULARIZER`: the one ``lam`` and ``Lambda``
  at which the lab compares the MSPs of different labelings (a labeling's own ``msp_`` falls
  as its ``lam`` grows, so it cannot compare labelings fitted with different ``lam``);
- :func:`evaluate` scores a labeling (with or without true classes);
- :func:`fit_and_evaluate` builds an estimator from :data:`clustering.ALGORITHMS`, fits it,
  times it, scores it and returns a :class:`FitOutcome` (the result of every fit path: the
  app's cache, the protocols' evaluator :func:`lab.experiments.evaluator.evaluate_fit`
  and the experiment cells, which store :meth:`FitOutcome.to_dict`); the errors the methods raise on
  purpose (:class:`~clustering.exceptions.SolverFailedError`,
  :class:`~clustering.exceptions.ProblemTooLargeError`,
  :class:`~clustering.exceptions.DegenerateDataError`, ``ValueError``, ...) become a readable
  ``FitOutcome.error`` instead of an exception, so a page can show the message in place of
  the result;
- the display table of several results is :func:`lab.tables.metrics_table`.

Pure Python: never imports streamlit.

Examples
--------
>>> import numpy as np
>>> from lab.evaluation import fit_and_evaluate
>>> rng = np.random.default_rng(0)
>>> X = np.vstack([rng.normal(0, 1, (50, 2)), rng.normal(0, 1, (50, 2)) + [6, 0]])
>>> y = np.repeat([0, 1], 50)
>>> result = fit_and_evaluate("mspc-mpm", {"lam": 0.1}, X, y)
>>> result.ok, result.metrics["accuracy"]
(True, 1.0)
>>> round(result.metrics["msp"], 3) == round(result.msp, 3)
True
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from clustering import metrics as _metrics
from clustering._threads import small_data_threads
from clustering.exceptions import DegenerateDataError, ProblemTooLargeError, SolverFailedError
from clustering.mpm import fit_mpm_to_labels
from clustering.msp_heldout import DEFAULT_N_SPLITS, min_cluster_size
from clustering.registry import ALGORITHMS

#: The ``lam`` at which the MSPs of different labelings are compared, wherever the lab does so
#: without a λ chosen by the user: the label-free selection of the papers' tables
#: (``lab.experiments``), the λ sweep of the MSP vs accuracy page, the metrics of a
#: method without ``lam`` (k-means, ...) and the Home page's stories. 0.01 is the value the
#: stored Table 2 selection was computed with (re-scoring it needs the labelings, which the
#: stored cells do not keep); on scikit-learn's anisotropic blobs the MSP at 0.01 prefers the
#: true labeling to k-means' (0.908 against 0.652; see the ``lam`` parameter of
#: :class:`clustering.MSPC`). The Cluster page compares its methods at the user's λ instead.
MSP_REFERENCE_LAM: float = 0.01
#: The ``Lambda`` of those comparisons (the paper's ``diag``).
MSP_REFERENCE_REGULARIZER: str = "diag"

__all__ = [
    "EXPECTED_ERRORS",
    "HELDOUT_RANDOM_STATE",
    "MSP_REFERENCE_LAM",
    "MSP_REFERENCE_REGULARIZER",
    "FitOutcome",
    "evaluate",
    "fit_and_evaluate",
    "heldout_msp",
    "heldout_msp_or_reason",
]

#: The seed of the random splits of the lab's held-out MSP (:func:`heldout_msp`): one value
#: everywhere, so a labeling shows the same held-out MSP on every page for the same ``lam``
#: and ``Lambda``.
HELDOUT_RANDOM_STATE = 0


#: Exceptions a method raises on purpose, with a message meant for the user. Anything else
#: is a bug and propagates.
EXPECTED_ERRORS: tuple[type[BaseException], ...] = (
    SolverFailedError,
    ProblemTooLargeError,
    DegenerateDataError,
    ValueError,
    np.linalg.LinAlgError,
    ArithmeticError,
    MemoryError,
)


@dataclass(frozen=True, eq=False)
class FitOutcome:
    """One fitted algorithm, measured: everything the lab shows and the protocols tabulate.

    Attributes
    ----------
    key : str
        Registry key of the algorithm (``"mspc-mpm"``, ...).
    name : str
        Its display name.
    params : dict
        The parameters the estimator was built with (after defaults were filled in).
    labels : ndarray of shape (n_samples,) or None
        Cluster of each sample (``None`` when the fit failed).
    w : ndarray of shape (n_features,) or None
        Normal of the separating hyperplane: the estimator's own ``w_`` for linear methods,
        otherwise the MPM hyperplane fitted to the labeling (see ``hyperplane``). ``None``
        when the labeling does not have exactly two clusters or the fit failed.
    b : float or None
        Offset: the hyperplane is ``w'x = b``.
    hyperplane : {"model", "mpm", ""}
        Where ``w``, ``b`` come from: the estimator itself, the MPM fitted to the
        estimator's labels (what the MSP of that labeling measures), or nowhere.
    history : ndarray or None
        The estimator's objective per iteration (``history_``), when it records one.
    n_iter : int or None
        Iterations the estimator reports (``n_iter_``).
    metrics : dict
        ``msp``, ``msp_heldout`` (:func:`heldout_msp`, same ``lam`` and ``Lambda``),
        ``accuracy``, ``nmi``, ``rand``, ``f`` (``None`` where undefined: no true classes,
        or a single cluster for the MSPs), ``seconds`` (fit time) and ``n_iter``.
    seconds : float
        Wall-clock time of ``fit`` alone.
    error : str
        The message of the error the fit raised, when it failed (``""`` on success); every
        other field except ``key``, ``name``, ``params`` and ``seconds`` is then empty.
    error_type : str
        Class name of that error (``"SolverFailedError"``, ...), ``""`` on success.
    warnings : tuple of str
        Warnings raised during the fit (non-convergence, ...), for the page to show.
    msp_lam, msp_regularizer : float, str
        The ``lam`` and ``Lambda`` the MSP in ``metrics`` was computed with.
    kernel : str
        For a kernel method, its width and rank in words (:func:`kernel_note`); ``""``
        otherwise.
    """

    key: str
    name: str
    params: dict = field(default_factory=dict)
    labels: np.ndarray | None = None
    w: np.ndarray | None = None
    b: float | None = None
    hyperplane: str = ""
    history: np.ndarray | None = None
    n_iter: int | None = None
    metrics: dict = field(default_factory=dict)
    seconds: float = 0.0
    error: str = ""
    error_type: str = ""
    warnings: tuple[str, ...] = ()
    msp_lam: float = MSP_REFERENCE_LAM
    msp_regularizer: str = MSP_REFERENCE_REGULARIZER
    kernel: str = ""

    @property
    def ok(self) -> bool:
        """Whether the fit succeeded."""
        return not self.error

    @property
    def msp(self) -> float:
        """The MSP of the labeling (``metrics["msp"]``; NaN where undefined)."""
        return _nan(self.metrics.get("msp"))

    @property
    def msp_heldout(self) -> float:
        """The held-out MSP of the labeling (``metrics["msp_heldout"]``, :func:`heldout_msp`;
        NaN where undefined)."""
        return _nan(self.metrics.get("msp_heldout"))

    @property
    def accuracy(self) -> float:
        """Accuracy against the true classes (``metrics["accuracy"]``; NaN where undefined)."""
        return _nan(self.metrics.get("accuracy"))

    @property
    def n_clusters(self) -> int:
        """Number of distinct clusters in ``labels`` (0 when the fit failed)."""
        return 0 if self.labels is None else int(np.unique(self.labels).shape[0])

    def margins(self, X) -> np.ndarray | None:
        """Signed margins ``X @ w - b`` (``None`` without a hyperplane)."""
        if self.w is None or self.b is None:
            return None
        return np.asarray(X, dtype=np.float64) @ self.w - self.b

    def to_dict(self) -> dict[str, Any]:
        """The outcome as plain JSON values (what an experiment cell stores on disk).

        ``status`` (``"ok"`` or ``"failed"``), ``error`` (``"<type>: <message>"`` or
        ``None``), ``seconds``, and on success ``warnings``, ``accuracy``, ``nmi``,
        ``rand``, ``msp`` (``None`` where undefined), ``n_iter`` and ``n_clusters``.
        """
        if not self.ok:
            error = f"{self.error_type}: {self.error}" if self.error_type else self.error
            return {"status": "failed", "error": error, "seconds": self.seconds}
        return {
            "status": "ok",
            "error": None,
            "seconds": self.seconds,
            "warnings": list(self.warnings),
            "accuracy": self.metrics["accuracy"],
            "nmi": self.metrics["nmi"],
            "rand": self.metrics["rand"],
            "msp": self.metrics["msp"],
            "n_iter": self.n_iter,
            "n_clusters": self.n_clusters,
        }


def _nan(value: Any) -> float:
    return np.nan if value is None else float(value)


def evaluate(
    X,
    y,
    labels,
    lam: float = MSP_REFERENCE_LAM,
    regularizer: str = MSP_REFERENCE_REGULARIZER,
) -> dict[str, float | None]:
    """Score a labeling: its MSP and, when the true classes are known, the external measures.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,) or None
        True classes; ``None`` for unlabelled data (the external measures are then ``None``).
    labels : array-like of shape (n_samples,)
        The clustering.
    lam : float, default=MSP_REFERENCE_LAM (0.01)
        ``lam`` of the MSP (:func:`clustering.metrics.msp_score`).
    regularizer : str, default="diag"
        ``Lambda`` of the MSP.

    Returns
    -------
    dict
        ``msp`` (the multi-class MSP for more than two clusters; ``None`` for one cluster,
        or when the MPM cannot be fitted to it), ``msp_heldout`` (:func:`heldout_msp` with
        the same ``lam`` and ``regularizer``; ``None`` where ``msp`` is), ``accuracy``
        (under the optimal matching of clusters to classes), ``nmi``, ``rand``, ``ari``
        (adjusted Rand index) and ``f`` (F1 over pairs).

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0, 0], [0, 1], [1, 0], [5, 5], [5, 6], [6, 5]])
    >>> row = evaluate(X, [0, 0, 0, 1, 1, 1], [1, 1, 1, 0, 0, 0], lam=0.1)
    >>> round(row["msp"], 3), row["accuracy"], row["nmi"], row["rand"], row["f"]
    (0.943, 1.0, 1.0, 1.0, 1.0)
    >>> evaluate(X, None, [0, 0, 0, 0, 0, 0])["msp"] is None
    True
    """
    labels = np.asarray(labels)
    out: dict[str, float | None] = {
        "msp": None,
        "msp_heldout": None,
        "accuracy": None,
        "nmi": None,
        "rand": None,
        "ari": None,
        "f": None,
    }
    if np.unique(labels).shape[0] >= 2:
        try:
            out["msp"] = float(_metrics.msp_score(X, labels, lam=lam, regularizer=regularizer))
        except (ValueError, np.linalg.LinAlgError, ArithmeticError):
            out["msp"] = None
        else:
            out["msp_heldout"] = heldout_msp(X, labels, lam, regularizer)
    if y is not None:
        out.update(_metrics.external_scores(y, labels))
    return out


def heldout_msp(X, labels, lam: float, regularizer: str) -> float | None:
    """The held-out MSP the lab shows for a labeling: one function for every page.

    :func:`clustering.metrics.msp_heldout_score` with its default parts and repeats and the
    splits drawn with :data:`HELDOUT_RANDOM_STATE`, so the same labeling, ``lam`` and
    ``Lambda`` give the same number wherever the lab shows it. A cluster too small to hold
    any point out (fewer than two points) scores 0, as MSPC's ``msp_heldout_`` does:
    nothing of it can be validated. ``None`` for a single cluster or when the MPM cannot
    be fitted (:func:`heldout_msp_or_reason` says why).

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> noise = rng.normal(size=(120, 60))
    >>> halves = np.arange(120) % 2  # a balanced split of pure noise
    >>> round(_metrics.msp_score(noise, halves, lam=0.01), 3)
    0.462
    >>> round(heldout_msp(noise, halves, 0.01, "diag"), 3)
    0.0
    """
    return heldout_msp_or_reason(X, labels, lam, regularizer)[0]


def heldout_msp_or_reason(X, labels, lam: float, regularizer: str) -> tuple[float | None, str]:
    """:func:`heldout_msp` and, when it is ``None``, the reason (``""`` otherwise).

    Examples
    --------
    >>> import numpy as np
    >>> X = np.random.default_rng(0).normal(size=(40, 30))  # fewer points than features
    >>> value, reason = heldout_msp_or_reason(X, np.arange(40) % 2, 0.0, "none")
    >>> value is None, "singular" in reason
    (True, True)
    """
    labels = np.asarray(labels)
    _values, counts = np.unique(labels, return_counts=True)
    if counts.shape[0] < 2:
        return None, "a single cluster: nothing to separate."
    if counts.min() < min_cluster_size(DEFAULT_N_SPLITS):
        return 0.0, ""
    try:
        value = _metrics.msp_heldout_score(
            X, labels, lam=lam, regularizer=regularizer, random_state=HELDOUT_RANDOM_STATE
        )
    except (DegenerateDataError, ValueError, np.linalg.LinAlgError, ArithmeticError) as err:
        return None, str(err) or type(err).__name__
    return float(value), ""


def _hyperplane(estimator, X, labels, lam, regularizer):
    """``(w, b, source)``: the model's own hyperplane, else the MPM of its labeling."""
    w = getattr(estimator, "w_", None)
    b = getattr(estimator, "b_", None)
    if w is not None and b is not None:
        w = np.asarray(w, dtype=np.float64).ravel()
        if w.shape[0] == X.shape[1] and np.all(np.isfinite(w)) and np.any(w != 0):
            return w, float(b), "model"
    if np.unique(labels).shape[0] != 2:
        return None, None, ""
    try:
        _sol, w, b = fit_mpm_to_labels(X, _binary(labels), lam, regularizer)
    except (ValueError, np.linalg.LinAlgError, ArithmeticError):
        return None, None, ""
    if not np.any(w != 0):
        return None, None, ""
    return w, float(b), "mpm"


def _binary(labels) -> np.ndarray:
    values = np.unique(labels)
    return (np.asarray(labels) == values[1]).astype(np.intp)


def _pairs(pairs) -> list[tuple[int, int]]:
    return [(int(i), int(j)) for i, j in (pairs or ())]


def fit_and_evaluate(
    key: str,
    params: Mapping[str, Any] | None,
    X,
    y=None,
    must_link: Sequence[tuple[int, int]] | None = None,
    cannot_link: Sequence[tuple[int, int]] | None = None,
    *,
    msp_lam: float | None = None,
    msp_regularizer: str | None = None,
    random_state: int | None = 0,
) -> FitOutcome:
    """Fit the algorithm registered as ``key`` on ``X`` and score its labeling.

    Parameters
    ----------
    key : str
        A key of :data:`clustering.ALGORITHMS`.
    params : mapping or None
        Estimator parameters; the spec's defaults fill in the UI parameters not given.
        Unknown names raise ``TypeError`` (a programming error, not a user error).
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,) or None
        True classes, used only for scoring.
    must_link, cannot_link : sequence of (i, j) index pairs, optional
        Constraints, passed to ``fit`` for methods whose spec has ``constraints=True``.
        Giving non-empty constraints to any other method gives an error result.
    msp_lam, msp_regularizer : float and str, optional
        ``lam`` and ``Lambda`` of the MSP in the metrics. By default the algorithm's own
        ``lam``/``regularizer`` when it has them, else :data:`MSP_REFERENCE_LAM`
        and ``MSP_REFERENCE_REGULARIZER``. Pass the same values for every algorithm to compare
        their MSPs.
    random_state : int or None, default=0
        Set on estimators that take a ``random_state`` and were not given one, so results
        are reproducible (and cacheable).

    Returns
    -------
    FitOutcome
        On an expected failure (see :data:`EXPECTED_ERRORS`) ``error`` holds the message and
        ``labels`` is ``None``.

    Raises
    ------
    KeyError
        If ``key`` is not registered.
    TypeError
        If ``params`` names a parameter the estimator does not have.

    Examples
    --------
    >>> import numpy as np
    >>> from lab.evaluation import fit_and_evaluate
    >>> X = np.array([[0.0, 0], [0, 1], [1, 0], [5, 5], [5, 6], [6, 5]])
    >>> bad = fit_and_evaluate("mspc-mpm", {"lam": -1.0}, X)
    >>> bad.ok, bad.error_type
    (False, 'InvalidParameterError')
    """
    if key not in ALGORITHMS:
        raise KeyError(
            f"No algorithm is registered as {key!r}. Choose one of: {', '.join(ALGORITHMS)}."
        )
    spec = ALGORITHMS[key]
    full = {**spec.defaults(), **dict(params or {})}
    X = np.asarray(X, dtype=np.float64)
    y = None if y is None else np.asarray(y)
    lam = msp_lam if msp_lam is not None else float(full.get("lam", MSP_REFERENCE_LAM))
    regularizer = (
        msp_regularizer
        if msp_regularizer is not None
        else str(full.get("regularizer", MSP_REFERENCE_REGULARIZER))
    )
    base = {"key": key, "name": spec.name, "msp_lam": lam, "msp_regularizer": regularizer}

    estimator = spec.make(**full)
    if random_state is not None and "random_state" not in full:
        if "random_state" in estimator.get_params():
            estimator.set_params(random_state=random_state)
            full["random_state"] = random_state
    base["params"] = full

    fit_kwargs: dict[str, Any] = {}
    ml, cl = _pairs(must_link), _pairs(cannot_link)
    if ml or cl:
        if not spec.constraints:
            return FitOutcome(
                **base,
                error=f"{spec.name} does not use must-link or cannot-link constraints; "
                "clear them or choose a method that does (DIFFRAC, SMIC).",
                error_type="ValueError",
            )
        fit_kwargs = {"must_link": ml, "cannot_link": cl}

    start = time.perf_counter()
    try:
        # One BLAS and one OpenMP thread on small data: see clustering._threads.small_data_threads.
        with warnings.catch_warnings(record=True) as caught, small_data_threads(np.asarray(X)):
            warnings.simplefilter("always")
            estimator.fit(X, **fit_kwargs)
            labels = np.asarray(estimator.labels_)
    except EXPECTED_ERRORS as err:
        seconds = time.perf_counter() - start
        return FitOutcome(
            **base,
            seconds=seconds,
            error=str(err) or type(err).__name__,
            error_type=type(err).__name__,
        )
    seconds = time.perf_counter() - start

    messages = tuple(
        dict.fromkeys(str(w.message) for w in caught if w.category is not DeprecationWarning)
    )
    with small_data_threads(np.asarray(X)):
        scores = evaluate(X, y, labels, lam=lam, regularizer=regularizer)
        w, b, source = _hyperplane(estimator, X, labels, lam, regularizer)
    n_iter = getattr(estimator, "n_iter_", None)
    n_iter = None if n_iter is None else int(np.max(n_iter))
    history = getattr(estimator, "history_", None)
    history = None if history is None else np.asarray(history, dtype=np.float64).ravel()
    return FitOutcome(
        **base,
        labels=labels,
        w=w,
        b=b,
        hyperplane=source,
        history=history,
        n_iter=n_iter,
        metrics={**scores, "seconds": seconds, "n_iter": n_iter},
        seconds=seconds,
        warnings=messages,
        kernel=kernel_note(estimator),
    )


def kernel_note(estimator) -> str:
    """A fitted kernel MSPC's width and rank in words (``""`` for any other estimator):
    ``"RBF width γ = 0.147 (from the data) · rank 300 (Nystroem components) · MSPC on 3
    spectral coordinates"``."""
    gamma = getattr(estimator, "gamma_", None)
    fmap = getattr(getattr(estimator, "model_", None), "fmap", None)
    if gamma is None or fmap is None or getattr(fmap, "nystroem", None) is None:
        return ""
    given = getattr(estimator, "gamma", None) is not None
    rank = int(fmap.nystroem.n_components)
    coords = int(fmap.spectral.U.shape[1])
    return (
        f"RBF width γ = {float(gamma):.3g} ({'given' if given else 'from the data'}) · rank "
        f"{rank} (Nystroem components) · MSPC on {coords} spectral coordinates"
    )
