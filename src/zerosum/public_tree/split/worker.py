"""A Ray actor that holds some subtrees' regrets and average sums and runs the one depth-first
pass on each of them (:func:`zerosum.public_tree.kernels.dfs_from` from the subtree's root, its
reach given): the threads' tasks, in another process.  It writes and reloads its own checkpoints."""

from __future__ import annotations

import os
import time

import numpy as np

from .. import kernels
from ..arrays import NO_BATCHES, Cut, Sums, TerminalArrays, TreeArrays, card_scratch, depth_scratch, pass_step


def _writable(arrays: TreeArrays) -> TreeArrays:
    """``arrays`` with every read-only member copied (the types of a one-process solve)."""
    return TreeArrays(*(np.array(a) if isinstance(a, np.ndarray) and not a.flags.writeable else a for a in arrays))


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
        self.pieces = pieces
        self.groups = np.asarray(groups, dtype=np.int64)
        # writable copies (Ray hands out read-only arrays): the pass then has the types of a
        # one-process solve, so it loads the same compiled pass from Numba's cache
        self.targs = TerminalArrays(*(np.array(a) if isinstance(a, np.ndarray) else a for a in terminal_args))
        self.dtype = np.dtype(dtype)
        self.regrets = [[np.zeros(pc.size[q], dtype=self.dtype) for q in (0, 1)] for pc in pieces]
        self.average = [[np.zeros(pc.size[q], dtype=self.dtype) for q in (0, 1)] for pc in pieces]
        # the pieces' node arrays as well (a piece arrives read-only): a read-only array is another
        # Numba type, which made every worker compile its own pass (minutes on two cores)
        self.trees = [_writable(pc.arrays()) for pc in pieces]
        # (the sweep's scratch is laid out on its shared hand list, which may be longer than either's)
        width = max(*self.n_hands, terminal_args.cards.shape[0] if terminal_args.evaluator == 1 else 0)
        depth = max((pc.depth() for pc in pieces), default=1)
        actions = max((pc.max_actions() for pc in pieces), default=1)
        # vectors per depth of the sums' dtype for the updates, float64 for the evaluations (as the
        # single-process solver: float32 sums are read by float64 passes)
        self.scratch = {np.dtype(d): depth_scratch(depth, actions, width, d, False, NO_BATCHES)
                        for d in {self.dtype, np.dtype(np.float64)}}
        self.cs = card_scratch(width)
        self.empty_i = np.zeros(0, dtype=np.int64)
        self.no_cut = {d: np.zeros((0, 2, width), dtype=d) for d in self.scratch}
        self.no_scales = np.zeros((0, 0), dtype=np.float32)
        return True

    def nbytes(self) -> int:
        """This worker's memory for the solve: its subtrees' sums and its vectors per depth."""
        sums = sum(a.nbytes for pairs in (self.regrets, self.average) for pair in pairs for a in pair)
        return sums + sum(a.nbytes for sc in self.scratch.values() for a in sc if isinstance(a, np.ndarray))

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
        step = pass_step(p, mode, weight, rule)
        own_reach, opp_reach = np.array(own_reach), np.array(opp_reach)  # (writable, as in one process)
        n_p, n_o = self.n_hands[p], self.n_hands[1 - p]
        dt = own_reach.dtype
        scratch, no_cut = self.scratch[dt], self.no_cut[dt]
        out = np.empty((sum(pc.n_roots for pc in self.pieces), n_p), dtype=dt)
        row = 0
        src = self.regrets if source == "regrets" else self.average
        for k, pc in enumerate(self.pieces):
            avg = self.average[k][p] if mode == kernels.UPDATE else scratch.val[0, :0]
            own, opp = own_reach[self.groups[k]], opp_reach[self.groups[k]]
            sums = Sums(own, opp, src[k][p], src[k][1 - p], avg, src[k][p], self.no_scales, self.empty_i)
            for root in range(1, 1 + pc.n_roots):  # each subtree from its root, as a thread's task
                scratch.opp[0, :n_o] = opp
                scratch.own[0, :n_p] = own
                kernels.dfs_from(self.trees[k], self.targs, step, sums, scratch, self.cs,
                                 Cut(root, 0, self.empty_i, no_cut, no_cut))
                out[row] = scratch.val[0, :n_p]
                row += 1
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
