"""The simulator: hands played by sampling agree with the exact expected values, bit-for-bit
reproducibility, the environment API, feature vectors."""

import numpy as np
import pytest
from helpers import random_policy

from zerosum import TabularPolicy, ZerosumError, compiled, expected_value, load_game
from zerosum.core.sequence_form import behavioral_from_realization, realization_plan
from zerosum.learning.features import infoset_features
from zerosum.learning.simulator import Environment, Mixture, Simulator


@pytest.fixture(scope="module")
def leduc():
    return compiled(load_game("leduc"))


def _within(samples, exact, sigmas=4.0):
    err = abs(samples.mean() - exact)
    assert err <= sigmas * samples.std() / np.sqrt(len(samples)), (samples.mean(), exact)


def test_empirical_payoff_of_two_fixed_policies_converges_to_the_exact_value(leduc):
    pol = random_policy(leduc, np.random.default_rng(3))
    exact = expected_value(leduc, pol)
    out = Simulator(leduc).play_profile(pol.probs, seed=5, hands=400_000)
    _within(out, exact)
    # and the error shrinks like 1/sqrt(n): a 100x smaller sample is (almost surely) worse
    assert abs(out.mean() - exact) < 0.05 < 4 * out.std() / np.sqrt(4_000)


def test_a_mixture_drawn_per_hand_plays_the_meta_strategy(leduc):
    rng = np.random.default_rng(7)
    members = [random_policy(leduc, rng).probs[1] for _ in range(3)]
    weights = np.array([0.2, 0.5, 0.3])
    t1 = leduc.treeplexes[1]
    plan = weights @ np.array([realization_plan(t1, m) for m in members])
    me = random_policy(leduc, rng).probs[0]
    exact = expected_value(leduc, TabularPolicy(leduc, [me, behavioral_from_realization(t1, plan)]))
    out = Simulator(leduc).play_profile([me, Mixture(leduc, 0, members, weights)], seed=1, hands=400_000)
    _within(out, exact)


def test_same_seed_same_hands_other_stream_other_hands(leduc):
    sim = Simulator(leduc)
    u = [t.uniform() for t in leduc.treeplexes]
    a = sim.play_profile(u, seed=3, stream=2, hands=5000)
    assert np.array_equal(a, sim.play_profile(u, seed=3, stream=2, hands=5000))
    assert not np.array_equal(a, sim.play_profile(u, seed=3, stream=3, hands=5000))
    assert not np.array_equal(a, sim.play_profile(u, seed=4, stream=2, hands=5000))


def _play_env(env, policy, steps, rng):
    ts = env.reset()
    rewards = []
    tree = env.tree
    for _ in range(steps):
        assert np.all(ts.legal.sum(1) == tree.infoset_size[ts.infoset])
        assert np.array_equal(ts.sequence, tree.infoset_first[ts.infoset])
        u = rng.random(env.batch)
        acts = np.zeros(env.batch, dtype=np.int64)
        for b in range(env.batch):
            p = policy[ts.sequence[b]:ts.sequence[b] + tree.infoset_size[ts.infoset[b]]]
            acts[b] = min(np.searchsorted(np.cumsum(p), u[b], side="right"), len(p) - 1)
        ts = env.step(acts)
        rewards.extend(ts.reward[ts.done])
        assert np.all(ts.reward[~ts.done] == 0)
    return np.array(rewards)


@pytest.mark.parametrize("player", [0, 1])
def test_environment_rewards_average_to_the_learners_exact_value(leduc, player):
    rng = np.random.default_rng(11)
    pol = random_policy(leduc, rng)
    env = Environment(leduc, player, opponent=pol.probs[1 - player], batch=256, seed=2)
    rewards = _play_env(env, pol.probs[player], 600, rng)
    sign = 1 if player == 0 else -1
    _within(rewards, sign * expected_value(leduc, pol))
    assert env.hands_played == len(rewards) + env.batch + env.hands_skipped


def test_environment_is_reproducible_and_batches_are_independent(leduc):
    runs = []
    for _ in range(2):
        env = Environment(leduc, 1, batch=8, seed=9)
        ts = env.reset()
        trace = [ts.infoset.copy()]
        for _ in range(20):
            ts = env.step(np.zeros(8, dtype=np.int64) + (ts.legal.sum(1) - 1))
            trace.append(ts.infoset.copy())
            trace.append(ts.reward.copy())
        runs.append(np.concatenate(trace))
    assert np.array_equal(*runs)


def test_environment_refuses_bad_use(leduc):
    env = Environment(leduc, 0, batch=2)
    with pytest.raises(ZerosumError, match="reset"):
        env.step([0, 0])
    ts = env.reset()
    bad = ts.legal.sum(1)  # one past the last legal action
    with pytest.raises(ZerosumError, match="not legal"):
        env.step(bad)
    with pytest.raises(ZerosumError, match="2 actions"):
        env.step([0])
    with pytest.raises(ZerosumError, match="player"):
        Environment(leduc, 2)
    with pytest.raises(ZerosumError, match="meta-probabilities"):
        Mixture(leduc, 0, [leduc.treeplexes[1].uniform()], [-1.0])


def test_features_tell_information_sets_apart_and_reach_the_environment(leduc):
    for p in (0, 1):
        f = infoset_features(leduc, p)
        assert len({row.tobytes() for row in f}) == leduc.treeplexes[p].n_infosets
    f = infoset_features(leduc, 0)
    i = leduc.treeplexes[0].index["KQ:rc/cr"]
    # private K, public Q, round 1 "rc", round 2 "cr": six ones
    assert f[i].sum() == 6
    env = Environment(leduc, 0, batch=4, features=f)
    ts = env.reset()
    assert np.array_equal(ts.features, f[ts.infoset])


def test_openspiel_features_are_its_information_state_tensors():
    pyspiel = pytest.importorskip("pyspiel")
    g = compiled(load_game("openspiel:leduc_poker"))
    f = infoset_features(g, 1)
    game = pyspiel.load_game("leduc_poker")
    s2 = game.new_initial_state()
    s2.apply_action(0)
    s2.apply_action(3)
    s2.apply_action(1)  # player 0 calls: player 1 to act
    i = g.treeplexes[1].index[s2.information_state_string()]
    assert np.array_equal(f[i], np.array(s2.information_state_tensor(), dtype=np.float32))
