"""The λ a page shows is the λ its estimators are fitted with (issue 33): on Cluster,
Compare, Feature scaling and MSP vs accuracy, a λ set by the link reaches the slider, the
sentence naming every MSP's λ (:func:`ui.widgets.msp_note`), each fit's ``lam`` and the
λ its MSPs are computed with."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import assert_clean, run_page

ROOT = Path(__file__).resolve().parents[1]
#: Not the default λ (0.2), on the slider's grid.
LAM = 5.0
SMALL = {"data": "synthetic:two_gaussians", "gen": "n_samples=80;n_features=3", "norm": "1"}
#: Page, its λ slider's key, its link.
PAGES = [
    ("2_Cluster.py", "lam", {**SMALL, "algos": "kmeans,mspc-mpm"}),
    ("7_Compare.py", "lam", {**SMALL, "algos": "kmeans,mspc-mpm"}),
    ("3_Feature_scaling.py", "fs.lam", {**SMALL, "algos": "kmeans,mspc-mpm"}),
    ("4_MSP_vs_accuracy.py", "mva.lam", {**SMALL, "fam": "tasks"}),
]


class _Sequential:
    """joblib.Parallel in this process, so the Compare grid's fits are seen here."""

    def __init__(self, *args, **kwargs):
        pass

    def __call__(self, tasks):
        return [fn(*args, **kwargs) for fn, args, kwargs in tasks]


def _record_fits(monkeypatch) -> list[tuple[str, dict, float | None]]:
    """``(key, params, msp_lam)`` of every fit the page starts."""
    import joblib

    import lab.compare
    import ui.cache
    from lab.evaluation import fit_and_evaluate

    fits: list[tuple[str, dict, float | None]] = []

    def recording(key, params, X, y=None, **kwargs):
        fits.append((key, dict(params), kwargs.get("msp_lam")))
        return fit_and_evaluate(key, params, X, y, **kwargs)

    monkeypatch.setattr(ui.cache, "fit_and_evaluate", recording)
    monkeypatch.setattr(lab.compare, "fit_and_evaluate", recording)
    monkeypatch.setattr(joblib, "Parallel", _Sequential)
    return fits


@pytest.mark.parametrize(("page", "slider", "query"), PAGES, ids=[p[0] for p in PAGES])
def test_the_lam_a_page_shows_is_the_lam_its_estimators_are_fitted_with(
    monkeypatch, page, slider, query
):
    import streamlit as st

    from ui import shared

    st.cache_data.clear()
    shared.clear_all()
    fits = _record_fits(monkeypatch)
    at = run_page(str(ROOT / "pages" / page), timeout=300, lam=f"{LAM:g}", **query)
    assert_clean(at)
    shown = at.select_slider(key=slider).value
    assert float(shown) == LAM
    notes = [c.value for c in at.caption if "Every MSP" in c.value]
    notes += [m.help or "" for m in at.markdown if "Every MSP" in (m.help or "")]
    named = {float(v) for n in notes for v in re.findall(r"λ = ([0-9.e+-]+)", n)}
    assert named == {LAM}, notes
    with_lam = [f for f in fits if "lam" in f[1]]
    assert with_lam, "no fit with a λ ran"
    assert {f[1]["lam"] for f in with_lam} == {LAM}
    assert {f[2] for f in fits} == {LAM}  # every MSP shown, the methods without λ included
