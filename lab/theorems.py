"""Live checks of the MSPC paper's theorems on data (the Learn and Feature scaling pages).

* :func:`theorem1_check` -- the MSP of a fixed labeling before and after rescaling
  (Theorem 1).
* :func:`lower_bound_check` -- Theorem 2's bound (4) against ``kappa^2``.
* :func:`margin_guarantee` -- Theorem 5's Chebyshev guarantee against the measured relative
  margins.
* :func:`nonsense_splits` -- what the in-sample and the held-out MSP give splits unrelated to
  any structure (random groups of points), splits found by climbing the in-sample MSP, and
  the true classes.

References
----------
G. Huang, J. Zhang, S. Song, Z. Chen. Maximin Separation Probability Clustering. AAAI 2015
(Huang et al., Maximin Separation Probability Clustering (AAAI 2015)).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import pandas as pd

from clustering._lam import effective_lam
from clustering._moments import binary_labels, cluster_moments, regularizer_matrix, standardize
from clustering.metrics import chebyshev_fraction, msp_score, relative_margin
from clustering.mpm import fit_mpm_to_labels
from clustering.solvers.gep import lower_bound

__all__ = [
    "NONSENSE_GROUPS",
    "LowerBoundCheck",
    "Theorem1Check",
    "lower_bound_check",
    "margin_guarantee",
    "nonsense_splits",
    "theorem1_check",
]

#: Sizes of the random groups :func:`nonsense_splits` puts against the rest of the points
#: (and a random half against the other half).
NONSENSE_GROUPS = (4, 10, 20, 40)


def _apply_factors(X, factors) -> np.ndarray:
    from datasets import scaling

    return scaling.apply(X, factors)


class Theorem1Check(NamedTuple):
    """Result of :func:`theorem1_check`.

    Attributes
    ----------
    msp_before, msp_after : float
        MSP of the labeling on the original and on the transformed data.
    relative_difference : float
        ``|after - before| / max(before, tiny)``.
    expected_invariant : bool
        Whether the theory says the two must agree for this transformation, ``lam`` and
        regularizer (see :func:`theorem1_check`).
    """

    msp_before: float
    msp_after: float
    relative_difference: float
    expected_invariant: bool


def theorem1_check(
    X, labels, factors, lam: float = 0.0, regularizer: str = "diag"
) -> Theorem1Check:
    """The MSP of a fixed labeling before and after rescaling the features (Theorem 1).

    Theorem 1 of the MSPC paper: the MSP is unchanged by any invertible linear map
    ``x -> P'x`` when ``lam = 0``. With ``lam > 0`` it stays unchanged for every positive
    rescaling of features when ``regularizer="diag"`` (``Lambda = diag(Sigma)`` rescales
    with the data), for every invertible map with ``"total"``, and is not protected with
    ``"identity"``.

    Parameters
    ----------
    X : array-like of shape (n_samples, d)
    labels : array-like of shape (n_samples,)
        A two-cluster labeling (any two values).
    factors : array-like of shape (d,), dict {feature: factor}, or ndarray of shape (d, d)
        Positive per-feature factors, or an invertible matrix ``P`` (the data become
        ``X @ P``).
    lam : float, default=0.0
    regularizer : {"diag", "identity", "total", "none"}, default="diag"

    Returns
    -------
    Theorem1Check

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(60, 3)); labels = (X[:, 0] > 0).astype(int)
    >>> check = theorem1_check(X, labels, [1, 100, 0.01], lam=0.1)
    >>> check.relative_difference < 1e-9, check.expected_invariant
    (True, True)
    """
    X = np.asarray(X, dtype=np.float64)
    labels = np.asarray(labels)
    matrix = isinstance(factors, np.ndarray) and factors.ndim == 2
    if matrix:
        P = np.asarray(factors, dtype=np.float64)
        if P.shape != (X.shape[1], X.shape[1]):
            raise ValueError(f"P must be a {X.shape[1]} x {X.shape[1]} matrix; got {P.shape}.")
        if np.linalg.cond(P) > 1e12:
            raise ValueError("P is (numerically) singular; Theorem 1 needs an invertible map.")
        X_after = X @ P
        diagonal_positive = bool(
            np.allclose(P, np.diag(np.diag(P)), rtol=0, atol=0) and (np.diag(P) > 0).all()
        )
    else:
        X_after = _apply_factors(X, factors)
        diagonal_positive = True
    before = msp_score(X, labels, lam=lam, regularizer=regularizer)
    after = msp_score(X_after, labels, lam=lam, regularizer=regularizer)
    rel = abs(after - before) / max(abs(before), np.finfo(float).tiny)
    if lam == 0 or regularizer in ("none", "total"):
        expected = True
    elif regularizer == "diag":
        expected = diagonal_positive
    else:  # identity with lam > 0
        expected = bool(np.allclose(X_after, X))
    return Theorem1Check(float(before), float(after), float(rel), expected)


class LowerBoundCheck(NamedTuple):
    """Result of :func:`lower_bound_check`.

    Attributes
    ----------
    kappa_squared : float
        ``kappa^2`` of the MPM on the labeling (MSPC paper eq. 2).
    bound : float
        Theorem 2's lower bound (4) evaluated at the MPM direction ``w``.
    r1 : float
        Fraction of samples in cluster 1.
    """

    kappa_squared: float
    bound: float
    r1: float


def lower_bound_check(X, labels, lam: float = 0.1, regularizer: str = "diag") -> LowerBoundCheck:
    """``kappa^2`` of a labeling next to Theorem 2's lower bound (4) at the same ``w``.

    Bound (4) holds for every ``w`` and the MPM's ``kappa`` maximises over ``w``, so
    ``bound <= kappa_squared`` always; the two are close when the clusters are balanced
    (``r1`` near 1/2).

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(80, 2)); labels = (X[:, 0] > 0).astype(int)
    >>> check = lower_bound_check(X, labels)
    >>> bool(check.bound <= check.kappa_squared)
    True
    """
    X = np.asarray(X, dtype=np.float64)
    labels01 = binary_labels(np.asarray(labels), X.shape[0])
    lam_eff = effective_lam(lam, regularizer)
    sol, _, _ = fit_mpm_to_labels(X, labels01, lam_eff, regularizer)
    std = standardize(X)
    Lambda = regularizer_matrix(std, regularizer)
    m = cluster_moments(std.Z, labels01)
    w = sol.w
    Sigma = std.Z.T @ std.Z / std.Z.shape[0]
    quad = float(w @ (Sigma + lam_eff * Lambda) @ w)
    r1 = m.n1 / (m.n1 + m.n0)
    bound = float(lower_bound(np.array([w @ (m.mu1 - m.mu0)]), quad, np.array([r1]))[0])
    return LowerBoundCheck(float(sol.kappa) ** 2, bound, float(r1))


def margin_guarantee(X, labels, w, b, msp: float, rhos: Sequence[float]) -> pd.DataFrame:
    """Theorem 5 against the data: the fraction of each cluster with relative margin
    ``|w'x - b| / Delta >= rho / 2`` next to the guaranteed fraction ``1 - r``.

    The theorem speaks of distributions with the clusters' moments and an MSP with
    ``lam = 0``; on the sample itself the measured fractions usually exceed the bound.

    Parameters
    ----------
    X : array-like of shape (n_samples, d)
    labels : array-like of shape (n_samples,)
    w, b : the hyperplane ``w'x - b = 0`` (e.g. a fitted MSPC's ``w_``, ``b_``)
    msp : float
        The MSP ``p`` of the labeling.
    rhos : sequence of float in [0, 1]

    Returns
    -------
    DataFrame
        ``rho``, ``guarantee`` (``1 - r``), ``fraction_cluster_0``, ``fraction_cluster_1``,
        ``fraction_min`` (the smaller of the two).
    """
    X = np.asarray(X, dtype=np.float64)
    labels01 = binary_labels(np.asarray(labels), X.shape[0])
    margins = relative_margin(X, labels01, w, b)
    rows = []
    for rho in rhos:
        f0 = float(np.mean(margins[labels01 == 0] >= rho / 2))
        f1 = float(np.mean(margins[labels01 == 1] >= rho / 2))
        rows.append(
            {
                "rho": float(rho),
                "guarantee": chebyshev_fraction(float(msp), float(rho)),
                "fraction_cluster_0": f0,
                "fraction_cluster_1": f1,
                "fraction_min": min(f0, f1),
            }
        )
    return pd.DataFrame(rows)


def nonsense_splits(
    X,
    y,
    lam: float,
    regularizer: str = "diag",
    *,
    groups: Sequence[int] = NONSENSE_GROUPS,
    search_from: int | None = 10,
    extra: Sequence[tuple[str, np.ndarray]] = (),
    random_state: int = 0,
) -> pd.DataFrame:
    """In-sample and held-out MSP of splits unrelated to any structure, beside the true
    classes': the in-sample MSP rewards a split that only fits the sample, the held-out MSP
    does not.

    Labelings, in order: the true classes (when ``y`` has two classes); for each size in
    ``groups`` a random group of that many points against the rest, then a random half
    against the other half (none of them knows the classes); with ``search_from``, the
    labeling MSPC's search reaches from a random group of that size (the paper's
    alternation of MPM fits and relabelling, scored by the in-sample MSP); then the named
    labelings of ``extra`` (e.g. a fitted clustering).

    Both MSPs use ``lam`` and ``regularizer``; the held-out MSP is
    :func:`lab.evaluation.heldout_msp` (the one every page shows), so a cluster of fewer
    than two points scores 0 held out (nothing of it can be held out).

    Returns
    -------
    DataFrame
        ``labeling``, ``kind`` (``"true classes"``, ``"random"``, ``"searched"`` or
        ``"given"``), ``sizes`` (``"a / b"``, the larger first), ``smaller`` (points in the
        smaller cluster), ``msp`` (in-sample), ``msp_heldout``, ``accuracy`` (NaN without
        ``y``), ``error`` (``""``, or why a score could not be computed).

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(200, 50))  # pure noise: no split means anything
    >>> t = nonsense_splits(X, None, 0.01, search_from=None)
    >>> print(t[["labeling", "msp", "msp_heldout"]].round(2).to_string(index=False))
                                 labeling  msp  msp_heldout
     random group of 4 points vs the rest 0.91          0.0
    random group of 10 points vs the rest 0.79          0.0
    random group of 20 points vs the rest 0.53          0.0
    random group of 40 points vs the rest 0.35          0.0
            random half vs the other half 0.30          0.0
    """
    from clustering import MSPC
    from clustering.metrics import clustering_accuracy
    from lab.evaluation import heldout_msp_or_reason

    X = np.asarray(X, dtype=np.float64)
    n = X.shape[0]
    rng = np.random.default_rng(random_state)
    labelings: list[tuple[str, str, np.ndarray]] = []
    if y is not None and np.unique(y).shape[0] == 2:
        values = np.unique(y)
        labelings.append(("true classes", "true classes", (np.asarray(y) == values[1]).astype(int)))

    def group(size: int) -> np.ndarray:
        labels = np.zeros(n, dtype=np.intp)
        labels[rng.permutation(n)[:size]] = 1
        return labels

    for size in groups:
        if 2 <= size <= n // 2:
            labelings.append((f"random group of {size} points vs the rest", "random", group(size)))
    labelings.append(("random half vs the other half", "random", group(n // 2)))
    if search_from is not None and 2 <= search_from <= n // 2:
        start = group(int(search_from))
        lam_fit = effective_lam(lam, regularizer)
        model = MSPC(lam=lam_fit, regularizer=regularizer, init=start, random_state=random_state)
        labels = model.fit(X).labels_
        labelings.append(
            (f"MSPC's search from a random group of {search_from}", "searched", labels)
        )
    labelings.extend((name, "given", np.asarray(labels)) for name, labels in extra)

    rows = []
    lam_eff = effective_lam(lam, regularizer)
    for name, kind, labels in labelings:
        counts = np.unique(labels, return_counts=True)[1]
        row = {
            "labeling": name,
            "kind": kind,
            "sizes": " / ".join(str(int(c)) for c in sorted(counts, reverse=True)),
            "smaller": int(counts.min()),
            "msp": np.nan,
            "msp_heldout": np.nan,
            "accuracy": np.nan if y is None else clustering_accuracy(y, labels),
            "error": "",
        }
        if counts.shape[0] != 2:
            row["error"] = "not two clusters"
        else:
            try:
                row["msp"] = float(msp_score(X, labels, lam=lam_eff, regularizer=regularizer))
                held, reason = heldout_msp_or_reason(X, labels, lam_eff, regularizer)
                row["msp_heldout"] = np.nan if held is None else float(held)
                row["error"] = "" if held is not None else f"held-out MSP undefined: {reason}"
            except (ValueError, np.linalg.LinAlgError, ArithmeticError) as err:
                row["error"] = str(err)
        rows.append(row)
    return pd.DataFrame(rows)
