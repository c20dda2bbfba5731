"""Command line: ``python -m lab.experiments EXPERIMENT --out DIR [options]``.

Experiments: ``table2``, ``table3``, ``afs``, ``msp-accuracy``, ``mmc-digits``,
``diffrac-fig1``, ``diffrac-table1``, ``mvc-fig2``, ``multiclass``; ``all`` runs them in that
order; ``report`` rebuilds ``REPRODUCTION.md`` from stored results.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from lab.experiments import (
    BACKENDS,
    EXPERIMENTS,
    PUBLISHED_DIR,
    RunInterrupted,
    TerminalProgress,
    load_stored,
    run_experiment,
)

_ROOT = Path(__file__).resolve().parents[2]


def _csv(text: str | None) -> list[str] | None:
    if not text:
        return None
    return [t.strip() for t in text.split(",") if t.strip()]


def _floats(text: str) -> list[float]:
    try:
        return [float(v) for v in text.split(",") if v.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected comma-separated numbers, got {text!r}"
        ) from None


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m lab.experiments",
        description="Reproduce the papers' tables and figures.",
    )
    parser.add_argument(
        "experiment",
        choices=[*EXPERIMENTS, "all", "report"],
        help="what to run; 'report' rebuilds REPRODUCTION.md from stored results",
    )
    parser.add_argument(
        "--out",
        default="results",
        help="output directory (for 'report': the stored results to read; default: the "
        "published results)",
    )
    parser.add_argument("--methods", help="comma-separated method keys (default: the paper's)")
    parser.add_argument(
        "--tasks", help="comma-separated task names; 'digits:*' = all pairs of a source"
    )
    parser.add_argument("--jobs", type=int, default=1, help="parallel workers (default 1)")
    parser.add_argument("--backend", choices=BACKENDS, default="loky")
    parser.add_argument("--scheduler", help="Dask scheduler address (with --backend dask)")
    parser.add_argument(
        "--replace",
        action="store_true",
        help="overwrite a run of the experiment with another configuration already in --out",
    )
    parser.add_argument("--cache", help="cell cache directory (default OUT/cells/EXPERIMENT)")
    parser.add_argument("--lams", type=_floats, help="override the lam grid, e.g. 0.1,1")
    parser.add_argument("--Cs", type=_floats, help="override the C grid")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=JSON",
        help="experiment option, e.g. --option repeats=3 (repeatable)",
    )
    parser.add_argument(
        "--retry-failed", action="store_true", help="recompute cells that failed before"
    )
    parser.add_argument("--file", default=str(_ROOT / "REPRODUCTION.md"), help="report file")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    return parser


def _options(args, experiment) -> dict:
    options: dict = {}
    for item in args.option:
        name, sep, value = item.partition("=")
        if not sep:
            raise SystemExit(f"--option expects NAME=VALUE, got {item!r}.")
        try:
            options[name] = json.loads(value)
        except ValueError:
            options[name] = value
    grid = {}
    if args.lams:
        grid["lam"] = args.lams
    if args.Cs:
        grid["C"] = args.Cs
    if grid:
        options["grid"] = {**options.get("grid", {}), **grid}
    if args.experiment == "all":  # one option list for several experiments: keep what applies
        options = {k: v for k, v in options.items() if k in experiment.options}
    return options


def _report(args) -> int:
    from lab.experiments._report import build_report

    source = Path(args.out) if args.out != "results" else PUBLISHED_DIR
    results = {name: load_stored(name, source) for name in EXPERIMENTS}
    try:
        shown = source.resolve().relative_to(_ROOT)
    except ValueError:
        shown = source
    Path(args.file).write_text(build_report(results, shown))
    print(f"wrote {args.file}", file=sys.stderr)
    return 0


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.experiment == "report":
        return _report(args)
    names = list(EXPERIMENTS) if args.experiment == "all" else [args.experiment]
    status = 0
    for name in names:
        experiment = EXPERIMENTS[name]
        try:
            options = _options(args, experiment)
            progress = None if args.quiet else TerminalProgress(label=name)
            cache = Path(args.cache) / name if args.cache else None
            result = run_experiment(
                name,
                args.out,
                methods=_csv(args.methods),
                tasks=_csv(args.tasks),
                options=options,
                n_jobs=args.jobs,
                backend=args.backend,
                scheduler=args.scheduler,
                cache_dir=cache,
                progress=progress,
                retry_failed=args.retry_failed,
                replace=args.replace,
            )
        except RunInterrupted as exc:
            print(f"\n{name} {exc.summary()}", file=sys.stderr)
            return 130
        except KeyboardInterrupt:
            print(f"\n{name} interrupted; finished cells are kept in the cache.", file=sys.stderr)
            return 130
        except (KeyError, ValueError) as exc:
            print(f"{name}: {exc.args[0] if exc.args else exc}", file=sys.stderr)
            status = 2
            continue
        for method, reason in result.config.skipped.items():
            print(f"{name}: skipped {method}: {reason}", file=sys.stderr)
        print(f"{name}: wrote {Path(args.out) / (name + '.csv')} and {name}.md", file=sys.stderr)
    return status


if __name__ == "__main__":
    raise SystemExit(main())
