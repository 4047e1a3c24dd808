"""Counterfactual regret minimization on the compiled sequence form.

One driver, :class:`CFRSolver`, runs every full-width CFR variant.  An iteration is, per player:
the values collected under each sequence from the opponent's realization plan (one sparse
product), every counterfactual value in one upward pass over the treeplex, the instantaneous
regrets ``cfv(I, a) - v(I)``, and an update.  What differs between variants is a variant object
of :mod:`zerosum.solvers.rules` the driver takes (its regret rule, average weight and, for the
predictive ones, prediction), never the pass: ``CFRSolver(game, variant=DCFR(alpha=2.0))`` runs
the same as ``DCFRSolver(game, alpha=2.0)``; the named classes (``CFRPlusSolver`` here,
``LCFRSolver``, ``DCFRSolver``, ``PCFRPlusSolver``, ``PDCFRPlusSolver`` in their modules) only
build their variant.

Conventions (Lab 15 Part 1 and OpenSpiel's ``CFRSolver``):

* alternating updates by default: player 0 is updated from player 1's strategy, then player 1 from
  player 0's *new* strategy; strategies are fixed during a pass, regrets applied at its end;
* the average strategy accumulates the player's own realization plan, i.e. each information set
  weighted by the player's own reach once, not once per history;
* iteration t has weight 1 (CFR) or t (CFR+, linear averaging) in the average.

(``RegretRule``, ``regret_update`` and ``apply_regret_rule`` live in :mod:`.rules`; they are
importable from here too.)
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.compile import Treeplex
from ..core.evaluation import nash_conv_of_plans
from ..core.policy import TabularPolicy, as_compiled
from ..core.sequence_form import (
    behavioral_from_realization,
    collected_values,
    counterfactual_values,
    realization_plan,
    regret_matching,
)
from ..errors import ZerosumError
from .base import IterativeSolver, check_state
from .nodes import node_counter
from .rules import (
    CFR,
    CFRPlus,
    RegretRule,
    Variant,
    apply_regret_rule,
    check_variant,
    regret_update,  # noqa: F401 (its old home: importable from here too)
)


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
    """Next strategy of predictive regret matching+ on a treeplex, bottom-up (PCFR+ and PDCFR+,
    :class:`zerosum.solvers.rules.Predictive` with ``prediction="tree"``).

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


