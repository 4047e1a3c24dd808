"""Exact action values against a brute-force walk of the history tree, and their invariants."""

import numpy as np
import pytest

import zerosum
from zerosum.core.action_values import (
    PlayerArrays,
    action_values,
    best_response_step,
    best_response_strategy,
    conditional_values,
    log_softmax,
    logit_step,
    softmax,
)
from zerosum.core.compile import compiled
from zerosum.core.game import TERMINAL
from zerosum.core.sequence_form import best_response, collected_values, realization_plan


def random_strategies(game, rng, pure_player=None):
    out = []
    for p, t in enumerate(game.treeplexes):
        if p == pure_player:  # exactly pure: many information sets of the other player unreached
            pi = np.zeros(t.n_sequences)
            pi[0] = 1.0
            pi[t.infoset_first] = 1.0  # always the first action
            out.append(pi)
            continue
        else:
            z = rng.normal(size=t.n_sequences) * 1.5
        out.append(softmax(t, z))
    return out


def brute_force(game, probs, player):
    """Walk every history: per information set, the sums of w(h) * value(h, a) and of w(h), with
    w(h) = chance's times the opponent's probability of reaching h."""
    tree = game.tree
    tp = game.treeplexes[player]
    num = np.zeros(tp.n_sequences)
    den = np.zeros(tp.n_infosets)

    def value(h):  # expected payoff to `player` below h under the profile
        who = tree.player[h]
        if who == TERMINAL:
            return tree.payoff[h] if player == 0 else -tree.payoff[h]
        kids = range(tree.first_child[h], tree.first_child[h] + tree.n_children[h])
        if who in (0, 1):
            first = game.treeplexes[who].infoset_first[tree.infoset[h]]
            return sum(probs[who][first + k] * value(c) for k, c in enumerate(kids))
        return sum(tree.edge_prob[c] * value(c) for c in kids)

    def walk(h, w):
        who = tree.player[h]
        if who == TERMINAL:
            return
        kids = list(range(tree.first_child[h], tree.first_child[h] + tree.n_children[h]))
        if who in (0, 1):
            first = game.treeplexes[who].infoset_first[tree.infoset[h]]
            if who == player:
                den[tree.infoset[h]] += w
                for k, c in enumerate(kids):
                    num[first + k] += w * value(c)
                    walk(c, w)
            else:
                for k, c in enumerate(kids):
                    walk(c, w * probs[who][first + k])
        else:
            for c in kids:
                walk(c, w * tree.edge_prob[c])

    walk(0, 1.0)
    q = np.zeros(tp.n_sequences)
    seq_den = den[tp.seq_infoset[1:]]
    q[1:] = np.where(seq_den > 0, num[1:] / np.where(seq_den > 0, seq_den, 1), 0.0)
    return q, den


