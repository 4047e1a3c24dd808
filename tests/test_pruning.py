"""Pruning in the public tree's depth-first pass (``--option prune=1``, issue 53 item 2): below an
opponent's action that has probability zero for its whole range, p's values are zero, so the
pass skips the terminals, the opponent's reach rows and the mirror deals there; p's nodes are
still updated, so every figure is the unpruned run's (np.array_equal on the sums)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from zerosum.cli import cli
from zerosum.errors import ZerosumError
from zerosum.poker.holdem import HoldemGame
from zerosum.public_tree import kernels
from zerosum.public_tree.arrays import pass_step
from zerosum.public_tree.compile import public_tree
from zerosum.public_tree.solver import public_solver

#: a small hold'em turn (1,305 public nodes, 15 and 21 hands): player 0's check at the root has
#: probability zero for its whole range after the first iteration, positive again after the second
TURN = {"board": "Ks7d2c9h", "range0": "AA,KK,T9s,76s", "range1": "QQ,AK,98s", "raises": 1}


@pytest.fixture(scope="module")
def tree():
    return public_tree(HoldemGame(**TURN))


def _check_prob_zero(tree, solver):
    """Whether player 0's check at the root has probability zero for every hand (regret matching:
    no positive regret for it, a positive one for another action)."""
    n0, na = tree.n_hands[0], tree.n_children[0]
    block = solver.regrets[0][tree.offset[0]:tree.offset[0] + na * n0].reshape(na, n0)
    return bool(((block[0] <= 0) & (np.maximum(block, 0).sum(0) > 0)).all())


def _sums(solver):
    sums = solver.regrets + solver.average + (solver.scales or []) + getattr(solver, "strategy", [])
    return [a.copy() for a in sums]


@pytest.mark.parametrize("name,dtype,threads", [("dcfr", "float64", 1), ("dcfr", "float32", 1), ("dcfr", "float64", 2),
                                                ("dcfr", "float32", 2), ("dcfr", "int16", 1), ("dcfr", "avg16", 2),
                                                ("pcfr+", "float64", 1)])
def test_a_pruned_run_is_the_unpruned_run(tree, name, dtype, threads):
    """DCFR (restart=4, the CLI's default) in every dtype, in one and two threads, and a predictive
    variant (its stored strategies rebuilt in the pass): the same sums and checkpoints."""
    params = {"restart": 4} if name == "dcfr" else {}
    plain = public_solver(name, tree, dtype=dtype, threads=threads, **params)
    pruned = public_solver(name, tree, dtype=dtype, threads=threads, prune=True, **params)
    for _ in range(4):
        plain.iterate(10)
        pruned.iterate(10)
        assert all(np.array_equal(a, b) for a, b in zip(_sums(plain), _sums(pruned)))
        assert plain.checkpoint() == pruned.checkpoint()
    assert plain.pruned_fraction == 0.0 and 0.0 < pruned.pruned_fraction < 1.0
    assert pruned.visits[0] == plain.visits[0] == 40 * 2 * tree.n_nodes


def test_an_action_pruned_then_back(tree):
    """The root's check goes to probability zero for player 0's whole range (player 1's pass of
    iteration 1 prunes its subtree), comes back at iteration 2 (walked in full), and the sums stay
    the unpruned run's all along."""
    plain = public_solver("dcfr", tree, restart=4)
    pruned = public_solver("dcfr", tree, restart=4, prune=True)
    below_check = int(np.sum(_subtree(tree, int(tree.first_child[0]))))
    seen = []
    for t in range(1, 31):
        before = pruned.visits[1]
        plain.iterate(1)
        pruned.iterate(1)
        seen.append((_check_prob_zero(tree, pruned), pruned.visits[1] - before))
        assert all(np.array_equal(a, b) for a, b in zip(_sums(plain), _sums(pruned)))
    assert seen[0][0] and seen[0][1] >= below_check  # zero after player 0's update: player 1's pass skips it
    assert not seen[1][0]  # back: positive for some hand
    assert plain.checkpoint() == pruned.checkpoint()


def _subtree(tree, root):
    """Per node: whether it is ``root`` or below it (parents precede children)."""
    inside = np.zeros(tree.n_nodes, dtype=bool)
    inside[root] = True
    for n in range(root + 1, tree.n_nodes):
        inside[n] = tree.parent[n] >= 0 and inside[tree.parent[n]]
    return inside


def test_best_response_and_expect_are_never_pruned(tree):
    """Exploitability is measured on the full tree: the evaluation passes visit every node."""
    s = public_solver("dcfr", tree, prune=True)
    s.iterate(1)
    ws = s.workspace
    ws.walk(pass_step(1, kernels.BEST_RESPONSE, prune=True), s.average[1], s.average[0])
    assert ws.pruned == 0 and ws.visited == tree.n_nodes


def test_the_option_on_the_command_line_and_its_refusals():
    args = ["solve", "holdem", *[x for k, v in TURN.items() for x in ("--param", f"{k}={v}")], "-n", "6", "--json"]
    r = CliRunner().invoke(cli, [*args, "--option", "prune=1"])
    assert r.exit_code == 0, r.output
    result = json.loads(r.output)
    assert 0.0 < result["pruned_fraction"] < 1.0
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 0 and "pruned_fraction" not in json.loads(r.output)
    r = CliRunner().invoke(cli, [*args[:-1], "--option", "prune=1"])  # the text report says it
    assert r.exit_code == 0 and "pruned: " in r.output and "of the node visits" in r.output, r.output
    for more, start in ((["-a", "pcs-mccfr"], "Error: pcs-mccfr does not run with pruning"),
                        (["--ray", "auto"], "Error: --option prune runs in one process"),
                        (["--option", "prune=2"], "Error: prune must be 1 or 0")):
        r = CliRunner().invoke(cli, [*args, "--option", "prune=1", *more])
        assert r.exit_code == 1 and r.output.startswith(start) and r.output.count("\n") == 1, r.output
    r = CliRunner().invoke(cli, ["solve", "kuhn", "-a", "cfr+", "--form", "history-tree", "--option", "prune=1"])
    assert r.exit_code == 1 and r.output.startswith("Error: --option prune (pruning below an all-zero opponent "
                                                    "reach) applies on the public tree only"), r.output
    with pytest.raises(ZerosumError):
        public_solver("dcfr", public_tree(HoldemGame(**TURN)), prune="yes")


def test_suit_isomorphism_pruned_as_unpruned():
    """A suit-isomorphic tree (the mirror deals are skipped below a zero reach): the same figures."""
    iso = public_tree(HoldemGame(board="Ks7s2s9h", range0="QQ+,AKs", range1="JJ+,AQs"), isomorphism=True)
    assert iso.iso is not None
    plain = public_solver("dcfr", iso, restart=4)
    pruned = public_solver("dcfr", iso, restart=4, prune=True)
    for _ in range(3):
        plain.iterate(10)
        pruned.iterate(10)
        assert all(np.array_equal(a, b) for a, b in zip(_sums(plain), _sums(pruned)))
    assert plain.checkpoint() == pruned.checkpoint() and pruned.pruned_fraction > 0.0
