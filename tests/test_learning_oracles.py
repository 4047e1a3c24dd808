"""Tabular learned oracles: exact oracle error, sanity at large budgets, reproducibility."""

import numpy as np
import pytest

from zerosum import CFRPlusSolver, ZerosumError, best_response_value, compiled, load_game
from zerosum.core.evaluation import expected_value
from zerosum.core.policy import TabularPolicy
from zerosum.core.sequence_form import realization_plan
from zerosum.learning.oracle import make_oracle, oracle_error
from zerosum.learning.simulator import Mixture
from zerosum.solvers.psro import best_response_oracle


@pytest.fixture(scope="module")
def kuhn():
    return compiled(load_game("kuhn"))


@pytest.fixture(scope="module")
def leduc():
    return compiled(load_game("leduc"))


@pytest.fixture(scope="module")
def leduc_cfr(leduc):
    s = CFRPlusSolver(leduc)
    s.run(300)
    return s.average_policy().probs


def _error(game, player, opponent, name, hands, seed=1, **options):
    oracle = make_oracle(name, game, hands, seed, **options)
    r = oracle.respond(player, Mixture(game, player, [opponent]))
    plan = realization_plan(game.treeplexes[1 - player], opponent)
    return oracle_error(game, player, plan, r.strategy), r


def test_oracle_error_is_best_response_value_minus_the_responses_value(leduc):
    u = [t.uniform() for t in leduc.treeplexes]
    plan1 = realization_plan(leduc.treeplexes[1], u[1])
    _, br = best_response_oracle(leduc, 0, plan1)
    assert oracle_error(leduc, 0, plan1, br) == pytest.approx(0.0, abs=1e-12)
    pol = TabularPolicy(leduc, u)
    expected = best_response_value(leduc, pol, 0) - expected_value(leduc, pol)
    assert oracle_error(leduc, 0, plan1, u[0]) == pytest.approx(expected, abs=1e-12)
    assert expected > 1.0
    pol1 = TabularPolicy(leduc, [u[0], u[1]])
    plan0 = realization_plan(leduc.treeplexes[0], u[0])
    assert oracle_error(leduc, 1, plan0, u[1]) == pytest.approx(
        best_response_value(leduc, pol1, 1) + expected_value(leduc, pol1), abs=1e-12)


@pytest.mark.parametrize("name", ["q-learning", "policy-gradient"])
@pytest.mark.parametrize("player", [0, 1])
def test_large_budget_finds_a_best_response_on_kuhn(kuhn, name, player):
    u = kuhn.treeplexes[1 - player].uniform()
    err, r = _error(kuhn, player, u, name, 100_000)
    assert 0 <= err < 0.01
    assert r.hands == 100_000


@pytest.mark.parametrize("name", ["q-learning", "policy-gradient"])
def test_tabular_oracles_on_leduc_err_below_a_cent_with_a_million_hands(leduc, leduc_cfr, name):
    """The sanity goal: mean error over both players under a cent against uniform and CFR+'s average."""
    for opponents in ([t.uniform() for t in leduc.treeplexes], leduc_cfr):
        big = [_error(leduc, p, opponents[1 - p], name, 1_000_000)[0] for p in (0, 1)]
        assert min(big) >= -1e-12 and np.mean(big) < 0.01 and max(big) < 0.02
    for player in (0, 1):
        small, _ = _error(leduc, player, leduc.treeplexes[1 - player].uniform(), name, 1000)
        assert small > 0.05  # a thousand hands are visibly not enough


@pytest.mark.parametrize("name", ["q-learning", "policy-gradient"])
def test_same_seed_same_response_bit_for_bit(leduc, name):
    u = leduc.treeplexes[0].uniform()
    mix = Mixture(leduc, 1, [u])
    runs = []
    for seed, stream in ((4, 7), (4, 7), (5, 7), (4, 8)):
        oracle = make_oracle(name, leduc, 3000, seed=seed)
        runs.append((oracle.respond(1, mix, stream=stream).strategy, oracle.table))
    assert np.array_equal(runs[0][0], runs[1][0]) and np.array_equal(runs[0][1], runs[1][1])
    assert not np.array_equal(runs[0][1], runs[2][1])  # another seed: other hands, other values
    assert not np.array_equal(runs[0][1], runs[3][1])  # another stream too


def test_policy_gradient_critic_is_reproducible_and_picks_its_best_tried_action(leduc):
    mix = Mixture(leduc, 1, [leduc.treeplexes[0].uniform()])
    a, b = (make_oracle("policy-gradient", leduc, 3000, seed=2) for _ in range(2))
    pa, pb = a.respond(1, mix, stream=3).strategy, b.respond(1, mix, stream=3).strategy
    assert np.array_equal(pa, pb) and np.array_equal(a.critic, b.critic) and np.array_equal(a.tried, b.tried)
    tree = leduc.treeplexes[1]
    for i in range(tree.n_infosets):
        g, n = int(tree.infoset_first[i]), int(tree.infoset_size[i])
        tried = a.tried[g:g + n] > 0
        if tried.any():
            best = g + int(np.argmax(np.where(tried, a.critic[g:g + n], -np.inf)))
            assert pa[best] == 1.0 and pa[g:g + n].sum() == 1.0
        else:
            np.testing.assert_allclose(pa[g:g + n], 1.0 / n)
    soft = make_oracle("policy-gradient", leduc, 3000, seed=2, output="softmax").respond(1, mix, stream=3).strategy
    assert not np.array_equal(soft, pa)  # the softmax keeps weight on several actions


def test_responses_are_strategies(leduc):
    mix = Mixture(leduc, 0, [leduc.treeplexes[1].uniform()])
    tree = leduc.treeplexes[0]
    for name in ("q-learning", "policy-gradient"):
        pi = make_oracle(name, leduc, 2000).respond(0, mix).strategy
        sums = np.add.reduceat(pi[1:], tree.infoset_first - 1)
        np.testing.assert_allclose(sums, 1.0, atol=1e-12)
        assert np.all(pi >= 0)


def test_bad_oracle_input(leduc):
    with pytest.raises(ZerosumError, match="unknown oracle 'sarsa'"):
        make_oracle("sarsa", leduc)
    with pytest.raises(ZerosumError, match="hands must be a positive integer"):
        make_oracle("q-learning", leduc, 0)
    with pytest.raises(ZerosumError, match="no option learning_rate"):
        make_oracle("q-learning", leduc, 10, learning_rate=0.1)
    with pytest.raises(ZerosumError, match="targets must be one of td, mc"):
        make_oracle("q-learning", leduc, 10, targets="sarsa")
    with pytest.raises(ZerosumError, match="learning_rate must be a positive number"):
        make_oracle("policy-gradient", leduc, 10, learning_rate=-1)


def test_q_learning_on_an_openspiel_game():
    pytest.importorskip("pyspiel")
    g = compiled(load_game("openspiel:kuhn_poker"))
    for player in (0, 1):
        err, _ = _error(g, player, g.treeplexes[1 - player].uniform(), "q-learning", 20_000)
        assert -1e-12 <= err < 0.01
