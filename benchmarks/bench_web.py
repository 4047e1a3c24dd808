"""The web app's responsiveness: from the click that starts a Kuhn run to its first progress point,
and the server's memory after many runs.

A real server (``zerosum serve`` in a subprocess, on a free port) answers plain HTTP requests from
this process (urllib: the browser's requests without a browser).  Measured:

* click to first progress: wall seconds from ``POST /api/runs`` (Kuhn, CFR+, 1,000 iterations) to
  the first ``GET /api/runs/ID`` that shows a curve point, polling every 5 ms; median and max of
  ``--repeats`` runs (the first one on its own: it imports the solvers and compiles Kuhn);
* an API call while a long run iterates (Leduc, DCFR): median wall seconds of ``GET /api/runs``,
  the event loop's answer while a solver thread holds a core;
* the server's resident memory (``VmRSS`` of ``/proc/PID/status``) after start-up, after the
  first run (the solvers imported, Numba's kernels loaded) and after all of them (``--repeats`` + 1
  and ``--runs`` Kuhn runs of 1,000 iterations, one Leduc run; each kept: the server keeps the
  newest 50);
* no leak (issue 51): on a fresh server, ``--holdem-runs`` hold'em river runs (``RIVER``: board
  Ks7d2c9h5s, both ranges full, 100 DCFR iterations on the public tree) made through
  ``POST /api/runs``, waited for and deleted (``DELETE /api/runs/ID``): the RSS after start-up,
  after the first run was deleted and after the last;
* the explorer on a saved flop (issue 51): the flop spot of ../shared/data/poker-spots solved
  briefly (``zerosum solve holdem --spot FLOP -a dcfr -n 3 --option dtype=float32 --save
  QsJh2h.zsp``: the timing is the explorer's, not the solve's; about 50 s and 7 GB here) or
  ``--solution FILE.zsp`` given, opened on a fresh server as a batch's saved flop is
  (``POST /api/batches/open`` on a one-flop results folder written here: the route that opens a
  ``.zsp``), then the wall time of each request of a walk (``--clicks``) as the page makes them:
  the root, a child, the turn's chance node and its per-card summary, a turn card, a river card's
  node...; the first street's nodes are made by the server after loading (``warm`` in the
  summary), and the walk starts once they are (the seconds that took are reported too).
  ``--no-flop`` leaves it out.

    .venv/bin/python benchmarks/bench_web.py [--repeats 10] [--runs 20] [--holdem-runs 20]
        [--solution FILE.zsp] [--no-flop] [--json]
"""

from __future__ import annotations

import argparse
import json
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import emit

ZEROSUM = Path(sys.executable).parent / "zerosum"
FLOP_SPOT = Path(__file__).resolve().parents[2] / "shared" / "data" / "poker-spots" / "texassolver-sample-flop-qsjh2h.json"
#: the leak check's run: a river, both ranges full (the game's defaults), on the public tree
RIVER = {"game": "holdem", "params": {"board": "Ks7d2c9h5s"}, "algorithm": "dcfr", "iterations": 100}
#: the limit per click (issue 51)
CLICK_LIMIT = 0.3


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _call(url: str, body: dict | None = None, method: str | None = None) -> dict:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method or ("POST" if body is not None else "GET"),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read())


