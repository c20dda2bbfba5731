"""Thread limits: single-threaded BLAS for the d x d factorisations of the MSPC solvers, and one
BLAS and one OpenMP thread for whole fits on small data (:func:`small_data_threads`).

Cholesky and symmetric eigen-decompositions of a few hundred rows are made of many small
BLAS calls, each a synchronisation point of OpenBLAS's threads. On a 2-core machine shared
with other jobs (load average 11-21) a thread that waits for a descheduled partner makes
them many times slower than one thread (measured in ``bench/RESULTS.md``). Large products (``Z'Z``,
``N d^2``) keep every thread. The limit is process-wide (threadpoolctl), as scikit-learn's
own limits are.
"""

from __future__ import annotations

from contextlib import nullcontext

import numpy as np

#: Below this dimension the factorisations are cheaper than entering a thread limit and are
#: left alone.
SERIAL_MIN_DIM = 128

#: Below this many entries (samples x features) a whole fit runs on one BLAS and one OpenMP
#: thread (:func:`small_data_threads`).
SMALL_DATA_SIZE = 1_000_000

_controller = None


def _get_controller():
    """The process's thread-pool controller, built once (building one scans the loaded
    libraries; entering a limit is cheap)."""
    global _controller
    if _controller is None:
        from threadpoolctl import ThreadpoolController

        _controller = ThreadpoolController()
    return _controller


def small_data_threads(data: np.ndarray):
    """Context for fitting on ``data``: one BLAS and one OpenMP thread below
    :data:`SMALL_DATA_SIZE` entries, the libraries' defaults above.

    On small problems threads only add synchronisation, and on a busy 2-core machine they
    stall (measured in ``bench/RESULTS.md``).
    """
    if np.asarray(data).size >= SMALL_DATA_SIZE:
        return nullcontext()
    return _get_controller().limit(limits=1)


def serial_blas(dim: int):
    """Context manager limiting BLAS to one thread when ``dim >= SERIAL_MIN_DIM``."""
    if dim < SERIAL_MIN_DIM:
        return nullcontext()
    return _get_controller().limit(limits=1, user_api="blas")
