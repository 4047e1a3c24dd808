"""The driver's part of a split pass: the trunk top-down (reach vectors, the average at p's
nodes) and bottom-up from the subtrees' root values (regret updates at p's nodes), from the
per-node pass's shared pieces (:mod:`zerosum.public_tree.kernels`), so the figures are the
single-process pass's."""

from __future__ import annotations

import numpy as np
from numba import njit

from .. import kernels
from ..form import CHANCE_NODE, DECISION, FOLD
from .cut import CUT


@njit(cache=True)
def trunk_down(tree, p, range_p, range_o, src_p, src_o, mode, avg_p, avg_weight, opp, own):
    """Top-down over the trunk (``tree``, its :class:`~zerosum.public_tree.arrays.TreeArrays`):
    reach vectors per node (opp, own), the average at p's nodes in mode 0 (the core's
    :func:`~zerosum.public_tree.kernels.reach_down` and
    :func:`~zerosum.public_tree.kernels.own_reach_down`)."""
    kind, player, first_child, n_children, offset = tree.kind, tree.player, tree.first_child, tree.n_children, tree.offset
    n_p, n_o = len(range_p), len(range_o)
    kernels.root_reach(opp, range_o)
    kernels.root_reach(own, range_p)
    tot = np.empty(max(n_p, n_o))
    uni = np.empty(max(n_p, n_o))
    avg = avg_p if mode == 0 else avg_p[:0]
    for n in range(len(kind)):
        k = kind[n]
        if k >= FOLD:
            continue
        c0, na = first_child[n], n_children[n]
        if k == DECISION and player[n] != p:
            kernels.reach_down(opp, n, c0, na, n_o, src_o, offset[n], tot, uni)
        else:
            kernels.copy_down(opp, n, c0, na, n_o)
        if k == DECISION and player[n] == p:
            kernels.own_reach_down(own, n, c0, na, n_p, src_p, offset[n], tot, uni, avg, avg_weight, avg[:0])
        else:
            kernels.copy_down(own, n, c0, na, n_p)


@njit(cache=True)
def trunk_up(tree, leaf, term, p, range_p, src_p, mode, pre, pos, neg, floor, opp, val, root_val, leaf_start, leaf_count,
             cs):
    """Bottom-up over the trunk from the subtrees' root values (a CUT node, cut chance node
    ``leaf[n]``, sums ``root_val[leaf_start[c] + k]`` over its cards k in order, as the
    single-process pass sums children); regret updates at p's nodes in mode 0: the core's upward
    pieces (:func:`~zerosum.public_tree.kernels.leaf_values`, ``sum_rows``, ``max_children``,
    ``expect_children``, ``regret_updates``).  Returns sum_i range_p(i) * value_root(i)."""
    kind, player, first_child, n_children, offset = tree.kind, tree.player, tree.first_child, tree.n_children, tree.offset
    rule = (pre, pos, neg, floor)
    n_p = len(range_p)
    tot = np.empty(n_p)
    uni = np.empty(n_p)
    for n in range(len(kind) - 1, -1, -1):
        k = kind[n]
        if k == CUT:
            kernels.sum_rows(val, n, root_val, leaf_start[leaf[n]], leaf_count[leaf[n]], n_p)
            continue
        if k >= FOLD:
            kernels.leaf_values(tree, term, n, p, opp, n, val, n, opp, False, cs)
            continue
        c0, na = first_child[n], n_children[n]
        if k == CHANCE_NODE or player[n] != p:
            kernels.sum_rows(val, n, val, c0, na, n_p)
        elif mode == 1:
            kernels.max_children(val, n, c0, na, n_p)
        else:
            kernels.expect_children(val, n, c0, na, n_p, src_p, offset[n], tot, uni)
            if mode == 0:
                kernels.regret_updates(src_p, offset[n], val, c0, val, n, na, n_p, rule)
    return kernels.root_value(range_p, val, 0)