def _rss(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        return next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmRSS"))


class Server:
    """``zerosum serve`` in a subprocess on a free port, up once it answers."""

    def __enter__(self):
        port = _free_port()
        self.base = f"http://127.0.0.1:{port}"
        self.proc = subprocess.Popen([str(ZEROSUM), "serve", "--port", str(port)], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        deadline = time.time() + 60
        while True:
            try:
                _call(f"{self.base}/api/algorithms")
                return self
            except OSError:
                if time.time() > deadline or self.proc.poll() is not None:
                    self.__exit__()
                    raise SystemExit("the server did not start") from None
                time.sleep(0.1)

    def __exit__(self, *exc):
        self.proc.terminate()
        self.proc.wait(10)

    def rss(self) -> float:
        return _rss(self.proc.pid) / 2 ** 20


def leak_check(n: int) -> list[dict]:
    """RSS (MiB) of a fresh server after start-up, after its first hold'em run was made and
    deleted, and after ``n`` of them."""
    with Server() as srv:
        start = srv.rss()
        after_first = None
        for k in range(n):
            rid = _call(f"{srv.base}/api/runs", RIVER)["id"]
            view = _wait_finished(srv.base, rid)
            if view["status"] != "finished":
                raise SystemExit(f"run {rid}: {view['status']} {view.get('error')}")
            _call(f"{srv.base}/api/runs/{rid}", method="DELETE")
            if k == 0:
                after_first = srv.rss()
        time.sleep(1.0)
        left = len(_call(f"{srv.base}/api/runs")["runs"])
        end = srv.rss()
    return [{"measure": "hold'em leak check: server RSS after start-up (MiB)", "value": round(start, 1)},
            {"measure": "hold'em leak check: RSS after the first run made and deleted (MiB)", "value": round(after_first, 1)},
            {"measure": f"hold'em leak check: RSS after {n} runs made and deleted (MiB)", "value": round(end, 1)},
            {"measure": f"hold'em leak check: RSS growth over start-up after {n} runs (MiB; limit 100)",
             "value": round(end - start, 1)},
            {"measure": "hold'em leak check: runs the server still lists", "value": left}]


def _batch_folder(folder: Path, spot: dict, solution: Path) -> str:
    """A one-flop results folder of ``zerosum batch`` holding ``solution`` (the flop of ``spot``):
    what ``POST /api/batches/open`` opens.  Returns the flop."""
    flop = spot["board"]
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{flop}.zsp"
    if target.resolve() != solution.resolve():
        if target.exists() or target.is_symlink():
            target.unlink()
        target.symlink_to(solution.resolve())
    (folder / "batch.json").write_text(json.dumps({"format": "zerosum.batch", "version": 1, "template": spot,
                                                   "template_hash": "bench-web", "weights": {flop: 1}}))
    (folder / f"{flop}.json").write_text(json.dumps({"format": "zerosum.batch-flop", "version": 1,
                                                     "template_hash": "bench-web", "flop": flop, "board": flop,
                                                     "solution": f"{flop}.zsp"}))
    return flop


def flop_clicks(solution: Path | None, spot_file: Path = FLOP_SPOT) -> tuple[list[dict], list[dict]]:
    """The explorer's answer per click on a saved solution of the flop spot (see the docstring):
    (rows of the summary, the clicks: [{click, request, seconds}])."""
    spot = json.loads(spot_file.read_text())
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-web-") as tmp:
        tmp = Path(tmp)
        if solution is None:
            solution = tmp / "solution.zsp"
            t0 = time.perf_counter()
            subprocess.run([str(ZEROSUM), "solve", "holdem", "--spot", str(spot_file), "-a", "dcfr", "-n", "3",
                            "--option", "dtype=float32", "--checkpoints", "3", "--save", str(solution)],
                           check=True, stdout=subprocess.DEVNULL)
            rows.append({"measure": "flop: zerosum solve -n 3 float32 --save .zsp (s)",
                         "value": round(time.perf_counter() - t0, 1)})
        rows.append({"measure": "flop: the .zsp (MB)", "value": round(solution.stat().st_size / 1e6, 1)})
        flop = _batch_folder(tmp / "batch", spot, solution)
        with Server() as srv:
            t0 = time.perf_counter()
            summary = _call(f"{srv.base}/api/batches/open", {"folder": str(tmp / "batch"), "flop": flop})
            rows.append({"measure": "flop: POST /api/batches/open, read and evaluated (s)",
                         "value": round(time.perf_counter() - t0, 2)})
            pid = summary["id"]
            t0 = time.perf_counter()
            while True:
                warm = _call(f"{srv.base}/api/policies/{pid}").get("warm")
                if warm is None or warm["done"] >= warm["total"]:
                    break
                time.sleep(0.2)
            rows.append({"measure": f"flop: the first street's {warm and warm['total']} answers made after the open (s)",
                         "value": round(time.perf_counter() - t0, 1)})
            rows.append({"measure": "flop: public nodes (the whole tree)", "value": summary["public_nodes"]})
            rows.append({"measure": "flop: server RSS with the solution open (MiB)", "value": round(srv.rss(), 1)})
            clicks = []

            def get(what: str, route: str, label: str) -> dict:
                t = time.perf_counter()
                out = _call(f"{srv.base}/api/policies/{pid}/{route}{urllib.parse.quote(label, safe='')}")
                clicks.append({"click": what, "request": f"GET /api/policies/ID/{route}{label}",
                               "seconds": round(time.perf_counter() - t, 4)})
                return out

            node = get("the root", "node?label=", "")
            node = get("a child: check", "node?label=", next(c["label"] for c in node["children"] if c["label"].endswith("c")))
            node = get("its child: check (the turn's chance node)", "node?label=", node["children"][0]["label"])
            cards = get("the turn's per-card summary", "cards?node=", node["label"])
            node = get("a turn card from the summary", "node?label=", cards["cards"][-1]["label"])
            node = get("a turn action: bet", "node?label=", node["children"][1]["label"])
            node = get("a turn action: call (the river's chance node)", "node?label=",
                       next(c["label"] for c in node["children"] if c["label"].endswith("c")))
            cards = get("the river's per-card summary", "cards?node=", node["label"])
            node = get("a river card", "node?label=", cards["cards"][0]["label"])
            node = get("a river action: bet", "node?label=", node["children"][1]["label"])
            get("back to the root", "node?label=", "")
            rows.append({"measure": "flop: server RSS after the clicks (MiB)", "value": round(srv.rss(), 1)})
    secs = [c["seconds"] for c in clicks]
    rows += [{"measure": f"flop: click, median of {len(secs)} (s)", "value": round(statistics.median(secs), 4)},
             {"measure": f"flop: click, max of {len(secs)} (s)", "value": round(max(secs), 4)},
             {"measure": f"flop: clicks over {CLICK_LIMIT} s", "value": sum(x > CLICK_LIMIT for x in secs)}]
    return rows, clicks


def _wait_finished(base: str, rid: str) -> dict:
    while True:
        view = _call(f"{base}/api/runs/{rid}")
        if view["status"] not in ("starting", "running"):
            return view
        time.sleep(0.01)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=10)
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--holdem-runs", type=int, default=20)
    ap.add_argument("--solution", type=Path, help="a saved solution (.zsp) of the flop spot: no solve")
    ap.add_argument("--no-flop", action="store_true", help="leave the saved flop's explorer out")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen([str(ZEROSUM), "serve", "--port", str(port)], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 60
        while True:
            try:
                _call(f"{base}/api/algorithms")
                break
            except OSError:
                if time.time() > deadline or server.poll() is not None:
                    raise SystemExit("the server did not start") from None
                time.sleep(0.1)
        rss_start = _rss(server.pid)
        firsts = []
        for _ in range(args.repeats + 1):
            t0 = time.perf_counter()
            rid = _call(f"{base}/api/runs", {"game": "kuhn", "algorithm": "cfr+", "iterations": 1000})["id"]
            while not _call(f"{base}/api/runs/{rid}")["curve"]:
                time.sleep(0.005)
            firsts.append(time.perf_counter() - t0)
            _wait_finished(base, rid)
            if len(firsts) == 1:
                rss_first = _rss(server.pid)
        long = _call(f"{base}/api/runs", {"game": "leduc", "algorithm": "dcfr", "iterations": 1_000_000})["id"]
        time.sleep(0.5)
        answers = []
        for _ in range(20):
            t0 = time.perf_counter()
            _call(f"{base}/api/runs")
            answers.append(time.perf_counter() - t0)
        _call(f"{base}/api/runs/{long}", method="DELETE")
        for _ in range(args.runs):
            rid = _call(f"{base}/api/runs", {"game": "kuhn", "algorithm": "cfr+", "iterations": 1000})["id"]
            _wait_finished(base, rid)
        rss_end = _rss(server.pid)
    finally:
        server.terminate()
        server.wait(10)
    warm = firsts[1:]
    rows = [{"measure": "click to first progress, first run (s)", "value": round(firsts[0], 4)},
            {"measure": f"click to first progress, median of {len(warm)} (s)", "value": round(statistics.median(warm), 4)},
            {"measure": f"click to first progress, max of {len(warm)} (s)", "value": round(max(warm), 4)},
            {"measure": "GET /api/runs while Leduc DCFR iterates, median of 20 (s)",
             "value": round(statistics.median(answers), 4)},
            {"measure": "server RSS after start-up (MiB)", "value": round(rss_start / 2 ** 20, 1)},
            {"measure": "server RSS after the first run (MiB)", "value": round(rss_first / 2 ** 20, 1)},
            {"measure": f"server RSS after {args.runs + args.repeats + 2} runs (MiB)", "value": round(rss_end / 2 ** 20, 1)}]
    rows += leak_check(args.holdem_runs)
    tables = [{"title": "web app responsiveness", "columns": ["measure", "value"],
               "rows": [[r["measure"], r["value"]] for r in rows]}]
    extra = {}
    if not args.no_flop:
        flop_rows, clicks = flop_clicks(args.solution)
        rows += flop_rows
        tables[0]["rows"] += [[r["measure"], r["value"]] for r in flop_rows]
        tables.append({"title": f"the explorer on a saved flop ({FLOP_SPOT.name}), seconds per click",
                       "columns": ["click", "request", "seconds", f"under {CLICK_LIMIT} s"],
                       "rows": [[c["click"], c["request"], c["seconds"], c["seconds"] <= CLICK_LIMIT] for c in clicks]})
        extra["clicks"] = clicks
    emit(rows, "web app responsiveness", args.json, {"tables": tables, **extra})


if __name__ == "__main__":
    main()
