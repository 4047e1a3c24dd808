"""The split solver: the driver keeps the trunk, sends each pass's vectors to the workers, adds
their subtrees' values in card order, and restarts a dead worker from the last checkpoint."""

from __future__ import annotations

import contextlib
import os
import tempfile
import time

import numpy as np

from ...errors import ZerosumError
from ...solvers.base import IterativeSolver
from ...solvers.capabilities import require, require_apart
from ...solvers.rules import CFR, Variant, check_variant
from .. import kernels
from ..arrays import NO_BATCHES, Cut, Sums, card_scratch, depth_scratch, pass_step
from ..passes import is_raked
from ..solver import (
    VARIANTS,
    as_public_tree,
    check_dtype,
    check_public_state,
    load_sums,
    public_state,
    with_variant,
)
from .cut import Piece, cut_at_chance, deal, subtree_nodes
from .worker import SubtreeWorker

#: seconds the driver waits for Ray to restart a dead worker, and for the workers to start
RESTART_WAIT_S = 120.0
START_WAIT_S = 300.0
#: share of a pass's expected time the driver sleeps before it reads the workers' results
SLEEP_SHARE = 0.85


class SplitDriver(IterativeSolver):
    """The public-tree solver of ``variant`` (a non-predictive object of
    :mod:`zerosum.solvers.rules`; vanilla CFR by default) with its subtrees on ``workers`` Ray
    actors: the same run, iteration for iteration, as
    :class:`zerosum.public_tree.solver.PublicTreeSolver` with that variant and ``dtype``, and the
    same state files.  Each actor writes its subtrees' arrays every ``checkpoint_every``
    iterations to ``checkpoint_dir`` (a temporary directory by default);
    ``compiled_graph=False`` sends each pass as plain actor calls (same results, slower)."""

    form = "public-tree"
    max_restarts = 4

    def __init__(self, game, variant: Variant | None = None, workers: int = 2, checkpoint_every: int = 10,
                 checkpoint_dir: str | None = None, dtype: str = "float64", compiled_graph: bool = True,
                 alternating: bool = True):
        if not alternating:
            raise ZerosumError("the public tree runs alternating updates only")
        self.variant = CFR() if variant is None else check_variant(variant)
        require(self.variant.name, "ray-split", f"run -a {self.variant.name} without --ray, in one process")
        if self.variant.restarts:
            require_apart("ray-split", "restart", "drop --ray or the restart option")
        self.dtype = check_dtype(dtype)
        if self.dtype in ("int16", "avg16"):
            require_apart("ray-split", "int16", "drop --ray or use dtype=float32")
        self.n_workers = int(workers)
        self.checkpoint_every = max(int(checkpoint_every), 1)
        self.checkpoint_dir = checkpoint_dir
        self.use_compiled_graph = bool(compiled_graph)
        from ...distributed.ray_runtime import import_ray

        ray = import_ray()
        dt = np.dtype(self.dtype)
        self.alternating = True
        self.tree = tree = as_public_tree(game)
        if is_raked(tree):
            require_apart("ray-split", "rake", "drop --ray")
        self.game = tree
        self.iteration = 0
        self.nodes_touched = 0
        trunk_nodes, self.cut, roots = cut_at_chance(tree)
        self.roots = roots
        # the cut chance nodes are the trunk's leaves: their reach goes out, their value comes back
        self.trunk = Piece(tree, trunk_nodes, cut_leaves=self.cut)
        groups = self._plan_pieces(roots)
        self._leaf_count = tree.n_children[self.cut].astype(np.int64)  # roots are in cut order, then card order
        self._leaf_start = np.concatenate([[0], np.cumsum(self._leaf_count)[:-1]]).astype(np.int64)
        self.regrets = [np.zeros(self.trunk.size[q], dtype=dt) for q in (0, 1)]
        self.average = [np.zeros(self.trunk.size[q], dtype=dt) for q in (0, 1)]
        width = tree.width
        # the trunk's pass is the threads' trunk (kernels.dfs_from with a cut): its cut leaves'
        # reach out, their values in; vectors per depth, the leaves' reach and values, the ranges,
        # of the sums' dtype for the updates and float64 for the evaluations (as in one process)
        self._trunk_arrays = self.trunk.arrays()
        self._slot = self.trunk.leaf.astype(np.int64)
        depth, actions, n_cut = self.trunk.depth(), self.trunk.max_actions(), len(self.cut)
        self._work = {np.dtype(d): (depth_scratch(depth, actions, width, d, False, NO_BATCHES),
                                    np.zeros((n_cut, 2, width), dtype=d), np.zeros((n_cut, 2, width), dtype=d),
                                    tuple(np.asarray(r, dtype=d) for r in tree.ranges))
                      for d in {dt, np.dtype(np.float64)}}
        self._cs = card_scratch(width)
        self._no_sample = np.zeros(0, dtype=np.int64)
        self._no_scales = np.zeros((0, 0), dtype=np.float32)
        self._targs = tree.terminals.kernel_args()
        self._own_dir = None
        if self.checkpoint_dir is None:
            self._own_dir = tempfile.TemporaryDirectory(prefix="zerosum-ray-")
            self.checkpoint_dir = self._own_dir.name
        os.makedirs(self.checkpoint_dir, exist_ok=True)
        self._start_actors(ray, groups, dt)
        self.ray = ray
        self._dag = None
        self._expected = {}
        self._compile()
        self.bytes_total = 0
        self.compute_s = [0.0] * self.n_workers
        self.cpu_s = [0.0] * self.n_workers
        self.driver_s = 0.0
        self.passes = 0
        self.restarts = 0
        self._saved_trunk = None
        self._save_checkpoint()

    def _plan_pieces(self, roots) -> list[np.ndarray]:
        """The subtrees below the cut dealt to the workers (``assignment``), each worker's as one
        piece per forest: a cut chance node over the run of this worker's subtrees below it (the
        pass runs from each subtree's root; its vectors are per depth, whatever the forest).
        Returns each worker's forests' cut nodes (their positions in ``cut``)."""
        tree = self.tree
        subs = subtree_nodes(tree, roots)
        self.assignment = deal([len(s) for s in subs], self.n_workers)
        below = np.searchsorted(self.cut, tree.parent[roots])  # the cut node above each subtree
        self.worker_cuts = [np.unique(below[ks]) for ks in self.assignment]
        self.pieces, groups = [], []
        for ks in self.assignment:
            forests, runs = [], []
            for k in ks:
                if runs and below[runs[-1][-1]] == below[k]:
                    runs[-1].append(k)
                else:
                    runs.append([k])
            for run in runs:
                nodes = np.concatenate([[self.cut[below[run[0]]]], *[subs[j] for j in run]])
                forests.append(Piece(tree, nodes, forest_roots=len(run)))
            self.pieces.append(forests)
            groups.append(np.array([below[run[0]] for run in runs], dtype=np.int64))
        return groups

    def _start_actors(self, ray, groups, dt) -> None:
        """One Ray actor per worker, set up with its pieces; an actor that cannot be placed (too
        few CPUs, a node gone) is a one-line error, not a hang."""
        actor = ray.remote(num_cpus=1, max_restarts=self.max_restarts, max_task_retries=0)(SubtreeWorker)
        self._setup = [(ray.put(self.pieces[w]), groups[w], ray.put(self._targs), str(dt))
                       for w in range(self.n_workers)]
        self.actors = [actor.remote(w, self.tree.n_hands, self.checkpoint_dir) for w in range(self.n_workers)]
        try:
            ray.get([a.setup.remote(*self._setup[w]) for w, a in enumerate(self.actors)], timeout=START_WAIT_S)
        except ray.exceptions.GetTimeoutError:
            self.close()
            raise ZerosumError(f"{self.n_workers} Ray workers did not start within {START_WAIT_S:g} s; "
                               f"does the cluster have {self.n_workers} free CPUs?") from None

    @property
    def name(self) -> str:
        """The variant's name, what a saved state is checked against."""
        return self.variant.name

    # --- one split pass ----------------------------------------------------------------------------
    def _compile(self) -> None:
        """One compiled graph for every pass: the message in, each actor's :meth:`SubtreeWorker.run`,
        the list of their results out; None (plain actor calls) where Ray cannot compile it."""
        self._dag = None
        if not self.use_compiled_graph:
            return
        try:
            from ray.dag import InputNode, MultiOutputNode

            with InputNode() as message:
                graph = MultiOutputNode([a.run.bind(message) for a in self.actors])
            self._dag = graph.experimental_compile(_submit_timeout=-1)
        except Exception:  # noqa: BLE001 (an older Ray, a platform without shared-memory channels)
            self._dag = None

    def _teardown(self) -> None:
        if getattr(self, "_dag", None) is not None:
            with contextlib.suppress(Exception):  # a graph whose actor died tears down with errors
                self._dag.teardown()
            self._dag = None

    def _run_workers(self, message) -> list:
        """Every actor's (root values, wall s, CPU s) for one pass.  Through the compiled graph the
        driver first sleeps through most of the pass (SLEEP_SHARE of the fastest worker's time in the
        last pass of the same player and mode): reading a channel polls, and on a machine with as
        many cores as workers the polling would take CPU from them (measured: 16 ms of driver CPU
        per 50 ms pass, 2.4 ms with the sleep)."""
        if self._dag is None:
            return self.ray.get([a.run.remote(message) for a in self.actors])
        key = message[:2]
        ref = self._dag.execute(message)
        time.sleep(SLEEP_SHARE * self._expected.get(key, 0.0))
        results = self.ray.get(ref, timeout=-1)  # a pass can take minutes on a flop; a dead actor raises
        self._expected[key] = min(r[1] for r in results)
        return results

    def _pass(self, p: int, mode: int, weight: float, rule, source: str) -> float:
        """One pass of player p split three ways, as the threads split it: the trunk down to the
        cut chance nodes (their reach), the workers' subtrees, the trunk up from the cut nodes'
        values (each the sum of its subtrees' root values in card order, as a chance node sums
        its children)."""
        src = self.regrets if source == "regrets" else self.average
        t0 = time.perf_counter()
        dt = np.dtype(self.dtype) if mode == kernels.UPDATE else np.dtype(np.float64)
        scratch, cut_reach, cut_val, ranges = self._work[dt]
        rp, ro = ranges[p], ranges[1 - p]
        n_p, n_o = len(rp), len(ro)
        avg = self.average[p] if mode == kernels.UPDATE else scratch.val[0, :0]
        head = (self._trunk_arrays, self._targs, pass_step(p, mode, weight, rule),
                Sums(rp, ro, src[p], src[1 - p], avg, src[p], self._no_scales, self._no_sample), scratch, self._cs)
        kernels.dfs_from(*head, Cut(0, 1, self._slot, cut_reach, cut_val))
        own_r, opp_r = cut_reach[:, 1, :n_p].copy(), cut_reach[:, 0, :n_o].copy()
        if mode == kernels.UPDATE:  # bytes per iteration: the iterations' passes, not the evaluations'
            self.bytes_total += self.n_workers * (own_r.nbytes + opp_r.nbytes)  # every worker reads them
        message = (p, mode, float(weight), tuple(float(x) for x in rule[:3]) + (bool(rule[3]),), source, own_r, opp_r)
        self.driver_s += time.perf_counter() - t0
        results = self._run_workers(message)
        t0 = time.perf_counter()
        root_val = np.empty((len(self.roots), n_p), dtype=dt)
        for w, (vals, secs, cpu) in enumerate(results):
            root_val[self.assignment[w]] = vals
            if mode == kernels.UPDATE:
                self.bytes_total += vals.nbytes
            self.compute_s[w] += secs
            self.cpu_s[w] += cpu
        for j, (start, count) in enumerate(zip(self._leaf_start, self._leaf_count)):
            total = cut_val[j, 0, :n_p]
            total[:] = 0.0
            for r in range(start, start + count):
                total += root_val[r]
        value, _, _ = kernels.dfs_from(*head, Cut(0, 2, self._slot, cut_reach, cut_val))
        self.driver_s += time.perf_counter() - t0
        self.passes += mode == kernels.UPDATE
        return value

    def iterate(self, n: int = 1) -> None:
        target = self.iteration + n
        while self.iteration < target:
            try:
                self._iterate_one()
            except self._faults():
                self._recover()
                continue
            if self.iteration % self.checkpoint_every == 0:
                self._save_checkpoint()

    def _faults(self) -> tuple:
        """The exceptions a dead actor raises (through a compiled graph: also a closed channel)."""
        ex = self.ray.exceptions
        return tuple(getattr(ex, n) for n in ("RayActorError", "ActorUnavailableError", "RayChannelError")
                     if hasattr(ex, n))

    def _iterate_one(self) -> None:
        self.iteration += 1
        w, rule = self.variant.average_weight(self.iteration), self.variant.regret_rule(self.iteration)
        for p in (0, 1):
            self._pass(p, kernels.UPDATE, w, rule, "regrets")
        self.nodes_touched += 2 * self.tree.n_nodes

    # --- checkpoints and faults -----------------------------------------------------------------
    def _save_checkpoint(self) -> None:
        self.ray.get([a.save.remote(self.iteration) for a in self.actors])
        self._saved_trunk = ([r.copy() for r in self.regrets], [a.copy() for a in self.average], self.iteration,
                             self.nodes_touched)

    def _recover(self) -> None:
        """An actor died: Ray restarts it from the last checkpoint; every part goes back there."""
        self._teardown()
        self.restarts += 1
        if self.restarts > self.max_restarts:
            raise ZerosumError(f"a Ray worker died {self.restarts} times; giving up")
        fresh = [None] * len(self.actors)
        deadline = time.monotonic() + RESTART_WAIT_S
        while any(f is None for f in fresh):  # a restarting actor answers "unavailable" until it is back
            for w, act in enumerate(self.actors):
                if fresh[w] is None:
                    try:
                        fresh[w] = self.ray.get(act.setup.remote(*self._setup[w]))
                    except self.ray.exceptions.ActorUnavailableError:
                        pass
                    except self.ray.exceptions.RayActorError:
                        raise ZerosumError(f"Ray worker {w} died and was not restarted") from None
            if time.monotonic() > deadline:
                raise ZerosumError(f"a Ray worker died and was not back within {RESTART_WAIT_S:g} s")
            if any(f is None for f in fresh):
                time.sleep(0.2)
        if not any(fresh):
            raise ZerosumError("a Ray worker failed, but none was restarted")
        back = self.ray.get([a.restore.remote() for a in self.actors])
        regrets, average, iteration, nodes = self._saved_trunk
        if set(back) != {iteration}:
            raise ZerosumError(f"the workers' checkpoints ({sorted(set(back))}) do not match the driver's ({iteration})")
        for q in (0, 1):
            self.regrets[q][:] = regrets[q]
            self.average[q][:] = average[q]
        self.iteration, self.nodes_touched = iteration, nodes
        self._compile()

    # --- results --------------------------------------------------------------------------------
    def evaluate_split(self, source: str) -> dict:
        """Best responses, value and NashConv of the strategies read from ``source`` ('average'
        sums or 'regrets'), split the same way (three passes)."""
        none = (1.0, 1.0, 1.0, False)
        br0 = self._pass(0, kernels.BEST_RESPONSE, 0.0, none, source)
        br1 = self._pass(1, kernels.BEST_RESPONSE, 0.0, none, source)
        value = self._pass(0, kernels.EXPECT, 0.0, none, source)
        return {"value": float(value), "values": [float(value), -float(value)],
                "best_response_values": [float(br0), float(br1)], "nash_conv": max(float(br0 + br1), 0.0)}

    def checkpoint(self) -> dict:
        avg = self.evaluate_split("average")
        cur = self.evaluate_split("regrets")
        return {"iteration": self.iteration, "nash_conv_average": avg["nash_conv"],
                "nash_conv_current": cur["nash_conv"], "value_average": avg["value"], "nodes": self.nodes_touched}

    def gather(self):
        """The global (regrets, average) arrays, as the single-process solver holds them."""
        ia = self.tree.infoset_actions()
        regrets = [np.zeros(n, dtype=self.dtype) for n in ia]
        average = [np.zeros(n, dtype=self.dtype) for n in ia]
        for q in (0, 1):
            regrets[q][self.trunk.gidx(q)] = self.regrets[q]
            average[q][self.trunk.gidx(q)] = self.average[q]
        for w, (r, a) in enumerate(self.ray.get([act.arrays.remote() for act in self.actors])):
            for k, pc in enumerate(self.pieces[w]):
                for q in (0, 1):
                    regrets[q][pc.gidx(q)] = r[k][q]
                    average[q][pc.gidx(q)] = a[k][q]
        return regrets, average

    def average_policy(self):
        """The average strategy of the whole tree (gathered from the workers)."""
        from ..policy import PublicPolicy

        return PublicPolicy.from_sums(self.tree, self.gather()[1])

    def current_policy(self):
        """The current strategy (regret matching) of the whole tree."""
        from ..policy import PublicPolicy

        return PublicPolicy.from_sums(self.tree, self.gather()[0])

    def nbytes(self) -> int:
        """The driver's share: trunk arrays and its per-node vectors."""
        return sum(a.nbytes for a in self.regrets + self.average) + sum(
            a.nbytes for sc, reach, val, _ in self._work.values() for a in (*sc[:10], reach, val))

    def stats(self) -> dict:
        """The JSON's distributed fields (workers, bytes per iteration, seconds per worker, ...)."""
        its = max(self.passes, 1) / 2
        return {"workers": self.n_workers, "bytes_per_iteration": self.bytes_total / its if self.passes else 0,
                "compute_s": list(self.compute_s), "cpu_s": list(self.cpu_s), "driver_s": self.driver_s, "restarts": self.restarts,
                "subtrees": [len(ks) for ks in self.assignment],
                "cut_nodes": [len(c) for c in self.worker_cuts], "trunk_nodes": len(self.trunk.kind)}

    # --- saving and resuming: the single-process solver's state file ------------------------------
    def state_dict(self) -> dict:
        """The whole tree's arrays (gathered), so either form of the run can resume it."""
        return public_state(self, *self.gather())

    def load_state_dict(self, state: dict) -> None:
        """Loads a single-process (or split) state file: the single-process checks, the variant's
        included, run on whole-tree arrays, which are then scattered to the trunk and the workers."""
        check_public_state(self, state)
        ia = self.tree.infoset_actions()
        whole = [np.zeros(n, dtype=self.dtype) for n in ia], [np.zeros(n, dtype=self.dtype) for n in ia]
        load_sums(state, *whole)
        self.variant.check(state)
        self.iteration = int(state["iteration"])
        self.nodes_touched = int(state["nodes_touched"])
        for q in (0, 1):
            self.regrets[q][:] = whole[0][q][self.trunk.gidx(q)]
            self.average[q][:] = whole[1][q][self.trunk.gidx(q)]
        loads = []
        for w, act in enumerate(self.actors):
            r = [[whole[0][q][pc.gidx(q)] for q in (0, 1)] for pc in self.pieces[w]]
            a = [[whole[1][q][pc.gidx(q)] for q in (0, 1)] for pc in self.pieces[w]]
            loads.append(act.load.remote(r, a))
        self.ray.get(loads)
        self._save_checkpoint()

    def close(self) -> None:
        """Stop the graph and the actors and remove a checkpoint directory this solver made."""
        self._teardown()
        for a in self.actors:
            self.ray.kill(a, no_restart=True)
        self.actors = []
        if self._own_dir is not None:
            self._own_dir.cleanup()


def split_solver(name: str, game, workers: int, checkpoint_every: int = 10, checkpoint_dir: str | None = None,
                 dtype: str = "float64", compiled_graph: bool = True, **options):
    """A public-tree solver of variant ``name`` (with its parameters ``options``) with its subtrees
    on ``workers`` Ray actors (Ray must be started: :func:`zerosum.distributed.ray_runtime.start`);
    ``dtype`` of the sums (float32 halves the memory and the reach and value vectors sent, as in
    one process); ``compiled_graph=False`` sends each pass as plain actor calls (same results,
    slower).  Its class's ``__init__`` lists the variant's parameters (what the CLI checks)."""
    require(name, "ray-split", f"run -a {name} without --ray, in one process")
    if workers < 1:
        raise ZerosumError(f"--workers must be at least 1, got {workers}")
    check_dtype(dtype)
    cls = with_variant(SplitDriver, VARIANTS[name], "Split", workers=workers, checkpoint_every=checkpoint_every,
                       checkpoint_dir=checkpoint_dir, dtype=dtype, compiled_graph=compiled_graph)
    return cls(game, **options)
