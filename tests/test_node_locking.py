"""Node locking on the public tree (zerosum.public_tree.locking, ``zerosum solve --option lock=``):
a lock at the equilibrium changes nothing, an exploitable lock gives the other player exactly its
best-response value computed on the history tree, and bad locks are one-line refusals."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

import zerosum.cli
from zerosum.core.compile import compile_game
from zerosum.core.evaluation import best_response_value
from zerosum.poker.holdem import HoldemGame
from zerosum.public_tree.compile import public_tree
from zerosum.public_tree.locking import NodeLocks, lock_solver
from zerosum.public_tree.solver import public_solver
from zerosum.solutions.analysis import locked_exploitability

RIVER = {"board": "Ks7d2c9h5s", "range0": "QQ+,AK", "range1": "JJ+,AQ+"}
ARGS = [arg for k, v in RIVER.items() for arg in ("--param", f"{k}={v}")]


@pytest.fixture(scope="module")
def tree():
    return public_tree(HoldemGame(**RIVER))


@pytest.fixture(scope="module")
def history_tree():
    return compile_game(HoldemGame(**RIVER))


def held(tree, p):
    return [(i, h) for i, h in enumerate(tree.hand_labels[p]) if tree.ranges[p][i] > 0]


def test_lock_at_the_equilibrium_keeps_the_value(tree):
    s = public_solver("dcfr", tree)
    s.run(1500)
    eq = s.average_policy()
    nc = eq.evaluate()["nash_conv"]
    node = tree.labels.index("::c")
    table = eq.table(node)
    spec = {"::c": {h: list(table[:, i]) for i, h in held(tree, 1)}}
    locks = NodeLocks(tree, spec)
    assert locks.player == 1 and locks.summary()["hands"] == len(held(tree, 1))
    locked = lock_solver(public_solver("dcfr", tree), locks)
    locked.run(1500)
    pol = locked.average_policy()
    assert np.array_equal(pol.probs[1][locks.slots], locks.values)  # the lock, exactly
    out = locked_exploitability(tree, pol, locks)
    assert abs(out["value"] - eq.evaluate()["value"]) < nc
    assert out["locked_nash_conv"] < 5 * nc < 1e-3


@pytest.mark.parametrize("name", ["dcfr", "cfr+", "pcfr+"])
def test_exploitable_lock_gives_the_best_response_gain(tree, history_tree, name):
    # player 1 always checks or calls, everywhere: player 0's value must reach its best response
    spec = {tree.labels[n]: {"*": [1.0 if a == "c" else 0.0 for a in tree.action_labels[n]]}
            for n in tree.decision_nodes(1)}
    locks = NodeLocks(tree, spec, player=1)
    s = lock_solver(public_solver(name, tree), locks)
    s.run(600)
    pol = s.average_policy()
    cg = history_tree
    br0 = best_response_value(cg, pol.to_tabular(cg), 0)  # the history tree's exact best response
    out = locked_exploitability(tree, pol, locks)
    assert out["value"] == pytest.approx(br0, abs=1e-5)
    assert 0 <= out["free_player_gain"] < 1e-5 and out["locked_player_gain"] == pytest.approx(0.0, abs=1e-12)
    assert out["value"] > 4.5  # the lock is exploitable: the game's value is about 2.3346


def test_partial_lock_solves_the_rest(tree):
    # some hands at one node: the others, and every other node, still learn
    spec = {"::r": {"*": [0.0, 1.0, 0.0], "AsAh": [0.0, 0.0, 1.0]}}
    locks = NodeLocks(tree, spec)
    s = lock_solver(public_solver("cfr+", tree), locks)
    s.run(400)
    pol = s.average_policy()
    node = tree.labels.index("::r")
    table = pol.table(node)
    i = tree.hand_labels[1].index("AsAh")
    assert table[:, i].tolist() == [0.0, 0.0, 1.0]
    assert (table[1, [k for k, _ in held(tree, 1) if k != i]] == 1.0).all()
    out = locked_exploitability(tree, pol, locks)
    assert out["locked_nash_conv"] < 0.01 < out["nash_conv"]  # the usual NashConv counts leaving the lock


def solve(tmp_path, spec, *more):
    path = tmp_path / "lock.json"
    path.write_text(json.dumps(spec))
    return CliRunner().invoke(zerosum.cli.cli, ["solve", "holdem", *ARGS, "-n", "20", "--option", f"lock={path}",
                                                *more])


def test_cli_lock_and_save(tmp_path):
    saved = tmp_path / "p.json"
    r = solve(tmp_path, {"player": 1, "nodes": {"::c": {"*": [1, 0]}}}, "-a", "dcfr", "--json", "--save", str(saved))
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["locks"]["player"] == 1 and out["locks"]["nodes"] == 1 and out["locks"]["free_player"] == 0
    data = json.loads(saved.read_text())
    entry = next(e for e in data["nodes"] if e["public"] == "::c")
    assert all(x == 1.0 for x in entry["probs"][0] if x > 0) and set(entry["probs"][1]) == {0.0}


@pytest.mark.parametrize("spec,message", [
    ({"::zz": {"*": [1, 0]}}, "no public node '::zz'"),
    ({"::": {"*": [1, 0]}, "::c": {"*": [1, 0]}}, "node '::c' is player 1's, but the locks are player 0's"),
    ({"player": 0, "nodes": {"::c": {"*": [1, 0]}}}, "node '::c' is player 1's, but the locks are player 0's"),
    ({"::c": {"*": [1]}}, "needs 2 probabilities, one per action (c, r)"),
    ({"::c": {"*": [0.5, 0.6]}}, "must be non-negative and sum to 1"),
    ({"::c": {"*": [-1, 2]}}, "must be non-negative and sum to 1"),
    ({"::c": {"XxYy": [1, 0]}}, "'XxYy' is not a hand of player 1's range"),
    ({"::c": {"2c2d": [1, 0]}}, "'2c2d' is not a hand of player 1's range"),
    ({"::cc": {"*": [1, 0]}}, "is a showdown node"),
])
def test_cli_refusals(tmp_path, spec, message):
    r = solve(tmp_path, spec, "-a", "cfr+")
    assert r.exit_code == 1 and r.output.startswith("Error: ") and message in r.output, r.output
    assert r.output.count("\n") == 1


def test_cli_refuses_sampling(tmp_path):
    r = solve(tmp_path, {"::c": {"*": [1, 0]}}, "-a", "pcs-mccfr")
    assert r.exit_code == 1 and "does not run with node locks (--option lock=FILE); these do: cfr, cfr+," in r.output


def test_cli_resume_keeps_the_lock(tmp_path):
    spec = {"player": 1, "nodes": {"::r": {"*": [0, 1, 0], "AsAh": [0, 0, 1]}, "::c": {"*": [1, 0]}}}
    state = tmp_path / "s.npz"
    path = tmp_path / "lock.json"
    path.write_text(json.dumps(spec))
    base = ["solve", "holdem", *ARGS, "-a", "dcfr", "--option", f"lock={path}", "--json"]
    run = CliRunner().invoke
    assert run(zerosum.cli.cli, base + ["-n", "10", "--save-state", str(state)]).exit_code == 0
    resumed = json.loads(run(zerosum.cli.cli, base + ["-n", "30", "--resume", str(state)]).output)
    straight = json.loads(run(zerosum.cli.cli, base + ["-n", "30"]).output)
    assert resumed["value"] == straight["value"] and resumed["locks"] == straight["locks"]


def test_cli_text_reports_the_gains(tmp_path):
    r = solve(tmp_path, {"::c": {"*": [1, 0]}}, "-a", "cfr+")
    assert r.exit_code == 0, r.output
    assert "locked: player 1 at 1 nodes (49 hand locks); gain of a best response: player 0's" in r.output


def test_cli_resume_restores_the_saved_lock(tmp_path):
    # the state records the locks: resuming without --option lock keeps solving the locked game
    spec = {"player": 1, "nodes": {"::r": {"*": [0, 1, 0], "AsAh": [0, 0, 1]}, "::c": {"*": [1, 0]}}}
    state, path = tmp_path / "s.npz", tmp_path / "lock.json"
    path.write_text(json.dumps(spec))
    base = ["solve", "holdem", *ARGS, "-a", "dcfr", "--json"]
    run = CliRunner().invoke
    assert run(zerosum.cli.cli, base + ["-n", "10", "--option", f"lock={path}", "--save-state", str(state)]).exit_code == 0
    resumed = json.loads(run(zerosum.cli.cli, base + ["-n", "30", "--resume", str(state)]).output)
    straight = json.loads(run(zerosum.cli.cli, base + ["-n", "30", "--option", f"lock={path}"]).output)
    assert resumed["value"] == straight["value"] and resumed["locks"] == straight["locks"]
    assert resumed["checkpoints"][-1] == straight["checkpoints"][-1]


def test_cli_resume_refuses_other_locks(tmp_path):
    locked, free = tmp_path / "locked.npz", tmp_path / "free.npz"
    one, other = tmp_path / "one.json", tmp_path / "other.json"
    one.write_text(json.dumps({"::c": {"*": [1, 0]}}))
    other.write_text(json.dumps({"::c": {"*": [0, 1]}}))
    base = ["solve", "holdem", *ARGS, "-a", "cfr+", "--json"]
    run = CliRunner().invoke
    assert run(zerosum.cli.cli, base + ["-n", "5", "--option", f"lock={one}", "--save-state", str(locked)]).exit_code == 0
    assert run(zerosum.cli.cli, base + ["-n", "5", "--save-state", str(free)]).exit_code == 0
    r = run(zerosum.cli.cli, base + ["-n", "10", "--resume", str(locked), "--option", f"lock={other}"])
    assert r.exit_code == 1 and r.output.count("\n") == 1 and r.output.startswith(
        "Error: the saved state was solved with other node locks (player 1 at 1 nodes, 49 hand locks)"), r.output
    r = run(zerosum.cli.cli, base + ["-n", "10", "--resume", str(free), "--option", f"lock={one}"])
    assert r.exit_code == 1 and r.output.count("\n") == 1 and "solved without node locks" in r.output, r.output
    # the same lock written another way is the same lock
    one.write_text(json.dumps({"player": 1, "nodes": {"::c": {h: [2 / 2, 0] for _, h in held(public_tree(
        HoldemGame(**RIVER)), 1)}}}))
    r = run(zerosum.cli.cli, base + ["-n", "10", "--resume", str(locked), "--option", f"lock={one}"])
    assert r.exit_code == 0, r.output


def test_locked_solve_runs_threads_with_the_same_figures():
    tree = public_tree(HoldemGame(board="Ks7d2c9h", range0="AA,KK,T9s,76s", range1="QQ,AK,98s", raises=1))
    runs = []
    for threads in (1, 2):
        s = lock_solver(public_solver("cfr+", tree, threads=threads), NodeLocks(tree, {"::c": {"*": [1, 0]}}))
        s.iterate(3)
        runs.append((s, s.checkpoint(), [a.copy() for a in s.regrets + s.average]))
    (_, c1, a1), (s2, c2, a2) = runs
    assert s2.workspace.threads == 2 and s2.workspace._cut is not None  # the threaded depth-first pass ran
    assert c1 == c2 and all(np.array_equal(x, y) for x, y in zip(a1, a2))


@pytest.mark.parametrize("more,message", [
    (["--form", "history-tree", "--option", "lock=L"], "Error: --option lock (node locking) applies on the public"),
    (["--form", "history-tree", "--option", "threads=2"], "Error: --option threads (the depth-first pass's threads)"),
    (["--ray", "auto", "--option", "lock=L"], "Error: --option lock (node locking) runs in one process, not split"),
    (["--ray", "auto", "--option", "threads=2"], "Error: --option threads is the one-process pass's threads"),
])
def test_cli_says_where_lock_and_threads_apply(tmp_path, more, message):
    path = tmp_path / "lock.json"
    path.write_text(json.dumps({"::c": {"*": [1, 0]}}))
    more = [m.replace("lock=L", f"lock={path}") for m in more]
    r = CliRunner().invoke(zerosum.cli.cli, ["solve", "holdem", *ARGS, "-a", "cfr+", "-n", "5", *more])
    assert r.exit_code == 1 and r.output.startswith(message) and r.output.count("\n") == 1, r.output
