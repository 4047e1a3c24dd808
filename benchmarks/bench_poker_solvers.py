"""zerosum against postflop-solver on the same hold'em spots, same run (issue 28, "What it must show").

    .venv/bin/python benchmarks/bench_poker_solvers.py [SPOT ...] [--repeats 3] [--targets 0.005,0.001]
        [--threads 1,2] [--check-every 10] [--max-iters 1000] [--timeout 900] [--zerosum-option dtype=float32]
        [--zerosum-algorithm NAME]
        [--rake RATE[,CAP]] [--json]

SPOT: a spot file, or a name in ../shared/data/poker-spots (default: every spot there).  For each spot
and each target (exploitability as a fraction of the pot), each round runs, one after the other, the
peer with 1 and 2 threads and zerosum (``zerosum solve holdem ... --target-nashconv X --json``:
hold'em's default algorithm with its default options, ``DEFAULT_ALGORITHMS`` and ``DEFAULT_OPTIONS``
of ``src/zerosum/cli/imperfect.py``, DCFR with its average restarted at the powers of 4 as the
peer's; the same checking cadence; ``--zerosum-option restart=0`` and the like override a default
option, ``--zerosum-algorithm NAME`` runs another algorithm with its own defaults only) with
1 and 2 threads, each a fresh process; the tables
give medians over the rounds and the ratios zerosum / peer (the median of the rounds' ratios, so that
load changes on this shared machine cancel).  Per process: CPU s and wall s of the whole process
(start-up, building the tree, iterating, the exploitability checks), peak RSS (GNU time's ``%M``
for that child: see :func:`run_measured` for why not ``os.wait4``), the root value to player 0 in net chips, the
exploitability reached, the solver's arrays.  A bare ``python -c "import zerosum"`` is measured in the
same run: "zerosum peak - import" is the solve's own memory, to compare with the peer's whole peak.

Exploitability is the same definition on both sides: the mean of the two players' best-response gains
(postflop-solver's ``compute_exploitability``; zerosum's NashConv / 2), so a target fraction f of a
pot P is ``--target-nashconv 2 f P`` for zerosum.  Both check it every ``--check-every`` iterations
(postflop-solver's ``solve()`` checks every 10), computing the same thing: the average strategy's two
best responses (zerosum with ``--option checks=average``; its default checkpoint also computes the
value and the current strategy's NashConv: on the limit turn subgame to 0.1 %, 13.8 CPU s against
12.7 with the lighter check, one run of each, same load).

The peer (postflop-solver, AGPL-3.0) is never part of this repository: it is built from its source in
a scratch folder outside it (``../shared/notes/postflop-solver-build.md``), with a small binary
``pfs-spot`` that takes the spot on its command line and prints one JSON line; this script only runs
that binary (``$ZEROSUM_PFS_BIN``, default /work/pfs-build/target/release/pfs-spot) and skips the peer,
saying how to build it, when it is absent.

``--rake 0.05,3`` solves each spot raked on both sides (the house takes min(5 % of the pot, 3 chips)
of every pot won, postflop-solver's ``rake_rate`` and ``rake_cap``; zerosum's ``--param rake=0.05
--param rake_cap=3``): exploitability is then the mean of the two best-response *gains* on both sides
(postflop-solver's ``compute_exploitability`` of a raked game), and the value is player 0's.

Spots zerosum cannot express yet (its ``--spot`` refuses them) get a row saying so instead of
failing; fixed-limit spots whose sizes are one constant per street are run with ``--param`` (the
limit game of today: ``board``, ``pot``, ``stack``, ``bets``, ``raises``), the others with ``--spot FILE``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).parent))
from common import environment

SPOTS_DIR = ROOT.parent / "shared" / "data" / "poker-spots"
BUILD_NOTE = ROOT.parent / "shared" / "notes" / "postflop-solver-build.md"
DEFAULT_PFS = "/work/pfs-build/target/release/pfs-spot"
ZEROSUM = ROOT / ".venv" / "bin" / "zerosum"
PYTHON = ROOT / ".venv" / "bin" / "python"
#: every hole pair (the spot files' "" range) in postflop-solver's notation
FULL_RANGE = "22+,A2+,K2+,Q2+,J2+,T2+,92+,82+,72+,62+,52+,42+,32"
STREETS = ("flop", "turn", "river")


class CannotExpress(Exception):
    """A spot one side cannot be set up from; the message is one line."""


# ----------------------------------------------------------------------------------- spot readers

def load_spot(path: Path) -> dict:
    with open(path, encoding="utf-8") as f:
        spot = json.load(f)
    spot["_path"] = str(path)
    return spot


def _street_sizes(spot: dict, street: str) -> dict:
    """{"oop": (bets, raises), "ip": (bets, raises), "donk": [...] or None} of one street."""
    s = spot["streets"].get(street)
    if s is None:
        return {"oop": ([], []), "ip": ([], []), "donk": None}
    out = {}
    for p in ("oop", "ip"):
        per = s.get(p, s)
        out[p] = (list(per.get("bet", [])), list(per.get("raise", [])))
    out["donk"] = list(s["donk"]) if "donk" in s else None
    return out


def _first_street(board: str) -> int:
    n = len(board) // 2
    if n not in (3, 4, 5) or len(board) % 2:
        raise CannotExpress(f"board {board!r} is not 3 to 5 cards")
    return n - 3


def zerosum_limit_params(spot: dict) -> dict:
    """The ``--param`` values of zerosum's limit hold'em game (HoldemGame's bets=/raises=) that are
    the same game as a fixed-limit spot; CannotExpress where the spot is not one such game.

    postflop-solver's limit notation: bet ``Nc`` (a constant N chips), raise ``NcRr`` (raises of N
    allowed while at most R bets stand on the street, the bet counting as one), so the cap on bets a
    street, zerosum's ``raises``, is R + 1.  zerosum's defaults (pot 10, stack 1000, 4-chip bets on
    the turn and river) are given explicitly all the same, so the mapping does not lean on them."""
    if spot.get("betting") != "fixed-limit":
        raise CannotExpress("not a fixed-limit spot")
    rake = spot.get("rake") or {}
    if rake.get("rate", 0) or rake.get("cap", 0):
        raise CannotExpress("zerosum's limit game has no rake")
    for key in ("add_allin_threshold", "force_allin_threshold", "merging_threshold"):
        if spot.get(key, 0):
            raise CannotExpress(f"zerosum's limit game has no {key}")
    board = spot["board"]
    first = _first_street(board)
    bets, caps = [], set()
    for street in STREETS[first:]:
        sz = _street_sizes(spot, street)
        if sz["oop"] != sz["ip"]:
            raise CannotExpress(f"{street}: different sizes per player")
        if sz["donk"] is not None:
            raise CannotExpress(f"{street}: a donk size")
        bet, raise_ = sz["oop"]
        mb = [re.fullmatch(r"(\d+(?:\.\d+)?)c", b.strip()) for b in bet]
        mr = [re.fullmatch(r"(\d+(?:\.\d+)?)c(\d+)r", r.strip()) for r in raise_]
        if len(bet) != 1 or len(raise_) != 1 or not mb[0] or not mr[0]:
            raise CannotExpress(f"{street}: a limit street is one bet Nc and one raise NcRr, got {bet} {raise_}")
        if float(mb[0].group(1)) != float(mr[0].group(1)):
            raise CannotExpress(f"{street}: raise size {raise_[0]} differs from the bet {bet[0]}")
        bets.append(float(mb[0].group(1)))
        caps.add(int(mr[0].group(2)) + 1)
    if len(caps) != 1:
        raise CannotExpress(f"zerosum's limit game has one raise cap for every street, got {sorted(caps)}")

    def num(x):
        return int(x) if float(x).is_integer() else x

    params = {"board": board, "pot": num(spot["pot"]), "stack": num(spot["stack"]),
              "bets": "[" + ",".join(str(num(b)) for b in bets) + "]", "raises": caps.pop()}
    for p, r in enumerate(spot["ranges"]):
        if r.strip():
            params[f"range{p}"] = r
    return params


def pfs_args(spot: dict) -> list[str]:
    """The pfs-spot command-line arguments of a spot (the peer's notation is the spot files')."""
    board = spot["board"]
    first = _first_street(board)
    args = ["--board", board, "--pot", str(spot["pot"]), "--stack", str(spot["stack"])]
    for p, r in zip(("oop", "ip"), spot["ranges"]):
        args += [f"--{p}-range", r if r.strip() else FULL_RANGE]
    for street in STREETS[first:]:
        sz = _street_sizes(spot, street)
        for p in ("oop", "ip"):
            bet, raise_ = sz[p]
            args += [f"--{p}-{street}-bet", ", ".join(bet), f"--{p}-{street}-raise", ", ".join(raise_)]
        if sz["donk"] is not None:
            if street == STREETS[first]:
                raise CannotExpress(f"a donk size on the first street ({street}) has no meaning")
            args += [f"--{street}-donk", ", ".join(sz["donk"])]
    for key, flag in (("add_allin_threshold", "--add-allin"), ("force_allin_threshold", "--force-allin"),
                      ("merging_threshold", "--merging")):
        args += [flag, str(spot.get(key, 0))]
    rake = spot.get("rake") or {}
    args += ["--rake-rate", str(rake.get("rate", 0)), "--rake-cap", str(rake.get("cap", 0))]
    return args


def zerosum_args(spot: dict) -> list[str]:
    rake = spot.get("rake") or {}
    raked = ["--param", f"rake={rake['rate']}"] + (["--param", f"rake_cap={rake['cap']}"] if rake.get("cap") else []) \
        if rake.get("rate") else []
    try:
        params = zerosum_limit_params(spot)
    except CannotExpress:
        return ["--spot", spot["_path"]] + raked
    out = []
    for k, v in params.items():
        out += ["--param", f"{k}={v}"]
    return out


# ----------------------------------------------------------------------------------- processes

TIME = "/usr/bin/time"


def run_measured(cmd: list[str], env: dict | None = None, timeout: float = 900) -> dict:
    """Run ``cmd``; its stdout, stderr, exit status, wall s, CPU s (user + system, from ``os.wait4``)
    and peak RSS in bytes.

    The peak comes from ``/usr/bin/time`` (GNU time's ``%M``: the kernel's ``ru_maxrss`` of the
    command it forks itself), not from ``os.wait4`` on our own child: Python starts children with
    vfork, and Linux carries the high-water RSS of the memory the child shared before ``exec`` into
    its ``ru_maxrss``, so every child of this script would report at least this script's own peak
    (92 MiB here, measured: the peer's 16 MiB solve came out as 92 MiB, the same as a bare
    ``import zerosum``).  Without /usr/bin/time the peak is that upper bound, flagged in the row."""
    use_time = os.access(TIME, os.X_OK)
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
            tempfile.NamedTemporaryFile("r", suffix=".time") as tf:
        full = [TIME, "-f", "%M", "-o", tf.name, *cmd] if use_time else cmd
        t0 = time.perf_counter()
        p = subprocess.Popen(full, stdout=out, stderr=err, stdin=subprocess.DEVNULL, env=env, cwd=ROOT,
                             start_new_session=True)
        deadline = t0 + timeout
        timed_out = False
        while True:
            pid, status, ru = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() > deadline:
                os.killpg(p.pid, 9)  # our own child's process group (start_new_session), not a name
                timed_out = True
                pid, status, ru = os.wait4(p.pid, 0)
                break
            time.sleep(0.02)
        wall = time.perf_counter() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        peak, exact = ru.ru_maxrss * 1024, False
        if use_time:
            try:
                with open(tf.name) as f:
                    lines = f.read().split()
                peak, exact = int(lines[-1]) * 1024, True
            except (OSError, ValueError, IndexError):
                pass
        stdout = out.read().decode(errors="replace")
        stderr = err.read().decode(errors="replace")
        if use_time and p.returncode != 0:  # GNU time adds "Command exited with non-zero status N"
            stderr = "\n".join(ln for ln in stderr.splitlines() if not ln.startswith("Command exited with"))
        return {"rc": p.returncode, "stdout": stdout, "stderr": stderr, "wall_s": wall, "timed_out": timed_out,
                "cpu_s": ru.ru_utime + ru.ru_stime, "peak_bytes": peak, "peak_exact": exact}


def _last_json(text: str):
    text = text.strip()
    start = text.find("{")
    if start < 0:
        return None
    try:
        return json.loads(text[start:])
    except json.JSONDecodeError:
        return None


_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _one_line(text: str) -> str:
    """The line that says what went wrong: an ``Error:`` line (a refusal), else the exception line
    of a traceback, else the last line."""
    lines = [ln.strip() for ln in _ANSI.sub("", text).strip().splitlines() if ln.strip()]
    errs = [ln for ln in lines if ln.startswith("Error:")]
    exc = [ln for ln in lines if re.match(r"^[A-Za-z_.]+(Error|Exception|Interrupt)\b", ln)]
    return (errs or exc or lines or ["(no output)"])[-1][:300]


def run_peer(binary: str, spot: dict, target: float, threads: int, args) -> dict:
    cmd = [binary, *pfs_args(spot), "--target", str(target), "--threads", str(threads),
           "--check-every", str(args.check_every), "--max-iters", str(args.max_iters)]
    r = run_measured(cmd, timeout=args.timeout)
    doc = _last_json(r["stdout"]) if r["rc"] == 0 else None
    if doc is None:
        return {"error": "timed out" if r["timed_out"] else f"peer failed: {_one_line(r['stderr'] or r['stdout'])}"}
    pot = float(spot["pot"])
    return {"iterations": doc["iterations"], "cpu_s": r["cpu_s"], "wall_s": r["wall_s"], "peak": r["peak_bytes"],
            "arrays": doc["solver_bytes"], "arrays_16bit": doc["solver_bytes_compressed"], "value": doc["value"],
            "exploitability": doc["exploitability"] / pot, "reached": doc["reached"],
            "iter_s": doc["seconds_iterating"]}


def run_zerosum(spot: dict, target: float, threads: int, args) -> dict:
    pot = float(spot["pot"])
    checks = ",".join(str(i) for i in range(args.check_every, args.max_iters + 1, args.check_every))
    algorithm = ["-a", args.zerosum_algorithm] if args.zerosum_algorithm else []  # (none: hold'em's default)
    cmd = [str(ZEROSUM), "solve", "holdem", *zerosum_args(spot), *algorithm, "-n", str(args.max_iters),
           "--checkpoints", checks or str(args.max_iters), "--target-nashconv", repr(2 * target * pot), "--json"]
    cmd += ["--option", "checks=average"]  # the peer's check: the average's exploitability only
    for opt in args.zerosum_option:
        cmd += ["--option", opt]
    env = dict(os.environ, NUMBA_NUM_THREADS=str(threads))
    if threads != 1:
        cmd += ["--option", f"threads={threads}"]
    r = run_measured(cmd, env=env, timeout=args.timeout)
    doc = _last_json(r["stdout"]) if r["rc"] == 0 else None
    if doc is None:
        if r["timed_out"]:
            return {"error": f"zerosum: timed out after {args.timeout:g} s"}
        msg = _one_line(r["stderr"] or r["stdout"])
        if not msg.startswith("Error:"):  # not a refusal: a crash (a traceback) is reported as one
            return {"error": f"zerosum: failed ({msg[:80]})", "detail": msg}
        if threads != 1 and "thread" in msg:
            return {"error": "zerosum: no threads option yet", "detail": msg}
        return {"error": "zerosum: cannot express this spot yet", "detail": msg}
    return {"iterations": doc.get("iterations"), "cpu_s": r["cpu_s"], "wall_s": r["wall_s"],
            "peak": r["peak_bytes"], "arrays": doc.get("bytes"), "value": doc.get("value"),
            "exploitability": doc["nash_conv"] / 2 / pot, "reached": doc.get("stopped") == "target",
            "iter_s": (doc.get("seconds") or {}).get("solve"), "threads_reported": doc.get("threads"),
            "dtype": doc.get("dtype")}


def warm_up(spot: dict, threads: int, args) -> None:
    """One untimed two-iteration zerosum run per thread count before the timed ones: after a
    change to the kernels (or on a fresh checkout) the first run compiles them into Numba's cache
    (a minute here, more for the threaded pass), which is no solve's time; a user's second run
    and every later one load them."""
    run_zerosum(spot, 1.0, threads, argparse.Namespace(**{**vars(args), "max_iters": 2, "check_every": 2}))


def bare_import_peak() -> dict:
    return run_measured([str(PYTHON), "-c", "import zerosum"])


# ----------------------------------------------------------------------------------- the run

def _median(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def _pfs_version(binary: str) -> str:
    src = Path(binary).resolve().parent.parent.parent / "deps" / "b-inary+postflop-solver" / "Cargo.toml"
    try:
        ver = re.search(r'^version\s*=\s*"([^"]+)"', src.read_text(), re.MULTILINE).group(1)
    except (OSError, AttributeError):
        ver = "?"
    return f"postflop-solver {ver} ({binary})"


def _versions() -> dict:
    out = {}
    for name, cmd in (("rustc", ["rustc", "--version"]),
                      ("zerosum", [str(PYTHON), "-c", "import zerosum; print(zerosum.__version__)"])):
        try:
            done = subprocess.run(cmd, check=False, capture_output=True, text=True, timeout=60)
            out[name] = done.stdout.strip() or "?"
        except (OSError, subprocess.SubprocessError):
            out[name] = "?"
    return out


def bench_spot(spot: dict, binary: str | None, args, imports: list) -> tuple[list, list]:
    """(rows, notes) of one spot: one row per (target, solver, threads)."""
    notes = []
    sides = []
    if binary:
        try:
            pfs_args(spot)
            sides += [("postflop-solver", t) for t in args.threads]
        except CannotExpress as e:
            notes.append(f"{spot['name']}: postflop-solver cannot be set up: {e}")
    sides += [("zerosum", t) for t in args.threads]
    for t in args.threads:
        warm_up(spot, t, args)
    results = {(tg, s, t): [] for tg in args.targets for s, t in sides}
    skip = set()
    for tg in args.targets:
        for rnd in range(args.repeats):
            imports.append(bare_import_peak()["peak_bytes"])
            for s, t in sides:
                if (s, t) in skip:
                    continue
                res = (run_peer(binary, spot, tg, t, args) if s == "postflop-solver"
                       else run_zerosum(spot, tg, t, args))
                results[(tg, s, t)].append(res)
                print(f"  [{spot['name']} {tg:g} round {rnd + 1}] {s} {t}t: "
                      + (res["error"] if "error" in res else
                         f"{res['iterations']} it, {res['cpu_s']:.2f} CPU s, {res['wall_s']:.2f} s, "
                         f"{res['peak'] / 2**20:.0f} MiB, value {res['value']:.5f}"), file=sys.stderr)
                if "error" in res:  # a side that cannot run this spot does not get retried each round
                    skip.add((s, t))
                    if res.get("detail"):
                        notes.append(f"{spot['name']} {s} {t} thread(s): {res['detail']}")
        skip.clear()
    imp = _median(imports)
    rows = []
    for tg in args.targets:
        peer_ok = {t: [r for r in results.get((tg, "postflop-solver", t), []) if "error" not in r]
                   for t in args.threads}
        for s, t in sides:
            runs = results[(tg, s, t)]
            errs = [r["error"] for r in runs if "error" in r]
            ok = [r for r in runs if "error" not in r]
            if not ok:
                rows.append([spot["name"], f"{100 * tg:g}%", s, t] + [None] * 11 + [errs[0] if errs else "not run"])
                continue
            med = {k: _median([r.get(k) for r in ok]) for k in ("iterations", "cpu_s", "wall_s", "peak", "arrays",
                                                                "value", "exploitability")}
            net = med["peak"] - imp if s == "zerosum" and imp else None
            cpu_ratio = wall_ratio = agree = None
            if s == "zerosum" and peer_ok.get(t):
                pairs = list(zip(ok, peer_ok[t]))
                cpu_ratio = _median([a["cpu_s"] / b["cpu_s"] for a, b in pairs])
                wall_ratio = _median([a["wall_s"] / b["wall_s"] for a, b in pairs])
                # a profile with NashConv N is within N of the game's value, so the two values may
                # differ by at most the sum of their NashConvs (2 x exploitability x pot each)
                pv = _median([r["value"] for r in peer_ok[t]])
                pe = _median([r["exploitability"] for r in peer_ok[t]])
                bound = 2 * (med["exploitability"] + pe) * float(spot["pot"])
                diff = abs(med["value"] - pv)
                agree = "yes" if diff <= bound else f"NO (|diff| {diff:.4g} > {bound:.4g})"
            note = "" if all(r["reached"] for r in ok) else "target not reached"
            if s == "zerosum" and ok[0].get("threads_reported") not in (None, t):
                note = (note + "; " if note else "") + f"zerosum ran {ok[0]['threads_reported']} thread(s)"
            if s == "zerosum" and ok[0].get("dtype"):
                note = (note + "; " if note else "") + str(ok[0]["dtype"])
            if s == "postflop-solver" and ok[0].get("arrays_16bit"):
                note = (note + "; " if note else "") + f"16-bit arrays {ok[0]['arrays_16bit'] / 2**20:.1f} MiB"
            rows.append([spot["name"], f"{100 * tg:g}%", s, t, med["iterations"], med["cpu_s"], med["wall_s"],
                         med["peak"] / 2**20, net / 2**20 if net is not None else None,
                         med["arrays"] / 2**20 if med["arrays"] else None, med["value"],
                         100 * med["exploitability"], cpu_ratio, wall_ratio, agree, note])
    return rows, notes


COLUMNS = ["spot", "target", "solver", "threads", "iterations", "CPU s", "wall s", "peak MiB",
           "peak - import MiB", "arrays MiB", "value (chips, P0)", "expl. % pot", "CPU zs/peer",
           "wall zs/peer", "values agree", "note"]
DIGITS = [None, None, None, None, None, 2, 2, 1, 1, 1, 5, 4, 2, 2, None, None]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("spots", nargs="*", help="spot files or names in ../shared/data/poker-spots (default: all)")
    ap.add_argument("--spots-dir", default=str(SPOTS_DIR))
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--targets", default="0.005,0.001", help="exploitability targets, fractions of the pot")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--check-every", type=int, default=10, help="iterations between exploitability checks")
    ap.add_argument("--max-iters", type=int, default=1000)
    ap.add_argument("--timeout", type=float, default=900, help="seconds per process")
    ap.add_argument("--zerosum-option", action="append", default=[], metavar="KEY=VALUE",
                    help="extra --option for zerosum solve (e.g. dtype=float32)")
    ap.add_argument("--zerosum-algorithm", default=None, metavar="NAME",
                    help="zerosum's -a (default: none, hold'em's default algorithm and options)")
    ap.add_argument("--pfs-bin", default=os.environ.get("ZEROSUM_PFS_BIN", DEFAULT_PFS))
    ap.add_argument("--rake", default=None, metavar="RATE[,CAP]",
                    help="solve every spot raked on both sides: the rate and the cap in chips (none: no cap)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    args.targets = [float(x) for x in args.targets.split(",") if x.strip()]
    args.threads = [int(x) for x in args.threads.split(",") if x.strip()]
    if args.repeats < 1 or args.check_every < 1 or args.max_iters < 1 or not args.targets or not args.threads:
        ap.error("--repeats, --check-every, --max-iters must be positive; --targets and --threads non-empty")

    spots_dir = Path(args.spots_dir)
    paths = []
    for s in args.spots or sorted(p.stem for p in spots_dir.glob("*.json")):
        p = Path(s)
        if not p.is_file():
            p = spots_dir / (s if s.endswith(".json") else s + ".json")
        if not p.is_file():
            ap.error(f"no spot {s!r} (a file, or one of {', '.join(sorted(q.stem for q in spots_dir.glob('*.json')))})")
        paths.append(p)

    notes = []
    binary = args.pfs_bin if os.access(args.pfs_bin, os.X_OK) else None
    if binary is None:
        notes.append(f"postflop-solver skipped: no executable {args.pfs_bin}; build it outside the repository as "
                     f"{BUILD_NOTE} says (a small pfs-spot binary; see docs/benchmarks.md), or set ZEROSUM_PFS_BIN")
        print(f"note: {notes[-1]}", file=sys.stderr)

    env = environment()
    load_before = os.getloadavg()
    imports: list = []
    rows = []
    for p in paths:
        spot = load_spot(p)
        spot.setdefault("name", p.stem)
        if args.rake:
            rate, _, cap = args.rake.partition(",")
            spot["rake"] = {"rate": float(rate), "cap": float(cap) if cap else 1e9}  # (the peer's "no cap")
            spot["name"] += f" rake {float(rate):g}" + (f" cap {float(cap):g}" if cap else "")
        r, n = bench_spot(spot, binary, args, imports)
        rows += r
        notes += n
    load_after = os.getloadavg()
    env.update(load_average_before=[round(x, 2) for x in load_before],
               load_average_after=[round(x, 2) for x in load_after],
               bare_import_zerosum_peak_MiB=round(_median(imports) / 2**20, 1) if imports else None,
               peer=_pfs_version(binary) if binary else "skipped",
               warm_up="one untimed 2-iteration zerosum run per spot and thread count first (Numba's cache)", kernel=platform.release(), **_versions(),
               check_every=args.check_every, repeats=args.repeats,
               peak_rss=("/usr/bin/time %M of each process" if os.access(TIME, os.X_OK) else
                         "os.wait4 ru_maxrss: an upper bound (includes this script's RSS; install GNU time)"))

    from zerosum.experiments.report import Table

    table = Table("zerosum (DCFR, public tree) against postflop-solver (DCFR): medians of alternating runs, "
                  "whole processes", COLUMNS, digits=DIGITS)
    table.rows = rows
    if args.json:
        print(json.dumps({"benchmark": "poker_solvers", "tables": [table.to_dict()], "environment": env,
                          "notes": notes}, indent=1))
        return
    print(table.render())
    for k, v in env.items():
        print(f"  {k}: {v}")
    for n in notes:
        print(f"note: {n}")


if __name__ == "__main__":
    main()
