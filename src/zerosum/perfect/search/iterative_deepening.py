"""Iterative deepening under a time budget (Slate & Atkin, "Chess 4.5", 1977).

Search to depth 1, 2, 3, ... until the time is up, keeping the move of the last *completed*
depth: the search can be stopped at any moment and still has a move to play (before depth 1
completes, the game's first preferred move).  The repeated shallow searches cost little because
the tree grows geometrically, and they pay for themselves: the transposition table they fill
puts the previous best move first at every node, so the deeper search prunes more.  The search
stops early once a win or loss is proven or the whole remaining game has been searched.
"""

from __future__ import annotations

import time

from .ordering import ordered_moves
from .result import SearchResult, SearchStats, SearchTimeout
from .transposition import TranspositionTable, alphabeta_tt


def iterative_deepening(game, state, time_budget: float = 1.0, max_depth: int | None = None, evaluate=None,
                        table: TranspositionTable | None = None, root_moves: list | None = None) -> SearchResult:
    """The best move found within ``time_budget`` seconds; ``depth`` = the last completed depth."""
    start = time.perf_counter()
    deadline = start + max(0.0, float(time_budget))
    table = TranspositionTable() if table is None else table
    player = game.player(state)
    total = SearchStats()
    moves = game.legal_moves(state)
    fallback = (root_moves[0] if root_moves else ordered_moves(game, state, moves)[0]) if moves else None
    best = SearchResult("iterative_deepening", 0.0, fallback, player, total, depth=0, exact=False)
    limit = game.max_remaining_moves(state)
    if max_depth is not None:
        limit = max_depth if limit is None else min(limit, max_depth)
    if not moves:
        best.value, best.exact = game.utility(state, player), True
        return best
    depth = 1
    while (limit is None or depth <= limit) and time.perf_counter() < deadline:
        try:
            r = alphabeta_tt(game, state, depth, evaluate, table, deadline=deadline, root_moves=root_moves)
        except SearchTimeout:
            break
        for k in ("nodes", "evaluations", "cutoffs", "tt_hits", "tt_misses", "tt_cutoffs"):
            setattr(total, k, getattr(total, k) + getattr(r.stats, k))
        best = SearchResult("iterative_deepening", r.value, r.move, player, total, depth=depth, exact=r.exact)
        if abs(r.value) >= 1 or r.exact:   # proven result, or nothing left below the horizon
            break
        depth += 1
    total.seconds = time.perf_counter() - start
    total.tt_size = len(table)
    return best
