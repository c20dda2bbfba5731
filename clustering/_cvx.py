"""A small wrapper around ``cvxpy.Problem.solve`` shared by the convex-optimisation methods.

Every QP and SDP in the package is solved through :func:`solve`, so that all of them fail
the same way: a solver crash (``cvxpy.SolverError``) or any status other than ``optimal`` /
``optimal_inaccurate`` becomes :class:`clustering.SolverFailedError` with a message naming
the problem, the solver, the status and what to try; ``optimal_inaccurate`` is accepted with a
:class:`SolverAccuracyWarning`. The pattern follows PyPortfolioOpt's ``base_optimizer``.

Typical use, with the problem built once per fit and its ``cp.Parameter`` values updated
between solves::

    problem = cp.Problem(cp.Minimize(objective), constraints)   # once
    for ...:
        param.value = ...
        solve(problem, solver=None, what="the CCCP QP (17)",
              advice="Try a smaller C or solver='SCS'.")

:func:`default_solver` gives the solver used when ``solver=None``.
"""

from __future__ import annotations

import warnings
from functools import cache

import cvxpy as cp

from .exceptions import SolverFailedError

__all__ = ["ACCEPTED_STATUSES", "SolverAccuracyWarning", "default_solver", "solve"]

ACCEPTED_STATUSES = (cp.OPTIMAL, cp.OPTIMAL_INACCURATE)

# Preference order for ``solver=None``. QPs: interior-point first (accurate). SDPs: SCS
# first, several times faster than Clarabel on the n x n SDPs here (n >= 40).
_QP_ORDER = ("CLARABEL", "OSQP", "SCS")
_SDP_ORDER = ("SCS", "CLARABEL")


class SolverAccuracyWarning(UserWarning):
    """The solver stopped at ``optimal_inaccurate``: the solution is usable but loose."""


@cache
def default_solver(kind: str = "qp") -> str:
    """The installed solver used for ``kind`` (``"qp"`` or ``"sdp"``) when none is named.

    Raises
    ------
    SolverFailedError
        If none of the candidate solvers is installed.
    """
    order = _SDP_ORDER if kind == "sdp" else _QP_ORDER
    installed = set(cp.installed_solvers())
    for name in order:
        if name in installed:
            return name
    raise SolverFailedError(
        f"No solver for a {kind.upper()} is installed (looked for {', '.join(order)}). "
        "Install one, e.g. `pip install clarabel`."
    )


def solve(
    problem: cp.Problem,
    *,
    solver: str | None = None,
    kind: str = "qp",
    what: str = "the optimisation problem",
    advice: str = "",
    **solver_options,
) -> float:
    """Solve ``problem`` in place and return its optimal value.

    Parameters
    ----------
    problem : cvxpy.Problem
        A DCP problem; its variables hold the solution afterwards.
    solver : str or None, default=None
        A cvxpy solver name (``"CLARABEL"``, ``"SCS"``, ``"OSQP"``, ...); ``None`` uses
        :func:`default_solver` for ``kind``.
    kind : {"qp", "sdp"}, default="qp"
        Only used to choose the default solver.
    what : str
        The problem's name in error messages (``"the SDP (10) of HardLabelMVC"``).
    advice : str
        What the user can try when it fails; appended to the message.
    **solver_options
        Passed to ``problem.solve``.

    Returns
    -------
    float
        ``problem.value``.

    Raises
    ------
    SolverFailedError
        When the solver raises ``cvxpy.SolverError`` or returns a status other than
        ``optimal`` / ``optimal_inaccurate`` (``infeasible``, ``unbounded``, ...).

    Warns
    -----
    SolverAccuracyWarning
        When the status is ``optimal_inaccurate``.
    """
    name = solver if solver is not None else default_solver(kind)
    tail = f" {advice}" if advice else ""
    try:
        problem.solve(solver=name, **solver_options)
    except cp.SolverError as exc:
        raise SolverFailedError(
            f"The solver {name} failed on {what}: {str(exc).rstrip('.')}.{tail}"
        ) from exc
    status = problem.status
    if status not in ACCEPTED_STATUSES:
        raise SolverFailedError(f"The solver {name} returned status {status!r} on {what}.{tail}")
    if status == cp.OPTIMAL_INACCURATE:
        warnings.warn(
            f"The solver {name} returned status 'optimal_inaccurate' on {what}; the result "
            f"may be loose.{tail}",
            SolverAccuracyWarning,
            stacklevel=2,
        )
    return float(problem.value)
