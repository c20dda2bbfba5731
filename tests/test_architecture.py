"""ARCHITECTURE.md states what is so: every module, folder, function and test it names
exists where it says, every module of ``ui/`` and ``lab/`` is named, and the modules it
says read a fit's cost are the ones that do."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TEXT = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")

#: Where a file named without its folder is looked for (``mspc.py`` in ``clustering/``).
FOLDERS = (
    "",
    "clustering",
    "clustering/solvers",
    "datasets",
    "lab",
    "lab/plots",
    "lab/experiments",
    "ui",
    "ui/state",
    "tests",
    "bench",
    "tools",
)
#: Placeholders of the "Where to add" recipes, not files.
TEMPLATES = ("N_Name", "NAME", "KEY")


def _code_spans(text: str) -> list[str]:
    return re.findall(r"`([^`\n]+)`", text)


def _section(title: str) -> str:
    start = TEXT.index(f"## {title}")
    end = TEXT.find("\n## ", start + 1)
    return TEXT[start : end if end > 0 else None]


def _resolve_path(name: str) -> Path | None:
    for folder in FOLDERS:
        path = ROOT / folder / name
        if path.exists():
            return path
    return None


def _paths() -> list[str]:
    return sorted(
        {
            span
            for span in _code_spans(TEXT)
            if re.fullmatch(r"[\w./-]+(\.py|/)", span) and not any(t in span for t in TEMPLATES)
        }
    )


@pytest.mark.parametrize("name", _paths())
def test_every_file_and_folder_named_exists(name):
    assert _resolve_path(name.rstrip("/")) is not None, name


def _named(path: Path, name: str) -> bool:
    """Whether ``name`` is defined in ``path`` (a function, class or assigned name)."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            if node.name == name:
                return True
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                return True
    return False


def _cited_names() -> list[tuple[str, str]]:
    """``(file, name)`` for every "`file.py` (`name`, ...)" of the text."""
    pairs = []
    for path, names in re.findall(r"`([\w/]+\.py)` \(((?:`[\w.]+`(?:, )?)+)", TEXT):
        pairs += [(path, n) for n in re.findall(r"`(\w+)`", names)]  # not `st.cache_data`
    return pairs


@pytest.mark.parametrize(("path", "name"), _cited_names())
def test_every_name_cited_beside_a_file_is_defined_in_it(path, name):
    found = _resolve_path(path)
    assert found is not None, path
    assert _named(found, name.split(".")[-1]), f"{name} is not defined in {path}"


_PACKAGES = ("clustering", "datasets", "lab", "ui")


def _dotted() -> list[str]:
    """Dotted names of the lab's packages, and "`module` (`name`, ...)" as module.name."""
    found = {
        span
        for span in _code_spans(TEXT)
        if re.fullmatch(r"[a-z_]+(\.\w+)+", span) and span.split(".")[0] in _PACKAGES
    }
    for module, names in re.findall(r"`([a-z_]+(?:\.\w+)+)` \(((?:`\w+`(?:, )?)+)\)", TEXT):
        if module.split(".")[0] in _PACKAGES:
            found.update(f"{module}.{n}" for n in re.findall(r"`(\w+)`", names))
    return sorted(found)


@pytest.mark.parametrize("dotted", _dotted())
def test_every_dotted_name_resolves(dotted):
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attribute in parts[cut:]:
            obj = getattr(obj, attribute)
        return
    pytest.fail(f"{dotted} does not resolve")


def _rule_tests() -> list[tuple[str, str | None]]:
    """``(test file, test name or None)`` cited in the rules table."""
    table = _section("Rules, and the test that holds each")
    cited = []
    for row in table.splitlines()[4:]:
        if not row.startswith("|"):
            continue
        current = None
        for span in _code_spans(row.rsplit("|", 2)[-2]):
            if not (span.startswith("::") or re.match(r"(tests/)?test_\w+\.py", span)):
                continue  # what the test is driven by, not a test
            if span.startswith("::"):
                cited.append((current, span[2:]))
                continue
            file, _, name = span.partition("::")
            current = file if file.startswith("tests/") else f"tests/{file}"
            cited.append((current, name or None))
    return cited


def test_the_rules_table_cites_tests_that_exist():
    cited = _rule_tests()
    assert len(cited) >= 15
    for file, name in cited:
        path = ROOT / file
        assert path.is_file(), file
        if name is not None:
            assert _named(path, name), f"{file}::{name}"


@pytest.mark.parametrize("package", ["ui", "lab"])
def test_every_module_of_the_app_and_the_lab_is_named(package):
    spans = set(_code_spans(TEXT))
    for path in sorted((ROOT / package).iterdir()):
        if path.name.startswith(("_", ".")) or path.name == "__pycache__":
            continue
        name = path.name if path.suffix == ".py" else f"{path.name}/"
        if path.is_dir() or path.suffix == ".py":
            assert name in spans, f"ARCHITECTURE.md does not name {package}/{name}"


_COST_CALLS = {"predict_cost", "check_cost", "fit_cost", "auto_run", "within_budget", "decide"}


def _reads_a_cost(path: Path) -> bool:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in _COST_CALLS:
                return True
    return False


def test_the_modules_said_to_read_a_cost_are_the_ones_that_do():
    section = _section("Where a fit's cost is checked")
    named = {p for p in _code_spans(section) if p.endswith(".py")}
    defining = {"clustering/_cost.py", "lab/budget.py"}
    assert defining <= named
    files = [ROOT / "app.py", *ROOT.glob("pages/*.py")]
    files += [
        p for pkg in ("clustering", "datasets", "lab", "ui") for p in (ROOT / pkg).rglob("*.py")
    ]
    reading = {p.relative_to(ROOT).as_posix() for p in files if _reads_a_cost(p)}
    assert reading - defining == named - defining


def _calls(node: ast.AST) -> set[str]:
    return {
        ast.unparse(n.func)
        for n in ast.walk(node)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute | ast.Name)
    }


def test_every_page_follows_the_recipe_of_where_to_add_a_page():
    """A page sets its config then calls ``state.init()``, ends with ``sync_to_url()``,
    and gets the data set from ``widgets.data_caption()``, except the pages the recipe
    names."""
    recipe = next(b for b in _section("Where to add").split("\n- ") if b.startswith("**A page"))
    without_data = set()
    for path in sorted((ROOT / "pages").glob("[0-9]*_*.py")):
        body = [
            n
            for n in ast.parse(path.read_text(encoding="utf-8")).body
            if not isinstance(n, ast.Import | ast.ImportFrom)
            and not (isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant))
        ]
        first = [n for n in body if _calls(n)][:2]
        assert "st.set_page_config" in _calls(first[0]), path.name
        assert "state.init" in _calls(first[1]), f"{path.name} does not start with it"
        assert any(c.endswith("sync_to_url") for c in _calls(body[-1])), path.name
        if "widgets.data_caption" not in _calls(ast.Module(body=body, type_ignores=[])):
            without_data.add(path.stem.split("_", 1)[1].replace("_", " "))
    for page in without_data:
        assert f"but {page}" in " ".join(recipe.split()), page
