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

from collections.abc import Mapping

#: name -> "module:Class", the classes imported on first use (a command that runs one solver, or
#: the public tree's, does not import the others: scipy.sparse, the sequence form, the networks;
#: 0.2-0.3 s of every ``zerosum solve holdem`` before, measured with cProfile on the 2-core machine)
_CLASSES = {
    "cfr": "cfr:CFRSolver",
    "cfr+": "cfr:CFRPlusSolver",
    "es-mccfr": "mccfr:ExternalSamplingSolver",
    "os-mccfr": "mccfr:OutcomeSamplingSolver",
    "lcfr": "lcfr:LCFRSolver",
    "dcfr": "dcfr:DCFRSolver",
    "pcfr+": "pcfr:PCFRPlusSolver",
    "pdcfr+": "pdcfr_plus:PDCFRPlusSolver",
    "hs-dcfr": "hs:HSDCFRSolver",
    "hs-pcfr+": "hs:HSPCFRPlusSolver",
    "psro": "psro:PSROSolver",
    "lp": "lp:LPSolver",
    "mmd": "mmd:MMDSolver",
    "best-response": "dynamics:IteratedBestResponse",
    "mirror-descent": "dynamics:MirrorDescent",
    "magnet": "dynamics:MagnetDynamics",
    "moving-magnet": "dynamics:MovingMagnet",
    "proximal-magnet": "mmd:ProximalMagnet",
    "deep-cfr": "deep_cfr:DeepCFRSolver",
    "sd-cfr": "deep_cfr:SingleDeepCFRSolver",
    "nfsp": "nfsp:NFSPSolver",
}


def _load(spec: str):
    import importlib

    module, name = spec.split(":")
    return getattr(importlib.import_module(f".{module}", __name__), name)


def _registered() -> list[str]:
    """The CFR variants registered at run time (:func:`zerosum.solvers.rules.register_variant`)
    that have no class of their own here; none unless the rules module is loaded (nothing is
    imported to find out)."""
    import sys

    rules = sys.modules.get(f"{__name__}.rules")
    return [] if rules is None else [n for n in rules.VARIANTS if n not in _CLASSES]


class _Solvers(Mapping):
    """The read-only name -> class mapping :data:`SOLVERS`: its keys without importing anything,
    a class imported when it is looked up; a variant registered at run time gets the CFR driver
    with its rules bound (:func:`zerosum.solvers.cfr.variant_solver`)."""

    def __getitem__(self, name):
        if name in _CLASSES:
            return _load(_CLASSES[name])
        if name in _registered():
            from .cfr import variant_solver
            from .rules import VARIANTS

            return variant_solver(VARIANTS[name])
        raise KeyError(name)

    def __contains__(self, name):  # (Mapping's would import the class)
        return name in _CLASSES or name in _registered()

    def __iter__(self):
        return iter([*_CLASSES, *_registered()])

    def __len__(self):
        return len(_CLASSES) + len(_registered())

    def __repr__(self):
        return f"SOLVERS({', '.join(_CLASSES)})"


SOLVERS = _Solvers()

#: the classes also importable from the package itself (``from zerosum.solvers import CFRSolver``)
_NAMES = {spec.split(":")[1]: spec for spec in _CLASSES.values()}


def __getattr__(name):
    if name == "check_iterations":
        from .base import check_iterations

        return check_iterations
    spec = _NAMES.get(name)
    if spec is None:
        raise AttributeError(f"module 'zerosum.solvers' has no attribute {name!r}")
    value = _load(spec)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_NAMES) | {"check_iterations"})


__all__ = ["SOLVERS", "CFRPlusSolver", "CFRSolver", "check_iterations"]
