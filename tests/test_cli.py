import json

import pytest
from click.testing import CliRunner

from zerosum.cli import cli


def run(*args):
    return CliRunner().invoke(cli, list(args))


def test_solve_json_has_the_documented_fields():
    r = run("solve", "kuhn", "--algorithm", "cfr", "--iterations", "100", "--checkpoints", "10,30", "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    for key in ("game", "algorithm", "iterations", "value", "checkpoints", "nash_conv", "exploitability"):
        assert key in out
    assert [c["iteration"] for c in out["checkpoints"]] == [10, 30, 100]
    assert set(out["checkpoints"][0]) >= {"iteration", "nash_conv_average", "nash_conv_current"}
    assert out["exploitability"] == pytest.approx(out["nash_conv"] / 2)
    assert set(out["first_actions"]) == {"J", "Q", "K"}


def test_solve_table_save_plot_and_evaluate(tmp_path):
    policy, plot = tmp_path / "p.json", tmp_path / "c.png"
    r = run("solve", "leduc", "-n", "30", "--save", str(policy), "--plot", str(plot))
    assert r.exit_code == 0, r.output
    assert "NashConv" in r.output and "first action" in r.output
    assert plot.stat().st_size > 1000
    r = run("evaluate", "leduc", str(policy), "--json")
    assert r.exit_code == 0, r.output
    r2 = run("solve", "leduc", "-n", "30", "--json")
    assert json.loads(r.stdout)["nash_conv"] == pytest.approx(json.loads(r2.stdout)["nash_conv"], abs=1e-12)


def test_games_lists_sizes():
    r = run("games", "--json")
    assert r.exit_code == 0, r.output
    by_name = {g["name"]: g for g in json.loads(r.stdout)["games"]}
    assert by_name["leduc"]["sizes"]["infosets"] == [144, 144]


@pytest.mark.parametrize("args, message", [
    (("solve", "nope"), "unknown game 'nope'; known games:"),
    (("solve", "kuhn", "-n", "0"), "positive integer"),
    (("solve", "kuhn", "-n", "-5"), "positive integer"),
    (("solve", "kuhn", "-a", "magic"), "unknown algorithm"),
    (("solve", "kuhn", "--checkpoints", "a,b"), "comma-separated integers"),
    (("solve", "kuhn", "--save", "/nonexistent-dir/p.json"), "cannot write"),
    (("solve", "kuhn", "--param", "cards=4"), "invalid parameters"),
    (("solve", "kuhn", "--seed", "3", "-a", "cfr"), "does not take --seed"),
    (("evaluate", "kuhn", "/nonexistent.json"), "cannot read policy file"),
    (("solve", "openspiel:no_such_game"), "OpenSpiel has no game 'no_such_game'; e.g. kuhn_poker"),
    (("solve", "openspiel:leduc_pokr"), "OpenSpiel has no game 'leduc_pokr'; did you mean leduc_poker"),
    (("solve", "openspiel:leduc_poker(foo=3)"), "OpenSpiel cannot load 'leduc_poker(foo=3)': Unknown parameter"),
])
def test_bad_input_gives_one_line_and_nonzero_exit(args, message):
    r = run(*args)
    assert r.exit_code != 0
    assert message in r.output
    assert "Traceback" not in r.output
    assert len(r.output.strip().splitlines()) == 1


def test_mismatched_policy_file(tmp_path):
    path = tmp_path / "k.json"
    assert run("solve", "kuhn", "-n", "10", "--save", str(path)).exit_code == 0
    r = run("evaluate", "leduc", str(path))
    assert r.exit_code != 0 and "made for game 'kuhn', not 'leduc'" in r.output


def test_resume_continues_the_same_run(tmp_path):
    state = tmp_path / "s.npz"
    assert run("solve", "leduc", "-n", "40", "--save-state", str(state), "--json").exit_code == 0
    resumed = json.loads(run("solve", "leduc", "-n", "100", "--resume", str(state), "--json").stdout)
    straight = json.loads(run("solve", "leduc", "-n", "100", "--json").stdout)
    assert resumed["nash_conv"] == straight["nash_conv"]


def test_matrix_game_from_the_command_line():
    r = run("solve", "matrix", "--param", "payoffs=[[2,-1],[-1,1]]", "-a", "cfr+", "-n", "2000", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["value"] == pytest.approx(0.2, abs=1e-3)  # (2*1 - 1) / (2+1+1+1)
