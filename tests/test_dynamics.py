"""Lab 15 Part 3: the self-play dynamics reproduce the lab's printed table; their invariants."""

import numpy as np
import pytest

import zerosum
from zerosum.core.action_values import action_values, softmax
from zerosum.core.evaluation import nash_conv
from zerosum.core.sequence_form import realization_plan
from zerosum.errors import ZerosumError
from zerosum.experiments.dynamics import LAB_TABLE, lab_part3
from zerosum.solvers import SOLVERS
from zerosum.solvers.dynamics import LAB_DYNAMICS, MagnetDynamics, MirrorDescent


@pytest.fixture(scope="module")
def leduc():
    return zerosum.load_game("leduc")


@pytest.mark.parametrize("name", list(LAB_DYNAMICS))
def test_lab15_part3_first_columns(leduc, name):
    rows = LAB_DYNAMICS[name](leduc).run(300, [10, 100, 300])
    assert [round(r["nash_conv_current"], 3) for r in rows] == list(LAB_TABLE[name][:3])


def test_lab15_part3_whole_table(leduc):
    report = lab_part3(steps=3000)
    printed = {r[0]: tuple(r[1:]) for r in report.tables[0].printed_rows()}
    assert printed == LAB_TABLE
    assert "4 of 4" in report.notes[-1]


def test_checkpoints_are_consistent_with_policies(leduc):
    s = MagnetDynamics(leduc)
    rows = s.run(20, [5, 20])
    assert [r["iteration"] for r in rows] == [5, 20]
    assert rows[-1]["nash_conv_current"] == pytest.approx(nash_conv(leduc, s.current_policy()), abs=1e-12)
    assert rows[-1]["nash_conv_average"] == pytest.approx(nash_conv(leduc, s.average_policy()), abs=1e-12)
    # softmax strategies are fully mixed, so each step is two complete full-width passes (2,040 nodes
    # each on Lab 15's Leduc: 24 deals x 85 betting histories)
    from zerosum.solvers.nodes import node_counter

    counter = node_counter(s.game)
    full = [counter.full_width_pass(p, np.ones(t.n_sequences)) for p, t in enumerate(s.game.treeplexes)]
    assert full == [2040, 2040]
    assert rows[-1]["nodes"] == 20 * sum(full)


def test_mirror_descent_first_step_is_softmax_of_values():
    game = zerosum.load_game("kuhn")
    s = MirrorDescent(game, eta=0.3)
    g = s.game
    x = [realization_plan(t, t.uniform()) for t in g.treeplexes]
    qs = [action_values(g, p, g.treeplexes[p].uniform(), x[1 - p]) for p in (0, 1)]
    s.iterate()
    for p, t in enumerate(g.treeplexes):
        np.testing.assert_allclose(s.strategy[p], softmax(t, 0.3 * qs[p]), atol=1e-15)


def test_fixed_magnet_converges_to_its_regularized_fixed_point():
    """With a small step the fixed-magnet dynamics settles where pi is proportional to
    rho exp(q / alpha) at every information set (rho uniform)."""
    game = zerosum.load_game("kuhn")
    alpha = 0.5
    s = MagnetDynamics(game, eta=0.05, alpha=alpha)
    s.iterate(4000)
    g = s.game
    for p, t in enumerate(g.treeplexes):
        q = action_values(g, p, s.strategy[p], s.plan[1 - p])
        np.testing.assert_allclose(s.strategy[p], softmax(t, q / alpha), atol=1e-8)


def test_moving_magnet_moves_every_500_steps(leduc):
    s = SOLVERS["moving-magnet"](leduc)
    s.iterate(1200)
    assert s.magnet_moves == [500, 1000]


@pytest.mark.parametrize("kwargs", [{"eta": 0}, {"eta": "x"}, {"alpha": -1}, {"reset": 0},
                                    {"reset": 500, "settle": 1e-3}, {"magnet_lr": -0.1}])
def test_bad_options_are_clear_errors(kwargs):
    with pytest.raises(ZerosumError):
        MagnetDynamics(zerosum.load_game("kuhn"), **kwargs)
