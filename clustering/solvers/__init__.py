"""The three MSPC solvers of the MSPC paper, Table 1, and the monotone searches, behind one
signature.

``solve(Z, Lambda, lam, labels0, max_iter) -> SolverResult`` works in standardised
coordinates (see :mod:`clustering._moments`): ``Z`` is the centred, z-scored data
(N x d), ``Lambda`` the regulariser in those coordinates (d x d), ``labels0`` a 0/1 start
(ignored by ``eig``). The result carries the labels, the hyperplane ``(w, b)`` with cluster 1
where ``Z @ w - b >= 0``, the per-iteration objective, the status and, when the solver knows
it, the MPM optimum ``kappa`` of the returned labels. :class:`clustering.MSPC` picks the
paper's solver from :data:`SOLVERS` (``search="paper"``) or the monotone one from
:data:`MONOTONE` (``search="monotone"``) and maps the result back to the user's coordinates.
"""

from ._result import SolverResult
from .eig import solve_eig
from .gep import best_split, lower_bound, solve_gep
from .monotone import climb_gep, climb_mpm
from .mpm_iter import solve_mpm_iterations

SOLVERS = {
    "mpm": solve_mpm_iterations,
    "gep": solve_gep,
    "eig": solve_eig,
}

#: Searches whose accepted steps only raise the MSP.
MONOTONE = {"mpm": climb_mpm, "gep": climb_gep}

__all__ = [
    "MONOTONE",
    "SOLVERS",
    "SolverResult",
    "best_split",
    "climb_gep",
    "climb_mpm",
    "lower_bound",
    "solve_eig",
    "solve_gep",
    "solve_mpm_iterations",
]
