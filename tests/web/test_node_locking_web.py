"""Node locking from the web app's hold'em runs: ``POST /api/runs`` with ``locks`` solves the locked
game (the final strategy at a locked node is the lock, for the locked hands), its checkpoints
report the free player's gain in % of the pot as the library computes it on its own (the same
spot, locks and iterations, solved here), and a bad lock is a one-line 400."""

from __future__ import annotations

import time

import numpy as np
import pytest

from zerosum.games import load_game
from zerosum.poker.spots import spot_params
from zerosum.public_tree.holdem_build import holdem_public_tree
from zerosum.public_tree.locking import NodeLocks, lock_solver
from zerosum.public_tree.policy import PublicPolicy
from zerosum.public_tree.solver import default_dtype, public_solver_class
from zerosum.solutions.analysis import locked_exploitability

#: a river spot with narrow ranges (39 public nodes): a locked solve takes a fraction of a second
TINY = {"name": "tiny river", "board": "Ks7d2c9h5s", "pot": 10, "stack": 100,
        "ranges": ["AA,KK,QQ,AK,A5s,76s,98s", "AA,KK,JJ,AQ,T9s,K9s,55"],
        "streets": {"river": {"bet": ["50%", "a"], "raise": ["2.5x"]}}}
#: player 1 folds its whole range to the half-pot bet, and checks back its aces (chosen hands)
LOCKS = {"player": 1, "nodes": {"::b5": {"*": [1, 0, 0]}, "::c": {"AA": [1, 0, 0]}}}
ITERATIONS = 40


def finished(client, rid, timeout=60.0):
    deadline = time.time() + timeout
    while time.time() < deadline:
        view = client.get(f"/api/runs/{rid}").json()
        if view["status"] not in ("starting", "running"):
            return view
        time.sleep(0.05)
    raise AssertionError(f"run {rid} did not finish")


def locked_run(client, locks=LOCKS, **extra):
    r = client.post("/api/runs", json={"game": "holdem", "spot": TINY, "iterations": ITERATIONS,
                                       "locks": locks, **extra})
    assert r.status_code == 200, r.json()
    view = finished(client, r.json()["id"])
    assert view["status"] == "finished", view["error"]
    return view


def test_a_locked_runs_strategy_at_the_locked_nodes_is_the_lock(client):
    view = locked_run(client)
    assert view["locks"]["player"] == 1 and view["locks"]["free_player"] == 0 and view["locks"]["nodes"] == 2
    data = client.get(f"/api/runs/{view['id']}/policy").json()
    tree = holdem_public_tree(load_game("holdem", **data["params"]), isomorphism=False)
    policy = PublicPolicy.from_dict(tree, data)
    held = np.asarray(tree.ranges[1]) > 0
    index = {lab: k for k, lab in enumerate(tree.labels)}
    whole = policy.table(index["::b5"])  # every hand of the range folds
    assert np.allclose(whole[:, held], np.array([[1.0], [0.0], [0.0]]), atol=1e-12)
    aces = [i for i, h in enumerate(tree.hand_labels[1]) if h[0] == h[2] == "A" and held[i]]
    table = policy.table(index["::c"])
    assert len(aces) == 6 and np.allclose(table[:, aces], np.array([[1.0], [0.0], [0.0]]), atol=1e-12)
    others = [i for i in np.flatnonzero(held) if i not in aces]
    assert table[1:, others].sum() > 0.1  # the hands not locked are solved: some bet
    # the unlocked run of the same spot plays otherwise at the locked node
    r = client.post("/api/runs", json={"game": "holdem", "spot": TINY, "iterations": ITERATIONS})
    free = finished(client, r.json()["id"])
    free_data = client.get(f"/api/runs/{free['id']}/policy").json()
    assert "locks" not in free and "free_player_gain" not in free
    # folding every hand to a half-pot bet: the bettor (the free player 0) wins more than unlocked
    free_value = PublicPolicy.from_dict(holdem_public_tree(load_game("holdem", **free_data["params"])),
                                        free_data).evaluate()["value"]
    assert view["value_average"] > free_value + 1
    free_tree = holdem_public_tree(load_game("holdem", **free_data["params"]), isomorphism=False)
    assert PublicPolicy.from_dict(free_tree, free_data).table(index["::b5"])[0, held].max() < 0.99


def test_the_reported_gain_is_the_librarys(client):
    view = locked_run(client)
    # the same spot and locks solved by the library itself, as `zerosum solve --option lock=FILE` does
    game = load_game("holdem", **spot_params(TINY, "the spot"))
    tree = holdem_public_tree(game, isomorphism=False)
    locks = NodeLocks(tree, LOCKS["nodes"], LOCKS["player"])
    from zerosum.web.runs import DEFAULT_PARAMS  # (the run names no algorithm: hold'em's default dcfr)

    solver = lock_solver(public_solver_class("dcfr", default_dtype(tree))(tree, **DEFAULT_PARAMS["holdem"]), locks)
    solver.iterate(ITERATIONS)
    lk = locked_exploitability(tree, solver.average_policy(), locks)
    assert view["iteration"] == ITERATIONS and view["pot"] == tree.pot == 10
    assert view["free_player_gain"] == pytest.approx(lk["free_player_gain"], rel=1e-9, abs=1e-12)
    assert view["free_player_gain_pot_pct"] == pytest.approx(100 * lk["free_player_gain"] / 10, rel=1e-9)
    assert 0 <= view["free_player_gain_pot_pct"] < 5  # the free player is near its best response
    assert view["value_average"] == pytest.approx(lk["value"], rel=1e-9, abs=1e-12)
    last = view["curve"][-1]
    assert last["free_player_gain_pot_pct"] == view["free_player_gain_pot_pct"]
    assert last["nash_conv_unlocked"] == pytest.approx(lk["nash_conv"], rel=1e-9)
    # the curve (and a target) read the locked game's exploitability, which falls toward zero
    assert last["nash_conv_average"] == pytest.approx(lk["locked_nash_conv"], rel=1e-9, abs=1e-12)
    assert last["exploitability_pot_pct"] < view["curve"][0]["exploitability_pot_pct"]


@pytest.mark.parametrize("locks, words", [
    ({"player": 1, "nodes": {"::nope": {"*": [1, 0, 0]}}}, "::nope"),
    ({"player": 1, "nodes": {"::b5": {"*": [0.5, 0.2]}}}, "needs 3 probabilities"),
    ({"player": 1, "nodes": {"::b5": {"*": [0.5, 0.2, 0.2]}}}, "sum to 1"),
    ({"player": 0, "nodes": {"::b5": {"*": [1, 0, 0]}}}, "player 1's"),
    ({"player": 1, "nodes": {"::b5": {"QQ": [1, 0, 0]}}}, "QQ"),
    ({"nodes": "::b5"}, "locks are"),
])
def test_a_bad_lock_is_a_one_line_400(client, locks, words):
    r = client.post("/api/runs", json={"game": "holdem", "spot": TINY, "iterations": 10, "locks": locks})
    assert r.status_code == 400
    error = r.json()["error"]
    assert words in error and "\n" not in error


def test_locks_are_refused_for_other_games(client):
    r = client.post("/api/runs", json={"game": "kuhn", "iterations": 10, "locks": LOCKS})
    assert r.status_code == 400 and "hold'em" in r.json()["error"] and "\n" not in r.json()["error"]
