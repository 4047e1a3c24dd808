"""The registry of perfect-information games: ``load_perfect_game("connect4", width=5, height=4)``."""

from __future__ import annotations

from collections.abc import Callable

from ..errors import ZerosumError
from ..params import call_with_params
from .base import PerfectGame
from .connect4 import ConnectFour
from .mnk import MNKGame, TicTacToe
from .nim import Nim

#: name -> (factory, one-line description)
PERFECT_GAMES: dict[str, tuple[Callable[..., PerfectGame], str]] = {
    "tictactoe": (TicTacToe, "tic-tac-toe (3x3, three in a row); value 0"),
    "connect4": (ConnectFour, "Connect Four, 7x6 by default (width=, height=); the first player wins"),
    "mnk": (MNKGame, "m,n,k-game: k in a row on an m x n board (m=, n=, k=)"),
    "nim": (Nim, "normal-play Nim (heaps=[3,4,5]): take from one heap; who takes the last object wins"),
}


def load_perfect_game(name: str, **params) -> PerfectGame:
    """A perfect-information game by name; unknown names and bad parameters are ZerosumErrors."""
    if name not in PERFECT_GAMES:
        raise ZerosumError(f"unknown perfect-information game {name!r}; known: {', '.join(sorted(PERFECT_GAMES))}")
    factory, _ = PERFECT_GAMES[name]
    return call_with_params(name, factory, params)
