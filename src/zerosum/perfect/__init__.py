"""Two-player zero-sum games of perfect information: games, search, agents, tournaments.

The games share one small interface (:class:`~zerosum.perfect.games.PerfectGame`); every search
algorithm in :mod:`zerosum.perfect.search` is written once against it.  Only the (light) game
modules load with the package; search, agents, tournaments and the exact Connect Four solver
(:mod:`zerosum.perfect.connect4_solver`) load when imported.
"""

from __future__ import annotations

from .base import PerfectGame
from .games import PERFECT_GAMES, load_perfect_game

__all__ = ["PERFECT_GAMES", "PerfectGame", "load_perfect_game"]
