"""Iterations each CFR variant needs to 0.5 % and 0.1 % of the pot on the hold'em spots (issue 53 item 1).

    .venv/bin/python benchmarks/bench_variant_iterations.py [--spots NAME,...] [--variants LABEL,...]
        [--max-iters 600] [--check-every 5] [--targets 0.005,0.001] [--dtype float32] [--out FILE.jsonl]
        [--timeout 900] [--json]

For each spot (a file of ``../shared/data/poker-spots``, by name or path; default every spot there) and
each variant, one process::

    zerosum solve holdem --spot FILE -a NAME [--option K=V ...] -n MAX --target 0.1% \\
        --checkpoints 5,10,15,... --option checks=average --option dtype=float32 --json

(stopped at the tightest target), and from its checkpoint rows (``exploitability_pot_fraction`` of
the average strategy, NashConv / 2 over the starting pot, as postflop-solver's exploitability) the
first checked iteration at which it is at most each target.  ``-`` (None): not reached within
``--max-iters``.  Each finished row is appended as one JSON line to ``--out`` at once (a long run
keeps what finished); the table (or ``--json``: every row) is printed at the end.  Iteration counts
do not depend on the machine's load: the wall seconds in a row are only a rough cost.

A variant is ``LABEL`` of :data:`VARIANTS` (``--variants help`` lists them) or ``NAME[:K=V:K=V]``
(``dcfr:alpha=1.5:gamma=3``).  ``horizon=auto`` (the HS variants) is the horizon set from the
target: the iterations default DCFR needed on the same spot to the tightest target in this run (so
``dcfr`` runs first on each spot); ``horizon=auto*2`` twice that.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPOTS_DIR = ROOT.parent / "shared" / "data" / "poker-spots"
ZEROSUM = ROOT / ".venv" / "bin" / "zerosum"

#: label -> (zerosum -a NAME, options); the default set of the table
VARIANTS: dict[str, tuple[str, dict]] = {
    "dcfr": ("dcfr", {}),  # (1.5, 0, 2), the paper's
    "dcfr-g3": ("dcfr", {"gamma": 3}),  # postflop-solver's averaging exponent
    "dcfr-r4": ("dcfr", {"restart": 4}),  # the average restarted at 4, 16, 64, ...
    "dcfr-r4-g3": ("dcfr", {"restart": 4, "gamma": 3}),  # postflop-solver's average: (t - s + 1)^3
    # hold'em's default since 2026-12-06: negative regrets' factor (t / 20)^0.5 / ((t / 20)^0.5 + 1)
    "dcfr-r4-damped": ("dcfr", {"restart": 4, "beta": 0.5, "beta_scale": 20}),
    "cfr+": ("cfr+", {}),
    "pcfr+": ("pcfr+", {}),
    "pdcfr+": ("pdcfr+", {}),  # (2.3, 5)
    "hs-dcfr-30": ("hs-dcfr", {"gamma_start": 30, "horizon": "auto"}),
    "hs-dcfr-15": ("hs-dcfr", {"gamma_start": 15, "horizon": "auto"}),
    "hs-pcfr+-30": ("hs-pcfr+", {"gamma_start": 30, "horizon": "auto"}),
    "hs-pcfr+-15": ("hs-pcfr+", {"gamma_start": 15, "horizon": "auto"}),
}


def parse_variant(text: str) -> tuple[str, str, dict]:
    """(label, algorithm, options) of a ``--variants`` entry."""
    if text in VARIANTS:
        algo, opts = VARIANTS[text]
        return text, algo, dict(opts)
    algo, *pairs = text.split(":")
    opts = {}
    for p in pairs:
        k, _, v = p.partition("=")
        if not _:
            raise SystemExit(f"bad variant {text!r}: options are NAME:KEY=VALUE:KEY=VALUE")
        try:
            opts[k] = json.loads(v)
        except json.JSONDecodeError:
            opts[k] = v
    return text, algo, opts


def spot_path(name: str) -> Path:
    p = Path(name)
    if p.suffix == ".json" and p.exists():
        return p
    q = SPOTS_DIR / (name if name.endswith(".json") else name + ".json")
    if not q.exists():
        raise SystemExit(f"no spot {name!r} (neither a file nor one of {SPOTS_DIR})")
    return q


def resolve_horizon(value, auto: int | None):
    """``auto`` / ``auto*K``: K times ``auto`` (default DCFR's iterations to the tightest target)."""
    if not (isinstance(value, str) and value.startswith("auto")):
        return value
    if auto is None:
        return None
    k = float(value[5:]) if value.startswith("auto*") else 1.0
    return max(1, round(k * auto))


def first_reached(checkpoints: list, target: float) -> int | None:
    """The first checked iteration whose average is at most ``target`` of the pot."""
    for c in checkpoints:
        f = c.get("exploitability_pot_fraction")
        if f is not None and math.isfinite(f) and f <= target:
            return int(c["iteration"])
    return None


def run_one(spot: Path, algo: str, opts: dict, args) -> dict:
    tight = min(args.targets)
    checks = ",".join(str(i) for i in range(args.check_every, args.max_iters + 1, args.check_every))
    cmd = [str(ZEROSUM), "solve", "holdem", "--spot", str(spot), "-a", algo, "-n", str(args.max_iters),
           "--target", f"{tight * 100:g}%", "--checkpoints", checks or str(args.max_iters),
           "--option", "checks=average", "--option", f"dtype={args.dtype}", "--json"]
    for k, v in opts.items():
        cmd += ["--option", f"{k}={v}"]
    env = dict(os.environ, NUMBA_NUM_THREADS=str(args.threads))
    t0 = time.perf_counter()
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout, env=env, cwd=ROOT,
                              check=False)
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {args.timeout:g} s", "command": _shown(cmd)}
    wall = time.perf_counter() - t0
    text = done.stdout.strip()
    try:
        doc = json.loads(text[text.find("{"):]) if done.returncode == 0 else None
    except json.JSONDecodeError:
        doc = None
    if doc is None:
        lines = [ln for ln in (done.stderr or done.stdout).strip().splitlines() if ln.strip()]
        said = [ln for ln in lines if ln.startswith("Error:")] or lines[-1:] or [""]
        return {"error": f"exit {done.returncode}: {said[-1][-300:]}", "command": _shown(cmd)}
    cps = doc.get("checkpoints") or []
    row = {f"iters_to_{t * 100:g}%": first_reached(cps, t) for t in sorted(args.targets, reverse=True)}
    row.update({"iterations_run": doc.get("iterations"), "stopped": doc.get("stopped"),
                "final_pot_fraction": doc.get("exploitability_pot_fraction"), "value": doc.get("value"),
                "wall_s": round(wall, 1), "command": _shown(cmd),
                "curve": [[c["iteration"], c.get("exploitability_pot_fraction")] for c in cps]})
    return row


