"""Move ordering: alpha-beta prunes most when the best move is searched first.

With perfect ordering alpha-beta visits about b^(d/2) nodes instead of b^d (Knuth & Moore,
1975).  Two sources of order, in priority: the best move a previous search stored for this state
(the transposition table's "hash move", or the previous iteration's principal variation in
iterative deepening), then the game's own knowledge (:meth:`PerfectGame.order_moves`: centre
first, wins and blocks first at Connect Four).
"""

from __future__ import annotations


def ordered_moves(game, state, moves: list, first=None, use_game_order: bool = True) -> list:
    """``moves`` with ``first`` (if legal) in front, the rest in the game's preferred order."""
    if use_game_order:
        moves = game.order_moves(state, moves)
    if first is not None and first in moves and moves[0] != first:
        moves = [first] + [m for m in moves if m != first]
    return moves
