"""Negamax: minimax written once for both players.

In a zero-sum game a state's value for the player to move is the largest of the children's
values *negated* (each child is valued for the opponent, who moves there), so MAX and MIN
are the same code: value(s) = max over moves of -value(child).  Same values and node
count as :func:`~zerosum.perfect.search.minimax.minimax`.
"""

from __future__ import annotations

import time

from .result import INF, SearchResult, SearchStats, depth_or_inf


def negamax(game, state, depth: int | None = None, evaluate=None) -> SearchResult:
    """Negamax value (for the player to move) and best move of ``state``."""
    evaluate = evaluate or game.heuristic
    stats = SearchStats()
    start = time.perf_counter()

    def value(s, d):
        stats.nodes += 1
        if game.is_terminal(s):
            return game.utility(s, game.player(s)), None
        if d == 0:
            stats.evaluations += 1
            return evaluate(s), None
        best, best_move = -INF, None
        for m in game.legal_moves(s):
            v = -value(game.result(s, m), d - 1)[0]
            if v > best:
                best, best_move = v, m
        return best, best_move

    v, move = value(state, depth_or_inf(depth))
    stats.seconds = time.perf_counter() - start
    return SearchResult("negamax", v, move, game.player(state), stats, depth, exact=stats.evaluations == 0)
