"""zerosum against BitBully (and Pascal Pons's C++ solver when its binary is given), whole process.

Each solver runs as its own process on the same positions, one transposition table kept across
the positions of a set (as a user would run it: ``zerosum analyze connect4 --file F``,
BitBully's ``mtdf`` in a loop, Pons's ``c4solver < F``), and the measure is the CPU time (user +
system) of the whole child process, start-up included: imports, Numba's cache loading, table
allocation.  Every score must agree (with the file where it has scores, and between solvers).
Each cell is the median of ``--repeat`` runs, the solvers interleaved run by run.

Sets: ``random400`` (400 random positions of 10-32 moves, seeded: uniform random play from the
empty board, never a finished game), Pons's Test_L2_R2 (1,000) and the first 100 of Test_L1_R2;
``startup`` is one trivial position (the start-up cost alone).

    .venv/bin/python benchmarks/bench_connect4_peers.py                  # all sets, 3 runs each
    .venv/bin/python benchmarks/bench_connect4_peers.py --sets Test_L2_R2 --repeat 1
    .venv/bin/python benchmarks/bench_connect4_peers.py --pons ~/connect4/c4solver

BitBully is ``pip install bitbully`` (the ``bench`` extra).  Scores: BitBully's ``mtdf`` and Pons's
solver use Pons's convention, as zerosum does.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "connect4"
if not DATA.is_dir():
    DATA = Path("/work/shared/data/connect4")
ROOT = Path(__file__).resolve().parents[1]
SETS = ["startup", "random400", "Test_L2_R2", "Test_L1_R2:100", "Test_L3_R1", "Test_L2_R1"]
DEFAULT_SETS = SETS[:4]

BITBULLY_SCRIPT = r"""
import sys
import bitbully.bitbully_core as bbc
solver = bbc.BitBullyCore()
out = []
for line in open(sys.argv[1]):
    f = line.split()
    if not f:
        continue
    b = bbc.BoardCore()
    if not b.play("".join(str(int(c) - 1) for c in f[0])):
        raise SystemExit("bad position " + f[0])
    out.append(f"{f[0]} {solver.mtdf(b, 0)}")
print("\n".join(out))
"""


def _won(cols: list[int], width: int = 7, height: int = 6) -> bool:
    grid = [[0] * height for _ in range(width)]
    fill = [0] * width
    for i, c in enumerate(cols):
        grid[c][fill[c]] = 1 + i % 2
        fill[c] += 1
    for x in range(width):
        for y in range(height):
            p = grid[x][y]
            if not p:
                continue
            for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
                if all(0 <= x + k * dx < width and 0 <= y + k * dy < height
                       and grid[x + k * dx][y + k * dy] == p for k in range(4)):
                    return True
    return False


def random_positions(count: int = 400, lo: int = 10, hi: int = 32, seed: int = 2026) -> list[str]:
    """Uniform random play from the empty board to a length drawn in [lo, hi]; a game that ends
    (four in a row) before that length is drawn again."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        length = rng.randint(lo, hi)
        cols: list[int] = []
        fill = [0] * 7
        while len(cols) < length:
            c = rng.choice([c for c in range(7) if fill[c] < 6])
            cols.append(c)
            fill[c] += 1
            if _won(cols):
                break
        if len(cols) == length and not _won(cols):
            out.append("".join(str(c + 1) for c in cols))
    return out


def positions(name: str) -> list[tuple[str, int | None]]:
    if name == "startup":
        return [("2252576253462244111563365343671351441", -1)]
    if name == "random400":
        return [(m, None) for m in random_positions()]
    base, _, first = name.partition(":")
    rows = [line.split() for line in (DATA / base).read_text().splitlines() if line.strip()]
    if first:
        rows = rows[: int(first)]
    return [(m, int(s)) for m, s in rows]


def run_child(cmd: list[str], stdin_path: str | None = None) -> tuple[float, str]:
    """(CPU seconds of the child, user + system, and its stdout)."""
    with tempfile.TemporaryFile() as out, open(stdin_path or os.devnull) as stdin:
        p = subprocess.Popen(cmd, stdout=out, stderr=subprocess.DEVNULL, stdin=stdin, cwd=ROOT)
        _, status, ru = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read().decode()
    if p.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed with exit code {p.returncode}")
    return ru.ru_utime + ru.ru_stime, text


