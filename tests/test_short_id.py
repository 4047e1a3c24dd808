"""A progress line names the game by a short id: a hold'em spot's id holds both ranges (809
characters for TexasSolver's flop), so the line shows its board, pot and stack instead."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from zerosum.cli.common import SHORT_ID, short_id
from zerosum.games import load_game
from zerosum.poker.spots import read_spot

FLOP = Path(__file__).parents[1].parent / "shared" / "data" / "poker-spots" / "texassolver-sample-flop-qsjh2h.json"


def test_a_short_id_is_kept_whole():
    assert short_id("kuhn") == "kuhn"
    assert short_id("leduc(raises=2)") == "leduc(raises=2)"


def test_a_long_id_without_a_board_is_cut():
    long = "poker(" + ",".join(f"p{i}={i}" for i in range(40)) + ")"
    out = short_id(long)
    assert len(out) == SHORT_ID and out.endswith("...") and long.startswith(out[:-3])


@pytest.mark.skipif(not FLOP.exists(), reason="../shared/data/poker-spots is not here")
def test_a_spot_is_named_by_its_board_pot_and_stack():
    spot = json.loads(FLOP.read_text())
    game = load_game("holdem", **read_spot(str(FLOP)))
    assert len(game.id) > 500
    out = short_id(game.id)
    assert out == f"holdem(board={spot['board']},pot={spot['pot']},stack={spot['stack']},...)"
    assert "range" not in out and len(out) <= SHORT_ID
