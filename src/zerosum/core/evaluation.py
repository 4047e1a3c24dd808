"""Exact evaluation of a profile: expected value, best responses, NashConv and exploitability.

Two names, used the same way everywhere in zerosum:

* **NashConv** = sum over both players of what a best response gains against the profile.
  Lab 15 calls this "exploitability"; the uniform policy on Leduc has NashConv 4.747222.
* **exploitability** = NashConv / 2, OpenSpiel's meaning.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import ZerosumError
from .policy import TabularPolicy, as_compiled, policy_for
from .sequence_form import best_response, collected_values, realization_plan


@dataclass(frozen=True)
class Evaluation:
    """What :func:`evaluate` measures: the value, each best response, NashConv (their gains' sum)
    and exploitability (NashConv / 2, OpenSpiel's meaning)."""

    value: float  # player 0's expected payoff under the profile
    best_response_values: tuple[float, float]  # what each player gets by best-responding
    nash_conv: float
    exploitability: float
    #: both players' values where the game is not zero-sum (a raked hold'em game), else None
    values: tuple[float, float] | None = None

    def to_dict(self) -> dict:
        """The fields as a plain dict (the JSON of ``zerosum evaluate``; a raked game's adds
        ``values`` and ``expected_rake``, minus their sum)."""
        out = {"value": self.value, "best_response_values": list(self.best_response_values),
               "nash_conv": self.nash_conv, "exploitability": self.exploitability}
        if self.values is not None:
            out.update(values=list(self.values), expected_rake=-sum(self.values))
        return out


def _plans(game, policy: TabularPolicy):
    g = policy_for(game, policy)  # a policy of another game: one ZerosumError, not NumPy's
    return g, [realization_plan(t, pi) for t, pi in zip(g.treeplexes, policy.probs)]


def expected_value(game, policy: TabularPolicy) -> float:
    """Player 0's expected payoff when both players follow ``policy``."""
    g, (x, y) = _plans(game, policy)
    return float(x @ (g.payoff @ y))


def best_response_value(game, policy: TabularPolicy, player: int) -> float:
    """The most ``player`` can get against the other player's strategy in ``policy``."""
    if player not in (0, 1):
        raise ZerosumError(f"player must be 0 or 1, got {player!r}")
    g, plans = _plans(game, policy)
    return float(best_response(g.treeplexes[player], collected_values(g, player, plans[1 - player])))


def evaluate(game, policy: TabularPolicy) -> Evaluation:
    """Value, both best-response values, NashConv and exploitability in one pass."""
    g, (x, y) = _plans(game, policy)
    ay = g.payoff @ y
    value = float(x @ ay)
    br0 = float(best_response(g.treeplexes[0], ay))
    br1 = float(best_response(g.treeplexes[1], -(g.payoff_t @ x)))
    nc = max(br0 + br1, 0.0)  # >= 0 in exact arithmetic; clip rounding noise
    return Evaluation(value, (br0, br1), nc, nc / 2)


def nash_conv_of_plans(game, x, y) -> float:
    """NashConv from both realization plans (the solvers' fast path)."""
    g = as_compiled(game)
    br0 = best_response(g.treeplexes[0], g.payoff @ y)
    br1 = best_response(g.treeplexes[1], -(g.payoff_t @ x))
    return max(float(br0 + br1), 0.0)


def nash_conv(game, policy: TabularPolicy) -> float:
    """Sum of both players' best-response gains (Lab 15's "exploitability")."""
    return evaluate(game, policy).nash_conv


def exploitability(game, policy: TabularPolicy) -> float:
    """NashConv / 2 (OpenSpiel's "exploitability")."""
    return evaluate(game, policy).exploitability
