"""All-in runouts as one matrix product (zerosum.public_tree.evaluators.runouts): the pass with them
against the pass that evaluates their showdowns one at a time (Workspace(runouts=False)), in
every mode, with suit isomorphism's mirror deals and with rake; the threaded pass the same bit
for bit; the nodes found are exactly the chance nodes whose children are all showdowns."""

import numpy as np
import pytest

from zerosum.games import load_game
from zerosum.public_tree.arrays import pass_step
from zerosum.public_tree.compile import public_tree
from zerosum.public_tree.evaluators.runouts import runout_nodes
from zerosum.public_tree.form import CHANCE_NODE, SHOWDOWN
from zerosum.public_tree.passes import Workspace

#: postflop-solver's example turn's betting (all-ins on the turn: runouts below), narrower ranges
BETTING = "[turn bet=60%,e,a raise=2.5x; river bet=60%,e,a raise=2.5x donk=50%]"
RANGES = {"range0": "AA,KK,QQ,AK,AQs,JTs,98s,76s", "range1": "JJ,TT,AK,KQs,QJs,T9s,65s,A5s"}


def spot(board, **extra):
    return load_game("holdem", board=board, pot=200, stack=900, betting=BETTING, add_allin=1.5, force_allin=0.15,
                     merging=0.1, **RANGES, **extra)


def passes_agree(tree, seeds=2):
    """The largest relative difference between the two passes' values and regrets."""
    with_runouts, one_by_one = Workspace(tree, np.float64), Workspace(tree, np.float64, runouts=False)
    assert len(with_runouts.runouts[0]) and not len(one_by_one.runouts[0])
    worst = 0.0
    for seed in range(seeds):
        rng = np.random.default_rng(seed)
        sums = [rng.random(n) * (rng.random(n) < 0.7) for n in tree.infoset_actions()]
        for mode in (0, 1, 2):
            for p in (0, 1):
                a, b = [s.copy() for s in sums], [s.copy() for s in sums]
                va = with_runouts.walk(pass_step(p, mode, 2.0, (1.0, 0.7, 0.3, True)), a[p], a[1 - p],
                                       np.zeros(len(a[p])))
                vb = one_by_one.walk(pass_step(p, mode, 2.0, (1.0, 0.7, 0.3, True)), b[p], b[1 - p],
                                     np.zeros(len(b[p])))
                assert with_runouts.visited == one_by_one.visited  # the runouts' showdowns counted
                worst = max(worst, abs(va - vb) / max(1.0, abs(vb)), float(np.abs(a[p] - b[p]).max()))
    return worst


@pytest.mark.parametrize("board, extra, mirrored", [("Ks7d2c9h", {}, False), ("Ks7s2s9s", {}, True),
                                                    ("Ks7s2s9s", {"rake": 0.05, "rake_cap": 3}, True)],
                         ids=["plain", "mirrors", "mirrors-raked"])
def test_runouts_as_one_product_equal_their_showdowns(board, extra, mirrored):
    tree = public_tree(spot(board, **extra), isomorphism=True)
    index = Workspace(tree, np.float64).runouts[0]
    assert bool((index[:, 0] != index[:, 1]).any()) == mirrored  # a monotone turn: the rivers' suits mirror
    assert passes_agree(tree) < 1e-12


def test_runout_nodes_are_the_chance_nodes_over_showdowns_only():
    tree = public_tree(spot("Ks7d2c9h"), isomorphism=True)
    found = set(runout_nodes(tree).tolist())
    expected = {n for n in np.flatnonzero(tree.kind == CHANCE_NODE)
                if all(tree.kind[c] == SHOWDOWN for c in range(tree.first_child[n],
                                                                tree.first_child[n] + tree.n_children[n]))}
    assert found == expected and len(found) == 8  # the turn's all-in lines called
    limit = public_tree(load_game("holdem", board="Ks7d2c9h", raises=1))  # no all-in: none
    assert len(runout_nodes(limit)) == 0 and not len(Workspace(limit, np.float64).runouts[0])


@pytest.mark.parametrize("dtype, prune", [("float64", False), ("float32", False), ("float32", True)])
def test_two_threads_run_the_runouts_bit_for_bit(dtype, prune):
    """The turn's runout nodes are cut nodes with one task each (the product, in a thread): the
    same sums, checks, node visits and pruned visits as one thread."""
    from zerosum.public_tree.solver import public_solver

    tree = public_tree(spot("Ks7s2s9s"), isomorphism=True)
    one, two = (public_solver("dcfr", tree, dtype=dtype, threads=t, restart=4, prune=prune) for t in (1, 2))
    for solver in (one, two):
        solver.iterate(12)
    assert two.workspace.threads == 2
    own = two.workspace._cut_plan(False)[1]
    assert np.count_nonzero(own.slot[own.task_node] >= 0) == 8  # the eight runouts: a task each
    for q in (0, 1):
        assert np.array_equal(one.regrets[q], two.regrets[q]) and np.array_equal(one.average[q], two.average[q])
    assert one.checkpoint() == two.checkpoint()
    assert one.visits == two.visits and (one.visits[1] > 0) == prune


def test_a_solve_with_runouts_reaches_the_one_by_one_solve():
    """Twenty CFR+ iterations in float64 with and without the product: the same regrets and
    exploitability to rounding (the products sum in another order).  (Not DCFR: its halved
    negative regrets turn a regret of +-1e-15 into a played action, so two roundings part after
    a few iterations; each pass agrees to 1e-14 above.)"""
    from zerosum.public_tree import passes
    from zerosum.public_tree.solver import public_solver

    tree = public_tree(spot("Ks7d2c9h"), isomorphism=True)
    fast = public_solver("cfr+", tree)
    slow = public_solver("cfr+", tree)
    slow.workspace = passes.Workspace(tree, np.float64, runouts=False)
    slow._eval_workspace = slow.workspace
    for solver in (fast, slow):
        solver.iterate(20)
    for q in (0, 1):
        assert np.allclose(fast.regrets[q], slow.regrets[q], rtol=1e-9, atol=1e-9)
    a, b = fast.checkpoint(), slow.checkpoint()
    assert a["nash_conv_average"] == pytest.approx(b["nash_conv_average"], rel=1e-9)
    assert a["value_average"] == pytest.approx(b["value_average"], rel=1e-9, abs=1e-9)


def test_predictive_passes_read_the_runouts_as_the_showdowns():
    """PCFR+'s pass (the strategies stored, the prediction built bottom-up, a runout's predicted
    values its values): the same strategies and regrets with the product as one by one."""
    tree = public_tree(spot("Ks7s2s9s"), isomorphism=True)
    with_runouts, one_by_one = Workspace(tree, np.float64), Workspace(tree, np.float64, runouts=False)
    rng = np.random.default_rng(5)
    sizes = tree.infoset_actions()
    for predict in (1, 2):
        for p in (0, 1):
            strategies = [rng.random(n) for n in sizes]
            regrets = [rng.standard_normal(n) for n in sizes]
            got = [[s.copy() for s in strategies], [r.copy() for r in regrets]]
            want = [[s.copy() for s in strategies], [r.copy() for r in regrets]]
            for ws, (st, rg) in ((with_runouts, got), (one_by_one, want)):
                ws.walk(pass_step(p, 0, 1.0, (1.0, 1.0, 1.0, True), predict, 1.0), st[p], st[1 - p],
                        np.zeros(sizes[p]), regrets_p=rg[p])
            assert np.allclose(got[0][p], want[0][p], rtol=1e-10, atol=1e-12)
            assert np.allclose(got[1][p], want[1][p], rtol=1e-10, atol=1e-12)
