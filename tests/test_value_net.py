"""Leaf values from solved subgames and from a value network (zerosum.resolving.value_net): the
leaf's subtree as a tree of its own against the whole tree, the network's training, saving and
homogeneity, and depth-limited solving with either leaf function evaluated exactly."""

import numpy as np
import pytest

from zerosum import load_game
from zerosum.errors import ZerosumError
from zerosum.public_tree.compile import public_tree
from zerosum.public_tree.form import DECISION
from zerosum.public_tree.passes import nash_conv_public
from zerosum.public_tree.policy import PublicPolicy
from zerosum.public_tree.solver import public_solver
from zerosum.resolving import value_net as vn
from zerosum.resolving.depth_limited import cut
from zerosum.solutions.analysis import node_values, path_reach, subtree


@pytest.fixture(scope="module")
def leduc():
    tree = public_tree(load_game("poker"))
    s = public_solver("dcfr", tree)
    s.iterate(30)
    return tree, s.average_policy()


def _on_subtree(tree, policy, leaf, sub):
    """``policy``'s tables below ``leaf`` as a PublicPolicy of ``sub`` (the leaf's own tree)."""
    probs = [np.zeros(n) for n in sub.infoset_actions()]
    for k, n in enumerate(subtree(tree, leaf).tolist()):
        if tree.kind[n] == DECISION:
            q, size = int(tree.player[n]), int(tree.n_children[n]) * tree.n_hands[int(tree.player[n])]
            probs[q][sub.offset[k]:sub.offset[k] + size] = policy.table(n).reshape(-1)
    return PublicPolicy(sub, probs)


def test_leaf_tree_is_the_subtree(leduc):
    tree, policy = leduc
    _, leaves = cut(tree, 1)
    for leaf in leaves.tolist():
        reach = path_reach(tree, policy, leaf)
        sub = vn.leaf_tree(tree, leaf, reach)
        ours = node_values(sub, _on_subtree(tree, policy, leaf, sub), 0)["cfv"]
        whole = node_values(tree, policy, leaf)["cfv"]
        for p in (0, 1):
            np.testing.assert_allclose(ours[p], whole[p], atol=1e-12)


def test_subgame_values_are_best_responses_of_an_equilibrium(leduc):
    """Solved long, each player's values are its best-response values against the other's
    equilibrium strategy: player 0's value of the subgame (its reach times its values) and minus
    player 1's agree within the subgame's NashConv."""
    tree, policy = leduc
    _, leaves = cut(tree, 1)
    leaf = int(leaves[1])
    r0, r1 = path_reach(tree, policy, leaf)
    v0, v1, sub = vn.subgame_values(tree, leaf, r0, r1, 2000)
    gap = r0 @ v0 + r1 @ v1  # the two best-response values: their sum is the subgame's NashConv
    assert 0 <= gap <= nash_conv_public(sub.tree, sub.probs)["nash_conv"] + 1e-12
    assert gap < 1e-3
    zero = np.zeros(3)
    assert all(not x.any() for x in vn.subgame_values(tree, leaf, zero, r1)[:2])


def test_value_network_trains_saves_and_scales(tmp_path, leduc):
    pytest.importorskip("jax")
    tree, _ = leduc
    net = vn.train_value_network(tree, 1, samples=300, iterations=200, steps=2000, seed=0)
    assert net.stats["held_out"] == 30
    scale = np.mean([np.abs(x).mean() for x in (vn.subgame_values(tree, int(lf), np.ones(3), np.ones(3))[0]
                                                   for lf in net.leaves)])
    assert net.stats["held_out_mae"] < 0.5 * scale  # it learned something: half the values' own size
    r0, r1 = np.array([0.2, 0.5, 0.1]), np.array([0.3, 0.0, 0.9])
    leaf = net.leaves[2]
    a0, a1 = net.predict(leaf, r0, r1)
    b0, b1 = net.predict(leaf, 3 * r0, r1)
    np.testing.assert_allclose(b0, a0, rtol=1e-6)
    np.testing.assert_allclose(b1, 3 * a1, rtol=1e-6)
    path = tmp_path / "net.npz"
    net.save(path)
    again = vn.ValueNetwork.load(tree, path)
    np.testing.assert_array_equal(again.predict(leaf, r0, r1)[0], a0)
    with pytest.raises(ZerosumError, match="value network of"):
        vn.ValueNetwork.load(public_tree(load_game("poker", ranks=4)), path)
    with pytest.raises(ZerosumError, match="not a value network"):
        vn.ValueNetwork.load(tree, tmp_path / "missing.npz")


def test_exact_leaves_solve_the_first_round(leduc):
    tree, _ = leduc
    r = vn.solve_with_leaf_values(tree, 1, vn.exact_leaf_values(tree, 200), iterations=30, finish_iterations=200)
    nc = nash_conv_public(tree, r.policy.probs)["nash_conv"]
    uniform = nash_conv_public(tree, [np.zeros(n) for n in tree.infoset_actions()])["nash_conv"]
    assert r.leaf_calls == 30 * 2 * 5  # five leaves, two passes an iteration
    assert nc < 0.05 * uniform  # measured 0.16 against 4.75


def test_continual_resolving_improves_with_its_iterations(leduc):
    """DeepStack's agent on the public tree: without a cut it is continual re-solving to the end of the
    game; with exact leaves it gets better with more iterations per re-solve (measured 0.23 -> 0.056
    at 30 -> 100 with 200-iteration leaf solves; here 50-iteration ones, for time)."""
    tree, _ = leduc
    whole = vn.continual_resolving(tree, None, 60, depth=9)
    assert whole.resolves == [53, 54] and whole.leaf_calls == 0
    assert nash_conv_public(tree, whole.policy.probs)["nash_conv"] < 0.1
    exact = vn.exact_leaf_values(tree, 50)
    ncs = [nash_conv_public(tree, vn.continual_resolving(tree, exact, n).policy.probs)["nash_conv"] for n in (10, 40)]
    assert ncs[1] < ncs[0] < 0.5 * 4.747
