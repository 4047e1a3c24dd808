"""Policies saved as solution files (``.zsp``, :mod:`.solution_file`): written from any public-tree
policy (:func:`save_policy`), read back as a :class:`SavedPolicy` whose tables are inflated one
block at a time (:func:`open_solution`).

The public tree's :class:`~zerosum.public_tree.policy.PublicPolicy` writes JSON only: a solution
file records values that :mod:`.analysis` computes, and the public tree never imports this package.
"""

from __future__ import annotations

import numpy as np

from ..errors import ZerosumError
from ..public_tree.form import DECISION, PublicTree
from ..public_tree.policy import SOLUTION_SUFFIX, PublicPolicy


def save_policy(policy, path, encoding: str | None = None) -> None:
    """Write ``policy`` at ``path``: a public-tree policy as a solution file where the path ends in
    ``.zsp`` or an ``encoding`` is given ("uint16", the default, or "float32"; the file is known by
    its first bytes, whatever its name); anything else through the policy's own ``save`` (JSON)."""
    if isinstance(policy, PublicPolicy) and (encoding is not None or str(path).lower().endswith(SOLUTION_SUFFIX)):
        from .solution_file import write_solution

        write_solution(policy, path, encoding=encoding or "uint16")
        return
    policy.save(path)


class SavedPolicy(PublicPolicy):
    """A policy read from a solution file (:mod:`.solution_file`): :meth:`table` inflates only the
    block holding that node (blocks are kept once read); ``probs`` reads them all, the first time
    it is asked for.  ``evaluation``: what the file records of this policy (or None)."""

    def __init__(self, tree: PublicTree, reader):
        self.tree = tree
        self.reader = reader
        self.evaluation = reader.header.get("evaluation")
        self._blocks: dict = {}
        self._probs = None
        self._recorded = None

    def recorded_values(self, node: int) -> list[np.ndarray] | None:
        """Both players' counterfactual values at ``node`` as the file records them (the root and
        its children: :func:`~zerosum.solutions.solution_file.record_values`, what
        :func:`~zerosum.solutions.analysis.node_values` computes there), or None."""
        if self._recorded is None:
            self._recorded = self.reader.recorded_values(self.tree.n_hands)
        found = self._recorded.get(int(node))
        return None if found is None else [v.copy() for v in found]

    def _block(self, p: int, k: int) -> np.ndarray:
        found = self._blocks.get((p, k))
        if found is None:
            from .solution_file import decode

            found = self._blocks[(p, k)] = decode(self.reader.block(p, k))
        return found

    @property
    def probs(self) -> list[np.ndarray]:
        """Both players' flat probabilities, every block read (once; each block's copy dropped)."""
        if self._probs is None:
            out = [np.empty(n) for n in self.tree.infoset_actions()]
            for p in (0, 1):
                for k, first in enumerate(self.reader.firsts[p]):
                    b = self._block(p, k)
                    out[p][first:first + len(b)] = b
                    self._blocks.pop((p, k))  # one copy
            self._probs = out
        return self._probs

    def table(self, node: int) -> np.ndarray:
        if self._probs is not None:
            return super().table(node)
        t = self.tree
        p = int(t.player[node])
        if t.kind[node] != DECISION:
            raise ZerosumError(f"node {node} is not a decision node")
        k = int(np.searchsorted(self.reader.starts[p], node, side="right")) - 1
        n, na = t.n_hands[p], int(t.n_children[node])
        o = int(t.offset[node]) - self.reader.firsts[p][k]
        return self._block(p, k)[o:o + na * n].reshape(na, n)


def open_solution(path, tree: PublicTree | None = None, game=None) -> SavedPolicy:
    """The policy saved at ``path`` (a solution file, :mod:`.solution_file`) on ``tree`` (checked
    against it), its blocks read on demand.  Without ``tree``: on the tree stored in the file
    where it is ``game``'s (no build: what ``evaluate --node`` reads), else on ``game``'s public
    tree, built."""
    from .solution_file import SolutionReader

    reader = SolutionReader(path)
    if tree is None:
        if reader.header["game"] != game.id:
            raise ZerosumError(f"{reader.source} was made for {reader.header['game']!r}, not {game.id!r}")
        tree = reader.stored_tree(game.id)
        if tree is None:
            from ..public_tree.compile import public_tree

            tree = public_tree(game)
    reader.check_tree(tree)
    return SavedPolicy(tree, reader)
