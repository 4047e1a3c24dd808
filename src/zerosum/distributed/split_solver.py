"""The public-tree solver split at public chance: the trunk on the driver, subtrees in Ray actors.

The public tree is cut at its first layer of chance nodes (a hold'em turn subgame: the river
card; a flop subgame: the turn card; the poker family: the board card).  Every child of a cut
chance node roots a *subtree*; subtrees are dealt to the workers (Ray actors) by size, and each
actor holds its subtrees' regrets and average sums, never sent anywhere.  One pass for player p:

1. the driver walks the trunk top-down (reach vectors; the average at p's trunk nodes),
2. sends each actor p's and the opponent's reach vectors at the cut chance nodes above its
   subtrees (a chance node hands the same vectors to every card below it),
3. each actor runs the core's pass (:func:`zerosum.public_tree.kernels.walk`) on each subtree
   with those vectors as the "ranges" and returns each subtree root's counterfactual values,
4. the driver adds them at each cut chance node in card order, as the single-process pass does
   (the sums are not grouped per worker: CFR+'s floor makes a regret that is exactly zero in one
   grouping and 1e-17 in another pick another strategy), and walks the trunk bottom-up from there
   (regret updates at p's trunk nodes).

Every node's arithmetic is the single-process pass's, in the same order, so alternating updates,
discounting (the variant's rule, computed on the driver each pass and sent along) and averaging
are the single-process run's.  Exact best response, expected value and NashConv are the same
passes in the other modes.

Each pass is one call of a Ray *compiled graph* (``ray.dag``, built once: the driver's message goes to
every actor through shared-memory channels, without a task submission per actor and pass; measured
here 4.0 ms per round trip of the turn subgame's vectors against 8.2 ms for two actor-method calls);
where Ray cannot compile the graph the passes fall back to plain actor calls, with the same results.

Faults: every ``checkpoint_every`` iterations each actor writes its subtrees' arrays to
``checkpoint_dir`` (a path every machine sees) and the driver keeps a copy of the trunk's.  An
actor that dies is restarted by Ray (``max_restarts``); the driver sends it its subtrees again,
every actor reloads the last checkpoint, the trunk goes back to the same iteration and the
iterations since are redone, so the run ends with the result of an uninterrupted one.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import time

import numpy as np
from numba import njit

from ..errors import ZerosumError
from ..public_tree import kernels
from ..public_tree.form import CHANCE_NODE, DECISION, FOLD, PublicTree
from ..public_tree.solver import VARIANTS, PublicTreeCFR, as_public_tree
from ..solvers.cfr import regret_update

#: seconds the driver waits for Ray to restart a dead worker, and for the workers to start
RESTART_WAIT_S = 120.0
START_WAIT_S = 300.0
#: kind of a trunk leaf that stands for a subtree (its value comes from a worker)
CUT = 4
#: the per-node buffers of one worker's walk (a forest of subtrees) stay within this many bytes
FOREST_BYTES = 2 ** 20
#: share of a pass's expected time the driver sleeps before it reads the workers' results
SLEEP_SHARE = 0.85


class Piece:
    """A connected part of the public tree renumbered from 0 (parents first, children
    consecutive), with its own flat [action x hand] offsets and, per player, where its decision
    nodes' entries lie in the global arrays (``gidx(p)``, built on demand: a flop subtree's index
    would take as much memory as its sums)."""

    def __init__(self, tree: PublicTree, nodes: np.ndarray, cut_leaves: np.ndarray | None = None,
                 forest_roots: int = 0):
        nodes = np.sort(nodes)
        local = np.full(tree.n_nodes, -1, dtype=np.int64)
        local[nodes] = np.arange(len(nodes))
        self.nodes = nodes
        self.kind = tree.kind[nodes].copy()
        self.leaf = np.full(len(nodes), -1, dtype=np.int64)
        if cut_leaves is not None:  # the trunk: subtree roots become CUT leaves
            self.kind[local[cut_leaves]] = CUT
            self.leaf[local[cut_leaves]] = np.arange(len(cut_leaves))
        self.player = tree.player[nodes].copy()
        fc = tree.first_child[nodes]
        self.first_child = np.where((fc >= 0) & (self.kind != CUT), local[np.maximum(fc, 0)], -1).astype(np.int64)
        self.n_children = np.where(self.kind == CUT, 0, tree.n_children[nodes]).astype(np.int64)
        if forest_roots:  # node 0 is a cut chance node over some of its cards' subtrees (a forest)
            if not np.array_equal(tree.parent[nodes[1:forest_roots + 1]], np.full(forest_roots, nodes[0])):
                raise AssertionError("forest: the subtree roots are not the first nodes after the chance node")
            self.first_child[0], self.n_children[0] = 1, forest_roots
        self.n_roots = forest_roots
        self.board = tree.board[nodes].copy()
        self.stake = tree.stake[nodes].copy()
        self.offset = np.full(len(nodes), -1, dtype=np.int64)
        used, start, size = [0, 0], [[], []], [[], []]
        for k, g in enumerate(nodes):
            if self.kind[k] == DECISION:
                q = int(self.player[k])
                n = int(self.n_children[k]) * tree.n_hands[q]
                self.offset[k] = used[q]
                used[q] += n
                start[q].append(int(tree.offset[g]))
                size[q].append(n)
        self.gstart = [np.array(x, dtype=np.int64) for x in start]
        self.gsize = [np.array(x, dtype=np.int64) for x in size]
        self.size = used

    def gidx(self, q: int) -> np.ndarray:
        """The global flat index of each of player q's local entries, in local order."""
        if len(self.gsize[q]) == 0:
            return np.zeros(0, dtype=np.int64)
        local = np.arange(int(self.gsize[q].sum()), dtype=np.int64)
        first = np.concatenate([[0], np.cumsum(self.gsize[q])[:-1]])
        return local + np.repeat(self.gstart[q] - first, self.gsize[q])

    def arrays(self):
        """The node arrays in the order the core's kernels take them."""
        return (self.kind, self.player, self.first_child, self.n_children, self.board, self.stake, self.offset)


