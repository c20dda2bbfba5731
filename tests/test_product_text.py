"""What the lab ships speaks of the product only: the app, its pages, ``ui/``, ``lab/`` and
REPRODUCTION.md carry no trace of how the lab was built (issue numbers, the tree a change
started from, pages "added as they land"), and every page they link to exists."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = sorted(
    [ROOT / "app.py", ROOT / "REPRODUCTION.md"]
    + [p for folder in ("pages", "ui", "lab") for p in (ROOT / folder).rglob("*") if p.is_file()]
)
SHIPPED = [p for p in SHIPPED if p.suffix in (".py", ".md", ".js", ".css")]

#: Phrases that speak of the project's history or its developers, not of the product.
TRACES = {
    "an issue number": r"\bissues?\s*#?\d+",
    "the tree a change started from": r"\bstart(ing)? tree\b",
    "pages that may not exist yet": r"\b(as they land|not landed yet|once it lands)\b",
    "a note to developers": r"\b(TODO|FIXME|XXX)\b",
    "a commit of the project": r"\bcommit `?[0-9a-f]{7,40}\b",
    "an engineer or a work session": r"\b(engineers?|this session's changes|work session)\b",
}


@pytest.mark.parametrize("what", sorted(TRACES))
def test_nothing_shipped_speaks_of_how_the_lab_was_built(what):
    pattern = re.compile(TRACES[what], re.IGNORECASE)
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in SHIPPED
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
    assert not found, f"{what}: {found}"


def test_the_trace_patterns_find_what_they_are_for():
    examples = {
        "an issue number": "re-run (issue 24)",
        "the tree a change started from": "against the start tree",
        "pages that may not exist yet": "pages are added as they land",
        "a note to developers": "# TODO: later",
        "a commit of the project": "measured at commit `0e020a4`",
        "an engineer or a work session": "before this session's changes",
    }
    for what, text in examples.items():
        assert re.search(TRACES[what], text, re.IGNORECASE), what
    assert not re.search(TRACES["an issue number"], "the upload's issues are listed")


def test_every_page_the_app_links_to_exists():
    linked = set()
    for path in [ROOT / "app.py", *ROOT.glob("pages/*.py"), *ROOT.glob("ui/**/*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                linked.update(re.findall(r"pages/\d+_\w+\.py", node.value))
    assert len(linked) >= 5
    missing = sorted(p for p in linked if not (ROOT / p).is_file())
    assert not missing, missing


def test_the_held_out_tooltip_quotes_the_counts_reproduction_records():
    """The held-out MSP's tooltip says how often it agreed with the classes; the counts are
    the ones REPRODUCTION.md records for the real-data rounds (the classes rated above
    MSPC's labeling on ``above`` of ``differ`` pairs, r over ``total`` pairs)."""
    from ui.widgets import msp_help

    text = (ROOT / "REPRODUCTION.md").read_text(encoding="utf-8")
    m = re.search(
        r"over\s+all\s+(\d+)\s+pairs\s+of\s+the\s+five\s+rounds\s+(\d+)\s+of\s+(\d+),\s+r\s+=\s+([\d.]+)",
        text,
    )
    assert m, "REPRODUCTION.md no longer records the agreement over all real-data pairs"
    total, above, differ, r = int(m[1]), int(m[2]), int(m[3]), m[4]
    tip = " ".join(msp_help("msp_heldout").split())
    assert f"on {total} class pairs" in tip
    assert f"on {differ - above} of the {differ} pairs where the two differ" in tip
    assert f"r = {r}" in tip
