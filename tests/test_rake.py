"""Rake (issue 52 item 4): the house takes min(rate * pot, cap) of every pot won, as postflop-solver
does.  The raked evaluators are checked against a walk of the game's own rules (histories, each
deal enumerated, the payoff written here from the contributions), and the solver's NashConv is
the sum of both players' best-response gains: zero at an equilibrium, not the zero-sum sum."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from zerosum.core.game import CHANCE, TERMINAL
from zerosum.errors import ZerosumError
from zerosum.poker.holdem import HoldemGame
from zerosum.poker.strength import hand_strengths
from zerosum.public_tree.compile import public_tree
from zerosum.public_tree.passes import Workspace, is_raked, nash_conv_public
from zerosum.public_tree.policy import PublicPolicy
from zerosum.public_tree.solver import public_solver

RIVER = {"board": "Ks7d2c9h5s", "pot": 20, "stack": 30, "range0": "AA,KQs,76s,T8s", "range1": "KK,QQ,AK,98s,33",
         "betting": "river bet=50%,a raise=a"}


def _params(*pairs) -> list[str]:
    """``--param K=V`` for each of ``pairs`` ("K=V")."""
    return [word for pair in pairs for word in ("--param", pair)]


RIVER_PARAMS = [f"{k}={v}" for k, v in RIVER.items()]


def raked_payoffs(game, h, rate, cap):
    """Both players' payoffs at terminal h with the rake, from the rules' contributions."""
    put = game.contributions(h)
    if h.rounds[-1].endswith("f"):
        loser = game.folder(h)
        stake = put[loser]
        winner_gets = stake - min(rate * 2 * stake, cap)
        return (-stake, winner_gets) if loser == 0 else (winner_gets, -stake)
    stake = put[0]
    rake = min(rate * 2 * stake, cap)
    s = hand_strengths(np.array(game.board + h.dealt), game.hand_cards[list(h.hands)])
    if s[0] == s[1]:
        return -rake / 2, -rake / 2
    return (stake - rake, -stake) if s[0] > s[1] else (-stake, stake - rake)


def walk_values(game, tree, policy, rate, cap):
    """Both players' expected payoffs under ``policy`` by the game's histories, each deal weighed
    by its chance probability (independent of the evaluators and of the passes)."""
    node_of = {label: n for n, label in enumerate(tree.labels)}
    hand_index = [{lab: i for i, lab in enumerate(tree.hand_labels[p])} for p in (0, 1)]

    def value(h):
        who = game.player(h)
        if who == TERMINAL:
            return np.array(raked_payoffs(game, h, rate, cap))
        if who == CHANCE:
            return sum(pr * value(game.child(h, a)) for a, pr in game.chance_outcomes(h))
        label = game.public_label(h.dealt, h.rounds)
        n = node_of[label]
        probs = policy.table(n)[:, hand_index[who][game.hand_labels[h.hands[who]]]]
        return sum(pr * value(game.child(h, a)) for a, pr in zip(game.actions(h), probs) if pr > 0)

    return value(game.root())


@pytest.mark.parametrize("rate,cap", [(0.05, 3.0), (0.1, float("inf"))])
def test_raked_values_match_the_rules(rate, cap):
    game = HoldemGame(**RIVER, rake=rate, rake_cap=None if cap == float("inf") else cap)
    tree = public_tree(game)
    assert is_raked(tree)
    rng = np.random.default_rng(3)
    sums = [rng.random(n) for n in tree.infoset_actions()]  # a random profile, not an equilibrium
    policy = PublicPolicy.from_sums(tree, sums)
    ws = Workspace(tree, np.float64)
    assert len(ws.batches.start) > 1  # the river's terminals are evaluated in batches (eight lanes at once)
    ev = nash_conv_public(tree, policy.probs, ws)
    want = walk_values(game, tree, policy, rate, cap)
    assert ev["values"] == pytest.approx(list(want), abs=1e-9)
    # general-sum: the players' values sum to minus the expected rake, which is positive here
    assert ev["values"][0] + ev["values"][1] < -1e-3
    # the dense matrices (the tests' reference evaluator) give the same values
    dense = dataclasses.replace(tree, terminals=tree.terminals.dense())
    ev_dense = nash_conv_public(dense, policy.probs, Workspace(dense, np.float64))
    assert ev_dense["values"] == pytest.approx(ev["values"], abs=1e-9)
    assert ev_dense["best_response_values"] == pytest.approx(ev["best_response_values"], abs=1e-9)


def test_no_rake_is_zero_sum_and_unchanged():
    game = HoldemGame(**RIVER)
    tree = public_tree(game)
    assert not is_raked(tree)
    rng = np.random.default_rng(5)
    policy = PublicPolicy.from_sums(tree, [rng.random(n) for n in tree.infoset_actions()])
    ev = nash_conv_public(tree, policy.probs, Workspace(tree, np.float64))
    want = walk_values(game, tree, policy, 0.0, float("inf"))
    assert ev["values"] == pytest.approx(list(want), abs=1e-9)
    assert ev["values"][1] == -ev["values"][0]


def test_raked_solve_converges_and_rake_costs_both():
    """DCFR on the raked river: NashConv (the two best-response gains) falls towards 0; the raked
    equilibrium's values sum to minus the rake the play pays, and player 1 (who has the better
    range here) wins less than without rake."""
    raked = public_solver("dcfr", HoldemGame(**RIVER, rake=0.05, rake_cap=3))
    raked.iterate(300)
    row = raked.checkpoint()
    assert row["nash_conv_average"] < 2e-3 * RIVER["pot"]
    v0, v1 = row["values_average"]
    assert v0 + v1 < 0
    plain = public_solver("dcfr", HoldemGame(**RIVER))
    plain.iterate(300)
    assert "values_average" not in plain.checkpoint()
    assert v1 < -plain.checkpoint()["value_average"]


@pytest.mark.parametrize("kwargs,message", [
    ({"rake": 1.5}, "a rate from 0 to 1"),
    ({"rake": 0.05, "rake_cap": 0}, "takes no rake at all"),
    ({"rake": {"rate": 0.05, "cap": 3, "max": 2}}, "rake takes rate and cap"),
    ({"rake": "five"}, "rake must be a rate"),
])
def test_bad_rake_is_one_line(kwargs, message):
    with pytest.raises(ZerosumError, match=message) as e:
        HoldemGame(**RIVER, **kwargs)
    assert "\n" not in str(e.value)


def test_raked_game_id_round_trips_and_history_tree_refuses():
    game = HoldemGame(**RIVER, rake={"rate": 0.05, "cap": 3})
    assert game.params()["rake"] == 0.05 and game.params()["rake_cap"] == 3
    assert HoldemGame(**{**RIVER, **{k: v for k, v in game.params().items() if k.startswith("rake")}}).rake == (0.05, 3)
    with pytest.raises(ZerosumError, match="public tree only"):
        game.check_history_tree()


def test_cli_raked_spot_reports_both_values(tmp_path):
    """Through the real entry point: a raked river solved to a target in % of the pot, with both
    players' values and the expected rake in --json, and in the text headline."""
    import json

    from click.testing import CliRunner

    from zerosum.cli import cli

    params = [f"{k}={v}" for k, v in RIVER.items()] + ["rake=0.05", "rake_cap=3"]
    args = ["solve", "holdem", *_params(*params), "-a", "dcfr", "-n", "200", "--target", "0.5%"]
    r = CliRunner().invoke(cli, args + ["--json"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    v0, v1 = doc["values"]
    assert doc["value"] == pytest.approx(v0) and doc["expected_rake"] == pytest.approx(-(v0 + v1))
    assert 0 < doc["expected_rake"] <= 3  # never more than the cap a hand
    assert doc["exploitability_pot_fraction"] <= 0.005
    text = CliRunner().invoke(cli, args)
    assert text.exit_code == 0, text.output
    assert "raked (not zero-sum): player 1's value" in text.output


def test_raked_game_refused_where_zero_sum_is_assumed():
    from zerosum.public_tree.locking import NodeLocks, lock_solver

    game = HoldemGame(**RIVER, rake=0.05)
    solver = public_solver("dcfr", game)
    with pytest.raises(ZerosumError, match="node locks .* does not run with a raked game"):
        lock_solver(solver, NodeLocks.__new__(NodeLocks))
    with pytest.raises(ZerosumError, match="public tree only"):
        from zerosum.core.compile import compiled

        compiled(game)


def test_evaluate_node_of_a_raked_solution_weighs_to_both_values(tmp_path):
    """The node report of a saved raked solution: each player's EVs at the root, weighed by its
    hands' weights, are that player's value (player 1's is not minus player 0's)."""
    import json

    from click.testing import CliRunner

    from zerosum.cli import cli

    params = _params(*RIVER_PARAMS) + ["--param", "rake=0.05"]
    saved = tmp_path / "raked.json"
    r = CliRunner().invoke(cli, ["solve", "holdem", *params, "-n", "100", "--save", str(saved), "--json"])
    assert r.exit_code == 0, r.output
    values = json.loads(r.stdout)["values"]
    ev = CliRunner().invoke(cli, ["evaluate", "holdem", str(saved), "--node", "::", "--json"])
    assert ev.exit_code == 0, ev.output
    players = json.loads(ev.stdout)["node"]["players"]
    for p, q in enumerate(players):
        w = np.array([x or 0.0 for x in q["weight"]])
        e = np.array([0.0 if x is None else x for x in q["ev"]])
        assert (w @ e) / w.sum() == pytest.approx(values[p], abs=1e-6)
    assert values[0] + values[1] < -0.1


def test_evaluate_of_a_raked_policy_reports_both_values(tmp_path):
    """zerosum evaluate on a saved raked policy: both players' values and the expected rake, the
    solve's to the file's precision; the gains' NashConv, not the zero-sum one."""
    import json

    from click.testing import CliRunner

    from zerosum.cli import cli

    params = _params(*RIVER_PARAMS) + ["--param", "rake=0.05"]
    saved = tmp_path / "raked.json"
    solved = CliRunner().invoke(cli, ["solve", "holdem", *params, "-n", "60", "--save", str(saved), "--json"])
    assert solved.exit_code == 0, solved.output
    s = json.loads(solved.stdout)
    r = CliRunner().invoke(cli, ["evaluate", "holdem", str(saved), "--json"])
    assert r.exit_code == 0, r.output
    e = json.loads(r.stdout)
    assert e["values"] == pytest.approx(s["values"], abs=1e-6)
    assert e["expected_rake"] == pytest.approx(s["expected_rake"], abs=1e-6)
    br0, br1 = e["best_response_values"]
    assert e["nash_conv"] == pytest.approx(br0 - e["values"][0] + br1 - e["values"][1], abs=1e-9)
    text = CliRunner().invoke(cli, ["evaluate", "holdem", str(saved)])
    assert "value to player 1 (raked)" in text.output
    plain = tmp_path / "plain.json"
    assert CliRunner().invoke(cli, ["solve", "holdem", *_params(*RIVER_PARAMS),
                                    "-n", "20", "--save", str(plain)]).exit_code == 0
    assert "values" not in json.loads(CliRunner().invoke(cli, ["evaluate", "holdem", str(plain), "--json"]).stdout)
