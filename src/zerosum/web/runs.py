"""The solve-and-watch view's server side: runs of a CFR-family solver in background threads.

A run is a game (the registry's, with its parameters), a CFR variant and a number of iterations.
It runs in its own thread, never on the event loop, and records the exact NashConv of the average
and of the current strategy at log-spaced iterations (1, 2, 3, 5, 10, 20, 30, 50, 100, ... and the
last), so the page's log-log curve grows while it runs.  A run can be stopped (the iteration in
flight completes: the solver stays consistent), resumed (up to its iterations, or more), and its
average policy (the JSON ``zerosum solve --save`` writes) and solver state downloaded.  The state
is the server's: two tabs watch one run.

At most :data:`MAX_RUNNING` runs iterate at once (the machine's cores are few) and the newest
:data:`MAX_RUNS` are kept; a run's solver is dropped when the run is deleted or pushed out.
"""

from __future__ import annotations

import io
import itertools
import json
import threading
import time
from collections import OrderedDict

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..errors import ZerosumError
from .common import read_json

#: runs iterating at once
MAX_RUNNING = 4
#: runs kept (finished ones beyond it are dropped, oldest first)
MAX_RUNS = 50
#: the most iterations one run may ask for
MAX_ITERATIONS = 1_000_000
#: the algorithms of this view: the CFR family on the history tree (exact NashConv at each point)
ALGORITHMS = ("cfr", "cfr+", "lcfr", "dcfr", "pcfr+", "pdcfr+", "hs-dcfr", "hs-pcfr+")


def marks(iterations: int) -> list[int]:
    """Log-spaced checkpoints up to ``iterations``: 1, 2, 3, 5 times the powers of ten, and the last."""
    out = {iterations}
    for scale in itertools.count():
        base = 10 ** scale
        if base > iterations:
            break
        out.update(m * base for m in (1, 2, 3, 5) if m * base <= iterations)
    return sorted(out)


def _value(text):
    """A parameter's value: JSON where it parses (numbers, lists, true), else the text itself."""
    if not isinstance(text, str):
        return text
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def games() -> list[dict]:
    """The registry's games with their parameters and defaults (what the page's form offers)."""
    import inspect

    from ..games import REGISTRY

    out = []
    for name, (factory, description) in sorted(REGISTRY.items()):
        params = []
        try:
            sig = inspect.signature(factory)
        except (TypeError, ValueError):
            sig = None
        for p in (sig.parameters.values() if sig else ()):
            if p.kind not in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) or p.name in ("self", "max_bytes"):
                continue
            default = None if p.default is inspect.Parameter.empty else p.default
            if isinstance(default, tuple):
                default = list(default)
            if default is not None and not isinstance(default, (int, float, str, bool, list)):
                default = str(default)
            params.append({"name": p.name, "default": default, "required": p.default is inspect.Parameter.empty})
        out.append({"name": name, "description": description, "params": params})
    return out


class Run:
    """One solve: its solver (made in the run's thread: compiling a game can take a while), its
    progress and curve, and the thread that iterates it."""

    def __init__(self, rid: str, name: str, params: dict, game, algorithm: str, iterations: int):
        self.id, self.name, self.params, self.game = rid, name, params, game
        self.algorithm, self.iterations = algorithm, iterations
        self.status = "starting"  # starting, running, stopped, finished, failed
        self.error: str | None = None
        self.solver = None
        self.curve: list[dict] = []
        self.started = time.time()
        self.seconds = 0.0  # spent iterating and evaluating
        self.stop_flag = threading.Event()
        self.thread: threading.Thread | None = None
        self.lock = threading.Lock()  # the solver: one user at a time (iterating, a download)

    @property
    def iteration(self) -> int:
        """Iterations done (read while the thread runs: an int, read whole)."""
        return 0 if self.solver is None else int(self.solver.iteration)

    def start(self) -> None:
        """Iterate in a new thread up to ``self.iterations``."""
        self.stop_flag.clear()
        self.status = "running"
        self.thread = threading.Thread(target=self._loop, name=f"zerosum-run-{self.id}", daemon=True)
        self.thread.start()

    def _loop(self) -> None:
        from ..solvers import SOLVERS

        try:
            with self.lock:
                if self.solver is None:
                    self.solver = SOLVERS[self.algorithm](self.game)
            stop = (lambda row=None: "stop" if self.stop_flag.is_set() else None)
            for m in marks(self.iterations):
                if m <= self.iteration:
                    continue
                t0 = time.perf_counter()
                with self.lock:
                    rows = self.solver.run(m, checkpoints=[m], stop=stop)
                self.seconds += time.perf_counter() - t0
                for row in rows:
                    self.curve.append({"iteration": int(row["iteration"]),
                                       "nash_conv_average": float(row["nash_conv_average"]),
                                       "nash_conv_current": float(row["nash_conv_current"])})
                if self.stop_flag.is_set():
                    self.status = "stopped"
                    return
            self.status = "finished"
        except ZerosumError as e:
            self.status, self.error = "failed", str(e)
        except Exception as e:  # noqa: BLE001  (one line on the page; the server goes on)
            first = str(e).splitlines()[0] if str(e) else ""
            self.status, self.error = "failed", f"{type(e).__name__}: {first}"[:300]

    def view(self, with_curve: bool = True) -> dict:
        """The run as the page reads it (JSON)."""
        last = self.curve[-1] if self.curve else None
        out = {"id": self.id, "game": self.name, "params": self.params, "game_id": self.game.id,
               "algorithm": self.algorithm, "iterations": self.iterations, "iteration": self.iteration,
               "status": self.status, "error": self.error, "seconds": round(self.seconds, 3),
               "nash_conv_average": last["nash_conv_average"] if last else None,
               "nash_conv_current": last["nash_conv_current"] if last else None}
        if with_curve:
            out["curve"] = list(self.curve)
        return out


