"""``zerosum solve -a deep-cfr|sd-cfr|nfsp`` and the two experiments, with tiny budgets."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

from zerosum.cli import cli as main

pytest.importorskip("jax", reason="the deep solvers need the 'deep' extra (JAX, Optax)")
pytest.importorskip("optax", reason="the deep solvers need the 'deep' extra (JAX, Optax)")

SMALL = ["--option", "traversals=20", "--option", "advantage_steps=20", "--option", "batch=32",
         "--option", "memory=2000"]


def _solve(*args):
    r = CliRunner().invoke(main, ["solve", "kuhn", *args, "--json"])
    return r, (json.loads(r.stdout) if r.exit_code == 0 else None)


def test_solve_sd_cfr_json_checkpoints_save_and_resume(tmp_path):
    r, full = _solve("-a", "sd-cfr", "-n", "4", "--checkpoints", "2", "--seed", "7", *SMALL,
                     "--save", str(tmp_path / "p.json"))
    assert r.exit_code == 0, r.output
    rows = full["checkpoints"]
    assert [row["iteration"] for row in rows] == [2, 4]
    assert rows[1]["samples"] > rows[0]["samples"] > 0 and rows[1]["nodes"] > rows[0]["nodes"]
    assert full["nash_conv"] == rows[-1]["nash_conv_average"]
    # the options the run used, "auto" ones resolved (Kuhn: the small settings), explicit ones kept
    assert full["options"]["traversals"] == 20 and full["options"]["hidden"] == [64]
    assert full["options"]["aggregate"] is False and full["options"]["memory"] == 2000
    assert (tmp_path / "p.json").exists() and (tmp_path / "p.npz").exists()
    # the saved networks are the last value networks: tabulated, they are the current policy
    from zerosum import compiled, load_game
    from zerosum.deep.network_policy import load_networks, tabulate

    g = compiled(load_game("kuhn"))
    nets = load_networks(tmp_path / "p.npz", g)
    assert [n.rule for n in nets] == ["regret-matching", "regret-matching"]
    from zerosum import evaluate

    assert evaluate(g, tabulate(g, nets)).nash_conv == pytest.approx(rows[-1]["nash_conv_current"])
    ev = CliRunner().invoke(main, ["evaluate", "kuhn", str(tmp_path / "p.npz"), "--json"])
    assert json.loads(ev.stdout)["nash_conv"] == pytest.approx(rows[-1]["nash_conv_current"])
    bad = CliRunner().invoke(main, ["evaluate", "leduc", str(tmp_path / "p.npz")])
    assert bad.exit_code == 1 and "trained on 'kuhn', not 'leduc'" in bad.output
    r, _ = _solve("-a", "sd-cfr", "-n", "2", "--seed", "7", *SMALL, "--save-state", str(tmp_path / "s.npz"))
    assert r.exit_code == 0, r.output
    r, resumed = _solve("-a", "sd-cfr", "-n", "4", *SMALL, "--resume", str(tmp_path / "s.npz"))
    assert r.exit_code == 0, r.output
    a, b = resumed["checkpoints"][-1], rows[-1]
    assert {k: v for k, v in a.items() if k != "cpu_seconds"} == {k: v for k, v in b.items() if k != "cpu_seconds"}


def test_solve_nfsp_same_seed_same_numbers():
    args = ("-a", "nfsp", "-n", "20", "--seed", "3", "--option", "hands=16", "--option", "batch=16",
            "--option", "replay=500", "--option", "reservoir=500")
    outs = [_solve(*args)[1]["checkpoints"] for _ in range(2)]
    assert [{k: v for k, v in r.items() if k != "cpu_seconds"} for r in outs[0]] == \
        [{k: v for k, v in r.items() if k != "cpu_seconds"} for r in outs[1]]
    assert outs[0][-1]["episodes"] == 20 * 16


def test_bad_input_is_one_line():
    r, _ = _solve("-a", "deep-cfr", "-n", "2", "--option", "traversals=0")
    assert r.exit_code == 1 and r.output.strip().count("\n") == 0 and "traversals must be a positive integer" in r.output
    r, _ = _solve("-a", "nfsp", "-n", "2", "--option", "traversals=5")
    assert r.exit_code == 1 and "nfsp does not take --option traversals" in r.output


def test_experiments_quick_json(tmp_path):
    for name in ("approximation", "deep"):
        r = CliRunner().invoke(main, ["experiment", name, "--quick", "--json", "--plot", str(tmp_path / f"{name}.png")])
        assert r.exit_code == 0, r.output
        out = json.loads(r.stdout)
        assert out["experiment"] == name and (tmp_path / f"{name}.png").exists()
        rows = out["tables"][0]["rows"]
        assert all(np.isfinite(row[3 if name == "approximation" else 2]) for row in rows)
    # approximation: the tabular average's own NashConv is CFR+'s, the same in every row
    assert len({row[4] for row in json.loads(CliRunner().invoke(
        main, ["experiment", "approximation", "--quick", "--json", "--no-plot"]).stdout)["tables"][0]["rows"]}) == 1
