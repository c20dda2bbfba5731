"""A bounded mutation run on the modules that decide what users see: the verdicts, the
MSPs, the λ grid and the cache keys. Does each small change to their code fail the tests
next to it?

Each mutant changes one expression of one function (a comparison flipped or loosened, a
number moved, ``+``/``-`` or ``*``/``/`` swapped, ``and``/``or`` swapped, a ``not``
dropped, a keyword argument dropped, e.g. ``weights=`` of a mean or ``random_state=``, or an
argument of a cached function renamed with a leading underscore, which leaves it out of the
cache key). Docstrings, annotations and decorators are not mutated. The mutants run one at
a time in a copy of the repository (the working tree is never touched), against the
target's own tests with ``pytest -x``; a mutant is *killed* when a test fails or the run
exceeds its time limit, and *survives* when every test passes. Mutants are listed in source
order and, past ``--max-per-target``, sampled with a fixed seed.

Run niced, with a budget (the machine is shared):
``nice -n 10 python -m bench.mutation [--only NAME] [--budget 1800] [--max-per-target 40]
[--json out.json]``; prints a markdown table per target and the survivors.
"""

from __future__ import annotations

import argparse
import ast
import json
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Target:
    """A module, the functions of it to mutate (all when empty) and the tests next to it."""

    name: str
    path: str
    functions: tuple[str, ...]
    tests: tuple[str, ...]


#: What users see, and the tests that guard it. The module itself is passed to pytest too,
#: so its doctests run.
TARGETS = (
    Target(
        "verdicts",
        "lab/verdicts.py",
        (),
        # The rules' tests (seconds); tests/test_verdicts.py fits every bundled data set.
        ("lab/verdicts.py", "tests/test_verdicts_rules.py"),
    ),
    Target(
        "multi-class MSP",
        "clustering/msp_multiclass.py",
        ("encode_labels", "msp_from_alphas", "cluster_stats", "pairwise_mpm", "multiclass_msp"),
        (
            "clustering/msp_multiclass.py",
            "tests/test_multiclass.py::test_multiclass_msp_weighs_each_cluster_by_its_size",
            "tests/test_multiclass.py::test_two_clusters_equal_binary_msp",
            "tests/test_multiclass.py::test_msp_score_dispatches_for_more_clusters",
            "tests/test_multiclass.py::test_multiclass_msp_invariant_to_invertible_maps",
            "tests/test_multiclass.py::test_msp_bounds_accuracy_on_fresh_samples",
            "tests/test_multiclass.py::test_one_cluster_is_refused",
        ),
    ),
    Target(
        "held-out MSP shown",
        "lab/evaluation.py",
        ("heldout_msp", "heldout_msp_or_reason", "evaluate"),
        ("lab/evaluation.py", "tests/test_evaluation.py"),
    ),
    Target(
        "λ grid",
        "ui/model.py",
        ("lam_grid", "snap_lam", "snap_factor"),
        ("ui/model.py", "tests/test_ui_model.py"),
    ),
    Target(
        "cache keys",
        "ui/cache.py",
        (
            "load_bundled",
            "generate",
            "read_upload",
            "_fit",
            "fit",
            "_projection",
            "projection",
        ),
        ("tests/test_ui_cache.py",),
    ),
)


@dataclass(frozen=True)
class Mutant:
    """One change to a module: its line, operator, the source span replaced and its replacement."""

    line: int
    operator: str
    before: str
    after: str
    start: tuple[int, int]
    end: tuple[int, int]


_FLIPS = {
    ast.Lt: (ast.LtE, ast.Gt),
    ast.LtE: (ast.Lt, ast.GtE),
    ast.Gt: (ast.GtE, ast.Lt),
    ast.GtE: (ast.Gt, ast.LtE),
    ast.Eq: (ast.NotEq,),
    ast.NotEq: (ast.Eq,),
    ast.Is: (ast.IsNot,),
    ast.IsNot: (ast.Is,),
    ast.In: (ast.NotIn,),
    ast.NotIn: (ast.In,),
}
_ARITHMETIC = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult}