class RunManager:
    """The server's runs by id, and the limits on them."""

    def __init__(self):
        self._runs: OrderedDict[str, Run] = OrderedDict()
        self._ids = itertools.count(1)
        self._lock = threading.Lock()

    def running(self) -> int:
        """Runs whose thread is iterating."""
        return sum(r.status in ("starting", "running") for r in self._runs.values())

    def start(self, body) -> Run:
        """A new run from the page's request ``{game, params, algorithm, iterations}``, started."""
        from .explore import _game

        if not isinstance(body, dict):
            raise ZerosumError('send {"game": "kuhn", "params": {}, "algorithm": "cfr+", "iterations": 1000}')
        name, algorithm = body.get("game"), body.get("algorithm", "cfr+")
        params = body.get("params") or {}
        if isinstance(params, dict):
            params = {k: _value(v) for k, v in params.items() if v not in ("", None)}
        if algorithm not in ALGORITHMS:
            raise ZerosumError(f"unknown algorithm {algorithm!r}; this view runs {', '.join(ALGORITHMS)}")
        iterations = body.get("iterations", 1000)
        if isinstance(iterations, str) and iterations.strip().isdigit():
            iterations = int(iterations)
        if isinstance(iterations, bool) or not isinstance(iterations, int) or not 1 <= iterations <= MAX_ITERATIONS:
            raise ZerosumError(f"iterations must be a whole number from 1 to {MAX_ITERATIONS:,}, got {iterations!r}")
        game = _game(name, params)
        with self._lock:
            if self.running() >= MAX_RUNNING:
                raise ZerosumError(f"{MAX_RUNNING} runs are iterating already; stop one (or wait) and start again")
            run = Run(f"r{next(self._ids)}", name, params, game, algorithm, iterations)
            self._runs[run.id] = run
            self._trim()
        run.start()
        return run

    def _trim(self) -> None:
        done = [k for k, r in self._runs.items() if r.status not in ("starting", "running")]
        while len(self._runs) > MAX_RUNS and done:
            self._runs.pop(done.pop(0))

    def get(self, rid: str) -> Run:
        """The run ``rid``, or a one-line refusal."""
        run = self._runs.get(rid)
        if run is None:
            raise ZerosumError(f"no run {rid!r}; start one with POST /api/runs (GET /api/runs lists them)")
        return run

    def list(self) -> list[dict]:
        """Every run, newest last, without curves."""
        return [r.view(with_curve=False) for r in self._runs.values()]

    def stop(self, rid: str) -> Run:
        """Ask ``rid`` to stop after the iteration in flight (at once when it is not running)."""
        run = self.get(rid)
        if run.status in ("starting", "running"):
            run.stop_flag.set()
            if run.thread is not None:
                run.thread.join(30)
        return run

    def resume(self, rid: str, iterations=None) -> Run:
        """Go on with a stopped or finished run, up to its iterations (or ``iterations`` more in all)."""
        run = self.get(rid)
        if run.status in ("starting", "running"):
            raise ZerosumError(f"run {rid} is running; stop it first")
        if run.status == "failed":
            raise ZerosumError(f"run {rid} failed ({run.error}); start a new one")
        if iterations is not None:
            if isinstance(iterations, bool) or not isinstance(iterations, int) or \
                    not run.iteration < iterations <= MAX_ITERATIONS:
                raise ZerosumError(f"iterations must be a whole number above the {run.iteration} done "
                                   f"and at most {MAX_ITERATIONS:,}, got {iterations!r}")
            run.iterations = iterations
        if run.iteration >= run.iterations:
            raise ZerosumError(f"run {rid} is at its {run.iterations} iterations; resume it with more, "
                               f'e.g. {{"iterations": {2 * run.iterations}}}')
        with self._lock:
            if self.running() >= MAX_RUNNING:
                raise ZerosumError(f"{MAX_RUNNING} runs are iterating already; stop one first")
            run.start()
        return run

    def delete(self, rid: str) -> None:
        """Stop ``rid`` and forget it (its solver is freed)."""
        run = self.stop(rid)
        with self._lock:
            self._runs.pop(run.id, None)

    def close(self) -> None:
        """Stop every run (the server is shutting down)."""
        for run in list(self._runs.values()):
            run.stop_flag.set()
        for run in list(self._runs.values()):
            if run.thread is not None:
                run.thread.join(10)


