"""Local best response (zerosum.core.lbr) against the exact best response, and ``evaluate --lbr``."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from zerosum.cli import cli
from zerosum.core.compile import compiled
from zerosum.core.evaluation import evaluate
from zerosum.core.lbr import local_best_response
from zerosum.core.policy import TabularPolicy
from zerosum.games import load_game
from zerosum.solvers import SOLVERS


def _policies(name):
    g = compiled(load_game(name))
    s = SOLVERS["cfr+"](g)
    s.run(100)
    return g, {"uniform": TabularPolicy.uniform(g), "cfr+100": s.average_policy()}


@pytest.mark.parametrize("which", ["uniform", "cfr+100"])
def test_lbr_is_a_lower_bound_of_the_exact_gain_on_leduc(which):
    g, pols = _policies("leduc")
    pol = pols[which]
    ev = evaluate(g, pol)
    r = local_best_response(g, pol, hands=4000, seed=1)
    for p in (0, 1):
        assert r.exact_values[p] <= ev.best_response_values[p] + 1e-12  # LBR is a strategy: never above BR
        assert r.values[p] <= ev.best_response_values[p] + r.half_widths[p]
        assert abs(r.values[p] - r.exact_values[p]) <= 2 * r.half_widths[p]  # the hands sample its value
    assert r.nash_conv <= ev.nash_conv + r.half_width
    if which == "uniform":  # against uniform play LBR wins most of what a best response wins
        assert 0.8 * ev.nash_conv < sum(r.exact_values) < ev.nash_conv


def test_lbr_against_uniform_kuhn_is_the_best_response():
    """In Kuhn every decision is one step from the end: LBR's valuation is exact, so against
    uniform play it is a best response (values 1/2 and 5/12)."""
    g = compiled(load_game("kuhn"))
    r = local_best_response(g, TabularPolicy.uniform(g), hands=2000, seed=0)
    assert abs(r.exact_values[0] - 0.5) < 1e-12 and abs(r.exact_values[1] - 5 / 12) < 1e-12
    assert r.policy_values == (0.125, -0.125)


def test_same_seed_same_numbers():
    g = compiled(load_game("leduc"))
    pol = TabularPolicy.uniform(g)
    a, b = (local_best_response(g, pol, hands=500, seed=7) for _ in range(2))
    assert a == b
    assert local_best_response(g, pol, hands=500, seed=8).values != a.values


def test_cli_evaluate_lbr(tmp_path):
    path = tmp_path / "u.json"
    TabularPolicy.uniform(compiled(load_game("leduc"))).save(path)
    r = CliRunner().invoke(cli, ["evaluate", "leduc", str(path), "--lbr", "--hands", "300", "--seed", "3", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    expected = local_best_response(compiled(load_game("leduc")), TabularPolicy.uniform(compiled(load_game("leduc"))),
                                   hands=300, seed=3).to_dict()
    assert d["lbr"] == json.loads(json.dumps(expected))
    assert d["lbr"]["nash_conv"] <= d["nash_conv"] + d["lbr"]["nash_conv_half_width"]
    r = CliRunner().invoke(cli, ["evaluate", "leduc", str(path), "--lbr", "--hands", "1"])
    assert r.exit_code == 1 and r.output.startswith("Error: --hands must be an integer of at least 2")
    r = CliRunner().invoke(cli, ["evaluate", "leduc", str(path), "--lbr", "--hands", "300"])
    assert r.exit_code == 0 and "LBR NashConv estimate" in r.output
