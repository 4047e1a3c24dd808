"""Games and the registry behind :func:`zerosum.load_game`."""

from __future__ import annotations

from collections.abc import Callable

from ..errors import ZerosumError
from ..params import call_with_params
from ..core.game import CHANCE, TERMINAL, Game
from ..poker.holdem import HoldemGame
from .kuhn import KuhnPoker
from .leduc import LeducPoker
from .matrix import MatrixGame, rock_paper_scissors
from ..poker.family import PokerGame

#: name -> (factory, one-line description)
REGISTRY: dict[str, tuple[Callable[..., Game], str]] = {
    "kuhn": (KuhnPoker, "Kuhn poker: 3 cards, one bet; value -1/18"),
    "leduc": (LeducPoker, "Leduc hold'em as Lab 15 defines it: ranks only, 144 infosets per player"),
    "rps": (rock_paper_scissors, "rock-paper-scissors as a one-shot game"),
    "poker": (PokerGame, "poker family: ranks, copies, rounds, raises, bets, ante (default = Leduc)"),
    "holdem": (HoldemGame, "limit hold'em subgame: board, pot, stack, bets, raises, range0, range1 (public tree)"),
    "matrix": (MatrixGame, "any payoff matrix for player 0: load_game('matrix', payoffs=[[...]])"),
}

#: a sample value of a required parameter, for the message that asks for it
EXAMPLES = {"payoffs": "'[[1,-1],[-1,1]]'", "board": "Ks7d2c9h"}


def register(name: str, factory: Callable[..., Game], description: str) -> None:
    """Add a game family to the registry (used by modules that define more games)."""
    REGISTRY[name] = (factory, description)


def known_games() -> list[str]:
    return sorted(REGISTRY) + ["openspiel:NAME"]


def load_game(name: str, **params) -> Game:
    """A game by name: a registered one, or ``openspiel:NAME`` for any pyspiel game."""
    if not isinstance(name, str):
        raise ZerosumError(f"a game name is a string, got {type(name).__name__}")
    if name.startswith("openspiel:"):
        from .openspiel import openspiel_game

        if params:
            raise ZerosumError("give OpenSpiel parameters in the name, e.g. openspiel:leduc_poker(players=2)")
        return openspiel_game(name[len("openspiel:"):])
    if name not in REGISTRY:
        raise ZerosumError(f"unknown game {name!r}; known games: {', '.join(known_games())}")
    factory, _ = REGISTRY[name]
    return call_with_params(name, factory, params, hidden=("name", "max_bytes"), examples=EXAMPLES)


__all__ = [
    "CHANCE",
    "REGISTRY",
    "TERMINAL",
    "Game",
    "KuhnPoker",
    "LeducPoker",
    "MatrixGame",
    "known_games",
    "load_game",
    "register",
    "rock_paper_scissors",
]
