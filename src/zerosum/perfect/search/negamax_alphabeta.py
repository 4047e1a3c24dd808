"""Negamax with alpha-beta pruning (Knuth & Moore, 1975, in their negamax form).

The window (alpha, beta) is for the player to move; the child is searched with the window seen
from the other side, (-beta, -alpha), and its value negated.  A cut-off happens as soon as a move
reaches beta.  The result is *fail-soft*: a value <= alpha is an upper bound and a value >= beta
a lower bound, which is what a transposition table must remember
(:mod:`~zerosum.perfect.search.transposition`).
"""

from __future__ import annotations

import time

from .result import INF, SearchResult, SearchStats, depth_or_inf


def negamax_alphabeta(game, state, depth: int | None = None, evaluate=None, order: bool = False,
                      alpha: float = -INF, beta: float = INF) -> SearchResult:
    """Negamax alpha-beta value (for the player to move) and best move, within (alpha, beta)."""
    evaluate = evaluate or game.heuristic
    stats = SearchStats()
    start = time.perf_counter()

    def value(s, d, alpha, beta):
        stats.nodes += 1
        if game.is_terminal(s):
            return game.utility(s, game.player(s)), None
        if d == 0:
            stats.evaluations += 1
            return evaluate(s), None
        moves = game.legal_moves(s)
        if order:
            moves = game.order_moves(s, moves)
        best, best_move = -INF, None
        for m in moves:
            v = -value(game.result(s, m), d - 1, -beta, -alpha)[0]
            if v > best:
                best, best_move = v, m
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        stats.cutoffs += 1
                        break
        return best, best_move

    v, move = value(state, depth_or_inf(depth), alpha, beta)
    stats.seconds = time.perf_counter() - start
    return SearchResult("negamax_alphabeta", v, move, game.player(state), stats, depth,
                        exact=stats.evaluations == 0)
