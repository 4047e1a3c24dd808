"""The driver's part of a split pass: the trunk top-down (reach vectors, the average at p's
nodes) and bottom-up from the subtrees' root values (regret updates at p's nodes)."""

from __future__ import annotations

import numpy as np
from numba import njit

from ...solvers.cfr import regret_update
from .. import kernels
from ..form import CHANCE_NODE, DECISION, FOLD
from .cut import CUT


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
