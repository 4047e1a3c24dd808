"""m,n,k-games: two players take turns placing a stone on an m x n board; k in a row wins.

Tic-tac-toe is the 3,3,3-game.  A state keeps one bitmask of stones per player (bit ``r*n + c``
for row r and column c), so the win test after a move is a handful of AND operations over the
precomputed lines through the cell just played.
"""

from __future__ import annotations

from ..errors import ZerosumError
from .base import PerfectGame


class MNKState:
    """An immutable m,n,k position: stones per player, whose turn, and the winner if any."""

    __slots__ = ("filled", "over", "stones", "to_move", "winner")

    def __init__(self, stones: tuple[int, int], to_move: int, winner: int | None, filled: int, over: bool = False):
        self.stones = stones
        self.to_move = to_move
        self.winner = winner
        self.filled = filled
        self.over = over          # won or full: the terminal test is one attribute read

    def __eq__(self, other):
        return isinstance(other, MNKState) and self.stones == other.stones

    def __hash__(self):
        return hash(self.stones)

    def __repr__(self):
        return f"MNKState(stones={self.stones}, to_move={self.to_move})"


class MNKGame(PerfectGame):
    """k in a row on an m-row, n-column board; moves are cell indices ``r*n + c`` (shown 1-based)."""

    name = "mnk"
    SYMBOLS = ("X", "O")

    def __init__(self, m: int = 3, n: int = 3, k: int = 3):
        for label, v in (("m", m), ("n", n), ("k", k)):
            if not isinstance(v, int) or v < 1:
                raise ZerosumError(f"{label} must be a positive integer, got {v!r}")
        if k > max(m, n):
            raise ZerosumError(f"k={k} in a row cannot fit on a {m}x{n} board")
        if m * n > 64:
            raise ZerosumError(f"a {m}x{n} board is too large (at most 64 cells)")
        self.m, self.n, self.k = m, n, k
        self.cells = m * n
        self.full = (1 << self.cells) - 1
        lines = []
        for r in range(m):
            for c in range(n):
                for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    cells = [(r + i * dr, c + i * dc) for i in range(k)]
                    if all(0 <= rr < m and 0 <= cc < n for rr, cc in cells):
                        lines.append(sum(1 << (rr * n + cc) for rr, cc in cells))
        self.lines = lines
        #: lines through each cell: the only ones a move there can complete
        self.lines_through = [[ln for ln in lines if ln >> cell & 1] for cell in range(self.cells)]
        self._initial = MNKState((0, 0), 0, None, 0)
        self._cells = range(self.cells)
        # centre first, then by distance to the centre: good moves for alpha-beta come early
        cr, cc = (m - 1) / 2, (n - 1) / 2
        self._order = sorted(range(self.cells), key=lambda i: (abs(i // n - cr) + abs(i % n - cc), i))
        self._rank = {cell: i for i, cell in enumerate(self._order)}

    def params(self):
        return {"m": self.m, "n": self.n, "k": self.k}

    def initial_state(self):
        return self._initial

    def player(self, state):
        return state.to_move

    def legal_moves(self, state):
        if state.over:
            return []
        occupied = state.stones[0] | state.stones[1]
        return [i for i in self._cells if not occupied >> i & 1]

    def result(self, state, move):
        if not isinstance(move, int) or isinstance(move, bool) or not 0 <= move < self.cells:
            raise ZerosumError(f"move {move!r}: not a cell of the {self.m}x{self.n} board "
                               f"(cells are 0..{self.cells - 1})")
        if self.is_terminal(state):
            raise ZerosumError(f"move {self.move_label(move)}: the game is already over")
        bit = 1 << move
        if (state.stones[0] | state.stones[1]) & bit:
            raise ZerosumError(f"move {self.move_label(move)}: that cell is already taken")
        p = state.to_move
        mine = state.stones[p] | bit
        stones = (mine, state.stones[1]) if p == 0 else (state.stones[0], mine)
        winner = None
        for line in self.lines_through[move]:
            if mine & line == line:
                winner = p
                break
        filled = state.filled + 1
        return MNKState(stones, 1 - p, winner, filled, winner is not None or filled == self.cells)

    def is_terminal(self, state):
        return state.over

    def utility(self, state, player):
        if state.winner is None:
            return 0.0
        return 1.0 if state.winner == player else -1.0

    def key(self, state):
        return state.stones

    def render(self, state):
        rows = []
        for r in range(self.m):
            cells = []
            for c in range(self.n):
                i = r * self.n + c
                cells.append("X" if state.stones[0] >> i & 1 else "O" if state.stones[1] >> i & 1
                             else str(i + 1) if self.cells <= 9 else ".")
            rows.append(" " + " | ".join(cells))
        sep = "\n" + "-" * (4 * self.n - 1) + "\n"
        return sep.join(rows)

    def heuristic(self, state):
        """Open lines weighted by the square of the stones on them (the seed's evaluation),
        mine minus the opponent's, squashed into (-1, 1)."""
        me, opp = state.stones[state.to_move], state.stones[1 - state.to_move]
        score = 0
        for line in self.lines:
            a, b = (me & line).bit_count(), (opp & line).bit_count()
            if b == 0:
                score += a * a
            if a == 0:
                score -= b * b
        return 0.9 * score / (abs(score) + self.k * self.k)

    def order_moves(self, state, moves):
        return sorted(moves, key=self._rank.__getitem__)

    def max_remaining_moves(self, state):
        return 0 if self.is_terminal(state) else self.cells - state.filled

    def move_label(self, move):
        return str(move + 1)

    def parse_move(self, state, text):
        text = text.strip()
        try:
            cell = int(text) - 1
        except ValueError:
            raise ZerosumError(f"move {text!r}: type a cell number 1-{self.cells}") from None
        if not 0 <= cell < self.cells:
            raise ZerosumError(f"move {text!r}: cells are numbered 1-{self.cells}")
        self.result(state, cell)  # raises with the reason when the cell is taken or the game is over
        return cell


class TicTacToe(MNKGame):
    """Tic-tac-toe: the 3,3,3-game (X moves first; 5,478 legal positions; value 0)."""

    name = "tictactoe"

    def __init__(self):
        super().__init__(3, 3, 3)

    def params(self):
        return {}
