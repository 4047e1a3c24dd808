"""A new CFR variant is one class and one registration in ``zerosum/solvers/rules.py`` (here the
test registers its own): it then runs on the history tree and the public tree, from the command
line, has its row of features, and the web app offers it, with nothing else edited
(docs/public-tree.md names the files)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from zerosum.cli import cli
from zerosum.solvers import SOLVERS, capabilities, rules
from zerosum.solvers.rules import RegretRule, Variant


class CubicCFRPlus(Variant):
    """CFR+ whose average weighs iteration t by t^3 (a toy: only the average's weight changes)."""

    name = "toy-cfr+"
    params = ("power",)

    def __init__(self, power: float = 3.0):
        self.power = rules.finite("power", power)

    def regret_rule(self, t: int) -> RegretRule:
        return RegretRule(floor=True)

    def average_weight(self, t: int) -> float:
        return float(t) ** self.power


@pytest.fixture
def toy(monkeypatch):
    monkeypatch.setattr(rules, "VARIANTS", dict(rules.VARIANTS))  # the registration undone after the test
    rules.register_variant(CubicCFRPlus)
    yield CubicCFRPlus


def _solve(*args):
    r = CliRunner().invoke(cli, ["solve", *args, "--json"])
    assert r.exit_code == 0, r.output
    return json.loads(r.output)


def test_a_registered_variant_runs_everywhere(toy):
    from zerosum.public_tree.solver import VARIANTS as PUBLIC

    assert "toy-cfr+" in SOLVERS and "toy-cfr+" in PUBLIC
    row = capabilities.ALGORITHMS["toy-cfr+"]
    assert row.runs_with("ray-split") and row.runs_with("int16") and not row.predictive
    hist = _solve("kuhn", "-a", "toy-cfr+", "-n", "300", "--form", "history-tree")
    pub = _solve("poker", "--param", "ranks=3", "--param", "copies=1", "--param", "rounds=1", "--param", "raises=1",
                 "--param", "bets=[1]", "-a", "toy-cfr+", "-n", "300", "--option", "power=2")
    for out in (hist, pub):
        assert out["nash_conv"] < 0.01  # Kuhn solved, on either form
        assert abs(out["value"] - (-1 / 18)) < 0.01
    # the variant's parameter is taken, and a wrong one refused in one line
    r = CliRunner().invoke(cli, ["solve", "kuhn", "-a", "toy-cfr+", "-n", "5", "--option", "power=x"])
    assert r.exit_code == 1 and r.output.count("\n") == 1 and "power" in r.output


def test_the_web_app_offers_a_registered_variant(toy):
    from zerosum.solvers.capabilities import names_with

    assert "toy-cfr+" in names_with("history-tree") and "toy-cfr+" in names_with("public-tree")


def test_a_variant_without_a_name_of_its_own_is_refused():
    from zerosum.errors import ZerosumError

    class Again(CubicCFRPlus):
        name = "dcfr"

    with pytest.raises(ZerosumError, match="name of its own"):
        rules.register_variant(Again)
    with pytest.raises(ZerosumError, match="subclass"):
        rules.register_variant(dict)
