"""The Feature scaling page's breast figures drawn by one chart route (``bench/bench_echarts.py``).

``streamlit run bench/echarts_app.py`` with ``LAB_BENCH_ROUTE`` = ``element`` (the lab's chart
element), ``echarts`` (``st.echarts_chart`` on the same figures converted by
``bench/_echarts.py``) or ``plotly`` (``st.plotly_chart``). One slider (the factor of the
feature of largest variance), the comparison bars and the six before/after panels of the
breast demo's three methods, built by the same cached functions as the page.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

import streamlit as st  # noqa: E402
from _echarts import to_echarts  # noqa: E402

import datasets  # noqa: E402
from lab import plots  # noqa: E402
from lab.demos import breast_methods  # noqa: E402
from ui import analysis as ua  # noqa: E402
from ui import cache  # noqa: E402
from ui import chart as lab_chart  # noqa: E402
from ui import scaling as ui_scaling  # noqa: E402

ROUTE = os.environ.get("LAB_BENCH_ROUTE", "element")

st.set_page_config(page_title=f"charts: {ROUTE}", layout="wide")
if ROUTE == "element":
    lab_chart.preload(st.sidebar)
st.title(f"Feature scaling, breast: {ROUTE}")

ds = cache.load_bundled("breast")
X, y = ds.X, ds.y
fp = f"bundled:breast:{X.shape}"
keys = [key for key, _ in breast_methods().values()]
params = {key: dict(p) for key, p in breast_methods().values()}
lam, reg = 0.01, "diag"
order = ua.feature_order(X)
factor = st.select_slider(
    ds.feature_names[int(order[0])],
    options=ua.FACTOR_OPTIONS,
    value=1.0,
    key="fs.factor.0",
    format_func=lambda f: f"×{f:g}",
)
factors = ui_scaling.unit_factors(X.shape[1])
factors[int(order[0])] = factor
X_after = datasets.scaling.apply(X, factors)
fp_after = ui_scaling.scaled_fingerprint(fp, factors)
msp = {"msp_lam": lam, "msp_regularizer": reg, "progress": False}
before = cache.fit_many(keys, params, fp, X, y, **msp)
after = cache.fit_many(keys, params, fp_after, X_after, y, **msp)


def draw(fig, key: str) -> None:
    if ROUTE == "element":
        lab_chart.chart(fig, key=key, width="stretch")
        return
    figure = fig.figure if isinstance(fig, lab_chart.SharedChart) else fig
    if ROUTE == "echarts":
        height = int(figure.layout.height or 450)
        renderer = os.environ.get("LAB_BENCH_RENDERER", "canvas")
        st.echarts_chart(to_echarts(figure), key=key, height=height, renderer=renderer)
    else:
        st.plotly_chart(figure, key=key, width="stretch")


comparison = ui_scaling.comparison_table(before, after)
draw(
    plots.scaling_comparison_figure(comparison, title="Accuracy and MSP before and after"),
    "fs.comparison",
)
for rb, ra in zip(before, after, strict=True):
    st.markdown(f"**{rb.name}**")
    left, right = st.columns(2)
    for column, result, when, vec in (
        (left, rb, "before", ui_scaling.unit_factors(X.shape[1])),
        (right, ra, "after", factors),
    ):
        with column:
            w = ui_scaling.hyperplane_in_original_units(result.w, vec)
            acc, m = result.metrics.get("accuracy"), result.metrics.get("msp")
            fig, _ = ui_scaling.scatter_figure(
                "discriminant",
                fp,
                w,
                result.b,
                result.labels,
                f"{when} · accuracy {acc:.3f} · MSP {m:.3f}",
                X,
                y,
                ds.class_names,
                ds.feature_names,
            )
            with st.container(key=f"fs-s-{result.key}-{when}"):
                draw(fig, f"fs.scatter.{result.key}.{when}")
