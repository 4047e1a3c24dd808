"""The DQN oracle (needs the ``deep`` extra: JAX and Optax)."""

import numpy as np
import pytest

from zerosum import CFRPlusSolver, ZerosumError, compiled, load_game
from zerosum.core.sequence_form import realization_plan
from zerosum.learning.oracle import SANITY_OPTIONS, make_oracle, oracle_error
from zerosum.learning.simulator import Mixture
from zerosum.solvers.psro import PSROSolver

jax = pytest.importorskip("jax", reason="the dqn oracle needs the 'deep' extra (JAX, Optax)")
pytest.importorskip("optax", reason="the dqn oracle needs the 'deep' extra (JAX, Optax)")


@pytest.fixture(scope="module")
def kuhn():
    return compiled(load_game("kuhn"))


@pytest.mark.parametrize("player", [0, 1])
def test_dqn_finds_a_best_response_to_uniform_on_kuhn(kuhn, player):
    u = kuhn.treeplexes[1 - player].uniform()
    oracle = make_oracle("dqn", kuhn, 10_000, seed=1)
    r = oracle.respond(player, Mixture(kuhn, player, [u]))
    err = oracle_error(kuhn, player, realization_plan(kuhn.treeplexes[1 - player], u), r.strategy)
    assert -1e-12 <= err < 0.01
    assert 10_000 <= r.hands < 10_000 + 64  # the budget, plus the hands still in flight


@pytest.mark.parametrize("player", [0, 1])
def test_dqn_large_budget_setting_finds_best_responses_to_uniform_and_cfr_on_kuhn(kuhn, player):
    """The sanity table's setting (one-hot inputs, a buffer that keeps every transition, Double DQN,
    a decaying step) is under a cent against both fixed opponents at 10^4 hands, and not at 10^3."""
    cfr = CFRPlusSolver(kuhn)
    cfr.run(300)
    opponents = {"uniform": kuhn.treeplexes[1 - player].uniform(), "cfr": cfr.average_policy().probs[1 - player]}
    small = []
    for opp in opponents.values():
        mix, plan = Mixture(kuhn, player, [opp]), realization_plan(kuhn.treeplexes[1 - player], opp)
        for seed in (1, 2):
            r = make_oracle("dqn", kuhn, 10_000, seed, **SANITY_OPTIONS["dqn"]).respond(player, mix)
            assert -1e-12 <= oracle_error(kuhn, player, plan, r.strategy) < 0.01
        for seed in (1, 3):
            r = make_oracle("dqn", kuhn, 1000, seed, **SANITY_OPTIONS["dqn"]).respond(player, mix)
            small.append(oracle_error(kuhn, player, plan, r.strategy))
    assert max(small) > 0.05  # a thousand hands are visibly not enough


def test_dqn_same_seed_same_network_bit_for_bit(kuhn):
    mix = Mixture(kuhn, 0, [kuhn.treeplexes[1].uniform()])
    leaves = []
    for seed in (3, 3, 4):
        o = make_oracle("dqn", kuhn, 1500, seed=seed)
        o.respond(0, mix, stream=2)
        leaves.append(np.concatenate([np.ravel(np.asarray(x)) for x in jax.tree_util.tree_leaves(o.params)]))
    assert np.array_equal(leaves[0], leaves[1])
    assert not np.array_equal(leaves[0], leaves[2])


def test_psro_with_the_dqn_oracle_is_reproducible(kuhn):
    runs = [PSROSolver(kuhn, "nash", oracle="dqn", hands=500, seed=2).run(3, [3]) for _ in range(2)]
    assert runs[0] == runs[1]
    assert runs[0][-1]["hands"] >= 2 * 2 * 500


def test_dqn_bad_options(kuhn):
    with pytest.raises(ZerosumError, match="hidden must be a positive integer"):
        make_oracle("dqn", kuhn, 100, hidden=0)
    with pytest.raises(ZerosumError, match="no option epsilon"):
        make_oracle("dqn", kuhn, 100, epsilon=0.1)


def test_dqn_step_schedule_network_average_and_double_are_reproducible_and_change_the_network(kuhn):
    mix = Mixture(kuhn, 0, [kuhn.treeplexes[1].uniform()])

    def leaves(**options):
        o = make_oracle("dqn", kuhn, 1500, seed=3, **options)
        r = o.respond(0, mix, stream=2)
        return np.concatenate([np.ravel(np.asarray(x)) for x in jax.tree_util.tree_leaves(o.params)]), r.strategy

    plain = leaves()
    assert np.array_equal(plain[0], leaves(lr_end=1.0, average=0.0)[0])  # the defaults are these
    for options in ({"lr_end": 0.05}, {"average": 0.3}, {"double": True}):
        a, b = leaves(**options), leaves(**options)
        assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
        assert not np.array_equal(a[0], plain[0])
    with pytest.raises(ZerosumError, match="average must be a number in"):
        make_oracle("dqn", kuhn, 100, average=1.5)
    with pytest.raises(ZerosumError, match="double must be true or false"):
        make_oracle("dqn", kuhn, 100, double="yes")
