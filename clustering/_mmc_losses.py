"""Multivariate clustering losses from the 2x2 contingency table, and the most violated
constraint of the cutting-plane MMC (Zhao, Kwok & Zhang, "Maximum margin clustering with
multivariate loss function", section III-B.2).

For a candidate labeling ``y'`` and the current labeling ``ybar`` (both in ``{-1, +1}^n``) the
contingency table (the paper's Table I) is

    ============  ==========  ===========
                  ybar = +1   ybar = -1
    ============  ==========  ===========
    ``y' = +1``   ``a``       ``b``
    ``y' = -1``   ``c``       ``d``
    ============  ==========  ===========

so ``y'`` plays the role of the clustering and ``ybar`` of the reference classes: the loss
``Delta(y', ybar)`` equals ``1 - clustering.metrics.<measure>(labels_true=ybar,
labels_pred=y')``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .metrics import _f, _rand

__all__ = [
    "LOSSES",
    "MostViolated",
    "f_from_table",
    "loss_from_table",
    "most_violated_constraint",
    "nmi_from_table",
    "rand_from_table",
]

LOSSES = ("nmi", "rand", "f", "error")

# Rows of the contingency scan are processed in blocks of about this many cells.
_BLOCK_CELLS = 1 << 22


def _xlogx_ratio(count, n, row, col):
    """``count log(n count / (row col))`` with ``0 log 0 = 0``."""
    with np.errstate(divide="ignore", invalid="ignore"):
        out = count * np.log(n * count / (row * col))
    return np.where(count > 0, out, 0.0)


def _xlogx(count, n):
    """``count log(count / n)`` with ``0 log 0 = 0``."""
    with np.errstate(divide="ignore", invalid="ignore"):
        out = count * np.log(count / n)
    return np.where(count > 0, out, 0.0)


def nmi_from_table(a, b, c, d):
    """NMI of the table (MMC paper eq. 2-4 and its section III-B.2 formula), elementwise.

    Same conventions as :func:`clustering.metrics.nmi`: 1 when both labelings have a single
    group, 0 when exactly one of them does.
    """
    a, b, c, d = (np.asarray(v, dtype=float) for v in (a, b, c, d))
    n = a + b + c + d
    r1, r2 = a + b, c + d  # clusters of y'
    c1, c2 = a + c, b + d  # classes of ybar
    mi = (
        _xlogx_ratio(a, n, r1, c1)
        + _xlogx_ratio(b, n, r1, c2)
        + _xlogx_ratio(c, n, r2, c1)
        + _xlogx_ratio(d, n, r2, c2)
    )
    h_rows = -(_xlogx(r1, n) + _xlogx(r2, n))
    h_cols = -(_xlogx(c1, n) + _xlogx(c2, n))
    with np.errstate(divide="ignore", invalid="ignore"):
        value = mi / np.sqrt(h_rows * h_cols)
    tiny = 1e-12 * np.maximum(n, 1)
    rows_zero, cols_zero = h_rows <= tiny, h_cols <= tiny
    value = np.where(rows_zero | cols_zero, np.where(rows_zero & cols_zero, 1.0, 0.0), value)
    return np.clip(value, 0.0, 1.0)


def _pair_decisions(a, b, c, d):
    a, b, c, d = (np.asarray(v, dtype=float) for v in (a, b, c, d))

    def comb2(m):
        return m * (m - 1) / 2

    tp = comb2(a) + comb2(b) + comb2(c) + comb2(d)
    fp = a * b + c * d
    fn = a * c + b * d
    tn = a * d + b * c
    return tp, fp, fn, tn


def rand_from_table(a, b, c, d):
    """Rand index of the table (section III-B.2), elementwise; 1 for fewer than two samples."""
    return _rand(*_pair_decisions(a, b, c, d))


def f_from_table(a, b, c, d, beta=1.0):
    """Pairwise F-beta of the table (eq. 19), elementwise; 0 when no pair is positive."""
    return _f(*_pair_decisions(a, b, c, d)[:3], beta)


def loss_from_table(loss: str, a, b, c, d, beta: float = 1.0):
    """``Delta(a, b, c, d)``: ``1 - NMI``, ``1 - RI``, ``1 - F_beta`` or, for ``"error"``,
    ``2 (b + c)``, twice the number of disagreeing labels (the choice of Theorem 2 under which
    the method reduces to the classical MMC)."""
    if loss == "nmi":
        return 1.0 - nmi_from_table(a, b, c, d)
    if loss == "rand":
        return 1.0 - rand_from_table(a, b, c, d)
    if loss == "f":
        return 1.0 - f_from_table(a, b, c, d, beta)
    if loss == "error":
        return 2.0 * (np.asarray(b, dtype=float) + np.asarray(c, dtype=float))
    raise ValueError(f"Unknown loss {loss!r}; choose one of {', '.join(LOSSES)}.")


class _TableScan:
    """``Delta`` of every table ``(a, b, n_p - a, n_n - b)`` for ``a`` in a block of rows
    and every ``b``, with the work per cell cut to a few additions: the entropies use a
    table of ``k log k`` for the integers ``0..n`` (``k log k`` at ``a + b`` is a sliding
    window over it, no gather), and the pair counts are products of row and column terms
    (disagreeing pairs ``fp + fn = (a + d)(b + c)``)."""

    def __init__(self, loss: str, n_p: int, n_n: int, beta: float):
        if loss not in LOSSES:
            raise ValueError(f"Unknown loss {loss!r}; choose one of {', '.join(LOSSES)}.")
        self.loss, self.n_p, self.n_n, self.beta = loss, n_p, n_n, beta
        self.b = np.arange(n_n + 1, dtype=float)
        n = n_p + n_n
        if loss == "nmi":
            k = np.arange(n + 1, dtype=float)
            with np.errstate(divide="ignore", invalid="ignore"):
                T = np.where(k > 0, k * np.log(k), 0.0)
            self.T = T
            # T[a + b] and T[n - a - b] as (n_p + 1, n_n + 1) windows (views).
            self.hankel = np.lib.stride_tricks.sliding_window_view(T, n_n + 1)
            self.hankel_rev = np.lib.stride_tricks.sliding_window_view(T[::-1].copy(), n_n + 1)
            self.row_b = T[: n_n + 1] + T[n_n::-1]  # T[b] + T[n_n - b]
            self.h_cols = T[n] - T[n_p] - T[n_n]  # n H(classes)
            self.const = T[n] - T[n_p] - T[n_n]

    def losses(self, start: int, stop: int) -> np.ndarray:
        """``Delta`` for ``a`` in ``[start, stop)`` (rows) and ``b`` in ``[0, n_n]``."""
        n_p, n_n, b = self.n_p, self.n_n, self.b
        a = np.arange(start, stop, dtype=float)[:, None]
        if self.loss == "error":
            return 2.0 * (b[None, :] + (n_p - a))
        if self.loss == "nmi":
            T = self.T
            rows = self.hankel[start:stop] + self.hankel_rev[start:stop]  # T[r1] + T[r2]
            h_rows = T[-1] - rows  # n H(clusters of y')
            col_a = T[start:stop] + T[n_p - np.arange(start, stop)]
            mi = col_a[:, None] + self.row_b[None, :] - rows + self.const  # n MI
            with np.errstate(divide="ignore", invalid="ignore"):
                nmi = mi / np.sqrt(h_rows * self.h_cols)
            tiny = 1e-12 * max(n_p + n_n, 1)
            if self.h_cols <= tiny:  # ybar has one group: NMI 1 only if y' has one too
                nmi = np.where(h_rows <= tiny, 1.0, 0.0)
            else:  # y' with one group (a + b in {0, n}): NMI 0
                nmi[h_rows <= tiny] = 0.0
            np.clip(nmi, 0.0, 1.0, out=nmi)
            return 1.0 - nmi
        c, d = n_p - a, n_n - b[None, :]
        if self.loss == "rand":
            total = (n_p + n_n) * (n_p + n_n - 1) / 2
            if total <= 0:
                return np.zeros((a.shape[0], b.shape[0]))
            return (a + d) * (b[None, :] + c) / total
        return 1.0 - f_from_table(a, b[None, :], c, d, self.beta)


@dataclass(frozen=True)
class MostViolated:
    """The constraint of problem (12) that needs the largest slack.

    Attributes
    ----------
    y : ndarray of shape (n,)
        The labeling ``y'`` in ``{-1, +1}``.
    loss : float
        ``Delta(y', ybar)``.
    slack : float
        The slack it needs, ``Delta(y', ybar) - sum_i (ybar_i - y'_i) f_i``; the constraint
        is violated when this exceeds the current ``xi``.
    table : tuple of int
        Its contingency table ``(a, b, c, d)``.
    """

    y: np.ndarray
    loss: float
    slack: float
    table: tuple[int, int, int, int]


def most_violated_constraint(f, y_bar, loss: str, beta: float = 1.0) -> MostViolated:
    """Solve (18): ``argmax_{y'} sum_i y'_i f_i + Delta(y', ybar)`` in ``O(n^2)`` time.

    For every contingency table ``(a, b, c, d)`` the best ``y'`` labels positive the ``a``
    samples of ``{ybar = +1}`` and the ``b`` samples of ``{ybar = -1}`` with the largest
    ``f``; the scan over all ``(a, b)`` uses prefix sums of the sorted ``f`` (memory is
    bounded by processing ``a`` in blocks).

    Parameters
    ----------
    f : array-like of shape (n,)
        Current decision values ``w'x_i + b``.
    y_bar : array-like of shape (n,)
        Current labels in ``{-1, +1}`` (the optimal ``ybar = sign(f)`` of eq. 11).
    loss : {"nmi", "rand", "f", "error"}
    beta : float, default=1.0
        ``beta`` of the F-measure.

    Returns
    -------
    MostViolated
    """
    f = np.asarray(f, dtype=float)
    y_bar = np.asarray(y_bar)
    pos_idx = np.flatnonzero(y_bar > 0)
    neg_idx = np.flatnonzero(y_bar <= 0)
    order_p = pos_idx[np.argsort(-f[pos_idx], kind="stable")]
    order_n = neg_idx[np.argsort(-f[neg_idx], kind="stable")]
    n_p, n_n = order_p.shape[0], order_n.shape[0]
    # Value of labelling the top-k positive: 2 * (sum of the top k) - (sum of all).
    gain_p = 2.0 * np.concatenate([[0.0], np.cumsum(f[order_p])]) - f[order_p].sum()
    gain_n = 2.0 * np.concatenate([[0.0], np.cumsum(f[order_n])]) - f[order_n].sum()
    scan = _TableScan(loss, n_p, n_n, beta)
    best = (-np.inf, 0, 0)
    step = max(1, _BLOCK_CELLS // (n_n + 1))
    for start in range(0, n_p + 1, step):
        stop = min(start + step, n_p + 1)
        score = scan.losses(start, stop)
        score += gain_p[start:stop, None]
        score += gain_n[None, :]
        flat = int(np.argmax(score))
        i, j = divmod(flat, n_n + 1)
        if score[i, j] > best[0]:
            best = (float(score[i, j]), start + i, j)
    _, a_best, b_best = best
    y = -np.ones(f.shape[0])
    y[order_p[:a_best]] = 1.0
    y[order_n[:b_best]] = 1.0
    table = (a_best, b_best, n_p - a_best, n_n - b_best)
    delta = float(loss_from_table(loss, *table, beta))
    slack = delta - float((np.where(y_bar > 0, 1.0, -1.0) - y) @ f)
    return MostViolated(y=y, loss=delta, slack=slack, table=table)
