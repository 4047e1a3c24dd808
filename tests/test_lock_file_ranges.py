"""Lock files name hands in range notation (``"99"``, ``"AKs"``, ``"AK"``, ``"QQ+"``): each
expands to the combos of it that the locked player holds (the board's cards removed), an exact
combo overrides its class, and a class the player does not hold is a one-line refusal."""

from __future__ import annotations

import itertools
import json

import pytest
from click.testing import CliRunner

import zerosum.cli

BOARD = "Ks7d2c9h5s"
ARGS = ["--param", f"board={BOARD}", "--param", "range0=QQ+,AK", "--param", "range1=JJ+,AQ+"]
RANKS = "23456789TJQKA"


def combos(cls: str) -> set[str]:
    """The combos of a class ('QQ', 'AKs', 'AK') that miss the board, as sorted card pairs."""
    board = {BOARD[i:i + 2] for i in range(0, len(BOARD), 2)}
    hi, lo, kind = cls[0], cls[1], cls[2:]
    out = set()
    for s0, s1 in itertools.product("cdhs", repeat=2):
        a, b = hi + s0, lo + s1
        if a == b or a in board or b in board or (kind == "s" and s0 != s1) or (kind == "o" and s0 == s1):
            continue
        out.add(frozenset((a, b)))
    return out


def solve(tmp_path, nodes, *more):
    path = tmp_path / "lock.json"
    path.write_text(json.dumps({"player": 1, "nodes": nodes}))
    return CliRunner().invoke(zerosum.cli.cli, ["solve", "holdem", *ARGS, "-n", "20", "--option", f"lock={path}",
                                                *more])


def locked_table(tmp_path, nodes, label="::c"):
    saved = tmp_path / "p.json"
    r = solve(tmp_path, nodes, "--json", "--save", str(saved))
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    data = json.loads(saved.read_text())
    entry = next(e for e in data["nodes"] if e["public"] == label)
    hands = data["hands"][1]
    table = {frozenset((h[:2], h[2:])): [entry["probs"][a][i] for a in range(len(entry["actions"]))]
             for i, h in enumerate(hands)}
    return out, table


def test_class_notation_locks_the_held_combos(tmp_path):
    out, table = locked_table(tmp_path, {"::c": {"QQ+": [0, 1], "AKs": [0.25, 0.75]}})
    queens_up = combos("QQ") | combos("KK") | combos("AA")
    assert len(queens_up) == 15 and len(combos("AKs")) == 3  # KK and AKs lose the board's Ks
    assert out["locks"]["hands"] == 18 and out["locks"]["nodes"] == 1
    for hand in queens_up:
        assert table[hand] == [0.0, 1.0]
    for hand in combos("AKs"):
        assert table[hand] == pytest.approx([0.25, 0.75], abs=1e-15)


def test_exact_combo_overrides_its_class(tmp_path):
    out, table = locked_table(tmp_path, {"::c": {"AK": [0, 1], "AcKc": [1, 0]}})
    assert out["locks"]["hands"] == len(combos("AK")) == 12
    assert table[frozenset(("Ac", "Kc"))] == [1.0, 0.0]
    for hand in combos("AK") - {frozenset(("Ac", "Kc"))}:
        assert table[hand] == [0.0, 1.0]


@pytest.mark.parametrize("nodes,message", [
    ({"::c": {"77": [0, 1]}}, ("'77' names no hand of player 1's range at '::c' (none held, or its cards are on "
                               "the board)")),
    ({"::c": {"AK": [0, 1], "AKs": [1, 0]}}, "'AK' and 'AKs' both name"),
])
def test_a_class_not_held_is_one_line(tmp_path, nodes, message):
    r = solve(tmp_path, nodes)
    assert r.exit_code == 1 and r.output.startswith("Error: ") and message in r.output, r.output
    assert r.output.count("\n") == 1
