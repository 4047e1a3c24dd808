"""What every search returns: the value, the best move and the statistics of the search."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field

INF = math.inf


class SearchTimeout(Exception):
    """Raised inside a search when its deadline has passed (iterative deepening catches it)."""


@dataclass
class SearchStats:
    nodes: int = 0            # states visited (each call of the recursion, the root included)
    evaluations: int = 0      # heuristic evaluations at the depth limit
    cutoffs: int = 0          # alpha-beta cut-offs
    tt_hits: int = 0          # table entries found deep enough to use
    tt_misses: int = 0        # table lookups that found nothing usable
    tt_cutoffs: int = 0       # hits that answered the node without searching it
    tt_size: int = 0          # entries in the table at the end
    seconds: float = 0.0

    def to_dict(self) -> dict:
        """The counters as a plain dict (for ``--json``)."""
        return asdict(self)


@dataclass
class SearchResult:
    """The outcome of a search from one state.

    ``value`` is from the point of view of the player to move at the root (``player``): +1 a
    forced win, -1 a forced loss, 0 a draw; a value strictly inside (-1, 1) is a heuristic estimate
    (depth-limited search).  ``move`` is a best move (None at a terminal state).
    """

    algorithm: str
    value: float
    move: object
    player: int
    stats: SearchStats = field(default_factory=SearchStats)
    depth: float | None = None         # depth searched (None: to the end of the game)
    exact: bool = True                 # no heuristic evaluation was used

    def __post_init__(self):
        self.value = float(self.value) + 0.0   # no -0.0 from negating a draw

    def value_for(self, player: int) -> float:
        """The value from ``player``'s point of view."""
        return self.value if player == self.player else -self.value

    def to_dict(self, game=None) -> dict:
        """The result as a plain dict (``--json``); with ``game``, the move as people write it."""
        move = self.move
        return {"algorithm": self.algorithm, "value": self.value,
                "move": game.move_label(move) if game is not None and move is not None else move,
                "player": self.player, "depth": None if self.depth in (None, INF) else self.depth,
                "exact": self.exact, **self.stats.to_dict()}


def depth_or_inf(depth) -> float:
    """``None`` (search to the end) as infinity, so ``depth - 1`` and ``depth == 0`` just work."""
    if depth is None:
        return INF
    if not isinstance(depth, int) or isinstance(depth, bool) or depth < 0:
        from ...errors import ZerosumError

        raise ZerosumError(f"depth must be a non-negative integer or None, got {depth!r}")
    return depth
