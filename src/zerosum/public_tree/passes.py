"""What one pass over the public tree needs besides the solver's arrays, and the Python side of
each call into the kernels: :class:`Workspace` (the depth-first pass of
:mod:`zerosum.public_tree.kernels`) and :func:`nash_conv_public` (exact NashConv of strategies
read from regrets or sums).  Solvers hold a workspace; tests and benchmarks make one.

May import: numpy, the form (:mod:`.form`, :mod:`.terminals`), the kernels and
their argument groups (:mod:`.arrays`).
"""

from __future__ import annotations

import numpy as np

from . import kernels
from .arrays import (
    NO_BATCHES,
    Cut,
    CutTasks,
    DepthScratch,
    Step,
    Sums,
    TerminalBatches,
    batch_rows,
    batch_scratch,
    card_scratch,
    card_scratch_len,
    depth_scratch,
    pass_step,
    tree_arrays,
)
from .evaluators.batches import batch_plan
from .evaluators.runouts import NO_MATRICES, NO_RUNOUTS, runout_plan
from .form import CHANCE_NODE, DECISION, PublicTree
from .terminals import SWEEP

#: the most nodes of a terminal batch (see :func:`terminal_batches`): the limit turn subgame's
#: rivers have 25, a no-limit river a few hundred; a batch's scratch is two rows a node per thread
BATCH_NODES = 256


def terminal_batches(tree: PublicTree) -> TerminalBatches:
    """The depth-first pass's terminal batches (:func:`~zerosum.public_tree.evaluators.batches.batch_plan`):
    hold'em trees whose sweep keeps each player's hand list (the showdown by prefix sums), none
    otherwise.  A batch is the terminals below one river deal (limit turn subgame Ks7d2c9h: 336
    batches of 25 nodes, 7 showdowns and 6 folds each), so its showdowns run eight at a time
    (:func:`~zerosum.public_tree.evaluators.batches._showdown_lanes`), p's folds come from the showdowns' sums
    and the opponent's four at a time (:func:`~zerosum.public_tree.evaluators.batches._fold_lanes`), with the
    same figures bit for bit as one terminal at a time."""
    term = tree.terminals.kernel_args()
    if term.evaluator != SWEEP or len(term.qorder) == 0:
        return NO_BATCHES
    return TerminalBatches(*batch_plan(tree.kind, tree.parent, tree.first_child, tree.n_children, tree.board,
                                               BATCH_NODES))


def below_chance(tree: PublicTree) -> np.ndarray:
    """Per node: whether a chance node is above it, by pointer jumping (each step ORs in the flags
    of twice as many ancestors: log2(depth) vector steps, 6 ms on TexasSolver's flop, 629,798
    nodes, where a loop over nodes in Python would hold up a threaded solve's first pass)."""
    anc = tree.parent.astype(np.int64)
    anc[0] = 0
    flag = np.zeros(tree.n_nodes, dtype=bool)
    flag[1:] = tree.kind[anc[1:]] == CHANCE_NODE  # the parent is a chance node
    while anc.any():
        flag |= flag[anc]
        anc = anc[anc]
    return flag


