"""DCFR's ``restart_until=M``: the average restarts at the powers of ``restart`` up to M only (hold'em's
default: 4, 16 and 64), so a run is ``restart``'s alone up to the next power after M, bit for bit,
and its average keeps growing after; one-line refusals."""

from __future__ import annotations

import numpy as np
import pytest

from zerosum import load_game
from zerosum.core.compile import compile_game
from zerosum.errors import ZerosumError
from zerosum.public_tree.compile import public_tree
from zerosum.public_tree.solver import public_solver
from zerosum.solvers import SOLVERS
from zerosum.solvers.rules import DCFR


def test_the_restarts_stop_after_the_last_power():
    capped, every = DCFR(restart=4, restart_until=64), DCFR(restart=4)
    assert [t for t in range(1, 1100) if capped.restarts_average(t)] == [4, 16, 64]
    assert [t for t in range(1, 1100) if every.restarts_average(t)] == [4, 16, 64, 256, 1024]
    assert capped.average_weight(300) == (300 - 64 + 1) ** 2 and every.average_weight(300) == (300 - 256 + 1) ** 2
    assert [capped.average_weight(t) for t in range(1, 256)] == [every.average_weight(t) for t in range(1, 256)]
    assert DCFR(restart=4, restart_until=63).average_weight(100) == (100 - 16 + 1) ** 2


def test_a_capped_run_is_the_restarted_one_until_the_next_power():
    cg = compile_game(load_game("kuhn"))
    a, b = SOLVERS["dcfr"](cg, restart=4, restart_until=16), SOLVERS["dcfr"](cg, restart=4)
    a.iterate(63)
    b.iterate(63)
    assert all(np.array_equal(x, y) for x, y in zip(a.average_plan, b.average_plan))
    a.iterate(1)  # iteration 64: b empties its average, a does not
    b.iterate(1)
    assert not np.allclose(a.average_plan[0], b.average_plan[0])
    tree = public_tree(load_game("poker"))
    c, d = (public_solver("dcfr", tree, restart=4, restart_until=m) for m in (16, 0))
    c.iterate(63)
    d.iterate(63)
    assert all(np.array_equal(x, y) for x, y in zip(c.average, d.average))
    c.iterate(1)
    d.iterate(1)
    assert not np.allclose(c.average[0], d.average[0])


@pytest.mark.parametrize("bad", [-1, 1.5, True])
def test_refusals(bad):
    with pytest.raises(ZerosumError, match="restart_until must be a whole number"):
        DCFR(restart=4, restart_until=bad)
