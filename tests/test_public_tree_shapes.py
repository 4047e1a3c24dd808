"""The shape-tree pass (identical subtrees below a chance node walked once) against the per-node
pass: the same regrets, averages and NashConv on several poker-family members, every variant that
runs on it, float64 and float32, the dense evaluator and a hold'em turn subgame; the layout maps
saved states and policies back to the form's own layout."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from zerosum import load_game
from zerosum.public_tree.build import poker_public_tree
from zerosum.public_tree.compile import public_tree
from zerosum.public_tree.form import FOLD
from zerosum.public_tree.passes import nash_conv_public
from zerosum.public_tree.shapes import shape_tree
from zerosum.public_tree.solver import public_solver, public_solver_class

KUHN = {"ranks": 3, "copies": 1, "rounds": 1, "raises": 1, "bets": [1]}
MEMBERS = {"kuhn": KUHN, "leduc": {}, "ranks6": {"ranks": 6}, "ranks5x3": {"ranks": 5, "copies": 3},
           "ranks13x4": {"ranks": 13, "copies": 4, "raises": 3}}


def _depth_first(name, tree, dtype):
    cls = public_solver_class(name, dtype)
    return type("DepthFirst", (cls,), {"shape_pass": False})(tree)


def _agree(a, b, tol=1e-12):
    scale = max(1.0, float(np.abs(b).max())) if len(b) else 1.0
    return np.abs(np.asarray(a, dtype=np.float64) - np.asarray(b, dtype=np.float64)).max(initial=0.0) <= tol * scale


@pytest.mark.parametrize("member", list(MEMBERS))
def test_shape_tree_covers_every_public_node_once(member):
    tree = public_tree(load_game("poker", **MEMBERS[member]))
    sh = shape_tree(tree)
    assert sorted(sh.members.tolist()) == list(range(tree.n_nodes))
    assert int(sh.mult.sum()) == tree.n_nodes
    for p in (0, 1):  # the kernel layout is a permutation of the form's
        assert sorted(sh.perm[p].tolist()) == list(range(tree.infoset_actions()[p]))
    assert np.array_equal(sh.row_stake, tree.stake[sh.members]) and np.array_equal(sh.row_board, tree.board[sh.members])
    for s in range(sh.n_shapes):  # every member of a shape node has its kind; edge a maps row u to its child a
        rows = sh.members[sh.row[s]:sh.row[s] + sh.mult[s]]
        assert np.all(tree.kind[rows] == sh.kind[s])
        for a in range(sh.n_children[s]):
            c, er = sh.edge_child[sh.first_edge[s] + a], sh.edge_row[sh.first_edge[s] + a]
            assert c > s  # parents before children
            below = sh.members[sh.row[c] + er:sh.row[c] + er + sh.mult[s]]
            assert np.array_equal(below, tree.first_child[rows] + a)
    assert np.array_equal(sh.entries[1:], np.bincount(sh.edge_child, minlength=sh.n_shapes)[1:])
    if member != "kuhn":  # a public card: the identical betting subtrees collapse, across lines too
        chance = tree.kind == 1
        assert sh.n_shapes < tree.n_nodes and sh.entries.max() >= tree.n_children[chance].max()
        lines = int(chance.sum())  # each line of the first street that sees the card
        assert sh.mult.max() >= lines * tree.n_children[chance].max()


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", ["cfr", "cfr+", "lcfr", "dcfr"])
@pytest.mark.parametrize("member", list(MEMBERS))
def test_shape_pass_is_the_depth_first_pass(member, name, dtype):
    """The same run to 1e-12 in float64; in float32 to float32's rounding, as the shape pass
    normalizes in float64 and the depth-first pass divides in the sums' dtype."""
    tree = public_tree(load_game("poker", **MEMBERS[member]))
    shaped, plain = public_solver(name, tree, dtype=dtype), _depth_first(name, tree, dtype)
    assert shaped.shapes is not None and plain.shapes is None
    tol = 1e-12 if dtype == "float64" else 2e-4  # (DCFR on Leduc, 14 iterations: 7e-5 apart)
    for _ in range(2):
        shaped.iterate(7)
        plain.iterate(7)
        for p in (0, 1):
            assert _agree(shaped.in_form_layout(shaped.regrets)[p], plain.regrets[p], tol)
            assert _agree(shaped.in_form_layout(shaped.average)[p], plain.average[p], tol)
        a, b = shaped.checkpoint(), plain.checkpoint()
        for key in ("nash_conv_average", "nash_conv_current", "value_average"):
            assert abs(a[key] - b[key]) <= tol * max(1.0, abs(b[key])), key
    assert shaped.nodes_touched == plain.nodes_touched
    assert shaped.regrets[0].dtype == np.dtype(dtype)


def test_shape_pass_with_the_dense_evaluator():
    """The per-row fallback for terminals without the O(ranks) evaluator (dense matrices)."""
    game = load_game("poker", ranks=4, copies=3)
    tree = poker_public_tree(game, rank_form=False)
    shaped, plain = public_solver("cfr+", tree), _depth_first("cfr+", tree, "float64")
    shaped.iterate(15)
    plain.iterate(15)
    for p in (0, 1):
        assert _agree(shaped.in_form_layout(shaped.regrets)[p], plain.regrets[p])
    assert abs(shaped.checkpoint()["nash_conv_average"] - plain.checkpoint()["nash_conv_average"]) < 1e-12


