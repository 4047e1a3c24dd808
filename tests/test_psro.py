"""PSRO / double oracle with exact best responses (Lab 15 Part 4)."""

import numpy as np
import pytest
from helpers import brute_force_value

from zerosum import TabularPolicy, ZerosumError, best_response_value, compiled, expected_value, load_game
from zerosum.core.sequence_form import behavioral_from_realization, realization_plan
from zerosum.solvers.psro import (
    EmpiricalGame,
    PSROSolver,
    best_response_oracle,
    matrix_nash,
    meta_nash,
)

LAB_CHECKPOINTS = (1, 5, 10, 20, 40, 80, 150)
# Lab 15, "Expected results", Part 4 (NashConv of the meta-strategy, 3 decimals)
LAB_ITERATED_BR = (4.747, 6.761, 5.800, 5.739, 6.833, 5.507, 5.507)
LAB_FICTITIOUS_PLAY = (4.747, 3.970, 2.547, 1.601, 0.892, 0.585, 0.351)
LAB_PSRO = (4.747, 4.836, 3.041, 1.908, 0.799, 0.278, 0.104)


@pytest.fixture(scope="module")
def leduc():
    return compiled(load_game("leduc"))


@pytest.fixture(scope="module")
def kuhn():
    return compiled(load_game("kuhn"))


def _policy(game, x, y):
    return TabularPolicy(game, [behavioral_from_realization(t, p) for t, p in zip(game.treeplexes, (x, y))])


def _lab_row(meta, upto):
    solver = PSROSolver(load_game("leduc"), meta)
    marks = [c for c in LAB_CHECKPOINTS if c <= upto]
    return [round(c["nash_conv"], 3) for c in solver.run(marks[-1], marks)]


def test_iterated_best_response_row_matches_the_lab():
    assert _lab_row("latest", 150) == list(LAB_ITERATED_BR)


def test_fictitious_play_row_matches_the_lab():
    assert _lab_row("uniform", 150) == list(LAB_FICTITIOUS_PLAY)


def test_psro_nash_early_digits_match_the_lab():
    assert _lab_row("nash", 40) == list(LAB_PSRO[:5])


def test_first_iteration_is_the_uniform_profile(leduc):
    c = PSROSolver(leduc, "nash").run(1)[0]
    assert c["iteration"] == 1 and c["support"] == [1, 1]
    assert c["nash_conv"] == pytest.approx(4.747222222, abs=1e-8)


@pytest.mark.parametrize("meta", ["latest", "uniform", "nash"])
def test_empirical_game_entries_are_expected_values_of_member_pairs(kuhn, meta):
    solver = PSROSolver(kuhn, meta, capacity=1)  # capacity 1 forces the storage to grow
    solver.run(7)
    emp = solver.empirical
    assert emp.size == [7, 7]
    xs, ys = emp.members(0), emp.members(1)
    for i in range(7):
        for j in range(7):
            assert emp.payoffs[i, j] == pytest.approx(expected_value(kuhn, _policy(kuhn, xs[i], ys[j])), abs=1e-12)
    # and against the rules walked directly, for one pair
    pol = _policy(kuhn, xs[-1], ys[2])
    direct = brute_force_value(load_game("kuhn"), lambda p, label: pol.action_probabilities(label, p))
    assert emp.payoffs[-1, 2] == pytest.approx(direct, abs=1e-12)


def test_adding_a_member_costs_one_row_or_column(leduc):
    emp = EmpiricalGame(leduc, capacity=2)
    rng = np.random.default_rng(0)
    trees = leduc.treeplexes
    for k in range(5):
        for p in (0, 1):
            pi = trees[p].uniform()
            pi[1:] = rng.random(len(pi) - 1)
            pi = behavioral_from_realization(trees[p], realization_plan(trees[p], pi))  # normalize
            emp.add(p, realization_plan(trees[p], pi))
    full = emp.members(0) @ (leduc.payoff @ emp.members(1).T)
    np.testing.assert_allclose(emp.payoffs, full, atol=1e-12)


def test_lp_on_rock_paper_scissors_is_uniform_with_value_zero():
    rps = np.array([[0, -1, 1], [1, 0, -1], [-1, 1, 0]], dtype=float)
    for method in ("highs", "highs-ds", "highs-ipm"):
        s0, s1, v = matrix_nash(rps, method)
        assert v == pytest.approx(0.0, abs=1e-9)
        np.testing.assert_allclose(s0, [1 / 3] * 3, atol=1e-8)
        np.testing.assert_allclose(s1, [1 / 3] * 3, atol=1e-8)


def test_lp_on_a_game_with_a_mixed_equilibrium():
    m = np.array([[2.0, -1.0], [-1.0, 1.0]])  # value 1/5, both players (2/5, 3/5)
    s0, s1, v = matrix_nash(m)
    assert v == pytest.approx(0.2, abs=1e-9)
    np.testing.assert_allclose(s0, [0.4, 0.6], atol=1e-9)
    np.testing.assert_allclose(s1, [0.4, 0.6], atol=1e-9)
    # reversing the members' order finds the same unique equilibrium
    r0, r1 = meta_nash(m, reverse=True)
    np.testing.assert_allclose(r0, s0, atol=1e-9)
    np.testing.assert_allclose(r1, s1, atol=1e-9)


