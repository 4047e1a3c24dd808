"""Policies checked against their game: a policy of another game (tabular or public-tree), a
player out of range, or probabilities that are negative or do not sum to 1 each raise one
``ZerosumError``, and the check changes nothing on the right game."""

import pytest


def test_policy_of_another_game_is_one_error():
    import zerosum

    kuhn, leduc = zerosum.load_game("kuhn"), zerosum.load_game("leduc")
    kuhn_policy = zerosum.TabularPolicy.uniform(kuhn)
    for f in (zerosum.nash_conv, zerosum.exploitability, zerosum.evaluate, zerosum.expected_value):
        with pytest.raises(zerosum.ZerosumError, match="for game 'kuhn', not 'leduc'"):
            f(leduc, kuhn_policy)
    with pytest.raises(zerosum.ZerosumError, match="for game 'kuhn', not 'leduc'"):
        zerosum.best_response_value(leduc, kuhn_policy, 0)
    with pytest.raises(zerosum.ZerosumError, match="player must be 0 or 1"):
        zerosum.best_response_value(kuhn, kuhn_policy, 2)
    with pytest.raises(zerosum.ZerosumError, match="expected a TabularPolicy"):
        zerosum.nash_conv(kuhn, kuhn_policy.probs)
    # the check costs nothing on the right game: Kuhn's uniform NashConv, exactly
    assert zerosum.nash_conv(kuhn, kuhn_policy) == pytest.approx(11 / 12, abs=1e-12)


def test_public_policy_of_another_game_is_refused():
    import zerosum
    from zerosum.core.compile import compile_game
    from zerosum.public_tree.compile import public_tree
    from zerosum.public_tree.solver import public_solver

    kuhn = zerosum.load_game("poker", ranks=3, copies=1, rounds=1, raises=1, bets=[1])
    leduc = zerosum.load_game("leduc")
    policy = public_solver("cfr+", public_tree(kuhn)).average_policy()
    # on its own game it converts (and agrees with the public tree's own NashConv) ...
    cg = compile_game(kuhn)
    assert zerosum.nash_conv(cg, policy.to_tabular(cg)) == pytest.approx(policy.evaluate()["nash_conv"], abs=1e-9)
    # ... on Leduc it used to come back silently uniform on every information set it missed
    with pytest.raises(zerosum.ZerosumError, match="does not cover"):
        policy.to_tabular(compile_game(leduc))
    with pytest.raises(zerosum.ZerosumError, match="another game"):
        type(policy)(public_tree(zerosum.load_game("poker")), policy.probs)


def test_unnormalised_or_negative_policy_is_refused():
    import numpy as np

    import zerosum

    kuhn = zerosum.load_game("kuhn")
    good = zerosum.TabularPolicy.uniform(kuhn)
    for change in (lambda pi: pi.__setitem__(1, pi[1] * 3),  # sums to 2 at one information set
                   lambda pi: pi.__setitem__(slice(1, 3), [1.5, -0.5])):  # sums to 1, one negative
        probs = [p.copy() for p in good.probs]
        change(probs[0])
        with pytest.raises(zerosum.ZerosumError, match="must be >= 0 and sum to 1"):
            zerosum.TabularPolicy(kuhn, probs)
    # a valid policy still goes through, bit for bit
    assert np.array_equal(zerosum.TabularPolicy(kuhn, good.probs).probs[1], good.probs[1])
