"""Two-player zero-sum games of perfect information: games, search, agents, tournaments.

The games share one small interface (:class:`~zerosum.perfect.games.PerfectGame`); every search
algorithm in :mod:`zerosum.perfect.search` is written once against it.  Only the (light) game
modules load with the package; search, agents, tournaments and the exact Connect Four solver
(:mod:`zerosum.perfect.connect4_solver`) load when imported.

Where things live: the interface in :mod:`.base`; the games in :mod:`.mnk` (tic-tac-toe and
m,n,k-games), :mod:`.connect4` and :mod:`.nim`, with the registry :func:`load_perfect_game` in
:mod:`.games`; search algorithms in :mod:`zerosum.perfect.search`; players in :mod:`.agents`
(``make_agent("alphabeta:4")``); round robins and Elo ratings in :mod:`.tournament`.

Connect Four's bit arithmetic (four in a row, winning cells, column masks, mirror) is written
once in :mod:`.bitboard` (plain Python, light): the game calls it on Python integers and the
exact solver compiles the same functions with Numba.  The solver is four layers, each importing
only the ones before it: :mod:`.bitboard`, :mod:`.connect4_table` (the transposition tables),
:mod:`.connect4_search` (the compiled null-window search) and :mod:`.connect4_solver`
(``Position``, ``parse_moves`` and ``Connect4Solver``, the public entry point).
"""

from __future__ import annotations

from .base import PerfectGame
from .games import PERFECT_GAMES, load_perfect_game

__all__ = ["PERFECT_GAMES", "PerfectGame", "load_perfect_game"]
