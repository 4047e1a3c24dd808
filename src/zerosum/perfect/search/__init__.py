"""Search algorithms for perfect-information games, each written once against
:class:`~zerosum.perfect.base.PerfectGame` and returning a :class:`SearchResult`."""

from __future__ import annotations

from .alphabeta import alphabeta
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
    "ALGORITHMS", "Bound", "NaiveTable", "SearchResult", "SearchStats", "SearchTimeout", "TranspositionTable",
    "alphabeta", "alphabeta_tt", "iterative_deepening", "mcts", "minimax", "negamax", "negamax_alphabeta",
    "ordered_moves",
]
