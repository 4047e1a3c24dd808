"""Exact equilibria by the sequence-form linear program (Koller, Megiddo and von Stengel 1996,
"Efficient Computation of Equilibria for Extensive Two-Person Games", Games and Economic Behavior;
von Stengel 1996), solved with HiGHS through :func:`scipy.optimize.linprog`.

Why: every iterative method approaches an equilibrium; the LP reaches one, with a size linear in
the game tree.  Player 1's best response to a realization plan x is the LP
``min_y x^T A y  s.t.  F y = f, y >= 0``; its dual ``max_q f^T q  s.t.  F^T q <= A^T x`` has the
same value, so player 0's maximin problem is one LP in (x, q):

    maximize q_0   subject to   E x = e,  x >= 0,  F^T q - A^T x <= 0,  q free,

where E (and F) say that a realization plan puts 1 on the empty sequence and splits the weight of
each information set's parent sequence among its actions.  Player 1's plan is the solution of the
symmetric LP, whose solution HiGHS already gives as the duals of the constraints
``F^T q - A^T x <= 0``: one LP yields both plans.  As a safeguard ("polish"), if the pair is not an
equilibrium to ~1e-12, player 1's own LP is solved as well.  The realization plans become behavioral
strategies as for any other solver.
"""

from __future__ import annotations

import time

import numpy as np
import scipy.sparse as sp

from ..core.compile import Treeplex
from ..core.evaluation import nash_conv_of_plans
from ..core.policy import TabularPolicy, as_compiled
from ..core.sequence_form import behavioral_from_realization, realization_plan
from ..errors import ZerosumError

