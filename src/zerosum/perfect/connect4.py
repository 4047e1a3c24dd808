"""Connect Four on a bitboard, for the generic search algorithms and agents.

The board is Pascal Pons's layout ("Solving Connect 4", blog.gamesolver.org): column c uses the
bits ``c*(H+1) .. c*(H+1)+H-1`` (row 0 at the bottom) plus one always-empty padding bit, so that
a four in a row in any direction is found with shifts and ANDs.  A state keeps the stones of the
player to move and the mask of all stones; ``current + mask`` is a unique key.  The bit
arithmetic (four in a row, winning cells, column masks) is :mod:`zerosum.perfect.bitboard`'s,
the same functions the exact solver compiles; here they run on Python integers, so boards up to
9x12 (117 bits) work.

A state also keeps ``.moves``: the 1-based columns played so far (Pons's notation, "4453"), which
is what the exact solver (:mod:`zerosum.perfect.connect4_solver`) takes.  Moves given to
:meth:`ConnectFour.result` are 0-based column indices; people and move strings use 1-based columns.
"""

from __future__ import annotations

from ..errors import ZerosumError
from .base import PerfectGame
from .bitboard import (
    board_mask,
    bottom_cell,
    bottom_mask,
    column_mask,
    has_four,
    playable,
    top_cell,
    winning_cells,
)


class C4State:
    """An immutable Connect Four position."""

    __slots__ = ("current", "mask", "moves", "winner")

    def __init__(self, moves: str, current: int, mask: int, winner: int | None):
        self.moves = moves        # 1-based columns played so far, e.g. "4453"
        self.current = current    # stones of the player to move
        self.mask = mask          # all stones
        self.winner = winner      # 0 or 1 once someone has four in a row

    @property
    def n_moves(self) -> int:
        return len(self.moves)

    def __eq__(self, other):
        return isinstance(other, C4State) and (self.current, self.mask) == (other.current, other.mask)

    def __hash__(self):
        return hash(self.current + self.mask)

    def __repr__(self):
        return f"C4State(moves={self.moves!r})"


