"""Alpha-beta with a transposition table that knows what kind of value it stores.

A transposition table (Greenblatt et al., 1967; Zobrist, 1970) remembers the result of each state
searched so that a state reached again by another move order is not searched twice.  Under
alpha-beta a result is only exact when it fell strictly inside the window (alpha, beta): a value
<= alpha is an UPPER bound (every move failed low) and a value >= beta a LOWER bound (a cut-off
left moves unsearched).  Storing every result as exact, as a naive table does, returns a bound
as if it were the value when the same state is reached with another window, and the root value
can come out wrong (see :class:`NaiveTable` and the tests).  The probe below follows Marsland,
"A review of game-tree pruning" (ICCA Journal, 1986): an exact entry answers the node, a bound
narrows the window, and an empty window answers it too.  The stored best move is tried first.
"""

from __future__ import annotations

import enum
import time

from .ordering import ordered_moves
from .result import INF, SearchResult, SearchStats, SearchTimeout, depth_or_inf


class Bound(enum.IntEnum):
    EXACT = 0
    LOWER = 1   # the true value is >= the stored value (the search failed high)
    UPPER = 2   # the true value is <= the stored value (the search failed low)


class TranspositionTable:
    """key -> (value, depth, bound, best move, pure); deeper searches are never answered by
    shallower entries.  ``pure`` says that no heuristic estimate went into the value (so a search
    answered from the table knows whether its result is exact).  ``max_entries`` bounds memory
    (the table is cleared when it is full)."""

    def __init__(self, max_entries: int = 500_000):
        self.entries: dict = {}
        self.max_entries = max_entries

    def probe(self, key):
        """The entry ``(value, depth, bound, move, pure)`` stored for ``key``, or None."""
        return self.entries.get(key)

    def store(self, key, value, depth, bound: Bound, move, pure: bool = True):
        """Remember a search result with its bound flag; the table is emptied when full."""
        if len(self.entries) >= self.max_entries:
            self.entries.clear()
        self.entries[key] = (value, depth, bound, move, pure)

    def clear(self):
        """Forget every entry."""
        self.entries.clear()

    def __len__(self):
        return len(self.entries)


class NaiveTable(TranspositionTable):
    """The mistake to avoid: every alpha-beta result stored as if it were exact."""

    def store(self, key, value, depth, bound, move, pure=True):
        """Store the result as EXACT whatever its bound (the bug this class demonstrates)."""
        super().store(key, value, depth, Bound.EXACT, move, pure)


def alphabeta_tt(game, state, depth: int | None = None, evaluate=None, table: TranspositionTable | None = None,
                 order: bool = True, deadline: float | None = None, root_moves: list | None = None,
                 alpha: float = -INF, beta: float = INF) -> SearchResult:
    """Negamax alpha-beta with a transposition table and move ordering.

    ``table`` may be shared between calls (iterative deepening reuses it); ``deadline`` (a
    ``time.perf_counter()`` value) makes the search raise :class:`SearchTimeout` when passed;
    ``root_moves`` fixes the order of the moves at the root (agents shuffle it to break ties).
    """
    evaluate = evaluate or game.heuristic
    table = TranspositionTable() if table is None else table
    stats = SearchStats()
    start = time.perf_counter()
    estimates = [0]     # heuristic values used so far, evaluated here or read from the table

    def value(s, d, alpha, beta, root=False):
        stats.nodes += 1
        if deadline is not None and stats.nodes & 255 == 0 and time.perf_counter() > deadline:
            raise SearchTimeout
        if game.is_terminal(s):
            return game.utility(s, game.player(s)), None
        if d == 0:
            stats.evaluations += 1
            estimates[0] += 1
            return evaluate(s), None
        used_before = estimates[0]
        key = game.key(s)
        entry = table.probe(key)
        hash_move = None
        if entry is not None and entry[1] >= d:
            stats.tt_hits += 1
            v, _, bound, hash_move, pure = entry
            if not root:
                estimates[0] += not pure
                if bound == Bound.EXACT:
                    stats.tt_cutoffs += 1
                    return v, hash_move
                if bound == Bound.LOWER:
                    alpha = max(alpha, v)
                else:
                    beta = min(beta, v)
                if alpha >= beta:
                    stats.tt_cutoffs += 1
                    return v, hash_move
        else:
            stats.tt_misses += 1
            if entry is not None:
                hash_move = entry[3]        # a shallower result still suggests a good first move
        alpha0 = alpha   # the window actually searched decides what kind of value comes out
        if root and root_moves is not None:
            moves = ordered_moves(game, s, list(root_moves), hash_move, use_game_order=False)
        elif order:
            moves = ordered_moves(game, s, game.legal_moves(s), hash_move)
        else:
            moves = game.legal_moves(s)
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
        bound = Bound.UPPER if best <= alpha0 else Bound.LOWER if best >= beta else Bound.EXACT
        table.store(key, best, d, bound, best_move, estimates[0] == used_before)
        return best, best_move

    v, move = value(state, depth_or_inf(depth), alpha, beta, root=True)
    stats.seconds = time.perf_counter() - start
    stats.tt_size = len(table)
    name = "alphabeta_tt" + ("_naive" if isinstance(table, NaiveTable) else "")
    return SearchResult(name, v, move, game.player(state), stats, depth, exact=estimates[0] == 0)
