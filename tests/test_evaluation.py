import itertools

import numpy as np
import pytest
from helpers import brute_force_value, random_policy
from hypothesis import given, settings
from hypothesis import strategies as st

import zerosum
from zerosum.core.sequence_form import behavioral_from_realization, realization_plan


@given(seed=st.integers(0, 2**32 - 1))
@settings(max_examples=25, deadline=None)
def test_sequence_form_value_equals_walking_the_rules(seed):
    for name in ("kuhn", "leduc"):
        game = zerosum.load_game(name)
        policy = random_policy(zerosum.compiled(game), np.random.default_rng(seed))
        direct = brute_force_value(game, lambda p, label, pol=policy: pol.action_probabilities(label, p))
        assert abs(zerosum.expected_value(game, policy) - direct) < 1e-12


def test_uniform_leduc_nash_conv_is_the_lab_value():
    game = zerosum.load_game("leduc")
    ev = zerosum.evaluate(game, zerosum.TabularPolicy.uniform(game))
    assert abs(ev.nash_conv - 4.747222222222222) < 1e-12
    assert abs(ev.exploitability - ev.nash_conv / 2) < 1e-15


def test_best_response_equals_enumeration_of_pure_strategies_on_kuhn():
    """Independent method: the best pure strategy found by trying all 2^6 of them."""
    game = zerosum.load_game("kuhn")
    cg = zerosum.compiled(game)
    policy = random_policy(cg, np.random.default_rng(7))
    for player in (0, 1):
        labels = cg.treeplexes[player].infoset_labels
        best = -np.inf
        for choice in itertools.product("pb", repeat=len(labels)):
            pure = dict(zip(labels, choice))

            def strat(p, label, player=player, pure=pure):
                if p == player:
                    return {a: float(a == pure[label]) for a in "pb"}
                return policy.action_probabilities(label, p)

            v = brute_force_value(game, strat)
            best = max(best, v if player == 0 else -v)
        assert abs(zerosum.best_response_value(game, policy, player) - best) < 1e-12


def test_behavioral_realization_round_trip():
    cg = zerosum.compiled(zerosum.load_game("leduc"))
    policy = random_policy(cg, np.random.default_rng(3))
    for tree, pi in zip(cg.treeplexes, policy.probs):
        assert np.allclose(behavioral_from_realization(tree, realization_plan(tree, pi)), pi)


def test_rps_uniform_is_an_equilibrium_and_pure_rock_is_not():
    game = zerosum.load_game("rps")
    assert zerosum.nash_conv(game, zerosum.TabularPolicy.uniform(game)) == 0
    cg = zerosum.compiled(game)
    rock = np.array([1.0, 1.0, 0.0, 0.0])
    ev = zerosum.evaluate(game, zerosum.TabularPolicy(cg, (rock, rock)))
    assert ev.nash_conv == pytest.approx(2.0)  # each side gains 1 by playing paper


@pytest.mark.parametrize("name", ["kuhn_poker", "leduc_poker"])
def test_nash_conv_agrees_with_openspiel_on_random_policies(name):
    pyspiel = pytest.importorskip("pyspiel")
    from zerosum.games.openspiel import to_pyspiel_policy

    game = zerosum.load_game(f"openspiel:{name}")
    cg = zerosum.compiled(game)
    rng = np.random.default_rng(11)
    for _ in range(3):
        policy = random_policy(cg, rng)
        ours = zerosum.nash_conv(game, policy)
        theirs = pyspiel.nash_conv(game.game, to_pyspiel_policy(policy, game))
        assert abs(ours - theirs) < 1e-9
