"""The interface every perfect-information game implements.

A two-player zero-sum game of perfect information is fully described by a few functions of an
immutable *state* (Russell & Norvig, *AIMA*, ch. 5): the initial state, the player to move, the
legal moves, the result of a move, the terminal test and the utility.  The search algorithms
(:mod:`zerosum.perfect.search`) are written once against these functions; a hashable
:meth:`PerfectGame.key` lets them use transposition tables, and :meth:`PerfectGame.render`
gives the text a person reads.

Players are 0 (the first player, "MAX") and 1.  Utilities are +1 for a win, -1 for a loss and 0
for a draw; a heuristic evaluation stays strictly inside (-1, 1) so that a search can always
tell a proven result from an estimate.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterable, Sequence

from ..errors import ZerosumError


class PerfectGame(ABC):
    """Rules of a two-player zero-sum game of perfect information.

    States are immutable values; :meth:`result` returns a new state and raises
    :class:`~zerosum.errors.ZerosumError` (naming the move) for an illegal move.
    """

    name: str = "game"

    def params(self) -> dict:
        """Parameters that distinguish this game from other members of its family."""
        return {}

    @property
    def id(self) -> str:
        """Name plus :meth:`params`, e.g. ``connect4(height=4,width=5)``: equal ids, equal rules."""
        params = self.params()
        if not params:
            return self.name
        return f"{self.name}({','.join(f'{k}={v}' for k, v in sorted(params.items()))})"

    # -- the rules -------------------------------------------------------------------------
    @abstractmethod
    def initial_state(self):
        """The state before the first move."""

    @abstractmethod
    def player(self, state) -> int:
        """The player to move: 0 (first player) or 1."""

    @abstractmethod
    def legal_moves(self, state) -> list:
        """The legal moves, in a fixed order; empty at a terminal state."""

    @abstractmethod
    def result(self, state, move):
        """The state after ``move``; ZerosumError naming the move if it is illegal."""

    @abstractmethod
    def is_terminal(self, state) -> bool:
        """Whether the game is over (a win or a draw)."""

    @abstractmethod
    def utility(self, state, player: int) -> float:
        """At a terminal state: +1 if ``player`` won, -1 if they lost, 0 for a draw."""

    @abstractmethod
    def key(self, state) -> Hashable:
        """A hashable value identifying the state, the player to move included."""

    @abstractmethod
    def render(self, state) -> str:
        """A text picture of the state for a person."""

    # -- optional knowledge: search works without it, better with it -------------------------
    def heuristic(self, state) -> float:
        """An estimate of a non-terminal state for the player to move, strictly inside (-1, 1)."""
        return 0.0

    def order_moves(self, state, moves: list) -> list:
        """The moves in the order a search should try them (likely best first)."""
        return moves

    def max_remaining_moves(self, state) -> int | None:
        """An upper bound on the number of moves left, when the game has one."""
        return None

    # -- moves as text ---------------------------------------------------------------------
    def move_label(self, move) -> str:
        """How a person writes ``move``."""
        return str(move)

    def parse_move(self, state, text: str):
        """The legal move a person wrote; ZerosumError with the reason otherwise."""
        text = text.strip()
        for move in self.legal_moves(state):
            if self.move_label(move) == text:
                return move
        if self.is_terminal(state):
            raise ZerosumError(f"move {text!r}: the game is over")
        labels = ", ".join(self.move_label(m) for m in self.legal_moves(state))
        raise ZerosumError(f"move {text!r} is not legal here; legal moves: {labels}")

    def play(self, moves: Iterable, state=None):
        """The state after a sequence of moves from ``state`` (the initial state by default)."""
        state = self.initial_state() if state is None else state
        for move in moves:
            state = self.result(state, move)
        return state

    def winner(self, state) -> int | None:
        """0 or 1 at a won terminal state, None otherwise (game running or drawn)."""
        if not self.is_terminal(state):
            return None
        u = self.utility(state, 0)
        return 0 if u > 0 else 1 if u < 0 else None

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.id}>"


def moves_text(game: PerfectGame, moves: Sequence) -> str:
    """Moves as a person writes them, separated by spaces."""
    return " ".join(game.move_label(m) for m in moves)
