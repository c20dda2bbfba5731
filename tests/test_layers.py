"""The layers: pages import only ``ui`` and the public names of ``clustering``, ``datasets``
and ``lab``; ``clustering`` is the library alone (no Streamlit, plotly, ``datasets``, ``lab``
or ``ui``); ``datasets`` and ``lab`` never import Streamlit or ``ui``; and no two modules of
the project import each other, directly or through others, counting imports inside
functions."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PROJECT = {"ui", "clustering", "datasets", "lab", "pages", "app", "bench", "tests"}
PACKAGES = ("clustering", "datasets", "lab", "ui")
PAGES = sorted((ROOT / "pages").glob("*.py")) + [ROOT / "app.py"]


def _imports(path: Path) -> list[tuple[str, list[str]]]:
    """``(module, names)`` of every import in ``path`` (names empty for ``import m``)."""
    out = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out.extend((a.name, []) for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.append((node.module, [a.name for a in node.names]))
    return out


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_pages_import_only_ui_and_public_backend_names(page):
    for module, names in _imports(page):
        top = module.split(".")[0]
        if top not in PROJECT:
            continue  # the standard library, Streamlit, numpy, pandas, plotly
        assert top in ("ui", "clustering", "datasets", "lab"), f"{page.name} imports {module}"
        if top == "ui":
            continue
        parts = module.split(".") + names
        private = [p for p in parts if p.startswith("_") and p != "__future__"]
        assert not private, f"{page.name} imports private {module}: {names}"


@pytest.mark.parametrize("package", ["clustering", "datasets", "lab"])
def test_backend_never_imports_streamlit_or_ui(package):
    for path in (ROOT / package).rglob("*.py"):
        for module, _ in _imports(path):
            top = module.split(".")[0]
            assert top not in ("streamlit", "ui"), f"{path.relative_to(ROOT)} imports {module}"


def test_the_library_imports_nothing_of_the_lab():
    # clustering/ is what a researcher installs for MSPC: no plotting, no data sets, no lab.
    for path in (ROOT / "clustering").rglob("*.py"):
        for module, _ in _imports(path):
            top = module.split(".")[0]
            assert top not in ("plotly", "streamlit", "datasets", "lab", "ui", "kaleido"), (
                f"{path.relative_to(ROOT)} imports {module}"
            )


def test_import_clustering_loads_neither_plotly_nor_streamlit():
    code = (
        "import sys, clustering, clustering.metrics, clustering.model_selection\n"
        "print(sorted({m.split('.')[0] for m in sys.modules}"
        " & {'plotly', 'streamlit', 'datasets', 'lab', 'ui'}))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]", out.stdout


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _project_modules() -> dict[str, Path]:
    return {
        _module_name(path): path for pkg in PACKAGES for path in sorted((ROOT / pkg).rglob("*.py"))
    }


def _import_graph() -> dict[str, set[str]]:
    """Module -> the project modules it imports, anywhere in its body (relative imports
    resolved; ``from pkg import name`` points at ``pkg.name`` when that is a module)."""
    modules = _project_modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        edges = set()
        for node in ast.walk(ast.parse(path.read_text())):
            targets = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parent = package.split(".")
                    parent = parent[: len(parent) - (node.level - 1)]
                    base = ".".join([*parent, *([base] if base else [])])
                subs = [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in modules]
                targets = subs or [base]
            for target in targets:
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    edges.add(target)
        graph[name] = edges
    return graph


def test_no_import_cycle_counting_imports_inside_functions():
    graph = _import_graph()
    cycles, index, low, stack, on_stack = [], {}, {}, [], set()

    def strongconnect(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                strongconnect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    sys.setrecursionlimit(10_000)
    for v in graph:
        if v not in index:
            strongconnect(v)
    assert not cycles, f"import cycles: {cycles}"


def test_ui_state_and_cache_do_not_import_each_other():
    cache = {m for m, names in _imports(ROOT / "ui" / "cache.py")}
    url = {m for m, names in _imports(ROOT / "ui" / "url.py")}
    assert not any(m.endswith("state") for m in cache | url)
    for m, names in _imports(ROOT / "ui" / "cache.py") + _imports(ROOT / "ui" / "url.py"):
        assert "state" not in names, m


def test_only_ui_state_touches_the_session():
    owner = ROOT / "ui" / "state"  # the package ui.state: its modules own the session keys
    files = [*PAGES, *sorted((ROOT / "ui").rglob("*.py"))]
    assert any(owner in p.parents for p in files)  # the owner is there, and is skipped below
    for path in files:
        if owner in path.parents:
            continue
        assert "session_state" not in path.read_text(), f"{path.relative_to(ROOT)}"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_pages_draw_figures_only_through_the_presenter_helper(page):
    # ui.presenter.chart keeps presenter mode's slides; a direct plotly_chart would be missed.
    calls = [
        node.lineno
        for node in ast.walk(ast.parse(page.read_text()))
        if isinstance(node, ast.Attribute) and node.attr == "plotly_chart"
    ]
    assert not calls, f"{page.name} calls plotly_chart on lines {calls}: use presenter.chart"


def _icon_arguments(path: Path):
    """``(line, keyword, value)`` of every string literal passed as ``icon`` or
    ``page_icon`` in ``path``."""
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call):
            for kw in node.keywords:
                if kw.arg in ("icon", "page_icon") and isinstance(kw.value, ast.Constant):
                    if isinstance(kw.value.value, str):
                        yield node.lineno, kw.arg, kw.value.value


@pytest.mark.parametrize(
    "path", [*PAGES, *sorted((ROOT / "ui").rglob("*.py"))], ids=lambda p: p.name
)
def test_icons_are_material_icons_not_emoji(path):
    # An emoji icon makes Streamlit load its emoji catalog, 0.42 s at its first use in a
    # server process: the first error box, or the first visit of a page, took that much
    # longer. Material icons (":material/name:") need no catalog.
    emoji = [
        (line, arg, value) for line, arg, value in _icon_arguments(path) if not value.isascii()
    ]
    assert not emoji, f"{path.name}: emoji icons {emoji}; use ':material/<name>:' icons"
