"""Speed and exactness of the Connect Four solver on Pascal Pons's six test sets.

For each set: CPU time (time.process_time) of the solve alone, each position from an empty
transposition table (reset before each position, outside the timing; parsing also outside),
strong and weak, mean per position, nodes per position and nodes per second; every score checked
against the file (strong: equal, weak: same sign).  The peer is Pons's C++ solver, measured on this
machine (strong mode, mean per position): its figures are below and the ratio is ours / his.
Numba's first-call (compile or cache-load) time is reported separately.

    .venv/bin/python benchmarks/bench_connect4.py                      # 100 positions per set
    .venv/bin/python benchmarks/bench_connect4.py --sample 0 --sets Test_L3_R1   # a whole set
    .venv/bin/python benchmarks/bench_connect4.py --empty strong --sets none   # the empty board, exact
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "connect4"
if not DATA.is_dir():
    DATA = Path("/work/shared/data/connect4")

SETS = ["Test_L3_R1", "Test_L2_R1", "Test_L1_R1", "Test_L2_R2", "Test_L1_R2", "Test_L1_R3"]
#: Pons's C++ solver on this machine, strong mode, mean CPU seconds per position
PONS_STRONG_S = {"Test_L3_R1": 17e-6, "Test_L2_R1": 82e-6, "Test_L1_R1": 0.45e-3, "Test_L2_R2": 5.8e-3,
                 "Test_L1_R2": 0.189, "Test_L1_R3": 10.6}
PONS_EMPTY_WEAK = {"who": "Pons (weak)", "seconds": 279.0, "nodes": 1.6e9, "nodes_per_s": 5.8e6}
#: BitBully 0.0.79's mtdf on the empty board, measured on this machine (issue 15)
BITBULLY_EMPTY_STRONG = {"who": "BitBully (strong)", "seconds": 250.0, "nodes": 4.9e9}


def load(name: str, sample: int) -> list[tuple[str, int]]:
    rows = [line.split() for line in (DATA / name).read_text().splitlines() if line.strip()]
    if sample > 0:
        rows = rows[:sample]
    return [(m, int(s)) for m, s in rows]


def run_set(solver, name, rows, weak, progress):
    from zerosum.perfect.connect4_solver import parse_moves

    total_t = 0.0
    total_nodes = 0
    wrong = []
    for i, (moves, expected) in enumerate(rows):
        p = parse_moves(moves)
        solver.reset()
        solver._nodes[0] = 0
        t0 = time.process_time()
        score = solver._solve_position(p, weak)
        total_t += time.process_time() - t0
        total_nodes += int(solver._nodes[0])
        want = (expected > 0) - (expected < 0) if weak else expected
        if score != want:
            wrong.append({"moves": moves, "expected": want, "got": score})
        if progress and (i + 1) % 50 == 0:
            print(f"  {name} {'weak' if weak else 'strong'}: {i + 1}/{len(rows)}", file=sys.stderr, flush=True)
    n = len(rows)
    return {"positions": n, "mean_s": total_t / n, "mean_nodes": total_nodes / n,
            "nodes_per_s": total_nodes / total_t if total_t > 0 else None, "total_s": total_t,
            "mismatches": len(wrong), "wrong": wrong[:5]}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sets", nargs="+", default=SETS, help="test sets to run ('none' for none)")
    ap.add_argument("--sample", type=int, default=100, help="first N positions of each set (0: all)")
    ap.add_argument("--sample-hard", type=int, default=3, help="first N positions of Test_L1_R3 (0: all)")
    ap.add_argument("--no-weak", action="store_true", help="strong mode only")
    ap.add_argument("--empty", choices=["weak", "strong"], default=None,
                    help="also solve the empty board (weak: the sign; strong: the exact score)")
    ap.add_argument("--table-size-log2", type=int, default=24)
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args(argv)
    sets = [] if args.sets == ["none"] else args.sets
    for name in sets:
        if name not in SETS:
            ap.error(f"unknown set {name!r}; choose among {', '.join(SETS)}")
    if sets and not DATA.is_dir():
        ap.error(f"test sets not found in {DATA}")

    t0 = time.perf_counter()
    from zerosum.perfect.connect4_solver import Connect4Solver

    solver = Connect4Solver(table_size_log2=args.table_size_log2)
    solver.solve("2252576253462244111563365343671351441")
    solver.solve("2252576253462244111563365343671351441", weak=True)
    compile_s = time.perf_counter() - t0

    progress = not args.json
    results = []
    for name in sets:
        rows = load(name, args.sample_hard if name == "Test_L1_R3" else args.sample)
        row = {"set": name, "strong": run_set(solver, name, rows, False, progress)}
        row["pons_strong_s"] = PONS_STRONG_S[name]
        row["ratio_to_pons"] = row["strong"]["mean_s"] / PONS_STRONG_S[name]
        if not args.no_weak:
            row["weak"] = run_set(solver, name, rows, True, progress)
        results.append(row)
        if progress:
            s = row["strong"]
            w = row.get("weak")
            print(f"{name}: {s['positions']} positions, strong mean {s['mean_s'] * 1e6:,.1f} us "
                  f"({s['mean_nodes']:,.0f} nodes, {s['nodes_per_s'] / 1e6:.2f} M nodes/s), "
                  f"Pons {PONS_STRONG_S[name] * 1e6:,.1f} us, ratio {row['ratio_to_pons']:.3f}; "
                  f"mismatches {s['mismatches']}"
                  + (f"; weak mean {w['mean_s'] * 1e6:,.1f} us ({w['mean_nodes']:,.0f} nodes), "
                     f"sign mismatches {w['mismatches']}" if w else ""), flush=True)

    empty = None
    if args.empty:
        weak = args.empty == "weak"
        solver.reset()
        solver._nodes[0] = 0
        p = solver.position("")
        t = time.process_time()
        score = solver._solve_position(p, weak)
        dt = time.process_time() - t
        nodes = int(solver._nodes[0])
        peer = PONS_EMPTY_WEAK if weak else BITBULLY_EMPTY_STRONG
        empty = {"mode": args.empty, "score": score, "table_move": solver.table_move(""), "cpu_s": dt,
                 "nodes": nodes, "nodes_per_s": nodes / dt, "peer": peer, "ratio_to_peer": dt / peer["seconds"]}
        if progress:
            print(f"empty board, {args.empty}: score {score}, best move {empty['table_move']}, {dt:.1f} s CPU, "
                  f"{nodes:,} nodes, {nodes / dt / 1e6:.2f} M nodes/s; {peer['who']} {peer['seconds']:.0f} s, "
                  f"ratio {dt / peer['seconds']:.3f}", flush=True)

    out = {"benchmark": "connect4", "table_size_log2": args.table_size_log2, "first_call_s": compile_s,
           "sets": results, "empty_board": empty}
    if args.json:
        print(json.dumps(out, indent=1))
    else:
        print(f"numba first call (compile or cache load): {compile_s:.2f} s")


if __name__ == "__main__":
    main()
