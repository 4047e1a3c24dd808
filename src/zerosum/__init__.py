"""zerosum: solve two-player zero-sum games, exactly where they are small and fast where they are not.

Where things live (``help(zerosum.NAME)`` for each; from the bottom of the layers up):

* the history-tree core, :mod:`zerosum.core`: the rules API :class:`Game`, the compiled form
  every solver runs on (:func:`compiled`, :mod:`zerosum.core.compile`), policies
  (:class:`TabularPolicy`, ``save`` / ``load`` as JSON) and exact evaluation
  (:func:`nash_conv`, :func:`exploitability`, :func:`evaluate`, :func:`best_response_value`,
  :func:`expected_value`);
* poker rules, :mod:`zerosum.poker`: cards, ranges, hand strength, the poker family and limit
  hold'em subgames;
* games: :func:`load_game` by name (``zerosum.known_games()``; ``"openspiel:NAME"`` for any
  OpenSpiel game), the registry and the other games in :mod:`zerosum.games`, Gambit files in
  :mod:`zerosum.games.efg`;
* solvers: :data:`SOLVERS` maps every ``zerosum solve -a`` name (``cfr``, ``cfr+``, ``dcfr``,
  ``lp``, ``es-mccfr``, ``psro``, ``deep-cfr``, ...) to its class, e.g.
  ``SOLVERS["dcfr"](game, alpha=1.5)``; :class:`CFRSolver` and :class:`CFRPlusSolver` are also
  here; one module per algorithm in :mod:`zerosum.solvers`;
* the public-tree form of poker games (hand vectors, its own solver and the Ray split):
  :mod:`zerosum.public_tree`; what a solved tree says (node reports, values, ``.zsp`` solution
  files) :mod:`zerosum.solutions`; re-solving :mod:`zerosum.resolving`; learned oracles :mod:`zerosum.learning`; networks
  :mod:`zerosum.deep`; Ray :mod:`zerosum.distributed`;
* perfect-information games and search: :mod:`zerosum.perfect` (``load_perfect_game``,
  :mod:`zerosum.perfect.search`, agents, tournaments); the exact Connect Four solver is
  ``from zerosum.perfect.connect4_solver import Connect4Solver``;
* experiments (the seeds' tables): :mod:`zerosum.experiments`; the command line:
  :mod:`zerosum.cli` (``zerosum --help``), the only code that parses arguments and prints.

Bad input raises :class:`ZerosumError` (a ValueError) with a one-line message.
"""

from .errors import ZerosumError

#: public name -> the module that defines it, imported on first use (PEP 562), so that a command
#: needing only one corner of the package (``zerosum analyze connect4``) does not pay for all of it
_LAZY = {
    "CompiledGame": "core.compile", "compile_game": "core.compile", "compiled": "core.compile",
    "Evaluation": "core.evaluation", "best_response_value": "core.evaluation", "evaluate": "core.evaluation",
    "expected_value": "core.evaluation", "exploitability": "core.evaluation", "nash_conv": "core.evaluation",
    "Game": "core.game", "TabularPolicy": "core.policy",
    "known_games": "games", "load_game": "games",
    "SOLVERS": "solvers", "CFRPlusSolver": "solvers", "CFRSolver": "solvers",
}

#: subpackages reachable as attributes before anything imported them (``zerosum.games.register(...)``)
_SUBMODULES = ("games",)


def __getattr__(name):
    module = _LAZY.get(name)
    if module is None and name in _SUBMODULES:
        import importlib

        return importlib.import_module(f".{name}", __name__)  # the import sets it as an attribute
    if module is None:
        raise AttributeError(f"module 'zerosum' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY) | set(_SUBMODULES))


__version__ = "0.1.0"

__all__ = [
    "SOLVERS",
    "CFRPlusSolver",
    "CFRSolver",
    "CompiledGame",
    "Evaluation",
    "Game",
    "TabularPolicy",
    "ZerosumError",
    "best_response_value",
    "compile_game",
    "compiled",
    "evaluate",
    "expected_value",
    "exploitability",
    "known_games",
    "load_game",
    "nash_conv",
]
