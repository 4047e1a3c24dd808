"""Matrix games as one-shot extensive games: player 0 picks a row, player 1 a column, unseen."""

from __future__ import annotations

import numpy as np

from ..core.game import TERMINAL, Game
from ..errors import ZerosumError


def _payoff_matrix(payoffs) -> np.ndarray:
    """A non-empty rectangular matrix of finite numbers, or a ZerosumError that says so."""
    shape_hint = "payoffs must be a rectangular matrix of numbers, e.g. [[1,-1],[-1,1]]"
    rows = payoffs.tolist() if isinstance(payoffs, np.ndarray) else payoffs
    if isinstance(rows, (str, bytes)) or not isinstance(rows, (list, tuple)) or not rows:
        raise ZerosumError(f"{shape_hint}; got {payoffs!r}")
    if any(isinstance(r, (str, bytes)) or not isinstance(r, (list, tuple)) for r in rows):
        raise ZerosumError(f"{shape_hint}; got a row that is not a list")
    widths = {len(r) for r in rows}
    if len(widths) != 1 or 0 in widths:
        raise ZerosumError(f"{shape_hint}; got rows of lengths {[len(r) for r in rows]}")
    for r in rows:
        for v in r:
            if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
                raise ZerosumError(f"{shape_hint}; got the entry {v!r}")
    a = np.array(rows, dtype=float)
    if not np.all(np.isfinite(a)):
        raise ZerosumError("a matrix game's payoffs must be finite numbers")
    return a


def _labels(key: str, labels, n: int, prefix: str) -> tuple[str, ...]:
    """``n`` distinct action labels (default r0, r1, ... or c0, c1, ...)."""
    if labels is None:
        return tuple(f"{prefix}{i}" for i in range(n))
    what = f"{n} distinct name{'s' if n != 1 else ''}, one per {'row' if prefix == 'r' else 'column'}"
    if isinstance(labels, (str, bytes)) or not isinstance(labels, (list, tuple)):
        raise ZerosumError(f"{key} must be a list of {what}; got {labels!r}")
    out = tuple(str(x) for x in labels)
    if len(out) != n or len(set(out)) != n:
        raise ZerosumError(f"{key} must be a list of {what}; got {list(labels)!r}")
    return out


class MatrixGame(Game):
    """A payoff matrix for player 0 (rows) against player 1 (columns), played simultaneously."""

    name = "matrix"

    def __init__(self, payoffs, row_labels=None, col_labels=None, name: str | None = None):
        a = _payoff_matrix(payoffs)
        self.payoffs = a
        self.row_labels = _labels("row_labels", row_labels, a.shape[0], "r")
        self.col_labels = _labels("col_labels", col_labels, a.shape[1], "c")
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
