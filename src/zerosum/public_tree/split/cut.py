"""Where the public tree is cut (its first layer of public chance nodes), the pieces that result
(the trunk and the forests of subtrees, each with local node arrays) and the deal of subtrees to
workers by size."""

from __future__ import annotations

import numpy as np

from ...errors import ZerosumError
from ..arrays import TreeArrays, tree_arrays
from ..form import CHANCE_NODE, DECISION, PublicTree

#: kind of a trunk leaf that stands for a subtree (its value comes from a worker)
CUT = 4


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

    def arrays(self) -> TreeArrays:
        """The node arrays as the core's kernels take them; the trunk's CUT leaves as chance nodes
        with no children, which the depth-first pass's cut stops at (their ``leaf`` is the slot)."""
        kind = np.where(self.kind == CUT, CHANCE_NODE, self.kind)
        return tree_arrays(kind, self.player, self.first_child, self.n_children, self.board, self.stake,
                           self.offset)

    def depth(self) -> int:
        """The most edges from node 0 down to a node (the depth-first pass's vectors per depth)."""
        depth = np.zeros(len(self.kind), dtype=np.int64)
        for n in range(len(self.kind)):  # parents first: a node's depth is known before its children's
            if self.n_children[n] > 0:
                c = self.first_child[n]
                depth[c:c + self.n_children[n]] = depth[n] + 1
        return int(depth.max(initial=0))

    def max_actions(self) -> int:
        """The most actions of a decision node (the depth-first pass's per-action vectors)."""
        return int(self.n_children[self.kind == DECISION].max(initial=1))


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
