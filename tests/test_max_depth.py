"""The pass's depth (``passes.max_depth``): the deepest node's depth whether the tree is laid out
breadth first (the builders' order: its last node's path) or in any other order with parents before
children (level by level), against a plain walk up from every node."""

from __future__ import annotations

import numpy as np

from zerosum.poker.holdem import HoldemGame
from zerosum.public_tree.compile import public_tree
from zerosum.public_tree.passes import max_depth


def walked(parent) -> int:
    best = 0
    for v in range(len(parent)):
        d = 0
        while parent[v] >= 0:
            v, d = parent[v], d + 1
        best = max(best, d)
    return best


def depth_first(parent) -> np.ndarray:
    """The same tree renumbered depth first (parents still before children)."""
    children = [[] for _ in parent]
    for v in range(1, len(parent)):
        children[parent[v]].append(v)
    order, stack = [], [0]
    while stack:
        v = stack.pop()
        order.append(v)
        stack.extend(reversed(children[v]))
    new = np.empty(len(parent), dtype=np.int64)
    new[order] = np.arange(len(parent))
    out = np.full(len(parent), -1, dtype=np.int64)
    for v in range(1, len(parent)):
        out[new[v]] = new[parent[v]]
    return out


def test_the_depth_in_either_order():
    tree = public_tree(HoldemGame(board="Ks7d2c9h", range0="AA,KK,T9s", range1="QQ,AK", raises=1))
    parent = np.asarray(tree.parent)
    assert bool(np.all(parent[2:] >= parent[1:-1]))  # (the builder's breadth-first order)
    want = walked(parent)
    assert want > 3 and max_depth(parent) == want
    dfs = depth_first(parent)
    assert not bool(np.all(dfs[2:] >= dfs[1:-1])) and max_depth(dfs) == want == walked(dfs)
    assert max_depth(np.array([-1])) == 0 and max_depth(np.array([-1, 0, 0, 1])) == 2
