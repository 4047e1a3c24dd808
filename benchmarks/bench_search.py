"""Tic-tac-toe from the empty board: node counts and times of our searches and OpenSpiel's.

Ours: minimax, alpha-beta (natural move order), alpha-beta with move ordering, alpha-beta with a
transposition table (with and without ordering), iterative deepening.  The peer, in the same run:
OpenSpiel's Python ``minimax.alpha_beta_search`` (alpha-beta over pyspiel's C++ tic_tac_toe states,
natural move order: the same algorithm as our ``alphabeta``) and ``minimax.expectiminimax`` (plain
minimax on a deterministic game).  Their node counts are measured by wrapping the recursive
function once, outside the timed runs.  Prints medians and the ratios of medians (ours / peer).

    .venv/bin/python benchmarks/bench_search.py [--reps 5] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from zerosum.perfect import load_perfect_game
from zerosum.perfect.search import alphabeta, alphabeta_tt, iterative_deepening, minimax


def timed(fn, reps):
    times, out = [], None
    for _ in range(reps):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return out, times


def ours(reps):
    g = load_perfect_game("tictactoe")
    s = g.initial_state()
    cases = {
        "minimax": lambda: minimax(g, s),
        "alphabeta": lambda: alphabeta(g, s),
        "alphabeta_ordered": lambda: alphabeta(g, s, order=True),
        "alphabeta_tt": lambda: alphabeta_tt(g, s, order=False),
        "alphabeta_tt_ordered": lambda: alphabeta_tt(g, s, order=True),
        "iterative_deepening": lambda: iterative_deepening(g, s, time_budget=60),
    }
    rows = []
    for name, fn in cases.items():
        r, times = timed(fn, max(1, reps // 2) if name == "minimax" else reps)
        rows.append({"impl": "zerosum", "algorithm": name, "value": r.value, "nodes": r.stats.nodes,
                     "tt_hits": r.stats.tt_hits, "tt_misses": r.stats.tt_misses,
                     "median_s": statistics.median(times), "min_s": min(times), "reps": len(times)})
    return rows


def peer(reps):
    try:
        import pyspiel
        from open_spiel.python.algorithms import minimax as osm
    except ImportError:
        return []
    game = pyspiel.load_game("tic_tac_toe")
    rows = []

    # node counts: wrap the recursive functions once (they call themselves through the module)
    counts = {}
    for fname in ("_alpha_beta", "expectiminimax"):
        original = getattr(osm, fname)
        n = [0]

        def counting(*a, _f=original, _n=n, **k):
            _n[0] += 1
            return _f(*a, **k)

        setattr(osm, fname, counting)
        try:
            if fname == "_alpha_beta":
                osm.alpha_beta_search(game, maximizing_player_id=0)
            else:
                osm.expectiminimax(game.new_initial_state(), 9, None, 0)
        finally:
            setattr(osm, fname, original)
        counts[fname] = n[0]

    (v, _), times = timed(lambda: osm.alpha_beta_search(game, maximizing_player_id=0), reps)
    rows.append({"impl": "open_spiel", "algorithm": "alphabeta", "value": v, "nodes": counts["_alpha_beta"],
                 "median_s": statistics.median(times), "min_s": min(times), "reps": reps})
    v, times = timed(lambda: osm.expectiminimax(game.new_initial_state(), 9, None, 0), max(1, reps // 2))
    v = v[0] if isinstance(v, tuple) else v     # (value, action)
    rows.append({"impl": "open_spiel", "algorithm": "minimax", "value": v, "nodes": counts["expectiminimax"],
                 "median_s": statistics.median(times), "min_s": min(times), "reps": len(times)})
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rows = ours(args.reps) + peer(args.reps)
    by = {(r["impl"], r["algorithm"]): r for r in rows}
    ratios = {}
    for ours_name, peer_name in [("alphabeta", "alphabeta"), ("alphabeta_tt_ordered", "alphabeta"),
                                 ("minimax", "minimax")]:
        a, b = by.get(("zerosum", ours_name)), by.get(("open_spiel", peer_name))
        if a and b:
            ratios[f"{ours_name} / open_spiel {peer_name}"] = a["median_s"] / b["median_s"]
    out = {"benchmark": "search", "game": "tic-tac-toe, empty board", "rows": rows,
           "time_ratios_ours_over_peer": ratios}
    if args.json:
        print(json.dumps(out, indent=1))
        return
    print(f"{'impl':<11} {'algorithm':<22} {'value':>5} {'nodes':>9} {'TT hits':>8} {'TT misses':>9} "
          f"{'median ms':>10} {'min ms':>9}")
    for r in rows:
        print(f"{r['impl']:<11} {r['algorithm']:<22} {r['value']:>5.0f} {r['nodes']:>9,} "
              f"{r.get('tt_hits', 0):>8,} {r.get('tt_misses', 0):>9,} {1000 * r['median_s']:>10.2f} "
              f"{1000 * r['min_s']:>9.2f}")
    for k, v in ratios.items():
        print(f"time ratio {k}: {v:.3f}")


if __name__ == "__main__":
    main()
