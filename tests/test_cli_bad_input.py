"""Bad input a new user types (issue 10): one clear line naming the problem, never a traceback.

Through the real ``zerosum`` command (click's runner on the entry point's group)."""

import json

import pytest
from click.testing import CliRunner

import zerosum
from zerosum.cli import cli


def run(*args):
    return CliRunner().invoke(cli, list(args))


def one_line_error(r, *fragments):
    assert r.exit_code == 1, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    assert "Traceback" not in r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), r.output
    for f in fragments:
        assert f in lines[0], (f, lines[0])
    return lines[0]


@pytest.mark.parametrize("payoffs, detail", [
    ("[[1,2],[3]]", "rows of lengths [2, 1]"),
    ("abc", "got 'abc'"),
    ('[[1,"a"]]', "the entry 'a'"),
    ("[1,2]", "not a list"),
    ("[[]]", "rows of lengths [0]"),
])
def test_matrix_payoffs_that_are_not_a_matrix(payoffs, detail):
    r = run("solve", "matrix", "--param", f"payoffs={payoffs}", "-n", "10")
    one_line_error(r, "payoffs must be a rectangular matrix of numbers", detail)


def test_load_game_matrix_raises_zerosum_error():
    with pytest.raises(zerosum.ZerosumError, match="rectangular matrix"):
        zerosum.load_game("matrix", payoffs=[[1, 2], [3]])
    with pytest.raises(zerosum.ZerosumError, match="rectangular matrix"):
        zerosum.load_game("matrix", payoffs=[[1, "a"]])
    # a ragged matrix with a numpy array row is refused too, a good one still works
    g = zerosum.load_game("matrix", payoffs=[[0, 1], [1, 0]])
    assert g.payoffs.tolist() == [[0.0, 1.0], [1.0, 0.0]]


@pytest.mark.parametrize("args, fragments", [
    (("solve", "poker", "--param", "rank=5"),
     ("no parameter 'rank'", "ranks (default 3)", "copies (default 2)", "raises (default 2)")),
    (("solve", "kuhn", "--param", "ranks=4"), ("kuhn", "no parameter 'ranks'", "it takes no parameters")),
    (("solve", "matrix"), ("payoffs is required", "--param payoffs=")),
    (("search", "nim", "--param", "heap=3"), ("no parameter 'heap'", "heaps (default [3,4,5])")),
])
def test_wrong_parameter_names_list_the_valid_keys(args, fragments):
    line = one_line_error(run(*args), *fragments)
    for internal in ("__init__", "positional argument", "takes no arguments", "keyword argument"):
        assert internal not in line


def test_hidden_constructor_arguments_are_not_offered():
    line = one_line_error(run("solve", "poker", "--param", "rank=5"))
    assert "max_bytes" not in line
    line = one_line_error(run("solve", "matrix", "--param", "payofs=1"))
    assert "name" not in line.split("it takes")[1]


