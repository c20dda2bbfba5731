"""The layers: pages import only ``ui`` and the public names of ``clustering``, ``datasets``
and ``lab``; ``clustering`` is the library alone (no Streamlit, plotly, ``datasets``, ``lab``
or ``ui``); ``datasets`` and ``lab`` never import Streamlit or ``ui``; and no two modules of
the project import each other, directly or through others, counting imports inside
functions."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

from tests.conftest import packages_loaded_by

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
    loaded = packages_loaded_by("import clustering, clustering.metrics, clustering.msp_multiclass")
    assert not loaded & {"plotly", "streamlit", "datasets", "lab", "ui"}, sorted(loaded)


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


# ---- the architecture's rules (ARCHITECTURE.md), each checked here --------------------------


def _calls_on(path: Path, name: str) -> list[int]:
    """Lines of ``path`` that use an attribute of the module bound to ``name``."""
    return [
        node.lineno
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == name
    ]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_pages_compute_nothing_with_numpy(page):
    # Pages lay out widgets and figures; arrays are computed in ui/ (cached) or the backend.
    imported = [module for module, _ in _imports(page) if module.split(".")[0] == "numpy"]
    assert not imported, f"{page.name} imports numpy: move the computation to ui/ or lab/"
    assert not _calls_on(page, "np"), f"{page.name} calls np. on lines {_calls_on(page, 'np')}"


def test_links_are_read_and_written_only_by_ui_state_and_decoded_only_by_ui_url():
    # ui/url.py decodes and validates every link parameter; ui/state/_links.py alone reads and
    # writes st.query_params and hands them to it.
    links = ROOT / "ui" / "state" / "_links.py"
    codec = ROOT / "ui" / "url.py"
    files = [*PAGES, *sorted((ROOT / "ui").rglob("*.py")), *sorted((ROOT / "lab").rglob("*.py"))]
    assert links in files and codec in files
    for path in files:
        tree = ast.parse(path.read_text())
        attributes = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
        if path != links:
            assert "query_params" not in attributes, f"{path.relative_to(ROOT)} reads the URL"
        if path not in (links, codec):
            decoders = [
                n.attr
                for n in ast.walk(tree)
                if isinstance(n, ast.Attribute)
                and isinstance(n.value, ast.Name)
                and n.value.id == "url"
                and n.attr.startswith("decode")
            ]
            decoders += [
                a.name
                for n in ast.walk(tree)
                if isinstance(n, ast.ImportFrom) and (n.module or "").endswith("url")
                for a in n.names
                if a.name.startswith("decode")
            ]
            assert not decoders, f"{path.relative_to(ROOT)} decodes a link: {decoders}"


#: A colour as plotly and CSS read it: a hex code, an rgb/rgba/hsl/hsla function, one of the
#: 148 CSS colour names on its own, or a CSS declaration naming one (``color: white``).
_HEX_COLOUR = re.compile(r"#(?:[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})\b|^#[0-9A-Fa-f]{3,4}$")
_COLOUR_FUNCTION = re.compile(r"\b(?:rgba?|hsla?)\s*\(", re.IGNORECASE)
_CSS_DECLARATION = re.compile(
    r"\b(?:colou?r|background|fill|stroke|border|outline)[\w-]*\s*:\s*([A-Za-z]+)", re.IGNORECASE
)


def _named_colours() -> frozenset[str]:
    from _plotly_utils.basevalidators import ColorValidator

    return frozenset(name.lower() for name in ColorValidator.named_colors)


def _colours_in(text: str, names: frozenset[str]) -> list[str]:
    found = [m.group(0) for m in _HEX_COLOUR.finditer(text)]
    found += [m.group(0) for m in _COLOUR_FUNCTION.finditer(text)]
    found += [m.group(0) for m in _CSS_DECLARATION.finditer(text) if m.group(1).lower() in names]
    if text.strip().lower() in names:
        found.append(text)
    return found


#: Files other than lab/plots/style.py that may spell colours, and why.
COLOURS_ELSEWHERE = {
    "ui/chart/chart.js": "Streamlit's theme colours (read from its CSS variables, with these "
    "fallbacks) replace the plotly template's placeholder colours in the browser",
}


def test_colours_are_spelled_only_in_the_style_module():
    # lab/plots/style.py owns every colour (the methods' and the neutral ones); the figures,
    # the experiments and the pages name them from there. Any spelling counts: hex, rgb(a),
    # hsl(a), a CSS colour name ("white") or a CSS declaration naming one.
    names = _named_colours()
    assert {"white", "black", "grey", "red"} <= names
    style = ROOT / "lab" / "plots" / "style.py"
    packages = ("ui", "lab", "clustering", "datasets")
    files = [*PAGES, *(p for pkg in packages for p in sorted((ROOT / pkg).rglob("*.py")))]
    assert style in files
    for path in files:
        if path == style:
            continue
        colours = [
            (node.lineno, colour)
            for node in ast.walk(ast.parse(path.read_text()))
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            for colour in _colours_in(node.value, names)
        ]
        assert not colours, f"{path.relative_to(ROOT)} spells colours {colours}: use style.py"
    others = [p for pkg in ("ui", "pages", "lab") for p in sorted((ROOT / pkg).rglob("*"))]
    for path in others:
        name = path.relative_to(ROOT).as_posix()
        if path.suffix in (".py", ".pyc", ".csv", ".json", ".md") or not path.is_file():
            continue
        if name in COLOURS_ELSEWHERE:
            continue
        colours = [c for line in path.read_text().splitlines() for c in _colours_in(line, names)]
        assert not colours, f"{name} spells colours {colours[:5]}: use style.py"
    assert all((ROOT / name).is_file() for name in COLOURS_ELSEWHERE)


def test_the_colour_rule_sees_every_way_of_spelling_a_colour():
    names = _named_colours()
    for spelled in ("#fff", "#1f77b4", "#1F77B4CC", "white", " Grey", "rgba(255,255,255,0.8)",
                    "rgb(0, 0, 0)", "hsl(120, 50%, 50%)", "background-color: white",
                    "<span style='color:red'>x</span>"):  # fmt: skip
        assert _colours_in(spelled, names), spelled
    for plain in ("issue #12", "width", "a white labeling", "colour", "#notacolour", "r = 0.9"):
        assert not _colours_in(plain, names), plain


_CLOCKS = {"time", "monotonic", "perf_counter", "process_time", "thread_time", "time_ns"}


def _reads_a_clock(node: ast.AST) -> bool:
    return any(
        isinstance(n, ast.Call)
        and isinstance(n.func, ast.Attribute)
        and n.func.attr in _CLOCKS
        and isinstance(n.func.value, ast.Name)
        and n.func.value.id in ("time", "timeit")
        for n in ast.walk(node)
    )


def timed_assertions(source: str) -> list[int]:
    """Lines of ``assert`` statements that compare a duration read from the clock: the
    clock called in the assertion, or a name the same function set from the clock."""
    lines = []
    for function in ast.walk(ast.parse(source)):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef | ast.Module):
            continue
        timed = {
            target.id
            for node in ast.walk(function)
            if isinstance(node, ast.Assign) and _reads_a_clock(node.value)
            for target in node.targets
            if isinstance(target, ast.Name)
        }
        for node in ast.walk(function):
            if isinstance(node, ast.Assert) and (
                _reads_a_clock(node.test)
                or any(isinstance(n, ast.Name) and n.id in timed for n in ast.walk(node.test))
            ):
                lines.append(node.lineno)
    return sorted(set(lines))


def test_no_test_asserts_on_the_wall_clock():
    # Speed is measured by the scripts in bench/ (run by hand, results in bench/RESULTS.md):
    # a test that fails because the shared machine is busy says nothing about the code.
    timed = {
        path.name: lines
        for path in sorted((ROOT / "tests").glob("*.py"))
        if (lines := timed_assertions(path.read_text()))
    }
    assert not timed, f"timed assertions (move them to bench/): {timed}"
    direct = ("import time", "def test_x():", "    t0 = time.perf_counter()",
              "    assert time.perf_counter() - t0 < 1")  # fmt: skip
    assert timed_assertions("\n".join(direct)) == [4]
    named = ("import time", "def test_x():", "    t0 = time.monotonic()",
             "    s = time.monotonic() - t0", "    assert s < 2")  # fmt: skip
    assert timed_assertions("\n".join(named)) == [5]


MAX_LINES = 600


def test_every_module_is_at_most_600_lines():
    files = [*PAGES, *(p for pkg in PACKAGES for p in sorted((ROOT / pkg).rglob("*.py")))]
    too_long = {
        str(path.relative_to(ROOT)): n
        for path in files
        if (n := len(path.read_text().splitlines())) > MAX_LINES
    }
    assert not too_long, f"split these modules (limit {MAX_LINES} lines): {too_long}"