def _variants(node: ast.AST):
    """``(operator, mutated copy)`` of one expression node."""
    import copy

    if isinstance(node, ast.Compare):
        for i, op in enumerate(node.ops):
            for new in _FLIPS.get(type(op), ()):
                m = copy.deepcopy(node)
                m.ops[i] = new()
                yield "comparison", m
    elif isinstance(node, ast.BinOp) and type(node.op) in _ARITHMETIC:
        m = copy.deepcopy(node)
        m.op = _ARITHMETIC[type(node.op)]()
        yield "arithmetic", m
    elif isinstance(node, ast.BoolOp):
        m = copy.deepcopy(node)
        m.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        yield "and/or", m
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not | ast.USub):
        yield "drop not/minus", copy.deepcopy(node.operand)
    elif isinstance(node, ast.Constant) and type(node.value) in (int, float, bool):
        value = node.value
        if isinstance(value, bool):
            yield "constant", ast.Constant(not value)
        elif value == 0:
            yield "constant", ast.Constant(type(value)(1))
        else:
            yield "constant", ast.Constant(value * 2 if isinstance(value, float) else value + 1)
    elif isinstance(node, ast.Call) and node.keywords:
        for i, kw in enumerate(node.keywords):
            if kw.arg is None:
                continue
            m = copy.deepcopy(node)
            del m.keywords[i]
            yield f"drop {kw.arg}=", m


def mutants(source: str, functions: tuple[str, ...]) -> list[Mutant]:
    """Every mutant of the named functions of ``source`` (of the whole module when empty)."""
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    roots = [
        n
        for n in tree.body
        if isinstance(n, ast.FunctionDef | ast.ClassDef)
        and (not functions or getattr(n, "name", "") in functions)
    ]
    if not functions:
        roots = [n for n in tree.body if not isinstance(n, ast.Import | ast.ImportFrom)]
    out: list[Mutant] = []
    for root in roots:
        skip = set()
        for n in ast.walk(root):  # docstrings, annotations and decorators (the cache's
            # size and spinner) say nothing about what a user is shown
            for d in getattr(n, "decorator_list", ()):
                skip.update(id(x) for x in ast.walk(d))
            body = getattr(n, "body", None)
            if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
                if isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
                    skip.update(id(x) for x in ast.walk(body[0]))
            for ann in (getattr(n, "annotation", None), getattr(n, "returns", None)):
                if ann is not None:
                    skip.update(id(x) for x in ast.walk(ann))
        for node in ast.walk(root):
            if id(node) in skip or not hasattr(node, "end_lineno"):
                continue
            before = ast.get_source_segment(source, node)
            if before is None:
                continue
            for operator, changed in _variants(node):
                after = ast.unparse(changed)
                if "\n" in before:
                    after = f"({after})"
                out.append(
                    Mutant(
                        node.lineno,
                        operator,
                        before,
                        after,
                        (node.lineno, node.col_offset),
                        (node.end_lineno, node.end_col_offset),
                    )
                )
        out.extend(_cache_renames(root, lines))
    return out


def _cache_renames(root: ast.AST, lines: list[str]) -> list[Mutant]:
    """For a function cached by Streamlit: each hashed argument renamed ``_name`` (in its
    signature and body), so the cache no longer keys on it."""
    if not isinstance(root, ast.FunctionDef):
        return []
    if not any("cache_" in ast.unparse(d) for d in root.decorator_list):
        return []
    start, end = root.lineno, root.end_lineno
    text = "".join(lines[start - 1 : end])
    return [
        Mutant(
            start,
            f"rename {arg.arg} to _{arg.arg}",
            text,
            re.sub(rf"\b{arg.arg}\b", f"_{arg.arg}", text),
            (start, 0),
            (end + 1, 0),
        )
        for arg in (*root.args.args, *root.args.kwonlyargs)
        if not arg.arg.startswith("_")
    ]


def apply(source: str, mutant: Mutant) -> str:
    """``source`` with ``mutant``'s span replaced by its text (``ast`` counts columns in
    UTF-8 bytes)."""
    lines = [line.encode("utf-8") for line in source.splitlines(keepends=True)]
    (l0, c0), (l1, c1) = mutant.start, mutant.end
    head = b"".join(lines[: l0 - 1]) + lines[l0 - 1][:c0]
    if c1 == 0:  # the span ends where line l1 starts (a whole function)
        tail = b"".join(lines[l1 - 1 :])
    else:
        tail = lines[l1 - 1][c1:] + b"".join(lines[l1:])
    return (head + mutant.after.encode("utf-8") + tail).decode("utf-8")