def test_oracle_value_is_the_best_response_value_against_the_mixture(leduc):
    solver = PSROSolver(leduc, "uniform")
    solver.run(6)
    rng = np.random.default_rng(1)
    for opponent in (0, 1):
        meta = rng.dirichlet(np.ones(6))
        plan = solver.empirical.mixture_plan(opponent, meta)
        probs = [t.uniform() for t in leduc.treeplexes]
        probs[opponent] = behavioral_from_realization(leduc.treeplexes[opponent], plan)
        policy = TabularPolicy(leduc, probs)
        player = 1 - opponent
        value, pi = best_response_oracle(leduc, player, plan)
        assert value == pytest.approx(best_response_value(leduc, policy, player), abs=1e-12)
        # the returned strategy does achieve that value
        probs[player] = pi
        achieved = expected_value(leduc, TabularPolicy(leduc, probs))
        assert (achieved if player == 0 else -achieved) == pytest.approx(value, abs=1e-12)


def test_mixture_weights_members_by_meta_probability_times_own_reach(kuhn):
    solver = PSROSolver(kuhn, "uniform")
    solver.run(4)
    tree = kuhn.treeplexes[0]
    plans = solver.empirical.members(0)
    members = [behavioral_from_realization(tree, x) for x in plans]
    meta = np.array([0.1, 0.2, 0.3, 0.4])
    mixed = behavioral_from_realization(tree, solver.empirical.mixture_plan(0, meta))
    for i in range(tree.n_infosets):
        parent = tree.infoset_parent[i]
        w = meta * plans[:, parent]  # meta-probability times the member's own reach of I
        f, n = tree.infoset_first[i], tree.infoset_size[i]
        if w.sum() > 0:
            expect = sum(wk * m[f:f + n] for wk, m in zip(w, members)) / w.sum()
            np.testing.assert_allclose(mixed[f:f + n], expect, atol=1e-12)


def test_oracle_is_uniform_where_the_opponent_never_goes(kuhn):
    # player 0 always bets, so player 1's information sets after a pass ("Jp", ...) are never
    # reached: the best response stays uniform there and is pure everywhere else.
    t0 = kuhn.treeplexes[0]
    pi = t0.uniform()
    for i, label in enumerate(t0.infoset_labels):
        f = t0.infoset_first[i]
        pi[f:f + 2] = (0.0, 1.0)  # always bet
    x = realization_plan(t0, pi)
    _, br = best_response_oracle(kuhn, 1, x)
    t1 = kuhn.treeplexes[1]
    for i, label in enumerate(t1.infoset_labels):
        f = t1.infoset_first[i]
        if label.endswith("p"):
            assert list(br[f:f + 2]) == [0.5, 0.5]
        else:
            assert sorted(br[f:f + 2]) == [0.0, 1.0]


def test_meta_policy_nash_conv_is_the_checkpoint(leduc):
    from zerosum import nash_conv

    solver = PSROSolver(leduc, "nash")
    c = solver.run(8)[-1]
    assert nash_conv(leduc, solver.meta_policy()) == pytest.approx(c["nash_conv"], abs=1e-10)


def test_bad_options_are_one_line_errors(leduc):
    with pytest.raises(ZerosumError, match="meta-solver"):
        PSROSolver(leduc, "best")
    with pytest.raises(ZerosumError, match="LP method"):
        PSROSolver(leduc, "nash", lp_method="simplex")
    with pytest.raises(ZerosumError, match="positive integer"):
        PSROSolver(leduc).run(0)


def test_save_and_resume_continue_the_same_run(leduc, tmp_path):
    from zerosum.cli.common import load_state, save_state

    first = PSROSolver(leduc, "nash")
    first.run(12)
    save_state(first, tmp_path / "psro.npz")
    resumed = PSROSolver(leduc, "nash")
    load_state(resumed, tmp_path / "psro.npz")
    assert resumed.iteration == 12
    straight = PSROSolver(leduc, "nash").run(20)[-1]["nash_conv"]
    assert resumed.run(20)[-1]["nash_conv"] == pytest.approx(straight, abs=1e-12)
    with pytest.raises(ZerosumError, match="meta solver"):
        load_state(PSROSolver(leduc, "uniform"), tmp_path / "psro.npz")


def test_solve_command_runs_psro(tmp_path):
    import json

    from click.testing import CliRunner

    from zerosum.cli import cli

    res = CliRunner().invoke(cli, ["solve", "leduc", "-a", "psro", "-n", "10", "--checkpoints", "5,10",
                                   "--option", "meta_solver=uniform", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert [round(c["nash_conv_average"], 3) for c in out["checkpoints"]] == [3.970, 2.547]
    res = CliRunner().invoke(cli, ["solve", "leduc", "-a", "psro", "-n", "3", "--option", "meta_solver=best"])
    assert res.exit_code == 1 and "unknown meta-solver" in res.output


def test_nodes_touched_count_each_oracle_call_as_a_full_width_pass():
    from zerosum import load_game
    from zerosum.solvers.psro import PSROSolver

    game = load_game("leduc")
    solver = PSROSolver(game, meta_solver="uniform")
    first = solver.run(1)[-1]["nodes"]
    assert first == 2 * 2040  # the uniform population: two complete passes of 24 deals x 85 histories
    rows = solver.run(4, [2, 3])
    assert [r["nodes"] for r in rows] == sorted(r["nodes"] for r in rows) and rows[-1]["nodes"] > 3 * first
    resumed = PSROSolver(game, meta_solver="uniform")
    resumed.load_state_dict(solver.state_dict())
    assert resumed.checkpoint()["nodes"] == rows[-1]["nodes"]
