"""Counterfactual regret minimization on the compiled sequence form.

One driver, :class:`CFRSolver`, runs every full-width CFR variant.  An iteration is, per player:
the values collected under each sequence from the opponent's realization plan (one sparse
product), every counterfactual value in one upward pass over the treeplex, the instantaneous
regrets ``cfv(I, a) - v(I)``, and an update.  Variants change only the small rules below
(:meth:`CFRSolver.accumulate_regrets`, :meth:`CFRSolver.average_weight`, ...), never the pass.

Conventions (Lab 15 Part 1 and OpenSpiel's ``CFRSolver``):

* alternating updates by default: player 0 is updated from player 1's strategy, then player 1 from
  player 0's *new* strategy; strategies are fixed during a pass, regrets applied at its end;
* the average strategy accumulates the player's own realization plan, i.e. each information set
  weighted by the player's own reach once, not once per history;
* iteration t has weight 1 (CFR) or t (CFR+, linear averaging) in the average.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from ..errors import ZerosumError
from ..core.evaluation import nash_conv_of_plans
from ..core.policy import TabularPolicy, as_compiled
from ..core.sequence_form import (
    behavioral_from_realization,
    collected_values,
    counterfactual_values,
    realization_plan,
    regret_matching,
)
from .base import IterativeSolver, check_state
from .nodes import node_counter


class RegretRule(NamedTuple):
    """How a variant turns the cumulative regrets R and this pass's instantaneous regrets r into
    the new R, in four numbers: ``R <- pre * R + r``, then ``R *= pos`` where R >= 0 and
    ``R *= neg`` where R < 0, then ``R <- max(R, 0)`` if ``floor``.  Every CFR variant here is one
    setting (CFR: 1, 1, 1, no floor; CFR+: floor; LCFR: pos = neg = t / (t + 1); DCFR: pos and neg
    by sign; PDCFR+: pre = d(t - 1), floor), and both compiled forms (history tree, public tree)
    apply it with the same :func:`regret_update`."""

    pre: float = 1.0
    pos: float = 1.0
    neg: float = 1.0
    floor: bool = False


@njit(cache=True, inline="always")
def regret_update(r, instant, pre, pos, neg, floor):
    """One cumulative regret after one pass under a :class:`RegretRule` (scalar, for the kernels)."""
    if pre != 1.0:
        r = r * pre
    r = r + instant
    if r >= 0.0:
        if pos != 1.0:
            r = r * pos
    elif neg != 1.0:
        r = r * neg
    if floor and r < 0.0:
        r = 0.0
    return r


@njit(cache=True)
def _apply_regret_rule(regrets, instant, pre, pos, neg, floor):
    for k in range(len(regrets)):
        regrets[k] = regret_update(regrets[k], instant[k], pre, pos, neg, floor)


def apply_regret_rule(regrets: np.ndarray, instant: np.ndarray, rule: RegretRule) -> None:
    """Update ``regrets`` in place from ``instant`` under ``rule``."""
    _apply_regret_rule(regrets, np.ascontiguousarray(instant, dtype=regrets.dtype), float(rule.pre),
                       float(rule.pos), float(rule.neg), bool(rule.floor))


class CFRSolver(IterativeSolver):
    """Vanilla CFR (Zinkevich et al. 2007).

    ``alternating=False`` gives simultaneous updates, as in the Kuhn notebook: both players'
    regrets come from the same profile.
    """

    name = "cfr"

    def __init__(self, game, alternating: bool = True):
        self.game = as_compiled(game)
        self.alternating = alternating
        self.trees = self.game.treeplexes
        self.iteration = 0
        self.nodes_touched = 0
        self.regrets = [np.zeros(t.n_sequences) for t in self.trees]
        self.average_plan = [np.zeros(t.n_sequences) for t in self.trees]
        self.strategy = [t.uniform() for t in self.trees]
        self.plan = [realization_plan(t, pi) for t, pi in zip(self.trees, self.strategy)]

    # --- the rules a variant may change -------------------------------------------------------
    def regret_rule(self) -> RegretRule:
        """R <- R + r (CFR).  Variants return their own numbers for ``self.iteration``."""
        return RegretRule()

    def accumulate_regrets(self, player: int, instant: np.ndarray) -> None:
        apply_regret_rule(self.regrets[player], instant, self.regret_rule())

    def current_strategy(self, player: int) -> np.ndarray:
        """Regret matching on the cumulative regrets."""
        return regret_matching(self.trees[player], self.regrets[player])

    def average_weight(self) -> float:
        """Weight of this iteration's strategy in the average."""
        return 1.0

    def begin_iteration(self) -> None:
        """Hook for variants that discount before an iteration."""

    # --- the pass ------------------------------------------------------------------------------
    def _instant_regrets(self, player: int, g: np.ndarray) -> np.ndarray:
        tree = self.trees[player]
        cfv, v = counterfactual_values(tree, g, self.strategy[player])
        cfv[1:] -= v[tree.seq_infoset[1:]]
        cfv[0] = 0.0
        return cfv

    def _update(self, player: int, g: np.ndarray, weight: float) -> None:
        instant = self._instant_regrets(player, g)
        self.average_plan[player] += weight * self.plan[player]
        self.accumulate_regrets(player, instant)
        self.strategy[player] = self.current_strategy(player)
        self.plan[player] = realization_plan(self.trees[player], self.strategy[player])

    def iterate(self, n: int = 1) -> None:
        """Run n iterations."""
        for _ in range(n):
            self.iteration += 1
            self.begin_iteration()
            w = self.average_weight()
            nodes = node_counter(self.game)  # nodes touched: see solvers/nodes.py
            if self.alternating:
                for p in (0, 1):
                    self.nodes_touched += nodes.full_width_pass(p, self.plan[1 - p])
                    self._update(p, collected_values(self.game, p, self.plan[1 - p]), w)
            else:
                gs = [collected_values(self.game, p, self.plan[1 - p]) for p in (0, 1)]
                self.nodes_touched += sum(nodes.full_width_pass(p, self.plan[1 - p]) for p in (0, 1))
                for p in (0, 1):
                    self._update(p, gs[p], w)

    # --- saving and resuming ------------------------------------------------------------------
    def state_dict(self) -> dict:
        """Everything needed to resume: arrays and counters (saved as .npz by the CLI)."""
        state = {"solver": np.array(self.name), "game": np.array(self.game.game_id),
                 "iteration": np.array(self.iteration), "nodes_touched": np.array(self.nodes_touched),
                 "alternating": np.array(self.alternating)}
        for p in (0, 1):
            state[f"regrets{p}"] = self.regrets[p]
            state[f"average_plan{p}"] = self.average_plan[p]
            state[f"strategy{p}"] = self.strategy[p]
        return state

    def load_state_dict(self, state: dict) -> None:
        check_state(state, self.name, self.game.game_id)
        if bool(state["alternating"]) != self.alternating:
            raise ZerosumError("the saved run used other updates (alternating vs simultaneous)")
        self.iteration = int(state["iteration"])
        self.nodes_touched = int(state["nodes_touched"])
        for p in (0, 1):
            self.regrets[p] = np.array(state[f"regrets{p}"], dtype=float)
            self.average_plan[p] = np.array(state[f"average_plan{p}"], dtype=float)
            self.strategy[p] = np.array(state[f"strategy{p}"], dtype=float)
            self.plan[p] = realization_plan(self.trees[p], self.strategy[p])

    # --- results -------------------------------------------------------------------------------
    def average_policy(self) -> TabularPolicy:
        probs = [behavioral_from_realization(t, xs) if self.iteration else t.uniform()
                 for t, xs in zip(self.trees, self.average_plan)]
        return TabularPolicy(self.game, probs)

    def current_policy(self) -> TabularPolicy:
        return TabularPolicy(self.game, [pi.copy() for pi in self.strategy])

    def average_plans(self):
        """Realization plans of the average strategy (normalized sums of weighted plans)."""
        if self.iteration == 0:
            return [p.copy() for p in self.plan]
        return [xs / xs[0] for xs in self.average_plan]

    def checkpoint(self) -> dict:
        """NashConv of the average and current strategies, and player 0's average value."""
        xa, ya = self.average_plans()
        return {
            "iteration": self.iteration,
            "nash_conv_average": nash_conv_of_plans(self.game, xa, ya),
            "nash_conv_current": nash_conv_of_plans(self.game, *self.plan),
            "value_average": float(xa @ (self.game.payoff @ ya)),
            "nodes": self.nodes_touched,
        }


class CFRPlusSolver(CFRSolver):
    """CFR+ (Tammelin 2014): regrets floored at zero after each pass, iteration t weighted by t."""

    name = "cfr+"

    def regret_rule(self) -> RegretRule:
        return RegretRule(floor=True)

    def average_weight(self) -> float:
        return float(self.iteration)
