"""No-limit and fixed-limit betting for hold'em subgames: the size notation on exact amounts, the
limit subgames as one case of it (bit for bit), a no-limit spot on both compiled forms, spot files
and their one-line errors through the CLI."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from zerosum.cli import cli
from zerosum.core.compile import compile_game
from zerosum.errors import ZerosumError
from zerosum.poker.betting import Betting, legal_actions, parse_size
from zerosum.poker.holdem import HoldemGame
from zerosum.poker.spots import spot_params
from zerosum.public_tree.compile import public_tree
from zerosum.public_tree.solver import public_solver
from zerosum.solvers import SOLVERS

PFS_TURN = {"turn": {"bet": ["60%", "e", "a"], "raise": ["2.5x"]},
            "river": {"bet": ["60%", "e", "a"], "raise": ["2.5x"], "donk": ["50%"]}}
#: the spot files of shared/data/poker-spots (kept here: the tests do not read outside the repository)
LIMIT_SPOT = {"name": "limit-turn-ks7d2c9h", "board": "Ks7d2c9h", "pot": 10, "stack": 1000, "ranges": ["", ""],
              "betting": "fixed-limit", "streets": {"turn": {"bet": ["4c"], "raise": ["4c2r"]},
                                                    "river": {"bet": ["4c"], "raise": ["4c2r"]}},
              "notes": "...", "rake": {"rate": 0, "cap": 0}}
PFS_SPOT = {"name": "pfs-example-turn-td9d6h-qc", "board": "Td9d6hQc", "pot": 200, "stack": 900,
            "ranges": ["66+,A8s+,A5s-A4s,AJo+,K9s+,KQo,QTs+,JTs,96s+,85s+,75s+,65s,54s",
                       "QQ-22,AQs-A2s,ATo+,K5s+,KJo+,Q8s+,J8s+,T7s+,96s+,86s+,75s+,64s+,53s+"],
            "betting": "no-limit", "streets": PFS_TURN, "same_sizes_for_both_players": True,
            "add_allin_threshold": 1.5, "add_allin_note": "...", "force_allin_threshold": 0.15,
            "merging_threshold": 0.1, "rake": {"rate": 0, "cap": 0}}


def _acts(spec, rounds, pot=200, stack=900, first=1, **thresholds):
    rules = Betting.from_spec(spec, first, **thresholds)
    return legal_actions(rules, pot, stack, rounds, 3 - first - len(rounds) + 1)


def test_sizes_on_exact_amounts():
    # pot 200, stack 900, a turn subgame: 60% = 120, e over the 2 streets left: ((2*4.5+1)^(1/2)-1)/2
    # of the pot = 1.081 * 200 -> 216, all-in 900
    assert _acts(PFS_TURN, ("",)) == [("c", 0), ("b120", 120), ("b216", 216), ("a", 900)]
    # a raise of 2.5x the 120 bet is to 300; facing it, 2.5x is 750 (no threshold: stays a raise)
    assert _acts(PFS_TURN, ("b120",)) == [("f", 0), ("c", 120), ("r300", 300)]
    assert _acts(PFS_TURN, ("b120r300",)) == [("f", 0), ("c", 300), ("r750", 750)]
    # force all-in: the stack left after a call of 750 is 150 <= 0.15 * 1700 (the pot then) -> all-in
    assert _acts(PFS_TURN, ("b120r300",), force_allin=0.15) == [("f", 0), ("c", 300), ("a", 900)]
    assert _acts(PFS_TURN, ("b120r300",), force_allin=0.05) == [("f", 0), ("c", 300), ("r750", 750)]
    # add all-in: offered besides the raise when 900 <= 300 + t * 800 (the pot after calling): t = 0.75, not 0.74
    assert _acts(PFS_TURN, ("b120r300",), add_allin=0.75) == [("f", 0), ("c", 300), ("r750", 750), ("a", 900)]
    assert _acts(PFS_TURN, ("b120r300",), add_allin=0.74) == [("f", 0), ("c", 300), ("r750", 750)]
    # river: 'e' is then one street (all-in 780 after the 120 called); donk 50% of 440 = 220 only when
    # player 0 called the turn's bet
    assert _acts(PFS_TURN, ("b120c", "")) == [("c", 0), ("b264", 264), ("a", 780)]
    assert _acts(PFS_TURN, ("cb120c", "")) == [("c", 0), ("b220", 220)]
    # a raise below the minimum (120 + the 120 increment) is raised to it; percent raises are the
    # previous bet plus the percent of the pot after calling (120 + 0.5 * 440 = 340)
    spec = {"turn": {"bet": ["60%"], "raise": ["1.2x", "50%"]}, "river": {"bet": ["a"]}}
    assert _acts(spec, ("b120",)) == [("f", 0), ("c", 120), ("r240", 240), ("r340", 340)]
    # merging 0.1: 120 (0.6 pot) goes, as 1.1 * 0.6 + 0.1 >= 0.7, the next size kept; 140 stays
    spec = {"turn": {"bet": ["60%", "70%", "150%"], "raise": []}, "river": {"bet": []}}
    assert _acts(spec, ("",)) == [("c", 0), ("b120", 120), ("b140", 140), ("b300", 300)]
    assert _acts(spec, ("",), merging=0.1) == [("c", 0), ("b140", 140), ("b300", 300)]
    # fixed limit 4c / 4c2r: a bet and two raises, then only fold or call
    spec = {"turn": {"bet": ["4c"], "raise": ["4c2r"]}, "river": {"bet": ["4c"], "raise": ["4c2r"]}}
    assert _acts(spec, ("b4r8",), pot=10) == [("f", 0), ("c", 8), ("r12", 12)]
    assert _acts(spec, ("b4r8r12",), pot=10) == [("f", 0), ("c", 12)]
    assert parse_size("2e").count == 2 and parse_size("e").count == 0 and parse_size("4c2r").count == 2


@pytest.mark.parametrize("token,message", [("7q", "'7q'"), ("0e", "at least 1 street"), ("0c", "positive")])
def test_bad_size_is_one_line(token, message):
    with pytest.raises(ZerosumError, match=message) as info:
        parse_size(token)
    assert "\n" not in str(info.value)
    with pytest.raises(ZerosumError, match="only a raise"):
        Betting.from_spec({"river": {"bet": ["2.5x"]}}, 2)


def test_limit_is_the_new_notation_bit_for_bit():
    """Today's limit subgame and the same rules written 4c / 4c2r (the limit spot file, with narrow
    ranges): the same public tree and the same DCFR numbers to the last bit; only the labels differ."""
    ranges = {"range0": "AsAh,Kh7h,QdJd", "range1": "QsQh,9s8s,Ac2d"}
    old = HoldemGame(board="Ks7d2c9h", pot=10, stack=1000, bets=[4, 4], raises=3, **ranges)
    new = HoldemGame(**{**spot_params(LIMIT_SPOT), **ranges})
    assert old.estimated_sizes() == new.estimated_sizes()
    a, b = public_tree(old), public_tree(new)
    assert a.n_nodes == b.n_nodes == old.estimated_sizes()["public_nodes"]
    for field in ("kind", "player", "parent", "board", "stake", "n_children"):
        assert np.array_equal(getattr(a, field), getattr(b, field)), field
    assert a.labels[2] == "::r" and b.labels[2] == "::b4"
    ra, rb = public_solver("dcfr", a).run(8)[-1], public_solver("dcfr", b).run(8)[-1]
    assert ra["nash_conv_average"] == rb["nash_conv_average"] and ra["value_average"] == rb["value_average"]


@pytest.mark.parametrize("board,r0,r1", [("Td9d6hQc3s", "AA,KQs,87s", "QQ,JTs,A5s"),
                                         ("Td9d6hQc", "AsAh,8h7h", "QsQh,Ac5c")])
def test_nolimit_agrees_with_history_tree(board, r0, r1):
    """A river spot and a turn one (all-in on the turn: the river is dealt with no more betting)."""
    betting = "river bet=60%,e,a raise=2.5x" if len(board) == 10 else PFS_TURN
    game = HoldemGame(board=board, pot=200, stack=900, range0=r0, range1=r1, betting=betting, add_allin=1.5,
                      force_allin=0.15, merging=0.1)
    tree, cg = public_tree(game), compile_game(game)
    est = game.estimated_sizes()
    assert (tree.n_nodes, sum(tree.infoset_actions()), cg.n_histories) == \
        (est["public_nodes"], est["infoset_actions"], est["histories"])
    if len(board) == 8:  # the all-in runout: a turn all-in called, then the river card and a showdown
        assert any(label.endswith(":ac/") for label in tree.labels)
    for name in ("dcfr", "cfr+"):
        hist, pub = SOLVERS[name](cg), public_solver(name, tree)
        a, b = hist.run(6)[-1], pub.run(6)[-1]
        assert abs(a["nash_conv_average"] - b["nash_conv_average"]) < 1e-9
        assert abs(a["value_average"] - b["value_average"]) < 1e-9
    assert a["nash_conv_average"] > 1  # not solved yet: the agreement is not trivial


def test_bad_rake_and_mixed_betting_refused():
    with pytest.raises(ZerosumError, match="takes no rake at all"):
        HoldemGame(board="Td9d6hQc3s", betting="river bet=50%", rake={"rate": 0.05, "cap": 0})
    with pytest.raises(ZerosumError, match="not both"):
        HoldemGame(board="Td9d6hQc3s", betting="river bet=50%", raises=2)
    with pytest.raises(ZerosumError, match="too large even for the public tree") as info:
        HoldemGame(board="QsJh2h", pot=50, stack=200, betting={s: {"bet": ["50%", "a"], "raise": ["60%", "a"]}
                                                              for s in ("flop", "turn", "river")}, max_bytes=10**9)
    assert "\n" not in str(info.value)


def _write(tmp_path, name, **change):
    spot = dict(PFS_SPOT)
    for k, v in change.items():
        spot.pop(k) if v is None else spot.__setitem__(k, v)
    path = tmp_path / name
    path.write_text(json.dumps(spot))
    return str(path)


def test_cli_spot_solves_and_param_overrides(tmp_path):
    path = _write(tmp_path, "river.json", board="Td9d6hQc3s", ranges=["AA,KQs", "QQ,JTs"],
                  streets={"river": {"bet": ["60%", "a"], "raise": ["2.5x"]}})
    policy = str(tmp_path / "p.json")
    out = CliRunner().invoke(cli, ["solve", "holdem", "--spot", path, "--param", "stack=100", "-a", "dcfr",
                                   "-n", "3", "--save", policy, "--json"])
    assert out.exit_code == 0, out.output
    r = json.loads(out.output)
    assert "stack=100" in r["game"] and "pot=200" in r["game"]
    # 60% of 200 is 120, past the 100 left: all-in only
    assert set(next(iter(r["first_actions"].values()))) == {"c", "a"}
    # evaluate: from the spot (and the same --param), or from the game id the policy file holds
    for extra in (["--spot", path, "--param", "stack=100"], []):
        ev = CliRunner().invoke(cli, ["evaluate", "holdem", policy, *extra, "--json"])
        assert ev.exit_code == 0, ev.output
        # the file holds probabilities to 9 decimals (public_tree/policy.py), hence not 1e-9
        assert json.loads(ev.output)["nash_conv"] == pytest.approx(r["nash_conv"], abs=1e-6)


@pytest.mark.parametrize("change,message", [
    ({"pot": None}, "has no 'pot' field"),
    ({"streets": {"turn": {"bet": ["60%", "7q"]}, "river": {"bet": ["a"]}}}, "cannot read bet size '7q' in turn bet"),
    ({"rake": {"rate": 0.05, "cap": 0}}, "takes no rake at all"),
    ({"rake": {"rate": 5, "cap": 3}}, "a rate from 0 to 1"),
    ({"board": "KsKdKhQc", "ranges": ["KK", "AA"]}, "range 'KK' names only hands"),
    ({"stack": 3, "betting": "fixed-limit", "add_allin_threshold": None, "force_allin_threshold": None,
      "merging_threshold": None, "streets": {"turn": {"bet": ["4c"]}, "river": {"bet": ["4c"]}}},
     r"stack \(3\) is smaller than the 4c size"),
    ({"merge_threshold": 0.1}, "unknown field 'merge_threshold'"),
])
def test_cli_bad_spot_is_one_line(tmp_path, change, message):
    path = _write(tmp_path, "bad.json", **change)
    out = CliRunner().invoke(cli, ["solve", "holdem", "--spot", path, "-n", "2"])
    assert out.exit_code == 1
    lines = out.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ")
    import re

    assert re.search(message, lines[0]), lines[0]
    out = CliRunner().invoke(cli, ["solve", "kuhn", "--spot", path])
    assert out.exit_code == 1 and "zerosum solve holdem --spot" in out.output
