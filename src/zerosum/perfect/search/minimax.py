"""Minimax (von Neumann, 1928): the value of the game under perfect play, by full enumeration.

MAX (player 0) takes the largest child value, MIN (player 1) the smallest; values are from MAX's
point of view.  With a depth limit the states at the horizon are scored by a heuristic evaluation
(Shannon, 1950).  Minimax visits every node of the tree: 549,946 at tic-tac-toe.
"""

from __future__ import annotations

import time

from .result import INF, SearchResult, SearchStats, depth_or_inf


def minimax(game, state, depth: int | None = None, evaluate=None) -> SearchResult:
    """Minimax value and best move of ``state``; ``depth`` limits the search (None: to the end)."""
    evaluate = evaluate or game.heuristic
    stats = SearchStats()
    start = time.perf_counter()

    def max_value(s, d):  # the value of s for MAX (player 0)
        stats.nodes += 1
        if game.is_terminal(s):
            return game.utility(s, 0), None
        if d == 0:
            stats.evaluations += 1
            v = evaluate(s)
            return (v if game.player(s) == 0 else -v), None
        maximizing = game.player(s) == 0
        best, best_move = (-INF if maximizing else INF), None
        for m in game.legal_moves(s):
            v, _ = max_value(game.result(s, m), d - 1)
            if (v > best) if maximizing else (v < best):
                best, best_move = v, m
        return best, best_move

    v, move = max_value(state, depth_or_inf(depth))
    stats.seconds = time.perf_counter() - start
    player = game.player(state)
    return SearchResult("minimax", v if player == 0 else -v, move, player, stats, depth,
                        exact=stats.evaluations == 0)