class Workspace:
    """What the one depth-first pass (:func:`~zerosum.public_tree.kernels.dfs_from`) needs besides
    the solver's arrays: its vectors per depth (O(depth x hands)), the terminal batches, and in
    ``threads`` threads (where the tree has a chance node and nothing is sampled) the cut
    (:meth:`_walk_cut`).  ``like``: a workspace of the same tree whose plans this one shares (the
    terminal batches, the threads' cut nodes: the same in any dtype), as a float32 solver's
    float64 check does: one copy of each, not two.  ``runouts``: the all-in runout nodes as one
    product each (:mod:`~zerosum.public_tree.evaluators.runouts`; False: their showdowns one at a
    time, as the tests' reference)."""

    def __init__(self, tree: PublicTree, dtype, threads: int = 1, like: Workspace | None = None,
                 runouts: bool = True):
        width = tree.width
        self.threads = max(int(threads), 1)
        self._cut = None
        self._pool = None  # the other threads' pool, made on the first threaded pass
        self.has_chance = bool((tree.kind == CHANCE_NODE).any())  # (a river spot has no deal: one thread)
        self.max_depth = max_depth(tree.parent)
        # the depth-first pass's per-action value vectors are for p's decision nodes only (a chance
        # node adds its children's values as they finish), so they are sized by the decision nodes'
        # most actions, not by a chance node's children (the limit turn: 3 actions, not 48 deals)
        self.max_actions = int(tree.n_children[tree.kind == DECISION].max(initial=1))
        self.width = width
        self.dtype = np.dtype(dtype)
        self.cs = card_scratch(width)
        self.tree = tree
        #: the all-in runout nodes' plan (:func:`~zerosum.public_tree.evaluators.runouts.runout_plan`),
        #: shared with the workspaces made ``like`` this one
        self.runouts = (like.runouts if like is not None else runout_plan(tree, tree.terminals)) \
            if runouts and tree.terminals.kind == SWEEP else (NO_RUNOUTS, NO_MATRICES, NO_MATRICES)
        index, signed, weight = self.runouts
        term = tree.terminals.kernel_args()
        if len(index):
            term = term._replace(signed=signed, weight=weight if len(weight) else NO_MATRICES)
        arrays = tree_arrays(tree.kind, tree.player, tree.first_child, tree.n_children, tree.board, tree.stake,
                             tree.offset, tree.iso)
        self.args = (arrays._replace(runout=index) if len(index) else arrays, term)
        self.ranges = tuple(np.asarray(r, dtype=dtype) for r in tree.ranges)
        self.empty = np.zeros(0, dtype=dtype)
        self.no_sample = np.zeros(0, dtype=np.int64)
        self.no_cut = np.zeros((0, 2, width), dtype=dtype)
        #: the whole tree from the root, no cut (the types the threads' cut passes: one compiled pass)
        self.whole = Cut(0, 0, self.no_sample, self.no_cut, self.no_cut)
        self.no_scales = np.zeros((0, 0), dtype=np.float32)  # the sums are floats (no 16-bit storage)
        self.visited = 0
        #: the node visits of the last pass below an all-zero opponent reach (pruned: ``walk(prune=True)``)
        self.pruned = 0
        self._like, self._slots = like, None
        self.batches = terminal_batches(tree) if like is None else like.batches

    def nbytes(self) -> int:
        """Working memory of a pass: per depth (per thread, and the cut nodes' vectors, where
        threads run)."""
        per_depth = (4 + self.max_actions) * self.width * self.dtype.itemsize
        cut = sum(a.nbytes for a in (self._cut[1].cut_reach, self._cut[1].child_val, self._cut[1].cut_val)) \
            if self._cut else 0
        rows = batch_rows(self.batches)  # a thread's batch scratch (batch_scratch), the plan once
        batch = (2 * rows * self.width + self.width) * self.dtype.itemsize + 32 * rows + 64 + 64 * card_scratch_len(
            self.width) if rows else 0
        plan = sum(a.nbytes for a in self.batches) + sum(a.nbytes for a in self.runouts)
        return ((self.max_depth + 1) * per_depth + batch) * (self.threads if self._cut else 1) + cut + plan

    def _cut_plan(self, predict: bool):
        """The threads' split (made once per ``predict``): the cut nodes are the chance nodes with
        no chance node above them (the turn's or river's deals), a task per child, one for the
        node itself where it is an all-in runout (one product: :func:`~zerosum.public_tree.kernels.cut_thread`
        enters it); with their reach, their children's values and a depth-first scratch per thread."""
        key = bool(predict)
        if self._cut is not None and self._cut[0] == key:
            return self._cut
        tree = self.tree
        cut, slot = self._cut_nodes()
        runout = self.runouts[0][cut, 0] >= 0 if len(self.runouts[0]) else np.zeros(len(cut), dtype=bool)
        counts = np.where(runout, 1, tree.n_children[cut])
        task_slot = np.repeat(np.arange(len(cut), dtype=np.int64), counts)
        task_node = (np.repeat(np.where(runout, cut, tree.first_child[cut]), counts) +
                     np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)).astype(np.int64)
        rows = 2 if predict else 1
        w, dt, t = self.width, self.dtype, self.threads
        d = self.max_depth + 1
        pd = d if predict else 1
        # the small per-thread rows padded to 128 entries (1 KiB in float64), so no two threads write one
        # cache line: unpadded, the card sums of thread 0 and 1 shared a line (52 floats a row)
        pad = d + 128
        scratch = DepthScratch(*(np.zeros((t, d, w), dtype=dt) for _ in range(4)),
                               np.zeros((t, d, self.max_actions, w), dtype=dt), np.ones((t, pad)),
                               np.zeros((t, pd, w), dtype=dt), np.zeros((t, pd, self.max_actions, w), dtype=dt),
                               np.zeros((t, pad), dtype=np.int64), np.zeros((t, pad), dtype=np.int64), self.batches,
                               *batch_scratch(self.batches, w, dt, threads=t))
        # the threads' queue (kernels.cut_thread): the tasks taken, then their order, in the tree's
        # order until the first pass has counted each task's nodes (``work``)
        queue = np.concatenate([[0], np.arange(len(task_node))]).astype(np.int64)
        self._queue_sorted = False
        work = np.zeros(len(task_node), dtype=np.int64)
        slot_task = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
        tasks = CutTasks(slot, task_node, task_slot, np.zeros((len(cut), 2, w), dtype=dt),
                         np.zeros((len(task_node), rows, w), dtype=dt), np.zeros((len(cut), 2, w), dtype=dt), queue,
                         work, slot_task, np.zeros(len(cut), dtype=np.int64))
        self._cut = (key, tasks, scratch, np.zeros((t, card_scratch_len(w) + 128)), np.zeros((t, 2), dtype=np.int64))
        return self._cut

    def _cut_nodes(self) -> tuple[np.ndarray, np.ndarray]:
        """The threads' cut nodes (the chance nodes with no chance node above them) and each
        node's slot among them (int64 per node, -1 elsewhere), made once and shared with the
        workspaces made ``like`` this one (they are the tree's, whatever the dtype)."""
        if self._like is not None:
            return self._like._cut_nodes()
        if self._slots is None:
            tree = self.tree
            cut = np.flatnonzero((tree.kind == CHANCE_NODE) & ~below_chance(tree))
            slot = np.full(tree.n_nodes, -1, dtype=np.int64)
            slot[cut] = np.arange(len(cut))
            self._slots = (cut, slot)
        return self._slots

    def _walk_cut(self, step: Step, sums: Sums) -> float:
        """The depth-first pass in ``threads`` threads: the trunk down to the cut nodes (one
        thread), their subtrees (:func:`~zerosum.public_tree.kernels.cut_thread`, one call per
        thread, in parallel), the trunk up from their values (one thread); the figures are the
        one-thread pass's, bit for bit (see :func:`~zerosum.public_tree.kernels.dfs_from`).
        The trunk of the turn subgame Ks7d2c9h is 21 of its 7,077 nodes (7 of them cut nodes, 336
        subtrees), so nearly all the work is in the threads."""
        _, tasks, scratch, cs, visited = self._cut_plan(step.predict)
        depth = self.depth[1]
        tree, term = self.args
        kernels.dfs_from(tree, term, step, sums, depth, self.cs,
                         Cut(0, 1, tasks.slot, tasks.cut_reach, tasks.cut_val))
        if self._pool is None:  # (threaded passes only: the river's one thread does not import it)
            from concurrent.futures import ThreadPoolExecutor

            self._pool = ThreadPoolExecutor(self.threads - 1, thread_name_prefix="zerosum-pass")
        tasks.queue[0] = 0
        np.subtract(tasks.slot_task[1:], tasks.slot_task[:-1], out=tasks.pending)  # each cut node's tasks to do
        args = (tree, term, step, sums, scratch, cs, tasks)
        others = [self._pool.submit(kernels.cut_thread, *args, t) for t in range(1, self.threads)]
        visited[0] = kernels.cut_thread(*args, 0)  # this thread is thread 0 (visits, pruned visits)
        for t, f in enumerate(others, 1):
            visited[t] = f.result()
        if not self._queue_sorted:  # after the first pass, the largest tasks first (every pass enters
            # the same nodes: no sampling here), so the last a thread takes is a small one; the order
            # changes which thread runs a task, no figure
            tasks.queue[1:] = np.argsort(-tasks.work, kind="stable")
            self._queue_sorted = True
        value, v2, z2 = kernels.dfs_from(tree, term, step, sums, depth, self.cs,
                                         Cut(0, 2, tasks.slot, tasks.cut_reach, tasks.cut_val))
        self.visited = int(v2 + visited[:, 0].sum())  # a cut node's entry counted once, as in one pass
        self.pruned = int(z2 + visited[:, 1].sum())
        return value

    def walk(self, st: Step, src_p, src_o, avg_p=None, regrets_p=None, scales=None, sample=None) -> float:
        """One pass of player ``st.p`` (:func:`~zerosum.public_tree.arrays.pass_step`: the mode,
        kernels.UPDATE, BEST_RESPONSE or EXPECT, the average's weight, the regret rule, a predictive
        variant's prediction), its strategy read from ``src_p``, the opponent's from ``src_o``;
        ``avg_p``: p's average sums (UPDATE); ``regrets_p``: p's regrets where they are not
        ``src_p`` (a predictive variant); ``scales``: the updating player's node scales where its
        sums are 16-bit (float32 [2, nodes], depth-first pass only; see
        :func:`~zerosum.public_tree.kernels.dfs_from`); ``sample``: the public chance draws
        (PCS-MCCFR).  Returns p's expected payoff."""
        p = st.p
        sums = Sums(self.ranges[p], self.ranges[1 - p], src_p, src_o, self.empty if avg_p is None else avg_p,
                    src_p if regrets_p is None else regrets_p, self.no_scales if scales is None else scales,
                    self.no_sample if sample is None else sample)
        key = bool(st.predict)
        if getattr(self, "depth", (None, None))[0] is not key:  # the vectors per depth, made once
            self.depth = (key, depth_scratch(self.max_depth, self.max_actions, self.width, self.dtype, key,
                                             self.batches))
        if self.threads > 1 and not len(sums.sample) and self.has_chance:
            return self._walk_cut(st, sums)
        value, self.visited, self.pruned = kernels.dfs_from(*self.args, st, sums, self.depth[1], self.cs, self.whole)
        return value