def cut_at_chance(tree: PublicTree):
    """(trunk node ids, cut chance node ids, subtree root ids): the cut is every chance node with
    no chance node above it."""
    n = tree.n_nodes
    below = np.zeros(n, dtype=bool)  # strictly below a cut chance node
    cut = []
    for node in range(1, n):
        par = tree.parent[node]
        if below[par]:
            below[node] = True
        elif tree.kind[par] == CHANCE_NODE:
            below[node] = True
            if not cut or cut[-1] != par:
                cut.append(par)
    if tree.kind[0] == CHANCE_NODE:
        raise ZerosumError("the public tree starts with chance: nothing to keep on the driver")
    cut = np.array(sorted(set(cut)), dtype=np.int64)
    if len(cut) == 0:
        raise ZerosumError(f"{tree.game_id} has no public chance node to split at; run it without --ray")
    roots = np.concatenate([np.arange(tree.first_child[c], tree.first_child[c] + tree.n_children[c]) for c in cut])
    return np.flatnonzero(~below), cut, roots


def subtree_nodes(tree: PublicTree, roots: np.ndarray) -> list[np.ndarray]:
    """The node ids of each subtree (root first)."""
    owner = np.full(tree.n_nodes, -1, dtype=np.int64)
    owner[roots] = np.arange(len(roots))
    for node in range(1, tree.n_nodes):
        if owner[node] < 0 and owner[tree.parent[node]] >= 0:
            owner[node] = owner[tree.parent[node]]
    order = np.argsort(owner, kind="stable")
    counts = np.bincount(owner[owner >= 0], minlength=len(roots))
    start = int(np.sum(owner < 0))
    out = []
    for c in counts:
        out.append(order[start:start + c])
        start += c
    return out


def deal(sizes, workers: int) -> list[list[int]]:
    """Subtrees to workers, largest first to the least loaded (ties: lowest worker)."""
    load = [0] * workers
    out = [[] for _ in range(workers)]
    for k in sorted(range(len(sizes)), key=lambda k: (-sizes[k], k)):
        w = min(range(workers), key=lambda w: (load[w], w))
        out[w].append(k)
        load[w] += sizes[k]
    return [sorted(x) for x in out]


