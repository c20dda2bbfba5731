"""AppTest: the Reproduce page renders every experiment (issue 13 item 7)."""

from __future__ import annotations

from pathlib import Path

import pytest

from clustering.experiments import EXPERIMENTS
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
    at = AppTest.from_file(APP, default_timeout=180)
    at.run()
    at.switch_page("pages/6_Reproduce.py")
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    box = at.selectbox(key="repro.experiment")
    names = [*EXPERIMENTS, "multiclass"]
    assert [EXPERIMENTS[n].title for n in EXPERIMENTS] == list(box.options)[: len(EXPERIMENTS)]
    assert len(box.options) == len(names)
    for name in names:
        at.selectbox(key="repro.experiment").set_value(name).run()
        assert not at.exception, (name, [e.message for e in at.exception])
        assert not at.error, (name, [e.value for e in at.error])
        # Tidy tables, no raw JSON and no registry keys as column names.
        frames = at.dataframe
        assert frames, name
        for frame in frames:
            values = frame.value.astype(str)
            assert not values.apply(lambda c: c.str.startswith('{"')).any().any(), name
            assert "mspc-mpm" not in list(frame.value.columns), name
