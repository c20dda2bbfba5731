"""The three MSPC solvers of the MSPC paper, Table 1, behind one signature.

``solve(Z, Lambda, lam, labels0, max_iter) -> SolverResult`` works in standardised
coordinates (see :mod:`clustering._moments`); :class:`clustering.MSPC` picks the solver from
:data:`SOLVERS` and maps the result back to the user's coordinates.
"""

from ._result import SolverResult
from .eig import solve_eig
from .gep import best_split, lower_bound, solve_gep
from .mpm_iter import solve_mpm_iterations

SOLVERS = {
    "mpm": solve_mpm_iterations,
    "gep": solve_gep,
    "eig": solve_eig,
}

__all__ = [
    "SOLVERS",
    "SolverResult",
    "best_split",
    "lower_bound",
    "solve_eig",
    "solve_gep",
    "solve_mpm_iterations",
]
