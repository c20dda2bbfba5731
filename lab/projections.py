"""Two-dimensional views of a clustering, for the lab's scatter plots.

- :func:`pca_view`: the first two principal components.
- :func:`discriminant_view`: the discriminant direction ``w`` (x-axis) against the main
  residual direction, the first principal component of the data once its ``w`` component
  is removed (y-axis). The separating hyperplane ``w'x = b`` is the vertical line
  ``x = b`` in this view, and the x-coordinate minus ``b`` is each point's margin.
- :func:`feature_view`: two raw features.
- :func:`project`: one of the three by name (``"pca"``, ``"discriminant"``,
  ``"features:i,j"``), as the app's URL stores it.

Each returns a :class:`Projection`: the coordinates, which samples they are (above
:data:`MAX_POINTS` samples a random subsample is drawn and ``subsampled`` says so), the axis
titles and, when the view shows it exactly, the separating line. A hyperplane of ``R^d``
appears as a line in a 2-D view only when it is perpendicular to the view's plane (``w`` in
the plane); a line drawn anywhere else would misclassify points in the picture, so no line
is drawn then and ``note`` says why.

Pure numpy; never imports streamlit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

__all__ = [
    "MAX_POINTS",
    "Projection",
    "discriminant_view",
    "feature_view",
    "margins",
    "parse_view",
    "pca_view",
    "project",
    "subsample",
]

#: Above this many samples the views draw a random subsample (WebGL stays responsive).
MAX_POINTS = 20_000

# Relative tolerance for "w lies in the view's plane".
_IN_PLANE_RTOL = 1e-9


@dataclass(frozen=True, eq=False)
class Projection:
    """A 2-D view of the data.

    Attributes
    ----------
    coords : ndarray of shape (m, 2)
        Coordinates of the shown samples.
    index : ndarray of int of shape (m,)
        Row of ``X`` each shown sample comes from (sorted).
    n_total : int
        Number of samples of ``X``.
    subsampled : bool
        Whether ``m < n_total`` (more than ``max_points`` samples).
    x_title, y_title : str
        Axis titles.
    line : tuple (a, c, value) or None
        The separating hyperplane in this view, ``a * x + c * y = value``; ``None`` when the
        view cannot show it exactly (or no hyperplane was given).
    view : str
        ``"pca"``, ``"discriminant"`` or ``"features:i,j"``.
    note : str
        What the reader should know (subsampling, why no line is drawn).
    """

    coords: np.ndarray
    index: np.ndarray
    n_total: int
    subsampled: bool
    x_title: str
    y_title: str
    line: tuple[float, float, float] | None
    view: str
    note: str = ""


def subsample(n: int, max_points: int = MAX_POINTS, random_state: int = 0):
    """Rows to show: all ``n`` when ``n <= max_points``, else a sorted random subset.

    Returns
    -------
    index : ndarray of int
    subsampled : bool

    Examples
    --------
    >>> idx, flag = subsample(10, max_points=4)
    >>> len(idx), flag, bool((idx[1:] > idx[:-1]).all())
    (4, True, True)
    >>> subsample(3)[1]
    False
    """
    n = int(n)
    if max_points < 1:
        raise ValueError(f"max_points must be at least 1; got {max_points}.")
    if n <= max_points:
        return np.arange(n), False
    rng = np.random.default_rng(random_state)
    return np.sort(rng.choice(n, size=int(max_points), replace=False)), True


def margins(X, w, b: float) -> np.ndarray:
    """Signed margins ``w'x_i - b`` (positive on cluster 1's side).

    Examples
    --------
    >>> margins([[1.0, 2.0], [0.0, 0.0]], [1.0, 0.0], 0.5)
    array([ 0.5, -0.5])
    """
    X = np.asarray(X, dtype=np.float64)
    w = np.asarray(w, dtype=np.float64).ravel()
    if X.ndim != 2 or w.shape[0] != X.shape[1]:
        raise ValueError(f"w has {w.shape[0]} entries but X has shape {X.shape}; they must match.")
    return X @ w - float(b)


def _check_X(X) -> np.ndarray:
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2 or X.shape[0] < 1 or X.shape[1] < 1:
        raise ValueError(f"X must be a non-empty 2-D array; got shape {X.shape}.")
    if not np.isfinite(X).all():
        raise ValueError("X contains NaN or infinite values.")
    return X


def _unit(w, b, d: int) -> tuple[np.ndarray, float]:
    w = np.asarray(w, dtype=np.float64).ravel()
    if w.shape[0] != d:
        raise ValueError(f"w has {w.shape[0]} entries but the data have {d} features.")
    norm = np.linalg.norm(w)
    if not np.isfinite(norm) or norm == 0:
        raise ValueError("w is zero: the clustering has no separating direction to show.")
    return w / norm, float(b) / norm


def _top_directions(C: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Leading ``k`` eigenvectors (columns, sign fixed: largest entry positive) of ``C``."""
    evals, evecs = np.linalg.eigh(C)
    order = np.argsort(evals)[::-1][:k]
    V = evecs[:, order]
    signs = np.sign(V[np.argmax(np.abs(V), axis=0), np.arange(V.shape[1])])
    signs[signs == 0] = 1.0
    return V * signs, evals[order]


