"""bench/ can be found in: bench/README.md maps every script to its question and to where
its answer is recorded, bench/RESULTS.md opens with an index of its sections, every link
between them lands on a heading, and every public function of a bench script says what it
does."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "bench"
INDEX_START, INDEX_END = "<!-- index -->", "<!-- /index -->"


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading (without the suffix of a repeated one)."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def headings(markdown: str) -> list[tuple[int, str, str]]:
    """``(level, text, anchor)`` of every heading outside code blocks, anchors numbered as
    GitHub numbers repeated ones."""
    found, seen, in_code = [], {}, False
    for line in markdown.splitlines():
        if line.startswith("```"):
            in_code = not in_code
        match = None if in_code else re.match(r"(#{1,6}) (.*)", line)
        if match:
            text = match.group(2).strip()
            base = slug(text)
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.append((len(match.group(1)), text, base if count == 0 else f"{base}-{count}"))
    return found


def results_index(markdown: str) -> str:
    """The index RESULTS.md opens with: every section and subsection, linked."""
    lines = [INDEX_START, ""]
    for level, text, anchor in headings(markdown):
        if level in (2, 3):
            label = text.replace("[", "(").replace("]", ")")
            lines.append(f"{'  ' * (level - 2)}- [{label}](#{anchor})")
    return "\n".join([*lines, "", INDEX_END])


def _scripts() -> list[str]:
    return sorted(p.name for p in BENCH.glob("*.py") if p.name != "__init__.py")


def test_results_opens_with_an_index_of_every_section():
    text = (BENCH / "RESULTS.md").read_text(encoding="utf-8")
    assert INDEX_START in text and INDEX_END in text
    block = text[text.index(INDEX_START) : text.index(INDEX_END) + len(INDEX_END)]
    expected = results_index(text)
    assert block == expected, "bench/RESULTS.md's index is stale; replace it with:\n" + expected


def test_every_bench_script_is_in_the_readme_with_where_its_answer_is():
    readme = (BENCH / "README.md").read_text(encoding="utf-8")
    rows = {
        m.group(1): line
        for line in readme.splitlines()
        if (m := re.match(r"\| `(\w+\.py)` \|", line))
    }
    assert set(rows) == set(_scripts()), set(rows) ^ set(_scripts())
    for name, row in rows.items():
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert len(cells) == 5 and all(cells), name  # script, question, answer, date, run


def test_every_link_to_results_lands_on_a_heading():
    anchors = {a for _, _, a in headings((BENCH / "RESULTS.md").read_text(encoding="utf-8"))}
    for doc in ("README.md", "RESULTS.md"):
        text = (BENCH / doc).read_text(encoding="utf-8")
        target = "" if doc == "RESULTS.md" else "RESULTS.md"
        links = re.findall(rf"\]\({re.escape(target)}#([^)]+)\)", text)
        assert links, doc
        assert not set(links) - anchors, (doc, sorted(set(links) - anchors))


def test_every_public_bench_function_says_what_it_does():
    undocumented = []
    for name in _scripts():
        tree = ast.parse((BENCH / name).read_text(encoding="utf-8"))
        assert ast.get_docstring(tree), f"bench/{name} has no module docstring"
        for node in tree.body:
            if isinstance(node, ast.FunctionDef | ast.ClassDef) and not node.name.startswith("_"):
                if not ast.get_docstring(node):
                    undocumented.append(f"{name}::{node.name}")
    assert not undocumented, undocumented


def test_the_index_helpers_number_repeated_headings_as_github_does():
    text = "## A — `b.py`\n## A — `b.py`\n```\n## not a heading\n```\n### λ (x, y)"
    assert [a for _, _, a in headings(text)] == ["a--bpy", "a--bpy-1", "λ-x-y"]