#: HiGHS tolerances: tighter than its defaults (1e-7) so that the plans are exact to ~1e-12
HIGHS_OPTIONS = {"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10}


def constraint_matrix(tree: Treeplex) -> sp.csr_matrix:
    """E with E x = e: row 0 is x[empty] = 1, row 1 + I is sum_a x[I, a] - x[parent(I)] = 0."""
    n_inf, n_seq = tree.n_infosets, tree.n_sequences
    seqs = np.arange(1, n_seq)
    rows = np.concatenate(([0], 1 + tree.seq_infoset[1:], 1 + np.arange(n_inf)))
    cols = np.concatenate(([0], seqs, tree.infoset_parent))
    vals = np.concatenate(([1.0], np.ones(n_seq - 1), -np.ones(n_inf)))
    return sp.csr_matrix((vals, (rows, cols)), shape=(n_inf + 1, n_seq))


def _solve_side(game, player: int, options: dict):
    """Maximin LP of ``player``: its realization plan, the opponent's (from the duals of the
    best-response constraints), the LP value for player 0, and the LP's size."""
    from scipy.optimize import linprog

    me, opp = game.treeplexes[player], game.treeplexes[1 - player]
    a = game.payoff if player == 0 else -game.payoff_t  # the player's payoffs, rows = own sequences
    e, f = constraint_matrix(me), constraint_matrix(opp)
    n, m = me.n_sequences, opp.n_infosets + 1
    c = np.zeros(n + m)
    c[n] = -1.0  # maximize q_0
    a_ub = sp.hstack([-a.T, f.T], format="csr")
    a_eq = sp.hstack([e, sp.csr_matrix((e.shape[0], m))], format="csr")
    b_eq = np.zeros(e.shape[0])
    b_eq[0] = 1.0
    bounds = np.zeros((n + m, 2))
    bounds[:, 1] = np.inf
    bounds[n:, 0] = -np.inf
    res = linprog(c, A_ub=a_ub, b_ub=np.zeros(opp.n_sequences), A_eq=a_eq, b_eq=b_eq, bounds=bounds,
                  method="highs", options=options)
    if res.status != 0:
        raise ZerosumError(f"the sequence-form LP of player {player} failed: {res.message}")
    size = {"variables": n + m, "constraints": a_ub.shape[0] + a_eq.shape[0], "nonzeros": a_ub.nnz + a_eq.nnz,
            "simplex_iterations": int(res.nit)}
    value = -res.fun if player == 0 else res.fun
    # the duals of F^T q - A^T x <= 0 are (minus) the opponent's equilibrium realization plan
    return np.maximum(res.x[:n], 0.0), np.maximum(-res.ineqlin.marginals, 0.0), float(value), size


def _consistent(tree: Treeplex, x: np.ndarray) -> np.ndarray:
    """The realization plan of the behavioral strategy read off ``x`` (exactly consistent)."""
    return realization_plan(tree, behavioral_from_realization(tree, x))


_WARM = []


def _warm_up() -> None:
    """Load SciPy's HiGHS once per process, before any clock starts (the first call costs ~0.5 s)."""
    if not _WARM:
        from scipy.optimize import linprog

        linprog([1.0], bounds=[(0.0, 1.0)], method="highs")
        _WARM.append(True)


def solve_lp(game, options: dict | None = None, polish_above: float = 1e-12):
    """Value and realization plans (x, y) of an equilibrium, with the LP's size and timings
    (``seconds``: building and solving each LP, the time the benchmark reports).

    One LP gives x and, through its duals, y.  If that pair's NashConv exceeds ``polish_above``
    (relative to the payoff scale), player 1's own LP is solved too and its plan replaces y.
    """
    _warm_up()
    g = as_compiled(game)
    opts = dict(HIGHS_OPTIONS, **(options or {}))
    t0 = time.perf_counter()
    x, y, value, size = _solve_side(g, 0, opts)
    info = {"value_lp": value, "sizes": [size], "seconds": [time.perf_counter() - t0], "polished": False}
    x, y = _consistent(g.treeplexes[0], x), _consistent(g.treeplexes[1], y)
    scale = max(1.0, float(np.abs(g.tree.payoff).max()))
    if nash_conv_of_plans(g, x, y) > polish_above * scale:
        t0 = time.perf_counter()
        y2, _, _, size1 = _solve_side(g, 1, opts)
        info["seconds"].append(time.perf_counter() - t0)
        y2 = _consistent(g.treeplexes[1], y2)
        if nash_conv_of_plans(g, x, y2) < nash_conv_of_plans(g, x, y):
            y = y2
        info["sizes"].append(size1)
        info["polished"] = True
    return x, y, info


class LPSolver:
    """The sequence-form LP behind the solver interface of ``zerosum solve`` (``-a lp``).

    ``run`` solves once (``iterations`` is ignored) and returns one checkpoint (iteration 1: one
    solve; ``nodes`` None: the LP visits no tree); the strategies are exact to HiGHS's tolerances.
    ``lp_size`` and ``lp_seconds`` describe the LPs solved: player 0's, and player 1's only when
    the duals needed polishing (``info["polished"]``).
    """

    name = "lp"

    def __init__(self, game):
        self.game = as_compiled(game)
        self.plans = None
        self.info: dict = {}
        self.iteration = 0  # the LP is not iterative; 1 once solved

    def state_dict(self) -> dict:
        """Always refused: the LP has no state worth resuming."""
        raise ZerosumError("the LP solver has no state to save or resume; save its policy with --save")

    def load_state_dict(self, state: dict) -> None:
        """Always refused, like :meth:`state_dict`."""
        self.state_dict()

    def solve(self):
        """Solve both players' LPs once (later calls reuse them); returns the two realization plans."""
        if self.plans is None:
            x, y, info = solve_lp(self.game)
            self.info = dict(info, total_seconds=sum(info["seconds"]))
            self.iteration = 1
            self.plans = [x, y]
            self.probs = [behavioral_from_realization(t, p) for t, p in zip(self.game.treeplexes, self.plans)]
        return self.plans

    @property
    def lp_size(self) -> list[dict]:
        """Variables, constraints, nonzeros and simplex iterations of each LP solved."""
        self.solve()
        return self.info["sizes"]

    @property
    def lp_seconds(self) -> float:
        """Seconds spent building and solving the LPs."""
        self.solve()
        return self.info["total_seconds"]

    @property
    def value(self) -> float:
        """The value of the game to player 0 (solving first if needed)."""
        x, y = self.solve()
        return float(x @ (self.game.payoff @ y))

    def run(self, iterations: int = 1, checkpoints=(), progress=None) -> list[dict]:
        """Solve, and return one checkpoint like the iterative solvers' (``iterations`` is ignored; ``nodes`` is 0)."""
        x, y = self.solve()
        if progress is not None:
            progress(iterations)
        return [{
            "iteration": 1,
            "nash_conv_average": nash_conv_of_plans(self.game, x, y),
            "nash_conv_current": nash_conv_of_plans(self.game, x, y),
            "value_average": self.value,
            "nodes": None,
        }]

    def average_policy(self) -> TabularPolicy:
        """The equilibrium profile as a policy (also ``current_policy``)."""
        self.solve()
        return TabularPolicy(self.game, self.probs)

    current_policy = average_policy

    def extra_info(self) -> dict:
        """What ``zerosum solve`` adds to its result: the LP's size and solve time."""
        self.solve()
        return {"lp": {"sizes": self.info["sizes"], "seconds": self.info["seconds"],
                       "value_lp": self.info["value_lp"], "polished": self.info["polished"]}}
