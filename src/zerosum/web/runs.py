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
import math
import os
import threading
import time
from collections import OrderedDict

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..errors import ZerosumError
from ..solvers.capabilities import ALGORITHMS as CAPABILITIES
from ..solvers.capabilities import names_with
from .common import read_json

#: runs iterating at once
MAX_RUNNING = 4
#: runs kept (finished ones beyond it are dropped, oldest first)
MAX_RUNS = 50
#: the most iterations one run may ask for
MAX_ITERATIONS = 1_000_000
#: the algorithms of this view, from the registry (:mod:`zerosum.solvers.capabilities`): the CFR
#: family on the history tree (exact NashConv at each point) for every game but hold'em ...
HISTORY_ALGORITHMS = tuple(names_with("history-tree"))
#: ... and its full-width variants on the public tree for hold'em (no sampler: exact NashConv)
HOLDEM_ALGORITHMS = tuple(n for n in names_with("public-tree") if not CAPABILITIES[n].sampled)
#: what a run uses when the request names no algorithm: hold'em's is the fastest measured to
#: 0.5 % of the pot on postflop-solver's example turn (``zerosum solve holdem`` defaults to it too)
DEFAULT_ALGORITHM = {"history-tree": "cfr+", "holdem": "dcfr"}
#: the default algorithm's parameters where a run names no algorithm: hold'em's DCFR restarts its
#: average at the powers of 4 and remembers its negative regrets longer as it goes, as ``zerosum
#: solve holdem`` without ``-a`` does (:data:`zerosum.cli.imperfect.DEFAULT_OPTIONS`;
#: tests/web/test_web_holdem_default.py keeps them equal); a run that names ``dcfr`` runs plain DCFR
DEFAULT_PARAMS = {"history-tree": {}, "holdem": {"restart": 4, "restart_until": 64, "beta": 0.5, "beta_scale": 20}}
#: a hold'em run's depth-first pass threads: 1 unless asked, at most the cores this process may use
MAX_THREADS = max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1))
#: a hold'em run checks its exploitability (the average's two best responses) every this many
#: iterations, besides 1, 2, 3, 5 (the curve's start): what a target is judged on
CHECK_EVERY = 10


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
               "nash_conv_current": last["nash_conv_current"] if last else None, "form": "history-tree"}
        if with_curve:
            out["curve"] = list(self.curve)
        return out


def check_target(target) -> float | None:
    """A target exploitability as a fraction of the pot (0.005 = 0.5 %), or None, or a one-line refusal."""
    if target in (None, ""):
        return None
    if isinstance(target, str):
        try:
            target = float(target)
        except ValueError:
            pass
    if isinstance(target, bool) or not isinstance(target, (int, float)) or not 0 < target < 1:
        raise ZerosumError(f"target_pot_fraction is the exploitability to stop at as a fraction of the pot, "
                           f"above 0 and below 1 (0.005 = 0.5 %), got {target!r}")
    return float(target)


def check_threads(threads) -> int:
    """A hold'em run's threads: a whole number from 1 to :data:`MAX_THREADS` (default 1)."""
    if threads in (None, ""):
        return 1
    if isinstance(threads, str) and threads.strip().isdigit():
        threads = int(threads)
    if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= MAX_THREADS:
        raise ZerosumError(f"threads must be a whole number from 1 to {MAX_THREADS} (the cores here), got {threads!r}")
    return threads


