"""Alpha-beta pruning (Knuth & Moore, "An analysis of alpha-beta pruning", 1975).

Minimax with two bounds: alpha, the value MAX is already sure of, and beta, the value MIN is
already sure of.  Once beta <= alpha the remaining children cannot change the decision and are
skipped.  The root value is exactly minimax's; only the number of nodes drops (by far more when
good moves come first: ``order=True`` uses the game's move ordering).
"""

from __future__ import annotations

import time

from .result import INF, SearchResult, SearchStats, depth_or_inf


def alphabeta(game, state, depth: int | None = None, evaluate=None, order: bool = False) -> SearchResult:
    """Alpha-beta value and best move of ``state`` (MAX/MIN form, values for player 0)."""
    evaluate = evaluate or game.heuristic
    stats = SearchStats()
    start = time.perf_counter()

    def value(s, d, alpha, beta):
        stats.nodes += 1
        if game.is_terminal(s):
            return game.utility(s, 0), None
        if d == 0:
            stats.evaluations += 1
            v = evaluate(s)
            return (v if game.player(s) == 0 else -v), None
        moves = game.legal_moves(s)
        if order:
            moves = game.order_moves(s, moves)
        best_move = None
        if game.player(s) == 0:             # MAX
            best = -INF
            for m in moves:
                v, _ = value(game.result(s, m), d - 1, alpha, beta)
                if v > best:
                    best, best_move = v, m
                alpha = max(alpha, best)
                if beta <= alpha:           # MIN above will never allow this
                    stats.cutoffs += 1
                    break
        else:                               # MIN
            best = INF
            for m in moves:
                v, _ = value(game.result(s, m), d - 1, alpha, beta)
                if v < best:
                    best, best_move = v, m
                beta = min(beta, best)
                if beta <= alpha:           # MAX above will never allow this
                    stats.cutoffs += 1
                    break
        return best, best_move

    v, move = value(state, depth_or_inf(depth), -INF, INF)
    stats.seconds = time.perf_counter() - start
    player = game.player(state)
    return SearchResult("alphabeta", v if player == 0 else -v, move, player, stats, depth,
                        exact=stats.evaluations == 0)