def test_shape_pass_on_a_holdem_turn_subgame():
    """The river card collapses 44-48 identical subtrees; terminals use the sweep evaluator."""
    from zerosum.poker.holdem import HoldemGame

    tree = public_tree(HoldemGame(board="Ks7d2c9h", range0="AA,KQs", range1="QQ,T9s"))
    # (hold'em solves depth first by default: the shape and per-node passes asked for by name)
    cls = public_solver_class("dcfr", "float64")
    shaped = type("Shaped", (cls,), {"sweep_depth_first": False})(tree)
    plain = type("DepthFirst", (cls,), {"sweep_depth_first": False, "shape_pass": False})(tree)
    assert shaped.shapes is not None and shaped.shapes.entries.max() > 40
    shaped.iterate(10)
    plain.iterate(10)
    for p in (0, 1):
        assert _agree(shaped.in_form_layout(shaped.average)[p], plain.average[p])
    a, b = shaped.checkpoint(), plain.checkpoint()
    assert abs(a["nash_conv_current"] - b["nash_conv_current"]) < 1e-12 * max(1.0, b["nash_conv_current"])


def test_states_and_policies_are_in_the_form_layout(tmp_path):
    """A state saved by the shape pass resumes on the per-node pass (and back) bit for bit; the
    policy file and its NashConv are the per-node solver's."""
    tree = public_tree(load_game("poker", ranks=5, copies=3))
    full = _depth_first("dcfr", tree, "float64")
    full.run(20)
    half = public_solver("dcfr", tree)
    half.run(10)
    np.savez(tmp_path / "s.npz", **half.state_dict())
    resumed = _depth_first("dcfr", tree, "float64")
    resumed.load_state_dict(dict(np.load(tmp_path / "s.npz")))
    resumed.run(20)
    for p in (0, 1):
        assert np.array_equal(resumed.regrets[p], full.regrets[p])
    back = public_solver("dcfr", tree)
    back.load_state_dict(full.state_dict())
    back.run(25)
    full.run(25)
    for p in (0, 1):
        assert np.array_equal(back.in_form_layout(back.average)[p], full.average[p])
    mine, theirs = back.average_policy(), full.average_policy()
    for p in (0, 1):
        assert np.array_equal(mine.probs[p], theirs.probs[p])
    assert mine.evaluate() == nash_conv_public(tree, theirs.probs)


def test_sampling_and_predictive_variants_keep_their_passes():
    tree = public_tree(load_game("poker"))
    assert public_solver("pcs-mccfr", tree).shapes is None
    assert public_solver("pcfr+", tree).shapes is None


def test_shape_nash_conv_is_the_depth_first_one():
    tree = public_tree(load_game("poker", ranks=6))
    solver = public_solver("cfr", tree)
    rng = np.random.default_rng(4)
    src = [rng.random(n) - 0.3 for n in tree.infoset_actions()]  # some hands with no positive entry
    kernel_src = [solver.shapes.to_kernel(p, src[p]) for p in (0, 1)]
    mine, theirs = solver.workspace.nash_conv(kernel_src), nash_conv_public(tree, src)
    assert mine == theirs
    assert mine["nash_conv"] > 0.1


def test_terminal_rows_are_not_stored():
    tree = public_tree(load_game("poker", ranks=13, copies=4, raises=3))
    solver = public_solver("cfr+", tree)
    inner = int(np.sum(tree.kind < FOLD))
    assert solver.shapes.inner_rows == inner
    assert solver.workspace.opp.nbytes == inner * 13 * 8


def test_a_tree_without_identical_subtrees_runs_one_shape_per_node():
    """With the public card's subtrees made different (the folder of one fold changed), they do not
    all collapse, and the pass still agrees; a changed stake alone does not split them (stakes are
    per row)."""
    tree = public_tree(load_game("poker"))
    chance = int(np.flatnonzero(tree.kind == 1)[0])
    first = int(tree.first_child[chance])
    below = [n for n in range(tree.n_nodes) if tree.kind[n] == FOLD and _ancestor(tree, n, first)]
    stake = tree.stake.copy()
    stake[below[0]] += 1.0
    player = tree.player.copy()
    player[below[0]] = 1 - player[below[0]]
    sh = shape_tree(tree)
    for odd, split in ((dataclasses.replace(tree, stake=stake), False), (dataclasses.replace(tree, player=player), True)):
        # (each shares ``extra`` with tree: the shape cache must tell)
        shaped, plain = public_solver("cfr+", odd), _depth_first("cfr+", odd, "float64")
        assert (shaped.shapes.n_shapes > sh.n_shapes) == split
        shaped.iterate(10)
        plain.iterate(10)
        for p in (0, 1):
            assert _agree(shaped.in_form_layout(shaped.regrets)[p], plain.regrets[p])


def _ancestor(tree, node, ancestor):
    while node > 0:
        if node == ancestor:
            return True
        node = int(tree.parent[node])
    return node == ancestor