def holdem_game(name, spot, params: dict):
    """The hold'em game of a request and its parameters: a spot (the JSON object of a ``--spot``
    file, or its text) with ``params`` overriding its fields, or ``params`` (or the game's full id)
    alone.  The game's constructor refuses, from its exact size estimate and before anything is
    built, a tree too large for the memory available; a bad spot is one line."""
    from ..games import load_game
    from ..poker.spots import spot_params
    from .games import game_from_page as _game

    if spot is None:
        return _game(name, params), params
    if isinstance(spot, str):
        try:
            spot = json.loads(spot)
        except json.JSONDecodeError as e:
            raise ZerosumError(f"the spot is not JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
    merged = {**spot_params(spot, "the spot"), **params}
    return load_game("holdem", **merged), merged


def spot_name(spot) -> str | None:
    """The spot's ``name`` field, where it has one (the runs table shows it)."""
    if isinstance(spot, str):
        try:
            spot = json.loads(spot)
        except json.JSONDecodeError:
            return None
    name = spot.get("name") if isinstance(spot, dict) else None
    return str(name)[:80] if name else None


def check_locks(spec, game, algorithm):
    """A hold'em run's node locks, ``{"player": 1, "nodes": {label: {hand or "*": [probs]}}}``
    (``player`` optional: the nodes' acting player), checked by
    :class:`~zerosum.public_tree.locking.NodeLocks` on the run's tree, built here (without suit
    isomorphism, as the CLI locks): ``(tree, locks)``, ``(None, None)`` without locks, or a
    one-line refusal."""
    if spec in (None, {}):
        return None, None
    if not isinstance(spec, dict) or not isinstance(spec.get("nodes"), dict) or \
            set(spec) - {"player", "nodes"}:
        raise ZerosumError('locks are {"player": 1, "nodes": {"<public label>": {"<hand, class like AKs, or *>": '
                           f'[one probability per action]}}}}, got {json.dumps(spec)[:120]}')
    player = spec.get("player")
    if player not in (None, 0, 1) or isinstance(player, bool):
        raise ZerosumError(f"the locks' player is 0 or 1 (or left out: the locked nodes' player), got {player!r}")
    from ..public_tree.holdem_build import holdem_public_tree
    from ..public_tree.locking import NodeLocks
    from ..solvers.capabilities import require

    require(algorithm, "locks", "use dcfr or another of the public tree's CFR variants")
    tree = holdem_public_tree(game, isomorphism=False)
    return tree, NodeLocks(tree, spec["nodes"], player)


class HoldemRun(Run):
    """A hold'em run on the public tree: the tree built in the run's thread (suit isomorphism where
    the algorithm runs with it, as ``zerosum solve holdem``), the variant's public-tree solver in
    the tree's default dtype (float32 for large trees) with ``threads``, its exploitability
    (NashConv / 2, the average's two best responses) checked at iterations 1, 2, 3, 5 and every
    :data:`CHECK_EVERY`, as a percent of the spot's starting pot; it stops at ``target`` (a
    fraction of the pot) where one is set.  One iteration at a time, so a stop takes at most an
    iteration."""

    def __init__(self, *args, target: float | None = None, threads: int = 1, spot_name: str | None = None,
                 tree=None, locks=None, variant_params: dict | None = None):
        super().__init__(*args)
        self.target, self.threads, self.spot_name = target, threads, spot_name
        #: the variant's parameters (:data:`DEFAULT_PARAMS` where the request named no algorithm)
        self.variant_params = dict(variant_params or {})
        #: node locks (:class:`~zerosum.public_tree.locking.NodeLocks`, checked at the request on
        #: ``tree``, the run's full tree built then): the run solves the locked game
        self.tree, self.locks = tree, locks
        self.pot = float(self.game.pot)
        self.stopped_by: str | None = None  # "target", "iterations", "stop"
        self.build_s = 0.0
        self.sizes = self.game.estimated_sizes()

    def _make_solver(self):
        from ..public_tree.holdem_build import holdem_public_tree
        from ..public_tree.solver import default_dtype, public_solver_class
        from ..solvers.capabilities import require

        t0 = time.perf_counter()
        iso = CAPABILITIES[self.algorithm].runs_with("isomorphism") and self.locks is None
        # built here, not through public_tree()'s process-wide cache: a deleted run frees its tree
        # (a locked run's was built at the request, without isomorphism, as the CLI locks)
        tree = self.tree if self.tree is not None else holdem_public_tree(self.game, isomorphism=iso)
        self.tree = None
        if self.threads > 1:
            require(self.algorithm, "threads", "use threads=1")
        dtype = default_dtype(tree, self.algorithm, floats=self.locks is not None)
        solver = public_solver_class(self.algorithm, dtype)(tree, threads=self.threads,
                                                                         **self.variant_params)
        solver.light_checks = True  # the average's NashConv only: what the target and the curve read
        if self.locks is not None:
            from ..public_tree.locking import lock_solver

            lock_solver(solver, self.locks)
        self.build_s = time.perf_counter() - t0
        return solver

    def checks(self) -> list[int]:
        """The iterations where exploitability is checked, up to ``self.iterations``."""
        return sorted({m for m in (1, 2, 3, 5) if m <= self.iterations} |
                      set(range(CHECK_EVERY, self.iterations + 1, CHECK_EVERY)) | {self.iterations})

    def _loop(self) -> None:
        try:
            self.stopped_by = None
            with self.lock:
                if self.solver is None:
                    self.solver = self._make_solver()
            for m in self.checks():
                if m <= self.iteration:
                    continue
                while self.iteration < m:
                    if self.stop_flag.is_set():
                        break
                    t0 = time.perf_counter()
                    with self.lock:
                        self.solver.iterate(1)
                    self.seconds += time.perf_counter() - t0
                t0 = time.perf_counter()
                with self.lock:
                    point = self._check()
                self.seconds += time.perf_counter() - t0
                nc = point["nash_conv_average"]
                if not self.curve or self.curve[-1]["iteration"] != point["iteration"]:
                    self.curve.append(point)
                if self.stop_flag.is_set():
                    self.status, self.stopped_by = "stopped", "stop"
                    return
                if self.target is not None and nc / 2 / self.pot <= self.target:
                    self.status, self.stopped_by = "finished", "target"
                    return
            self.status, self.stopped_by = "finished", "iterations"
        except ZerosumError as e:
            self.status, self.error = "failed", str(e)
        except Exception as e:  # noqa: BLE001  (one line on the page; the server goes on)
            first = str(e).splitlines()[0] if str(e) else ""
            self.status, self.error = "failed", f"{type(e).__name__}: {first}"[:300]

    def _check(self) -> dict:
        """A point of the curve: the average's NashConv (two best responses) and the exploitability
        in % of the pot; for a locked run, the locked game's (the free player's gain plus the
        locked player's within its free slots: what falls to zero, so what a target reads; the
        usual NashConv where the locked player's pass would be too large), the free player's gain
        (its best response against the locked profile less its value: what ``zerosum solve
        --option lock=FILE`` reports, ``locked_exploitability``) and player 0's value of the
        average (against an unlocked run's, what the free player wins from the lock)."""
        if self.locks is None:
            row = self.solver.checkpoint()
            nc = float(row["nash_conv_average"])
            return {"iteration": int(row["iteration"]), "nash_conv_average": nc, "nash_conv_current": None,
                    "exploitability_pot_pct": 100 * nc / 2 / self.pot}
        from ..solutions.analysis import locked_exploitability

        tree = self.solver.tree
        lk = locked_exploitability(tree, self.solver.average_policy(), self.locks)
        nc = float(lk["nash_conv"] if lk["locked_nash_conv"] is None else lk["locked_nash_conv"])
        return {"iteration": int(self.solver.iteration), "nash_conv_average": nc, "nash_conv_current": None,
                "exploitability_pot_pct": 100 * nc / 2 / self.pot, "nash_conv_unlocked": float(lk["nash_conv"]),
                "value_average": float(lk["value"]),
                "free_player_gain": float(lk["free_player_gain"]),
                "free_player_gain_pot_pct": 100 * float(lk["free_player_gain"]) / float(tree.pot),
                "locked_player_gain": None if lk["locked_player_gain"] is None else float(lk["locked_player_gain"])}

    def eta(self) -> tuple[float | None, str | None]:
        """(seconds left, how they were estimated) while the run iterates: ``"curve"`` where a
        target is set and the last checks' exploitability falls as a power of the iterations (the
        log-log slope of the checks in the last factor of three of the iterations, extended to the
        target, at the run's rate so far, checks included), capped by the iterations left;
        ``"iterations"``: the iterations left at that rate (no target, or no slope yet)."""
        if self.status not in ("running",) or not self.iteration or self.seconds <= 0:
            return None, None
        rate = self.iteration / self.seconds
        left = max(self.iterations - self.iteration, 0) / rate
        pts = [(p["iteration"], p["nash_conv_average"]) for p in self.curve if p["nash_conv_average"] > 0]
        if self.target is not None and len(pts) >= 2:
            x1, y1 = pts[-1]
            window = [p for p in pts if p[0] * 3 >= x1] or pts
            x0, y0 = window[0] if window[0][0] < x1 else pts[-2]
            if x0 < x1:
                slope = (math.log(y1) - math.log(y0)) / (math.log(x1) - math.log(x0))
                goal = self.target * 2 * self.pot  # the target as NashConv
                if slope < 0:
                    x_goal = x1
                    if y1 > goal:  # (in logs: a nearly flat curve puts the target past any float)
                        steps = math.log(goal / y1) / slope
                        x_goal = x1 * math.exp(steps) if steps < 50 else math.inf
                    return min(left, max(x_goal - self.iteration, 0) / rate), "curve"
        return left, "iterations"

    def view(self, with_curve: bool = True) -> dict:
        out = super().view(with_curve)
        last = self.curve[-1] if self.curve else None
        eta, basis = self.eta()
        out.update(form="public-tree", spot_name=self.spot_name, pot=self.pot, threads=self.threads,
                   variant_params=dict(self.variant_params),
                   target_pot_fraction=self.target, stopped_by=self.stopped_by,
                   exploitability_pot_pct=last["exploitability_pot_pct"] if last else None,
                   iterations_per_s=round(self.iteration / self.seconds, 3) if self.seconds > 0 else None,
                   eta_s=None if eta is None else round(eta, 1), eta_basis=basis,
                   build_s=round(self.build_s, 3),
                   sizes={k: self.sizes[k] for k in ("public_nodes", "infoset_actions", "public_bytes")})
        if self.locks is not None:
            out["locks"] = {**self.locks.summary(), "free_player": self.locks.free_player, "nodes_locked": self.locks.spec}
            for key in ("free_player_gain", "free_player_gain_pot_pct", "locked_player_gain", "nash_conv_unlocked",
                        "value_average"):
                out[key] = last.get(key) if last else None
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
        """A new run from the page's request, started: ``{game, params, algorithm, iterations}`` on
        the history tree, or hold'em on the public tree: ``{game: "holdem", spot: {...}, params,
        algorithm, iterations, target_pot_fraction, threads}`` (a spot, or params, or both: the
        params override the spot's fields, as ``--param`` does ``--spot``'s)."""
        from .games import game_from_page as _game

        if not isinstance(body, dict):
            raise ZerosumError('send {"game": "kuhn", "params": {}, "algorithm": "cfr+", "iterations": 1000}')
        name, spot = body.get("game"), body.get("spot")
        if spot is not None and name in (None, ""):
            name = "holdem"
        holdem = isinstance(name, str) and name.strip().split("(")[0] == "holdem"
        if spot is not None and not holdem:
            raise ZerosumError(f"a spot is a hold'em spot; send it with \"game\": \"holdem\" (not {name!r})")
        kind = "holdem" if holdem else "history-tree"
        algorithm = body.get("algorithm") or DEFAULT_ALGORITHM[kind]
        variant_params = {} if body.get("algorithm") else DEFAULT_PARAMS[kind]
        offered = HOLDEM_ALGORITHMS if holdem else HISTORY_ALGORITHMS
        if algorithm not in offered:
            where = "hold'em runs on the public tree" if holdem else "this view runs on the history tree"
            raise ZerosumError(f"unknown algorithm {algorithm!r}; {where}: {', '.join(offered)}")
        params = body.get("params") or {}
        if isinstance(params, dict):
            params = {k: _value(v) for k, v in params.items() if v not in ("", None)}
        iterations = body.get("iterations", 1000)
        if isinstance(iterations, str) and iterations.strip().isdigit():
            iterations = int(iterations)
        if isinstance(iterations, bool) or not isinstance(iterations, int) or not 1 <= iterations <= MAX_ITERATIONS:
            raise ZerosumError(f"iterations must be a whole number from 1 to {MAX_ITERATIONS:,}, got {iterations!r}")
        if not holdem:
            for key, unset in (("target_pot_fraction", (None, "")), ("threads", (None, "", 1)), ("locks", (None, {}))):
                if body.get(key) not in unset:
                    raise ZerosumError(f"{key} is for hold'em runs (the public tree); drop it for {name}")
            game = _game(name, params)
            run_args = (name, params, game, algorithm, iterations)
        else:
            target = check_target(body.get("target_pot_fraction"))
            threads = check_threads(body.get("threads"))
            game, params = holdem_game(name, spot, params)
            run_args = ("holdem", params, game, algorithm, iterations)
            tree, locks = check_locks(body.get("locks"), game, algorithm)
        with self._lock:
            if self.running() >= MAX_RUNNING:
                raise ZerosumError(f"{MAX_RUNNING} runs are iterating already; stop one (or wait) and start again")
            rid = f"r{next(self._ids)}"
            run = Run(rid, *run_args) if not holdem else HoldemRun(rid, *run_args, target=target, threads=threads,
                                                                   spot_name=spot_name(spot), tree=tree, locks=locks,
                                                                   variant_params=variant_params)
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

    def resume(self, rid: str, iterations=None, target=False) -> Run:
        """Go on with a stopped or finished run, up to its iterations (or ``iterations`` more in all);
        a hold'em run may be given a new ``target`` (a fraction of the pot, or None for none)."""
        run = self.get(rid)
        if run.status in ("starting", "running"):
            raise ZerosumError(f"run {rid} is running; stop it first")
        if run.status == "failed":
            raise ZerosumError(f"run {rid} failed ({run.error}); start a new one")
        if target is not False:
            if not isinstance(run, HoldemRun):
                raise ZerosumError(f"a target in % of the pot is for hold'em runs; run {rid} is {run.name}")
            run.target = check_target(target)
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


def _public_policy(run: HoldemRun) -> bytes:
    """A hold'em run's average policy: the file ``zerosum solve holdem --save`` writes (the whole
    tree's policy where the run's tree is suit-isomorphic), with the run's ``params`` first, written
    node by node (never every probability as a Python float at once)."""
    import tempfile

    if run.solver is None or run.iteration == 0:
        raise ZerosumError(f"run {run.id} has no iteration yet: no policy to download")
    with run.lock:
        policy = run.solver.average_policy()
    if policy.tree.iso is not None:
        from ..public_tree.holdem_build import holdem_public_tree

        policy = policy.on_full_tree(holdem_public_tree(run.game))
    with tempfile.TemporaryDirectory(prefix="zerosum-policy-") as tmp:
        path = os.path.join(tmp, "policy.json")
        policy.save(path)
        with open(path, "rb") as f:
            data = f.read()
    # the saved file is one JSON object: its params go in after the opening brace
    return b'{"params":' + json.dumps(run.params, separators=(",", ":")).encode() + b"," + data[1:]


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
        return JSONResponse({"algorithms": list(HISTORY_ALGORITHMS),
                             "offered": {"history-tree": list(HISTORY_ALGORITHMS), "holdem": list(HOLDEM_ALGORITHMS)},
                             "defaults": DEFAULT_ALGORITHM, "default_params": DEFAULT_PARAMS,
                             "max_threads": MAX_THREADS})

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
        body = body if isinstance(body, dict) else {}
        run = await run_in_threadpool(runs.resume, request.path_params["rid"], body.get("iterations"),
                                      body.get("target_pot_fraction", False))
        return JSONResponse(run.view())

    async def policy(request: Request):
        run = runs.get(request.path_params["rid"])
        headers = {"Content-Disposition": f'attachment; filename="{run.id}-policy.json"'}
        if isinstance(run, HoldemRun):
            return Response(await run_in_threadpool(_public_policy, run), media_type="application/json",
                            headers=headers)
        return JSONResponse(await run_in_threadpool(_policy, run), headers=headers)

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
