"""The simplest traversal of the public tree, in NumPy, as the oracle the one depth-first pass
(:func:`zerosum.public_tree.kernels.dfs_from`) is checked against.

A vector per public node, the nodes in their array order (parents first) for the reach and in
reverse for the values, each terminal from the dense matrices of its board
(:class:`zerosum.public_tree.terminals.DenseTerminals`: the chance probability of each deal and
its showdown sign), so nothing is shared with the kernels but the tree's arrays.  Slow (Python
loops over nodes): for the tests' small trees.
"""

from __future__ import annotations

import numpy as np

from zerosum.public_tree.form import CHANCE_NODE, DECISION, FOLD

UPDATE, BEST_RESPONSE, EXPECT = 0, 1, 2


def dense_terminals(tree, game=None):
    """The dense matrices of ``tree``'s terminals: its own (dense), the sweep's as dense, or the
    poker family's rebuilt without the O(ranks) form (``game`` needed)."""
    from zerosum.public_tree.terminals import DENSE, SWEEP

    if tree.terminals.kind == DENSE:
        return tree.terminals
    if tree.terminals.kind == SWEEP:
        return tree.terminals.dense()
    from zerosum.public_tree.build import poker_public_tree

    return poker_public_tree(game, rank_form=False).terminals


def strategy(src, offset, na, n):
    """Regret matching of a node's block ``src[offset:offset + na * n]`` ([action x hand]): the
    positive parts normalized per hand, uniform where none is positive."""
    block = np.asarray(src[offset:offset + na * n], dtype=np.float64).reshape(na, n)
    pos = np.maximum(block, 0.0)
    total = pos.sum(axis=0)
    return np.where(total > 0, pos / np.where(total > 0, total, 1.0), 1.0 / na)


def terminal_values(tree, dense, n, p, reach_o):
    """p's values at terminal n against the opponent's reach ``reach_o``."""
    b, stake, folder = tree.board[n], tree.stake[n], tree.player[n]
    fold = tree.kind[n] == FOLD
    m = dense.weight[b] if fold else dense.signed[b]  # [player 0's hands x player 1's]
    if fold:
        sign = -1.0 if folder == p else 1.0
    else:
        sign = 1.0 if p == 0 else -1.0
    return sign * stake * (m @ reach_o if p == 0 else m.T @ reach_o)


def regret_update(r, instant, rule):
    pre, pos, neg, floor = rule
    r = r * pre + instant
    r = np.where(r >= 0.0, r * pos, r * neg)
    return np.maximum(r, 0.0) if floor else r


def oracle_pass(tree, dense, p, src_p, src_o, mode, avg=None, weight=1.0, rule=(1.0, 1.0, 1.0, False),
                sample=None):
    """One pass of player p, as the kernels' ``walk``: updates ``src_p`` (regrets) and ``avg`` in
    place in UPDATE mode.  Returns (p's expected payoff, the value vector of every node [nodes x
    p's hands], the nodes visited).  ``sample``: per chance node the child walked (public chance
    sampling: the values below it weighted by its number of children)."""
    kind, player, first, count, offset = tree.kind, tree.player, tree.first_child, tree.n_children, tree.offset
    n_p, n_o = tree.n_hands[p], tree.n_hands[1 - p]
    nodes = tree.n_nodes
    opp, own = np.zeros((nodes, n_o)), np.zeros((nodes, n_p))
    weight_of = np.ones(nodes)  # the sampling weight of a node's subtree
    active = np.zeros(nodes, dtype=bool)
    opp[0], own[0], active[0] = tree.ranges[1 - p], tree.ranges[p], True
    strategies = {}
    for n in range(nodes):  # parents first: reach down
        if not active[n] or kind[n] >= FOLD:
            continue
        c0, na = first[n], count[n]
        if kind[n] == CHANCE_NODE:
            kids = [c0 + sample[n]] if sample is not None else range(c0, c0 + na)
            for c in kids:
                opp[c], own[c], active[c] = opp[n], own[n], True
                weight_of[c] = weight_of[n] * (na if sample is not None else 1)
            continue
        q = player[n]
        s = strategy(src_p if q == p else src_o, offset[n], na, n_p if q == p else n_o)
        strategies[n] = s
        for a in range(na):
            c = c0 + a
            active[c], weight_of[c] = True, weight_of[n]
            if q == p:
                opp[c], own[c] = opp[n], own[n] * s[a]
                if mode == UPDATE:
                    o = offset[n] + a * n_p
                    avg[o:o + n_p] += weight * weight_of[n] * own[n] * s[a]
            else:
                opp[c], own[c] = opp[n] * s[a], own[n]
    val = np.zeros((nodes, n_p))
    for n in range(nodes - 1, -1, -1):  # children first: values up
        if not active[n]:
            continue
        c0, na = first[n], count[n]
        if kind[n] >= FOLD:
            val[n] = terminal_values(tree, dense, n, p, opp[n]) * weight_of[n]
        elif kind[n] != DECISION or player[n] != p:
            val[n] = sum(val[c] for c in range(c0, c0 + na) if active[c])
        else:
            s, cfv = strategies[n], val[c0:c0 + na]
            val[n] = cfv.max(axis=0) if mode == BEST_RESPONSE else (s * cfv).sum(axis=0)
            if mode == UPDATE:
                for a in range(na):
                    o = offset[n] + a * n_p
                    src_p[o:o + n_p] = regret_update(src_p[o:o + n_p], cfv[a] - val[n], rule)
    return float(tree.ranges[p] @ val[0]), val, int(active.sum())
