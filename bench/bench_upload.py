"""Time and peak memory of reading a 1,000,000-row CSV upload, for the current reader and
for a reference version of it (a file path, default: none) measured in the same run.

Run: ``python -m bench.bench_upload [--rows 1000000] [--reference OLD_upload.py]``. The file
has 5 numeric columns (one with a decimal value in every row) and a text label column, about
45 MB. Peak memory is traced by ``tracemalloc`` (allocations made while reading).
"""

from __future__ import annotations

import argparse
import importlib.util
import io
import sys
import time
import tracemalloc

import numpy as np

from ._common import machine, print_table


def make_file(n_rows: int, seed: int = 0) -> bytes:
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n_rows, 5)).round(4)
    labels = np.where(rng.random(n_rows) < 0.5, "benign", "malignant")
    lines = ["a,b,c,d,e,class"]
    lines += [
        f"{r[0]},{r[1]},{r[2]},{r[3]},{r[4]},{lab}"
        for r, lab in zip(X.tolist(), labels, strict=True)
    ]
    return ("\n".join(lines) + "\n").encode()


def _load_reference(path: str):
    spec = importlib.util.spec_from_file_location("datasets._upload_reference", path)
    module = importlib.util.module_from_spec(spec)
    module.__package__ = "datasets"
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module.read_csv


def measure(read, data: bytes) -> tuple[float, float, tuple[int, int]]:
    tracemalloc.start()
    start = time.perf_counter()
    ds = read(io.BytesIO(data))
    seconds = time.perf_counter() - start
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return seconds, peak / 2**20, ds.X.shape


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--reference", help="path of another upload.py to compare with")
    args = parser.parse_args(argv)
    from datasets.upload import read_csv

    data = make_file(args.rows)
    print(machine())
    print(f"{args.rows:,} rows, {len(data) / 2**20:.0f} MiB\n")
    readers = [("current", read_csv)]
    if args.reference:
        readers.insert(0, ("reference", _load_reference(args.reference)))
    rows = []
    for name, read in readers:
        seconds, peak, shape = measure(read, data)
        rows.append([name, f"{seconds:.2f}", f"{peak:.0f}", f"{shape[0]} x {shape[1]}"])
    print_table(["reader", "time s", "peak MiB (traced)", "X"], rows)


if __name__ == "__main__":
    main()
