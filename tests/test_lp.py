"""The sequence-form LP: exact values, equilibria certified by NashConv, agreement with
independent formulations (matrix-game LP, player 1's own LP, OpenSpiel's evaluation)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from zerosum import load_game
from zerosum.core.compile import compile_game, compiled
from zerosum.core.evaluation import evaluate, nash_conv_of_plans
from zerosum.solvers import SOLVERS
from zerosum.solvers.lp import LPSolver, _solve_side, constraint_matrix, solve_lp


def test_kuhn_value_and_equilibrium_are_exact():
    s = LPSolver(compiled(load_game("kuhn")))
    row = s.run(1)[0]
    assert abs(row["value_average"] - (-1 / 18)) < 1e-12
    assert row["nash_conv_average"] <= 1e-10
    ev = evaluate(s.game, s.average_policy())
    assert abs(ev.value + 1 / 18) < 1e-12 and ev.nash_conv <= 1e-10
    # player 0 with the jack bets with some alpha in [0, 1/3], with the king 3 * alpha
    pol = s.average_policy()
    alpha = pol.action_probabilities("J", 0)["b"]
    assert -1e-12 <= alpha <= 1 / 3 + 1e-12
    assert abs(pol.action_probabilities("K", 0)["b"] - 3 * alpha) < 1e-9


def test_leduc_value_to_ten_digits_and_nash_conv():
    cg = compiled(load_game("leduc"))
    x, y, info = solve_lp(cg)
    assert nash_conv_of_plans(cg, x, y) <= 1e-9
    value = float(x @ (cg.payoff @ y))
    # player 1's own LP, solved separately, has the same value
    _, _, v1, _ = _solve_side(cg, 1, {})
    assert abs(value - v1) < 1e-10
    assert abs(value - info["value_lp"]) < 1e-10
    assert round(value, 4) == -0.0856


def test_constraint_matrix_accepts_exactly_the_realization_plans():
    from zerosum.core.sequence_form import realization_plan

    tree = compiled(load_game("leduc")).treeplexes[1]
    e = constraint_matrix(tree)
    rng = np.random.default_rng(0)
    pi = tree.uniform() * rng.uniform(0.5, 1.5, tree.n_sequences)
    pi[0] = 1.0
    # normalize per information set
    sums = np.add.reduceat(pi[1:], tree.segment_starts)
    pi[1:] /= sums[tree.seq_infoset[1:]]
    x = realization_plan(tree, pi)
    rhs = np.zeros(e.shape[0])
    rhs[0] = 1.0
    assert np.abs(e @ x - rhs).max() < 1e-12
    x[5] += 0.01
    assert np.abs(e @ x - rhs).max() > 1e-3


@pytest.mark.parametrize("seed", range(5))
def test_random_matrix_games_agree_with_the_normal_form_lp(seed):
    from scipy.optimize import linprog

    rng = np.random.default_rng(seed)
    a = rng.integers(-5, 6, size=(rng.integers(2, 6), rng.integers(2, 6))).astype(float)
    # normal form: max v s.t. a^T x >= v, sum x = 1
    n, m = a.shape
    res = linprog(np.r_[np.zeros(n), -1.0], A_ub=np.c_[-a.T, np.ones(m)], b_ub=np.zeros(m),
                  A_eq=np.r_[np.ones(n), 0.0][None], b_eq=[1.0], bounds=[(0, None)] * n + [(None, None)],
                  method="highs")
    s = LPSolver(compiled(load_game("matrix", payoffs=a.tolist())))
    row = s.run(1)[0]
    assert abs(row["value_average"] - (-res.fun)) < 1e-9
    assert row["nash_conv_average"] < 1e-9


def test_lp_policy_checked_by_openspiel_on_kuhn():
    pyspiel = pytest.importorskip("pyspiel")
    from zerosum.games.openspiel import to_pyspiel_policy

    game = load_game("openspiel:kuhn_poker")
    cg = compile_game(game)  # fills game.action_ids
    pol = LPSolver(cg).average_policy()
    assert pyspiel.nash_conv(game.game, to_pyspiel_policy(pol, game)) < 1e-10
    assert abs(pyspiel.expected_returns(game.game.new_initial_state(), to_pyspiel_policy(pol, game), -1, True)[0]
               + 1 / 18) < 1e-12


def test_agrees_with_openspiel_sequence_form_lp_on_kuhn(monkeypatch):
    cp = pytest.importorskip("cvxpy")
    pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import lp_solver, sequence_form_lp

    original = lp_solver.LinearProgram.solve  # its default solver, ECOS, is not a cvxpy dependency
    monkeypatch.setattr(lp_solver.LinearProgram, "solve",
                        lambda self, *a, **k: original(self, solver=cp.HIGHS, solver_kwargs={}))
    game = load_game("openspiel:kuhn_poker")
    v0, v1, _, _ = sequence_form_lp.solve_zero_sum_game(game.game)
    ours = LPSolver(compiled(game)).value
    assert abs(ours - v0) < 1e-9 and abs(ours + v1) < 1e-9


def test_solve_command_with_lp():
    from zerosum.cli import cli

    r = CliRunner().invoke(cli, ["solve", "kuhn", "-a", "lp", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert abs(out["value"] + 1 / 18) < 1e-12
    assert out["nash_conv"] < 1e-10
    assert out["lp"]["sizes"][0]["variables"] == 13 + 7  # 13 sequences of player 0, 6 + 1 rows of F
    assert out["lp"]["seconds"][0] >= 0
    assert "lp" in SOLVERS


def test_lp_has_no_resumable_state(tmp_path):
    from zerosum.cli import cli

    r = CliRunner().invoke(cli, ["solve", "kuhn", "-a", "lp", "--save-state", str(tmp_path / "s.npz")])
    assert r.exit_code == 1 and r.output.startswith("Error: ") and "Traceback" not in r.output
