"""Discriminative clustering: MSPC, the Minimax Probability Machine, the MSP score and the
methods they are compared with, all as scikit-learn estimators.

>>> from clustering import ALGORITHMS
>>> "mspc-mpm" in ALGORITHMS
True
"""

from . import metrics
from .exceptions import DegenerateDataError, ProblemTooLargeError, SolverFailedError
from .itersvr import IterSVR
from .mpm import MinimaxProbabilityMachine
from .mspc import MSPC
from .registry import ALGORITHMS, AlgorithmSpec, Param, make_estimator

__all__ = [
    "ALGORITHMS",
    "MSPC",
    "AlgorithmSpec",
    "DegenerateDataError",
    "IterSVR",
    "MinimaxProbabilityMachine",
    "Param",
    "ProblemTooLargeError",
    "SolverFailedError",
    "make_estimator",
    "metrics",
]
