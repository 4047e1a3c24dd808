"""Solvers for imperfect-information games, one algorithm per module.

:data:`SOLVERS` maps the names ``zerosum solve -a NAME`` takes to the classes.  Every solver takes
a game (or its compiled form) and has ``run(iterations, checkpoints)``, ``average_policy()`` and
``current_policy()``; the iterative ones share the run loop of :mod:`.base`.

Where things live:

* :mod:`.rules` -- every CFR variant's rule as a small object (regret rule, average weight,
  prediction), taken by both forms; :mod:`.cfr` -- CFR and CFR+ (``CFRSolver``, ``CFRPlusSolver``),
  the history-tree driver the variants share;
  :mod:`.lcfr`, :mod:`.dcfr`, :mod:`.pcfr`, :mod:`.pdcfr_plus` -- linear, discounted, predictive
  and predictive discounted CFR;
* :mod:`.lp` -- the exact sequence-form linear program (``LPSolver``);
* :mod:`.mccfr` -- external- and outcome-sampling Monte Carlo CFR;
* :mod:`.dynamics` -- Lab 15's self-play dynamics (best response, mirror descent, magnets);
  :mod:`.mmd` -- dilated magnetic mirror descent and the proximal magnet;
* :mod:`.psro` -- PSRO with exact best responses and its meta-solvers;
* :mod:`.regret_matching` -- regret matching on a payoff matrix;
* :mod:`.nodes` -- the "nodes touched" counter every solver reports;
* :mod:`.base` -- input checks and the checkpointed run loop;
* :mod:`.deep_cfr` -- Deep CFR and Single Deep CFR; :mod:`.nfsp` -- Neural Fictitious Self-Play
  (``deep-cfr``, ``sd-cfr``, ``nfsp``: they need the ``deep`` extra; their networks, training and
  exact tabulation come from :mod:`zerosum.deep`).

The CFR variants on the public tree (hold'em, the poker family) are :mod:`zerosum.public_tree.solver`,
with the same regret rules.

May import: numpy, scipy, numba, :mod:`zerosum.core`, :mod:`zerosum.learning` (PSRO's learned
oracles), :mod:`zerosum.deep` (networks), :mod:`zerosum.distributed` (Ray, PSRO's parallel oracle
calls), :mod:`zerosum.errors`.  Never the public tree, an experiment or the command line.

Example::

    from zerosum import load_game
    from zerosum.solvers import SOLVERS
    solver = SOLVERS["dcfr"](load_game("leduc"))
    solver.run(1000, checkpoints=[100])[-1]["nash_conv_average"]
"""

from .base import check_iterations
from .cfr import CFRPlusSolver, CFRSolver
from .dcfr import DCFRSolver
from .deep_cfr import DeepCFRSolver, SingleDeepCFRSolver
from .dynamics import IteratedBestResponse, MagnetDynamics, MirrorDescent, MovingMagnet
from .hs import HSDCFRSolver, HSPCFRPlusSolver
from .lcfr import LCFRSolver
from .lp import LPSolver
from .mccfr import ExternalSamplingSolver, OutcomeSamplingSolver
from .mmd import MMDSolver, ProximalMagnet
from .nfsp import NFSPSolver
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
    "hs-dcfr": HSDCFRSolver,
    "hs-pcfr+": HSPCFRPlusSolver,
    "psro": PSROSolver,
    "lp": LPSolver,
    "mmd": MMDSolver,
    "best-response": IteratedBestResponse,
    "mirror-descent": MirrorDescent,
    "magnet": MagnetDynamics,
    "moving-magnet": MovingMagnet,
    "proximal-magnet": ProximalMagnet,
    "deep-cfr": DeepCFRSolver,
    "sd-cfr": SingleDeepCFRSolver,
    "nfsp": NFSPSolver,
}

__all__ = ["SOLVERS", "CFRPlusSolver", "CFRSolver", "check_iterations"]
