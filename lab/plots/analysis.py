"""Plotly figures of the analysis pages: pure functions of the results of
:mod:`lab.experiments.protocols` and :mod:`lab.theorems`.

- :func:`sensitivity_figure`: accuracy against the scaling factor per method (Fig. 1).
- :func:`msp_accuracy_figure`: MSP against accuracy over a family of runs, each point named
  on hover, with the least-squares line and Pearson's r in the title (Figs. 2-3).
- :func:`lam_sweep_figure`: held-out MSP, in-sample MSP and accuracy against ``lam`` on a
  log axis, with the ``lam`` a score picks (no labels needed) next to the one accuracy picks.
- :func:`scaling_comparison_figure`: each method's accuracy and MSP before and after a
  rescaling of the features.
- :func:`theorem1_figure`: one labeling's MSP before and after rescaling, per regulariser.
- :func:`lower_bound_figure`: Theorem 2's bound (4) against ``kappa^2`` over labelings.
- the in-sample and held-out MSP bars are :func:`lab.plots.heldout.heldout_bars_figure`
  (:func:`lab.theorems.nonsense_splits`).

Colours come from the Okabe-Ito palette (:data:`lab.plots.OKABE_ITO`) and every
series also has its own marker shape or line dash, so nothing is told by colour alone.
Pure plotly, pandas and numpy; never imports streamlit.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from lab.experiments.protocols import SCORES, LamSweep, lam_choice
from lab.plots._common import _LAYOUT, MARKERS, _color, _empty, _marker
from lab.plots.grid import grow_margins, tidy_layout, two_panels
from lab.plots.msp_accuracy import line_within_unit, msp_accuracy_figure
from lab.plots.style import AFTER_GREY, BEFORE_GREY, GUIDE_GREY, PAPER, relayout, series_color

__all__ = [
    "MARKERS",
    "lam_sweep_figure",
    "line_within_unit",
    "lower_bound_figure",
    "msp_accuracy_figure",
    "scaling_comparison_figure",
    "sensitivity_figure",
    "theorem1_figure",
]

_DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot")


def sensitivity_figure(
    summary: pd.DataFrame | None,
    *,
    error: str = "sem",
    title: str = "Accuracy when one feature is rescaled",
    height: int = 420,
    factors: Sequence[float] = (),
    message: str = "No successful runs to plot.",
) -> go.Figure:
    """Mean accuracy against the scaling factor, one line per method (MSPC paper Fig. 1).

    Parameters
    ----------
    summary : DataFrame or None
        :attr:`lab.experiments.protocols.SensitivityResult.summary` (``method``, ``factor``,
        ``accuracy_mean``, ``accuracy_std``, ``accuracy_sem``, ``n_runs``). None or no
        successful run: the axes of ``factors`` with ``message`` (the chart before a run).
    error : {"sem", "std", "none"}, default="sem"
        Error bars: standard error of the mean, standard deviation over the repetitions,
        or none.
    title, height, factors, message : figure title, height in pixels, and (without runs)
        the factors and the message drawn.

    Returns
    -------
    go.Figure
        x: factor on a log2 axis (1, 2, 4, 8, 16); y: accuracy (a fraction, as the
        lab's tables write it).
    """
    fig = go.Figure()
    if summary is None or summary.empty or summary["accuracy_mean"].isna().all():
        fig, error = _empty(title, message, height, axes=True), "none"
        ran = [] if summary is None else list(summary["factor"])  # the failed runs' factors
        summary = pd.DataFrame({"method": None, "factor": [1.0, *factors, *ran]})
    for i, (method, part) in enumerate(summary.groupby("method", sort=False)):
        part = part.sort_values("factor")
        color = series_color(str(method), i)
        bars = None
        if error in ("sem", "std"):
            bars = {
                "type": "data",
                "array": part[f"accuracy_{error}"].to_numpy(),
                "visible": True,
                "thickness": 1.2,
            }
        fig.add_trace(
            go.Scatter(
                x=part["factor"],
                y=part["accuracy_mean"],
                error_y=bars,
                mode="lines+markers",
                name=str(method),
                line={"color": color, "dash": _DASHES[i % len(_DASHES)], "width": 2},
                marker={"symbol": _marker(i), "size": 10, "color": color},
                customdata=np.stack(
                    [part["accuracy_std"].to_numpy(), part["n_runs"].to_numpy()], axis=1
                ),
                hovertemplate=(
                    f"<b>{method}</b><br>factor %{{x:g}}<br>mean accuracy %{{y:.3f}}"
                    "<br>std %{customdata[0]:.3f} over %{customdata[1]} runs"
                    "<extra></extra>"
                ),
            )
        )
    factors = sorted(float(f) for f in summary["factor"].unique())
    what = {"sem": "bars: ± standard error", "std": "bars: ± one standard deviation"}
    relayout(
        fig,
        **_LAYOUT,
        title={"text": title, "subtitle": {"text": what.get(error, "")}},
        height=height,
        xaxis_title="scaling factor a of the chosen feature",
        yaxis_title="mean clustering accuracy",
        hovermode="closest",
    )
    span = max(np.log10(factors[-1] / factors[0]), 1.0)  # the placeholder's x range
    ends = np.log10([factors[0], factors[-1]]) + np.array([-0.06, 0.06]) * span
    ticks = {"tickvals": factors, "ticktext": [f"{f:g}" for f in factors], "showgrid": True}
    return tidy_layout(fig.update_xaxes(type="log", **ticks, range=None if fig.data else ends))


def lam_sweep_figure(
    sweep: LamSweep,
    *,
    by: str = "msp_heldout",
    title: str = "Choosing λ without labels",
    height: int = 420,
) -> go.Figure:
    """Held-out MSP, in-sample MSP and accuracy against ``lam`` (log axis), with the ``lam``
    the score ``by`` picks and the one accuracy picks marked.

    Parameters
    ----------
    sweep : LamSweep
        From :func:`lab.experiments.protocols.lam_sweep`.
    by : {"msp_heldout", "msp"}, default="msp_heldout"
        The score whose choice is starred (:func:`lab.experiments.protocols.lam_choice`).
    title : str
    height : int

    Returns
    -------
    go.Figure
        Lines sharing the [0, 1] axis: the held-out MSP (circles, solid), the in-sample
        MSP (triangles, dotted) and accuracy (squares, dashed); a star at the ``lam`` with
        the largest ``by`` score and a diamond at the ``lam`` with the largest accuracy.
    """
    table = sweep.table
    choice = lam_choice(table, by)
    if table.empty or table[by].isna().all():
        return _empty(title, "Every run failed; see the messages above.", height)
    fig = go.Figure()
    styles = {
        "msp_heldout": (0, "circle", "solid"),
        "msp": (2, "triangle-up", "dot"),
    }
    for column, label in SCORES.items():
        if column not in table or table[column].isna().all():
            continue
        colour, symbol, dash = styles[column]
        fig.add_trace(
            go.Scatter(
                x=table["lam"],
                y=table[column],
                mode="lines+markers",
                name=f"{label} (no labels needed)",
                line={"color": _color(colour), "width": 2, "dash": dash},
                marker={"symbol": symbol, "size": 9},
                hovertemplate=f"λ = %{{x:g}}<br>{label} %{{y:.3f}}<extra></extra>",
            )
        )
    has_acc = table["accuracy"].notna().any()
    if has_acc:
        fig.add_trace(
            go.Scatter(
                x=table["lam"],
                y=table["accuracy"],
                mode="lines+markers",
                name="accuracy (needs the true classes)",
                line={"color": _color(1), "width": 2, "dash": "dash"},
                marker={"symbol": "square", "size": 9},
                hovertemplate="λ = %{x:g}<br>accuracy %{y:.3f}<extra></extra>",
            )
        )
    label = SCORES[by]
    colour = styles[by][0]
    if np.isfinite(choice.lam):
        row = table.loc[table["lam"] == choice.lam].iloc[0]
        fig.add_trace(
            go.Scatter(
                x=[row["lam"]],
                y=[row[by]],
                mode="markers",
                name=f"largest {label}: λ = {row['lam']:g}",
                marker={
                    "symbol": "star",
                    "size": 20,
                    "color": _color(colour),
                    "line": {"width": 1},
                },
                hovertemplate=f"λ chosen by the {label}: %{{x:g}}<extra></extra>",
            )
        )
        if has_acc:
            fig.add_trace(
                go.Scatter(
                    x=[row["lam"]],
                    y=[row["accuracy"]],
                    mode="markers",
                    name=f"its accuracy: {row['accuracy']:.3f}",
                    marker={
                        "symbol": "star-open",
                        "size": 20,
                        "color": _color(colour),
                        "line": {"width": 2},
                    },
                    hovertemplate=f"accuracy of the λ chosen by the {label}: %{{y:.3f}}"
                    "<extra></extra>",
                )
            )
    if has_acc and np.isfinite(sweep.best_accuracy_lam):
        row = table.loc[table["lam"] == sweep.best_accuracy_lam].iloc[0]
        fig.add_trace(
            go.Scatter(
                x=[row["lam"]],
                y=[row["accuracy"]],
                mode="markers",
                name=f"largest accuracy: λ = {row['lam']:g}",
                marker={"symbol": "diamond", "size": 16, "color": _color(1), "line": {"width": 1}},
                hovertemplate="λ with the best accuracy: %{x:g}<extra></extra>",
            )
        )
    relayout(
        fig,
        **_LAYOUT,
        title=title,
        height=height,
        xaxis_title="λ (regulariser weight, log scale)",
        yaxis_title="MSP / accuracy",
        hovermode="closest",
    )
    # Plain numbers (0.001, 10): a power's exponent is drawn at 70 % of the tick font.
    fig.update_xaxes(type="log", tickformat="~g")
    # The MSP's own range; a point at 1 drawn whole over the axis' end.
    fig.update_yaxes(range=[0, 1])
    fig.update_traces(cliponaxis=False)
    tidy_layout(fig)
    return fig


def scaling_comparison_figure(
    comparison: pd.DataFrame,
    *,
    title: str = "Before and after rescaling",
    height: int = 380,
) -> go.Figure:
    """Accuracy and MSP of each method before (hatched) and after rescaling the features.

    Parameters
    ----------
    comparison : DataFrame
        One row per method: ``method``, ``accuracy_before``, ``accuracy_after``,
        ``msp_before``, ``msp_after`` (NaN where undefined).
    title : str
    height : int

    Returns
    -------
    go.Figure
        Two panels of grouped bars (accuracy and MSP, both fractions with three decimals,
        as the lab's tables write them).
    """
    if comparison is None or comparison.empty:
        return _empty(title, "Choose at least one method.", height)
    many = len(comparison) > 4
    traces = []
    for j, (when, pattern) in enumerate((("before", "/"), ("after", ""))):
        color = BEFORE_GREY if when == "before" else AFTER_GREY
        for col, metric in enumerate(("accuracy", "msp"), start=1):
            values = comparison[f"{metric}_{when}"].astype(float)
            traces.append(
                go.Bar(
                    x=comparison["method"],
                    y=values,
                    name=f"{when} rescaling",
                    legendgroup=when,
                    showlegend=col == 1,
                    marker={"color": color, "pattern": {"shape": pattern}},
                    # More than four methods: no room for the numbers above the bars (the
                    # table above the chart has them).
                    text=None if many else [("" if np.isnan(v) else f"{v:.3f}") for v in values],
                    textposition="outside",
                    offsetgroup=j,
                    hovertemplate=f"%{{x}} {when}: %{{y:.3f}}<extra></extra>",
                    xaxis=f"x{'' if col == 1 else col}",
                    yaxis=f"y{'' if col == 1 else col}",
                )
            )
    # The two panels as make_subplots(1, 2, subplot_titles=...) lays them out, written once:
    # make_subplots and add_trace(row=, col=) were half of this figure's build time, which
    # every slider step on Feature scaling pays (bench/RESULTS.md).
    fig = go.Figure(data=traces, layout=two_panels(("clustering accuracy", "MSP")))
    relayout(fig, **_LAYOUT, title=title, height=height, barmode="group")
    # The room above 1 is the bars' labels'.
    fig.layout.yaxis.range = [0, 1.1]
    fig.layout.yaxis2.range = [0, 1.1]
    if many:  # method names upright would overlap: read them bottom to top
        fig.update_xaxes(tickangle=-90)
    tidy_layout(fig)
    # What plotly's automargin grows it to in Chromium (one legend row): laid out once.
    return grow_margins(fig, b=160 if many else 68)


def theorem1_figure(
    checks: pd.DataFrame,
    *,
    title: str = "MSP of one labeling before and after rescaling",
    height: int = 340,
) -> go.Figure:
    """Bars of the MSP before and after rescaling, one group per regulariser.

    Parameters
    ----------
    checks : DataFrame
        One row per setting: ``setting`` (e.g. ``"diag, λ=0.1"``), ``msp_before``,
        ``msp_after``, ``relative_difference``.
    """
    if checks is None or checks.empty:
        return _empty(title, "Nothing to compare.", height)
    fig = go.Figure()
    for when, pattern in (("before", "/"), ("after", "")):
        fig.add_trace(
            go.Bar(
                # "diag, λ = 0.1" on two lines: three labels side by side ran into each
                # other in a figure half the page wide.
                x=[str(v).replace(", ", "<br>") for v in checks["setting"]],
                y=checks[f"msp_{when}"],
                name=f"{when} rescaling",
                marker={
                    "color": BEFORE_GREY if when == "before" else AFTER_GREY,
                    "pattern": {"shape": pattern},
                },
                text=[f"{v:.4f}" for v in checks[f"msp_{when}"]],
                textposition="outside",
                customdata=checks["relative_difference"],
                hovertemplate=(
                    f"%{{x}}<br>MSP {when}: %{{y:.6f}}<br>relative change "
                    "%{customdata:.2e}<extra></extra>"
                ),
            )
        )
    relayout(fig, **_LAYOUT, title=title, height=height, barmode="group", yaxis_title="MSP")
    fig.update_yaxes(range=[0, 1.1])  # above 1: the bars' labels
    tidy_layout(fig)
    # What plotly's automargin grows them to in Chromium (ticks 0-1.1, labels on two lines,
    # one legend row): set here, the figure is laid out once.
    return grow_margins(fig, l=72, b=84)


def lower_bound_figure(
    table: pd.DataFrame,
    *,
    title: str = "Theorem 2: bound (4) never exceeds κ²",
    height: int = 380,
) -> go.Figure:
    """Scatter of ``kappa^2`` (x) against bound (4) (y) over labelings, with ``y = x``,
    on log axes (random labelings have tiny ``kappa^2``, good ones large).

    Parameters
    ----------
    table : DataFrame
        ``name``, ``kappa_squared``, ``bound``, ``r1`` (one row per labeling), e.g. from
        :func:`lab.theorems.lower_bound_check` over several labelings.
    """
    if table is None or table.empty:
        return _empty(title, "No labelings to compare.", height)
    fig = go.Figure()
    values = np.concatenate([table["kappa_squared"].to_numpy(), table["bound"].to_numpy()])
    values = values[np.isfinite(values) & (values > 0)]
    low = float(values.min()) / 1.5 if values.size else 1e-3
    top = float(values.max()) * 1.5 if values.size else 1.0
    fig.add_trace(
        go.Scatter(
            x=[low, top],
            y=[low, top],
            mode="lines",
            name="bound = κ² (tight)",
            line={"color": GUIDE_GREY, "dash": "dot"},
            hoverinfo="skip",
        )
    )
    balance = np.minimum(table["r1"], 1 - table["r1"])
    fig.add_trace(
        go.Scatter(
            x=table["kappa_squared"],
            y=table["bound"],
            mode="markers",
            name="labelings",
            text=table["name"],
            customdata=np.stack([table["r1"], balance], axis=1),
            marker={
                "symbol": "circle",
                "size": 11,
                "color": balance,
                "colorscale": "Cividis",
                "cmin": 0,
                "cmax": 0.5,
                "colorbar": {"title": "smaller cluster<br>fraction", "thickness": 12},
                "line": {"width": 1, "color": PAPER},
            },
            hovertemplate=(
                "<b>%{text}</b><br>κ² %{x:.4f}<br>bound (4) %{y:.4f}"
                "<br>cluster 1 fraction %{customdata[0]:.2f}<extra></extra>"
            ),
        )
    )
    relayout(
        fig,
        **_LAYOUT,
        title=title,
        height=height,
        xaxis_title="κ² of the MPM on the labeling",
        yaxis_title="lower bound (4) at the MPM direction",
        hovermode="closest",
    )
    # Random labelings have tiny kappa^2 and good ones large: log axes show both.
    # Over two or more decades a label per decade only: plotly's 2 and 5 between the powers
    # ran into them in a panel half the page wide.
    ticks = {"dtick": 1} if np.log10(top / low) >= 2 else {}
    log_axis = {
        "type": "log",
        "range": [np.log10(low), np.log10(top)],
        # Plain numbers (0.01, 1e-05): a power's exponent is drawn at 70 % of the tick font.
        "tickformat": "~g",
        **ticks,
    }
    fig.update_xaxes(**log_axis)
    fig.update_yaxes(**log_axis)
    tidy_layout(fig)
    return fig
