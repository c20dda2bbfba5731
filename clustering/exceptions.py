"""Errors raised by the clustering package.

Each error subclasses the built-in exception a caller would already catch (``ValueError`` or
``RuntimeError``) and carries a message that names the problem and the fix.
"""


class SolverFailedError(RuntimeError):
    """An optimisation solver did not return a usable solution.

    The message names the solver, the status it returned and what to try next (another
    solver, a larger regulariser, fewer samples).
    """


class ProblemTooLargeError(ValueError):
    """The input is larger than the method can handle in reasonable time or memory.

    Raised before any work is done, with the size limit, the method's cost and the
    parameter that raises the limit.
    """


class DegenerateDataError(ValueError):
    """The data cannot be clustered as asked (a single distinct point, all features
    constant, a singular covariance the method cannot regularise away, ...)."""


class TooExpensiveError(ProblemTooLargeError):
    """A run is predicted to take longer or use more memory than this machine allows.

    Raised by :func:`clustering._cost.check_cost` before any work starts. The message gives
    the predicted time and peak memory, the cap it exceeds, and what to change (fewer
    samples, a cheaper setting of the method, another method).
    """


class NoStructureWarning(UserWarning):
    """A clustering's held-out MSP is at the level the same search reaches on Gaussian noise
    of the data's shape (:mod:`clustering._reference`): the labels are one cut of the data,
    not evidence of separate groups."""


class SmallClusterWarning(UserWarning):
    """A cluster is too small to score: with fewer than two points nothing of it can be held
    out, so its held-out MSP is 0 and no bound is measured."""
