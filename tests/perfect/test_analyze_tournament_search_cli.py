"""The perfect-information commands: ``analyze connect4 --file`` reports mismatches, ``analyze``
takes ``--param`` like the others, ``tournament`` without ``--agents`` runs a default field, and
``search`` shows who won once the game is over."""

from __future__ import annotations

import json

from click.testing import CliRunner

from zerosum.cli import cli

# Two late positions of Pons's test set (Test_L3_R1): exact scores -1 and 1, solved in well under a second.
POS_A = "2252576253462244111563365343671351441"
POS_B = "7422341735647741166133573473242566"


def _run(args):
    return CliRunner().invoke(cli, args)


def test_analyze_file_lists_mismatches_and_exits_1(tmp_path):
    f = tmp_path / "set.txt"
    f.write_text(f"# a header comment\n\n{POS_A} -1  # right\n{POS_B} 3\n", encoding="utf-8")
    r = _run(["analyze", "connect4", "--file", str(f), "--table-size-log2", "18"])
    assert r.exit_code == 1, r.output
    assert f"line 4: {POS_B} expected 3, got 1" in r.output
    assert "line 3" not in r.output.replace(f"{POS_A} -1", "")
    r = _run(["analyze", "connect4", "--file", str(f), "--table-size-log2", "18", "--json"])
    assert r.exit_code == 1
    out = json.loads(r.stdout)
    assert out["mismatches"] == 1
    assert out["mismatched"] == [{"line": 4, "moves": POS_B, "expected": 3, "score": 1}]
    assert [p["match"] for p in out["positions"]] == [True, False]


def test_analyze_file_all_right_exits_0(tmp_path):
    f = tmp_path / "set.txt"
    f.write_text(f"{POS_A} -1\n# trailing comment\n{POS_B} 1\n", encoding="utf-8")
    r = _run(["analyze", "connect4", "--file", str(f), "--table-size-log2", "18", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert (out["count"], out["checked"], out["mismatches"], out["mismatched"]) == (2, 2, 0, [])


def test_analyze_takes_param_width_height():
    new = _run(["analyze", "connect4", "11", "--param", "width=4", "--param", "height=4", "--json"])
    assert new.exit_code == 0, new.output
    old = _run(["analyze", "connect4", "11", "--width", "4", "--height", "4", "--json"])
    a, b = json.loads(new.stdout), json.loads(old.stdout)
    assert (a["width"], a["height"]) == (4, 4)
    assert [c["score"] for c in a["columns"]] == [c["score"] for c in b["columns"]]
    assert len(a["columns"]) == 4
    bad = _run(["analyze", "connect4", "11", "--param", "depth=3"])
    assert bad.exit_code == 1 and "--param width=" in bad.output and "Traceback" not in bad.output


def test_search_after_game_over_says_who_won_not_move_none():
    r = _run(["search", "tictactoe", "--moves", "1 4 2 5 3", "--algorithm", "negamax"])
    assert r.exit_code == 0, r.output
    assert "game over: the first player won" in r.output
    assert "None" not in r.output
    r = _run(["search", "tictactoe", "--moves", "1 4 2 5 3", "--algorithm", "negamax", "--json"])
    out = json.loads(r.stdout)
    assert (out["game_over"], out["winner"]) == (True, 0)
    assert [x["move"] for x in out["results"]] == [None] and out["results"][0]["value"] == -1
    running = json.loads(_run(["search", "tictactoe", "--moves", "1 4 2 5", "--algorithm", "negamax",
                               "--json"]).stdout)
    assert (running["game_over"], running["winner"]) == (False, None)


def test_nim_game_over_screen_names_the_winner():
    r = _run(["search", "nim", "--param", "heaps=[1, 1]", "--moves", "1:1 2:1", "--algorithm", "negamax"])
    assert r.exit_code == 0, r.output
    assert "game over: player 1 took the last object and wins" in r.output
    assert "to move" not in r.output.split("game over")[0]


def test_tournament_without_agents_runs_a_default_field():
    r = _run(["tournament", "tictactoe", "--games", "1", "--seed", "1", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert sorted(a["agent"] for a in out["agents"]) == ["alphabeta", "mcts:200", "random"]
    assert all(a["games"] == 2 for a in out["agents"])      # one game against each of the other two
    perfect = next(a for a in out["agents"] if a["agent"] == "alphabeta")
    assert perfect["losses"] == 0                            # a full search never loses tic-tac-toe
