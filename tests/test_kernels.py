"""The compiled kernels of sequence_form against plain linear algebra on the same game."""

import numpy as np
import pytest
from helpers import random_policy

import zerosum
from zerosum.core.sequence_form import best_response, counterfactual_values, realization_plan, regret_matching


def descendants(tree):
    """D[s, t] = 1 when sequence t is s or lies below it in the treeplex."""
    n = tree.n_sequences
    d = np.eye(n)
    for t in range(1, n):
        s = tree.seq_parent[t]
        while s >= 0:
            d[s, t] = 1.0
            s = tree.seq_parent[s] if s > 0 else -1
    return d


@pytest.mark.parametrize("name", ["kuhn", "leduc"])
def test_counterfactual_values_are_subtree_sums(name):
    cg = zerosum.compiled(zerosum.load_game(name))
    rng = np.random.default_rng(1)
    policy = random_policy(cg, rng)
    for tree, pi in zip(cg.treeplexes, policy.probs):
        x = realization_plan(tree, pi)
        g = rng.normal(size=tree.n_sequences)
        cfv, v = counterfactual_values(tree, g, pi)
        expected = descendants(tree) @ (g * x) / x
        assert np.allclose(cfv, expected, atol=1e-12)
        assert cfv[0] == pytest.approx(x @ g, abs=1e-12)
        # v(I) is the pi-weighted average of its actions' values
        for i in range(tree.n_infosets):
            f, n = tree.infoset_first[i], tree.infoset_size[i]
            assert v[i] == pytest.approx(pi[f:f + n] @ cfv[f:f + n], abs=1e-12)


def test_best_response_policy_attains_its_value():
    cg = zerosum.compiled(zerosum.load_game("leduc"))
    rng = np.random.default_rng(2)
    for tree in cg.treeplexes:
        g = rng.normal(size=tree.n_sequences)
        value, pure = best_response(tree, g, with_policy=True)
        assert set(np.unique(pure)) <= {0.0, 1.0}
        assert realization_plan(tree, pure) @ g == pytest.approx(value, abs=1e-12)
        # no other deterministic deviation at a single information set does better
        for _ in range(20):
            other = pure.copy()
            i = rng.integers(tree.n_infosets)
            f, n = tree.infoset_first[i], tree.infoset_size[i]
            other[f:f + n] = np.eye(n)[rng.integers(n)]
            assert realization_plan(tree, other) @ g <= value + 1e-12


def test_regret_matching_normalizes_positive_parts():
    tree = zerosum.compiled(zerosum.load_game("leduc")).treeplexes[0]
    r = np.random.default_rng(3).normal(size=tree.n_sequences)
    r[tree.infoset_first[0]:tree.infoset_first[0] + tree.infoset_size[0]] = -1.0  # no positive regret
    pi = regret_matching(tree, r)
    for i in range(tree.n_infosets):
        f, n = tree.infoset_first[i], tree.infoset_size[i]
        pos = np.maximum(r[f:f + n], 0)
        expected = pos / pos.sum() if pos.sum() > 0 else np.full(n, 1 / n)
        assert np.allclose(pi[f:f + n], expected, atol=1e-15)


def test_public_tree_kernel_argument_groups():
    """Terminal data and split pieces hand the kernels named tuples (arrays.py)."""
    from zerosum.public_tree.arrays import TerminalArrays, TreeArrays
    from zerosum.public_tree.compile import public_tree
    from zerosum.public_tree.split.cut import Piece

    tree = public_tree(zerosum.load_game("poker"))
    targs = tree.terminals.kernel_args()
    assert isinstance(targs, TerminalArrays) and targs.evaluator == tree.terminals.kind
    piece = Piece(tree, np.arange(tree.n_nodes))
    arrays = piece.arrays()
    assert isinstance(arrays, TreeArrays) and np.array_equal(arrays.kind, tree.kind)
