"""The Data page's lesson: the figure shows the largest and the smallest spread, and the
verdict under it states exactly those two and their ratio, on every bundled data set, raw
and scaled to [-1, 1]."""

from __future__ import annotations

import re

import numpy as np
import pytest

import datasets
from lab import plots


@pytest.mark.parametrize("normalize", [False, True])
@pytest.mark.parametrize("name", [*datasets.list_datasets("tasks"), "synthetic:afs_trap"])
def test_the_verdict_states_the_figures_largest_and_smallest_spread(name, normalize):
    if name.startswith("synthetic:"):
        ds = datasets.synthetic.make(name.split(":", 1)[1])
    else:
        ds = datasets.load(name, normalize=normalize)
    table = ds.feature_statistics()
    spreads = plots.shown_spreads(table["feature"], table["std"])
    fig = plots.feature_spread_figure(spreads)
    (bars,) = fig.data
    drawn = np.asarray(bars.x, dtype=float)
    assert len(drawn) <= plots.MOST_FEATURES
    assert drawn.max() == pytest.approx(table["std"].max())
    assert drawn.min() == pytest.approx(table["std"].min())
    sentence = plots.spread_sentence(spreads)
    top = table.loc[table["std"].idxmax(), "feature"]
    low = table.loc[table["std"].idxmin(), "feature"]
    assert f"'{top}'" in sentence and f"'{low}'" in sentence
    if table["std"].min() > 0 and len(table) > 1:
        ratio = table["std"].max() / table["std"].min()
        stated = re.search(r"a factor of ([\d,.]+)", sentence).group(1).replace(",", "")
        assert float(stated) == pytest.approx(ratio, rel=0.01)
        # The axis is logarithmic exactly when the spreads span more than LOG_RATIO.
        assert (fig.layout.xaxis.type == "log") == (ratio > plots.LOG_RATIO)
