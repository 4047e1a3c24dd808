"""Solvers, one algorithm per module; :data:`SOLVERS` maps CLI names to classes."""

from .cfr import CFRPlusSolver, CFRSolver, check_iterations

SOLVERS = {
    "cfr": CFRSolver,
    "cfr+": CFRPlusSolver,
}

__all__ = ["SOLVERS", "CFRPlusSolver", "CFRSolver", "check_iterations"]
