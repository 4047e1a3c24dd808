"""How big a full search is, measured rather than guessed from the number of moves left.

:func:`measure_tree` counts the positions and the game-tree nodes below a state (positions are
memoised, so Nim with heaps 1,3,5,7, whose tree has half a billion nodes, is counted in
milliseconds through its 752 positions) and gives up past a cap.  :class:`NodeBudget` wraps a
game so that a search stops with :class:`SearchBudgetExceeded` once it has visited a given number
of nodes: a search that would run for hours is stopped after seconds, whatever the move count says.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass


class SearchBudgetExceeded(Exception):
    """Raised inside a search when it has visited more nodes than its budget."""

    def __init__(self, nodes: int):
        super().__init__(f"more than {nodes:,} nodes")
        self.nodes = nodes


@dataclass
class TreeSize:
    positions: int | None  # distinct positions below the state (None: more than the cap)
    nodes: int | None      # nodes of the full game tree below it (what minimax visits)


def measure_tree(game, state, max_positions: int = 100_000) -> TreeSize:
    """Positions and tree nodes below ``state``, or ``None`` for both past ``max_positions``."""
    memo: dict = {}
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))

    class _Overflow(Exception):
        pass

    def count(s) -> int:
        k = game.key(s)
        n = memo.get(k)
        if n is not None:
            return n
        if len(memo) >= max_positions:
            raise _Overflow
        n = 1
        if not game.is_terminal(s):
            for m in game.legal_moves(s):
                n += count(game.result(s, m))
        memo[k] = n
        return n

    try:
        nodes = count(state)
    except (_Overflow, RecursionError):
        return TreeSize(None, None)
    finally:
        sys.setrecursionlimit(limit)
    return TreeSize(len(memo), nodes)


class NodeBudget:
    """``game`` as seen by a search allowed ``max_nodes`` nodes: every rule is the game's own,
    except that the terminal test (called once per node by every search) counts the calls."""

    def __init__(self, game, max_nodes: int):
        self._game = game
        self.max_nodes = int(max_nodes)
        self.used = 0

    def __getattr__(self, name):
        value = getattr(self._game, name)
        if callable(value):
            self.__dict__[name] = value  # bound methods are looked up once
        return value

    def is_terminal(self, state) -> bool:
        self.used += 1
        if self.used > self.max_nodes:
            raise SearchBudgetExceeded(self.max_nodes)
        return self._game.is_terminal(state)