def _covariance(Xc: np.ndarray) -> np.ndarray:
    return Xc.T @ Xc / Xc.shape[0]


def _finish(coords, n, max_points, **fields) -> Projection:
    index, flag = subsample(n, max_points)
    note = fields.pop("note", "")
    if flag:
        shown = f"Showing a random {len(index):,} of the {n:,} points (faster drawing)."
        note = f"{shown} {note}".strip()
    return Projection(
        coords=coords[index], index=index, n_total=n, subsampled=flag, note=note, **fields
    )


def _percent(x: float) -> str:
    return f"{100 * x:.0f}%"


def pca_view(X, w=None, b: float | None = None, max_points: int = MAX_POINTS) -> Projection:
    """The first two principal components of ``X``.

    The separating hyperplane ``w'x = b`` is drawn when ``w`` lies in the plane of the two
    components (always for two features).

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0, 0.0], [2.0, 0.0], [0.0, 1.0], [2.0, 1.0]])
    >>> p = pca_view(X, w=[1.0, 0.0], b=1.0)
    >>> p.coords[:, 0]
    array([-1.,  1., -1.,  1.])
    >>> p.line
    (1.0, 0.0, 0.0)
    """
    X = _check_X(X)
    n, d = X.shape
    mean = X.mean(axis=0)
    Xc = X - mean
    k = min(2, d)
    V, evals = _top_directions(_covariance(Xc), k)
    total = float(np.trace(_covariance(Xc))) or 1.0
    coords = np.zeros((n, 2))
    coords[:, :k] = Xc @ V
    titles = [f"PC{i + 1} ({_percent(max(evals[i], 0) / total)} of the variance)" for i in range(k)]
    if k == 1:
        titles.append("(one feature only)")
    line, note = None, ""
    if w is not None and b is not None:
        wu, bu = _unit(w, b, d)
        a = V.T @ wu  # components of w in the plane
        if d <= 2 or np.linalg.norm(a) >= 1 - _IN_PLANE_RTOL:
            a2 = np.zeros(2)
            a2[:k] = a
            line = (float(a2[0]), float(a2[1]), float(bu - wu @ mean))
        else:
            note = (
                "The separating hyperplane is not perpendicular to this plane, so it cannot "
                "be drawn as a line here; the 'discriminant' view shows it exactly."
            )
    return _finish(
        coords,
        n,
        max_points,
        x_title=titles[0],
        y_title=titles[1],
        line=line,
        view="pca",
        note=note,
    )


def discriminant_view(X, w, b: float, max_points: int = MAX_POINTS) -> Projection:
    """The discriminant direction ``w`` (x) against the main residual direction (y).

    x is ``w'x`` with ``w`` scaled to unit length, so the separating hyperplane is the
    vertical line ``x = b`` and ``x - b`` is each point's margin. y is the projection on
    the first principal component of ``X`` after its component along ``w`` is removed:
    the direction of largest spread that the clustering ignores.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0, 0.0], [2.0, 0.0], [0.0, 3.0], [2.0, 3.0]])
    >>> p = discriminant_view(X, [2.0, 0.0], 2.0)
    >>> p.coords[:, 0], p.line
    (array([0., 2., 0., 2.]), (1.0, 0.0, 1.0))
    """
    X = _check_X(X)
    n, d = X.shape
    wu, bu = _unit(w, b, d)
    x = X @ wu
    if d == 1:
        y = np.zeros(n)
        y_title = "(one feature only)"
    else:
        Xc = X - X.mean(axis=0)
        P = np.eye(d) - np.outer(wu, wu)
        C = P @ _covariance(Xc) @ P
        V, evals = _top_directions(C, 1)
        y = Xc @ V[:, 0]
        total = float(np.trace(_covariance(Xc))) or 1.0
        y_title = f"main residual direction ({_percent(max(evals[0], 0) / total)} of the variance)"
    coords = np.column_stack([x, y])
    return _finish(
        coords,
        n,
        max_points,
        x_title="discriminant direction w'x (line: w'x = b)",
        y_title=y_title,
        line=(1.0, 0.0, float(bu)),
        view="discriminant",
    )


