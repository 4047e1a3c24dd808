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
  newest 50).

    .venv/bin/python benchmarks/bench_web.py [--repeats 10] [--runs 20] [--json]
"""

from __future__ import annotations

import argparse
import json
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import emit

ZEROSUM = Path(sys.executable).parent / "zerosum"


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
    emit(rows, "web app responsiveness", args.json,
         {"tables": [{"title": "web app responsiveness", "columns": ["measure", "value"],
                      "rows": [[r["measure"], r["value"]] for r in rows]}]})


if __name__ == "__main__":
    main()