def _policy(run: Run) -> dict:
    if run.solver is None or run.iteration == 0:
        raise ZerosumError(f"run {run.id} has no iteration yet: no policy to download")
    with run.lock:
        policy = run.solver.average_policy()
    # the file ``zerosum solve --save`` writes (format, version, game: the full id, players), which
    # Explore and ``zerosum evaluate --policy`` read as is, with the run's params beside it
    return {**policy.to_dict(), "params": run.params}


def _state(run: Run) -> bytes:
    import numpy as np

    if run.solver is None or run.iteration == 0:
        raise ZerosumError(f"run {run.id} has no iteration yet: no state to download")
    with run.lock:
        state = run.solver.state_dict()
    buf = io.BytesIO()
    np.savez(buf, **state)
    return buf.getvalue()


def routes(state) -> list:
    """The solve view's routes, on the server's ``state["runs"]``."""
    runs: RunManager = state["runs"]

    async def list_games(_request: Request):
        return JSONResponse({"games": games()})

    async def list_algorithms(_request: Request):
        return JSONResponse({"algorithms": list(ALGORITHMS)})

    async def runs_index(request: Request):
        if request.method == "POST":
            body = await read_json(request)
            run = await run_in_threadpool(runs.start, body)
            return JSONResponse(run.view())
        return JSONResponse({"runs": runs.list()})

    async def one(request: Request):
        rid = request.path_params["rid"]
        if request.method == "DELETE":
            await run_in_threadpool(runs.delete, rid)
            return JSONResponse({"deleted": rid})
        return JSONResponse(runs.get(rid).view())

    async def stop(request: Request):
        run = await run_in_threadpool(runs.stop, request.path_params["rid"])
        return JSONResponse(run.view())

    async def resume(request: Request):
        body = await read_json(request) if int(request.headers.get("content-length") or 0) else {}
        more = body.get("iterations") if isinstance(body, dict) else None
        run = await run_in_threadpool(runs.resume, request.path_params["rid"], more)
        return JSONResponse(run.view())

    async def policy(request: Request):
        run = runs.get(request.path_params["rid"])
        return JSONResponse(await run_in_threadpool(_policy, run),
                            headers={"Content-Disposition": f'attachment; filename="{run.id}-policy.json"'})

    async def state_file(request: Request):
        run = runs.get(request.path_params["rid"])
        data = await run_in_threadpool(_state, run)
        return Response(data, media_type="application/octet-stream",
                        headers={"Content-Disposition": f'attachment; filename="{run.id}-state.npz"'})

    return [Route("/api/games", list_games, methods=["GET"]),
            Route("/api/algorithms", list_algorithms, methods=["GET"]),
            Route("/api/runs", runs_index, methods=["GET", "POST"]),
            Route("/api/runs/{rid}", one, methods=["GET", "DELETE"]),
            Route("/api/runs/{rid}/stop", stop, methods=["POST"]),
            Route("/api/runs/{rid}/resume", resume, methods=["POST"]),
            Route("/api/runs/{rid}/policy", policy, methods=["GET"]),
            Route("/api/runs/{rid}/state", state_file, methods=["GET"])]
