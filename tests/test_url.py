"""The link decoder (:mod:`ui.url`): every key checked against its declared range or choices.

Garbage in any known key never raises; it is left at its default with a warning naming the
key and the accepted range. Valid links round-trip through :func:`ui.url.encode`.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clustering import ALGORITHMS
from clustering._lam import LAM_RANGE
from datasets.synthetic import GENERATORS
from ui import url
from ui.model import DataChoice

KEYS = ("data", "gen", "norm", "algos", "lam", "reg", "ap", "scale", "view")

#: The links of issue 12 ("Links"), each with the key its warning must name.
CORPUS = [
    ({"data": "synthetic:two_gaussians", "gen": "n_samples=inf"}, "gen"),
    ({"algos": "kmeans", "ap": "kmeans.n_init=1e9"}, "ap"),
    ({"algos": "kmeans", "ap": "kmeans.n_init=-3"}, "ap"),
    ({"algos": "spectral", "ap": "spectral.n_neighbors=100000"}, "ap"),
    ({"algos": "mvc-soft", "ap": "mvc-soft.n_neighbors=0"}, "ap"),
    ({"algos": "diffrac", "ap": "diffrac.max_samples=100000"}, "ap"),
    ({"data": "synthetic:two_gaussians", "gen": "n_samples=100000;n_features=500"}, "gen"),
    ({"lam": "1e999"}, "lam"),
    ({"norm": "maybe", "data": "breast"}, "norm"),
    ({"view": "features:a,b"}, "view"),
    ({"scale": "99999999999999999999:2"}, "scale"),
    ({"data": "no_such_data"}, "data"),
]

garbage = st.one_of(
    st.text(max_size=40),
    st.sampled_from(
        [
            "inf",
            "-inf",
            "nan",
            "1e999",
            "-1e999",
            "1e308",
            "0",
            "-1",
            "99999999999999999999",
            "1e9",
            ":",
            ",",
            ";",
            "=",
            "..",
            "features:",
            "features:1",
            "synthetic:",
            " ",
            "\x00",
        ]
    ),
    st.floats(allow_nan=True, allow_infinity=True).map(str),
    st.integers().map(str),
)


def _known_targets() -> list[str]:
    ap = [f"{k}.{p.name}" for k, s in ALGORITHMS.items() for p in s.params]
    gen = [f"{k}:{p.name}" for k, s in GENERATORS.items() for p in s.params]
    return ap + gen


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.sampled_from(KEYS), garbage, max_size=len(KEYS)))
def test_garbage_in_every_key_never_raises(query):
    decoded = url.decode(query)
    assert isinstance(decoded, url.Decoded)
    for w in decoded.warnings:
        assert w.startswith("Ignored the link's `")
    if decoded.lam is not None:
        assert LAM_RANGE[0] <= decoded.lam <= LAM_RANGE[1]


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(_known_targets()), garbage)
def test_garbage_parameter_values_are_checked_against_the_param(target, value):
    if ":" in target:
        key, name = target.split(":")
        query = {"data": f"synthetic:{key}", "gen": f"{name}={value}"}
        decoded = url.decode(query)
        params = {p.name: p for p in GENERATORS[key].params}
        got = decoded.data.param_dict
    else:
        key, name = target.rsplit(".", 1)
        decoded = url.decode({"ap": f"{key}.{name}={value}"})
        params = {p.name: p for p in ALGORITHMS[key].params}
        got = decoded.params.get(key, {})
    param = params[name]
    if name in got:  # accepted: inside the declared range/choices
        v = got[name]
        if param.kind == "choice":
            assert v in param.choices
        elif param.kind in ("int", "float"):
            assert math.isfinite(v)
            assert param.low is None or v >= param.low
            assert param.high is None or v <= param.high
    else:  # refused: a warning names the key and says what is accepted
        assert any("accepted" in w for w in decoded.warnings), decoded.warnings


@pytest.mark.parametrize(("query", "key"), CORPUS)
def test_issue_12_links_warn_and_fall_back(query, key):
    decoded = url.decode(query)
    named = [w for w in decoded.warnings if w.startswith(f"Ignored the link's `{key}`")]
    assert named, decoded.warnings
    assert "accepted" in named[0]


def test_regression_values_fall_back_to_defaults():
    d = url.decode({"data": "synthetic:two_gaussians", "gen": "n_samples=inf"})
    assert d.data == DataChoice.make("synthetic", "two_gaussians", {})
    d = url.decode({"algos": "kmeans", "ap": "kmeans.n_init=1e9", "lam": "1e999"})
    assert d.algorithms == ["kmeans"] and d.params == {} and d.lam is None
    d = url.decode({"data": "no_such_data", "reg": "diag"})
    assert d.data is None and d.regularizer == "diag"


def test_a_valid_state_round_trips():
    choice = DataChoice.make("synthetic", "two_gaussians", {"n_samples": 300}, False)
    algos = [k for k in ("kmeans", "mspc-mpm") if k in ALGORITHMS]
    params = {"mspc-mpm": {"init": "eig"}} if "mspc-mpm" in ALGORITHMS else {}
    text = url.encode(choice, algos, 0.01, "identity", params, {3: 16.0}, "features:0,2")
    d = url.decode(text)
    assert d.warnings == []
    assert (d.data, d.algorithms, d.lam, d.regularizer) == (choice, algos, 0.01, "identity")
    assert (d.params, d.scale, d.view) == (params, {3: 16.0}, "features:0,2")


AppTest = pytest.importorskip("streamlit.testing.v1").AppTest
CLUSTER = str(Path(__file__).resolve().parents[1] / "pages" / "2_Cluster.py")


@pytest.mark.parametrize(
    "query",
    [
        {"data": "synthetic:two_gaussians", "gen": "n_samples=inf", "algos": "kmeans"},
        {
            "algos": "kmeans",
            "ap": "kmeans.n_init=1e9",
            "lam": "1e999",
            "view": "features:a,b",
            "scale": "99999999999999999999:2",
            "norm": "maybe",
        },
    ],
)
def test_the_cluster_page_opens_with_a_warning_on_a_bad_link(query):
    at = AppTest.from_file(CLUSTER, default_timeout=120)
    for k, v in query.items():
        at.query_params[k] = v
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    warnings = " ".join(w.value.replace("\\", "") for w in at.warning)  # escaped by plain()
    assert "Ignored the link's" in warnings


def test_lam_policy_agrees_with_every_estimator_that_has_lam():
    from clustering._lam import DEFAULT_LAM

    for key, spec in ALGORITHMS.items():
        for p in spec.params:
            if p.name == "lam" and key.startswith("mspc"):
                assert (p.low, p.high) == LAM_RANGE, key
                assert p.default == DEFAULT_LAM, key


def test_rho_and_the_lecture_step_round_trip_and_bad_values_are_named():
    from ui.model import default_data_choice

    base = dict(
        choice=default_data_choice(),
        algorithms=["kmeans"],
        lam=0.2,
        regularizer="diag",
        params={},
        scale={},
        view="pca",
    )
    for rho, step in ((0.3, 4), (0.0, 1), (1.0, 7)):
        query = url.encode(**base, rho=rho, lecture_step=step)
        back = url.decode(query)
        assert (back.rho, back.lecture_step, back.warnings) == (rho, step, [])
    # The defaults stay out of the link: ρ = 0.5 and no Lecture.
    assert not {"rho", "step"} & set(url.encode(**base))
    # Off the grid, ρ snaps to it; outside the ranges, each key is named with what it accepts.
    assert url.decode({"rho": "0.33"}).rho == 0.35
    bad = url.decode({"rho": "1.5", "step": "8"})
    assert bad.rho is None and bad.lecture_step is None
    assert any("`rho`" in w and "[0, 1]" in w for w in bad.warnings), bad.warnings
    assert any("`step`" in w and "between 1 and 7" in w for w in bad.warnings), bad.warnings


def test_every_lecture_step_opens_an_existing_page_with_a_link_the_decoder_accepts():
    from ui import lecture
    from ui.demos import afs_preset_factors

    root = Path(__file__).resolve().parents[1]
    for number, step in enumerate(lecture.STEPS, start=1):
        assert (root / step.page).exists(), step.page
        decoded = url.decode(step.query(number))
        assert decoded.warnings == [], (step.title, decoded.warnings)
        assert decoded.lecture_step == number
        assert lecture.step_url(number).startswith(f"{step.url_path}?")
    # The first step is the AFS trap broken as Home's demo breaks it (noise x10).
    first = url.decode(lecture.STEPS[0].query(1))
    assert first.scale == afs_preset_factors("break", ["signal", "noise"])


def test_the_lecture_step_across_tasks_opens_the_msp_page_on_that_view():
    from lab.experiments import protocols
    from ui import analysis, lecture

    (number,) = [n for n, s in enumerate(lecture.STEPS, 1) if s.page.endswith("MSP_vs_accuracy.py")]
    query = lecture.STEPS[number - 1].query(number)
    # The page's own parameters (read by ui.analysis.seed_view and state.url_seed): the view
    # across tasks (the paper's Figs. 2-3), MSPC (MPM), the held-out MSP on the x axis.
    assert query["fam"] == "tasks" and "tasks" in analysis.VIEWS
    assert query["method"] == "mspc-mpm"
    assert query["axis"] == "msp_heldout" and query["axis"] in protocols.SCORES
    link = lecture.step_url(number)
    assert "fam=tasks" in link and "axis=msp_heldout" in link and f"step={number}" in link
