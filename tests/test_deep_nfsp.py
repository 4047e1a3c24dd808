"""NFSP on Kuhn with tiny budgets (needs the ``deep`` extra)."""

import numpy as np
import pytest

from zerosum import ZerosumError, compiled, load_game

pytest.importorskip("jax", reason="NFSP needs the 'deep' extra (JAX, Optax)")
pytest.importorskip("optax", reason="NFSP needs the 'deep' extra (JAX, Optax)")

from zerosum.deep.nfsp import NFSPSolver, _self_play

TINY = {"hands": 64, "updates": 2, "batch": 32, "replay": 2000, "reservoir": 5000, "hidden": 16}


@pytest.fixture(scope="module")
def kuhn():
    return compiled(load_game("kuhn"))


def _drop_cpu(rows):
    return [{k: v for k, v in r.items() if k != "cpu_seconds"} for r in rows]


def test_same_seed_same_numbers_and_resume(kuhn):
    a = NFSPSolver(kuhn, seed=1, **TINY).run(30, [10, 30])
    b = NFSPSolver(kuhn, seed=1, **TINY).run(30, [10, 30])
    c = NFSPSolver(kuhn, seed=2, **TINY).run(30, [30])
    assert _drop_cpu(a) == _drop_cpu(b)
    assert a[-1]["nash_conv_average"] != c[-1]["nash_conv_average"]
    assert a[-1]["episodes"] == 30 * 64
    half = NFSPSolver(kuhn, seed=1, **TINY)
    half.run(10)
    back = NFSPSolver(kuhn, seed=1, **TINY)
    back.load_state_dict(half.state_dict())
    assert _drop_cpu(back.run(30)[-1:]) == _drop_cpu(a[-1:])
    with pytest.raises(ZerosumError, match="anticipatory=0.1"):
        NFSPSolver(kuhn, anticipatory=0.2, **TINY).load_state_dict(half.state_dict())


def test_self_play_records_what_each_mode_should(kuhn):
    """With eta = 1 every action is a best-response action: the reservoir gets one sample per
    decision; with eta = 0 it gets none.  Each hand ends with one terminal transition per player
    that acted, carrying that player's scaled payoff (zero-sum: the two sum to zero per hand)."""
    s = NFSPSolver(kuhn, seed=3, **TINY)
    br, avg = s._tables(0.5)
    tree = kuhn.tree
    for eta, expect_samples in ((1.0, True), (0.0, False)):
        rl = {k: np.zeros_like(v) for k, v in s.rl.items()}
        sl = {k: np.zeros_like(v) for k, v in s.sl.items()}
        nodes = _self_play(tree.player, tree.infoset, s.seq0, tree.first_child, tree.n_children, tree.edge_prob,
                           tree.payoff, s.scale, br, avg, eta, 3, 1, 100, rl["ids"], rl["act"], rl["rew"], rl["next"],
                           rl["live"], rl["pos"], rl["size"], sl["ids"], sl["targets"], sl["seen"])
        decisions = int(rl["size"].sum())
        assert nodes == decisions + 100  # every decision is one transition; plus 100 terminals
        assert (sl["seen"].sum() == decisions) if expect_samples else sl["seen"].sum() == 0
        ends = [rl["rew"][p][:rl["size"][p]][~rl["live"][p][:rl["size"][p]]] for p in (0, 1)]
        assert len(ends[0]) == len(ends[1]) == 100
        assert np.allclose(ends[0] + ends[1], 0.0)
        assert set(np.round(np.abs(ends[0]) * s.scale).astype(int)) <= {1, 2}


def test_bad_options(kuhn):
    with pytest.raises(ZerosumError, match="hands must be a positive integer"):
        NFSPSolver(kuhn, hands=0)
    with pytest.raises(ZerosumError, match="anticipatory must be a number in"):
        NFSPSolver(kuhn, anticipatory=1.5)
