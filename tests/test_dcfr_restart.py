"""DCFR's ``restart=B`` (the average starts again at B, B^2, ...): the weights at hand-computed
points, the average right after a restart equal to that iteration's strategy, the same run on both
forms (Leduc, float64, and in 16-bit storage within its bound), resume across a restart bit for
bit, an old state without the parameter still resuming, and one-line refusals."""

from __future__ import annotations

import numpy as np
import pytest

from zerosum import load_game
from zerosum.core.compile import compile_game
from zerosum.errors import ZerosumError
from zerosum.public_tree.compile import public_tree
from zerosum.public_tree.solver import public_solver
from zerosum.resolving.depth_limited import TruncatedGame, TruncatedSolver
from zerosum.solvers import SOLVERS
from zerosum.solvers.rules import DCFR


def test_weights_and_restart_points():
    v = DCFR(restart=4)
    assert [t for t in range(1, 70) if v.restarts_average(t)] == [4, 16, 64]
    assert [v.average_weight(t) for t in (1, 3, 4, 5, 15, 16, 20)] == [1.0, 9.0, 1.0, 4.0, 144.0, 1.0, 25.0]
    plain = DCFR()
    assert not plain.restarts and not any(plain.restarts_average(t) for t in range(1, 100))
    assert plain.average_weight(7) == 49.0
    assert DCFR(restart=4) == DCFR(restart=4) and DCFR(restart=4) != DCFR()


def test_the_average_right_after_a_restart_is_that_iterations_strategy():
    cg = compile_game(load_game("kuhn"))
    s = SOLVERS["dcfr"](cg, restart=4)
    s.iterate(3)
    plan = [p.copy() for p in s.plan]  # what iteration 4 plays
    s.iterate(1)
    for p in (0, 1):
        assert np.allclose(s.average_plan[p], plan[p], rtol=0, atol=1e-15)
    plain = SOLVERS["dcfr"](cg)
    plain.iterate(4)
    assert not np.allclose(plain.average_plan[0] / plain.average_plan[0][0], plan[0])


def test_same_run_on_both_forms_and_resume_across_a_restart(tmp_path):
    game = load_game("poker")  # Leduc
    cg, tree = compile_game(game), public_tree(game)
    hist, pub = SOLVERS["dcfr"](cg, restart=4), public_solver("dcfr", tree, restart=4)
    a, b = hist.run(20)[-1], pub.run(20)[-1]
    for key in ("nash_conv_average", "nash_conv_current", "value_average"):
        assert abs(a[key] - b[key]) <= 1e-9, (key, a[key], b[key])
    plain = public_solver("dcfr", tree).run(20)[-1]
    assert abs(plain["nash_conv_average"] - b["nash_conv_average"]) > 1e-6  # the option changes the run

    first = public_solver("dcfr", tree, restart=4)
    first.iterate(14)
    np.savez(tmp_path / "s.npz", **first.state_dict())
    resumed = public_solver("dcfr", tree, restart=4)
    resumed.load_state_dict(dict(np.load(tmp_path / "s.npz")))
    resumed.iterate(6)  # through the restart at 16
    straight = public_solver("dcfr", tree, restart=4)
    straight.iterate(20)
    for p in (0, 1):
        assert np.array_equal(resumed.average[p], straight.average[p])
        assert np.array_equal(resumed.regrets[p], straight.regrets[p])
    with pytest.raises(ZerosumError, match="restart"):
        public_solver("dcfr", tree).load_state_dict(dict(np.load(tmp_path / "s.npz")))

    # a state saved before the option existed (no param_restart) resumes as restart=0
    old = public_solver("dcfr", tree)
    old.iterate(3)
    state = old.state_dict()
    del state["param_restart"]
    again = public_solver("dcfr", tree)
    again.load_state_dict(state)
    assert again.iteration == 3


def test_16_bit_storage_restarts_too():
    tree = public_tree(load_game("holdem", board="Ks7d2c9h", raises=1, range0="AA,KQ,T9s", range1="QQ,AK,J9s"))
    for dtype, tol in (("float64", 1e-12), ("int16", 1e-4)):  # uint16 sums: 1 / 65,535 of a node's largest
        s = public_solver("dcfr", tree, dtype=dtype, restart=4)
        s.iterate(3)
        played = s.current_policy()  # what iteration 4 plays
        s.iterate(1)
        avg = s.average_policy()  # right after the restart: iteration 4's strategy alone
        for p in (0, 1):
            grown = s.average[p] > 0  # (hands that do not reach a node keep empty sums: uniform)
            assert grown.sum() > len(grown) // 10
            assert np.allclose(avg.probs[p][grown], played.probs[p][grown], rtol=0, atol=tol), dtype
        s.iterate(1)
        grown = s.average[0] > 0
        assert not np.allclose(s.average_policy().probs[0][grown], played.probs[0][grown], rtol=0, atol=tol)


def test_refusals():
    for bad in (1, -4, 2.5, True):
        with pytest.raises(ZerosumError, match="restart must be a whole number"):
            DCFR(restart=bad)
    tree = public_tree(load_game("poker"))
    with pytest.raises(ZerosumError, match="restart"):
        TruncatedSolver(TruncatedGame.with_values(tree, 1, None), DCFR(restart=4))
