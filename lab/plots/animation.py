"""Plotly figures that move: the factor sweep of :mod:`lab.animation` as animation
frames with a play button and a slider, and MSPC's iterations as a step-through.

Pure functions returning ``go.Figure`` (no streamlit). The points are SVG ``go.Scatter``
traces drawn once in the original units; frames only change their colours and the
hyperplane, so playing never re-creates a WebGL context.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from lab.animation import MSPCStep, ScalingSweep
from lab.plots._common import msp_range
from lab.plots.style import FAILED_GREY, INK, OKABE_ITO, PAPER, TEMPLATE, relayout

__all__ = ["mspc_steps_figure", "scaling_animation_figure"]

_FAILED = FAILED_GREY
_SYMBOLS = ("circle", "square", "diamond", "triangle-up", "cross", "x")


def _segment(w2: np.ndarray, v: float, xr, yr):
    """Endpoints of ``w2 @ (x, y) = v`` inside the box ``xr x yr``; ``[None, None]`` if it
    misses or is undefined (plotly then draws nothing)."""
    a, c = (float(w2[0]), float(w2[1])) if np.all(np.isfinite(w2)) else (0.0, 0.0)
    pts = []
    if np.isfinite(v):
        if abs(c) > 1e-12:
            pts += [(x, (v - a * x) / c) for x in xr if yr[0] <= (v - a * x) / c <= yr[1]]
        if abs(a) > 1e-12:
            pts += [((v - c * y) / a, y) for y in yr if xr[0] <= (v - c * y) / a <= xr[1]]
    pts = sorted(set(pts))
    if len(pts) < 2:
        return [None, None], [None, None]
    return [pts[0][0], pts[-1][0]], [pts[0][1], pts[-1][1]]


def _aligned(labels: np.ndarray, reference: np.ndarray | None) -> np.ndarray:
    """Two-cluster ``labels`` renamed to agree best with ``reference`` (so colours do not
    swap from frame to frame when a method names its clusters the other way round)."""
    if reference is None or labels.min() < 0 or np.unique(labels).size != 2:
        return labels
    if np.mean(labels == reference) < 0.5:
        return 1 - labels
    return labels


def _colors(labels: np.ndarray) -> np.ndarray:
    """Each point's colour as a number: ``-1`` for a failed fit, else the cluster's index in
    :data:`OKABE_ITO`, drawn through :data:`_COLOR_MARKER`'s banded colour scale.

    A numeric array passes plotly's validation at once, where a list of N colour strings is
    checked string by string (most of the MSPC step-through's figure time with strings;
    ``bench/RESULTS.md``)."""
    labels = np.asarray(labels)
    return np.where(labels < 0, -1, labels % len(OKABE_ITO)).astype(np.float64)


def _banded_scale() -> list[list]:
    """Colour-scale bands of equal width: the failed colour, then the palette."""
    colors = [_FAILED, *OKABE_ITO]
    n = len(colors)
    scale = []
    for i, c in enumerate(colors):
        scale += [[i / n, c], [(i + 1) / n, c]]
    return scale


#: Marker settings that map :func:`_colors`' codes ``-1 .. len(OKABE_ITO) - 1`` to the middle
#: of their bands.
_COLOR_MARKER = {
    "colorscale": _banded_scale(),
    "cmin": -1.5,
    "cmax": len(OKABE_ITO) - 0.5,
    "showscale": False,
}


def _range(v: np.ndarray) -> list[float]:
    lo, hi = float(np.min(v)), float(np.max(v))
    pad = 0.05 * (hi - lo) if hi > lo else 1.0
    return [lo - pad, hi + pad]


def _fmt(x: float) -> str:
    return "–" if not np.isfinite(x) else f"{x:.3f}"


def scaling_animation_figure(
    sweep: ScalingSweep,
    X,
    y=None,
    *,
    features: tuple[int, int] = (0, 1),
    feature_names: Sequence[str] | None = None,
    frame_ms: int = 700,
    height: int = 520,
) -> go.Figure:
    """One panel per method, one animation frame per factor, a play button and a slider.

    Points stay where they are in the original units of ``X``; each frame colours them by the
    method's clusters at that factor and draws its hyperplane (mapped back to the original
    units). The title gives the factor and each method's accuracy and MSP. With more than two
    features the line is the hyperplane's trace in the plane of ``features`` through the
    mean of the other features.

    Parameters
    ----------
    sweep : ScalingSweep
        From :func:`lab.animation.scaling_sweep` on ``X``.
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,), optional
        True classes: marker shape, and the reference the cluster colours are aligned to.
    features : (int, int), default=(0, 1)
        The two columns on the axes.
    feature_names : sequence of str, optional
    frame_ms : int, default=700
        Time per frame when playing.
    height : int, default=460

    Returns
    -------
    go.Figure
        With ``frames``, an ``updatemenus`` play/pause pair and a ``sliders`` entry.
    """
    X = np.asarray(X, dtype=float)
    n, d = X.shape
    if sweep.labels.shape[2] != n:
        raise ValueError(
            f"The sweep was computed on {sweep.labels.shape[2]} samples but X has {n}; pass "
            "the X the sweep was computed on."
        )
    fx, fy = (int(f) for f in features)
    if not (0 <= fx < d and 0 <= fy < d and fx != fy):
        raise ValueError(f"features must be two different columns below {d}, got {features}.")
    names = list(feature_names) if feature_names is not None else [f"x{j + 1}" for j in range(d)]
    others = [j for j in range(d) if j not in (fx, fy)]
    mean_others = X[:, others].mean(axis=0) if others else np.zeros(0)
    xr, yr = _range(X[:, fx]), _range(X[:, fy])
    y_arr = None if y is None else np.asarray(y)
    symbols = (
        ["circle"] * n
        if y_arr is None
        else [_SYMBOLS[int(k) % len(_SYMBOLS)] for k in np.unique(y_arr, return_inverse=True)[1]]
    )
    n_m, n_f = sweep.labels.shape[:2]
    # Cluster colours aligned to the classes, else to the method's previous frame.
    aligned = np.empty_like(sweep.labels)
    for m in range(n_m):
        previous = y_arr
        for t in range(n_f):
            aligned[m, t] = _aligned(sweep.labels[m, t], previous)
            if y_arr is None:
                previous = aligned[m, t]

    def frame_data(t: int) -> list[go.Scatter]:
        data = []
        for m in range(n_m):
            data.append(go.Scatter(marker={"color": _colors(aligned[m, t])}))
            w = sweep.w[m, t]
            v = sweep.b[m, t] - (float(w[others] @ mean_others) if others else 0.0)
            lx, ly = _segment(w[[fx, fy]], v, xr, yr)
            data.append(go.Scatter(x=lx, y=ly))
        return data

    feature = names[sweep.feature]

    def title(t: int) -> str:
        parts = [
            f"{name}: accuracy {_fmt(sweep.accuracy[m, t])}, MSP {_fmt(sweep.msp[m, t])}"
            for m, name in enumerate(sweep.methods)
        ]
        return f"'{feature}' ×{sweep.factors[t]:g}<br><sup>{' · '.join(parts)}</sup>"

    start = int(np.argmin(np.abs(np.log(sweep.factors))))
    fig = make_subplots(
        rows=1, cols=n_m, shared_xaxes=True, shared_yaxes=True, subplot_titles=sweep.methods
    )
    first = frame_data(start)
    for m in range(n_m):
        fig.add_trace(
            go.Scatter(
                x=X[:, fx],
                y=X[:, fy],
                mode="markers",
                marker={
                    "color": first[2 * m].marker.color,
                    **_COLOR_MARKER,
                    "symbol": symbols,
                    "size": 7,
                    "opacity": 0.8,
                    "line": {"width": 0.5, "color": PAPER},
                },
                name=sweep.methods[m],
                showlegend=False,
                hoverinfo="skip",
            ),
            row=1,
            col=m + 1,
        )
        fig.add_trace(
            go.Scatter(
                x=first[2 * m + 1].x,
                y=first[2 * m + 1].y,
                mode="lines",
                line={"color": INK, "width": 2, "dash": "dash"},
                name="separating hyperplane",
                showlegend=False,
                hoverinfo="skip",
            ),
            row=1,
            col=m + 1,
        )
    traces = list(range(2 * n_m))
    labels = [f"×{f:g}" for f in sweep.factors]
    fig.frames = [
        go.Frame(data=frame_data(t), traces=traces, name=labels[t], layout={"title": title(t)})
        for t in range(n_f)
    ]
    play = {
        "frame": {"duration": frame_ms, "redraw": True},
        "transition": {"duration": 0},
        "fromcurrent": True,
        "mode": "immediate",
    }
    # The controls' y is a fraction of the plot height: place them a fixed number of pixels
    # under the plot (72: tick labels and the x axis title, in presenter mode's larger fonts
    # too), not at -0.2 of it, which put the Pause button on the axis title. The top margin
    # holds the two-line title above the subplot titles.
    top, bottom = 110, 140
    controls_y = -72 / max(height - top - bottom, 100)
    relayout(
        fig,
        template=TEMPLATE,
        height=height,
        # Below the plots, in this order and without overlaps: tick labels and the x-axis
        # title (about 45 px), then the play buttons and the slider side by side. The frame's
        # factor is in the title, so the slider shows no current-value label of its own.
        margin={"l": 60, "r": 20, "t": top, "b": bottom},
        title={"text": title(start)},
        font={"size": 13},
        showlegend=False,
        updatemenus=[
            {
                "type": "buttons",
                "direction": "left",
                "x": 0,
                "y": controls_y,
                "xanchor": "left",
                "yanchor": "top",
                "showactive": False,
                "buttons": [
                    {"label": "▶ Play", "method": "animate", "args": [None, play]},
                    {
                        "label": "❚❚ Pause",
                        "method": "animate",
                        "args": [[None], {**play, "frame": {"duration": 0, "redraw": False}}],
                    },
                ],
            }
        ],
        sliders=[
            {
                "active": start,
                "x": 0.2,
                "len": 0.8,
                "y": controls_y,
                "yanchor": "top",
                "currentvalue": {"visible": False},
                "pad": {"t": 0, "b": 0},
                "steps": [
                    {
                        "label": lab,
                        "method": "animate",
                        "args": [[lab], {**play, "frame": {"duration": 0, "redraw": True}}],
                    }
                    for lab in labels
                ],
            }
        ],
    )
    fig.update_xaxes(range=xr, title_text=names[fx], zeroline=False)
    fig.update_yaxes(range=yr, zeroline=False)
    fig.update_yaxes(title_text=names[fy], row=1, col=1)
    return fig


def mspc_steps_figure(
    steps: Sequence[MSPCStep],
    X,
    *,
    features: tuple[int, int] = (0, 1),
    feature_names: Sequence[str] | None = None,
    height: int = 420,
) -> go.Figure:
    """MSPC's iterations as frames: labels and hyperplane on the left, the objective so far
    on the right, a slider to step through (no autoplay needed).

    Parameters
    ----------
    steps : sequence of MSPCStep
        From :func:`lab.animation.mspc_iterations` on ``X``.
    X : array-like of shape (n_samples, n_features)
    features : (int, int), default=(0, 1)
    feature_names : sequence of str, optional
    height : int, default=420
    """
    if not steps:
        raise ValueError("No iterations to show: pass the steps of mspc_iterations.")
    X = np.asarray(X, dtype=float)
    d = X.shape[1]
    fx, fy = (int(f) for f in features)
    names = list(feature_names) if feature_names is not None else [f"x{j + 1}" for j in range(d)]
    others = [j for j in range(d) if j not in (fx, fy)]
    mean_others = X[:, others].mean(axis=0) if others else np.zeros(0)
    xr, yr = _range(X[:, fx]), _range(X[:, fy])
    its = [s.iteration for s in steps]
    objective = [s.objective for s in steps]
    lo, hi = min(objective), max(objective)
    pad = 0.1 * (hi - lo) if hi > lo else 0.01

    def frame_data(k: int):
        s = steps[k]
        v = s.b - (float(s.w[others] @ mean_others) if others else 0.0)
        lx, ly = _segment(np.asarray(s.w)[[fx, fy]], v, xr, yr)
        return [
            go.Scatter(marker={"color": _colors(s.labels)}),
            go.Scatter(x=lx, y=ly),
            go.Scatter(x=its[: k + 1], y=objective[: k + 1]),
        ]

    def title(k: int) -> str:
        s = steps[k]
        moved = "the start" if k == 0 else f"{s.n_changed} label(s) changed"
        return f"Iteration {s.iteration}: MSP {s.objective:.4f} ({moved})"

    fig = make_subplots(rows=1, cols=2, column_widths=[0.62, 0.38], horizontal_spacing=0.12)
    first = frame_data(0)
    fig.add_trace(
        go.Scatter(
            x=X[:, fx],
            y=X[:, fy],
            mode="markers",
            marker={"color": first[0].marker.color, **_COLOR_MARKER, "size": 7, "opacity": 0.8},
            name="clusters",
            showlegend=False,
            hoverinfo="skip",
        ),
        row=1,
        col=1,
    )
    fig.add_trace(
        go.Scatter(
            x=first[1].x,
            y=first[1].y,
            mode="lines",
            line={"color": INK, "width": 2, "dash": "dash"},
            name="hyperplane",
            showlegend=False,
        ),
        row=1,
        col=1,
    )
    fig.add_trace(
        go.Scatter(x=first[2].x, y=first[2].y, mode="lines+markers", name="MSP", showlegend=False),
        row=1,
        col=2,
    )
    fig.frames = [
        go.Frame(data=frame_data(k), traces=[0, 1, 2], name=str(k), layout={"title": title(k)})
        for k in range(len(steps))
    ]
    step_args = {"frame": {"duration": 0, "redraw": True}, "mode": "immediate"}
    relayout(
        fig,
        template=TEMPLATE,
        height=height,
        title={"text": title(0)},
        font={"size": 13},
        margin={"l": 60, "r": 20, "t": 70, "b": 90},
        sliders=[
            {
                "active": 0,
                "y": -0.12,
                "yanchor": "top",
                "currentvalue": {"prefix": "iteration "},
                "steps": [
                    {"label": str(s.iteration), "method": "animate", "args": [[str(k)], step_args]}
                    for k, s in enumerate(steps)
                ],
            }
        ],
    )
    fig.update_xaxes(range=xr, title_text=names[fx], row=1, col=1)
    fig.update_yaxes(range=yr, title_text=names[fy], row=1, col=1)
    fig.update_xaxes(range=[its[0] - 0.5, its[-1] + 0.5], title_text="iteration", row=1, col=2)
    in_unit = 0.0 <= lo and hi <= 1.0  # the MSP's own range, not plotly's margin past it
    span = msp_range(objective) if in_unit else [lo - pad, hi + pad]
    fig.update_yaxes(range=span, title_text="MSP", row=1, col=2)
    return fig
