"""Gambit interop: .efg files read and written through pygambit, checked against Gambit's own LP."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from click.testing import CliRunner

gbt = pytest.importorskip("pygambit", reason="the optional extra 'gambit' (pygambit) is not installed")

from zerosum import load_game
from zerosum.cli import cli
from zerosum.core.compile import compiled
from zerosum.errors import ZerosumError
from zerosum.games.efg import load_efg, to_gambit, write_efg
from zerosum.solvers import SOLVERS
from zerosum.solvers.lp import LPSolver


def _gambit_lp_value(path) -> Fraction:
    game = gbt.read_efg(str(path))
    eq = gbt.nash.lp_solve(game, rational=True).equilibria[0]
    return Fraction(str(eq.payoff(next(iter(game.players)))))


@pytest.fixture
def kuhn_efg(tmp_path):
    path = tmp_path / "kuhn.efg"
    write_efg(load_game("kuhn"), path)
    return path


@pytest.fixture
def myerson_efg(tmp_path):
    """One-card poker from Myerson (1991), shipped in pygambit's catalog, written as a file."""
    path = tmp_path / "myerson.efg"
    gbt.catalog.load("books/myerson1991/fig2_1").to_efg(str(path))
    return path


def test_kuhn_round_trip_keeps_sizes_and_value(kuhn_efg):
    back = compiled(load_efg(kuhn_efg))
    original = compiled(load_game("kuhn"))
    assert back.sizes() == original.sizes()
    assert abs(LPSolver(back).value - LPSolver(original).value) < 1e-12
    # same information sets, by label
    assert back.treeplexes[0].infoset_labels == original.treeplexes[0].infoset_labels


def test_agrees_with_gambit_lp_solve_on_kuhn(kuhn_efg):
    assert _gambit_lp_value(kuhn_efg) == Fraction(-1, 18)
    assert abs(LPSolver(compiled(load_efg(kuhn_efg))).value - (-1 / 18)) < 1e-12


def test_myerson_poker_value_matches_gambit_and_every_variant_converges(myerson_efg):
    cg = compiled(load_efg(myerson_efg))
    exact = float(_gambit_lp_value(myerson_efg))
    assert abs(LPSolver(cg).value - exact) < 1e-12
    for name in ("cfr", "cfr+", "lcfr", "dcfr", "pcfr+", "pdcfr+"):
        value = SOLVERS[name](cg).run(3000)[-1]["value_average"]
        assert abs(value - exact) < 1e-4, name


def test_leduc_round_trip(tmp_path):
    path = tmp_path / "leduc.efg"
    write_efg(load_game("leduc"), path)
    back = compiled(load_efg(path))
    assert back.sizes() == compiled(load_game("leduc")).sizes()
    assert abs(LPSolver(back).value - LPSolver(compiled(load_game("leduc"))).value) < 1e-12


def test_written_game_is_gambits_own(kuhn_efg):
    g = to_gambit(load_game("kuhn"))
    assert len(g.players) == 2 and g.is_perfect_recall and g.is_const_sum
    assert kuhn_efg.read_text().startswith("EFG 2 R")


def _write(g, path):
    g.to_efg(str(path))
    return path


def test_three_players_refused(tmp_path):
    g = gbt.Game.new_tree(players=["a", "b", "c"])
    g.append_move(g.root, "a", ["x", "y"])
    path = _write(g, tmp_path / "three.efg")
    with pytest.raises(ZerosumError, match="3 players"):
        load_efg(path)


def test_non_zero_sum_refused(tmp_path):
    g = gbt.Game.new_tree(players=["a", "b"])
    g.append_move(g.root, "a", ["x", "y"])
    g.set_outcome(g.root.children["x"], g.add_outcome("o1", [1, 0]))
    g.set_outcome(g.root.children["y"], g.add_outcome("o2", [0, 2]))
    path = _write(g, tmp_path / "nzs.efg")
    with pytest.raises(ZerosumError, match="not zero-sum"):
        load_efg(path)


def test_constant_sum_is_shifted_and_inner_outcomes_add_up(tmp_path):
    g = gbt.Game.new_tree(players=["a", "b"])
    g.append_move(g.root, "a", ["x", "y"])
    g.set_outcome(g.root, g.add_outcome("ante", [1, 1]))  # inner outcome, added to every leaf
    g.set_outcome(g.root.children["x"], g.add_outcome("o1", [3, 1]))
    g.set_outcome(g.root.children["y"], g.add_outcome("o2", [0, 4]))
    cg = compiled(load_efg(_write(g, tmp_path / "cs.efg")))
    # totals 4 + 2 = 6 at both leaves; player 0 gets (u0 - u1) / 2 = 1 or -2: best is 1
    assert abs(LPSolver(cg).value - 1.0) < 1e-12


@pytest.mark.parametrize("content, message", [
    ('EFG 2 R "x" { "a" "b" } garbage', "not a valid Gambit .efg file"),
    ("hello", "not a valid Gambit .efg file"),
])
def test_cli_malformed_file_is_one_line(tmp_path, content, message):
    path = tmp_path / "bad.efg"
    path.write_text(content)
    r = CliRunner().invoke(cli, ["solve", str(path), "-a", "lp"])
    assert r.exit_code == 1
    assert message in r.output and "Traceback" not in r.output
    assert len(r.output.strip().splitlines()) == 1


def test_cli_solves_an_efg_file(kuhn_efg):
    r = CliRunner().invoke(cli, ["solve", str(kuhn_efg), "-a", "dcfr", "-n", "200", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["game"].startswith("efg(file=kuhn.efg") and abs(out["value"] + 1 / 18) < 1e-3
    missing = CliRunner().invoke(cli, ["solve", str(kuhn_efg) + ".nope.efg"])
    assert missing.exit_code == 1 and "cannot read" in missing.output
