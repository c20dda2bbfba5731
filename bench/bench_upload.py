"""Time and peak memory of reading a 1,000,000-row CSV upload, for the current reader and
for a reference version of it (another ``upload.py``) measured in the same run.

Run: ``python -m bench.bench_upload [--rows 1000000] [--reference OLD_upload.py]``. The file
has 5 numeric columns and a text label column, about 43 MiB. Each reader runs in a fresh
process; the table gives its wall time for ``read_csv`` and the process's peak resident memory
(``ru_maxrss``, imports and the file's bytes included, as the app would see it).
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
import importlib.util, resource, sys, time
sys.path.insert(0, {root!r})
reference = {reference!r}
if reference:
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
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--reference", help="path of another upload.py to compare with")
    args = parser.parse_args(argv)
    data = make_file(args.rows)
    print(machine())
    print(f"{args.rows:,} rows, {len(data) / 2**20:.0f} MiB\n")
    readers = [("current", None)]
    if args.reference:
        readers.insert(0, ("reference", str(Path(args.reference).resolve())))
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "big.csv")
        Path(path).write_bytes(data)
        del data
        for name, reference in readers:
            seconds, peak, shape = measure(path, reference)
            rows.append([name, f"{seconds:.2f}", f"{peak:.0f}", f"{shape[0]:,} x {shape[1]}"])
    print_table(["reader", "time s", "peak RSS MiB", "X"], rows)


if __name__ == "__main__":
    main()
