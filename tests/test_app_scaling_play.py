"""AppTest of Feature scaling's presets and play control: the buttons set the factors
through the state, the animation has one frame per factor with accuracy and MSP in each
title, and the caption under it agrees with those frames."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import unescaped

AppTest = pytest.importorskip("streamlit.testing.v1").AppTest

PAGE = str(Path(__file__).resolve().parents[1] / "pages" / "3_Feature_scaling.py")
TIMEOUT = 240
#: The AFS trap (features 'signal', 'noise') with k-means and MSPC from the standardised start.
AFS = {
    "data": "synthetic:afs_trap",
    "gen": "n_samples=120",
    "norm": "0",
    "algos": "kmeans,mspc-mpm",
    "ap": "mspc-mpm.init=kmeans-standardized",
    "lam": "0.01",
}


def app(**query: str):
    at = AppTest.from_file(PAGE, default_timeout=TIMEOUT)
    for key, value in query.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def animation(at) -> dict:
    charts = [c for c in at.get("plotly_chart") if "fs.anim" in (c.proto.id or "")]
    assert len(charts) == 1
    return json.loads(charts[0].proto.spec)


def frame_accuracies(fig: dict) -> dict[str, list[tuple[float, float]]]:
    """{method: [(factor, accuracy), ...]} read from the frames' titles."""
    out: dict[str, list[tuple[float, float]]] = {}
    for frame in fig["frames"]:
        factor = float(frame["name"].lstrip("×"))
        title = frame["layout"]["title"]
        text = title["text"] if isinstance(title, dict) else title
        for name, acc in re.findall(r"([^:<>·]+?): accuracy ([0-9.]+), MSP", text):
            out.setdefault(name.strip(), []).append((factor, float(acc)))
    return out


def test_presets_set_the_factors_and_the_animation_tells_the_break():
    at = app(**AFS)
    assert at.button(key="fs.preset.break").disabled is False
    at.button(key="fs.preset.break").click().run()
    assert not at.exception, [e.message for e in at.exception]
    assert at.session_state["dcl.scale"] == {1: 10.0}
    assert at.select_slider(key="fs.factor.1").value == 10.0
    fig = animation(at)
    # The play control: 13 frames from x0.001 to x1000, a play button and a slider.
    names = [f["name"] for f in fig["frames"]]
    assert names[0] == "×0.001" and names[-1] == "×1000" and len(names) == 13
    assert fig["layout"]["updatemenus"][0]["buttons"][0]["method"] == "animate"
    assert len(fig["layout"]["sliders"][0]["steps"]) == 13
    acc = frame_accuracies(fig)
    km = dict(acc["k-means"])
    mspc = dict(acc["MSPC (MPM)"])
    assert km[1.0] - min(km.values()) >= 0.20  # growing 'noise' breaks k-means
    assert max(mspc.values()) - min(mspc.values()) < 0.005  # the invariant start stays
    caption = next(
        unescaped(c.value) for c in at.caption if c.value.startswith("The numbers of the frames")
    )
    low = min(km.values())
    assert f"k-means: accuracy {km[1.0]:.3f} at ×1, lowest {low:.3f}" in caption
    assert f"MSPC (MPM): accuracy {mspc[1.0]:.3f} in all 13 frames — it does not move" in caption

    at.button(key="fs.preset.rescue").click().run()
    assert not at.exception, [e.message for e in at.exception]
    assert at.session_state["dcl.scale"] == {0: 10.0, 1: 10.0}
    assert at.selectbox(key="fs.anim.feature").value == 0
    km = dict(frame_accuracies(animation(at))["k-means"])
    # With 'noise' x10, k-means is broken at signal x1 and rescued at large signal factors.
    assert km[1.0] < 0.75
    assert max(v for f, v in km.items() if f >= 10) > 0.95


def test_presets_say_why_they_are_missing_without_the_afs_features_and_play_waits_for_it():
    at = app(algos="kmeans", data="synthetic:two_gaussians", gen="n_samples=60")
    assert not [b for b in at.button if b.key and b.key.startswith("fs.preset.")]
    why = [c.value for c in at.caption if "need its 'signal' and 'noise' features" in c.value]
    assert why and "Break k-means" in why[0], [c.value for c in at.caption]
    on_afs = app(**AFS)
    assert not on_afs.button(key="fs.preset.break").disabled
    assert not [c for c in on_afs.caption if "need its 'signal' and 'noise'" in c.value]
    assert not [c for c in at.get("plotly_chart") if "fs.anim" in (c.proto.id or "")]
    at.selectbox(key="fs.anim.feature").set_value(0)
    at.button(key="fs.anim.run").click().run()
    assert not at.exception, [e.message for e in at.exception]
    fig = animation(at)
    assert len(fig["frames"]) == 13
    acc = frame_accuracies(fig)["k-means"]
    assert len(acc) == 13 and np.all(np.isfinite([a for _, a in acc]))


def test_before_after_scatters_name_their_axes_by_feature():
    at = app(**AFS, view="features:0,1")
    panels = [c for c in at.get("plotly_chart") if "fs.scatter" in (c.proto.id or "")]
    assert panels
    for c in panels:
        layout = json.loads(c.proto.spec)["layout"]
        assert (layout["xaxis"]["title"]["text"], layout["yaxis"]["title"]["text"]) == (
            "signal",
            "noise",
        )
