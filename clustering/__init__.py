"""Discriminative clustering: MSPC, the Minimax Probability Machine, the MSP score and the
methods they are compared with, all as scikit-learn estimators.

>>> from clustering import ALGORITHMS
>>> "mspc-mpm" in ALGORITHMS
True
"""

from . import metrics
from .diffrac import DIFFRAC
from .dis_kmeans import DiscriminativeKMeans
from .exceptions import (
    DegenerateDataError,
    ProblemTooLargeError,
    SolverFailedError,
    TooExpensiveError,
)
from .itersvr import IterSVR
from .kmeans import KMeansBaseline
from .lda_kmeans import LDAKMeans
from .mmc import MMCMultivariate
from .mpm import MinimaxProbabilityMachine
from .mspc import MSPC
from .mvc import HardLabelMVC, SoftLabelMVC
from .registry import ALGORITHMS, AlgorithmSpec, Param, make_estimator
from .smic import SMIC
from .spectral import SpectralBaseline

__all__ = [
    "ALGORITHMS",
    "DIFFRAC",
    "MSPC",
    "SMIC",
    "AlgorithmSpec",
    "DegenerateDataError",
    "DiscriminativeKMeans",
    "HardLabelMVC",
    "IterSVR",
    "KMeansBaseline",
    "LDAKMeans",
    "MMCMultivariate",
    "MinimaxProbabilityMachine",
    "Param",
    "ProblemTooLargeError",
    "SoftLabelMVC",
    "SolverFailedError",
    "SpectralBaseline",
    "TooExpensiveError",
    "make_estimator",
    "metrics",
]
