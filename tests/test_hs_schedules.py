"""HS-DCFR and HS-PCFR+ (hyperparameter schedules): the schedules at hand-computed points, Kuhn's
exact value from the LP, the same run on the history tree and the public tree, and resume refusing
other schedule parameters."""

from __future__ import annotations

import math

import numpy as np
import pytest

from zerosum import load_game
from zerosum.core.compile import compile_game
from zerosum.errors import ZerosumError
from zerosum.public_tree.compile import public_tree
from zerosum.public_tree.solver import public_solver
from zerosum.solvers import SOLVERS
from zerosum.solvers.rules import HSDCFR, HSPCFRPlus

NAMES = ["hs-dcfr", "hs-pcfr+"]


def test_schedules_at_hand_computed_points():
    v = HSDCFR(gamma_start=30, horizon=1000)
    assert (v.alpha_at(500), v.beta_at(500), v.gamma_at(500)) == (2.5, -2.0, 27.5)
    assert (v.alpha_at(1000), v.beta_at(1000), v.gamma_at(1000)) == (4.0, -3.0, 25.0)
    assert (v.alpha_at(5000), v.beta_at(5000), v.gamma_at(5000)) == (4.0, -3.0, 25.0)  # held after T
    rule = v.regret_rule(2)  # alpha(2) = 1.006, beta(2) = -1.004
    assert rule.pos == pytest.approx(2 ** 1.006 / (2 ** 1.006 + 1), rel=1e-15)
    assert rule.neg == pytest.approx(2 ** -1.004 / (2 ** -1.004 + 1), rel=1e-15)
    assert not rule.floor and rule.pre == 1.0
    # average: iteration t+1 weighs ((t+1)/t)^gamma(t) times iteration t, and iteration T weighs 1
    assert v.average_weight(3) / v.average_weight(2) == pytest.approx(1.5 ** 29.99, rel=1e-12)
    assert v.average_weight(1000) == pytest.approx(1.0, rel=1e-12)
    assert v.average_weight(2000) == pytest.approx(math.exp(sum(
        (30 - 5 * min(s, 1000) / 1000) * math.log((s + 1) / s) for s in range(1000, 2000))), rel=1e-9)
    p = HSPCFRPlus(gamma_start=15, horizon=10)
    assert p.gamma_at(4) == 13.0 and p.regret_rule(4).floor and p.prediction_scale(4) == 1.0
    assert p.average_weight(10) == pytest.approx(1.0) and p.average_weight(9) == pytest.approx((9 / 10) ** 10.5)


@pytest.mark.parametrize("name", NAMES)
def test_kuhn_reaches_the_lp_value(name):
    run = SOLVERS[name](compile_game(load_game("kuhn")), horizon=300).run(300)[-1]
    # measured: hs-dcfr 2.3e-3 (value off by 2e-5), hs-pcfr+ 1e-16 (its current strategy converges)
    assert abs(run["value_average"] - (-1 / 18)) < 1e-4
    assert run["nash_conv_average"] < {"hs-dcfr": 3e-3, "hs-pcfr+": 1e-12}[name]


@pytest.mark.parametrize("name", NAMES)
def test_same_run_on_both_forms_and_resume_refuses_other_schedules(name, tmp_path):
    game = load_game("poker")  # Leduc
    cg, tree = compile_game(game), public_tree(game)
    hist, pub = SOLVERS[name](cg, horizon=100), public_solver(name, tree, horizon=100)
    a, b = hist.run(10)[-1], pub.run(10)[-1]
    for key in ("nash_conv_average", "nash_conv_current", "value_average"):
        assert abs(a[key] - b[key]) <= 1e-9, (key, a[key], b[key])
    np.savez(tmp_path / "s.npz", **pub.state_dict())
    with pytest.raises(ZerosumError, match="horizon"):
        public_solver(name, tree, horizon=200).load_state_dict(dict(np.load(tmp_path / "s.npz")))
    with pytest.raises(ZerosumError, match="gamma_start"):
        public_solver(name, tree, horizon=100, gamma_start=15).load_state_dict(dict(np.load(tmp_path / "s.npz")))
    with pytest.raises(ZerosumError, match="horizon"):  # the history tree refuses alike
        SOLVERS[name](cg, horizon=200).load_state_dict(hist.state_dict())
    resumed = public_solver(name, tree, horizon=100)
    resumed.load_state_dict(dict(np.load(tmp_path / "s.npz")))
    assert resumed.run(12)[-1]["nash_conv_average"] == pytest.approx(pub.run(12)[-1]["nash_conv_average"], rel=1e-12)


def test_bad_schedule_parameters_are_refused():
    with pytest.raises(ZerosumError, match="horizon=1000"):
        HSDCFR(horizon=0)
    with pytest.raises(ZerosumError, match="gamma_start"):
        HSPCFRPlus(gamma_start=2)
