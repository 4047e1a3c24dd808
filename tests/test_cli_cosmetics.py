"""Issue 52's cosmetic items through the real command: the re-solve header prints a no-limit game's
id whole (rich took its ``[river bet=60% ...]`` for a style tag and printed ``betting=,``); the
poker family's node report keeps the missing equity's ``-`` in its column; OpenSpiel goofspiel's
first actions are told apart by the field that differs (all read ``Current player: 0 ...``)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from zerosum.cli import cli

RIVER = ["--param", "board=Ks7d2c9h5s", "--param", "range0=AsAh,KhQh,8s8h", "--param", "range1=QsJs,9d8d,AdKd",
         "--param", "betting=river bet=60%"]


def _run(*args):
    r = CliRunner().invoke(cli, [str(a) for a in args])
    assert r.exit_code == 0, r.output
    return r.output


def test_resolve_header_prints_the_betting_of_a_no_limit_id(tmp_path):
    bp = tmp_path / "bp.json"
    _run("solve", "holdem", *RIVER, "-n", "5", "--save", bp)
    game_id = json.loads(bp.read_text())["game"]
    assert "betting=[river bet=60%" in game_id
    out = _run("solve", "holdem", *RIVER, "-a", "resolve", "--option", f"blueprint={bp}", "--option", "node=::c",
               "-n", "5")
    header = " ".join(out.split())  # rich wraps the long line at its spaces
    assert header.startswith(f"{' '.join(game_id.split())}: re-solving blueprint"), out[:300]
    assert "betting=," not in header


def test_poker_family_node_report_keeps_the_equity_column(tmp_path):
    pol = tmp_path / "pk.json"
    _run("solve", "poker", "--form", "public-tree", "-n", "10", "--save", pol)
    out = _run("evaluate", "poker", pol, "--node", "J:cc/")
    lines = out.splitlines()
    heads = [k for k, line in enumerate(lines) if line.lstrip().startswith("hand") and "equity" in line]
    assert len(heads) == 2  # one table per player
    for k in heads:
        column_end = lines[k].index("equity") + len("equity") - 1
        rows = lines[k + 1:k + 4]  # J, Q, K
        assert [row.split()[0] for row in rows] == ["J", "Q", "K"]
        for row in rows:
            # the family computes no equity: its "-" stands right-aligned under the header's "equity"
            assert row[column_end] == "-" and row[column_end - 1] == " ", (lines[k], row)
            assert float(row.split()[3]) == float(row[:column_end - 6].split()[-1])  # EV stays before it


def test_goofspiel_first_actions_are_told_apart():
    pytest.importorskip("pyspiel")
    out = _run("solve", "openspiel:goofspiel(num_cards=3,imp_info=True)", "-n", "10")
    lines = out.splitlines()
    start = next(k for k, line in enumerate(lines) if line.startswith("player 0's first action"))
    shown = [line.strip().split("  ")[0] for line in lines[start + 1:start + 4]]
    assert shown == ["Point card sequence: 1", "Point card sequence: 2", "Point card sequence: 3"], lines[start:]
