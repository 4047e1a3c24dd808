"""Matrix games as one-shot extensive games: player 0 picks a row, player 1 a column, unseen."""

from __future__ import annotations

import numpy as np

from ..errors import ZerosumError
from .base import TERMINAL, Game


class MatrixGame(Game):
    """A payoff matrix for player 0 (rows) against player 1 (columns), played simultaneously."""

    name = "matrix"

    def __init__(self, payoffs, row_labels=None, col_labels=None, name: str | None = None):
        a = np.asarray(payoffs, dtype=float)
        if a.ndim != 2 or a.shape[0] < 1 or a.shape[1] < 1:
            raise ZerosumError(f"a matrix game needs a non-empty 2-D payoff matrix, got shape {a.shape}")
        if not np.all(np.isfinite(a)):
            raise ZerosumError("a matrix game's payoffs must be finite numbers")
        self.payoffs = a
        self.row_labels = tuple(row_labels or (f"r{i}" for i in range(a.shape[0])))
        self.col_labels = tuple(col_labels or (f"c{j}" for j in range(a.shape[1])))
        if len(self.row_labels) != a.shape[0] or len(self.col_labels) != a.shape[1]:
            raise ZerosumError("one label per row and per column, please")
        if name is not None:
            self.name = name

    def params(self):
        if self.name != "matrix":
            return {}
        return {"payoffs": self.payoffs.tolist()}

    def root(self):
        return ()

    def player(self, h):
        return TERMINAL if len(h) == 2 else len(h)

    def actions(self, h):
        return self.row_labels if len(h) == 0 else self.col_labels

    def chance_outcomes(self, h):
        return ()

    def child(self, h, action):
        return h + (action,)

    def payoff(self, h):
        return float(self.payoffs[self.row_labels.index(h[0]), self.col_labels.index(h[1])])

    def infoset(self, h):
        return "row" if len(h) == 0 else "column"


def rock_paper_scissors() -> MatrixGame:
    """Rock-paper-scissors: value 0, unique equilibrium uniform."""
    return MatrixGame(
        [[0, -1, 1], [1, 0, -1], [-1, 1, 0]],
        row_labels=("rock", "paper", "scissors"),
        col_labels=("rock", "paper", "scissors"),
        name="rps",
    )
