"""zerosum: solve two-player zero-sum games, exactly where they are small and fast where they are not.

Where things live (``help(zerosum.NAME)`` for each):

* games: :func:`load_game` by name (``zerosum.known_games()``; ``"openspiel:NAME"`` for any
  OpenSpiel game), the rules API :class:`Game` (:mod:`zerosum.games`), Gambit files in
  :mod:`zerosum.games.efg`;
* the compiled form every solver runs on: :func:`compiled` (:mod:`zerosum.compiled`); the
  public-tree form of poker games in :mod:`zerosum.public_tree`;
* solvers: :data:`SOLVERS` maps every ``zerosum solve -a`` name (``cfr``, ``cfr+``, ``dcfr``,
  ``lp``, ``es-mccfr``, ``psro``, ...) to its class, e.g. ``SOLVERS["dcfr"](game, alpha=1.5)``;
  :class:`CFRSolver` and :class:`CFRPlusSolver` are also here; one module per algorithm in
  :mod:`zerosum.solvers`;
* evaluation: :func:`nash_conv`, :func:`exploitability`, :func:`evaluate`,
  :func:`best_response_value`, :func:`expected_value`;
* policies: :class:`TabularPolicy` (``save`` / ``load`` as JSON);
* perfect-information games and search: :mod:`zerosum.perfect` (``load_perfect_game``,
  :mod:`zerosum.perfect.search`, agents, tournaments); the exact Connect Four solver is
  ``from zerosum.perfect.connect4_solver import Connect4Solver``;
* experiments (the seeds' tables): :mod:`zerosum.experiments`; the command line:
  :mod:`zerosum.cli` (``zerosum --help``).

Bad input raises :class:`ZerosumError` (a ValueError) with a one-line message.
"""

from .compiled import CompiledGame, compile_game, compiled
from .errors import ZerosumError
from .evaluation import Evaluation, best_response_value, evaluate, expected_value, exploitability, nash_conv
from .games import Game, known_games, load_game
from .policy import TabularPolicy
from .solvers import SOLVERS, CFRPlusSolver, CFRSolver

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
