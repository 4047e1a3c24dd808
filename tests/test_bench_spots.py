"""benchmarks/bench_poker_solvers.py's spot reader: the fixed-limit spot of the side-by-side benchmark
(shared/data/poker-spots/limit-turn-ks7d2c9h.json, copied here so the test stands alone) must be
exactly the game the issue measured (``zerosum solve holdem --param board=Ks7d2c9h --param
raises=3``), and the peer must get the same betting; a spot the limit game cannot hold is refused."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import bench_poker_solvers as bench

from zerosum.poker.holdem import HoldemGame

LIMIT_SPOT = {
    "name": "limit-turn-ks7d2c9h", "board": "Ks7d2c9h", "pot": 10, "stack": 1000, "ranges": ["", ""],
    "betting": "fixed-limit",
    "streets": {"turn": {"bet": ["4c"], "raise": ["4c2r"]}, "river": {"bet": ["4c"], "raise": ["4c2r"]}},
    "rake": {"rate": 0, "cap": 0}, "_path": "limit-turn-ks7d2c9h.json",
}


def test_limit_spot_is_the_issue_game():
    params = bench.zerosum_limit_params(LIMIT_SPOT)
    assert params == {"board": "Ks7d2c9h", "pot": 10, "stack": 1000, "bets": "[4,4]", "raises": 3}
    ours = HoldemGame(**{**params, "bets": [4, 4]})
    assert ours.params() == HoldemGame(board="Ks7d2c9h", raises=3).params()
    assert bench.zerosum_args(LIMIT_SPOT)[:2] == ["--param", "board=Ks7d2c9h"]
    args = bench.pfs_args(LIMIT_SPOT)
    flags = dict(zip(args[::2], args[1::2]))
    assert flags["--oop-range"] == flags["--ip-range"] == bench.FULL_RANGE
    for p in ("oop", "ip"):
        for street in ("turn", "river"):
            assert (flags[f"--{p}-{street}-bet"], flags[f"--{p}-{street}-raise"]) == ("4c", "4c2r")
    assert "--oop-flop-bet" not in flags  # a turn spot has no flop betting


@pytest.mark.parametrize("change", [
    {"betting": "no-limit"},
    {"streets": {"turn": {"bet": ["4c"], "raise": ["8c2r"]}, "river": {"bet": ["4c"], "raise": ["4c2r"]}}},
    {"streets": {"turn": {"bet": ["4c"], "raise": ["4c1r"]}, "river": {"bet": ["4c"], "raise": ["4c2r"]}}},
    {"rake": {"rate": 0.05, "cap": 3}},
])
def test_spots_the_limit_game_cannot_hold_go_to_spot(change):
    spot = {**LIMIT_SPOT, **change}
    with pytest.raises(bench.CannotExpress):
        bench.zerosum_limit_params(spot)
    # a raked spot: the file, and its rake as --param (what --rake RATE,CAP sets on every spot)
    raked = ["--param", "rake=0.05", "--param", "rake_cap=3"] if "rake" in change else []
    assert bench.zerosum_args(spot) == ["--spot", spot["_path"]] + raked
