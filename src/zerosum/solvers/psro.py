"""Policy-space response oracles (Lanctot et al. 2017) with an exact or a learned best-response oracle.

Each player keeps a *population* of strategies, starting with the uniform one.  An iteration
chooses a *meta-strategy* (a distribution over each population) with a meta-solver, measures it,
and adds to each population an exact best response to the other player's meta-strategy.  Three
meta-solvers (Lab 15 Part 4):

* ``latest``: all weight on the newest member -- iterated best response;
* ``uniform``: equal weights -- fictitious play (Brown 1951), in its full-width form;
* ``nash``: an equilibrium of the *empirical game* by linear programming -- PSRO with a Nash
  meta-solver, i.e. the double oracle (McMahan, Gordon and Blum 2003).

Why realization plans.  A meta-strategy played "as a single behavioral strategy" weights each
member's action probabilities by its meta-probability times the member's own reach of the
information set.  That is exactly the behavioral strategy of the mixture ``sigma @ X`` of the
members' realization plans (X holds one plan per row), so the oracle is one sparse product and one
best-response pass, and the empirical game entry of members i and j is ``X[i] @ A @ Y[j]``: a new
member costs one sparse product and one dense matrix-vector product against the other population
(a row, or a column), never a replay of the matrix.

Conventions that reproduce Lab 15's table digit for digit (iteration 1 is the initial population,
both players' best responses answer the meta-strategies of the same iteration):

* the best response takes the first best action (fold, then check/call, then bet/raise);
* at information sets that chance and the opponent never reach, the best response stays uniform,
  as a best response that only visits the histories with positive weight would.  This changes no
  best-response value, but it changes what the opponent later answers: with the first action
  there instead, iterated best response reads 10.667 at iteration 5 instead of the lab's 6.761.

Learned oracles (``oracle=q-learning|policy-gradient|dqn``, ``hands=N``): the best response is
replaced by a learner that plays N hands against the opponent's meta-strategy (a member drawn per
hand; :mod:`zerosum.learning`).  Each checkpoint still measures everything exactly: the
meta-strategy's NashConv, and each oracle call's error (the exact best-response value minus the
exact value of the learned response against the same meta-strategy).  With ``payoffs=sampled``
the empirical game's entries are averages of ``eval_hands`` simulated hands instead of exact
expected values.  Oracle call (population size k, player p) draws random stream 2k + p from
``seed``, entry (i, j) its own stream, so a resumed run repeats the uninterrupted one.
"""

from __future__ import annotations

import json
from typing import ClassVar

import numpy as np

from ..core.evaluation import nash_conv_of_plans
from ..core.policy import TabularPolicy, as_compiled
from ..core.sequence_form import (
    behavioral_from_realization,
    best_response,
    collected_values,
    realization_plan,
)
from ..errors import ZerosumError
from .base import check_iterations
from .nodes import node_counter

#: names accepted by ``oracle`` (the learned ones live in zerosum.learning)
ORACLE_NAMES = ("exact", "q-learning", "policy-gradient", "dqn")
PAYOFFS = ("exact", "sampled")
#: random streams of the sampled empirical-game entries start here (oracle calls use 2k + p)
_ENTRY_STREAM = 1 << 40

#: names accepted by ``meta_solver``
META_SOLVERS = ("latest", "uniform", "nash")
#: linear-programming methods of scipy.optimize.linprog usable for the Nash meta-solver
LP_METHODS = ("highs", "highs-ds", "highs-ipm")