def _pytest(copy_root: Path, tests: tuple[str, ...], timeout: float) -> tuple[bool, float]:
    """``(passed, seconds)``; a run past ``timeout`` counts as failed."""
    start = time.perf_counter()
    # One process (-n 0): a mutant's few test files gain nothing from the suite's two workers.
    command = [sys.executable, "-m", "pytest", "-x", "-q", "-n", "0", "-p", "no:cacheprovider"]
    command += tests
    try:
        done = subprocess.run(command, cwd=copy_root, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return False, time.perf_counter() - start
    return done.returncode == 0, time.perf_counter() - start


def _copy_repository(dest: Path) -> None:
    files = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    for name in files:
        src = ROOT / name
        if src.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)


def run(targets, budget: float, max_per_target: int, seed: int = 0) -> list[dict]:
    """Every target's mutants until ``budget`` seconds have passed; one record per mutant."""
    records: list[dict] = []
    deadline = time.perf_counter() + budget
    with tempfile.TemporaryDirectory(prefix="mutation-") as tmp:
        copy_root = Path(tmp)
        _copy_repository(copy_root)
        for target in targets:
            path = copy_root / target.path
            original = path.read_text(encoding="utf-8")
            ok, baseline = _pytest(copy_root, target.tests, timeout=600)
            if not ok:
                raise SystemExit(f"{target.name}: its tests fail without a mutant; fix them first.")
            found = mutants(original, target.functions)
            if len(found) > max_per_target:
                found = sorted(random.Random(seed).sample(found, max_per_target), key=_order)
            print(f"{target.name}: {len(found)} mutants, tests {baseline:.1f} s", file=sys.stderr)
            for mutant in found:
                if time.perf_counter() > deadline:
                    break
                path.write_text(apply(original, mutant), encoding="utf-8")
                try:
                    passed, seconds = _pytest(copy_root, target.tests, timeout=3 * baseline + 30)
                finally:
                    path.write_text(original, encoding="utf-8")
                records.append(
                    {
                        "target": target.name,
                        "path": target.path,
                        **{k: v for k, v in asdict(mutant).items() if k in ("line", "operator")},
                        "before": _short(mutant.before),
                        "after": _short(mutant.after),
                        "survived": passed,
                        "seconds": round(seconds, 1),
                    }
                )
    return records


def _order(mutant: Mutant):
    return mutant.start, mutant.operator


def _short(text: str, limit: int = 90) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def summary(records: list[dict]) -> str:
    """Markdown: killed and survived per target, then every survivor."""
    rows = ["| target | mutants | killed | survived |", "|---|---|---|---|"]
    for name in dict.fromkeys(r["target"] for r in records):
        mine = [r for r in records if r["target"] == name]
        lived = sum(r["survived"] for r in mine)
        rows.append(f"| {name} | {len(mine)} | {len(mine) - lived} | {lived} |")
    rows += ["", "| survivor | line | operator | before | after |", "|---|---|---|---|---|"]
    for r in records:
        if r["survived"]:
            before, after = r["before"], r["after"]
            if r["operator"].startswith("rename "):
                before, after = "(the cached function)", "(its argument renamed)"
            rows.append(f"| {r['path']} | {r['line']} | {r['operator']} | `{before}` | `{after}` |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> None:
    """Run the chosen targets (``--only``) within ``--budget`` seconds and print the killed and
    the survivors."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", help="a target's name (repeatable)")
    parser.add_argument("--budget", type=float, default=1800.0, help="seconds in all")
    parser.add_argument("--max-per-target", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", help="write every mutant's record here")
    args = parser.parse_args(argv)
    chosen = [t for t in TARGETS if not args.only or t.name in args.only]
    records = run(chosen, args.budget, args.max_per_target, args.seed)
    if args.json:
        Path(args.json).write_text(json.dumps(records, indent=1, ensure_ascii=False) + "\n")
    print(summary(records))


if __name__ == "__main__":
    main()
