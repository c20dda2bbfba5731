"""Plotly figures of a clustering: pure functions that return ``go.Figure``.

- :func:`cluster_scatter`: a 2-D view (:mod:`lab.projections`) coloured by cluster,
  marker shape by true class, misclustered points ringed, the separating line drawn where
  the view shows it exactly. SVG up to
  ``SVG_MAX_POINTS`` points, WebGL (``go.Scattergl``) above: a page keeps its WebGL contexts.
- :func:`margin_histogram`: the signed relative margin ``(w'x - b) / Delta`` per cluster,
  with Theorem 5's Chebyshev guarantee of the MSPC paper overlaid.
- :func:`guarantee_curve`: the guarantee and the observed fraction of each cluster beyond
  relative margin ``rho / 2``, for every ``rho`` in [0, 1].
- :func:`objective_plot`: each method's objective per iteration.
- :func:`metrics_bar`: the metrics of several methods side by side.

Colours are the Okabe-Ito palette (distinguishable with every common colour-vision
deficiency); the cluster is never shown by colour alone (shape, rings and hover text carry it
too). Pure plotly and numpy; never imports streamlit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go
from scipy.optimize import linear_sum_assignment

from clustering.metrics import chebyshev_fraction, contingency
from lab.plots.grid import iteration_dtick, objective_trace, tidy_layout
from lab.plots.style import (
    CLUSTER_SYMBOLS,
    GUIDE_GREY,
    INK,
    MID_GREY,
    OKABE_ITO,
    PAPER,
    TEMPLATE,
    cluster_colors,
    relayout,
)
from lab.projections import Projection

#: SVG below this many points, WebGL above: plotly's scattergl takes WebGL contexts that a
#: rerun does not release, and Chromium keeps 16 per page, dropping the oldest figures' drawing
#: (the blank "before" scatters of the Feature scaling page).
SVG_MAX_POINTS = 5000

__all__ = [
    "CLASS_SYMBOLS",
    "MISCLUSTERED_COLOR",
    "OKABE_ITO",
    "cluster_colors",
    "cluster_scatter",
    "guarantee_curve",
    "margin_histogram",
    "matched_classes",
    "metrics_bar",
    "misclustered",
    "objective_plot",
    "oriented_margins",
    "point_marks",
]

#: Marker shapes for true classes (one place: :data:`lab.plots.style.CLUSTER_SYMBOLS`).
CLASS_SYMBOLS = CLUSTER_SYMBOLS


_LAYOUT = {
    "template": TEMPLATE,
    "margin": {"l": 60, "r": 20, "t": 80, "b": 40},
    "font": {"size": 13},
}


# ---- point sizes that stay readable from 100 to 5,000+ points ------------------

#: The outline of a misclustered point's ring: a neutral dark grey that reads on every
#: cluster colour and on white, lighter than black so that dense rings do not merge into blobs.
MISCLUSTERED_COLOR = MID_GREY


def point_marks(n_points: int) -> dict:
    """Marker sizes and opacities for a scatter of ``n_points`` points.

    Few points: large markers, strong rings. Many points (thousands, as on spam): small
    points at lower opacity and small thin rings, so that misclustered points stay visible
    as rings rather than merging into black blobs.

    >>> point_marks(400)["ring_size"] > point_marks(5000)["ring_size"]
    True
    """
    if n_points <= 500:
        return {"size": 7, "opacity": 0.8, "ring_size": 12, "ring_width": 1.5, "ring_opacity": 0.9}
    if n_points <= 2000:
        return {"size": 5, "opacity": 0.6, "ring_size": 9, "ring_width": 1.2, "ring_opacity": 0.8}
    return {"size": 4, "opacity": 0.45, "ring_size": 7, "ring_width": 1.0, "ring_opacity": 0.7}


def matched_classes(y, labels) -> dict:
    """The class each cluster maps to under the best one-to-one matching (Hungarian).

    Clusters left without a class (more clusters than classes) are absent from the dict.

    Examples
    --------
    >>> matched_classes([0, 0, 1, 1], [1, 1, 0, 0])
    {0: 1, 1: 0}
    """
    y = np.asarray(y)
    labels = np.asarray(labels)
    classes = np.unique(y)
    clusters = np.unique(labels)
    table = contingency(y, labels)  # rows: clusters, columns: classes
    rows, cols = linear_sum_assignment(-table)
    return {clusters[r].item(): classes[c].item() for r, c in zip(rows, cols, strict=True)}


def misclustered(y, labels) -> np.ndarray:
    """Boolean mask of samples whose cluster does not map to their class (the errors
    counted by :func:`clustering.metrics.clustering_accuracy`).

    Examples
    --------
    >>> misclustered([0, 0, 1, 1], [1, 1, 1, 0]).tolist()
    [False, False, True, False]
    """
    y = np.asarray(y)
    labels = np.asarray(labels)
    mapping = matched_classes(y, labels)
    mapped = np.array([mapping.get(c.item(), None) for c in labels], dtype=object)
    return mapped != y.astype(object)


def oriented_margins(margins, labels) -> tuple[np.ndarray, np.ndarray, float]:
    """Signed margins oriented so each cluster's own side is positive, and ``Delta``.

    For a two-cluster labeling and margins ``m_i = w'x_i - b``: the cluster with the larger
    mean margin is the positive side; returns ``(signed, toward_own, delta)`` with
    ``signed = m / Delta``, ``toward_own`` the same value flipped
    for the other cluster (positive when a point is on its own cluster's side) and
    ``Delta = |mean margin difference|`` (MSPC paper, Theorem 5).

    Examples
    --------
    >>> s, own, delta = oriented_margins([-2.0, -1.0, 1.0, 2.0], [0, 0, 1, 1])
    >>> s.tolist(), own.tolist(), delta
    ([-0.666..., -0.333..., 0.333..., 0.666...], [0.666..., 0.333..., 0.333..., 0.666...], 3.0)
    """
    m = np.asarray(margins, dtype=np.float64)
    labels = np.asarray(labels)
    values = np.unique(labels)
    if values.shape[0] != 2:
        raise ValueError(
            f"The margin plots need exactly two clusters; this labeling has {values.shape[0]}."
        )
    means = [m[labels == v].mean() for v in values]
    delta = abs(means[1] - means[0])
    if not np.isfinite(delta) or delta == 0:
        raise ValueError(
            "Both clusters have the same mean margin: the relative margin is undefined."
        )
    # The cluster with the larger mean margin lies on the positive side of w'x = b.
    positive = values[int(np.argmax(means))]
    signed = m / delta
    own = np.where(labels == positive, signed, -signed)
    return signed, own, float(delta)


def _line_segment(line, xr, yr):
    """Endpoints of ``a x + c y = v`` inside the box ``xr x yr`` (None if it misses)."""
    a, c, v = line
    pts = []
    if abs(c) > 1e-12:
        for x in xr:
            y = (v - a * x) / c
            if yr[0] - 1e-9 <= y <= yr[1] + 1e-9:
                pts.append((x, y))
    if abs(a) > 1e-12:
        for y in yr:
            x = (v - c * y) / a
            if xr[0] - 1e-9 <= x <= xr[1] + 1e-9:
                pts.append((x, y))
    pts = sorted(set(pts))
    if len(pts) < 2:
        return None
    return pts[0], pts[-1]


def _padded(values: np.ndarray) -> tuple[float, float]:
    lo, hi = float(np.min(values)), float(np.max(values))
    pad = 0.05 * (hi - lo) if hi > lo else 1.0
    return lo - pad, hi + pad


def cluster_scatter(
    projection: Projection,
    labels,
    y=None,
    class_names: Sequence[str] | None = None,
    *,
    title: str = "",
    show_misclustered: bool = True,
    height: int = 480,
    x_range: tuple[float, float] | None = None,
    y_range: tuple[float, float] | None = None,
) -> go.Figure:
    """Scatter of a 2-D view: colour = cluster, shape = true class, misclustered ringed.

    Parameters
    ----------
    projection : Projection
        From :mod:`lab.projections`; its ``index`` selects the rows of ``labels`` and
        ``y`` shown.
    labels : array-like of shape (n_samples,)
        Clusters of all samples.
    y : array-like of shape (n_samples,) or None
        True classes (codes ``0 .. k-1``); without them the shape shows the cluster.
    class_names : sequence of str, optional
        Names of the class codes.
    title : str
    show_misclustered : bool, default=True
        Ring the samples whose cluster does not map to their class (needs ``y``).
    height : int
    x_range, y_range : (float, float), optional
        Axis ranges (to give several panels the same axes); by default the points' own
        range with a 5 % margin.

    Returns
    -------
    go.Figure
        One WebGL trace per (cluster, class), a "misclustered" trace, and the separating
        line when ``projection.line`` is set. Each point's ``customdata`` is its row in the
        data (so a lasso selection maps back to samples).
    """
    labels = np.asarray(labels)
    idx = projection.index
    xy = projection.coords
    lab = labels[idx]
    clusters = np.unique(labels)
    colors = dict(zip(clusters.tolist(), cluster_colors(len(clusters)), strict=True))
    fig = go.Figure()
    has_y = y is not None
    yv = np.asarray(y)[idx] if has_y else None
    if has_y:
        classes = np.unique(np.asarray(y))
        names = list(class_names) if class_names else [str(c) for c in classes]

        def class_name(c):
            c = int(c)
            return names[c] if 0 <= c < len(names) else str(c)

    trace = go.Scatter if len(idx) <= SVG_MAX_POINTS else go.Scattergl
    marks = point_marks(len(idx))
    groups = []
    for ci, c in enumerate(clusters):
        in_c = lab == c
        if has_y:
            for kj, k in enumerate(classes):
                mask = in_c & (yv == k)
                groups.append((c, ci, kj, f"cluster {c} · class {class_name(k)}", mask))
        else:
            groups.append((c, ci, ci, f"cluster {c}", in_c))
    for c, _ci, sym, name, mask in groups:
        if not mask.any():
            continue
        rows = idx[mask]
        # One static hover template per trace (cluster and class are constant within it):
        # far cheaper than one hover string per point.
        hover = f"sample %{{customdata}}<br>{name.replace(' · ', '<br>')}<extra></extra>"
        fig.add_trace(
            trace(
                x=xy[mask, 0],
                y=xy[mask, 1],
                mode="markers",
                name=name,
                legendgroup=f"cluster {c}",
                marker={
                    "color": colors[c.item()],
                    "symbol": CLASS_SYMBOLS[sym % len(CLASS_SYMBOLS)],
                    "size": marks["size"],
                    "opacity": marks["opacity"],
                    "line": {"width": 0.5 if marks["size"] >= 6 else 0, "color": PAPER},
                },
                customdata=rows,
                hovertemplate=hover,
            )
        )
    n_wrong = 0
    if has_y and show_misclustered:
        wrong_all = misclustered(y, labels)
        n_wrong = int(wrong_all.sum())
        wrong = wrong_all[idx]
        if wrong.any():
            fig.add_trace(
                trace(
                    x=xy[wrong, 0],
                    y=xy[wrong, 1],
                    mode="markers",
                    name=f"misclustered ({n_wrong})",
                    marker={
                        "symbol": "circle-open",
                        "size": marks["ring_size"],
                        "color": MISCLUSTERED_COLOR,
                        "opacity": marks["ring_opacity"],
                        "line": {"width": marks["ring_width"], "color": MISCLUSTERED_COLOR},
                    },
                    customdata=idx[wrong],
                    hoverinfo="skip",
                )
            )
    xr = tuple(x_range) if x_range is not None else _padded(xy[:, 0])
    yr = tuple(y_range) if y_range is not None else _padded(xy[:, 1])
    if projection.line is not None:
        seg = _line_segment(projection.line, xr, yr)
        if seg is not None:
            (x0, y0), (x1, y1) = seg
            fig.add_trace(
                go.Scatter(
                    x=[x0, x1],
                    y=[y0, y1],
                    mode="lines",
                    name="separating hyperplane",
                    line={"color": INK, "width": 2, "dash": "dash"},
                    hoverinfo="skip",
                )
            )
    subtitle = projection.note
    relayout(
        fig,
        **_LAYOUT,
        title={"text": title + (f"<br><sup>{subtitle}</sup>" if subtitle else "")},
        xaxis={"title": projection.x_title, "range": list(xr), "zeroline": False},
        yaxis={"title": projection.y_title, "range": list(yr), "zeroline": False},
        height=height,
        dragmode="lasso",
    )
    tidy_layout(fig)
    return fig


def _vline(x: float, line: dict) -> dict:
    return {
        "type": "line",
        "x0": x,
        "x1": x,
        "y0": 0,
        "y1": 1,
        "xref": "x",
        "yref": "paper",
        "line": line,
    }


def margin_histogram(
    margins,
    labels,
    msp: float | None = None,
    rho: float = 0.5,
    *,
    title: str = "",
    nbins: int = 40,
    height: int = 380,
) -> go.Figure:
    """Histogram of the signed relative margin ``(w'x - b) / Delta`` per cluster.

    ``Delta`` is the distance between the clusters' mean projections, so the axis is
    invariant to feature scaling. Dashed lines at ``+-rho / 2`` mark Theorem 5's relative
    margin; with ``msp`` the annotation compares its guarantee — at least
    ``chebyshev_fraction(msp, rho)`` of each cluster lies beyond ``rho / 2`` on its own side —
    with the fractions observed.

    Parameters
    ----------
    margins : array-like of shape (n_samples,)
        ``w'x_i - b``.
    labels : array-like of shape (n_samples,)
        Two clusters.
    msp : float, optional
        The labeling's MSP (Theorem 5's ``p``).
    rho : float, default=0.5
        In [0, 1].
    """
    signed, own, _delta = oriented_margins(margins, labels)
    labels = np.asarray(labels)
    clusters = np.unique(labels)
    colors = cluster_colors(len(clusters))
    fig = go.Figure()
    lo, hi = float(signed.min()), float(signed.max())
    size = (hi - lo) / nbins if hi > lo else 1.0
    observed = []
    for c, color in zip(clusters, colors, strict=True):
        mask = labels == c
        frac = float(np.mean(own[mask] >= rho / 2))
        observed.append(frac)
        fig.add_trace(
            go.Histogram(
                x=signed[mask],
                name=f"cluster {c}: {mask.sum()} points, {100 * frac:.0f}% beyond ρ/2",
                marker={"color": color, "line": {"width": 0.5, "color": PAPER}},
                opacity=0.65,
                xbins={"start": lo, "end": hi + size, "size": size},
            )
        )
    # Shapes written directly: add_vline is slow (it resolves subplot references per call).
    shapes = [_vline(0.0, {"color": INK, "width": 2})] + [
        _vline(x, {"color": GUIDE_GREY, "width": 1.5, "dash": "dash"}) for x in (-rho / 2, rho / 2)
    ]
    annotations = [
        {
            "x": 0.0,
            "y": 1.0,
            "xref": "x",
            "yref": "paper",
            "text": "w'x = b",
            "showarrow": False,
            "xanchor": "left",
            "yanchor": "top",
        },
    ]
    text = ""
    if msp is not None:
        guarantee = chebyshev_fraction(float(msp), float(rho))
        worst = min(observed)
        verdict = "✓ holds" if worst >= guarantee - 1e-12 else "not met by the sample"
        text = (
            f"Theorem 5 (MSP {msp:.3f}, ρ {rho:g}): ≥ {100 * guarantee:.0f}% of each cluster "
            f"beyond ρ/2<br>observed: "
            + ", ".join(f"{100 * o:.0f}%" for o in observed)
            + f" — {verdict}"
        )
    relayout(
        fig,
        **_LAYOUT,
        barmode="overlay",
        shapes=shapes,
        annotations=annotations,
        title={"text": title + (f"<br><sup>{text}</sup>" if text else "")},
        xaxis={"title": "relative margin (w'x − b) / Δ"},
        yaxis={"title": "number of points"},
        height=height,
    )
    tidy_layout(fig)
    return fig


def guarantee_curve(
    margins, labels, msp: float, *, title: str = "", n_points: int = 101, height: int = 340
) -> go.Figure:
    """Theorem 5 for every ``rho``: the guaranteed fraction of each cluster with relative
    margin at least ``rho / 2`` against the fraction observed per cluster."""
    _signed, own, _ = oriented_margins(margins, labels)
    labels = np.asarray(labels)
    rhos = np.linspace(0.0, 1.0, n_points)
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(
            x=rhos,
            y=[chebyshev_fraction(float(msp), float(r)) for r in rhos],
            mode="lines",
            name="guarantee (Theorem 5)",
            line={"color": INK, "width": 2.5, "dash": "dash"},
        )
    )
    for c, color in zip(np.unique(labels), cluster_colors(len(np.unique(labels))), strict=True):
        values = own[labels == c]
        fig.add_trace(
            go.Scatter(
                x=rhos,
                y=[float(np.mean(values >= r / 2)) for r in rhos],
                mode="lines",
                name=f"observed, cluster {c}",
                line={"color": color, "width": 2},
            )
        )
    relayout(
        fig,
        **_LAYOUT,
        title={"text": title},
        xaxis={"title": "ρ", "range": [0, 1]},
        yaxis={"title": "fraction with relative margin ≥ ρ/2", "range": [0, 1.02]},
        height=height,
    )
    tidy_layout(fig)
    return fig


def objective_plot(
    histories: Mapping[str, Sequence[float]],
    *,
    title: str = "Objective per iteration",
    y_title: str = "objective",
    height: int = 320,
) -> go.Figure:
    """One line (with markers) per method: its objective at each iteration.

    Methods with an empty history are left out; a method's colour is its colour on every
    page (:func:`lab.plots.style.series_color`).
    """
    fig = go.Figure()
    for i, (name, values) in enumerate(histories.items()):
        if np.size(values):
            fig.add_trace(objective_trace(name, i, values))
    relayout(
        fig,
        **_LAYOUT,
        title={"text": title},
        xaxis={
            "title": "iteration",
            "dtick": iteration_dtick(max((len(v) for v in histories.values()), default=0)),
        },
        yaxis={"title": y_title},
        height=height,
    )
    tidy_layout(fig)
    return fig


def metrics_bar(
    rows: Sequence[Mapping[str, float | None]],
    names: Sequence[str],
    metrics: Sequence[str] = ("msp", "accuracy", "nmi", "rand", "f"),
    *,
    title: str = "",
    height: int = 320,
) -> go.Figure:
    """Grouped bars: one group per metric, one bar per method (missing values skipped)."""
    labels = {"msp": "MSP", "accuracy": "accuracy", "nmi": "NMI", "rand": "Rand", "f": "F"}
    fig = go.Figure()
    for row, name, color in zip(rows, names, cluster_colors(len(names)), strict=True):
        xs = [labels.get(m, m) for m in metrics if row.get(m) is not None]
        ys = [row[m] for m in metrics if row.get(m) is not None]
        fig.add_trace(go.Bar(x=xs, y=ys, name=name, marker={"color": color}))
    relayout(
        fig,
        **_LAYOUT,
        barmode="group",
        title={"text": title},
        yaxis={"range": [0, 1.05]},
        height=height,
    )
    tidy_layout(fig)
    return fig
