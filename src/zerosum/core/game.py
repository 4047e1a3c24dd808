"""The game API: a two-player zero-sum game with chance and imperfect information.

A game is written as plain rules over *histories* (any hashable value the game chooses, usually
a tuple of action labels).  The compiler (:mod:`zerosum.core.compile`) walks these rules once and
turns them into flat arrays; no solver ever calls them during an iteration.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Sequence

CHANCE = -1
TERMINAL = -2


class Game(ABC):
    """Rules of a two-player zero-sum extensive-form game.

    Subclasses implement the seven methods below.  Players are 0 and 1; chance is
    :data:`CHANCE`; a finished history belongs to :data:`TERMINAL`.
    """

    #: Identifier used for policy files and caches, e.g. ``"kuhn"`` or ``"leduc"``.
    name: str = "game"

    @property
    def id(self) -> str:
        """Name plus parameters: two games with the same id have the same rules."""
        params = self.params()
        if not params:
            return self.name
        inner = ",".join(f"{k}={v}" for k, v in sorted(params.items()))
        return f"{self.name}({inner})"

    def params(self) -> dict:
        """Parameters that distinguish this game from other members of its family."""
        return {}

    @abstractmethod
    def root(self) -> Hashable:
        """The empty history."""

    @abstractmethod
    def player(self, h) -> int:
        """0 or 1 for a decision, CHANCE for a chance node, TERMINAL at the end."""

    @abstractmethod
    def actions(self, h) -> Sequence[str]:
        """Labels of the legal actions at a decision node, in a fixed order."""

    @abstractmethod
    def chance_outcomes(self, h) -> Sequence[tuple[str, float]]:
        """(label, probability) pairs at a chance node; probabilities sum to one."""

    @abstractmethod
    def child(self, h, action: str) -> Hashable:
        """The history after ``action`` (a label from actions or chance_outcomes)."""

    @abstractmethod
    def payoff(self, h) -> float:
        """Player 0's payoff at a terminal history (player 1 gets the opposite)."""

    @abstractmethod
    def infoset(self, h) -> str:
        """Readable key of the acting player's information set at a decision node."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.id}>"
