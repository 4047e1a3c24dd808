"""Poker conventions of ``zerosum solve holdem``: exploitability in % of the starting pot (headline,
checkpoint rows, ``--json``'s ``exploitability_pot_fraction``), ``--target P%`` (a stop in % of
the pot beside ``--target-nashconv``), and a locked solve's headline (the free player's gain)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import zerosum.cli

POT = 100
SPOT = {"board": "Td9d6hQc2s", "pot": POT, "stack": 200,
        "ranges": ["QQ,99,AQs,KJs,87s", "TT,AKs,QJs,A5s,98s"],
        "streets": {"river": {"bet": ["50%"], "raise": []}}}


@pytest.fixture()
def spot(tmp_path):
    path = tmp_path / "river.json"
    path.write_text(json.dumps(SPOT))
    return str(path)


def run(*args):
    return CliRunner().invoke(zerosum.cli.cli, [str(a) for a in args])


def solve_json(spot, *more):
    r = run("solve", "holdem", "--spot", spot, "--json", *more)
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def test_json_has_exploitability_in_pot_fractions(spot):
    out = solve_json(spot, "-n", "30", "--checkpoints", "10,20")
    assert out["pot"] == POT
    assert out["exploitability_pot_fraction"] == pytest.approx(out["nash_conv"] / 2 / POT, rel=1e-12)
    assert out["exploitability_pot_fraction"] > 0
    for row in out["checkpoints"]:
        assert row["exploitability_pot_fraction"] == pytest.approx(row["nash_conv_average"] / 2 / POT, rel=1e-12)
    assert [row["iteration"] for row in out["checkpoints"]] == [10, 20, 30]


def test_text_headline_and_rows_show_percent_of_the_pot(spot):
    out = solve_json(spot, "-n", "30", "--checkpoints", "10,20")
    r = run("solve", "holdem", "--spot", spot, "-n", "30", "--checkpoints", "10,20")
    assert r.exit_code == 0, r.output
    pct = 100 * out["exploitability_pot_fraction"]
    assert f"exploitability (NashConv / 2): {out['exploitability']:.6f} (average strategy), {pct:.3f} % of the pot " \
           f"({POT})" in r.output
    assert "expl. % of pot" in r.output
    for row in out["checkpoints"]:
        assert f"{100 * row['exploitability_pot_fraction']:.3f} %" in r.output


def test_target_in_percent_of_the_pot_stops_at_the_first_check_below_it(spot):
    out = solve_json(spot, "-n", "300", "--target", "0.5%")
    assert out["stopped"] == "target" and out["target_pot_fraction"] == 0.005
    rows = out["checkpoints"]
    assert out["iterations"] < 300 and out["iterations"] % 10 == 0  # checked every 10 iterations
    assert out["exploitability_pot_fraction"] <= 0.005
    assert out["exploitability_pot_fraction"] == pytest.approx(out["exploitability"] / POT)
    # every 10 iterations, and none before the last below the target
    assert [row["iteration"] for row in rows] == list(range(10, out["iterations"] + 1, 10))
    assert all(row["nash_conv_average"] / 2 / POT > 0.005 for row in rows[:-1])
    # the bare fraction is the same target; --target-nashconv (chips x 2) still works and agrees
    same = solve_json(spot, "-n", "300", "--target", "0.005")
    assert same["iterations"] == out["iterations"] and same["target_pot_fraction"] == 0.005
    checks = ",".join(str(k) for k in range(10, 300, 10))
    old = solve_json(spot, "-n", "300", "--target-nashconv", str(2 * 0.005 * POT), "--checkpoints", checks)
    assert old["stopped"] == "target" and old["iterations"] == out["iterations"] and "target_pot_fraction" not in old


def test_target_text_says_what_was_reached(spot):
    r = run("solve", "holdem", "--spot", spot, "-n", "300", "--target", "0.5%")
    assert r.exit_code == 0, r.output
    assert "--target 0.5% of the pot reached (exploitability" in r.output


@pytest.mark.parametrize("more,message", [
    (["--target", "0.5"], "--target 0.5 is ambiguous: write 0.5% for 0.5 percent of the pot, or 50%"),
    (["--target", "abc"], "--target takes a share of the pot, e.g. 0.5%"),
    (["--target", "0%"], "--target must be above 0"),
    (["--target", "1%", "--target-nashconv", "1"], "give --target (a share of the pot) or --target-nashconv"),
])
def test_target_refusals_are_one_line(spot, more, message):
    r = run("solve", "holdem", "--spot", spot, "-n", "20", *more)
    assert r.exit_code != 0 and r.output.startswith("Error: ") and message in r.output, r.output
    assert r.output.count("\n") == 1


def test_target_refused_for_a_game_without_a_pot():
    r = run("solve", "kuhn", "-n", "20", "--target", "1%")
    assert r.exit_code != 0 and "kuhn has none" in r.output and r.output.count("\n") == 1, r.output


def test_locked_headline_is_the_free_players_gain(spot, tmp_path):
    lock = tmp_path / "lock.json"
    lock.write_text(json.dumps({"player": 1, "nodes": {"::c": {"*": [1, 0]}}}))  # player 1 never bets
    args = ("-a", "dcfr", "-n", "20", "--option", f"lock={lock}")  # (plain DCFR: an average not just restarted)
    out = solve_json(spot, *args)
    lk = out["locks"]
    assert lk["free_player"] == 0
    assert lk["free_player_gain_pot_fraction"] == pytest.approx(lk["free_player_gain"] / POT, rel=1e-12)
    assert out["nash_conv"] > 10 * lk["free_player_gain"]  # the usual NashConv counts leaving the lock
    r = run("solve", "holdem", "--spot", spot, *args)
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("exploitability"))
    assert lines[head] == (f"exploitability under the locks (player 0's best-response gain against the locked "
                           f"profile): {lk['free_player_gain']:.6f}, "
                           f"{100 * lk['free_player_gain_pot_fraction']:.3f} % of the pot ({POT})")
    assert "exploitability (NashConv / 2)" not in r.output  # the locked player's deviation is not the headline
    assert f"the usual NashConv {out['nash_conv']:.4f} counts player 1 leaving its lock" in r.output