def max_depth(parent: np.ndarray) -> int:
    """The depth of the deepest node of a tree whose parents precede their children (``parent[0]``
    = -1).  Laid out breadth first, as the builders lay trees out (the parents in non-decreasing
    order), the last node is among the deepest: its path to the root; otherwise level by level.
    NumPy, not a kernel: loading one from Numba's cache took 22 ms of every solve's start."""
    n = len(parent)
    if n <= 1:
        return 0
    if bool(np.all(parent[2:] >= parent[1:-1])):
        d, v = 0, n - 1
        while v > 0:
            v, d = int(parent[v]), d + 1
        return d
    depth = np.zeros(n, dtype=np.int64)
    up = np.maximum(np.asarray(parent, dtype=np.int64), 0)
    while True:
        new = depth[up] + 1
        new[0] = 0
        if np.array_equal(new, depth):
            return int(depth.max())
        depth = new


def nash_conv_public(tree: PublicTree, src, workspace: Workspace | None = None, value: bool = True,
                     known: dict | None = None) -> dict:
    """Best-response values of both players against the strategies read from ``src`` (regrets or
    average sums, normalized per hand), the profile's value, and NashConv: three passes (two on
    the depth-first pass with ``value=False``: the value is then None).

    In a raked game (general-sum: the players' values sum to minus the expected rake) NashConv is
    the sum of each player's gain from its best response, ``br0 - v0 + br1 - v1``, zero exactly at
    an equilibrium, as postflop-solver reports it; that takes both players' values (four passes),
    and ``values`` holds them ([v0, -v0] otherwise).

    ``known``: this function's result for the same strategies with ``value=False`` (a lighter
    check at the same iteration): its best responses are taken, not walked again."""
    ws = workspace or Workspace(tree, np.float64)
    if known is not None and (known.get("values") is not None or value):
        if known.get("values") is not None:  # (a raked game's: its light check walked every pass)
            return known
        br0, br1 = known["best_response_values"]
        v = ws.walk(pass_step(0, kernels.EXPECT), src[0], src[1])
        return {**known, "value": float(v), "values": [float(v), -float(v)]}
    br1 = ws.walk(pass_step(1, kernels.BEST_RESPONSE), src[1], src[0])
    br0 = ws.walk(pass_step(0, kernels.BEST_RESPONSE), src[0], src[1])
    if is_raked(tree):
        v0 = ws.walk(pass_step(0, kernels.EXPECT), src[0], src[1])
        v1 = ws.walk(pass_step(1, kernels.EXPECT), src[1], src[0])
        return {"value": float(v0), "values": [float(v0), float(v1)], "best_response_values": [float(br0), float(br1)],
                "nash_conv": max(float(br0 - v0 + br1 - v1), 0.0)}
    value = ws.walk(pass_step(0, kernels.EXPECT), src[0], src[1]) if value else None
    return {"value": None if value is None else float(value),
            "values": None if value is None else [float(value), -float(value)],
            "best_response_values": [float(br0), float(br1)], "nash_conv": max(float(br0 + br1), 0.0)}


def is_raked(tree: PublicTree) -> bool:
    """Whether the tree's terminals take a rake (the game is then general-sum)."""
    rake = getattr(tree.terminals, "rake", None)
    return bool(rake is not None and rake[0])