def _shown(cmd: list[str]) -> str:
    return " ".join(["zerosum", *cmd[1:]]).replace(str(SPOTS_DIR) + "/", "")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--spots", default=None, help="comma-separated spot names or files (default: every spot)")
    ap.add_argument("--variants", default=",".join(VARIANTS), help="comma-separated labels or NAME:K=V (help: list)")
    ap.add_argument("--max-iters", type=int, default=600)
    ap.add_argument("--check-every", type=int, default=5)
    ap.add_argument("--targets", default="0.005,0.001", help="fractions of the pot")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--dtype", default="float32", help="the solver's storage (float64: another rounding, a noise check)")
    ap.add_argument("--timeout", type=float, default=900)
    ap.add_argument("--out", default=None, help="append each row as a JSON line to this file")
    ap.add_argument("--json", action="store_true", help="print every row as one JSON document")
    args = ap.parse_args(argv)
    if args.variants in ("help", "list"):
        for k, (a, o) in VARIANTS.items():
            print(f"{k:12s} -a {a} {' '.join(f'--option {x}={y}' for x, y in o.items())}")
        return 0
    args.targets = [float(x) for x in args.targets.split(",")]
    spots = [spot_path(s) for s in args.spots.split(",")] if args.spots else sorted(SPOTS_DIR.glob("*.json"))
    variants = [parse_variant(v) for v in args.variants.split(",") if v]
    tight = min(args.targets)
    rows = []
    for spot in spots:
        auto = None
        # default DCFR first: the HS variants' horizon=auto is its count to the tightest target
        order = sorted(variants, key=lambda v: not (v[1] == "dcfr" and not v[2]))
        for label, algo, opts in order:
            opts = {k: resolve_horizon(v, auto) for k, v in opts.items()}
            if any(v is None for v in opts.values()):
                row = {"error": "horizon=auto needs default dcfr to reach the tightest target first"}
            else:
                row = run_one(spot, algo, opts, args)
            row = {"spot": spot.stem, "variant": label, "algorithm": algo, "options": opts, "dtype": args.dtype,
                   "check_every": args.check_every, "max_iters": args.max_iters, **row,
                   "date": time.strftime("%Y-%m-%d")}
            if label == "dcfr" and algo == "dcfr" and not opts:
                auto = row.get(f"iters_to_{tight * 100:g}%")
            rows.append(row)
            if args.out:
                with open(args.out, "a") as f:
                    f.write(json.dumps(row) + "\n")
            if not args.json:
                keys = [f"iters_to_{t * 100:g}%" for t in sorted(args.targets, reverse=True)]
                got = " / ".join(str(row.get(k, "-")) for k in keys)
                print(f"{spot.stem:32s} {label:14s} {got:12s} {row.get('error', '')}", flush=True)
    if args.json:
        print(json.dumps({"rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
