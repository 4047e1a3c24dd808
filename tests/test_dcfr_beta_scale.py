"""DCFR's ``beta_scale=tau`` (issue 53 item 1): the negative regrets' factor after iteration t is
(t / tau)^beta / ((t / tau)^beta + 1), the paper's t^beta / (t^beta + 1) with t counted in units of
tau.  The factors at hand-computed points, the default (1) the paper's rule bit for bit, the option
reaching the run through the CLI and both solver forms, and one-line refusals."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from click.testing import CliRunner

from zerosum import load_game
from zerosum.cli import cli
from zerosum.core.compile import compile_game
from zerosum.errors import ZerosumError
from zerosum.public_tree.compile import public_tree
from zerosum.public_tree.solver import public_solver
from zerosum.solvers import SOLVERS
from zerosum.solvers.rules import DCFR


def test_the_factors_at_hand_computed_points():
    v = DCFR(beta=0.5, beta_scale=20)
    assert v.regret_rule(20).neg == 0.5  # t = tau: (1)^beta / (1 + 1)
    assert v.regret_rule(80).neg == pytest.approx(2 / 3, abs=1e-15)  # sqrt(4) / (sqrt(4) + 1)
    assert v.regret_rule(5).neg == pytest.approx(1 / 3, abs=1e-15)  # sqrt(1/4) / (sqrt(1/4) + 1)
    assert v.regret_rule(80).pos == DCFR().regret_rule(80).pos  # the positive factor is alpha's alone
    for t in (1, 7, 100, 1000):
        assert DCFR(beta=0.5).regret_rule(t).neg == math.sqrt(t) / (math.sqrt(t) + 1)
        assert DCFR(beta_scale=20).regret_rule(t).neg == 0.5  # beta = 0: t's units do not matter
    assert DCFR(beta=0.5, beta_scale=20) != DCFR(beta=0.5)


def test_default_is_the_papers_rule_bit_for_bit_and_the_option_changes_the_run():
    game = load_game("poker")  # Leduc
    tree = public_tree(game)
    a, b = public_solver("dcfr", tree, beta=0.5), public_solver("dcfr", tree, beta=0.5, beta_scale=1.0)
    c = public_solver("dcfr", tree, beta=0.5, beta_scale=20)
    for s in (a, b, c):
        s.iterate(30)
    for p in (0, 1):
        assert np.array_equal(a.regrets[p], b.regrets[p]) and np.array_equal(a.average[p], b.average[p])
    assert not np.allclose(a.regrets[0], c.regrets[0])
    hist = SOLVERS["dcfr"](compile_game(game), beta=0.5, beta_scale=20, restart=4)
    pub = public_solver("dcfr", tree, beta=0.5, beta_scale=20, restart=4)
    x, y = hist.run(20)[-1], pub.run(20)[-1]
    for key in ("nash_conv_average", "nash_conv_current", "value_average"):
        assert abs(x[key] - y[key]) <= 1e-9, (key, x[key], y[key])


def test_the_option_on_the_command_line_and_refusals():
    river = ["solve", "holdem", "--param", "board=Ks7d2c9h5s", "--param", "range0=AA,KQs", "--param",
             "range1=KK,QQ,AK", "-n", "30", "-a", "dcfr", "--option", "beta=0.5", "--json"]
    runs = [CliRunner().invoke(cli, river + extra) for extra in ([], ["--option", "beta_scale=20"])]
    assert all(r.exit_code == 0 for r in runs), [r.output for r in runs]
    assert json.loads(runs[0].stdout)["nash_conv"] != json.loads(runs[1].stdout)["nash_conv"]
    bad = CliRunner().invoke(cli, river + ["--option", "beta_scale=0"])
    assert bad.exit_code != 0 and "beta_scale must be > 0" in bad.output
    for value in (0, -1.0, float("inf"), True, "x"):
        with pytest.raises(ZerosumError, match="beta_scale"):
            DCFR(beta_scale=value)
