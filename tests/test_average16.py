"""``dtype="avg16"``: the average's sums in 16 bits, the regrets in float32 (the default past
``AVG16_FROM`` entries: a flop).  The regrets, so every strategy played, are the float32 run's bit
for bit, in one and two threads; the average is float32's to within its 16-bit rounding; each
node's scale bounds its block (no code past 65535, the stored largest value the block's); the
average restarts with both rows of its scales; and the default picks avg16 only where the run
can keep it."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from zerosum.errors import ZerosumError
from zerosum.poker.holdem import HoldemGame
from zerosum.public_tree.compile import public_tree
from zerosum.public_tree.form import DECISION
from zerosum.public_tree.policy import normalized
from zerosum.public_tree.solver import AVG16_FROM, FLOAT32_FROM, default_dtype, public_solver
from zerosum.public_tree.terminals import SWEEP

#: a small hold'em turn (1,305 public nodes, 15 and 21 hands), as tests/test_pruning.py's
TURN = {"board": "Ks7d2c9h", "range0": "AA,KK,T9s,76s", "range1": "QQ,AK,98s", "raises": 1}


@pytest.fixture(scope="module")
def tree():
    return public_tree(HoldemGame(**TURN))


def _p_nodes(tree, p):
    return np.flatnonzero((tree.kind == DECISION) & (tree.player == p))


@pytest.mark.parametrize("threads", [1, 2])
def test_the_regrets_are_float32s_and_the_average_its_rounding(tree, threads):
    f32 = public_solver("dcfr", tree, dtype="float32", threads=threads, restart=4)
    a16 = public_solver("dcfr", tree, dtype="avg16", threads=threads, restart=4)
    assert a16.regrets[0].dtype == np.float32 and a16.average[0].dtype == np.uint16
    for _ in range(3):
        f32.iterate(10)
        a16.iterate(10)
        assert all(np.array_equal(a, b) for a, b in zip(f32.regrets, a16.regrets))
        for p in (0, 1):  # the average strategies: float32's to within the codes' rounding
            want, got = normalized(tree, p, f32.average[p]), normalized(tree, p, a16.average[p])
            assert np.max(np.abs(want - got)) < 2e-3
            assert not np.array_equal(want, got)  # (16 bits are not float32: the test sees the codes)
        nc32, nc16 = f32.checkpoint()["nash_conv_average"], a16.checkpoint()["nash_conv_average"]
        assert abs(nc16 - nc32) <= 1e-3 * nc32


def test_each_scale_bounds_its_block(tree):
    a16 = public_solver("dcfr", tree, dtype="avg16", restart=4)
    a16.iterate(12)
    for p in (0, 1):
        n = tree.n_hands[p]
        scales, codes = a16.scales[p], a16.average[p]
        for node in _p_nodes(tree, p):
            o, na = int(tree.offset[node]), int(tree.n_children[node])
            block = codes[o:o + na * n].astype(np.float64)
            top = block.max() * scales[1, node]
            assert block.max() <= 65535
            assert np.isclose(scales[0, node], top, rtol=1e-6)  # the largest value, kept for the next bound
            # the bound is not far above the block (the scale uses most of the 16 bits)
            if top > 0:
                assert block.max() >= 65535 / 4


def test_the_restart_empties_both_rows(tree):
    a16 = public_solver("dcfr", tree, dtype="avg16", restart=4)
    a16.iterate(3)
    assert a16.scales[0][0].any() and a16.scales[0][1].any()
    a16.iterate(1)  # iteration 4: the average restarts, then grows once
    f32 = public_solver("dcfr", tree, dtype="float32", restart=4)
    f32.iterate(4)
    for p in (0, 1):
        want, got = normalized(tree, p, f32.average[p]), normalized(tree, p, a16.average[p])
        assert np.max(np.abs(want - got)) < 1e-3  # one iteration's average: no trace of iterations 1-3


def _stub(entries: int):
    return SimpleNamespace(terminals=SimpleNamespace(kind=SWEEP), infoset_actions=lambda: [entries // 2, entries // 2])


def test_the_default_is_avg16_where_the_run_can_keep_it():
    flop, turn, small = _stub(AVG16_FROM + 2), _stub(FLOAT32_FROM + 2), _stub(1000)
    assert default_dtype(flop, "dcfr") == "avg16"
    assert default_dtype(flop, "pcfr+") == "float32"  # a predictive variant stores float strategies
    assert default_dtype(flop, "dcfr", floats=True) == "float32"  # node locks write float sums
    assert default_dtype(flop) == "float32"  # (no algorithm: the Ray split, re-solving)
    assert default_dtype(turn, "dcfr") == "float32" and default_dtype(small, "dcfr") == "float64"


def test_avg16_is_refused_where_16_bits_are(tree):
    with pytest.raises(ZerosumError, match="16-bit storage"):
        public_solver("pcfr+", tree, dtype="avg16")
    with pytest.raises(ZerosumError, match="avg16"):
        public_solver("dcfr", tree, dtype="avg8")
