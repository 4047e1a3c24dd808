"""Monte Carlo CFR (Lanctot, Waugh, Zinkevich and Bowling 2009): external and outcome sampling.

Full-width CFR computes every counterfactual value exactly, which costs a pass over the whole
tree per iteration.  MCCFR samples part of the tree instead and updates regrets with unbiased
estimates of those values; an iteration costs a small subtree (external sampling) or a single
path (outcome sampling), which pays when a full pass is expensive.

Each iteration updates player 0 and then player 1 (one traversal each):

* **external sampling** (Lab 15 Part 2): sample chance and the opponent's actions (from its
  current strategy), explore every action of the traverser, add ``v(a) - v`` to the traverser's
  regrets, and add the opponent's current strategy to its average at every sampled decision;
* **outcome sampling**: sample one terminal history, the traverser exploring with
  ``epsilon * uniform + (1 - epsilon) * sigma`` (epsilon = 0.6, OpenSpiel's default), and
  weight the sampled values by the inverse of the sampling probability (importance sampling);
  the traverser's average is weighted by its own reach over the sampling probability.

The traversals are Numba-compiled loops over the compiled game's history tree
(:class:`zerosum.core.compile.HistoryTree`); regrets and average-strategy sums are flat arrays
indexed by sequence (both players' sequences side by side).  The random numbers come from a
splitmix64 generator seeded, inside the compiled code, from ``(seed, iteration)``, so a run is
reproducible bit for bit and a resumed run continues exactly as the uninterrupted one.
Nodes touched are counted as everywhere in zerosum (:mod:`zerosum.solvers.nodes`): decision
and terminal histories visited, chance nodes not counted.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.evaluation import nash_conv_of_plans
from ..core.game import CHANCE, TERMINAL
from ..core.policy import TabularPolicy, as_compiled
from ..core.sampling import max_depth, sample_chance, seed_iteration, uniform
from ..core.sequence_form import behavioral_from_realization, realization_plan, regret_matching
from ..errors import ZerosumError
from .base import IterativeSolver, check_state
from .sampling_traversal import REGRETS, external_sampling_traversal, no_reservoir
from .sampling_traversal import regret_matching_into as _regret_matching


@njit(cache=True)
def _external_sampling(player, seq0, first_child, n_children, edge_prob, payoff, regrets, avg, sigma, values,
                       stack_node, stack_k, seed, start, iterations):
    """Run ``iterations`` ES-MCCFR iterations from ``start``; returns the nodes touched.

    The shared traversal (:func:`.sampling_traversal.external_sampling_traversal`, mode
    ``REGRETS``): each iteration seeds the stream from ``(seed, iteration)`` and traverses for
    player 0, then player 1."""
    e0, e1, e2, e3 = no_reservoir()  # the reservoirs and ``infoset`` (seq0 passed) are unused in this mode
    return external_sampling_traversal(REGRETS, 0, iterations, seed, start + 1, player, seq0, seq0, first_child,
                                       n_children, edge_prob, payoff, sigma, values, stack_node, stack_k, regrets,
                                       avg, 0, e0, e1, e2, e3, e0, e1, e2, e3, False)


@njit(cache=True)
def _outcome_sampling(player, seq0, first_child, n_children, edge_prob, payoff, regrets, avg, sigma,
                      path_node, path_action, path_q, path_opp, path_my, path_sample, epsilon, seed, start,
                      iterations):
    """Run ``iterations`` OS-MCCFR iterations from ``start``; returns the nodes touched."""
    state = np.zeros(1, dtype=np.uint64)
    nodes = 0
    for it in range(start + 1, start + iterations + 1):
        seed_iteration(state, seed, it)
        for i in range(2):
            # down: sample one path, remembering the reaches before each decision
            h = 0
            d = 0
            my = 1.0
            opp = 1.0
            smp = 1.0
            while player[h] != TERMINAL:
                p = player[h]
                if p == CHANCE:  # chance's probability cancels in opp / smp
                    h = sample_chance(first_child[h], n_children[h], edge_prob, state)
                    continue
                nodes += 1
                g = seq0[h]
                n = n_children[h]
                _regret_matching(regrets, g, n, sigma)
                u = uniform(state)
                a = n - 1
                for k in range(n - 1):
                    q = sigma[g + k]
                    if p == i:
                        q = epsilon / n + (1.0 - epsilon) * q
                    u -= q
                    if u < 0.0:
                        a = k
                        break
                q = sigma[g + a]
                if p == i:
                    q = epsilon / n + (1.0 - epsilon) * q
                path_node[d] = h
                path_action[d] = a
                path_q[d] = q
                path_my[d] = my
                path_opp[d] = opp
                path_sample[d] = smp
                d += 1
                if p == i:
                    my *= sigma[g + a]
                else:
                    opp *= sigma[g + a]
                smp *= q
                h = first_child[h] + a
            nodes += 1
            value = payoff[h] if i == 0 else -payoff[h]
            # up: importance-weighted values, regrets at the traverser's decisions
            for e in range(d - 1, -1, -1):
                h = path_node[e]
                g = seq0[h]
                n = n_children[h]
                a = path_action[e]
                # sigma[g:g+n] still holds the strategy used at h on the way down: with perfect
                # recall an information set occurs at most once on a path
                child = value / path_q[e]
                estimate = sigma[g + a] * child
                if player[h] == i:
                    w = path_opp[e] / path_sample[e]
                    for k in range(n):
                        cv = child if k == a else 0.0
                        regrets[g + k] += (cv - estimate) * w
                    wa = path_my[e] / path_sample[e]
                    for k in range(n):
                        avg[g + k] += wa * sigma[g + k]
                value = estimate
    return nodes


class _MonteCarloCFR(IterativeSolver):
    """Driver shared by the sampling solvers: same interface as :class:`~zerosum.solvers.cfr.CFRSolver`."""

    name = "mccfr"
    progress_step = 20000  # an iteration is a microsecond: report progress in large steps

    def __init__(self, game, seed: int = 0):
        if isinstance(seed, bool) or int(seed) != seed or not 0 <= int(seed) < 2 ** 63:
            raise ZerosumError(f"seed must be a non-negative integer, got {seed}")
        self.seed = int(seed)
        self.game = as_compiled(game)
        self.trees = self.game.treeplexes
        tree = self.game.tree
        n0 = self.trees[0].n_sequences
        self.offsets = (0, n0)
        # per history: the first global sequence of the acting player's information set
        seq0 = np.full(len(tree), -1, dtype=np.int64)
        for p in (0, 1):
            mine = tree.player == p
            seq0[mine] = self.offsets[p] + self.trees[p].infoset_first[tree.infoset[mine]]
        self._arrays = (tree.player, seq0, tree.first_child, tree.n_children, tree.edge_prob, tree.payoff)
        n = n0 + self.trees[1].n_sequences
        self.regrets = np.zeros(n)
        self.average_sums = np.zeros(n)
        self._sigma = np.zeros(n)
        depth = max_depth(tree.first_child, tree.n_children) + 2
        self._depth = depth
        self.iteration = 0
        self.nodes_touched = 0

    def _split(self, flat):
        n0 = self.offsets[1]
        return flat[:n0], flat[n0:]

    def iterate(self, n: int = 1) -> None:
        raise NotImplementedError

    # --- results -------------------------------------------------------------------------------
    def current_strategies(self):
        return [regret_matching(t, r) for t, r in zip(self.trees, self._split(self.regrets))]

    def average_strategies(self):
        """Normalized average-strategy sums per information set (uniform where nothing was added)."""
        return [behavioral_from_realization(t, s) for t, s in zip(self.trees, self._split(self.average_sums))]

    def average_policy(self) -> TabularPolicy:
        return TabularPolicy(self.game, self.average_strategies())

    def current_policy(self) -> TabularPolicy:
        return TabularPolicy(self.game, self.current_strategies())

    def average_plans(self):
        return [realization_plan(t, pi) for t, pi in zip(self.trees, self.average_strategies())]

    def checkpoint(self) -> dict:
        xa, ya = self.average_plans()
        xc, yc = [realization_plan(t, pi) for t, pi in zip(self.trees, self.current_strategies())]
        return {
            "iteration": self.iteration,
            "nash_conv_average": nash_conv_of_plans(self.game, xa, ya),
            "nash_conv_current": nash_conv_of_plans(self.game, xc, yc),
            "value_average": float(xa @ (self.game.payoff @ ya)),
            "nodes": self.nodes_touched,
        }

    # --- saving and resuming ------------------------------------------------------------------
    def _options(self) -> dict:
        return {}

    def state_dict(self) -> dict:
        """Regrets, average sums and counters; the generator needs only (seed, iteration)."""
        state = {"solver": np.array(self.name), "game": np.array(self.game.game_id),
                 "iteration": np.array(self.iteration), "nodes_touched": np.array(self.nodes_touched),
                 "seed": np.array(self.seed), "regrets": self.regrets.copy(),
                 "average_sums": self.average_sums.copy()}
        state.update({k: np.array(v) for k, v in self._options().items()})
        return state

    def load_state_dict(self, state: dict) -> None:
        check_state(state, self.name, self.game.game_id)
        for key, value in self._options().items():
            if key in state and float(state[key]) != value:
                raise ZerosumError(f"the saved run used {key}={float(state[key])}, not {value}")
        n = len(self.regrets)
        regrets = np.array(state["regrets"], dtype=float)
        sums = np.array(state["average_sums"], dtype=float)
        if regrets.shape != (n,) or sums.shape != (n,):
            raise ZerosumError("the saved state does not match this game's sequences")
        self.seed = int(state["seed"])
        self.iteration = int(state["iteration"])
        self.nodes_touched = int(state["nodes_touched"])
        self.regrets = regrets
        self.average_sums = sums


class ExternalSamplingSolver(_MonteCarloCFR):
    """External-sampling MCCFR (Lanctot et al. 2009), as Lab 15 Part 2 describes it."""

    name = "es-mccfr"

    def __init__(self, game, seed: int = 0):
        super().__init__(game, seed)
        self._values = np.zeros_like(self.regrets)
        self._stack_node = np.zeros(self._depth, dtype=np.int64)
        self._stack_k = np.zeros(self._depth, dtype=np.int64)

    def iterate(self, n: int = 1) -> None:
        """Run ``n`` iterations (one sampled traversal per player each) in one compiled call."""
        self.nodes_touched += int(_external_sampling(
            *self._arrays, self.regrets, self.average_sums, self._sigma, self._values, self._stack_node,
            self._stack_k, self.seed, self.iteration, n))
        self.iteration += n


class OutcomeSamplingSolver(_MonteCarloCFR):
    """Outcome-sampling MCCFR (Lanctot et al. 2009) with epsilon-exploration for the traverser."""

    name = "os-mccfr"
    #: one sampled trajectory per player an iteration: on Leduc 1,000 leave NashConv at 4.17 (uniform
    #: play: 4.75), 100,000 reach 0.78 and 1,000,000 0.58 in 0.4 s
    default_iterations = 1_000_000

    def __init__(self, game, seed: int = 0, epsilon: float = 0.6):
        super().__init__(game, seed)
        epsilon = float(epsilon)
        if not 0.0 < epsilon <= 1.0:
            raise ZerosumError(f"epsilon must be in (0, 1], got {epsilon}")
        self.epsilon = epsilon
        d = self._depth
        self._path = (np.zeros(d, dtype=np.int64), np.zeros(d, dtype=np.int64), np.zeros(d), np.zeros(d),
                      np.zeros(d), np.zeros(d))
        # load (or compile) the kernel now, not inside the run's first step: measured from a first step
        # of 10 iterations that loaded it, 1,000,000 iterations on Leduc (0.4 s) were "about 55.6 h"
        self.iterate(0)

    def _options(self) -> dict:
        return {"epsilon": self.epsilon}

    def iterate(self, n: int = 1) -> None:
        """Run ``n`` iterations (one sampled trajectory per player each) in one compiled call."""
        self.nodes_touched += int(_outcome_sampling(
            *self._arrays, self.regrets, self.average_sums, self._sigma, *self._path, self.epsilon,
            self.seed, self.iteration, n))
        self.iteration += n


