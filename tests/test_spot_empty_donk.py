"""A spot's ``"donk": []`` (an empty list of donk sizes: no donk bets) is accepted on the street
that starts the subgame, where nobody can donk anyway; donk sizes there are still refused."""

from __future__ import annotations

import json

from click.testing import CliRunner

import zerosum.cli

SPOT = {"board": "Td9d6hQc2s", "pot": 100, "stack": 200,
        "ranges": ["QQ,99,AQs,KJs,87s", "TT,AKs,QJs,A5s,98s"],
        "streets": {"river": {"bet": ["50%"], "raise": []}}}


def solve(tmp_path, river: dict):
    path = tmp_path / "spot.json"
    path.write_text(json.dumps({**SPOT, "streets": {"river": river}}))
    return CliRunner().invoke(zerosum.cli.cli, ["solve", "holdem", "--spot", str(path), "-n", "20", "--json"])


def test_empty_donk_on_a_river_spot_is_no_donk_bets(tmp_path):
    plain = solve(tmp_path, {"bet": ["50%"], "raise": []})
    empty = solve(tmp_path, {"bet": ["50%"], "raise": [], "donk": []})
    assert plain.exit_code == 0 and empty.exit_code == 0, empty.output
    a, b = json.loads(plain.stdout), json.loads(empty.stdout)
    assert b["game"] == a["game"] and b["public_nodes"] == a["public_nodes"]
    assert b["nash_conv"] == a["nash_conv"] and b["value"] == a["value"]


def test_donk_sizes_on_a_river_spot_are_still_refused(tmp_path):
    r = solve(tmp_path, {"bet": ["50%"], "raise": [], "donk": ["50%"]})
    assert r.exit_code == 1 and r.output.count("\n") == 1
    assert "the river starts this subgame, so nobody can donk bet on it" in r.output
