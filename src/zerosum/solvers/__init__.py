"""Solvers, one algorithm per module; :data:`SOLVERS` maps CLI names to classes."""

from .cfr import CFRPlusSolver, CFRSolver, check_iterations
from .mccfr import ExternalSamplingSolver, OutcomeSamplingSolver

SOLVERS = {
    "cfr": CFRSolver,
    "cfr+": CFRPlusSolver,
    "es-mccfr": ExternalSamplingSolver,
    "os-mccfr": OutcomeSamplingSolver,
}

__all__ = ["SOLVERS", "CFRPlusSolver", "CFRSolver", "check_iterations"]
