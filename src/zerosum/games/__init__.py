"""Games and the registry behind :func:`zerosum.load_game`.

* :mod:`.kuhn`, :mod:`.leduc` -- Kuhn poker and Lab 15's Leduc hold'em, as the textbooks write them
  (Leduc shares the poker family's betting arithmetic);
* :mod:`.matrix` -- any payoff matrix (rock-paper-scissors among them);
* :mod:`.openspiel` -- any two-player zero-sum turn-based OpenSpiel game (``openspiel:NAME``);
* :mod:`.efg` -- Gambit ``.efg`` files, read and written;
* the registry here: :func:`load_game`, :func:`known_games`, :func:`register`.

The rules API every game implements is :class:`zerosum.core.game.Game` (re-exported here as
``Game``); the poker family and hold'em subgames are in :mod:`zerosum.poker`.

May import: :mod:`zerosum.core` (the rules API, policies for .efg output), :mod:`zerosum.poker`
(the registry lists its games), :mod:`zerosum.errors`, :mod:`zerosum.params`; pyspiel and pygambit
inside functions.  Never a solver, the public tree or the command line.
"""


from __future__ import annotations

from collections.abc import Callable

from ..core.game import CHANCE, TERMINAL, Game
from ..errors import ZerosumError
from ..params import call_with_params
from ..poker.family import PokerGame
from ..poker.holdem import HoldemGame
from .kuhn import KuhnPoker
from .leduc import LeducPoker
from .matrix import MatrixGame, rock_paper_scissors

#: name -> (factory, one-line description)
REGISTRY: dict[str, tuple[Callable[..., Game], str]] = {
    "kuhn": (KuhnPoker, "Kuhn poker: 3 cards, one bet; value -1/18"),
    "leduc": (LeducPoker, "Leduc hold'em as Lab 15 defines it: ranks only, 144 infosets per player"),
    "rps": (rock_paper_scissors, "rock-paper-scissors as a one-shot game"),
    "poker": (PokerGame, "poker family: ranks, copies, rounds, raises, bets, ante (default = Leduc)"),
    "holdem": (HoldemGame, "hold'em subgame: board, pot, stack, range0, range1; limit bets, raises or no-limit betting (--spot FILE.json) (public tree)"),
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
        from ..perfect.games import PERFECT_GAMES  # only on this error path: the perfect package is not light

        if name in PERFECT_GAMES:  # solve/evaluate take imperfect-information games only
            # full 7x6 Connect Four is too deep for `search` without --depth (depth 4: 0.6 s here)
            how = ("`zerosum search connect4 --depth 4`, or score moves exactly with `zerosum analyze connect4 "
                   "4453`" if name == "connect4" else f"`zerosum search {name}`")
            raise ZerosumError(f"{name} is a perfect-information game: search it with {how} (solve and "
                               f"evaluate take {', '.join(known_games())})")
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
