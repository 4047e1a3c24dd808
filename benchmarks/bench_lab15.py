"""Wall and CPU time of ``zerosum experiment lab15`` (all four parts, with their figures), as a user runs it:
a fresh process, imports and figures included.  The issue's target is 10 s on this machine; the
lab's reference solution takes about 3 minutes on one core.

For a peer in the same run, OpenSpiel's C++ does Part 1's work on its ``leduc_poker``: CFR and
CFR+ for 1,000 iterations each with the exact NashConv of the average at the lab's five
checkpoints (``--no-peer`` to skip).

    .venv/bin/python benchmarks/bench_lab15.py [--json] [--reps 3] [--no-peer]
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from common import emit

ZEROSUM = Path(sys.executable).with_name("zerosum")


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_lab15(tmp: Path) -> tuple[float, float, dict]:
    """(wall seconds, CPU seconds, the --json report) of one fresh ``zerosum experiment lab15``."""
    c0, t0 = _children_cpu(), time.perf_counter()
    out = subprocess.run([str(ZEROSUM), "experiment", "lab15", "--json", "--plot", str(tmp / "lab15.png")],
                         check=True, capture_output=True, text=True).stdout
    return time.perf_counter() - t0, _children_cpu() - c0, json.loads(out)


def openspiel_part1() -> float:
    import pyspiel

    game = pyspiel.load_game("leduc_poker")
    marks = {10, 30, 100, 300, 1000}
    t0 = time.perf_counter()
    for cls in (pyspiel.CFRSolver, pyspiel.CFRPlusSolver):
        solver = cls(game)
        for t in range(1, 1001):
            solver.evaluate_and_update_policy()
            if t in marks:
                pyspiel.nash_conv(game, solver.average_policy())
    return time.perf_counter() - t0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--no-peer", action="store_true")
    args = ap.parse_args(argv)
    walls, cpus, parts = [], [], {}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(args.reps):
            wall, cpu, report = run_lab15(Path(tmp))
            walls.append(wall)
            cpus.append(cpu)
            for p in report["parts"]:
                parts.setdefault(p["part"], []).append(p["seconds"] if p["available"] else None)
            figures = len(report["figures"])
    rows = [{"part": n, "available": v[0] is not None,
             "seconds": statistics.median(v) if v[0] is not None else None} for n, v in sorted(parts.items())]
    extra = {"lab15_wall_s_median": statistics.median(walls), "lab15_wall_s_all": walls,
             "lab15_cpu_s_median": statistics.median(cpus),
             "figures_written": figures, "target_s": 10.0}
    if not args.no_peer:
        ours_part1 = rows[0]["seconds"]
        theirs = openspiel_part1()
        extra["part1_openspiel_s"] = theirs
        if ours_part1:
            extra["part1_speedup"] = theirs / ours_part1
    emit(rows, "zerosum experiment lab15 (wall time, fresh process, medians)", args.json, extra)


if __name__ == "__main__":
    main()
