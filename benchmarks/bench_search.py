"""Tic-tac-toe from the empty board: node counts and times of our searches and OpenSpiel's.

Ours: minimax, alpha-beta (natural move order), alpha-beta with move ordering, alpha-beta with a
transposition table (with and without ordering), iterative deepening.  The peer, in the same run:
OpenSpiel's Python ``minimax.alpha_beta_search`` (alpha-beta over pyspiel's C++ tic_tac_toe states,
natural move order: the same algorithm as our ``alphabeta``) and ``minimax.expectiminimax`` (plain
minimax on a deterministic game).  Their node counts are measured by wrapping the recursive
function once, outside the timed runs.  The cases run interleaved, one of each per round, so that
the load of a shared machine falls on all of them alike.  Prints medians and the ratios of medians
(ours / peer).

    .venv/bin/python benchmarks/bench_search.py [--reps 5] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from zerosum.perfect import load_perfect_game
from zerosum.perfect.search import alphabeta, alphabeta_tt, iterative_deepening, minimax


def cases():
    """name -> (impl, algorithm, function returning (value, nodes, tt_hits, tt_misses))."""
    g = load_perfect_game("tictactoe")
    s = g.initial_state()

    def ours(fn, **kw):
        def run():
            r = fn(g, s, **kw)
            return r.value, r.stats.nodes, r.stats.tt_hits, r.stats.tt_misses
        return run

    out = {
        "minimax": ("zerosum", "minimax", ours(minimax)),
        "alphabeta": ("zerosum", "alphabeta", ours(alphabeta)),
        "alphabeta_ordered": ("zerosum", "alphabeta_ordered", ours(alphabeta, order=True)),
        "alphabeta_tt": ("zerosum", "alphabeta_tt", ours(alphabeta_tt, order=False)),
        "alphabeta_tt_ordered": ("zerosum", "alphabeta_tt_ordered", ours(alphabeta_tt, order=True)),
        "iterative_deepening": ("zerosum", "iterative_deepening", ours(iterative_deepening, time_budget=60)),
    }
    try:
        import pyspiel
        from open_spiel.python.algorithms import minimax as osm
    except ImportError:
        return out
    game = pyspiel.load_game("tic_tac_toe")
    counts = {}
    # node counts: wrap the recursive functions once (they call themselves through the module)
    for fname in ("_alpha_beta", "expectiminimax"):
        original, n = getattr(osm, fname), [0]

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
    out["os_alphabeta"] = ("open_spiel", "alphabeta", lambda: (
        osm.alpha_beta_search(game, maximizing_player_id=0)[0], counts["_alpha_beta"], 0, 0))
    out["os_minimax"] = ("open_spiel", "minimax", lambda: (
        osm.expectiminimax(game.new_initial_state(), 9, None, 0)[0], counts["expectiminimax"], 0, 0))
    return out


def measure(reps):
    """Every case once per round, rounds repeated: load changes on a shared machine hit all alike."""
    todo = cases()
    times = {k: [] for k in todo}
    results = {}
    for rnd in range(reps):
        for k, (_, algorithm, fn) in todo.items():
            if "minimax" in algorithm and rnd >= max(1, reps // 2):
                continue          # the full tree is slow: half the repetitions
            t0 = time.perf_counter()
            results[k] = fn()
            times[k].append(time.perf_counter() - t0)
    rows = []
    for k, (impl, algorithm, _) in todo.items():
        value, nodes, hits, misses = results[k]
        rows.append({"impl": impl, "algorithm": algorithm, "value": value, "nodes": nodes, "tt_hits": hits,
                     "tt_misses": misses, "median_s": statistics.median(times[k]), "min_s": min(times[k]),
                     "reps": len(times[k])})
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rows = measure(args.reps)
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
