"""Local best response on the public tree (zerosum.solutions.lbr, ``zerosum evaluate --lbr`` of a
public-tree policy): a lower bound of the exact best response, the same strategy and value as the
history tree's LBR (zerosum.core.lbr), most of the exact gain against uniform play."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

import zerosum
from zerosum.cli import cli
from zerosum.core.compile import compile_game
from zerosum.core.lbr import lbr_strategy
from zerosum.core.sequence_form import realization_plan
from zerosum.poker.holdem import HoldemGame
from zerosum.public_tree.compile import public_tree
from zerosum.public_tree.solver import public_solver
from zerosum.solutions.lbr import lbr_values, public_local_best_response

RIVER = {"board": "Ks7d2c9h5s", "range0": "QQ+,AK", "range1": "JJ+,AQ+"}
TURN = {"board": "Ks7d2c9h", "range0": "AsAh,KhQh,8s8h", "range1": "QsJs,9d8d,AdKd", "raises": 1}
LEDUC = {"ranks": 3, "copies": 2, "rounds": 2, "raises": 2, "bets": [2, 4], "ante": 1}


def _policy(tree, iterations):
    s = public_solver("dcfr", tree)
    if iterations:
        s.run(iterations)
    return s.average_policy()


@pytest.mark.parametrize("params", [RIVER, TURN])
@pytest.mark.parametrize("iterations", [0, 5, 50])
def test_lbr_is_a_lower_bound_of_the_exact_gain(params, iterations):
    tree = public_tree(HoldemGame(**params))
    pol = _policy(tree, iterations)
    r = public_local_best_response(tree, pol)
    nc = pol.evaluate()["nash_conv"]
    assert r.exact_nash_conv == pytest.approx(nc, abs=1e-9)  # the comparison is with the solver's own NashConv
    for p in (0, 1):
        assert r.gains[p] <= r.best_response_gains[p] + 1e-9
    assert 0 < r.nash_conv <= nc + 1e-9
    if iterations == 0:  # against uniform play LBR wins most of what a best response wins
        assert r.nash_conv > 0.75 * nc


def test_agrees_with_the_history_tree_lbr_on_leduc():
    """Same continuation (check/call after the decision, the opponent's policy exactly) on both
    forms: the same pure strategy, so the same exact value, seat by seat."""
    game = zerosum.load_game("poker", **LEDUC)
    tree = public_tree(game)
    pol = _policy(tree, 7)  # few iterations: no ties between actions
    cg = compile_game(game)
    tab = pol.to_tabular(cg)
    for p in (0, 1):
        probs = list(tab.probs)
        probs[p] = lbr_strategy(cg, tab, p)
        x = [realization_plan(tr, pi) for tr, pi in zip(cg.treeplexes, probs)]
        history = float((1 if p == 0 else -1) * (x[0] @ (cg.payoff @ x[1])))
        assert lbr_values(tree, pol, p)[0] == pytest.approx(history, abs=1e-10)


def test_deterministic_and_a_pure_rule():
    """Exact, so the same numbers every time (no seed); the rule is one action per hand and node,
    and a set of kings on Ks7d2c9h5s (the nuts: no straight or flush, the last king is on no
    opponent's hand with it) never folds to a bet, whatever the policy."""
    tree = public_tree(HoldemGame(**RIVER))
    pol = _policy(tree, 5)
    assert public_local_best_response(tree, pol).values == public_local_best_response(tree, pol).values
    _, rule = lbr_values(tree, pol, 0)
    assert all(np.issubdtype(a.dtype, np.integer) and a.shape == (tree.n_hands[0],) for a in rule.values())
    kings = [i for i, h in enumerate(tree.hand_labels[0]) if h[0] == "K" and h[2] == "K"]
    facing = [n for n in rule if tree.action_labels[n][0] == "f"]
    assert len(kings) == 3 and len(facing) == 3
    assert all(rule[n][i] != 0 for n in facing for i in kings)


def test_cli_evaluate_lbr_of_a_public_policy(tmp_path):
    path = tmp_path / "p.json"
    args = ["holdem", "--param", "board=Ks7d2c9h5s", "--param", "range0=QQ+,AK", "--param", "range1=JJ+,AQ+"]
    r = CliRunner().invoke(cli, ["solve", *args[:1], "-a", "dcfr", "-n", "5", "--save", str(path), "--json",
                                 *args[1:]])
    assert r.exit_code == 0, r.output
    r = CliRunner().invoke(cli, ["evaluate", "holdem", str(path), "--lbr", "--json", *args[1:]])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    lbr = out["lbr"]
    assert lbr["method"] == "exact" and lbr["exact_nash_conv"] == pytest.approx(out["nash_conv"], abs=1e-9)
    assert 0 < lbr["nash_conv"] <= out["nash_conv"] + 1e-9
    r = CliRunner().invoke(cli, ["evaluate", "holdem", str(path), "--lbr", *args[1:]])
    assert r.exit_code == 0 and "local best response" in r.output, r.output