class EmpiricalGame:
    """Two populations stacked as realization plans, and the payoff matrix between them.

    ``plans[p][:size[p]]`` are player p's members; ``matrix[i, j]`` is player 0's expected payoff
    when member i of player 0 meets member j of player 1.  Storage doubles when full, so memory
    and the cost of adding a member grow linearly with the population.
    """

    def __init__(self, game, capacity: int = 16):
        self.game = as_compiled(game)
        n = [t.n_sequences for t in self.game.treeplexes]
        capacity = max(int(capacity), 1)
        self.plans = [np.empty((capacity, n[0])), np.empty((capacity, n[1]))]
        self.matrix = np.empty((capacity, capacity))
        self.size = [0, 0]

    def _grow(self, player: int) -> None:
        old = self.plans[player]
        if self.size[player] < len(old):
            return
        new = np.empty((2 * len(old), old.shape[1]))
        new[:len(old)] = old
        self.plans[player] = new
        cap = max(len(self.plans[0]), len(self.plans[1]))
        if cap > len(self.matrix):
            m = np.empty((cap, cap))
            m[:self.size[0], :self.size[1]] = self.payoffs
            self.matrix = m

    def add(self, player: int, plan: np.ndarray) -> int:
        """Add a member given by its realization plan; return its index."""
        self._grow(player)
        k = self.size[player]
        self.plans[player][k] = plan
        if player == 0:
            # one row: x @ A @ Y.T, i.e. the plans of player 1 against A.T @ x
            self.matrix[k, :self.size[1]] = self.members(1) @ (self.game.payoff_t @ plan)
        else:
            self.matrix[:self.size[0], k] = self.members(0) @ (self.game.payoff @ plan)
        self.size[player] += 1
        return k

    def members(self, player: int) -> np.ndarray:
        """The population's realization plans, one per row (a view)."""
        return self.plans[player][:self.size[player]]

    @property
    def payoffs(self) -> np.ndarray:
        """The empirical game: player 0's payoff, members of player 0 by row (a view)."""
        return self.matrix[:self.size[0], :self.size[1]]

    def mixture_plan(self, player: int, meta: np.ndarray) -> np.ndarray:
        """Realization plan of the population played as one strategy with meta-probabilities."""
        return np.asarray(meta, dtype=float) @ self.members(player)


# --- meta-solvers -------------------------------------------------------------------------------

def meta_latest(matrix: np.ndarray):
    """All weight on each population's newest member."""
    s0, s1 = np.zeros(matrix.shape[0]), np.zeros(matrix.shape[1])
    s0[-1] = s1[-1] = 1.0
    return s0, s1


def meta_uniform(matrix: np.ndarray):
    """Equal weight on every member."""
    return np.full(matrix.shape[0], 1.0 / matrix.shape[0]), np.full(matrix.shape[1], 1.0 / matrix.shape[1])


def matrix_nash(matrix: np.ndarray, method: str = "highs"):
    """A Nash equilibrium of a matrix game and its value, from one linear program.

    The row player's maximin LP is ``max v`` subject to ``sum_i s_i M[i, j] >= v`` for every
    column j, s a distribution; the duals of those constraints are the column player's minimax
    strategy (LP duality is the minimax theorem), so one solve gives both players.
    """
    from scipy.optimize import linprog

    m = np.asarray(matrix, dtype=float)
    k, n = m.shape
    c = np.zeros(k + 1)
    c[-1] = -1.0
    a_ub = np.hstack([-m.T, np.ones((n, 1))])
    a_eq = np.ones((1, k + 1))
    a_eq[0, -1] = 0.0
    bounds = [(0.0, None)] * k + [(None, None)]
    res = linprog(c, A_ub=a_ub, b_ub=np.zeros(n), A_eq=a_eq, b_eq=[1.0], bounds=bounds, method=method)
    if res.status != 0:
        raise ZerosumError(f"the meta-game LP failed: {res.message}")
    s0 = np.maximum(res.x[:k], 0.0)
    s1 = np.maximum(-res.ineqlin.marginals, 0.0)
    return s0 / s0.sum(), s1 / s1.sum(), float(res.x[-1])


