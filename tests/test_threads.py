"""Fits on small data run on one BLAS and one OpenMP thread (clustering._threads):
on a busy 2-core machine the libraries' own threads stall each other (bench/RESULTS.md)."""

from __future__ import annotations

import contextlib

import numpy as np
from threadpoolctl import threadpool_info

from clustering._threads import SMALL_DATA_SIZE as _KMEANS_THREADED_SIZE
from clustering._threads import small_data_threads


def test_small_data_runs_on_one_thread_and_the_limit_is_undone():
    before = {p["filepath"]: p["num_threads"] for p in threadpool_info()}
    with small_data_threads(np.zeros((400, 2))):
        inside = threadpool_info()
        assert inside and all(p["num_threads"] == 1 for p in inside)
    after = {p["filepath"]: p["num_threads"] for p in threadpool_info()}
    assert after == before


def test_large_data_keeps_the_libraries_threads():
    big = np.broadcast_to(0.0, (_KMEANS_THREADED_SIZE, 1))  # no memory allocated
    assert isinstance(small_data_threads(big), contextlib.nullcontext)
