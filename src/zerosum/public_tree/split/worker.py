"""A Ray actor that holds some subtrees' regrets and average sums and runs the core's pass on
them; it writes and reloads its own checkpoints."""

from __future__ import annotations

import os
import time

import numpy as np

from .. import kernels
from ..arrays import Rule, node_scratch


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
        # (the sweep's scratch is laid out on its shared hand list, which may be longer than either's)
        width = max(*n_hands, terminal_args.cards.shape[0] if terminal_args.evaluator == 1 else 0)
        biggest = max((len(pc.kind) for pc in pieces), default=1)
        # per-node buffers of the sums' dtype for the updates, float64 for the evaluations (as the
        # single-process solver: float32 sums are read by float64 passes)
        entries = max((pc.size[q] for pc in pieces for q in (0, 1)), default=0)
        self.buffers = {np.dtype(d): (np.zeros((biggest, width), dtype=d), np.zeros((biggest, width), dtype=d),
                                      node_scratch(width, d, entries), np.zeros(0, dtype=d))
                        for d in {self.dtype, np.dtype(np.float64)}}
        self.empty_i = np.zeros(0, dtype=np.int64)
        self.empty_b = np.zeros(0, dtype=np.int8)
        self.empty_w = np.zeros(0)
        return True

    def nbytes(self) -> int:
        """This worker's memory for the solve: its subtrees' sums and its per-node buffers."""
        sums = sum(a.nbytes for pairs in (self.regrets, self.average) for pair in pairs for a in pair)
        return sums + sum(b.nbytes for bufs in self.buffers.values() for b in (*bufs[:2], *bufs[2], bufs[3]))

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
        rule = Rule(float(rule[0]), float(rule[1]), float(rule[2]), bool(rule[3]))
        n_p, n_o = self.n_hands[p], self.n_hands[1 - p]
        vals, owns, scratch, empty = self.buffers[own_reach.dtype]
        out = np.empty((sum(pc.n_roots for pc in self.pieces), n_p), dtype=own_reach.dtype)
        row = 0
        src = self.regrets if source == "regrets" else self.average
        for k, pc in enumerate(self.pieces):
            avg = self.average[k][p] if mode == kernels.UPDATE else empty
            m = len(pc.kind)
            val = vals[:m]
            g = self.groups[k]
            kernels.walk(pc.arrays(), self.targs, p, own_reach[g], opp_reach[g], src[k][p], src[k][1 - p], mode, avg,
                         float(weight), rule, val[:, :n_o], owns[:m, :n_p], val[:, :n_p], self.empty_i, self.empty_b,
                         self.empty_w, scratch)
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
