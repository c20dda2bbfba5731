"""The lab's plotly figures as ECharts options, for ``bench/bench_echarts.py`` only.

Covers what the Feature scaling page's before/after figures use: scatter traces (markers,
open circles, lines) on one pair of axes, and grouped bars on side-by-side axes (the
comparison figure). What ECharts has no equivalent for in ``st.echarts_chart`` is dropped
and listed by :data:`LOST`, so the comparison states it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

#: What the conversion loses against the plotly figure (no JavaScript callbacks in
#: ``st.echarts_chart``: per-point hover templates with ``customdata`` cannot be written).
LOST = (
    "hover templates (customdata per point)",
    "bar fill patterns (before = hatched)",
    "axis titles with line breaks (<br>) and HTML bold titles",
    "subplot titles as annotations (kept as the axes' names)",
    "numbers formatted by plotly (tick labels at the range ends show every digit)",
)

_SYMBOLS = {"circle": "circle", "square": "rect", "circle-open": "emptyCircle"}


def _list(values: Any) -> list:
    return np.asarray(values).tolist() if values is not None else []


def _plain(text: Any) -> str:
    return str(text or "").replace("<br>", " ").replace("<b>", "").replace("</b>", "")


def to_echarts(fig) -> dict:
    """An ECharts option drawing ``fig`` (a ``go.Figure`` of scatter or bar traces)."""
    layout = fig.layout
    bars = [t for t in fig.data if t.type == "bar"]
    if bars:
        return _bars(fig, bars)
    series = []
    for t in fig.data:
        xy = np.column_stack([_list(t.x), _list(t.y)]).round(6).tolist()
        if t.mode == "lines":
            series.append(
                {
                    "type": "line",
                    "name": t.name,
                    "data": xy,
                    "symbol": "none",
                    "lineStyle": {"color": t.line.color, "type": "dashed", "width": t.line.width},
                    "silent": True,
                }
            )
            continue
        m = t.marker
        series.append(
            {
                "type": "scatter",
                "name": t.name,
                "data": xy,
                "symbol": _SYMBOLS.get(m.symbol or "circle", "circle"),
                "symbolSize": (m.size or 6) + (2 if m.symbol == "circle-open" else 0),
                "itemStyle": {"color": m.color, "opacity": m.opacity},
                "silent": t.hoverinfo == "skip",
            }
        )
    return {
        "title": {"text": _plain(layout.title.text), "textStyle": {"fontSize": 13}},
        "legend": {"bottom": 0, "left": 0, "orient": "vertical"},
        "grid": {
            "left": layout.margin.l,
            "right": layout.margin.r,
            "top": layout.margin.t,
            "bottom": layout.margin.b,
        },
        "tooltip": {"trigger": "item"},
        "xAxis": _axis(layout.xaxis),
        "yAxis": _axis(layout.yaxis),
        "series": series,
        "animation": False,
    }


def _axis(axis) -> dict:
    out = {
        "type": "value",
        "name": _plain(axis.title.text),
        "nameLocation": "middle",
        "nameGap": 28,
        "splitLine": {"show": False},
    }
    if axis.range is not None:
        out["min"], out["max"] = (round(float(v), 6) for v in axis.range)
    return out


def _bars(fig, bars) -> dict:
    layout = fig.layout
    axes = sorted({t.xaxis or "x" for t in bars})
    grids, x_axes, y_axes, series = [], [], [], []
    titles = [a.text for a in layout.annotations or []]
    for i, ax in enumerate(axes):
        suffix = ax[1:]
        xa = layout[f"xaxis{suffix}"]
        ya = layout[f"yaxis{suffix}"]
        left, right = xa.domain or (0, 1)
        grids.append(
            {
                "left": f"{left * 90 + 6:.0f}%",
                "width": f"{(right - left) * 88:.0f}%",
                "top": 70,
                "bottom": 60,
            }
        )
        x_axes.append({"type": "category", "gridIndex": i, "data": _list(bars[0].x), "name": None})
        y = {"type": "value", "gridIndex": i, "name": _plain(titles[i] if i < len(titles) else "")}
        if ya.range is not None:
            y["min"], y["max"] = (float(v) for v in ya.range)
        y_axes.append(y)
    for t in bars:
        i = axes.index(t.xaxis or "x")
        series.append(
            {
                "type": "bar",
                "name": t.name,
                "xAxisIndex": i,
                "yAxisIndex": i,
                "data": [
                    {"value": round(float(v), 6), "label": {"formatter": str(text)}}
                    for v, text in zip(t.y, t.text if t.text is not None else t.y, strict=True)
                ],
                "itemStyle": {"color": t.marker.color},
                "label": {"show": True, "position": "top"},
            }
        )
    return {
        "title": {"text": _plain(layout.title.text)},
        "legend": {"bottom": 0, "left": 0},
        "tooltip": {"trigger": "item"},
        "grid": grids,
        "xAxis": x_axes,
        "yAxis": y_axes,
        "series": series,
        "animation": False,
    }