# --- the trunk pass --------------------------------------------------------------------------------
@njit(cache=True)
def trunk_down(kind, player, first_child, n_children, offset, p, range_p, range_o, src_p, src_o, mode, avg_p,
               avg_weight, opp, own):
    """Top-down over the trunk: reach vectors per node (opp, own), the average at p's nodes."""
    n_p, n_o = len(range_p), len(range_o)
    for j in range(n_o):
        opp[0, j] = range_o[j]
    for i in range(n_p):
        own[0, i] = range_p[i]
    tot = np.empty(max(n_p, n_o))
    for n in range(len(kind)):
        k = kind[n]
        if k >= FOLD:
            continue
        c0, na = first_child[n], n_children[n]
        for c in range(c0, c0 + na):
            for j in range(n_o):
                opp[c, j] = opp[n, j]
            for i in range(n_p):
                own[c, i] = own[n, i]
        if k != DECISION:
            continue
        o = offset[n]
        u = 1.0 / na
        if player[n] != p:
            for j in range(n_o):
                tot[j] = 0.0
            for a in range(na):
                for j in range(n_o):
                    x = src_o[o + a * n_o + j]
                    if x > 0.0:
                        tot[j] += x
            for a in range(na):
                for j in range(n_o):
                    x = src_o[o + a * n_o + j]
                    t = tot[j]
                    opp[c0 + a, j] = opp[n, j] * ((x / t if x > 0.0 else 0.0) if t > 0.0 else u)
        else:
            for i in range(n_p):
                tot[i] = 0.0
            for a in range(na):
                for i in range(n_p):
                    x = src_p[o + a * n_p + i]
                    if x > 0.0:
                        tot[i] += x
            for a in range(na):
                for i in range(n_p):
                    x = src_p[o + a * n_p + i]
                    t = tot[i]
                    reach = own[n, i] * ((x / t if x > 0.0 else 0.0) if t > 0.0 else u)
                    own[c0 + a, i] = reach
                    if mode == 0:
                        avg_p[o + a * n_p + i] += avg_weight * reach


@njit(cache=True)
def trunk_up(kind, player, first_child, n_children, board, stake, offset, leaf,
             evaluator, weight, signed, cards, const, order, start, strength,
             p, range_p, src_p, mode, pre, pos, neg, floor, opp, val, root_val, leaf_start, leaf_count, cs):
    """Bottom-up over the trunk from the subtrees' root values (a CUT node, cut chance node
    ``leaf[n]``, sums ``root_val[leaf_start[c] + k]`` over its cards k in order, as the
    single-process pass sums children); regret updates at p's nodes in mode 0.  Returns sum_i range_p(i) * value_root(i)."""
    n_p = len(range_p)
    tot = np.empty(n_p)
    for n in range(len(kind) - 1, -1, -1):
        k = kind[n]
        if k == CUT:
            r0 = leaf_start[leaf[n]]
            for i in range(n_p):
                val[n, i] = root_val[r0, i]
            for r in range(r0 + 1, r0 + leaf_count[leaf[n]]):
                for i in range(n_p):
                    val[n, i] += root_val[r, i]
            continue
        if k >= FOLD:
            if evaluator == 2:
                kernels._ranks(n, n, p, player[n], k == FOLD, stake[n], board[n], opp, val, cards[0, 0], cards[0, 1],
                               const, order, start)
            else:
                kernels._terminal(n, n, p, player[n], k == FOLD, stake[n], board[n], opp, val, evaluator, weight,
                                  signed, cards, const, order, start, strength, cs)
            continue
        c0, na = first_child[n], n_children[n]
        if k == CHANCE_NODE or player[n] != p:
            for i in range(n_p):
                val[n, i] = val[c0, i]
            for c in range(c0 + 1, c0 + na):
                for i in range(n_p):
                    val[n, i] += val[c, i]
            continue
        if mode == 1:
            for i in range(n_p):
                val[n, i] = val[c0, i]
            for c in range(c0 + 1, c0 + na):
                for i in range(n_p):
                    val[n, i] = max(val[n, i], val[c, i])
            continue
        o = offset[n]
        u = 1.0 / na
        for i in range(n_p):
            tot[i] = 0.0
            val[n, i] = 0.0
        for a in range(na):
            for i in range(n_p):
                x = src_p[o + a * n_p + i]
                if x > 0.0:
                    tot[i] += x
        for a in range(na):
            for i in range(n_p):
                x = src_p[o + a * n_p + i]
                t = tot[i]
                val[n, i] += ((x / t if x > 0.0 else 0.0) if t > 0.0 else u) * val[c0 + a, i]
        if mode == 0:
            for a in range(na):
                for i in range(n_p):
                    src_p[o + a * n_p + i] = regret_update(src_p[o + a * n_p + i], val[c0 + a, i] - val[n, i], pre,
                                                           pos, neg, floor)
    out = 0.0
    for i in range(n_p):
        out += range_p[i] * val[0, i]
    return out


