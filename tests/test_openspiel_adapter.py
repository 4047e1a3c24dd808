import numpy as np
import pytest
from helpers import random_policy

import zerosum

pyspiel = pytest.importorskip("pyspiel")


def test_adapter_sizes_and_labels_are_openspiels():
    game = zerosum.load_game("openspiel:kuhn_poker")
    cg = zerosum.compiled(game)
    assert cg.sizes()["infosets"] == [6, 6] and cg.n_histories == 58
    assert set(cg.treeplexes[0].infoset_labels) == {"0", "1", "2", "0pb", "1pb", "2pb"}
    assert game.id == "openspiel:kuhn_poker"


def test_exported_python_policy_has_the_same_nash_conv():
    from open_spiel.python.algorithms import exploitability

    from zerosum.games.openspiel import to_openspiel_policy

    game = zerosum.load_game("openspiel:leduc_poker")
    policy = random_policy(zerosum.compiled(game), np.random.default_rng(4))
    exported = to_openspiel_policy(policy, game)
    assert abs(exploitability.nash_conv(game.game, exported) - zerosum.nash_conv(game, policy)) < 1e-9


def test_rank_leduc_and_openspiel_leduc_have_the_same_value():
    """Suits never matter: the rank-only Leduc and OpenSpiel's six-card Leduc share the game value,
    so CFR+ on both gives the same value after enough iterations."""
    ours = zerosum.CFRPlusSolver(zerosum.load_game("leduc"))
    theirs = zerosum.CFRPlusSolver(zerosum.load_game("openspiel:leduc_poker"))
    ours.iterate(300)
    theirs.iterate(300)
    assert abs(ours.checkpoint()["value_average"] - theirs.checkpoint()["value_average"]) < 1e-3


def test_non_zero_sum_or_simultaneous_games_are_refused():
    with pytest.raises(zerosum.ZerosumError, match="not zero-sum|players"):
        zerosum.load_game("openspiel:matrix_pd")
    with pytest.raises(zerosum.ZerosumError, match="players"):
        zerosum.load_game("openspiel:kuhn_poker(players=3)")