def meta_nash(matrix: np.ndarray, method: str = "highs", reverse: bool = False):
    """A Nash equilibrium of the empirical game.

    When the game has several equilibria, which one the LP returns depends on the method and on
    the order of the members; ``reverse`` numbers them backwards (to measure that dependence).
    """
    m = np.asarray(matrix, dtype=float)
    if reverse:
        m = m[::-1, ::-1]
    s0, s1, _ = matrix_nash(m, method)
    if reverse:
        s0, s1 = s0[::-1].copy(), s1[::-1].copy()
    return s0, s1


# --- the oracle ---------------------------------------------------------------------------------
class OracleWorker:
    """A learned oracle built once in a Ray worker (``solve -a psro --ray``), so that its compiled
    training steps serve every call; a call depends only on its arguments (the player, the
    opponent's mixture, the random stream), so it returns what the driver's oracle would."""

    def __init__(self, oracle: str, game, hands: int, seed: int, options: dict):
        from ..learning.oracle import make_oracle

        self.oracle = make_oracle(oracle, game, hands, seed, **options)

    def respond(self, player: int, opponent, stream: int):
        """The oracle's best response of ``player`` to the ``opponent`` mixture, on random ``stream``."""
        return self.oracle.respond(player, opponent, stream=stream)



def best_response_oracle(game, player: int, opponent_plan: np.ndarray):
    """Exact best response of ``player`` to the opponent's realization plan.

    Returns (value, behavioral strategy per sequence): pure where chance and the opponent reach
    the information set, uniform where they never do (see the module's docstring).
    """
    g = as_compiled(game)
    tree = g.treeplexes[player]
    value, pi = best_response(tree, collected_values(g, player, opponent_plan), with_policy=True)
    unreached = (g.infoset_reach[player] @ opponent_plan) <= 0.0
    if unreached.any():
        seq = unreached[tree.seq_infoset[1:]]
        pi[1:][seq] = tree.seq_uniform[1:][seq]
    return float(value), pi


# --- the loop -----------------------------------------------------------------------------------