def test_search_refuses_by_measured_size_not_by_move_count():
    # 16 moves left, but 752 positions: the table searches solve it; the full-tree ones are skipped
    r = run("search", "nim", "--param", "heaps=[1,3,5,7]", "--max-nodes", "200000", "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["positions"] == 752 and out["tree_nodes"] > 10 ** 8
    rows = {row["algorithm"]: row for row in out["results"]}
    # Bouton: nim-sum 1^3^5^7 = 0, so the player to move loses
    assert rows["alphabeta_tt_ordered"]["value"] == -1 and rows["alphabeta_tt"]["value"] == -1
    skipped = {s["algorithm"] for s in out["skipped"]}
    assert {"minimax", "negamax"} <= skipped
    assert not skipped & set(rows)


def test_search_node_budget_and_the_full_board():
    r = run("search", "mnk", "--param", "m=4", "--param", "n=4", "--param", "k=3",
            "-a", "alphabeta_tt_ordered", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["results"][0]["value"] == 1      # 3 in a row on 4x4: first player wins
    one_line_error(run("search", "mnk", "--param", "m=4", "--param", "n=4", "--param", "k=3",
                       "-a", "minimax", "--max-nodes", "1000"), "minimax: stopped after 1,000 nodes",
                   "--depth")
    one_line_error(run("search", "connect4"), "give --depth")


def test_analyze_empty_file_is_an_error(tmp_path):
    empty = tmp_path / "positions.txt"
    empty.write_text("\n\n")
    one_line_error(run("analyze", "connect4", "--file", str(empty)), "holds no position")


def test_connect4_moves_with_spaces_or_commas(tmp_path):
    # the same position however the moves are separated
    moves = "2252576253462244111563365343671351441"      # Pons's Test_L3_R1, line 1: score -1
    compact = run("analyze", "connect4", moves, "--json")
    assert compact.exit_code == 0, compact.output
    assert json.loads(compact.stdout)["score"] == -1
    for spelling in (" ".join(moves), ",".join(moves)):
        r = run("analyze", "connect4", spelling, "--json")
        assert r.exit_code == 0, r.output
        assert json.loads(r.stdout)["columns"] == json.loads(compact.stdout)["columns"]
        r = run("search", "connect4", "--moves", spelling, "--depth", "2", "-a", "alphabeta", "--json")
        assert r.exit_code == 0, r.output


def test_games_lists_every_kind_of_game():
    r = run("games", "--json")
    assert r.exit_code == 0, r.output
    rows = {g["name"]: g for g in json.loads(r.stdout)["games"]}
    assert {name for name, g in rows.items() if g["kind"] == "perfect"} == {"tictactoe", "connect4", "mnk", "nim"}
    assert rows["FILE.efg"]["kind"] == "imperfect" and rows["leduc"]["sizes"]["histories"] == 1939
    text = run("games").output
    assert "FILE.efg" in text and "tictactoe" in text and "1,939" in text


def test_missing_efg_file_is_named_before_any_extra_hint(tmp_path):
    one_line_error(run("solve", str(tmp_path / "nothere.efg")), "nothere.efg", "no such file")
    one_line_error(run("evaluate", str(tmp_path / "nothere.efg"), "p.json"), "no such file")


def test_plot_format_checked_before_any_work(monkeypatch, tmp_path):
    from zerosum.cli import imperfect

    monkeypatch.setattr(imperfect, "load_from_cli", lambda *a: (_ for _ in ()).throw(AssertionError("work")))
    one_line_error(run("solve", "leduc", "--plot", str(tmp_path / "c.txt")), ".txt is not an image format", ".png")
    one_line_error(run("experiment", "kuhn", "--plot", str(tmp_path / "k.doc")), ".doc is not an image format")
    assert not list(tmp_path.iterdir())


def test_search_time_budget_must_be_positive():
    one_line_error(run("search", "tictactoe", "-a", "iterative_deepening", "--time", "-1"), "--time must be positive")


def test_long_openspiel_games_are_refused_in_seconds():
    import time

    start = time.perf_counter()
    one_line_error(run("solve", "openspiel:chess"), "openspiel:chess is too large to compile")
    assert time.perf_counter() - start < 30


def test_nim_counts_players_from_zero_like_everything_else():
    from zerosum.perfect import load_perfect_game

    nim = load_perfect_game("nim", heaps=[1, 2])
    s = nim.initial_state()
    assert nim.render(s).splitlines()[-1] == "player 0 to move" and nim.player(s) == 0
    s = nim.result(s, nim.parse_move(s, "2:1"))
    assert nim.render(s).splitlines()[-1] == "player 1 to move" and nim.player(s) == 1


@pytest.mark.parametrize("labels, detail", [
    ("row_labels=5", "row_labels must be a list of 1 distinct name, one per row; got 5"),
    ('row_labels=["a","b"]', "got ['a', 'b']"),
    ('col_labels=["a","a"]', "col_labels must be a list of 2 distinct names, one per column"),
])
def test_matrix_labels_checked(labels, detail):
    one_line_error(run("solve", "matrix", "--param", "payoffs=[[1,2]]", "--param", labels), detail)


@pytest.mark.parametrize("args", [
    ("holdem", "--param", "board=Ks7d2c9h4s"),  # full ranges: 22 M histories
    ("poker", "--param", "ranks=13", "--param", "copies=4", "--param", "raises=8"),  # 1.2 M terminals
])
def test_lp_refuses_a_game_that_would_run_for_hours_before_compiling(args, monkeypatch):
    from zerosum.cli import imperfect

    def no_compile(*a, **k):
        raise AssertionError("compiled before refusing")

    monkeypatch.setattr(imperfect, "compile_with_progress", no_compile)
    r = run("solve", *args, "-a", "lp")
    assert r.exit_code == 1
    assert "too large for the exact LP" in r.output and "histories" in r.output
    assert len(r.output.strip().splitlines()) == 1


def test_lp_still_solves_a_member_below_the_limit():
    r = run("solve", "poker", "--param", "ranks=4", "--param", "copies=2", "-a", "lp", "--form", "history-tree",
            "--json")
    assert r.exit_code == 0, r.output
    assert abs(json.loads(r.stdout)["nash_conv"]) < 1e-9
