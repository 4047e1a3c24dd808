"""The exact Connect Four solver: positions, move strings and the public driver.

:class:`Connect4Solver` solves Connect Four positions exactly, after Pascal Pons's tutorial
("Solving Connect 4: how to build a perfect solver", blog.gamesolver.org, 2017); this module is
what a user imports (``from zerosum.perfect.connect4_solver import Connect4Solver, Position,
parse_moves``) and holds the Python side: :class:`Position` (Pons's two bitboards), the parsing of
move strings (:func:`parse_moves`, one compiled loop), the checks of the board and table sizes,
the tables' lifetime (kept between calls, ``reset()``) and the loop that calls the compiled search
again each time it pauses, so that Ctrl-C lands.  The solver is split along its seams:

* :mod:`zerosum.perfect.bitboard`: the board arithmetic (has four, winning cells, column masks,
  popcount, mirror), shared with the game :mod:`zerosum.perfect.connect4`;
* :mod:`zerosum.perfect.connect4_table`: the two transposition tables (layout, sizes, probe,
  store);
* :mod:`zerosum.perfect.connect4_search`: the null-window negamax, move ordering, the
  pause-and-resume stack, and why the design is what it is;
* this module: positions and the driver.

Score convention (Pons's test sets): from the point of view of the player to move, 0 for a draw,
positive for a win: ``(width*height + 1)//2 + 1`` minus the number of stones the winner has played
when the game ends (22 minus that number on 7x6), negative for a loss.

Imports: NumPy, Numba, :mod:`zerosum.errors` and the three modules above (no module imports this
one but the agents and the command line).
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from ..errors import ZerosumError
from . import bitboard
from .bitboard import board_mask, bottom_cell, bottom_mask, column_mask, has_four, top_cell
from .connect4_search import FRESH, PAUSED, PHASE, new_stack, new_state, solve
from .connect4_table import new_tables, next_generation, table_move, table_sizes

__all__ = ["Connect4Solver", "Position", "SolverTimeout", "parse_moves"]

_has_four = njit(cache=True, inline="always")(bitboard.has_four)
_top_cell = njit(cache=True, inline="always")(bitboard.top_cell)
_bottom_cell = njit(cache=True, inline="always")(bitboard.bottom_cell)


class SolverTimeout(ZerosumError):
    """A search given a deadline (:meth:`Connect4Solver.analyze`) did not finish by then."""


# --------------------------------------------------------------------------- positions

class Position:
    """A Connect Four position as Pons's two bitboards, built from a move string."""

    __slots__ = ("height", "mask", "n", "pos", "width")

    def __init__(self, width: int = 7, height: int = 6):
        self.width, self.height = width, height
        self.pos = 0
        self.mask = 0
        self.n = 0

    def can_play(self, col: int) -> bool:
        """Whether column ``col`` (0-based) has room."""
        return self.mask & top_cell(col, self.height) == 0

    def is_winning_move(self, col: int) -> bool:
        """Whether playing column ``col`` (0-based) makes four in a row."""
        cell = (self.mask + bottom_cell(col, self.height)) & column_mask(col, self.height)
        return has_four(self.pos | cell, self.height)

    def play(self, col: int) -> None:
        """Play column ``col`` (0-based); the other player is then to move."""
        self.pos ^= self.mask
        self.mask |= self.mask + bottom_cell(col, self.height)
        self.n += 1

    def copy(self) -> Position:
        """An independent copy."""
        p = Position(self.width, self.height)
        p.pos, p.mask, p.n = self.pos, self.mask, self.n
        return p


@njit(cache=True)
def _play_columns(cols, W, H):
    """Play 0-based columns from the empty board.  Returns (position, mask, moves played, error,
    index of the offending move): error 0 none, 1 out of range, 2 full column, 3 game already won."""
    pos = np.int64(0)
    mask = np.int64(0)
    for i in range(cols.shape[0]):
        c = cols[i]
        if c < 0 or c >= W:
            return pos, mask, i, 1, i
        if mask & _top_cell(c, H) != 0:
            return pos, mask, i, 2, i
        if i > 0 and _has_four(pos ^ mask, H):  # the stones of the player who just moved
            return pos, mask, i, 3, i
        pos ^= mask
        mask |= mask + _bottom_cell(c, H)
    return pos, mask, cols.shape[0], 0, -1


