"""What the ``zerosum`` command reports: the solve header and its counts in English, the LP's
one-shot report, ``-a help``, readable first actions (whole range, strongest first), the public
tree's sizes as the history tree's, and OpenSpiel's games labelled on one line."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import zerosum
from zerosum.cli import cli

ZEROSUM = Path(sys.executable).parent / "zerosum"


def run(*args):
    return CliRunner().invoke(cli, list(args))


def test_lp_report_does_not_claim_iterations_or_a_curve(tmp_path):
    plot = tmp_path / "lp.png"
    r = run("solve", "kuhn", "-a", "lp", "-n", "1000", "--plot", str(plot), "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["iterations"] is None and out["updates"] is None
    assert [c["iteration"] for c in out["checkpoints"]] == [1] and out["checkpoints"][0]["nodes"] is None
    assert out["value"] == pytest.approx(-1 / 18, abs=1e-12)
    assert len(out["lp"]["sizes"]) == 1 and out["lp"]["sizes"][0]["simplex_iterations"] > 0
    assert not plot.exists() and "plot" not in out and "one shot" in out["notes"][0]
    text = run("solve", "kuhn", "-a", "lp", "-n", "1000").output
    assert "1000" not in text and "1,000" not in text and "LP 1" not in text
    assert "sequence-form LP:" in text and "from its duals" in text


def test_solve_header_shows_compile_time_and_grammar():
    r = run("solve", "kuhn", "-n", "1", "--checkpoints", "1")
    first = r.output.splitlines()[0]
    assert "compiled in" in first and "1 iteration in" in first and "1 iterations" not in first
    r = run("solve", "rps", "-n", "10")
    assert "-0.0000" not in r.output and "value of the game to player 0 (average strategy): 0.0000" in r.output


def test_algorithm_help_lists_every_solver_with_its_options():
    r = run("solve", "kuhn", "-a", "help", "--json")
    assert r.exit_code == 0, r.output
    rows = {row["algorithm"]: row for row in json.loads(r.stdout)["algorithms"]}
    from zerosum.public_tree.solver import VARIANTS

    # pcs-mccfr too (public tree only), resolve (re-solves a saved blueprint: zerosum.cli.resolve) and
    # continual (the tabulated re-solving agent: zerosum.cli.continual)
    assert set(rows) == set(zerosum.SOLVERS) | set(VARIANTS) | {"resolve", "continual"}
    assert "alpha=1.5" in rows["dcfr"]["options"] and "--seed" in rows["os-mccfr"]["options"]
    assert run("solve", "kuhn", "-a", "help").exit_code == 0


def test_option_without_equals_names_the_option():
    r = run("solve", "kuhn", "-a", "dcfr", "--option", "alpha")
    assert r.exit_code == 1 and r.output.strip() == "Error: --option expects KEY=VALUE, got 'alpha'"
    r = run("solve", "kuhn", "-a", "cfr", "--option", "alpha=1")
    assert r.exit_code == 1 and "cfr does not take --option alpha; it takes --simultaneous" in r.output


def test_zerosum_alone_prints_help_and_succeeds():
    r = subprocess.run([str(ZEROSUM)], capture_output=True, text=True, check=False)
    assert r.returncode == 0 and "Commands:" in r.stdout and "solve" in r.stdout


def test_openspiel_first_actions_are_readable():
    r = run("solve", "openspiel:leduc_poker", "-n", "10")
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("player 0's first action"))
    rows = lines[start + 1:start + 7]
    assert [row.split()[0] for row in rows] == ["[Private:"] * 6
    assert all(len(line) <= 100 for line in lines[start:start + 7])


def test_leduc_policy_evaluates_on_the_poker_default(tmp_path):
    p = tmp_path / "leduc.json"
    assert run("solve", "leduc", "-n", "30", "--save", str(p)).exit_code == 0
    a = json.loads(run("evaluate", "leduc", str(p), "--json").stdout)
    b = run("evaluate", "poker", str(p), "--json")
    assert b.exit_code == 0, b.output
    assert json.loads(b.stdout)["nash_conv"] == pytest.approx(a["nash_conv"], abs=1e-12)
    r = run("evaluate", "kuhn", str(p))
    assert r.exit_code == 1 and "made for game 'leduc', not 'kuhn'" in r.output


def test_a_count_of_one_is_singular():
    out = run("tournament", "nim", "-n", "1", "--agents", "random,random").output
    assert "1 game per pair" in out and "1 games" not in out


def test_simultaneous_openspiel_game_is_wrapped_turn_based_with_one_line_labels():
    pyspiel = pytest.importorskip("pyspiel")
    import zerosum
    from zerosum.core.compile import compiled
    from zerosum.games.openspiel import to_pyspiel_policy

    r = run("solve", "openspiel:goofspiel(num_cards=3)", "-n", "20", "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["game"].startswith("openspiel:turn_based_simultaneous_game(game=goofspiel(")
    assert out["first_actions"] and all("\n" not in label for label in out["first_actions"])
    game = zerosum.load_game("openspiel:goofspiel(num_cards=3)")
    solver = zerosum.CFRPlusSolver(game)
    solver.run(20)
    policy = solver.average_policy()
    assert all("\n" not in label for label in compiled(game).treeplexes[0].infoset_labels)
    # exported under OpenSpiel's own (multi-line) strings: OpenSpiel's NashConv agrees with ours
    ours = zerosum.nash_conv(game, policy)
    theirs = pyspiel.nash_conv(game.game, to_pyspiel_policy(policy, game))
    assert ours > 0 and theirs == pytest.approx(ours, abs=1e-9)


def test_first_actions_cover_the_whole_range_strongest_first_and_the_text_says_it_is_cut():
    from itertools import combinations

    board = {"Ks", "7d", "2c", "9h", "5s"}
    deck = [r + s for r in "23456789TJQKA" for s in "cdhs" if r + s not in board]
    # QQ+,AK off this board, counted independently: pairs of Q, K, A and any A with any K
    combos = [h for h in combinations(deck, 2)
              if (h[0][0] == h[1][0] and h[0][0] in "QKA") or {h[0][0], h[1][0]} == {"A", "K"}]
    assert len(combos) == 27  # QQ 6 + KK 3 + AA 6 + AK 4 x 3
    args = ["solve", "holdem", "--param", "board=Ks7d2c9h5s", "--param", "range0=QQ+,AK", "-n", "2"]
    first = json.loads(run(*args, "--json").stdout)["first_actions"]
    assert len(first) == 27
    ranks = ["23456789TJQKA".index(label[0]) * 13 + "23456789TJQKA".index(label[2]) for label in first]
    assert ranks == sorted(ranks, reverse=True)  # AA, then AK, KK, QQ: not the tree's arbitrary order
    text = run(*args).output
    assert "27 information sets; the first 13 in order, --json has all" in text
    assert sum(1 for line in text.splitlines() if line.startswith("  ") and "=" in line and "::" in line) == 13


@pytest.mark.parametrize("params", [("range0=QQ+", "range1=AK"), ("range0=QQ+,AK", "range1=AK,77"),
                                    ("range0=AA", "range1=KK,QQ", "raises=1")])
def test_public_tree_sizes_are_the_history_trees(params):
    """Each size the public-tree report gives (header and --json) is the history tree's count of the
    same game, for parameters that change it: a hand vector spans both ranges, and counting its
    slots reported 108 + 108 information sets where the game (range0=QQ+, range1=AK) has 60 + 48."""
    args = ["solve", "holdem", "--param", "board=Ks7d2c9h5s", "-n", "1"]
    for p in params:
        args += ["--param", p]
    history = json.loads(CliRunner().invoke(cli, [*args, "--form", "history-tree", "--json"]).output)["sizes"]
    public = json.loads(CliRunner().invoke(cli, [*args, "--json"]).output)
    assert public["histories"] == history["histories"]
    assert public["infoset_actions"] == sum(history["sequences"]) - 2  # less each player's empty sequence
    header = CliRunner().invoke(cli, args).output.splitlines()[0]
    assert f"infosets {history['infosets'][0]:,} + {history['infosets'][1]:,}" in header
