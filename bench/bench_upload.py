"""Time and peak memory of reading a 1,000,000-row CSV upload, for the current reader and
for a reference version of it measured in the same run.

Run: ``python -m bench.bench_upload [--rows 1000000] [--reference OLD] [--repeats 5]``.
``OLD`` is either another ``upload.py`` (it must work with the current ``datasets`` package
around it) or a folder holding an older ``datasets`` package, for example one made by
``git archive <commit> datasets clustering | tar -x -C OLD``. The file has 5 numeric columns
and a text label column, about 43 MiB. Each read runs in a fresh process, the readers
alternating so that both see the same load; the table gives the median over the repeats of
the wall time of ``read_csv`` and of the process's peak resident memory (``ru_maxrss``,
imports and the file's bytes included, as the app would see it), and their ratios to the
reference's medians.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

from ._common import machine, print_table

_CHILD = """
import importlib.util, os, resource, sys, time
sys.path.insert(0, {root!r})
reference = {reference!r}
if reference and os.path.isdir(reference):
    sys.path.insert(0, reference)
    from datasets.upload import read_csv
elif reference:
    spec = importlib.util.spec_from_file_location("datasets._upload_reference", reference)
    module = importlib.util.module_from_spec(spec)
    module.__package__ = "datasets"
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    read_csv = module.read_csv
else:
    from datasets.upload import read_csv
data = open({path!r}, "rb").read()
start = time.perf_counter()
ds = read_csv(data)
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(seconds, peak, ds.X.shape[0], ds.X.shape[1])
"""


def make_file(n_rows: int, seed: int = 0) -> bytes:
    """A CSV of ``n_rows`` rows (five numeric columns and a class column) as bytes."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n_rows, 5)).round(4)
    labels = np.where(rng.random(n_rows) < 0.5, "benign", "malignant")
    rows = zip(X.tolist(), labels, strict=True)
    lines = ["a,b,c,d,e,class"]
    lines += [f"{r[0]},{r[1]},{r[2]},{r[3]},{r[4]},{lab}" for r, lab in rows]
    return ("\n".join(lines) + "\n").encode()


def measure(path: str, reference: str | None) -> tuple[float, float, tuple[int, int]]:
    """``(seconds, peak MiB, X shape)`` of one read in a fresh process."""
    root = str(Path(__file__).resolve().parents[1])
    code = _CHILD.format(root=root, reference=reference or "", path=path)
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split()
    return float(out[0]), float(out[1]), (int(out[2]), int(out[3]))


def main(argv=None):
    """Read the generated file with this reader and with ``--reference``, alternating
    ``--repeats`` times; print medians, peak memory and the ratio."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument(
        "--reference", help="another upload.py, or a folder holding another datasets package"
    )
    parser.add_argument("--repeats", type=int, default=1, help="reads per reader (median)")
    args = parser.parse_args(argv)
    data = make_file(args.rows)
    print(machine())
    print(f"{args.rows:,} rows, {len(data) / 2**20:.0f} MiB, {args.repeats} read(s) each\n")
    readers = [("current", None)]
    if args.reference:
        readers.insert(0, ("reference", str(Path(args.reference).resolve())))
    runs: dict[str, list[tuple[float, float]]] = {name: [] for name, _ in readers}
    shapes: dict[str, tuple[int, int]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "big.csv")
        Path(path).write_bytes(data)
        del data
        for _ in range(args.repeats):
            for name, reference in readers:
                seconds, peak, shapes[name] = measure(path, reference)
                runs[name].append((seconds, peak))
    medians = {name: np.median(np.array(r), axis=0) for name, r in runs.items()}
    base = medians[readers[0][0]]
    rows = []
    for name, _ in readers:
        seconds, peak = medians[name]
        each = ", ".join(f"{t:.1f}" for t, _ in runs[name])
        rows.append(
            [
                name,
                f"{seconds:.2f}",
                f"{seconds / base[0]:.2f}",
                f"{peak:.0f}",
                f"{peak / base[1]:.2f}",
                f"{shapes[name][0]:,} x {shapes[name][1]}",
                each,
            ]
        )
    print_table(
        ["reader", "time s", "time ratio", "peak RSS MiB", "peak ratio", "X", "each time s"],
        rows,
    )


if __name__ == "__main__":
    main()
