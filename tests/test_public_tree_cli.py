"""zerosum solve / evaluate on the public tree: --form, the JSON fields, hold'em errors in one line."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from zerosum.cli import cli


def run(*args):
    return CliRunner().invoke(cli, list(args))


def test_solve_poker_both_forms_agree(tmp_path):
    pub = run("solve", "poker", "-n", "50", "--json", "--save", str(tmp_path / "p.json"))
    hist = run("solve", "poker", "-n", "50", "--json", "--form", "history-tree", "--save", str(tmp_path / "h.json"))
    assert pub.exit_code == 0 and hist.exit_code == 0, pub.output + hist.output
    a, b = json.loads(pub.stdout), json.loads(hist.stdout)
    assert a["form"] == "public-tree" and a["histories"] == 1939 and a["public_nodes"] == 240
    assert a["infoset_actions"] == 672 and a["bytes"] > 0 and a["compile_s"] >= 0 and a["pot"] == 2
    assert abs(a["nash_conv"] - b["nash_conv"]) < 1e-9 and abs(a["value"] - b["value"]) < 1e-9
    ev_pub = json.loads(run("evaluate", "poker", str(tmp_path / "p.json"), "--json").stdout)
    ev_hist = json.loads(run("evaluate", "poker", str(tmp_path / "h.json"), "--json").stdout)
    assert abs(ev_pub["nash_conv"] - a["nash_conv"]) < 1e-7  # the file rounds to 9 decimals
    assert abs(ev_hist["nash_conv"] - b["nash_conv"]) < 1e-9
    wrong = run("evaluate", "poker", str(tmp_path / "p.json"), "--form", "history-tree")
    assert wrong.exit_code == 1 and "public-tree policy" in wrong.output


def test_solve_holdem_river_with_state(tmp_path):
    args = ("solve", "holdem", "--param", "board=Ks7d2c9h3s", "--param", "range0=AA,KK,AK", "-a", "dcfr",
            "--json", "--option", "dtype=float32")
    first = run(*args, "-n", "20", "--save-state", str(tmp_path / "s.npz"))
    assert first.exit_code == 0, first.output
    more = run(*args, "-n", "40", "--resume", str(tmp_path / "s.npz"))
    assert more.exit_code == 0, more.output
    r = json.loads(more.stdout)
    assert r["form"] == "public-tree" and r["dtype"] == "float32" and r["iterations"] == 40
    assert r["pot"] == 10 and r["public_nodes"] == 21


@pytest.mark.parametrize("params, fragment", [
    (("board=Ks7d2c9x",), "illegal card"),
    (("board=Ks7dKs9h",), "duplicated card"),
    (("board=Ks7d",), "has 2 cards"),
    (("board=Ks7d2c9h", "range0=KsKd"), "on the board"),
    (("board=Ks7d2c9h", "range1=AK,Z9"), "Z9"),
    (("board=Ks7d2c9h", "range1=AA:0"), "weight 0"),
    (("board=Ks7d2c",), "too large even for the public tree"),
])
def test_holdem_errors_are_one_line(params, fragment):
    args = ["solve", "holdem", "-n", "1"]
    for p in params:
        args += ["--param", p]
    r = run(*args)
    assert r.exit_code == 1 and fragment in r.output and len(r.output.strip().splitlines()) == 1, r.output


def test_history_tree_refused_before_any_work():
    r = run("solve", "holdem", "--param", "board=Ks7d2c9h", "--form", "history-tree", "-n", "1")
    assert r.exit_code == 1 and "7,575,777,721 histories" in r.output and "--form public-tree" in r.output
    r = run("solve", "kuhn", "--form", "public-tree", "-n", "1")
    assert r.exit_code == 1 and "no public-tree form" in r.output
    r = run("solve", "poker", "-a", "es-mccfr", "--form", "public-tree", "-n", "1")
    assert r.exit_code == 1 and "does not run on the public tree" in r.output


def test_pcs_mccfr_from_the_cli():
    r = run("solve", "poker", "-a", "pcs-mccfr", "-n", "300", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["nash_conv"] < 4.7  # uniform: 4.747


def test_algorithms_without_a_public_form_use_the_history_tree():
    r = run("solve", "poker", "-a", "es-mccfr", "-n", "100", "--seed", "1", "--json")
    assert r.exit_code == 0, r.output
    assert "form" not in json.loads(r.stdout)  # the history tree's result
    r = run("solve", "poker", "-n", "20", "--simultaneous", "--json")
    assert r.exit_code == 0 and "form" not in json.loads(r.stdout)
    r = run("solve", "holdem", "--param", "board=Ks7d2c9h", "-a", "lp")
    assert r.exit_code == 1 and "histories" in r.output  # no history tree for the full turn subgame


def test_first_actions_list_hands_in_player_0s_range():
    """A narrow range's report shows its own hands, not the zero-weight hands that sort first."""
    out = run("solve", "holdem", "--param", "board=Ks7d2c9h3s", "--param", "range0=AA,QQ", "-n", "5", "--json")
    assert out.exit_code == 0, out.output
    hands = [label[:4] for label in json.loads(out.stdout)["first_actions"]]
    assert len(hands) == 12  # 6 combos of AA, 6 of QQ (no board card among them)
    assert all(h[0] == h[2] and h[0] in "AQ" for h in hands), hands


def test_pcs_mccfr_resume_refuses_another_seed_and_keeps_its_own(tmp_path):
    """A pcs-mccfr run saved with --seed 3: resumed with --seed 5 it is refused in one line (the
    seed was silently dropped: the saved generator ran on); resumed without --seed it equals the
    uninterrupted run with seed 3 bit for bit."""
    state = str(tmp_path / "pcs.npz")
    base = ["solve", "poker", "--param", "ranks=4", "-a", "pcs-mccfr"]
    r = CliRunner().invoke(cli, [*base, "-n", "20", "--seed", "3", "--save-state", state, "--json"])
    assert r.exit_code == 0, r.output
    bad = CliRunner().invoke(cli, [*base, "-n", "40", "--seed", "5", "--resume", state])
    assert bad.exit_code == 1 and "--seed 3, not 5" in bad.output and "Traceback" not in bad.output
    resumed = json.loads(CliRunner().invoke(cli, [*base, "-n", "40", "--resume", state, "--json"]).stdout)
    whole = json.loads(CliRunner().invoke(cli, [*base, "-n", "40", "--seed", "3", "--json"]).stdout)
    assert resumed["nash_conv"] == whole["nash_conv"] and resumed["value"] == whole["value"]
