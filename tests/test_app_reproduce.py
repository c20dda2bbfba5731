"""AppTest: the Reproduce page renders every experiment (issue 13 item 7)."""

from __future__ import annotations

from pathlib import Path

import pytest

from lab.experiments import EXPERIMENTS
from ui.reproduce import blocks, params_text

AppTest = pytest.importorskip("streamlit.testing.v1").AppTest

APP = str(Path(__file__).resolve().parents[1] / "app.py")


def test_markdown_tables_become_tidy_frames_without_json():
    md = (
        "Intro.\n\n| task | mspc-mpm | params |\n|---|---|---|\n"
        '| a | 1 \\| 2 | {"lam": 0.1} |\n\nEnd.'
    )
    out = blocks(md)
    assert [k for k, _ in out] == ["text", "table", "text"]
    table = out[1][1]
    assert list(table.columns) == ["task", "MSPC (MPM)", "params"]
    assert table.iloc[0].tolist() == ["a", "1 | 2", "lam = 0.1"]
    assert params_text("{}") == "defaults"


def test_reproduce_page_renders_every_experiment():
    from ui.reproduce import short_title

    at = AppTest.from_file(APP, default_timeout=180)
    at.run()
    at.switch_page("pages/6_Reproduce.py")
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    box = at.selectbox(key="repro.experiment")
    names = list(EXPERIMENTS)
    assert "multiclass" in names
    # The narrow control names each experiment by its paper and table; the caption under
    # it gives the full title.
    shorts = [short_title(EXPERIMENTS[n].title) for n in EXPERIMENTS]
    assert shorts == list(box.options)[: len(EXPERIMENTS)]
    assert len(box.options) == len(names) == len(set(shorts))
    for name in names:
        at.selectbox(key="repro.experiment").set_value(name).run()
        assert not at.exception, (name, [e.message for e in at.exception])
        assert any(c.value == EXPERIMENTS[name].title for c in at.caption), name
        assert not at.error, (name, [e.value for e in at.error])
        # Tidy tables, no raw JSON and no registry keys as column names.
        # (a table wider than the page is a wrapping st.table)
        frames = [*at.dataframe, *at.table]
        assert frames, name
        for frame in frames:
            values = frame.value.astype(str)
            assert not values.apply(lambda c: c.str.startswith('{"')).any().any(), name
            assert "mspc-mpm" not in list(frame.value.columns), name


def test_experiment_figures_use_one_colour_and_name_per_method():
    from clustering import ALGORITHMS
    from lab.experiments import PUBLISHED_DIR, load_stored
    from lab.plots import apply_method_style, method_color

    names = {spec.name: key for key, spec in ALGORITHMS.items()}
    for experiment in EXPERIMENTS:
        result = load_stored(experiment, PUBLISHED_DIR)
        if result is None:
            continue
        for fig in EXPERIMENTS[experiment].figures(result):
            apply_method_style(fig)
            colour_of: dict[str, str] = {}
            for trace in fig.data:
                assert trace.name not in ALGORITHMS, (experiment, trace.name)  # no raw keys
                base = next((n for n in names if str(trace.name).startswith(n)), None)
                if base is None:
                    continue
                colour = trace.marker.color if trace.type == "bar" else trace.line.color
                assert colour == method_color(names[base]), (experiment, trace.name)
                colour_of.setdefault(base, colour)
            # Different methods never share a colour within a figure.
            assert len(set(colour_of.values())) == len(colour_of), (experiment, colour_of)
            assert fig.layout.legend.x >= 1  # the legend sits right of the plot area
