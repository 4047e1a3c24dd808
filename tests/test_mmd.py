"""Dilated magnetic mirror descent: agreement with OpenSpiel's implementation, convergence."""

import numpy as np
import pytest

import zerosum
from zerosum.compiled import compiled
from zerosum.errors import ZerosumError
from zerosum.solvers.mmd import MMDSolver


@pytest.mark.parametrize("name", ["kuhn_poker", "leduc_poker"])
def test_same_iterates_as_openspiel_mmd_dilated(name):
    """OpenSpiel regularizes with the dilated entropy itself, which is B_psi(x; rho) for the
    unnormalized log-magnet ln rho(I, a) = (#information sets under (I, a)) - 1."""
    pyspiel = pytest.importorskip("pyspiel")
    mmd_dilated = pytest.importorskip("open_spiel.python.algorithms.mmd_dilated")
    game = pyspiel.load_game(name)
    ref = mmd_dilated.MMDDilatedEnt(game, 0.1, stepsize=0.5)
    g = compiled(zerosum.load_game("openspiel:" + name))
    ours = MMDSolver(g, alpha=0.1, eta=0.5, schedule="constant")
    for p, t in enumerate(g.treeplexes):
        m = np.bincount(t.infoset_parent, minlength=t.n_sequences) - 1.0
        m[0] = 0.0
        ours.log_magnet[p] = m
    for _ in range(5):
        ref.update_sequences()
        ours.iterate()
    pol = ref.get_policies()
    for p, t in enumerate(g.treeplexes):
        for i, label in enumerate(t.infoset_labels):
            probs = pol.policy_for_key(label)
            theirs = [probs[a] for a in range(len(probs)) if probs[a] > 0]
            f = t.infoset_first[i]
            np.testing.assert_allclose(ours.strategy[p][f:f + t.infoset_size[i]], theirs, atol=1e-12)


def test_last_iterate_converges_on_kuhn():
    rows = MMDSolver(zerosum.load_game("kuhn")).run(3000, [100, 3000])
    assert rows[-1]["nash_conv_current"] < 0.015
    assert rows[-1]["nash_conv_current"] < rows[0]["nash_conv_current"] / 3


def test_constant_schedule_reaches_a_fixed_point():
    s = MMDSolver(zerosum.load_game("kuhn"), alpha=0.5, eta=1.0, schedule="constant")
    s.iterate(2000)
    before = [pi.copy() for pi in s.strategy]
    s.iterate(1)
    for a, b in zip(before, s.strategy):
        np.testing.assert_allclose(a, b, atol=1e-10)


def test_strategies_are_distributions():
    s = MMDSolver(zerosum.load_game("leduc"), magnet_lr=0.1)
    s.iterate(50)
    for t, pi in zip(s.trees, s.strategy):
        sums = np.add.reduceat(pi[1:], t.segment_starts)
        np.testing.assert_allclose(sums, 1.0, atol=1e-12)
        assert np.all(pi > 0)


@pytest.mark.parametrize("kwargs", [{"schedule": "cosine"}, {"magnet_lr": 2}, {"eta": 0}, {"alpha": -1}])
def test_bad_options(kwargs):
    with pytest.raises(ZerosumError):
        MMDSolver(zerosum.load_game("kuhn"), **kwargs)
