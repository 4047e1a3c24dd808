"""Two-player zero-sum games of perfect information: games, search, agents, tournaments.

The games share one small interface (:class:`~zerosum.perfect.games.PerfectGame`); every search
algorithm in :mod:`zerosum.perfect.search` is written once against it.  Modules load lazily so
that the exact Connect Four solver (:mod:`zerosum.perfect.connect4_solver`) can be imported
without pulling in the rest.
"""

from __future__ import annotations

from .base import PerfectGame
from .games import PERFECT_GAMES, load_perfect_game

__all__ = ["PERFECT_GAMES", "PerfectGame", "load_perfect_game"]