class PSROSolver:
    """Grow both populations with exact best responses to the meta-strategies.

    ``iteration`` is the population size: iteration 1 measures the initial population (the
    uniform strategy alone); each later iteration has one more member per player.
    """

    name = "psro"

    #: where the learned oracles' calls run: None (this process) or (Ray address, workers), set by
    #: ``solve -a psro --ray``; the numbers are the same either way
    parallel = None
    #: options ``zerosum solve`` gives unless ``--option`` does: stop once converged (Kuhn's double
    #: oracle is exact from population 7; without it 1,000 iterations of duplicates took 22 s)
    cli_defaults: ClassVar[dict] = {"tol": 1e-9}

    def __init__(self, game, meta_solver: str = "nash", lp_method: str = "highs", reverse: bool = False,
                 capacity: int = 16, oracle: str = "exact", hands: int | None = None, payoffs: str = "exact",
                 eval_hands: int | None = None, seed: int = 0, oracle_options: dict | None = None,
                 tol: float | None = None):
        """``tol``: :meth:`run` stops early, with ``stopped = "converged"``, once the meta-strategy's
        NashConv is below ``tol`` or, for the double oracle (the nash meta-solver, the exact oracle and
        payoffs), once neither best response is new (each is already a member: the meta-strategy is an
        equilibrium).  None or 0: run every iteration asked for (the Python default, which the labs'
        tables use; ``zerosum solve`` sets 1e-9)."""
        if tol is not None and (isinstance(tol, bool) or not isinstance(tol, (int, float)) or not tol >= 0):
            raise ZerosumError(f"tol must be a non-negative number (0: never stop early), got {tol!r}")
        self.tol = None if tol is None else float(tol)
        self.stopped = None
        if meta_solver not in META_SOLVERS:
            raise ZerosumError(f"unknown meta-solver {meta_solver!r}; choose one of {', '.join(META_SOLVERS)}")
        if lp_method not in LP_METHODS:
            raise ZerosumError(f"unknown LP method {lp_method!r}; choose one of {', '.join(LP_METHODS)}")
        self.game = as_compiled(game)
        self.meta_solver = meta_solver
        self.lp_method = lp_method
        self.reverse = bool(reverse)
        self._setup_learning(oracle, hands, payoffs, eval_hands, seed, oracle_options)
        self.empirical = EmpiricalGame(self.game, capacity)
        for p, tree in enumerate(self.game.treeplexes):
            self._add_member(p, tree.uniform())
        self._measured = None  # (meta, plans, BR values, BR strategies) of the current population
        self._oracle_nodes: dict[int, int] = {}  # population size -> nodes touched by its two oracle calls
        self._oracle_errors: dict[int, tuple[float, float]] = {}  # population size -> errors of its two calls
        self._hands: dict[int, int] = {0: self._entry_hands}  # population size -> hands played to reach it
        self._entry_hands = 0

    def _setup_learning(self, oracle, hands, payoffs, eval_hands, seed, oracle_options) -> None:
        from ..learning.simulator import check_hands, check_seed

        if oracle not in ORACLE_NAMES:
            raise ZerosumError(f"unknown oracle {oracle!r}; choose one of {', '.join(ORACLE_NAMES)}")
        if payoffs not in PAYOFFS:
            raise ZerosumError(f"payoffs must be exact or sampled, got {payoffs!r}")
        if oracle == "exact" and (hands is not None or oracle_options):
            raise ZerosumError("the exact oracle plays no hands: hands and oracle_options need a learned oracle")
        if payoffs == "exact" and eval_hands is not None:
            raise ZerosumError("eval_hands needs payoffs=sampled")
        if oracle_options is not None and not isinstance(oracle_options, dict):
            raise ZerosumError("oracle_options must be a JSON object, e.g. '{\"epsilon\": 0.5}'")
        self.oracle = oracle
        self.hands = 0 if oracle == "exact" else check_hands(10000 if hands is None else hands)
        self.payoffs = payoffs
        self.eval_hands = 0 if payoffs == "exact" else check_hands(10000 if eval_hands is None else eval_hands,
                                                                   "eval_hands")
        self.seed = check_seed(seed)
        self.oracle_options = dict(oracle_options or {})
        self._learner = None
        self._simulator = None
        if oracle != "exact":
            from ..learning.oracle import make_oracle

            self._learner = make_oracle(oracle, self.game, self.hands, self.seed, **self.oracle_options)
            self._simulator = self._learner.sim
        elif payoffs == "sampled":
            from ..learning.simulator import Simulator

            self._simulator = Simulator(self.game)
        self._behavioral: list[list[np.ndarray]] = [[], []]  # members as behavioral strategies
        self._entry_hands = 0  # hands spent estimating entries, not yet booked to an iteration

    def _add_member(self, player: int, strategy: np.ndarray) -> None:
        """Add a member given by its behavioral strategy; sample its entries if asked to."""
        tree = self.game.treeplexes[player]
        k = self.empirical.add(player, realization_plan(tree, strategy))
        self._behavioral[player].append(strategy)
        if self.payoffs == "sampled":
            self._sample_entries(player, k)

    def _sample_entries(self, player: int, k: int) -> None:
        emp = self.empirical
        for j in range(emp.size[1 - player]):
            i0, i1 = (k, j) if player == 0 else (j, k)
            pair = [self._behavioral[0][i0], self._behavioral[1][i1]]
            out = self._simulator.play_profile(pair, seed=self.seed, stream=_ENTRY_STREAM + (i0 << 20) + i1,
                                               hands=self.eval_hands)
            emp.matrix[i0, i1] = float(out.mean())
            self._entry_hands += self.eval_hands

    @property
    def iteration(self) -> int:
        """Population size per player (1 before the first oracle call)."""
        return self.empirical.size[0]

    def meta_strategies(self):
        """Both players' distributions over their populations, by the chosen meta-solver."""
        m = self.empirical.payoffs
        if self.meta_solver == "latest":
            return meta_latest(m)
        if self.meta_solver == "uniform":
            return meta_uniform(m)
        return meta_nash(m, self.lp_method, self.reverse)

    def _measure(self):
        if self._measured is None:
            meta = self.meta_strategies()
            plans = [self.empirical.mixture_plan(p, meta[p]) for p in (0, 1)]
            brs = [best_response_oracle(self.game, p, plans[1 - p]) for p in (0, 1)]
            self._measured = (meta, plans, [b[0] for b in brs], [b[1] for b in brs])
            if self.oracle == "exact":  # a learned oracle's cost is its hands, not full-width passes
                counter = node_counter(self.game)  # each oracle call is one full-width pass (solvers/nodes.py)
                self._oracle_nodes[self.iteration] = sum(counter.full_width_pass(p, plans[1 - p]) for p in (0, 1))
        return self._measured

    def iterate(self, n: int = 1) -> None:
        """Add to each population a best response to the other's current meta-strategy, n times."""
        for _ in range(n):
            meta, plans, values, strategies = self._measure()
            size = self.iteration
            hands = 0
            if self._learner is not None:
                strategies, errors = [], []
                for p, r in enumerate(self._respond_both(meta, size)):
                    strategies.append(r.strategy)
                    hands += r.hands
                    tree = self.game.treeplexes[p]
                    mine = realization_plan(tree, r.strategy)
                    got = float(mine @ (self.game.payoff @ plans[1])) if p == 0 else \
                        -float(plans[0] @ (self.game.payoff @ mine))
                    errors.append(values[p] - got)
                self._oracle_errors[size + 1] = (errors[0], errors[1])
            for p in (0, 1):
                self._add_member(p, strategies[p])
            self._hands[size + 1] = hands + self._entry_hands
            self._entry_hands = 0
            self._measured = None

    def _respond_both(self, meta, size: int) -> list:
        """Both players' learned best responses to the other's meta-strategy: two independent calls
        (each its own random stream), in this process or, where :attr:`parallel` names a Ray
        address and a number of workers (``solve -a psro --ray``), as two Ray tasks at once."""
        mixtures = [self._opponent_mixture(p, meta[1 - p]) for p in (0, 1)]
        if self.parallel is None:
            return [self._learner.respond(p, mixtures[p], stream=2 * size + p) for p in (0, 1)]
        from ..distributed.ray_runtime import import_ray

        ray = import_ray()
        if getattr(self, "_workers", None) is None:  # one actor per player (one in all with --workers 1)
            actor = ray.remote(num_cpus=1)(OracleWorker)
            self._workers = [actor.remote(self.oracle, self.game, self.hands, self.seed, self.oracle_options)
                             for _ in range(min(2, self.parallel[1]))]
        w = self._workers
        return ray.get([w[p % len(w)].respond.remote(p, mixtures[p], 2 * size + p) for p in (0, 1)])

    def _opponent_mixture(self, player: int, weights: np.ndarray):
        """The opponent's members with positive meta-probability, as the simulator plays them."""
        from ..learning.simulator import Mixture

        keep = np.flatnonzero(np.asarray(weights) > 0)
        members = np.array([self._behavioral[1 - player][k] for k in keep])
        return Mixture(self.game, player, members, np.asarray(weights)[keep])

    def checkpoint(self) -> dict:
        """NashConv of the meta-strategy profile (the sum of the two best-response values).

        For ``zerosum solve``, the meta-strategy is also reported as the "average" and the newest
        members' profile as the "current" strategy.
        """
        meta, plans, values, _ = self._measure()
        nash_conv = max(values[0] + values[1], 0.0)
        value = float(plans[0] @ (self.game.payoff @ plans[1]))
        newest = [self.empirical.members(p)[-1] for p in (0, 1)]
        return {
            "iteration": self.iteration,
            "nash_conv": nash_conv,
            "best_response_values": list(values),
            "value": value,
            "support": [int(np.count_nonzero(s > 1e-12)) for s in meta],
            "nash_conv_average": nash_conv,
            "nash_conv_current": nash_conv_of_plans(self.game, *newest),
            "value_average": value,
            "nodes": sum(n for size, n in self._oracle_nodes.items() if size <= self.iteration),
            "oracle": self.oracle,
            # errors of the two calls that made the newest members (None before the first call)
            "oracle_error": list(self._oracle_errors.get(self.iteration, (0.0, 0.0) if self.oracle == "exact"
                                                           and self.iteration > 1 else (None, None))),
            "mean_oracle_error": self.mean_oracle_error(),
            "hands": sum(h for size, h in self._hands.items() if size <= self.iteration),
        }

    def mean_oracle_error(self) -> float | None:
        """Mean error of the oracle calls so far (0 for the exact oracle, None before any call)."""
        if self.iteration <= 1:
            return None
        if self.oracle == "exact":
            return 0.0
        errs = [e for size, pair in self._oracle_errors.items() if size <= self.iteration for e in pair]
        return float(np.mean(errs))

    # --- saving and resuming ------------------------------------------------------------------
    def state_dict(self) -> dict:
        """The populations (realization plans) and the empirical game, saved as .npz by the CLI."""
        emp = self.empirical
        return {"solver": np.array(self.name), "game": np.array(self.game.game_id),
                "meta_solver": np.array(self.meta_solver), "lp_method": np.array(self.lp_method),
                "reverse": np.array(self.reverse), "plans0": emp.members(0).copy(),
                "plans1": emp.members(1).copy(), "matrix": emp.payoffs.copy(),
                "oracle_nodes": np.array(sorted(self._oracle_nodes.items()), dtype=np.int64).reshape(-1, 2),
                "oracle": np.array(self.oracle), "hands": np.array(self.hands), "payoffs": np.array(self.payoffs),
                "eval_hands": np.array(self.eval_hands), "seed": np.array(self.seed),
                "oracle_options": np.array(json.dumps(self.oracle_options, sort_keys=True)),
                "behavioral0": np.array(self._behavioral[0]), "behavioral1": np.array(self._behavioral[1]),
                "oracle_errors": np.array([(k, *v) for k, v in sorted(self._oracle_errors.items())],
                                          dtype=float).reshape(-1, 3),
                "hands_played": np.array(sorted(self._hands.items()), dtype=np.int64).reshape(-1, 2)}

    def load_state_dict(self, state: dict) -> None:
        """Restore the populations and the empirical game saved by :meth:`state_dict` (same game, same solver)."""
        from .base import check_state

        check_state(state, self.name, self.game.game_id)
        for key in ("meta_solver", "lp_method", "reverse"):
            if key not in state or state[key].item() != getattr(self, key):
                raise ZerosumError(f"the saved run used another {key.replace('_', ' ')}")
        # states saved before learned oracles existed were made with the exact oracle and payoffs
        saved = {"oracle": "exact", "hands": 0, "payoffs": "exact", "eval_hands": 0, "seed": self.seed,
                 "oracle_options": "{}"}
        saved.update({k: state[k].item() for k in saved if k in state})
        mine = {"oracle": self.oracle, "hands": self.hands, "payoffs": self.payoffs, "eval_hands": self.eval_hands,
                "seed": self.seed, "oracle_options": json.dumps(self.oracle_options, sort_keys=True)}
        if self.oracle == "exact" and self.payoffs == "exact":
            saved["seed"] = self.seed  # the seed plays no part
        for key, value in mine.items():
            if saved[key] != value:
                raise ZerosumError(f"the saved run used {key.replace('_', ' ')} {saved[key]!r}, not {value!r}")
        plans = [np.asarray(state["plans0"], dtype=float), np.asarray(state["plans1"], dtype=float)]
        matrix = np.asarray(state["matrix"], dtype=float)
        trees = self.game.treeplexes
        if (plans[0].ndim != 2 or plans[0].shape[1] != trees[0].n_sequences or plans[1].ndim != 2
                or plans[1].shape[1] != trees[1].n_sequences or len(plans[0]) != len(plans[1])
                or matrix.shape != (len(plans[0]), len(plans[1]))):
            raise ZerosumError("the saved populations do not fit this game")
        emp = EmpiricalGame(self.game, max(len(plans[0]), 1))
        emp.plans = plans
        emp.matrix = matrix.copy()
        emp.size = [len(plans[0]), len(plans[1])]
        self.empirical = emp
        self._measured = None
        self._oracle_nodes = {int(k): int(v) for k, v in np.asarray(state.get("oracle_nodes", np.zeros((0, 2))))}
        if "behavioral0" in state:
            self._behavioral = [list(np.asarray(state["behavioral0"], dtype=float)),
                                list(np.asarray(state["behavioral1"], dtype=float))]
        else:
            self._behavioral = [[behavioral_from_realization(trees[p], x) for x in plans[p]] for p in (0, 1)]
        if any(len(b) != len(x) for b, x in zip(self._behavioral, plans)):
            raise ZerosumError("the saved populations do not fit this game")
        self._oracle_errors = {int(k): (float(a), float(b))
                               for k, a, b in np.asarray(state.get("oracle_errors", np.zeros((0, 3))))}
        self._hands = {int(k): int(v) for k, v in np.asarray(state.get("hands_played", np.zeros((0, 2))))}
        self._entry_hands = 0

    def run(self, iterations: int, checkpoints=(), progress=None) -> list[dict]:
        """Grow the populations to ``iterations`` members, recording a checkpoint at each requested
        iteration; ``progress(advance)`` is called after every iteration.  With ``tol`` (see
        :meth:`__init__`) it stops at the first population that has converged, records a checkpoint
        there and sets ``stopped`` to ``"converged"`` (``convergence`` says why); else ``stopped`` is None."""
        iterations = check_iterations(iterations)
        marks = sorted({c for c in checkpoints if self.iteration <= c <= iterations} | {iterations})
        out = []
        self.stopped = None
        for m in marks:
            while self.iteration < m:
                if self.converged():
                    self.stopped = "converged"
                    if not out or out[-1]["iteration"] != self.iteration:
                        out.append(self.checkpoint())
                    return out
                self.iterate()
                if progress is not None:
                    progress(1)
            out.append(self.checkpoint())
        return out

    def converged(self) -> bool:
        """Whether the current population meets the ``tol`` rule (False when ``tol`` is None or 0);
        sets ``convergence`` to the reason, in words."""
        if not self.tol:
            return False
        _, _, values, strategies = self._measure()
        nash_conv = max(values[0] + values[1], 0.0)
        if nash_conv < self.tol:
            self.convergence = f"NashConv {nash_conv:.3g} below tol {self.tol:g}"
            return True
        if self.meta_solver == "nash" and self.oracle == "exact" and self.payoffs == "exact":
            trees = self.game.treeplexes
            if all(np.any(np.all(np.abs(self.empirical.members(p) - realization_plan(trees[p], strategies[p]))
                                 <= 1e-12, axis=1)) for p in (0, 1)):
                self.convergence = f"no new best response (NashConv {nash_conv:.3g})"
                return True
        return False

    def meta_policy(self) -> TabularPolicy:
        """The meta-strategy profile as one behavioral strategy per player."""
        _, plans, _, _ = self._measure()
        probs = [behavioral_from_realization(t, x) for t, x in zip(self.game.treeplexes, plans)]
        return TabularPolicy(self.game, probs)

    def average_policy(self) -> TabularPolicy:
        """Same as :meth:`meta_policy` (the name the CLI's ``solve`` uses)."""
        return self.meta_policy()