def scores_of(text: str, moves: list[str]) -> list[int]:
    got = {}
    for line in text.splitlines():
        f = line.split()
        if len(f) >= 2 and f[0].isdigit():
            got.setdefault(f[0], int(f[1]))
    return [got.get(m) for m in moves]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sets", nargs="+", default=DEFAULT_SETS, help=f"among {', '.join(SETS)}")
    ap.add_argument("--repeat", type=int, default=3, help="runs per solver and set (median)")
    ap.add_argument("--pons", default=None, help="path of Pons's c4solver binary (optional)")
    ap.add_argument("--no-bitbully", action="store_true")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args(argv)
    zerosum = str(Path(sys.executable).with_name("zerosum"))
    solvers = {"zerosum": lambda f, mf: run_child([zerosum, "analyze", "connect4", "--file", f])}
    if not args.no_bitbully:
        try:
            import bitbully  # noqa: F401
        except ImportError:
            raise SystemExit("bitbully not installed: pip install -e '.[bench]' (or --no-bitbully)") from None
        solvers["BitBully"] = lambda f, mf: run_child([sys.executable, "-c", BITBULLY_SCRIPT, f])
    if args.pons:
        solvers["Pons"] = lambda f, mf: run_child([args.pons], stdin_path=mf)

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.sets:
            if name not in SETS:
                ap.error(f"unknown set {name!r}; choose among {', '.join(SETS)}")
            pos = positions(name)
            moves = [m for m, _ in pos]
            f = os.path.join(tmp, "positions.txt")
            mf = os.path.join(tmp, "moves.txt")
            Path(f).write_text("".join(f"{m} {s}\n" if s is not None else f"{m}\n" for m, s in pos))
            Path(mf).write_text("".join(f"{m}\n" for m in moves))
            times: dict[str, list[float]] = {s: [] for s in solvers}
            answers: dict[str, list[int]] = {}
            for _ in range(args.repeat):
                for s, run in solvers.items():
                    cpu, text = run(f, mf)
                    times[s].append(cpu)
                    answers[s] = scores_of(text, moves)
            ref = [e for _, e in pos] if all(e is not None for _, e in pos) else answers["zerosum"]
            disagree = {s: sum(a != b for a, b in zip(ans, ref)) for s, ans in answers.items()}
            row = {"set": name, "positions": len(pos), "cpu_s": {s: statistics.median(t) for s, t in times.items()},
                   "runs": times, "disagreements": disagree}
            if "BitBully" in row["cpu_s"]:
                row["ratio_to_bitbully"] = row["cpu_s"]["zerosum"] / row["cpu_s"]["BitBully"]
            if "Pons" in row["cpu_s"]:
                row["ratio_to_pons"] = row["cpu_s"]["zerosum"] / row["cpu_s"]["Pons"]
            rows.append(row)
            if not args.json:
                cells = ", ".join(f"{s} {c:.2f} s" for s, c in row["cpu_s"].items())
                ratio = f"; ours/BitBully {row['ratio_to_bitbully']:.3f}" if "ratio_to_bitbully" in row else ""
                print(f"{name} ({len(pos)}): {cells}{ratio}; score disagreements {disagree}", flush=True)
    if args.json:
        print(json.dumps({"benchmark": "connect4_peers", "measure": "CPU s of the whole process, median",
                          "repeat": args.repeat, "sets": rows}, indent=1))
    else:
        names = list(solvers)
        print("\n| set | " + " | ".join(names) + " | ours / BitBully |")
        print("|---|" + "---|" * (len(names) + 1))
        for r in rows:
            ratio = f"{r['ratio_to_bitbully']:.2f}" if "ratio_to_bitbully" in r else "-"
            print(f"| {r['set']} ({r['positions']}) | " + " | ".join(f"{r['cpu_s'][s]:.2f}" for s in names)
                  + f" | {ratio} |")
    bad = [r["set"] for r in rows if any(r["disagreements"].values())]
    if bad:
        raise SystemExit(f"scores disagree on {', '.join(bad)}")


if __name__ == "__main__":
    main()