def parse_moves(moves: str, width: int = 7, height: int = 6) -> Position:
    """The position after ``moves`` (1-based columns); a ZerosumError names any bad move."""
    if not isinstance(moves, str):
        raise ZerosumError(f"moves must be a string of columns 1..{width}, got {type(moves).__name__}")
    text = moves.strip()
    for i, ch in enumerate(text, start=1):
        if not ("0" <= ch <= "9"):
            raise ZerosumError(f"invalid move {ch!r} at position {i} of {text!r}: "
                               f"not a column number 1..{width}")
    cols = np.frombuffer(text.encode("ascii"), dtype=np.uint8).astype(np.int64) - ord("1")
    pos, mask, n, err, at = _play_columns(cols, width, height)
    if err:
        ch = text[at]
        why = {1: f"column out of range 1..{width}", 2: f"column {ch} is full",
               3: "the game was already won by the previous move"}[err]
        raise ZerosumError(f"invalid move {ch!r} at position {at + 1} of {text!r}: {why}")
    p = Position(width, height)
    p.pos, p.mask, p.n = int(pos), int(mask), int(n)
    return p


# --------------------------------------------------------------------------- the solver

class Connect4Solver:
    """Exact solver for Connect Four on a ``width`` x ``height`` board (7x6 by default).

    ``solve(moves)`` gives the score of the position after ``moves`` for the player to move,
    ``analyze(moves)`` the score of every column, ``best_move(moves)`` a best column (1-based).
    The transposition tables (the big one ``2**table_size_log2`` slots of 8 bytes, the small one
    ``2**small_log2`` slots of 16) persist between calls; ``reset()`` empties them.  ``nodes`` is
    the number of nodes searched by the last call.  The tuning knobs (``tt_min``: no table below
    that many empty cells, ``sort_min``: threat ordering from that many, ``split``: the big table
    from that many, ``mtdf``: MTD(f) rather than Pons's bisection of the score range: about 7%
    fewer nodes near 0, many times more on quick wins) change the work, never a score.
    """

    #: nodes searched per compiled call: between two calls Python can raise KeyboardInterrupt
    #: (Ctrl-C), about a tenth of a second of search each
    BUDGET = 1 << 20

    def __init__(self, width: int = 7, height: int = 6, table_size_log2: int = 24, symmetric: bool = True,
                 tt_min: int = 4, sort_min: int = 12, mtdf: bool = False, split: int = 18, small_log2: int = 15):
        if not (isinstance(width, int) and isinstance(height, int)) or width < 1 or height < 1:
            raise ZerosumError(f"board size must be positive integers, got {width}x{height}")
        if width > 9:
            raise ZerosumError(f"width {width} > 9: moves are single digits 1..9")
        if width * (height + 1) > 62:
            raise ZerosumError(f"board {width}x{height} too large: width*(height+1) must be <= 62")
        self.width, self.height = width, height
        self.buckets, self.smin, self.span = table_sizes(width, height, table_size_log2)
        self.symmetric = bool(symmetric)
        self.bottom = bottom_mask(width, height)
        self.board = board_mask(width, height)
        self.order = np.array([width // 2 + (1 - 2 * (i % 2)) * ((i + 1) // 2) for i in range(width)],
                              dtype=np.int64)
        self._stk = new_stack(width, height)
        self._nodes = np.zeros(1, dtype=np.int64)
        self._state = new_state()
        self.tt_min, self.sort_min, self.mtdf = int(tt_min), int(sort_min), bool(mtdf)
        self.split = int(split)
        self.table, self.small = new_tables(self.buckets, small_log2)
        self.small_mask = (1 << small_log2) - 1
        self.nodes = 0
        self.epoch = 0
        self.reset()

    def reset(self) -> None:
        """Empty the transposition table.  Entries carry an 8-bit generation and only those of
        the current one are read, so emptying is a new generation (O(1), no 100 MB write that
        would flush the caches); every 255 generations the table is zeroed for real."""
        self.epoch = next_generation(self.epoch, self.table, self.small)

    def position(self, moves: str) -> Position:
        """The position after ``moves`` on this solver's board (:func:`parse_moves`)."""
        return parse_moves(moves, self.width, self.height)

    def _solve_position(self, p: Position, weak: bool, deadline: float | None = None) -> int:
        state = self._state
        state[PHASE] = FRESH
        args = (np.int64(p.pos), np.int64(p.mask), p.n, bool(weak), self.width, self.height,
                np.int64(self.bottom), np.int64(self.board), self.order, self.table, np.int64(self.buckets),
                self.small, np.int64(self.small_mask),
                np.int64(self.epoch), self.smin, self.span, self.symmetric, self._stk, self._nodes, state,
                self.BUDGET, self.tt_min, self.sort_min, self.split, self.mtdf)
        score = solve(*args)
        while state[PHASE] == PAUSED:  # a long search: Ctrl-C lands between two calls
            if deadline is not None and time.monotonic() > deadline:
                raise SolverTimeout("the exact solver ran out of time")
            score = solve(*args)
        return int(score)

    def _check_not_over(self, p: Position, moves: str) -> None:
        if p.n > 0 and has_four(p.pos ^ p.mask, self.height):
            raise ZerosumError(f"the game {moves!r} is already won by its last move")

    def solve(self, moves: str, weak: bool = False) -> int:
        """Score of the position after ``moves`` for the player to move (weak: -1, 0 or 1).
        A finished game (full board) scores 0; a won game is refused."""
        p = self.position(moves)
        self._check_not_over(p, moves)
        self._nodes[0] = 0
        score = self._solve_position(p, weak)
        self.nodes = int(self._nodes[0])
        return score

    def analyze(self, moves: str, weak: bool = False, deadline: float | None = None) -> list[int | None]:
        """For each column 1..width, the score of playing it for the player who plays it
        (None for a full column).  The best of them is ``solve(moves)``.  With a ``deadline`` (a
        :func:`time.monotonic` time) a search still running then raises :class:`SolverTimeout`
        (checked between two compiled calls, about a tenth of a second apart); what it proved stays
        in the tables, so that asking again later is quicker."""
        p = self.position(moves)
        self._check_not_over(p, moves)
        cells = self.width * self.height
        out: list[int | None] = []
        total = 0
        for col in range(self.width):
            if not p.can_play(col):
                out.append(None)
                continue
            if p.is_winning_move(col):
                out.append(1 if weak else (cells + 1 - p.n) // 2)
                continue
            child = p.copy()
            child.play(col)
            self._nodes[0] = 0
            out.append(-self._solve_position(child, weak, deadline))
            total += int(self._nodes[0])
        self.nodes = total
        return out

    def table_move(self, moves: str) -> int | None:
        """The best column (1-based) the table remembers for the position after ``moves`` (the
        move that proved the last bound there, e.g. after ``solve``), or None."""
        p = self.position(moves)
        if self.width * self.height - p.n < self.split:
            return None
        col = table_move(np.int64(p.pos + p.mask), p.n, self.width, self.height, self.symmetric, self.split,
                         self.table, np.int64(self.buckets), self.small, np.int64(self.small_mask),
                         np.int64(self.epoch))
        return None if col < 0 else int(col) + 1

    def best_move(self, moves: str) -> int:
        """A best column (1-based) for the player to move; among equals the most central."""
        scores = self.analyze(moves)
        playable = [c for c in range(self.width) if scores[c] is not None]
        if not playable:
            raise ZerosumError(f"no move left after {moves!r}: the board is full")
        top = max(scores[c] for c in playable)
        for c in self.order:
            if scores[c] == top:
                return int(c) + 1
        raise AssertionError("unreachable")
