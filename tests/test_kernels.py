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


def test_public_tree_regret_matching_is_the_trunks_old_form_bit_for_bit():
    """The public-tree passes' one regret matching (kernels.denominators, kernels.matched) gives
    the very floats of the form the split trunk used to write out, ``(x / t if x > 0 else 0) if
    t > 0 else 1 / na`` on totals of the positive parts (zeros, negatives, pure and uniform rows)."""
    from numba import njit

    from zerosum.public_tree import kernels

    @njit(cache=False)
    def matched_block(src, na, n):
        den, uni, out = np.empty(n), np.empty(n), np.empty(na * n)
        kernels.denominators(src, 0, na, n, den, uni)
        for a in range(na):
            for i in range(n):
                out[a * n + i] = kernels.matched(src[a * n + i], den[i], uni[i])
        return out

    rng = np.random.default_rng(3)
    for na in (2, 3, 5):
        n = 64
        src = rng.standard_normal(na * n) * rng.choice([1e-30, 1e-3, 1.0, 1e30], size=na * n)
        src[rng.random(na * n) < 0.3] = 0.0
        src[:na * 4] = -1.0  # rows with nothing positive: uniform
        for src_t in (src, src.astype(np.float32)):
            x = src_t.astype(np.float64).reshape(na, n)
            tot = np.zeros(n)
            for a in range(na):
                tot += np.where(x[a] > 0.0, x[a], 0.0)
            with np.errstate(divide="ignore", invalid="ignore"):
                old = np.where(tot > 0.0, np.where(x > 0.0, x / tot, 0.0), 1.0 / na).ravel()
            new = matched_block(src_t, na, n)
            assert np.array_equal(new, old) and np.array_equal(np.signbit(new), np.signbit(old))


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
