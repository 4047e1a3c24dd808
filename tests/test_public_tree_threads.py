"""The depth-first pass in threads (``--option threads=N``): the subtrees below the first chance
nodes run in parallel, and every figure is the one-thread pass's, bit for bit."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from zerosum.cli import cli
from zerosum.poker.holdem import HoldemGame
from zerosum.public_tree import kernels
from zerosum.public_tree.arrays import pass_step
from zerosum.public_tree.compile import public_tree
from zerosum.public_tree.passes import Workspace
from zerosum.public_tree.solver import public_solver
from zerosum.solvers.rules import DCFR

TURN = {"board": "Ks7d2c9h", "range0": "AA,KK,T9s,76s", "range1": "QQ,AK,98s", "raises": 1}


def _walks(tree, threads, dtype, predict=0):
    """Three DCFR iterations (both players), then a best response and a value: every return value,
    the nodes visited and the sums."""
    ws = Workspace(tree, dtype, threads=threads)
    ia = tree.infoset_actions()
    regrets = [np.zeros(n, dtype=dtype) for n in ia]
    average = [np.zeros(n, dtype=dtype) for n in ia]
    strategy = [np.full(n, 0.5, dtype=dtype) for n in ia] if predict else regrets
    v, out = DCFR(), []
    for t in range(1, 4):
        for p in (0, 1):
            out.append(ws.walk(pass_step(p, kernels.UPDATE, v.average_weight(t), v.regret_rule(t), predict, 1.0),
                               strategy[p], strategy[1 - p], average[p], regrets_p=regrets[p]))
            out.append(ws.visited)
    out += [ws.walk(pass_step(1, kernels.BEST_RESPONSE), average[1], average[0]),
            ws.walk(pass_step(0, kernels.EXPECT), average[0], average[1])]
    return out, regrets + average + ([] if not predict else strategy)


@pytest.mark.parametrize("dtype,predict", [(np.float64, 0), (np.float32, 0), (np.float64, 1)])
def test_threads_give_the_one_thread_figures_bit_for_bit(dtype, predict):
    tree = public_tree(HoldemGame(**TURN))
    one, sums1 = _walks(tree, 1, dtype, predict)
    two, sums2 = _walks(tree, 2, dtype, predict)
    assert one == two and one[1] == tree.n_nodes
    assert all(np.array_equal(a, b) for a, b in zip(sums1, sums2)) and any(a.any() for a in sums1)


def test_threads_on_a_flop_cut_at_the_turn_deals():
    """A flop spot: the cut is at the turn's chance nodes, the river's run inside the threads."""
    tree = public_tree(HoldemGame(board="Ks7d2c", range0="AA,T9s", range1="QQ,AK", raises=1))
    ws1, ws3 = Workspace(tree, np.float64), Workspace(tree, np.float64, threads=3)
    rng = np.random.default_rng(1)
    sums = [rng.random(n) for n in tree.infoset_actions()]
    for mode in (kernels.BEST_RESPONSE, kernels.EXPECT):
        assert ws1.walk(pass_step(0, mode), sums[0], sums[1]) == ws3.walk(pass_step(0, mode), sums[0], sums[1])
    tasks = ws3._cut[1].task_node  # the children of the 3 turn deals (49 cards each), not of the 444 river deals
    assert ws3.visited == tree.n_nodes and len(tasks) == 3 * 49 and (tree.kind[tree.parent[tasks]] == 1).all()


def test_threads_option_on_the_command_line():
    args = ["solve", "holdem", "--param", "board=Ks7d2c9h", "--param", "range0=AA,KK,T9s", "--param", "range1=QQ,AK",
            "--param", "raises=1", "-a", "pcfr+", "-n", "3", "--json"]
    runner = CliRunner()
    one, two = (runner.invoke(cli, args + ["--option", f"threads={n}"]) for n in (1, 2))
    assert one.exit_code == 0 and two.exit_code == 0, one.output + two.output
    a, b = json.loads(one.output), json.loads(two.output)
    assert (a["value"], a["nash_conv"], a["checkpoints"]) == (b["value"], b["nash_conv"], b["checkpoints"])
    bad = runner.invoke(cli, args + ["--option", "threads=0"])
    assert bad.exit_code == 1 and bad.output.strip().splitlines() == \
        ["Error: threads must be a whole number >= 1, got 0; e.g. --option threads=2"]


def test_solver_threads_match():
    tree = public_tree(HoldemGame(**TURN))
    runs = []
    for threads in (1, 2):
        s = public_solver("pdcfr+", tree, threads=threads)
        s.iterate(3)
        runs.append((s.checkpoint(), [a.copy() for a in s.regrets + s.average]))
    assert runs[0][0] == runs[1][0]
    assert all(np.array_equal(a, b) for a, b in zip(runs[0][1], runs[1][1]))


def test_threads_on_a_small_tree_run_the_threaded_pass_and_say_so():
    """A small tree (a 6-rank poker-family game) runs the threaded pass when threads are asked
    for, with the one-thread figures; a river spot (no public chance) runs one thread and
    reports 1."""
    from zerosum.games import load_game
    from zerosum.public_tree.solver import public_solver

    game = load_game("poker", ranks=6, copies=2)
    one, two = public_solver("cfr+", game), public_solver("cfr+", game, threads=2)
    assert one.threads == 1 and two.threads == 2 and two.workspace.threads == 2
    a, b = one.run(5)[-1], two.run(5)[-1]
    assert abs(a["nash_conv_average"] - b["nash_conv_average"]) < 1e-12
    assert abs(a["value_average"] - b["value_average"]) < 1e-12
    river = public_solver("cfr+", HoldemGame(board="Ks7d2c9h5s", range0="QQ+", range1="JJ+"), threads=2)
    assert river.threads == 1


@pytest.mark.parametrize("game, params", [("holdem", {"board": "Ks7d2c9h", "raises": 1, "range0": "AA,KQs",
                                                       "range1": "QQ+,T9s"}), ("poker", {})])
def test_below_chance_is_the_ancestors_walk(game, params):
    """The threads' cut nodes (chance nodes with none above) rest on this flag: pointer jumping
    against walking each node's ancestors."""
    from zerosum.games import load_game
    from zerosum.public_tree.compile import public_tree
    from zerosum.public_tree.form import CHANCE_NODE
    from zerosum.public_tree.passes import below_chance

    tree = public_tree(load_game(game, **params))
    walked = np.zeros(tree.n_nodes, dtype=bool)
    for n in range(1, tree.n_nodes):
        a = int(tree.parent[n])
        while a >= 0 and not walked[n]:
            walked[n] = tree.kind[a] == CHANCE_NODE
            a = int(tree.parent[a]) if a > 0 else -1
    assert walked.any() and not walked.all()
    assert np.array_equal(below_chance(tree), walked)
