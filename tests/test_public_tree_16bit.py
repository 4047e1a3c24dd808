"""16-bit storage on the public tree (``dtype="int16"``): the encoding's error bound against the
float32 run, convergence and value against float32, threads and resume bit for bit, and the
one-line refusals."""

from __future__ import annotations

import numpy as np
import pytest

from zerosum.errors import ZerosumError
from zerosum.poker.holdem import HoldemGame
from zerosum.public_tree.compile import public_tree
from zerosum.public_tree.solver import public_solver

TURN = HoldemGame(board="Ks7d2c9h", range0="TT+,AQs+,KQs,98s,76s", range1="99+,AJs+,KJs+,T9s,65s")


@pytest.fixture(scope="module")
def turn():
    return public_tree(TURN)


def _decoded(solver, p):
    """Player p's regrets and average sums as floats: each entry's integer times its node's scale."""
    tree = solver.tree
    n = tree.n_hands[p]
    r = solver.regrets[p].astype(np.float64)
    a = solver.average[p].astype(np.float64)
    rs, as_ = np.zeros(len(r)), np.zeros(len(a))
    for node in tree.decision_nodes(p):
        o, size = tree.offset[node], tree.n_children[node] * n
        rs[o:o + size] = solver.scales[p][0, node]
        as_[o:o + size] = solver.scales[p][1, node]
    return r * rs, a * as_, rs, as_


def test_one_iteration_is_the_float_run_rounded_to_half_a_scale(turn):
    """Player 0 updates first, against player 1's zero regrets (uniform) in both runs, so its
    float32 sums after one iteration are exact references: the 16-bit entries must be within half
    their node's scale of them (and the largest entry of each node exactly its integer's top)."""
    f, c = public_solver("dcfr", turn, dtype="float32"), public_solver("dcfr", turn, dtype="int16")
    f.iterate(1)
    c.iterate(1)
    r, a, rs, as_ = _decoded(c, 0)
    assert np.all(np.abs(r - f.regrets[0]) <= 0.5 * rs * (1 + 1e-5) + 1e-7)
    assert np.all(np.abs(a - f.average[0]) <= 0.5 * as_ * (1 + 1e-5) + 1e-7)
    assert np.abs(c.regrets[0]).max() == 32767 and c.average[0].max() == 65535
    assert (rs > 0).any() and np.abs(r - f.regrets[0]).max() > 0  # rounding happened: the check is not empty


def test_converges_with_the_float_run_and_halves_the_arrays(turn):
    """DCFR x 200: the 16-bit run's average is an epsilon-equilibrium of the same game as the float
    run's (values agree within the two NashConvs), its NashConv within 2x the float run's, and
    its sums take 4 bytes an entry against 8."""
    f, c = public_solver("dcfr", turn, dtype="float32"), public_solver("dcfr", turn, dtype="int16")
    f.iterate(200)
    c.iterate(200)
    a, b = f.checkpoint(), c.checkpoint()
    assert b["nash_conv_average"] < 2.0 * a["nash_conv_average"], (a, b)
    assert abs(a["value_average"] - b["value_average"]) <= a["nash_conv_average"] + b["nash_conv_average"]
    assert sum(x.nbytes for x in c.regrets + c.average) * 2 == sum(x.nbytes for x in f.regrets + f.average)


def test_threads_and_resume_bit_for_bit(turn, tmp_path):
    one, two = public_solver("dcfr", turn, dtype="int16"), public_solver("dcfr", turn, dtype="int16", threads=2)
    one.iterate(6)
    two.iterate(6)
    for p in (0, 1):
        assert np.array_equal(one.regrets[p], two.regrets[p]) and np.array_equal(one.average[p], two.average[p])
        assert np.array_equal(one.scales[p], two.scales[p])
    np.savez(tmp_path / "s.npz", **one.state_dict())
    resumed = public_solver("dcfr", turn, dtype="int16")
    resumed.load_state_dict(dict(np.load(tmp_path / "s.npz")))
    one.iterate(4)
    resumed.iterate(4)
    for p in (0, 1):
        assert np.array_equal(one.regrets[p], resumed.regrets[p]) and np.array_equal(one.scales[p], resumed.scales[p])
        assert np.array_equal(one.average[p], resumed.average[p])
    with pytest.raises(ZerosumError, match="dtype=int16"):
        public_solver("dcfr", turn, dtype="float32").load_state_dict(dict(np.load(tmp_path / "s.npz")))


def test_refusals(turn):
    with pytest.raises(ZerosumError, match=r"pcfr\+ does not run with 16-bit storage \(--option dtype=int16 or dtype=avg16\); these do: cfr, cfr\+, lcfr, dcfr, hs-dcfr"):
        public_solver("pcfr+", turn, dtype="int16")
    with pytest.raises(ZerosumError, match="pcs-mccfr"):
        public_solver("pcs-mccfr", turn, dtype="int16")
    with pytest.raises(ZerosumError, match="float64, float32, int16 .* or avg16"):
        public_solver("dcfr", turn, dtype="int8")
    from zerosum.public_tree.locking import NodeLocks, lock_solver

    with pytest.raises(ZerosumError, match="16-bit"):
        lock_solver(public_solver("dcfr", turn, dtype="int16"), NodeLocks.__new__(NodeLocks))
