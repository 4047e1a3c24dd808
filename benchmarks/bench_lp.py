"""Exact equilibria by the sequence-form LP: zerosum (SciPy HiGHS on the compiled game) against
OpenSpiel's ``sequence_form_lp.solve_zero_sum_game`` (cvxpy, here with HiGHS), same run.

Ours is timed as LP build + solve on the compiled game (the compile, a one-time walk of the
rules, is timed and reported separately); OpenSpiel's call includes its own tree walk, since it
has no separate step.  Medians of --repeat runs.  Needs cvxpy for the peer (the ``bench`` extra);
without it the peer is skipped with a message.

    python benchmarks/bench_lp.py [--repeat 5] [--json] [--gambit]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from zerosum import load_game
from zerosum.core.compile import compile_game
from zerosum.core.evaluation import nash_conv_of_plans
from zerosum.solvers.lp import solve_lp


def timed(fn, repeat: int):
    """(last result, median wall seconds, median CPU seconds) of ``repeat`` calls."""
    wall, cpu = [], []
    for _ in range(repeat):
        w0, c0 = time.perf_counter(), time.process_time()
        out = fn()
        wall.append(time.perf_counter() - w0)
        cpu.append(time.process_time() - c0)
    return out, statistics.median(wall), statistics.median(cpu)


def ours(name: str, repeat: int) -> dict:
    game = load_game(name)
    cg, compile_s, compile_cpu = timed(lambda: compile_game(game), repeat)
    solve_lp(cg)  # warm-up: SciPy's first linprog call loads HiGHS
    (x, y, info), lp_s, lp_cpu = timed(lambda: solve_lp(cg), repeat)
    return {"game": cg.game_id, "infosets": [t.n_infosets for t in cg.treeplexes],
            "lp": info["sizes"], "value": float(x @ (cg.payoff @ y)), "nash_conv": nash_conv_of_plans(cg, x, y),
            "compile_s": compile_s, "lp_s": lp_s, "lp_cpu_s": lp_cpu, "compile_cpu_s": compile_cpu}


def openspiel(name: str, repeat: int) -> dict | None:
    try:
        import cvxpy as cp
        import pyspiel
        from open_spiel.python.algorithms import lp_solver, sequence_form_lp
    except ImportError as e:
        print(f"skipping OpenSpiel's LP: {e} (pip install 'zerosum[bench]')", file=sys.stderr)
        return None
    original = lp_solver.LinearProgram.solve

    def with_highs(self, *args, **kwargs):  # its defaults name ECOS and ECOS-only options
        return original(self, solver=cp.HIGHS, solver_kwargs={})

    lp_solver.LinearProgram.solve = with_highs
    try:
        game = pyspiel.load_game(name)
        sequence_form_lp.solve_zero_sum_game(game)  # warm-up
        (v0, _, _, _), wall, cpu = timed(lambda: sequence_form_lp.solve_zero_sum_game(game), repeat)
    finally:
        lp_solver.LinearProgram.solve = original
    return {"game": name, "value": float(v0), "seconds": wall, "cpu_s": cpu}


def gambit(name: str) -> dict | None:
    """pygambit's sequence-form LP (floating point) on the same game written as .efg, run once."""
    try:
        import pygambit as gbt
    except ImportError as e:
        print(f"skipping Gambit: {e} (pip install 'zerosum[gambit]')", file=sys.stderr)
        return None
    import tempfile
    from pathlib import Path

    from zerosum.games.efg import write_efg

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "game.efg"
        write_efg(load_game(name), path)
        g = gbt.read_efg(str(path))
    t0 = time.perf_counter()
    eq = gbt.nash.lp_solve(g, rational=False).equilibria[0]
    return {"game": name, "value": float(eq.payoff(next(iter(g.players)))), "seconds": time.perf_counter() - t0}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--gambit", action="store_true", help="also run pygambit's lp_solve on leduc (about a minute)")
    args = ap.parse_args(argv)
    results = {"repeat": args.repeat, "runs": []}
    us = ours("openspiel:leduc_poker", args.repeat)
    peer = openspiel("leduc_poker", args.repeat)
    row = {"ours": us, "openspiel": peer}
    if peer:
        row["ratio_openspiel_over_ours"] = peer["seconds"] / us["lp_s"]
        row["ratio_including_compile"] = peer["seconds"] / (us["lp_s"] + us["compile_s"])
        row["ratio_cpu"] = peer["cpu_s"] / us["lp_cpu_s"]
    results["runs"].append(row)
    results["runs"].append({"ours": ours("leduc", args.repeat), "openspiel": None,
                            "gambit": gambit("leduc") if args.gambit else None})
    if args.json:
        print(json.dumps(results, indent=1, default=float))
        return
    for r in results["runs"]:
        u = r["ours"]
        size = u["lp"][0]
        print(f"{u['game']}: infosets {u['infosets']}, LP {size['variables']} variables x {size['constraints']} "
              f"constraints, {size['nonzeros']} nonzeros")
        print(f"  zerosum   value {u['value']:.12f}  NashConv {u['nash_conv']:.1e}  "
              f"LP build+solve {u['lp_s'] * 1e3:.1f} ms (median), CPU {u['lp_cpu_s'] * 1e3:.1f} ms;  "
              f"compile {u['compile_s'] * 1e3:.1f} ms")
        p = r["openspiel"]
        if p:
            print(f"  OpenSpiel value {p['value']:.12f}  solve_zero_sum_game {p['seconds'] * 1e3:.1f} ms (median), "
                  f"CPU {p['cpu_s'] * 1e3:.1f} ms")
        if r.get("gambit"):
            print(f"  Gambit    value {r['gambit']['value']:.12f}  lp_solve (float) {r['gambit']['seconds']:.1f} s")
        if p:
            print(f"  ratio OpenSpiel / zerosum: {r['ratio_openspiel_over_ours']:.1f}x (LP), "
                  f"{r['ratio_including_compile']:.1f}x (with our compile), {r['ratio_cpu']:.1f}x (CPU, LP)")


if __name__ == "__main__":
    main()
