"""zerosum experiment learned-oracles: the table, its invariants, the figure, bad input."""

import json

from click.testing import CliRunner

from zerosum import load_game
from zerosum.cli import cli
from zerosum.experiments import EXPERIMENTS
from zerosum.experiments.learned_oracles import learned_oracles
from zerosum.solvers.psro import PSROSolver


def test_registered():
    assert EXPERIMENTS["learned-oracles"] == "learned_oracles"


def test_small_table_agrees_with_direct_runs(tmp_path):
    plot = tmp_path / "lo.png"
    rep = learned_oracles(plot=str(plot), iterations=6, budgets=(200, 2000), seeds=2,
                          oracles=("q-learning", "policy-gradient"), game="kuhn", sanity_budgets=())
    t = rep.tables[0]
    assert t.columns[:4] == ["oracle", "hands per call", "seeds", "NashConv @6"]
    rows = {(r[0], r[1]): r for r in t.rows}
    assert set(rows) == {("exact", "-"), ("q-learning", 200), ("q-learning", 2000),
                         ("policy-gradient", 200), ("policy-gradient", 2000)}
    exact = PSROSolver(load_game("kuhn"), "nash").run(6)[-1]
    assert rows[("exact", "-")][3] == exact["nash_conv"] and rows[("exact", "-")][4] == 0.0
    # the learned rows are means over seeds 1 and 2 of the same runs made directly
    for oracle in ("q-learning", "policy-gradient"):
        direct = [PSROSolver(load_game("kuhn"), "nash", oracle=oracle, hands=2000,
                             seed=s).run(6)[-1] for s in (1, 2)]
        r = rows[(oracle, 2000)]
        assert r[3] == sum(d["nash_conv"] for d in direct) / 2
        assert r[5] == 5 * 2 * 2000  # five oracle iterations, two players
        assert r[4] >= 0
    assert plot.stat().st_size > 0


def test_quick_command_json_and_bad_input():
    res = CliRunner().invoke(cli, ["experiment", "learned-oracles", "--quick", "--json", "--no-plot",
                                   "--oracles", "q-learning", "--game", "kuhn"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["experiment"] == "learned-oracles" and len(out["tables"][1]["rows"]) == 3
    sanity = out["tables"][0]  # q-learning against uniform and CFR+ on Kuhn: a thousand hands suffice
    assert [r[:2] for r in sanity["rows"]] == [["q-learning", "uniform"], ["q-learning", "CFR+ average"]]
    assert all(0 <= r[2] < 0.01 for r in sanity["rows"])
    res = CliRunner().invoke(cli, ["experiment", "learned-oracles", "--oracles", "sarsa", "--no-plot"])
    assert res.exit_code == 1 and "unknown oracle 'sarsa'" in res.output
    res = CliRunner().invoke(cli, ["experiment", "learned-oracles", "--budgets", "0", "--no-plot"])
    assert res.exit_code == 1 and "--budgets must be positive" in res.output


def test_sanity_table_runs_the_dqn_up_to_its_own_cap():
    """--sanity-dqn-max-hands (not the PSRO runs' --dqn-max-hands) bounds the DQN's sanity cells."""
    import pytest

    pytest.importorskip("jax", reason="the DQN needs the deep extra (JAX)")
    out = CliRunner().invoke(cli, ["experiment", "learned-oracles", "--json", "--no-plot", "--game", "kuhn",
                                   "-n", "2", "--budgets", "100", "--seeds", "1", "--oracles", "q-learning,dqn",
                                   "--dqn-max-hands", "100", "--sanity-budgets", "200,400",
                                   "--sanity-dqn-max-hands", "200"])
    assert out.exit_code == 0, out.output
    sanity = json.loads(out.stdout)["tables"][0]
    dqn = [r for r in sanity["rows"] if r[0] == "dqn"]
    assert len(dqn) == 2 and all(r[2] is not None and r[3] is None for r in dqn)
    assert all(r[3] is not None for r in sanity["rows"] if r[0] == "q-learning")
