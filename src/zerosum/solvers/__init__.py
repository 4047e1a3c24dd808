"""Solvers, one algorithm per module; :data:`SOLVERS` maps CLI names to classes."""

from .cfr import CFRPlusSolver, CFRSolver, check_iterations
from .dcfr import DCFRSolver
from .lcfr import LCFRSolver
from .lp import LPSolver
from .mccfr import ExternalSamplingSolver, OutcomeSamplingSolver
from .pcfr import PCFRPlusSolver
from .pdcfr_plus import PDCFRPlusSolver

SOLVERS = {
    "cfr": CFRSolver,
    "cfr+": CFRPlusSolver,
    "es-mccfr": ExternalSamplingSolver,
    "os-mccfr": OutcomeSamplingSolver,
    "lcfr": LCFRSolver,
    "dcfr": DCFRSolver,
    "pcfr+": PCFRPlusSolver,
    "pdcfr+": PDCFRPlusSolver,
    "lp": LPSolver,
}

__all__ = ["SOLVERS", "CFRPlusSolver", "CFRSolver", "check_iterations"]
