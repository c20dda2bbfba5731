"""Single-threaded BLAS for the d x d factorisations of the MSPC solvers.

Cholesky and symmetric eigen-decompositions of a few hundred rows are made of many small
BLAS calls, each a synchronisation point of OpenBLAS's threads. On a 2-core machine shared
with other jobs (load average 11-21) a thread that waits for a descheduled partner makes
them 10-80x slower than one thread: a 784 x 784 Cholesky took 0.70 s with two threads and
0.05 s with one; the leading eigenvector of a 784 x 784 matrix 9.5 s against 0.15 s
(timed under load 21-29, reported in ``bench/RESULTS.md``). Large products (``Z'Z``,
``N d^2``) keep every thread. The limit is process-wide (threadpoolctl), as scikit-learn's
own limits are.
"""

from __future__ import annotations

from contextlib import nullcontext

#: Below this dimension the factorisations take microseconds and are left alone (the limit
#: itself costs 30-100 us).
SERIAL_MIN_DIM = 128

_controller = None


def serial_blas(dim: int):
    """Context manager limiting BLAS to one thread when ``dim >= SERIAL_MIN_DIM``."""
    global _controller
    if dim < SERIAL_MIN_DIM:
        return nullcontext()
    if _controller is None:
        from threadpoolctl import ThreadpoolController

        _controller = ThreadpoolController()
    return _controller.limit(limits=1, user_api="blas")