def feature_view(
    X,
    i: int,
    j: int,
    w=None,
    b: float | None = None,
    feature_names: Sequence[str] | None = None,
    max_points: int = MAX_POINTS,
) -> Projection:
    """Two raw features, ``i`` (x) and ``j`` (y).

    The separating line is drawn when ``w`` has no weight on the other features (always for
    two features).

    Examples
    --------
    >>> import numpy as np
    >>> X = np.arange(12.0).reshape(4, 3)
    >>> p = feature_view(X, 2, 0, w=[1.0, 0.0, 0.0], b=3.0, feature_names=["a", "b", "c"])
    >>> p.x_title, p.y_title, p.line
    ('c', 'a', (0.0, 1.0, 3.0))
    """
    X = _check_X(X)
    n, d = X.shape
    for name, k in (("i", i), ("j", j)):
        if not 0 <= int(k) < d:
            raise ValueError(f"Feature index {name}={k} is out of range for {d} features.")
    i, j = int(i), int(j)
    names = list(feature_names) if feature_names is not None else [f"x{k}" for k in range(d)]
    coords = np.column_stack([X[:, i], X[:, j]])
    line, note = None, ""
    if w is not None and b is not None:
        wu, bu = _unit(w, b, d)
        others = np.delete(wu, sorted({i, j}))
        if i != j and (others.size == 0 or np.linalg.norm(others) <= _IN_PLANE_RTOL):
            line = (float(wu[i]), float(wu[j]), float(bu))
        else:
            note = (
                "The separating hyperplane also depends on other features, so it cannot be "
                "drawn as a line here; the 'discriminant' view shows it exactly."
            )
    return _finish(
        coords,
        n,
        max_points,
        x_title=names[i],
        y_title=names[j],
        line=line,
        view=f"features:{i},{j}",
        note=note,
    )


def parse_view(view: str, n_features: int) -> tuple[str, tuple[int, int]]:
    """Split a view name into its kind and (for ``"features:i,j"``) the two feature indices.

    ``"features"`` alone means the first two features. Raises ``ValueError`` for unknown
    names or indices out of range.

    Examples
    --------
    >>> parse_view("features:3,1", 5)
    ('features', (3, 1))
    >>> parse_view("pca", 5)
    ('pca', (0, 1))
    """
    kind, _, rest = str(view).partition(":")
    default = (0, min(1, n_features - 1))
    if kind not in ("pca", "discriminant", "features"):
        raise ValueError(f"Unknown view {view!r}; choose 'pca', 'discriminant' or 'features:i,j'.")
    if kind != "features" or not rest:
        return kind, default
    try:
        i, j = (int(v) for v in rest.split(","))
    except ValueError:
        raise ValueError(f"A feature view looks like 'features:0,2'; got {view!r}.") from None
    if not (0 <= i < n_features and 0 <= j < n_features):
        raise ValueError(f"The view {view!r} names a feature beyond the {n_features} features.")
    return kind, (i, j)


def project(
    X,
    view: str,
    w=None,
    b: float | None = None,
    feature_names: Sequence[str] | None = None,
    max_points: int = MAX_POINTS,
) -> Projection:
    """The view named ``view`` (``"pca"``, ``"discriminant"``, ``"features:i,j"``).

    ``"discriminant"`` needs a hyperplane; without one it falls back to PCA and says so in
    ``note``.
    """
    X = _check_X(X)
    kind, (i, j) = parse_view(view, X.shape[1])
    if kind == "discriminant":
        if w is None or b is None:
            p = pca_view(X, max_points=max_points)
            why = "This clustering has no separating direction; showing the PCA view instead."
            return Projection(**{**p.__dict__, "note": f"{why} {p.note}".strip()})
        return discriminant_view(X, w, b, max_points=max_points)
    if kind == "features":
        return feature_view(X, i, j, w, b, feature_names=feature_names, max_points=max_points)
    return pca_view(X, w, b, max_points=max_points)
