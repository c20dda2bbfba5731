"""AppTest of the Learn page's captions: each claim is checked against the numbers beside it
(issue 13), and the multi-class MSP section agrees with the binary MSP at k = 2 (issue 14)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from clustering.metrics import chebyshev_fraction

LEARN = str(Path(__file__).resolve().parents[1] / "pages" / "5_Learn.py")
SMALL = {"data": "synthetic:two_gaussians", "gen": "n_samples=120;n_features=3"}


@pytest.fixture(scope="module")
def learn():
    at = AppTest.from_file(LEARN, default_timeout=180)
    for key, value in SMALL.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    return at


def caption(at, start: str) -> str:
    return next(c.value for c in at.caption if c.value.startswith(start))


def frame(at, column: str):
    return next(d.value for d in at.dataframe if column in d.value.columns)


def test_the_labelings_caption_names_the_largest_msp_of_its_table(learn):
    table = frame(learn, "MSP").set_index("labeling")["MSP"]
    note = caption(learn, "The largest MSP here")
    value = float(re.search(r"\(([\d.]+)\)", note).group(1))
    assert value == pytest.approx(table.max(), abs=5e-4)
    if "MSPC's search found" in note:
        assert table.idxmax() == "MSPC (MPM) clustering"
    else:
        assert f"the {table.idxmax()}'s" in note
    random = float(re.search(r"random labeling's MSP is ([\d.]+)", note).group(1))
    assert random == pytest.approx(table["random labeling"], abs=5e-4)
    assert ("near 0" in note) == (table["random labeling"] < 0.1)


def test_the_theorem_5_caption_matches_its_numbers(learn):
    note = caption(learn, "At ρ =")
    rho, guarantee = re.search(r"At ρ = ([\d.]+) the theorem guarantees (\d+)%", note).groups()
    figure_title = next(
        c.proto.spec for c in learn.get("plotly_chart") if c.proto.id.endswith("learn.t5.hist")
    )
    msp = float(re.search(r"Theorem 5 \(MSP ([\d.]+)", figure_title).group(1))
    assert int(guarantee) == round(100 * chebyshev_fraction(msp, float(rho)))
    observed = [int(v) for v in re.findall(r"(\d+)%", note.split("the sample has")[1])]
    holds = min(observed) >= int(guarantee)
    assert ("it holds" in note) == holds
    count, total = re.search(r"Over the (\d+) values .* it holds at (\d+)", note).groups()[::-1]
    assert int(count) <= int(total) == 21


def test_multiclass_section_equals_the_binary_msp_at_two_clusters(learn):
    rows = frame(learn, "MSP_k")
    two = rows[rows["k"] == 2]
    assert len(two) >= 1
    # the binary column is text (four decimals; a dash for k > 2)
    assert (two["MSP_k"] - two["binary MSP (k = 2)"].astype(float)).abs().max() < 1e-4
    note = caption(learn, "For the two-cluster labeling")
    assert "MSP_k equals the binary MSP" in note
    for _, row in rows[rows["k"] > 2].iterrows():
        assert f"{row['MSP_k']:.4f} at k = {row['k']}" in note