# --- the worker ----------------------------------------------------------------------------------
class SubtreeWorker:
    """Holds some subtrees' regrets and averages; runs the core's pass on them (a Ray actor)."""

    def __init__(self, index: int, n_hands, checkpoint_dir: str | None):
        # small arguments only: Ray may free object-store arguments after the first creation, and
        # a restarted actor runs this again (the driver then calls setup and restore)
        self.index = index
        self.n_hands = tuple(n_hands)
        self.pieces = None
        self.path = None if checkpoint_dir is None else os.path.join(checkpoint_dir, f"worker{index}.npz")
        self.iteration = 0

    def setup(self, pieces, groups, terminal_args, dtype: str = "float64") -> bool:
        """The subtrees, which cut chance node each hangs below (``groups``: rows of the reach
        vectors a pass sends), the terminal data and the sums' dtype (zeros for the sums); False
        where already set up."""
        if self.pieces is not None:
            return False
        n_hands = self.n_hands
        self.pieces = pieces
        self.groups = np.asarray(groups, dtype=np.int64)
        self.n_hands = tuple(n_hands)
        self.targs = terminal_args
        self.dtype = np.dtype(dtype)
        self.regrets = [[np.zeros(pc.size[q], dtype=self.dtype) for q in (0, 1)] for pc in pieces]
        self.average = [[np.zeros(pc.size[q], dtype=self.dtype) for q in (0, 1)] for pc in pieces]
        width = max(n_hands)
        biggest = max((len(pc.kind) for pc in pieces), default=1)
        # per-node buffers of the sums' dtype for the updates, float64 for the evaluations (as the
        # single-process solver: float32 sums are read by float64 passes)
        self.buffers = {np.dtype(d): (np.zeros((biggest, width), dtype=d), np.zeros((biggest, width), dtype=d),
                                      np.zeros(52, dtype=d), np.zeros(0, dtype=d))
                        for d in {self.dtype, np.dtype(np.float64)}}
        self.empty_i = np.zeros(0, dtype=np.int64)
        self.empty_b = np.zeros(0, dtype=np.int8)
        self.empty_w = np.zeros(0)
        return True

    def nbytes(self) -> int:
        """This worker's memory for the solve: its subtrees' sums and its per-node buffers."""
        sums = sum(a.nbytes for pairs in (self.regrets, self.average) for pair in pairs for a in pair)
        return sums + sum(b.nbytes for bufs in self.buffers.values() for b in bufs)

    def pid(self) -> int:
        """This actor's process id (the fault test kills it)."""
        return os.getpid()

    def run(self, message):
        """:meth:`run_pass` on one message tuple (what the compiled graph sends every actor)."""
        return self.run_pass(*message)

    def run_pass(self, p: int, mode: int, weight: float, rule, source: str, own_reach, opp_reach):
        """Reach vectors in, one row per cut chance node (a chance node passes them unchanged to
        every subtree below it); out: the value vector at each of this worker's subtree roots, the
        wall seconds it took and the CPU seconds (less on a machine shared with other work)."""
        t0, c0 = time.perf_counter(), time.process_time()
        pre, pos, neg, floor = rule
        n_p, n_o = self.n_hands[p], self.n_hands[1 - p]
        vals, owns, cs, empty = self.buffers[own_reach.dtype]
        out = np.empty((sum(pc.n_roots for pc in self.pieces), n_p), dtype=own_reach.dtype)
        row = 0
        src = self.regrets if source == "regrets" else self.average
        for k, pc in enumerate(self.pieces):
            avg = self.average[k][p] if mode == kernels.UPDATE else empty
            m = len(pc.kind)
            val = vals[:m]
            g = self.groups[k]
            kernels.walk(*pc.arrays(), *self.targs, p, own_reach[g], opp_reach[g], src[k][p], src[k][1 - p], mode,
                         avg, float(weight), float(pre), float(pos), float(neg), bool(floor), val[:, :n_o],
                         owns[:m, :n_p], val[:, :n_p], cs, self.empty_i, self.empty_b, self.empty_w)
            out[row:row + pc.n_roots] = val[1:1 + pc.n_roots, :n_p]
            row += pc.n_roots
        return out, time.perf_counter() - t0, time.process_time() - c0

    def arrays(self):
        """(regrets, average) of every subtree, for the driver to gather."""
        return self.regrets, self.average

    def load(self, regrets, average) -> None:
        """Replace the subtrees' sums (a resumed run)."""
        for k in range(len(self.pieces)):
            for q in (0, 1):
                self.regrets[k][q][:] = regrets[k][q]
                self.average[k][q][:] = average[k][q]

    def save(self, iteration: int) -> None:
        """Write the subtrees' sums to this worker's checkpoint file (at iteration 0 they are all
        zeros: no file, which :meth:`restore` reads as zeros; a flop's sums are gigabytes)."""
        if iteration == 0:
            if os.path.exists(self.path):
                os.remove(self.path)
            self.iteration = 0
            return
        arrays = {f"{key}{k}_{q}": a for key, src in (("r", self.regrets), ("a", self.average))
                  for k, pair in enumerate(src) for q, a in enumerate(pair)}
        os.makedirs(os.path.dirname(self.path), exist_ok=True)  # on another machine too
        tmp = self.path + ".tmp.npz"
        np.savez(tmp, iteration=iteration, **arrays)
        os.replace(tmp, self.path)  # a crash mid-write leaves the previous checkpoint whole
        self.iteration = iteration

    def restore(self) -> int:
        """Back to the checkpoint file; returns its iteration."""
        if not os.path.exists(self.path):  # the checkpoint of iteration 0
            for pair in self.regrets + self.average:
                for a in pair:
                    a[:] = 0
            self.iteration = 0
            return 0
        with np.load(self.path) as z:
            for k in range(len(self.pieces)):
                for q in (0, 1):
                    self.regrets[k][q][:] = z[f"r{k}_{q}"]
                    self.average[k][q][:] = z[f"a{k}_{q}"]
            self.iteration = int(z["iteration"])
        return self.iteration


