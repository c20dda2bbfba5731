"""Predicted fit time and peak memory of every registered method, and the guard built on it.

Each method's cost is a model fitted to fits measured on the lab's machine
(``bench/bench_cost_model.py`` measures, fits and prints the coefficients below; the
measured-vs-predicted table is in ``bench/RESULTS.md``):

* time: ``seconds = t0 + c * N**a * d**b`` (times a parameter factor, e.g. ``n_init / 10``),
  measured single-threaded;
* memory: ``peak_bytes = m0 + m1 * N * d + m2 * N**2 + m3 * N**3`` (traced allocations).

A prediction is a rough guide, good enough to tell a run of a second from one of ten
minutes: on the 100 fits it was fitted to, it was within a factor 2 of the measured time for
90 and within a factor 3 for 98 (see ``bench/RESULTS.md``). It was measured on a loaded
machine, so on a quiet one it over-predicts; beyond N = 400 it extrapolates.
``tests/test_cost.py`` accepts measured / predicted between 1/100 and 3.

Above either :data:`HARD_CAP_SECONDS` or :data:`HARD_CAP_BYTES`, :func:`check_cost` (and
every estimator's ``fit``) refuses with :class:`~clustering.exceptions.TooExpensiveError`.
How much the lab starts without a click is the lab's policy (``lab/budget.py``).

>>> from clustering._cost import predict_cost
>>> predict_cost("kmeans", 200, 2).seconds < 1
True
>>> predict_cost("diffrac", 683, 9, {"relaxation": "convex", "max_samples": 1000}).refused
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from .exceptions import TooExpensiveError

__all__ = [
    "HARD_CAP_BYTES",
    "HARD_CAP_SECONDS",
    "Cost",
    "check_cost",
    "predict_cost",
    "refusal",
    "registry_key",
]

#: A run predicted above either cap is refused: it would not finish on this machine.
HARD_CAP_SECONDS = 600.0
HARD_CAP_BYTES = 8 << 30

#: ``model: (c, a, b, m0, m1, m2, m3, t0)``: ``seconds = t0 + c * N**a * d**b`` and
#: ``peak_bytes = m0 + m1*N*d + m2*N**2 + m3*N**3``, fitted by ``bench/bench_cost_model.py``
#: (N from 100 to 400, d 5 and 40; DIFFRAC convex N 30 to 90; hard MVC N = 50, d = 5 only),
#: single-threaded, while the 2-core machine ran other jobs. IterSVR (both kernels) and soft
#: MVC grow faster than those sizes show: their time terms are refitted on N = 800 to 6400
#: (d = 5 and 40, the same loaded machine; soft MVC as N**3, its eigendecomposition, through
#: 81.5 s at N = 3200) so that no measured point is above the prediction by more than a
#: third (a model fitted on N <= 400 predicted 5 s for itersvr-rbf on spam, which took 114 s).
_MODELS: Mapping[str, tuple[float, ...]] = {
    "mspc-mpm": (0.0002159, 1, 0.5478, 5.418e05, 24, 0, 0, 0.076),
    "mspc-gep": (0.0002257, 1, 0.2148, 5.243e05, 24, 0, 0, 0.1048),
    "mspc-eig": (0.0001146, 1, 0.05839, 5.243e05, 24, 0, 0, 0.0272),
    # Time measured by hand (one thread, N 200 to 3000, d 5 to 40: 0.26 s at 200 x 5, 1.2 s
    # at 1600 x 5, 1.9 s at 1600 x 40); memory as MSPC (MPM)'s, not measured (the N x 300
    # Nystroem features add about 2.4 kB a sample).
    "mspc-rbf": (0.0019, 0.8, 0.15, 5.243e05, 24, 0, 0, 0.1),
    "kmeans": (0.0001979, 1, 0, 5.243e05, 24, 0, 0, 0.1064),
    "lda-kmeans": (0.0002358, 1, 0.1199, 5.243e05, 24, 0, 0, 0.1112),
    "dis-kmeans": (0.0003564, 1, 0, 5.03e05, 24, 0.1355, 0, 0.0848),
    "spectral": (7.836e-05, 1.205, 0.3166, 2.097e05, 24, 23.47, 0, 0.06),
    "smic": (0.002818, 1, 0, 1.835e05, 24, 33.58, 0, 0.3808),
    "itersvr": (5.5e-06, 1.711, 0.9255, 5.243e05, 24, 0, 0, 0.1344),
    "itersvr-rbf": (5.9e-07, 2.148, 0, 5.243e05, 24, 0, 0, 0.2248),
    # MMC re-measured after its dual QP (N 100-1600, d 5 and 40, timed without tracing).
    "mmc-nmi": (0.001021, 1, 0.3083, 1.948e05, 24, 10.07, 0, 0.3572),
    "mmc-rand": (0.001198, 1, 0.1304, 3.112e05, 24, 4.054, 0, 0.269),
    "mmc-f": (0.001141, 1.011, 0.005492, 1.739e05, 24, 14.08, 0, 0.3062),
    "mmc-error": (0.0002573, 1, 0.0366, 3.348e05, 24, 2.06, 0, 0.1465),
    "mvc-soft": (2.5e-09, 3, 0, 1.573e05, 24, 31.71, 0, 0.0688),
    # Re-measured untraced (tracing made its 2-9 ms fits 17-60 ms), N 100-3200, d 5 and 40,
    # on a quiet machine: 8-19 ms; the earlier model predicted 0.17-1.1 s.
    "diffrac": (3.94e-06, 1, 0.1494, 3.209e05, 30.6, 0.0207, 0, 0.006161),
    "diffrac:convex": (9.86e-06, 3, 0.751, 4.772e05, 24, 2454, 0, 0),
    "mvc-hard": (5.421e-05, 3, 0, 0, 24, 0, 37.75, 0),
}

#: What to change when a method is too expensive (appended to the refusal).
_FIXES: Mapping[str, str] = {
    "diffrac:convex": "use relaxation='eigen' (any N), or a subsample of at most a few "
    "hundred samples",
    "mvc-hard": "use mvc-soft, or a subsample",
    "kmeans": "lower n_init",
    "itersvr-rbf": "use itersvr (linear), or a subsample",
}


@dataclass(frozen=True)
class Cost:
    """Predicted cost of one fit.

    Attributes
    ----------
    seconds : float
        Predicted wall-clock time of ``fit`` on the lab's machine.
    peak_bytes : int
        Predicted peak memory allocated during ``fit``.
    """

    seconds: float
    peak_bytes: int

    @property
    def refused(self) -> bool:
        """Above a hard cap: :func:`check_cost` raises."""
        return self.seconds > HARD_CAP_SECONDS or self.peak_bytes > HARD_CAP_BYTES

    def describe(self) -> str:
        """``"about 4 min and 1.9 GiB"``."""
        time = _fmt_seconds(self.seconds)
        time = time if time.startswith("under") else f"about {time}"
        return f"{time} and {_fmt_bytes(self.peak_bytes)}"


def _fmt_seconds(seconds: float) -> str:
    if seconds < 1:
        return "under a second"
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def _fmt_bytes(n: float) -> str:
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{n / 1024:.0f} KiB"


def _model_name(key: str, params: Mapping[str, Any]) -> str:
    if key == "diffrac" and params.get("relaxation", "eigen") == "convex":
        return "diffrac:convex"
    return key


#: Multi-class MSPC (``n_clusters > 2``) against the binary model: a rough factor covering
#: the measured ratios (``bench/RESULTS.md``, multi-class MSPC).
MULTICLASS_MSPC_FACTOR = 30.0
#: Kernel MSPC: each cluster beyond two adds this fraction of the two-cluster time (an upper
#: envelope of the ratios measured up to k = 26; see :func:`_factor`).
KERNEL_CLUSTER_SLOPE = 0.15


def _factor(key: str, params: Mapping[str, Any]) -> float:
    """How a parameter scales the time measured at the defaults."""
    if key.startswith("mspc-"):
        try:
            k = int(params.get("n_clusters", 2))
        except (TypeError, ValueError, OverflowError):
            k = 2
        if key == "mspc-rbf":  # already the multi-class path at k = 2
            # Measured on letter-26 subsets (16 features, default gamma): 600 points 0.77 s
            # at k = 2, 1.57 s at 16, 2.18 s at 26; 2,600 points 1.23 s at k = 4, 7.91 s at
            # 26; all 20,000 points at k = 26, 27 s (predicted 111 s). Time grows about
            # linearly in k: a k * (k - 1) / 2 factor predicted 566 s for the 2.18 s fit.
            clusters = 1.0 + KERNEL_CLUSTER_SLOPE * max(0, k - 2)
            if params.get("gamma") is None:  # one fit per candidate width and rank
                from ._kernel_auto import AUTO_RANK_OFFSETS, AUTO_WIDTHS

                return clusters * len(AUTO_WIDTHS) * len(AUTO_RANK_OFFSETS)
            return clusters
        return MULTICLASS_MSPC_FACTOR if k > 2 else 1.0
    if key == "kmeans":
        try:
            return max(1.0, float(params.get("n_init", 10))) / 10.0
        except (TypeError, ValueError):
            return 1.0
    return 1.0


def _refused_by_estimator(key: str, n: int, params: Mapping[str, Any]) -> bool:
    """The estimator itself refuses this size at once (so the run costs nothing)."""
    from .registry import ALGORITHMS

    spec = ALGORITHMS[key]
    if spec.max_samples is not None and n > spec.max_samples:
        return True
    if _model_name(key, params) == "diffrac:convex":
        try:
            return n > int(params.get("max_samples", 300))
        except (TypeError, ValueError):
            return False
    return False


def predict_cost(
    key: str, n_samples: int, n_features: int, params: Mapping[str, Any] | None = None
) -> Cost:
    """Predicted time and peak memory of fitting the method ``key`` on ``N x d`` data.

    Parameters
    ----------
    key : str
        A key of :data:`clustering.ALGORITHMS`.
    n_samples, n_features : int
    params : mapping, optional
        The method's parameters (defaults where missing).

    Returns
    -------
    Cost

    Raises
    ------
    KeyError
        If ``key`` is not registered (the message lists the keys).
    """
    from .registry import get_spec

    get_spec(key)  # raises the registry's KeyError for an unknown key
    params = dict(params or {})
    n = max(1, int(n_samples))
    d = max(1, int(n_features))
    if _refused_by_estimator(key, n, params):
        return Cost(0.0, 0)
    c, a, b, m0, m1, m2, m3, t0 = _MODELS[_model_name(key, params)]
    seconds = (t0 + c * float(n) ** a * float(d) ** b) * _factor(key, params)
    peak = m0 + m1 * n * d + m2 * float(n) ** 2 + m3 * float(n) ** 3
    return Cost(float(seconds), int(min(peak, 2**62)))


@cache
def _variants(cls: type) -> tuple[tuple[str, tuple[tuple[str, Any], ...]], ...]:
    """The registry keys made by ``cls``, each with the parameters its factory fixes."""
    from .registry import ALGORITHMS

    out = []
    for key, spec in ALGORITHMS.items():
        try:
            made = spec.factory()
            if type(made) is not cls:
                continue
            base = cls().get_params(deep=False)
        except Exception:  # a factory or class that needs arguments: not matched
            continue
        fixed = tuple(
            (name, value)
            for name, value in made.get_params(deep=False).items()
            if not _same(base.get(name), value)
        )
        out.append((key, fixed))
    return tuple(out)


def _same(a: Any, b: Any) -> bool:
    try:
        return bool(a == b)
    except Exception:
        return a is b


def registry_key(estimator: Any) -> str | None:
    """The key of :data:`clustering.ALGORITHMS` an estimator is an instance of (the variant
    whose fixed parameters it has, e.g. ``MMCMultivariate(loss="nmi")`` is ``mmc-nmi``), or
    ``None`` for a class the registry does not make.

    >>> from clustering import MSPC
    >>> registry_key(MSPC(method="gep")), registry_key(object())
    ('mspc-gep', None)
    """
    try:
        params = estimator.get_params(deep=False)
    except Exception:
        return None
    best, best_fixed = None, -1
    for key, fixed in _variants(type(estimator)):
        if all(_same(params.get(name), value) for name, value in fixed) and len(fixed) > best_fixed:
            best, best_fixed = key, len(fixed)
    return best


def check_cost(
    key: str, n_samples: int, n_features: int, params: Mapping[str, Any] | None = None
) -> Cost:
    """:func:`predict_cost`, refusing a run above the hard cap.

    Raises
    ------
    TooExpensiveError
        If the prediction is above :data:`HARD_CAP_SECONDS` or :data:`HARD_CAP_BYTES`; the
        message gives the prediction and what to change.
    """
    params = dict(params or {})
    cost = predict_cost(key, n_samples, n_features, params)
    if cost.refused:
        raise refusal(key, n_samples, n_features, params, cost)
    return cost


def refusal(
    key: str, n_samples: int, n_features: int, params: Mapping[str, Any] | None, cost: Cost
) -> TooExpensiveError:
    """The :class:`TooExpensiveError` :func:`check_cost` raises for a run predicted at
    ``cost`` (above the hard cap), built from that prediction without making it again."""
    fix = _FIXES.get(_model_name(key, dict(params or {})), "use a subsample or fewer features")
    return TooExpensiveError(
        f"{key} on {n_samples} samples x {n_features} features is predicted to take "
        f"{cost.describe()}, above this machine's cap of {_fmt_seconds(HARD_CAP_SECONDS)} "
        f"and {_fmt_bytes(HARD_CAP_BYTES)}. Fix: {fix}."
    )
