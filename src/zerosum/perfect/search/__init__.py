"""Search algorithms for perfect-information games, each written once against
:class:`~zerosum.perfect.base.PerfectGame` and returning a :class:`SearchResult` (value for the
player to move, best move, depth, whether it is exact, and the node counts in ``stats``).

One module per algorithm: :mod:`.minimax`, :mod:`.negamax`, :mod:`.alphabeta`,
:mod:`.negamax_alphabeta`, :mod:`.transposition` (tables with bound flags, ``alphabeta_tt``),
:mod:`.ordering` (move ordering), :mod:`.iterative_deepening`, :mod:`.mcts` (UCT); the result
types are in :mod:`.result`.  :data:`ALGORITHMS` maps ``zerosum search -a NAME`` to a function and
its keyword arguments.

Example::

    from zerosum.perfect import load_perfect_game
    from zerosum.perfect.search import alphabeta
    game = load_perfect_game("tictactoe")
    alphabeta(game, game.initial_state()).stats.nodes    # 18297
"""

from __future__ import annotations

from .alphabeta import alphabeta
from .budget import NodeBudget, SearchBudgetExceeded, TreeSize, measure_tree
from .iterative_deepening import iterative_deepening
from .mcts import mcts
from .minimax import minimax
from .negamax import negamax
from .negamax_alphabeta import negamax_alphabeta
from .ordering import ordered_moves
from .result import SearchResult, SearchStats, SearchTimeout
from .transposition import Bound, NaiveTable, TranspositionTable, alphabeta_tt

#: exhaustive / depth-limited searches by CLI name: name -> (function, keyword arguments)
ALGORITHMS = {
    "minimax": (minimax, {}),
    "negamax": (negamax, {}),
    "alphabeta": (alphabeta, {}),
    "alphabeta_ordered": (alphabeta, {"order": True}),
    "negamax_alphabeta": (negamax_alphabeta, {}),
    "alphabeta_tt": (alphabeta_tt, {"order": False}),
    "alphabeta_tt_ordered": (alphabeta_tt, {"order": True}),
}

__all__ = [
    "ALGORITHMS",
    "Bound",
    "NaiveTable",
    "NodeBudget",
    "SearchBudgetExceeded",
    "SearchResult",
    "SearchStats",
    "SearchTimeout",
    "TranspositionTable",
    "TreeSize",
    "alphabeta",
    "alphabeta_tt",
    "iterative_deepening",
    "mcts",
    "measure_tree",
    "minimax",
    "negamax",
    "negamax_alphabeta",
    "ordered_moves",
]
