"""DCFR's ``restart_keep=f`` (issue 53 item 1): at each restart of ``restart=B`` the average's sums
are multiplied by f instead of emptied.  The average computed independently from the plans played
(Kuhn, history tree), the same run on the public tree (Leduc, float64, and 16-bit storage within its
bound), the default (0) the plain restart bit for bit, a saved run's value checked on resume, and
one-line refusals."""

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


def test_the_average_kept_at_each_restart_matches_one_computed_from_the_plans():
    cg = compile_game(load_game("kuhn"))
    s = SOLVERS["dcfr"](cg, restart=4, restart_keep=0.25)
    expected = [np.zeros_like(a) for a in s.average_plan]
    for t in range(1, 21):
        if t in (4, 16):
            expected = [0.25 * e for e in expected]
        since = 16 if t >= 16 else 4 if t >= 4 else 1
        played = [p.copy() for p in s.plan]  # what iteration t plays (both players update against it)
        expected = [e + (t - since + 1) ** 2 * q for e, q in zip(expected, played)]
        s.iterate(1)
    for p in (0, 1):
        assert np.allclose(s.average_plan[p], expected[p], rtol=1e-12, atol=0)
    emptied = SOLVERS["dcfr"](cg, restart=4)
    emptied.iterate(20)
    assert not np.allclose(emptied.average_plan[0], s.average_plan[0])  # the option changes the average


def test_default_is_the_emptying_restart_bit_for_bit():
    assert DCFR(restart=4) == DCFR(restart=4, restart_keep=0.0) and DCFR(restart=4) != DCFR(restart=4, restart_keep=0.5)
    tree = public_tree(load_game("poker"))
    a, b = public_solver("dcfr", tree, restart=4), public_solver("dcfr", tree, restart=4, restart_keep=0.0)
    a.iterate(20)
    b.iterate(20)
    for p in (0, 1):
        assert np.array_equal(a.average[p], b.average[p]) and np.array_equal(a.regrets[p], b.regrets[p])
    after = public_solver("dcfr", tree, restart=4)
    after.iterate(16)  # right after the restart at 16: iteration 16's weight 1 on its strategy alone
    assert after.average_policy().probs[0].shape == after.current_policy().probs[0].shape


def test_same_run_on_both_forms_and_in_16_bit_storage():
    game = load_game("poker")  # Leduc
    hist = SOLVERS["dcfr"](compile_game(game), restart=4, restart_keep=0.5)
    pub = public_solver("dcfr", public_tree(game), restart=4, restart_keep=0.5)
    a, b = hist.run(20)[-1], pub.run(20)[-1]
    for key in ("nash_conv_average", "nash_conv_current", "value_average"):
        assert abs(a[key] - b[key]) <= 1e-9, (key, a[key], b[key])
    emptied = public_solver("dcfr", public_tree(game), restart=4).run(20)[-1]
    assert abs(emptied["nash_conv_average"] - b["nash_conv_average"]) > 1e-6

    tree = public_tree(load_game("holdem", board="Ks7d2c9h", raises=1, range0="AA,KQ,T9s", range1="QQ,AK,J9s"))
    f64 = public_solver("dcfr", tree, restart=4, restart_keep=0.5)
    i16 = public_solver("dcfr", tree, dtype="int16", restart=4, restart_keep=0.5)
    zero = public_solver("dcfr", tree, dtype="int16", restart=4)
    for s in (f64, i16, zero):
        s.iterate(5)  # through the restart at 4
    x, y, z = (s.average_policy().probs[0] for s in (f64, i16, zero))
    assert np.allclose(x, y, rtol=0, atol=2e-3)  # the 16-bit average keeps half its sums too
    assert np.abs(z - x).max() > 1e-2


def test_resume_keeps_the_value_and_refusals(tmp_path):
    tree = public_tree(load_game("poker"))
    first = public_solver("dcfr", tree, restart=4, restart_keep=0.5)
    first.iterate(14)
    np.savez(tmp_path / "s.npz", **first.state_dict())
    resumed = public_solver("dcfr", tree, restart=4, restart_keep=0.5)
    resumed.load_state_dict(dict(np.load(tmp_path / "s.npz")))
    resumed.iterate(6)  # through the restart at 16
    straight = public_solver("dcfr", tree, restart=4, restart_keep=0.5)
    straight.iterate(20)
    for p in (0, 1):
        assert np.array_equal(resumed.average[p], straight.average[p])
    with pytest.raises(ZerosumError, match="restart_keep"):
        public_solver("dcfr", tree, restart=4).load_state_dict(dict(np.load(tmp_path / "s.npz")))
    old = public_solver("dcfr", tree, restart=4)  # a state saved before the option: restart_keep=0
    old.iterate(3)
    state = old.state_dict()
    del state["param_restart_keep"]
    again = public_solver("dcfr", tree, restart=4)
    again.load_state_dict(state)
    assert again.iteration == 3
    for bad in (1.0, -0.1, float("nan"), True, "half"):
        with pytest.raises(ZerosumError, match="restart_keep"):
            DCFR(restart=4, restart_keep=bad)
