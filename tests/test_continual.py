"""Continual re-solving (zerosum.solvers.continual): the tabulated agent, evaluated exactly."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from zerosum.cli import cli
from zerosum.core.compile import compiled
from zerosum.core.evaluation import evaluate, expected_value
from zerosum.core.policy import TabularPolicy
from zerosum.errors import ZerosumError
from zerosum.games import load_game
from zerosum.solvers import SOLVERS
from zerosum.solvers.continual import continual


def _kuhn_equilibrium():
    g = load_game("kuhn")
    s = SOLVERS["lp"](compiled(g))
    s.run(1, [1])
    return g, s.average_policy()


def _behavioural(cg, probs):
    for tree, pi in zip(cg.treeplexes, probs):
        assert pi.shape == (tree.n_sequences,)
        assert np.all(pi[1:] >= 0)
        for i in range(len(tree.infoset_labels)):
            f, n = int(tree.infoset_first[i]), int(tree.infoset_size[i])
            assert abs(pi[f:f + n].sum() - 1) < 1e-9


def test_kuhn_agent_is_a_behavioural_policy_re_solved_at_every_later_state():
    g = load_game("kuhn")
    r = continual(g, "cfr+", 30)
    cg = compiled(g)
    _behavioural(cg, r.policy.probs)
    # seat 0 acts at '' (the root solve) and 'pb' (re-solved); seat 1 at 'p' and 'b' (both re-solved)
    assert r.resolves == [1, 2] and r.unreached == [0, 0]
    assert sorted((s["seat"], s["state"]) for s in r.states) == [(0, "pb"), (1, "b"), (1, "p")]
    root = SOLVERS["cfr+"](cg)
    root.run(30)
    root = root.average_policy()
    assert r.policy.action_probabilities("J", 0) == root.action_probabilities("J", 0)  # the root solve's
    assert r.policy.action_probabilities("Qb", 1) != root.action_probabilities("Qb", 1)  # re-solved
    # compute: the root solve (58 histories) plus each re-solve's subgame, x 30 iterations
    assert r.cost == 30 * (58 + sum(s["histories"] for s in r.states))
    assert abs(r.nash_conv - evaluate(cg, r.policy).nash_conv) < 1e-12


def test_re_solving_from_the_equilibrium_stays_at_equilibrium():
    g, eq = _kuhn_equilibrium()
    exact = continual(g, "lp", 1, root_policy=eq)  # exact re-solves with the exact values
    assert exact.nash_conv < 1e-9
    assert abs(expected_value(g, exact.policy) + 1 / 18) < 1e-9
    approx = continual(g, "cfr+", 200, root_policy=eq)
    assert approx.nash_conv < 2e-3
    assert abs(approx.value + 1 / 18) < 1e-3


def test_same_inputs_same_numbers():
    g = load_game("kuhn")
    a, b = continual(g, "dcfr", 7), continual(g, "dcfr", 7)
    assert a.nash_conv == b.nash_conv and a.cost == b.cost
    for x, y in zip(a.policy.probs, b.policy.probs):
        assert np.array_equal(x, y)


def test_leduc_agent_far_below_random_play():
    """One run (the time is the subgames' compiles, about 2 s here, whatever the iterations): CFR+ x 10
    per re-solve gives NashConv 1.32 against random play's 4.75 (the root solve alone, CFR+ x 10: 1.22)."""
    g = load_game("leduc")
    cg = compiled(g)
    uniform = evaluate(cg, TabularPolicy.uniform(cg)).nash_conv
    r = continual(g, "cfr+", 10)
    _behavioural(cg, r.policy.probs)
    assert r.resolves == [47, 48]  # every public state where the seat acts, less seat 0's root
    # each re-solve starts from the last one of the same seat: its range and the opponent's values
    parent = {(x["seat"], x["state"]): x["from"] for x in r.states}
    assert parent[(0, "Q:cc/")] is None and parent[(1, ":c")] is None  # the root solve's values
    assert parent[(0, "Q:crc/")] == ":cr" and parent[(0, "Q:cc/cr")] == "Q:cc/"
    assert parent[(1, "Q:cc/c")] == ":c" and parent[(1, "Q:crc/r")] == ":c" and parent[(1, "Q:cc/crr")] == "Q:cc/c"
    assert r.nash_conv < 0.35 * uniform


def test_bad_arguments_are_one_line_refusals():
    g = load_game("kuhn")
    with pytest.raises(ZerosumError, match="unknown solver 'nope'; choose from"):
        continual(g, "nope", 5)
    with pytest.raises(ZerosumError, match="iterations must be at least 1, got 0"):
        continual(g, "cfr+", 0)


def test_cli_solve_continual_json_and_saved_policy(tmp_path):
    path = tmp_path / "agent.json"
    r = CliRunner().invoke(cli, ["solve", "kuhn", "-a", "continual", "-n", "20", "--option", "root_iterations=40",
                                 "--save", str(path), "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    g = load_game("kuhn")
    direct = continual(g, "cfr+", 20, 40)
    assert d["algorithm"] == "continual" and d["iterations"] == 20 and d["root_iterations"] == 40
    assert d["nash_conv"] == direct.nash_conv and d["resolves"] == [1, 2] and d["cost"] == direct.cost
    assert abs(d["equivalent_iterations"] - direct.cost / 58) < 1e-12
    saved = TabularPolicy.load(compiled(g), str(path))
    assert abs(evaluate(g, saved).nash_conv - direct.nash_conv) < 1e-12


@pytest.mark.parametrize("args, message", [
    (["kuhn", "--option", "depth=2"], "continual does not take --option depth; it takes --option solver"),
    (["kuhn", "--option", "solver=nfsp"], "--option solver=nfsp is not a solver of the history tree"),
    (["kuhn", "--option", "root_iterations=0"], "--option root_iterations must be a whole number at least 1"),
    (["kuhn", "--seed", "1"], "-a continual takes no --seed"),
    (["kuhn", "--plot", "x.png"], "-a continual takes -n, --option and --save, not --plot"),
    (["matrix", "--param", "payoffs=[[1,-1],[-1,1]]"], "e.g. zerosum solve leduc -a continual -n 100"),
])
def test_cli_refusals_are_one_line(args, message):
    r = CliRunner().invoke(cli, ["solve", args[0], "-a", "continual", *args[1:]])
    assert r.exit_code == 1 and message in r.output and r.output.count("\n") == 1, r.output
