"""Solvers, one algorithm per module; :data:`SOLVERS` maps CLI names to classes."""

from .base import check_iterations
from .cfr import CFRPlusSolver, CFRSolver
from .dcfr import DCFRSolver
from .dynamics import IteratedBestResponse, MagnetDynamics, MirrorDescent, MovingMagnet
from .lcfr import LCFRSolver
from .lp import LPSolver
from .mccfr import ExternalSamplingSolver, OutcomeSamplingSolver
from .mmd import MMDSolver, ProximalMagnet
from .pcfr import PCFRPlusSolver
from .pdcfr_plus import PDCFRPlusSolver
from .psro import PSROSolver

SOLVERS = {
    "cfr": CFRSolver,
    "cfr+": CFRPlusSolver,
    "es-mccfr": ExternalSamplingSolver,
    "os-mccfr": OutcomeSamplingSolver,
    "lcfr": LCFRSolver,
    "dcfr": DCFRSolver,
    "pcfr+": PCFRPlusSolver,
    "pdcfr+": PDCFRPlusSolver,
    "psro": PSROSolver,
    "lp": LPSolver,
    "mmd": MMDSolver,
    "best-response": IteratedBestResponse,
    "mirror-descent": MirrorDescent,
    "magnet": MagnetDynamics,
    "moving-magnet": MovingMagnet,
    "proximal-magnet": ProximalMagnet,
}

__all__ = ["SOLVERS", "CFRPlusSolver", "CFRSolver", "check_iterations"]