class CFRSolver(IterativeSolver):
    """Vanilla CFR (Zinkevich et al. 2007).

    From Python, ``variant`` runs any CFR variant on this driver (an object of
    :mod:`zerosum.solvers.rules`: ``CFRPlus()``, ``DCFR(alpha=2.0)``, ...).
    ``alternating=False`` gives simultaneous updates, as in the Kuhn notebook: both players'
    regrets come from the same profile.  A predictive variant (PCFR+, PDCFR+) also keeps the last
    values and instantaneous regrets and builds the next strategy from them.
    """

    name = "cfr"

    def __init__(self, game, alternating: bool = True, variant: Variant | None = None):
        self.variant = CFR() if variant is None else check_variant(variant)
        self.name = self.variant.name
        self.game = as_compiled(game)
        self.alternating = alternating
        self.trees = self.game.treeplexes
        self.iteration = 0
        self.nodes_touched = 0
        self.regrets = [np.zeros(t.n_sequences) for t in self.trees]
        self.average_plan = [np.zeros(t.n_sequences) for t in self.trees]
        self.strategy = [t.uniform() for t in self.trees]
        self.plan = [realization_plan(t, pi) for t, pi in zip(self.trees, self.strategy)]
        if self.variant.predictive:  # the last values (the prediction) and instantaneous regrets
            self.last_values = [np.zeros(t.n_sequences) for t in self.trees]
            self.last_regrets = [np.zeros(t.n_sequences) for t in self.trees]

    # --- the variant's rules at work ----------------------------------------------------------
    def current_strategy(self, player: int) -> np.ndarray:
        """Regret matching on the cumulative regrets; predictive regret matching+ on
        ``prediction_scale(t) * regrets`` for a predictive variant."""
        tree, regrets = self.trees[player], self.regrets[player]
        v = self.variant
        if not v.predictive:
            return regret_matching(tree, regrets)
        scale = v.prediction_scale(self.iteration)
        if scale != 1.0:
            regrets = scale * regrets
        if v.prediction == "tree":
            return predictive_strategy(tree, regrets, self.last_values[player], self.strategy[player])
        return regret_matching(tree, regrets + self.last_regrets[player])

    # --- the pass ------------------------------------------------------------------------------
    def _instant_regrets(self, player: int, g: np.ndarray) -> np.ndarray:
        tree = self.trees[player]
        cfv, v = counterfactual_values(tree, g, self.strategy[player])
        cfv[1:] -= v[tree.seq_infoset[1:]]
        cfv[0] = 0.0
        return cfv

    def _update(self, player: int, g: np.ndarray, weight: float, rule: RegretRule) -> None:
        instant = self._instant_regrets(player, g)
        if self.variant.predictive:
            self.last_values[player] = g
            self.last_regrets[player] = instant
        self.average_plan[player] += weight * self.plan[player]
        apply_regret_rule(self.regrets[player], instant, rule)
        self.strategy[player] = self.current_strategy(player)
        self.plan[player] = realization_plan(self.trees[player], self.strategy[player])

    def iterate(self, n: int = 1) -> None:
        """Run n iterations."""
        for _ in range(n):
            self.iteration += 1
            if self.variant.restarts_average(self.iteration):  # DCFR's restart=B (restart_keep: a share kept)
                keep = self.variant.restart_keep
                for avg in self.average_plan:
                    if keep:
                        avg *= keep
                    else:
                        avg[:] = 0.0
            w = self.variant.average_weight(self.iteration)
            rule = self.variant.regret_rule(self.iteration)
            nodes = node_counter(self.game)  # nodes touched: see solvers/nodes.py
            if self.alternating:
                for p in (0, 1):
                    self.nodes_touched += nodes.full_width_pass(p, self.plan[1 - p])
                    self._update(p, collected_values(self.game, p, self.plan[1 - p]), w, rule)
            else:
                gs = [collected_values(self.game, p, self.plan[1 - p]) for p in (0, 1)]
                self.nodes_touched += sum(nodes.full_width_pass(p, self.plan[1 - p]) for p in (0, 1))
                for p in (0, 1):
                    self._update(p, gs[p], w, rule)

    # --- saving and resuming ------------------------------------------------------------------
    def state_dict(self) -> dict:
        """Everything needed to resume: arrays and counters (saved as .npz by the CLI), and the
        variant's parameters (``param_NAME``)."""
        state = {"solver": np.array(self.name), "game": np.array(self.game.game_id),
                 "iteration": np.array(self.iteration), "nodes_touched": np.array(self.nodes_touched),
                 "alternating": np.array(self.alternating)}
        for p in (0, 1):
            state[f"regrets{p}"] = self.regrets[p]
            state[f"average_plan{p}"] = self.average_plan[p]
            state[f"strategy{p}"] = self.strategy[p]
            if self.variant.predictive:
                state[f"last_values{p}"] = self.last_values[p]
                state[f"last_regrets{p}"] = self.last_regrets[p]
        return self.variant.save(state)

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
        self.variant.check(state)
        if self.variant.predictive:
            self.last_values = [np.array(state[f"last_values{p}"], dtype=float) for p in (0, 1)]
            self.last_regrets = [np.array(state[f"last_regrets{p}"], dtype=float) for p in (0, 1)]

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
    """CFR+ (Tammelin 2014): regrets floored at zero after each pass, iteration t weighted by t.

    Its rule is :class:`zerosum.solvers.rules.CFRPlus`."""

    name = "cfr+"

    def __init__(self, game, alternating: bool = True):
        super().__init__(game, alternating=alternating, variant=CFRPlus())


def variant_solver(variant_cls: type) -> type:
    """:class:`CFRSolver` with the variant ``variant_cls`` bound: a class called with the game and
    the variant's parameters as keywords, whose ``__init__`` signature lists them (what the CLI
    checks ``--option KEY=VALUE`` against): the history-tree solver of a variant that has no
    class of its own (one added to :data:`zerosum.solvers.rules.VARIANTS`)."""
    import inspect

    class Bound(CFRSolver):
        name = variant_cls.name

        def __init__(self, game, alternating: bool = True, **params):
            super().__init__(game, alternating=alternating, variant=variant_cls(**params))

    own = list(inspect.signature(Bound.__init__).parameters.values())[:3]  # self, game, alternating
    takes = [] if variant_cls.__init__ is object.__init__ else \
        list(inspect.signature(variant_cls.__init__).parameters.values())[1:]
    Bound.__init__.__signature__ = inspect.Signature(own + takes)
    Bound.__name__ = Bound.__qualname__ = variant_cls.__name__ + "Solver"
    Bound.__doc__ = variant_cls.__doc__
    return Bound
