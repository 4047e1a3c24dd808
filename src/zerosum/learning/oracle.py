"""What every learned best-response oracle shares: the call, the checks, the exact error.

An oracle is given a budget of hands and plays them, as ``player``, against a fixed opponent
mixture (:class:`~zerosum.learning.simulator.Mixture`); it returns a behavioral strategy (one
probability per sequence of ``player``).  It never reads the game's payoff matrix or tree beyond
what the simulator shows a player: its information sets, legal actions and final rewards.

Its quality is measured exactly, outside the oracle (:func:`oracle_error`): the best-response
value against the opponent's realization plan minus the value of the learned strategy against
that same plan, in chips.  Zero means the oracle found a best response.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from ..core.policy import as_compiled
from ..core.sequence_form import best_response, collected_values, realization_plan
from ..errors import ZerosumError
from .simulator import Mixture, Simulator, check_hands, check_seed


@dataclass
class Response:
    """A learned response: the strategy and what it cost."""

    strategy: np.ndarray  # behavioral probabilities per sequence of the player
    hands: int  # hands dealt while learning


class LearnedOracle:
    """Base of the oracles: ``respond(player, opponent, stream)`` plays ``hands`` hands.

    ``stream`` selects the random numbers (with ``seed``): PSRO passes (iteration, player), so a
    resumed run draws the same hands as the uninterrupted one.
    """

    name = "learned"
    #: option name -> (default, check(value) -> value); subclasses fill it
    options: ClassVar[dict] = {}

    def __init__(self, game, hands: int = 10000, seed: int = 0, **options):
        self.sim = game if isinstance(game, Simulator) else Simulator(game)
        self.game = self.sim.game
        self.hands = check_hands(hands)
        self.seed = check_seed(seed)
        unknown = sorted(set(options) - set(self.options))
        if unknown:
            known = ", ".join(self.options) or "none"
            raise ZerosumError(f"the {self.name} oracle has no option {', '.join(unknown)}; its options: {known}")
        self.settings = {k: check(options.get(k, default)) for k, (default, check) in self.options.items()}

    def respond(self, player: int, opponent: Mixture, stream: int = 0) -> Response:
        raise NotImplementedError


def oracle_error(game, player: int, opponent_plan: np.ndarray, strategy: np.ndarray) -> float:
    """Exact best-response value minus the exact value of ``strategy``, both against the
    opponent's realization plan (>= 0 up to rounding)."""
    g = as_compiled(game)
    tree = g.treeplexes[player]
    values = collected_values(g, player, opponent_plan)
    return float(best_response(tree, values)) - float(realization_plan(tree, strategy) @ values)


def positive_float(name):
    def check(v):
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not np.isfinite(v) or v <= 0:
            raise ZerosumError(f"{name} must be a positive number, got {v!r}")
        return float(v)
    return check


def nonnegative_float(name):
    def check(v):
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not np.isfinite(v) or v < 0:
            raise ZerosumError(f"{name} must be a non-negative number, got {v!r}")
        return float(v)
    return check


def unit_float(name):
    def check(v):
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v <= 1:
            raise ZerosumError(f"{name} must be a number in [0, 1], got {v!r}")
        return float(v)
    return check


def choice(name, allowed):
    def check(v):
        if v not in allowed:
            raise ZerosumError(f"{name} must be one of {', '.join(allowed)}, got {v!r}")
        return v
    return check


#: options the oracle-sanity table (docs/learned-oracles.md) gives an oracle; defaults otherwise.
#: The DQN's is its large-budget setting: one-hot inputs (the card features leave a generalization
#: bias of about 0.1 chip at a few information sets reached in a third of the hands, where two
#: actions differ by less), a buffer that keeps the last million transitions, Double DQN targets,
#: and Adam steps decaying to 5% over the budget.
SANITY_OPTIONS = {"dqn": {"features": "onehot", "buffer": 1_000_000, "double": True, "lr_end": 0.05}}

#: oracle name -> (module, class), imported on first use (the DQN needs the ``deep`` extra)
ORACLES = {"q-learning": ("q_learning", "QLearningOracle"),
           "policy-gradient": ("policy_gradient", "PolicyGradientOracle"),
           "dqn": ("dqn", "DQNOracle")}


def make_oracle(name: str, game, hands: int = 10000, seed: int = 0, **options) -> LearnedOracle:
    """An oracle by name; an unknown name or option is a one-line ZerosumError."""
    import importlib

    if name not in ORACLES:
        raise ZerosumError(f"unknown oracle {name!r}; choose one of exact, {', '.join(ORACLES)}")
    module, cls = ORACLES[name]
    return getattr(importlib.import_module(f"{__package__}.{module}"), cls)(game, hands, seed, **options)