class ConnectFour(PerfectGame):
    """Connect Four on a ``width`` x ``height`` board (7x6 by default), four in a row wins."""

    name = "connect4"

    def __init__(self, width: int = 7, height: int = 6):
        if not isinstance(width, int) or not 4 <= width <= 9:
            raise ZerosumError(f"width must be an integer from 4 to 9 (columns are written 1-9), got {width!r}")
        if not isinstance(height, int) or not 1 <= height <= 12:
            raise ZerosumError(f"height must be an integer from 1 to 12, got {height!r}")
        self.width, self.height = width, height
        self.h1 = h1 = height + 1
        self.cells = width * height
        self.bottom = [bottom_cell(c, height) for c in range(width)]
        self.top = [top_cell(c, height) for c in range(width)]
        self.board = board_mask(width, height)
        #: the bottom cell of every column
        self.board_bottom = bottom_mask(width, height)
        # columns from the centre outwards: the classic move ordering (centre columns take part in
        # more fours)
        self.centre_order = sorted(range(width), key=lambda c: (abs(2 * c - (width - 1)), c))
        # weight of a cell = number of four-cell lines through it; cells grouped by weight
        weights: dict[int, int] = {}
        for c in range(width):
            for r in range(height):
                w = 0
                for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                    for start in range(-3, 1):
                        cells = [(c + (start + i) * dc, r + (start + i) * dr) for i in range(4)]
                        w += all(0 <= cc < width and 0 <= rr < height for cc, rr in cells)
                weights[w] = weights.get(w, 0) | 1 << (c * h1 + r)
        self.weight_masks = sorted(weights.items())
        self._initial = C4State("", 0, 0, None)

    def params(self):
        return {} if (self.width, self.height) == (7, 6) else {"width": self.width, "height": self.height}

    # -- bitboard helpers ------------------------------------------------------------------
    def has_four(self, stones: int) -> bool:
        """Whether ``stones`` contain four in a row (vertical, horizontal or diagonal)."""
        return has_four(stones, self.height)

    def winning_cells(self, stones: int) -> int:
        """Cells (occupied or not) that would complete a four for ``stones`` (Pons's threats)."""
        return winning_cells(stones, 0, self.height, self.board)

    def can_play(self, state: C4State, col: int) -> bool:
        return not state.mask & self.top[col]

    def stones_of(self, state: C4State, player: int) -> int:
        return state.current if player == len(state.moves) % 2 else state.current ^ state.mask

    # -- the interface ---------------------------------------------------------------------
    def initial_state(self):
        return self._initial

    def player(self, state):
        return len(state.moves) % 2

    def legal_moves(self, state):
        if state.winner is not None or len(state.moves) == self.cells:
            return []
        return [c for c in range(self.width) if not state.mask & self.top[c]]

    def result(self, state, move):
        if not isinstance(move, int) or isinstance(move, bool) or not 0 <= move < self.width:
            raise ZerosumError(f"move {move!r}: not a column index 0..{self.width - 1} "
                               f"(columns 1-{self.width} as a person writes them)")
        return self._play(state, move, f"column {move + 1}")

    def _play(self, state, col, what):
        if state.winner is not None:
            raise ZerosumError(f"{what}: the game is already over (player {state.winner + 1} has won)")
        if len(state.moves) == self.cells:
            raise ZerosumError(f"{what}: the game is already over (the board is full)")
        if state.mask & self.top[col]:
            raise ZerosumError(f"{what}: column {col + 1} is full")
        mover = state.current ^ state.mask      # stones of the player who will NOT move next
        mask = state.mask | (state.mask + self.bottom[col])
        mine = mover ^ mask                      # the mover's stones, new one included
        winner = len(state.moves) % 2 if has_four(mine, self.height) else None
        return C4State(state.moves + str(col + 1), mover, mask, winner)

    def from_moves(self, moves: str) -> C4State:
        """The position after a move string such as ``"4453"`` (1-based columns, Pons's notation).

        An illegal string raises ZerosumError naming the offending move and its position.
        """
        if not isinstance(moves, str):
            raise ZerosumError(f"a move string is text such as '4453', got {type(moves).__name__}")
        state = self._initial
        for i, ch in enumerate(moves.strip()):
            where = f"move {i + 1} ({ch!r}) of {moves.strip()!r}"
            if not ("1" <= ch <= "9") or int(ch) > self.width:
                raise ZerosumError(f"{where}: not a column 1-{self.width}")
            state = self._play(state, int(ch) - 1, where)
        return state

    def is_terminal(self, state):
        return state.winner is not None or len(state.moves) == self.cells

    def utility(self, state, player):
        if state.winner is None:
            return 0.0
        return 1.0 if state.winner == player else -1.0

    def key(self, state):
        return state.current + state.mask

    def render(self, state):
        x = self.stones_of(state, 0)
        o = self.stones_of(state, 1)
        lines = []
        for r in range(self.height - 1, -1, -1):
            row = []
            for c in range(self.width):
                bit = 1 << (c * self.h1 + r)
                row.append("X" if x & bit else "O" if o & bit else ".")
            lines.append("| " + " ".join(row) + " |")
        lines.append("+" + "-" * (2 * self.width + 1) + "+")
        lines.append("  " + " ".join(str(c + 1) for c in range(self.width)))
        return "\n".join(lines)

    def heuristic(self, state):
        """Open threats (empty cells completing a four) and stones on well-connected cells,
        mine minus the opponent's, squashed into (-1, 1)."""
        me, opp = state.current, state.current ^ state.mask
        h, board, mask = self.height, self.board, state.mask
        score = 4 * (winning_cells(me, mask, h, board).bit_count() - winning_cells(opp, mask, h, board).bit_count())
        for w, cells in self.weight_masks:
            score += w * ((me & cells).bit_count() - (opp & cells).bit_count()) / 4
        return 0.9 * score / (abs(score) + 20)

    def order_moves(self, state, moves):
        """Winning moves first, then moves that block the opponent's immediate win, then the
        centre outwards."""
        me, opp = state.current, state.current ^ state.mask
        h, board, mask = self.height, self.board, state.mask
        cells = playable(mask, self.board_bottom, board)
        win, block = winning_cells(me, mask, h, board) & cells, winning_cells(opp, mask, h, board) & cells
        rank = {c: i for i, c in enumerate(self.centre_order)}

        def score(c):
            col = column_mask(c, h)
            return (not win & col, not block & col, rank[c])

        return sorted(moves, key=score)

    def max_remaining_moves(self, state):
        return 0 if self.is_terminal(state) else self.cells - len(state.moves)

    def move_label(self, move):
        return str(move + 1)

    def parse_move(self, state, text):
        text = text.strip()
        if not text.isdigit() or not 1 <= int(text) <= self.width:
            raise ZerosumError(f"move {text!r}: type a column number 1-{self.width}")
        col = int(text) - 1
        self._play(state, col, f"move {text!r}")  # raises with the reason if it cannot be played
        return col

    def random_playout(self, state, rng) -> int | None:
        """Play uniformly random moves to the end; the winner (0 or 1) or None for a draw.

        A fast path for Monte Carlo tree search: bit operations only, no state objects.
        """
        if state.winner is not None:
            return state.winner
        current, mask, n = state.current, state.mask, len(state.moves)
        top, bottom, width, height = self.top, self.bottom, self.width, self.height
        while n < self.cells:
            cols = [c for c in range(width) if not mask & top[c]]
            c = cols[int(rng.random() * len(cols))]
            mover = current ^ mask
            mask |= mask + bottom[c]
            if has_four(mover ^ mask, height):
                return n % 2
            current = mover
            n += 1
        return None
