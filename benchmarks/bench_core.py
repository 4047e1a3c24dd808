"""CFR+ iteration and exact NashConv on openspiel:leduc_poker: zerosum against pyspiel's C++,
same game, same run, CPU time, medians.  Also the compile time.

    .venv/bin/python benchmarks/bench_core.py [--json] [--game leduc_poker]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from common import cpu_median, emit

import zerosum
from zerosum.core.compile import compile_game
from zerosum.games.openspiel import to_pyspiel_policy


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--game", default="leduc_poker")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    import pyspiel

    game = zerosum.load_game(f"openspiel:{args.game}")
    t0 = time.process_time()
    cg = compile_game(game)
    compile_s = time.process_time() - t0
    zerosum.compiled(game)  # fill the cache (and the adapter's action ids)
    os_game = game.game

    ours = zerosum.CFRPlusSolver(game)
    ours.iterate(5)  # warm-up
    ours_iter = cpu_median(lambda: ours.iterate(1), repeats=21, inner=50)
    theirs = pyspiel.CFRPlusSolver(os_game)
    theirs.evaluate_and_update_policy()
    theirs_iter = cpu_median(theirs.evaluate_and_update_policy, repeats=9, inner=3)

    policy = ours.average_policy()
    os_policy = to_pyspiel_policy(policy, game)
    ours_nc = cpu_median(lambda: zerosum.nash_conv(cg, policy), repeats=21, inner=50)
    theirs_nc = cpu_median(lambda: pyspiel.nash_conv(os_game, os_policy), repeats=9, inner=1)
    agree = abs(zerosum.nash_conv(cg, policy) - pyspiel.nash_conv(os_game, os_policy))

    rows = [
        {"operation": "CFR+ iteration", "zerosum_s": ours_iter, "openspiel_s": theirs_iter,
         "speedup": theirs_iter / ours_iter},
        {"operation": "exact NashConv", "zerosum_s": ours_nc, "openspiel_s": theirs_nc,
         "speedup": theirs_nc / ours_nc},
    ]
    emit(rows, f"core on openspiel:{args.game} (CPU time, medians)", args.json,
         {"compile_s": compile_s, "sizes": cg.sizes(), "nash_conv_difference": agree})


if __name__ == "__main__":
    main()
