"""Predictive CFR+ (Farina, Kroer and Sandholm 2021, "Faster Game Solving via Predictive
Blackwell Approachability: Connecting Regret Matching and Mirror Descent", AAAI).

Why: regret matching+ is a Blackwell-approachability algorithm, and like online mirror descent it
can be made *optimistic*: play as if the next loss were known in advance.  Predictive regret
matching+ (PRM+) at a decision point keeps ``R_t = max(0, R_{t-1} + r_t)`` and plays
``x_{t+1}`` proportional to ``[R_t + m - <m, x_t>]^+`` for a predicted utility vector m.  PCFR+
runs PRM+ at every information set of CFR's decomposition with the last utilities as prediction
(``g_t``, the values collected under each sequence this iteration).  In the decomposition the
prediction of an information set's counterfactual utilities includes the values of the
information sets below it under *their new* strategies, so the next strategy is built bottom-up
(``prediction="tree"``, the default).  ``prediction="local"`` uses the last instantaneous
counterfactual regret as is (children's old strategies), the simplification of some reference
code.  Iterates are averaged with quadratic weights t^2 (``gamma=2``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.compile import Treeplex
from ..errors import ZerosumError
from ..core.sequence_form import regret_matching
from .cfr import CFRSolver, RegretRule
from .dcfr import _finite, check_params, save_params

PREDICTIONS = ("tree", "local")


@njit(cache=True)
def _predictive(infoset_parent, infoset_first, infoset_size, regrets, cfv, pi, new):
    """Deepest information sets first (they have the largest numbers): each one's strategy is
    fixed before its value is added to its parent sequence, which lies in a shallower one."""
    new[0] = 1.0
    for i in range(len(infoset_first) - 1, -1, -1):
        f, n = infoset_first[i], infoset_size[i]
        baseline = 0.0
        for s in range(f, f + n):
            baseline += pi[s] * cfv[s]
        total = 0.0
        for s in range(f, f + n):
            new[s] = max(regrets[s] + cfv[s] - baseline, 0.0)
            total += new[s]
        value = 0.0
        for s in range(f, f + n):
            new[s] = new[s] / total if total > 0.0 else 1.0 / n
            value += new[s] * cfv[s]
        cfv[infoset_parent[i]] += value


def predictive_strategy(tree: Treeplex, regrets: np.ndarray, g: np.ndarray, pi: np.ndarray) -> np.ndarray:
    """Next strategy of predictive regret matching+ on a treeplex, bottom-up.

    ``regrets``: cumulative (possibly discounted) regrets; ``g``: the predicted values collected
    under each sequence; ``pi``: the strategy just played (for the baseline <m, pi>).  At each
    information set: predicted cfv m (children valued under their new strategies), predicted
    regret m - <m, pi>, new strategy proportional to [regrets + predicted regret]^+.
    """
    new = np.empty(len(pi))
    _predictive(tree.infoset_parent, tree.infoset_first, tree.infoset_size,
                np.ascontiguousarray(regrets, dtype=np.float64), np.array(g, dtype=np.float64),
                np.ascontiguousarray(pi, dtype=np.float64), new)
    return new


class PredictiveMixin:
    """What PCFR+ and PDCFR+ share: remember the last utilities and instantaneous regrets, and
    build the next strategy from them."""

    def _init_prediction(self, prediction: str) -> None:
        if prediction not in PREDICTIONS:
            raise ZerosumError(f"{self.name}: prediction must be one of {', '.join(PREDICTIONS)}, got {prediction!r}")
        self.prediction = prediction
        self.last_values = [np.zeros(t.n_sequences) for t in self.trees]
        self.last_regrets = [np.zeros(t.n_sequences) for t in self.trees]

    def _instant_regrets(self, player: int, g: np.ndarray) -> np.ndarray:
        instant = super()._instant_regrets(player, g)
        self.last_values[player] = g
        self.last_regrets[player] = instant
        return instant

    def _predicted_strategy(self, player: int, regrets: np.ndarray) -> np.ndarray:
        tree = self.trees[player]
        if self.prediction == "tree":
            return predictive_strategy(tree, regrets, self.last_values[player], self.strategy[player])
        return regret_matching(tree, regrets + self.last_regrets[player])

    def _save_prediction(self, state: dict, names) -> dict:
        for p in (0, 1):
            state[f"last_values{p}"] = self.last_values[p]
            state[f"last_regrets{p}"] = self.last_regrets[p]
        state["param_prediction"] = np.array(self.prediction)
        return save_params(self, state, names)

    def _load_prediction(self, state: dict, names) -> None:
        check_params(self, state, names)
        if str(state.get("param_prediction")) != self.prediction:
            raise ZerosumError(f"the saved run used prediction={state.get('param_prediction')}, "
                               f"not {self.prediction}")
        self.last_values = [np.array(state[f"last_values{p}"], dtype=float) for p in (0, 1)]
        self.last_regrets = [np.array(state[f"last_regrets{p}"], dtype=float) for p in (0, 1)]


class PCFRPlusSolver(PredictiveMixin, CFRSolver):
    """PCFR+; alternating updates by default (``alternating=False`` for simultaneous)."""

    name = "pcfr+"

    def __init__(self, game, alternating: bool = True, gamma: float = 2.0, prediction: str = "tree"):
        self.gamma = _finite("gamma", gamma)
        if self.gamma < 0:
            raise ZerosumError(f"pcfr+: gamma must be >= 0, got {gamma}")
        super().__init__(game, alternating=alternating)
        self._init_prediction(prediction)

    def regret_rule(self) -> RegretRule:
        return RegretRule(floor=True)

    def prediction_scale(self) -> float:
        """Factor on the cumulative regrets the prediction is added to (1 for PCFR+)."""
        return 1.0

    def current_strategy(self, player: int) -> np.ndarray:
        return self._predicted_strategy(player, self.regrets[player])

    def average_weight(self) -> float:
        return float(self.iteration) ** self.gamma

    def state_dict(self) -> dict:
        return self._save_prediction(super().state_dict(), ("gamma",))

    def load_state_dict(self, state: dict) -> None:
        super().load_state_dict(state)
        self._load_prediction(state, ("gamma",))
