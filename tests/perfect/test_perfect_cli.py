"""The search, tournament and play commands, through click's test runner."""

import json

from click.testing import CliRunner

from zerosum.cli import cli


def run(*args, input=None):
    return CliRunner().invoke(cli, list(args), input=input)


def test_search_tictactoe_json_reports_the_seeds_facts():
    r = run("search", "tictactoe", "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    rows = {row["algorithm"]: row for row in out["results"]}
    assert all(row["value"] == 0 for row in rows.values())
    assert rows["minimax"]["nodes"] == 549_946
    assert rows["alphabeta"]["nodes"] * 20 < rows["minimax"]["nodes"]
    assert rows["alphabeta_tt"]["tt_hits"] > 0 and rows["alphabeta_tt"]["tt_misses"] > 0
    assert rows["iterative_deepening"]["depth"] == 9


def test_search_from_moves_and_naive_table():
    r = run("search", "tictactoe", "--moves", "5 1", "-a", "alphabeta", "-a", "alphabeta_tt",
            "-a", "alphabeta_tt_naive", "--json")
    rows = {row["algorithm"]: row["value"] for row in json.loads(r.stdout)["results"]}
    assert rows == {"alphabeta": 0, "alphabeta_tt": 0, "alphabeta_tt_naive": 1}
    r = run("search", "connect4", "--moves", "4453", "--depth", "3", "-a", "alphabeta_tt_ordered", "--json")
    assert r.exit_code == 0 and json.loads(r.stdout)["results"][0]["depth"] == 3


def test_search_errors_are_one_line():
    for args, msg in [(("search", "connect4", "--moves", "448"), "move 3 ('8') of '448'"),
                      (("search", "connect4"), "give --depth"),
                      (("search", "tictactoe", "--moves", "5 5"), "already taken"),
                      (("search", "tictactoe", "-a", "magic"), "unknown algorithm"),
                      (("search", "go"), "unknown perfect-information game")]:
        r = run(*args)
        assert r.exit_code == 1 and "Traceback" not in r.output
        assert r.output.startswith("Error: ") and msg in r.output, r.output


def test_tournament_json():
    r = run("tournament", "tictactoe", "--agents", "random,alphabeta,random", "--games", "4", "--seed", "3",
            "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    names = [a["agent"] for a in out["agents"]]
    assert names == ["random", "alphabeta", "random#2"]
    ab = out["agents"][1]
    assert ab["losses"] == 0 and ab["games"] == 8 and ab["rating"] == max(a["rating"] for a in out["agents"])
    assert len(out["games"]) == 12 and out["games_per_pair"] == 4
    again = json.loads(run("tournament", "tictactoe", "--agents", "random,alphabeta,random", "--games", "4",
                           "--seed", "3", "--json").stdout)
    assert [g["moves"] for g in again["games"]] == [g["moves"] for g in out["games"]]
    r = run("tournament", "tictactoe", "--agents", "random")
    assert r.exit_code == 1 and "at least two agents" in r.output
    r = run("tournament", "tictactoe", "--agents", "random,solver")
    assert r.exit_code == 1 and "Connect Four only" in r.output


def test_play_connect4_reasks_illegal_input_with_the_reason():
    # the person plays first and drops everything in column 1 until it is full, with bad input between
    answers = ["8", "abc", "1", "1", "1", "1"]
    r = run("play", "connect4", "--agent", "random", "--first", "--seed", "5",
            input="\n".join(answers + ["1", "q"]) + "\n")
    assert r.exit_code == 0, r.output
    assert "illegal: move '8': type a column number 1-7; try again" in r.output
    assert "illegal: move 'abc': type a column number 1-7; try again" in r.output
    assert "| 1 2 3 4 5 6 7" not in r.output and "  1 2 3 4 5 6 7" in r.output
    assert r.output.count("random plays") >= 3


def test_play_reports_a_full_column_and_the_end_of_the_game():
    # tic-tac-toe against perfect play: taken cells are refused; the game ends in a draw or a loss
    r = run("play", "tictactoe", "--first", input="\n".join(["5", "5"] + [str(c) for c in range(1, 10)]) + "\n")
    assert r.exit_code == 0, r.output
    assert "illegal: move 5: that cell is already taken; try again" in r.output
    assert r.output.strip().splitlines()[-1] in ("draw", "alphabeta wins")
    # Connect Four: a full column is refused with its reason
    r = run("play", "connect4", "--agent", "random", "--seed", "1", "--param", "height=2", "--param", "width=4",
            "--first", input="1\n1\n1\nq\n")
    assert "illegal: move '1': column 1 is full; try again" in r.output