@pytest.mark.parametrize("name", ["kuhn", "leduc"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_action_values_match_brute_force(name, seed):
    game = compiled(zerosum.load_game(name))
    if name == "leduc" and seed > 0:
        pytest.skip("one Leduc profile is enough (the walk is slow in Python)")
    rng = np.random.default_rng(seed)
    probs = random_strategies(game, rng)
    for p in (0, 1):
        x_opp = realization_plan(game.treeplexes[1 - p], probs[1 - p])
        q, r = action_values(game, p, probs[p], x_opp, return_reach=True)
        q_ref, r_ref = brute_force(game, probs, p)
        np.testing.assert_allclose(r, r_ref, rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(q[1:], q_ref[1:], rtol=1e-10, atol=1e-12)


def test_zero_reach_gives_zero_values_and_others_still_match():
    game = compiled(zerosum.load_game("kuhn"))
    t1 = game.treeplexes[1]
    probs = [game.treeplexes[0].uniform(), t1.uniform()]
    probs[1] = np.zeros(t1.n_sequences)
    probs[1][0] = 1.0
    probs[1][t1.infoset_first] = 1.0  # player 1 always takes its first action
    x1 = realization_plan(t1, probs[1])
    q, r = action_values(game, 0, probs[0], x1, return_reach=True)
    q_ref, r_ref = brute_force(game, probs, 0)
    np.testing.assert_allclose(r, r_ref, atol=1e-15)
    assert (r == 0).any() and (r > 0).any()
    unreached = (r == 0)[game.treeplexes[0].seq_infoset[1:]]
    assert np.all(q[1:][unreached] == 0.0)
    np.testing.assert_allclose(q[1:], q_ref[1:], atol=1e-12)


@pytest.mark.parametrize("name", ["kuhn", "leduc"])
def test_policy_weighted_action_values_are_conditional_values(name):
    game = compiled(zerosum.load_game(name))
    probs = random_strategies(game, np.random.default_rng(7))
    plans = [realization_plan(t, pi) for t, pi in zip(game.treeplexes, probs)]
    value0 = plans[0] @ (game.payoff @ plans[1])
    for p in (0, 1):
        tree = game.treeplexes[p]
        q, r = action_values(game, p, probs[p], plans[1 - p], return_reach=True)
        v = conditional_values(tree, q, probs[p])
        # root information sets: r(I) * v(I) summed over them is the player's expected value
        roots = tree.infoset_parent == 0
        expected = value0 if p == 0 else -value0
        assert q[0] == pytest.approx(expected, abs=1e-12)
        assert np.sum(r[roots] * v[roots]) == pytest.approx(expected, abs=1e-12)
        # deeper: v(I) r(I) summed over the information sets under a sequence (a, I') plus the
        # payoff collected directly under it equals r(I') q(I', a)
        g = collected_values(game, p, plans[1 - p])
        rebuilt = g.copy()
        np.add.at(rebuilt, tree.infoset_parent, r * v)
        np.testing.assert_allclose(rebuilt[1:], (r[tree.seq_infoset[1:]] * q[1:]), atol=1e-12)


@pytest.mark.parametrize("name", ["kuhn", "leduc"])
def test_best_response_strategy_is_a_best_response_and_takes_argmax(name):
    game = compiled(zerosum.load_game(name))
    probs = random_strategies(game, np.random.default_rng(3), pure_player=1)
    for p in (0, 1):
        tree = game.treeplexes[p]
        x_opp = realization_plan(game.treeplexes[1 - p], probs[1 - p])
        br = best_response_strategy(game, p, x_opp)
        g = collected_values(game, p, x_opp)
        x_br = realization_plan(tree, br)
        assert x_br @ g == pytest.approx(best_response(tree, g), abs=1e-12)
        q, r = action_values(game, p, br, x_opp, return_reach=True)
        if p == 0:
            assert (r == 0).any()
        for i in range(tree.n_infosets):
            s = slice(tree.infoset_first[i], tree.infoset_first[i] + tree.infoset_size[i])
            if r[i] > 0:
                assert br[s].max() == 1.0
                assert q[s][np.argmax(br[s])] >= q[s].max() - 1e-12
            else:
                np.testing.assert_allclose(br[s], 1.0 / tree.infoset_size[i])


@pytest.mark.parametrize("name", ["kuhn", "leduc"])
def test_fused_kernels_agree_with_the_numpy_functions(name):
    """One fused kernel call per player = action values + update + softmax + plan (the NumPy
    functions above, checked against the brute-force walk), and the lab's best response."""
    game = compiled(zerosum.load_game(name))
    rng = np.random.default_rng(11)
    probs = random_strategies(game, rng, pure_player=1)  # zero reach somewhere for player 0
    plans = [realization_plan(t, pi) for t, pi in zip(game.treeplexes, probs)]
    eta, alpha = 0.3, 0.7
    for p, tree in enumerate(game.treeplexes):
        arrays = PlayerArrays(game, p)
        z = rng.normal(size=tree.n_sequences)
        log_magnet = log_softmax(tree, rng.normal(size=tree.n_sequences))
        expected_z = (z + eta * alpha * log_magnet + eta * action_values(game, p, probs[p], plans[1 - p]))
        expected_z /= 1 + eta * alpha
        avg = np.ones(tree.n_sequences)
        pi, x = logit_step(*arrays, plans[1 - p], probs[p], z, log_magnet, eta, eta * alpha, avg)
        np.testing.assert_allclose(z, expected_z, rtol=1e-13, atol=1e-13)  # z updated in place
        np.testing.assert_allclose(pi, softmax(tree, expected_z), atol=1e-13)
        np.testing.assert_allclose(x, realization_plan(tree, pi), atol=1e-15)
        np.testing.assert_allclose(avg, 1 + x, atol=1e-15)
        br, xb = best_response_step(*arrays, plans[1 - p], np.zeros(tree.n_sequences))
        np.testing.assert_array_equal(br, best_response_strategy(game, p, plans[1 - p]))
        np.testing.assert_allclose(xb, realization_plan(tree, br), atol=0)


def test_softmax_kernels_match_their_definition():
    tree = compiled(zerosum.load_game("leduc")).treeplexes[0]
    z = np.random.default_rng(5).normal(size=tree.n_sequences) * 30
    pi, lp = softmax(tree, z), log_softmax(tree, z)
    assert pi[0] == 1.0 and lp[0] == 0.0
    for i in range(tree.n_infosets):
        s = slice(tree.infoset_first[i], tree.infoset_first[i] + tree.infoset_size[i])
        e = np.exp(z[s] - z[s].max())
        np.testing.assert_allclose(pi[s], e / e.sum(), rtol=1e-13)
        np.testing.assert_allclose(lp[s], np.log(e / e.sum()), rtol=1e-12, atol=1e-12)