# --- the driver ----------------------------------------------------------------------------------
class SplitDriver(PublicTreeCFR):
    """The public-tree solver with its subtrees in Ray actors (mixed under a variant class, as
    :func:`zerosum.public_tree.solver.public_solver_class` does)."""

    n_workers = 2
    checkpoint_every = 10
    checkpoint_dir = None
    max_restarts = 4
    use_compiled_graph = True

    def __init__(self, game, alternating: bool = True):
        if not alternating:
            raise ZerosumError("the public tree runs alternating updates only")
        from .ray_runtime import import_ray

        ray = import_ray()
        dt = np.dtype(self.dtype)
        self.alternating = True
        self.shapes = None  # the arrays are in the form's layout (the single-process solver's files)
        self.tree = tree = as_public_tree(game)
        self.game = tree
        self.iteration = 0
        self.nodes_touched = 0
        trunk_nodes, self.cut, roots = cut_at_chance(tree)
        self.roots = roots
        # the cut chance nodes are the trunk's leaves: their reach goes out, their value comes back
        self.trunk = Piece(tree, trunk_nodes, cut_leaves=self.cut)
        self.trunk_leaf_nodes = np.flatnonzero(self.trunk.kind == CUT)  # local ids, in cut order
        subs = subtree_nodes(tree, roots)
        self.assignment = deal([len(s) for s in subs], self.n_workers)
        below = np.searchsorted(self.cut, tree.parent[roots])  # the cut node above each subtree
        self.worker_cuts = [np.unique(below[ks]) for ks in self.assignment]
        # one walk per forest: a cut chance node over a run of this worker's subtrees below it, as
        # many as keep the walk's two per-node buffers within FOREST_BYTES (a core's L2 cache:
        # on the turn subgame, forests of 2 river subtrees cost 0.070 s of CPU per worker and
        # iteration, forests of 48 (32 MB buffers) 0.084 s)
        cap = max(FOREST_BYTES // (16 * max(tree.n_hands)), 1)
        self.pieces, groups = [], []
        for w, ks in enumerate(self.assignment):
            forests, runs = [], []
            for k in ks:
                if runs and below[runs[-1][-1]] == below[k] and sum(len(subs[j]) for j in runs[-1]) + len(subs[k]) < cap:
                    runs[-1].append(k)
                else:
                    runs.append([k])
            for run in runs:
                nodes = np.concatenate([[self.cut[below[run[0]]]], *[subs[j] for j in run]])
                forests.append(Piece(tree, nodes, forest_roots=len(run)))
            self.pieces.append(forests)
            groups.append(np.array([below[run[0]] for run in runs], dtype=np.int64))
        self._leaf_count = tree.n_children[self.cut].astype(np.int64)  # roots are in cut order, then card order
        self._leaf_start = np.concatenate([[0], np.cumsum(self._leaf_count)[:-1]]).astype(np.int64)
        self.regrets = [np.zeros(self.trunk.size[q], dtype=dt) for q in (0, 1)]
        self.average = [np.zeros(self.trunk.size[q], dtype=dt) for q in (0, 1)]
        width = max(tree.n_hands)
        m = len(self.trunk.kind)
        # the trunk's per-node buffers, ranges and scratch: the sums' dtype for the updates, float64
        # for the evaluations (as in the single-process solver)
        self._work = {np.dtype(d): (np.zeros((m, width), dtype=d), np.zeros((m, width), dtype=d),
                                    np.zeros((m, width), dtype=d), np.zeros(52, dtype=d),
                                    tuple(np.asarray(r, dtype=d) for r in tree.ranges), np.zeros(0, dtype=d))
                      for d in {dt, np.dtype(np.float64)}}
        self._targs = tree.terminals.kernel_args()
        self._own_dir = None
        if self.checkpoint_dir is None:
            self._own_dir = tempfile.TemporaryDirectory(prefix="zerosum-ray-")
            self.checkpoint_dir = self._own_dir.name
        os.makedirs(self.checkpoint_dir, exist_ok=True)
        actor = ray.remote(num_cpus=1, max_restarts=self.max_restarts, max_task_retries=0)(SubtreeWorker)
        self._setup = [(ray.put(self.pieces[w]), groups[w], ray.put(self._targs), str(dt))
                       for w in range(self.n_workers)]
        self.actors = [actor.remote(w, tree.n_hands, self.checkpoint_dir) for w in range(self.n_workers)]
        try:  # an actor that cannot be placed (too few CPUs, a node gone) is an error, not a hang
            ray.get([a.setup.remote(*self._setup[w]) for w, a in enumerate(self.actors)], timeout=START_WAIT_S)
        except ray.exceptions.GetTimeoutError:
            self.close()
            raise ZerosumError(f"{self.n_workers} Ray workers did not start within {START_WAIT_S:g} s; "
                               f"does the cluster have {self.n_workers} free CPUs?") from None
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
        t = self.trunk
        src = self.regrets if source == "regrets" else self.average
        t0 = time.perf_counter()
        dt = np.dtype(self.dtype) if mode == kernels.UPDATE else np.dtype(np.float64)
        opp_buf, own_buf, val_buf, cs, ranges, empty = self._work[dt]
        rp, ro = ranges[p], ranges[1 - p]
        n_p, n_o = len(rp), len(ro)
        opp, own = opp_buf[:, :n_o], own_buf[:, :n_p]
        trunk_down(t.kind, t.player, t.first_child, t.n_children, t.offset, p, rp, ro, src[p], src[1 - p], mode,
                   self.average[p] if mode == kernels.UPDATE else empty, float(weight), opp, own)
        leaves = self.trunk_leaf_nodes
        own_r, opp_r = own[leaves], opp[leaves]
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
        pre, pos, neg, floor = rule
        value = trunk_up(t.kind, t.player, t.first_child, t.n_children, t.board, t.stake, t.offset, t.leaf,
                         *self._targs, p, rp, src[p], mode, float(pre), float(pos), float(neg), bool(floor), opp,
                         val_buf[:, :n_p], root_val, self._leaf_start, self._leaf_count, cs)
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
        self.begin_iteration()
        w = self.average_weight()
        for p in (0, 1):
            self._pass(p, kernels.UPDATE, w, self.regret_rule(), "regrets")
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
        return {"value": float(value), "best_response_values": [float(br0), float(br1)],
                "nash_conv": max(float(br0 + br1), 0.0)}

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
        from ..public_tree.policy import PublicPolicy

        return PublicPolicy.from_sums(self.tree, self.gather()[1])

    def current_policy(self):
        """The current strategy (regret matching) of the whole tree."""
        from ..public_tree.policy import PublicPolicy

        return PublicPolicy.from_sums(self.tree, self.gather()[0])

    def nbytes(self) -> int:
        """The driver's share: trunk arrays and its per-node vectors."""
        return sum(a.nbytes for a in self.regrets + self.average) + \
            sum(sum(b.nbytes for b in bufs[:4]) for bufs in self._work.values())

    def stats(self) -> dict:
        """The JSON's distributed fields (workers, bytes per iteration, seconds per worker, ...)."""
        its = max(self.passes, 1) / 2
        return {"workers": self.n_workers, "bytes_per_iteration": self.bytes_total / its if self.passes else 0,
                "compute_s": list(self.compute_s), "cpu_s": list(self.cpu_s), "driver_s": self.driver_s, "restarts": self.restarts,
                "subtrees": [len(ks) for ks in self.assignment],
                "cut_nodes": [len(c) for c in self.worker_cuts], "trunk_nodes": len(self.trunk.kind)}

    # --- saving and resuming: the single-process solver's state file ------------------------------
    def state_dict(self) -> dict:
        regrets, average = self.gather()
        state = super().state_dict()  # the variant's fields (parameters) and the trunk's arrays ...
        for p in (0, 1):  # ... replaced by the whole tree's, so either form of the run can resume it
            state[f"regrets{p}"] = regrets[p]
            state[f"average{p}"] = average[p]
        return state

    def load_state_dict(self, state: dict) -> None:
        """Loads a single-process (or split) state file: the variant's and the core's checks run on
        whole-tree arrays, which are then scattered to the trunk and the workers."""
        ia = self.tree.infoset_actions()
        trunk = self.regrets, self.average
        self.regrets = [np.zeros(n, dtype=self.dtype) for n in ia]
        self.average = [np.zeros(n, dtype=self.dtype) for n in ia]
        try:
            super().load_state_dict(state)
            whole = self.regrets, self.average
        finally:
            self.regrets, self.average = trunk
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
    """A public-tree solver of variant ``name`` with its subtrees on ``workers`` Ray actors (Ray
    must be started: :func:`zerosum.distributed.ray_runtime.start`); ``dtype`` of the sums
    (float32 halves the memory and the reach and value vectors sent, as in one process);
    ``compiled_graph=False`` sends each pass as plain actor calls (same results, slower)."""
    if name not in VARIANTS or name == "pcs-mccfr":
        raise ZerosumError(f"{name} does not run split over Ray; use one of cfr, cfr+, lcfr, dcfr")
    if workers < 1:
        raise ZerosumError(f"--workers must be at least 1, got {workers}")
    if dtype not in ("float64", "float32"):
        raise ZerosumError(f"dtype must be float64 or float32, got {dtype!r}")
    variant = VARIANTS[name]
    bases = (SplitDriver,) if variant is None else (variant, SplitDriver)
    cls = type(f"Split{'' if variant is None else variant.__name__}", bases,
               {"n_workers": workers, "checkpoint_every": max(int(checkpoint_every), 1),
                "checkpoint_dir": checkpoint_dir, "dtype": dtype, "use_compiled_graph": bool(compiled_graph)})
    return cls(game, **options)
