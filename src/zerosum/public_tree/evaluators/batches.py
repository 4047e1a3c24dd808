"""The terminal batches: a river's terminals (the showdowns and folds below one decision node of
a hold'em tree) evaluated together, eight showdowns or four folds at once, by the vector loops of
:mod:`zerosum.public_tree.simd`, with the figures of one terminal at a time.

May import: numpy, numba, :mod:`zerosum.public_tree.form`, :mod:`zerosum.public_tree.rows`,
:mod:`zerosum.public_tree.simd`, :mod:`.` (the dispatch).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..form import CHANCE_NODE, DECISION, FOLD
from ..rows import row_reach, row_totals
from ..simd import fold_values4, hand_values, lane_prefix, lane_sums4
from .dense import rake_at
from .dispatch import site, terminal


def batch_plan(kind, parent, first_child, n_children, board, cap):
    """The :class:`~zerosum.public_tree.arrays.TerminalBatches` of a tree (its five arrays): a batch
    per decision node with no chance node below it whose parent is a chance node (or the root of
    a tree with no deal), of at most ``cap`` nodes whose showdowns are all on one board.  The
    arrays are made here at their largest (the batches are disjoint subtrees: their nodes number
    at most the tree's), filled by :func:`_batch_plan`, then cut to size."""
    nn = len(kind)
    root, local = np.full(nn, -1, dtype=np.int32), np.full(nn, -1, dtype=np.int32)
    start, node, first = np.zeros(nn + 1, dtype=np.int32), np.zeros(nn, dtype=np.int32), np.full(nn, -1, dtype=np.int32)
    below, size = np.zeros(nn, dtype=np.bool_), np.zeros(nn, dtype=np.int64)
    r = _batch_plan(kind, parent, first_child, n_children, board, cap, (root, local, start, node, first, below, size))
    return root, start[:r + 1].copy(), node[:start[r]].copy(), first[:start[r]].copy(), local


#: allocation-free (``_nrt=False``): see :func:`zerosum.poker.strength._board_strengths_kernel`
@njit(cache=True, error_model="numpy", _nrt=False)
def _batch_plan(kind, parent, first_child, n_children, board, cap, out):
    """:func:`batch_plan` into ``out`` = (root, local, start, node, first: its arrays at their
    largest, root and local -1, first -1; below, size: scratch, zeros); returns the batches kept."""
    root, local, start, node, first, below, size = out
    nn = len(kind)
    for n in range(nn - 1, -1, -1):  # a chance node at or below n (children after parents)
        if kind[n] == CHANCE_NODE:
            below[n] = True
        if below[n] and n > 0:
            below[parent[n]] = True
    for n in range(nn - 1, -1, -1):
        size[n] += 1
        if n > 0:
            size[parent[n]] += size[n]
    tops = 0
    for n in range(nn):
        if kind[n] == DECISION and not below[n] and size[n] <= cap and (n == 0 or kind[parent[n]] == CHANCE_NODE):
            root[n] = tops
            tops += 1
    r = 0
    for n in range(nn):
        if root[n] < 0:
            continue
        s0 = start[r]
        m = _batch_nodes(n, s0, kind, first_child, n_children, board, node, first)
        if m < 0:  # showdowns on several boards: evaluated one by one, as elsewhere
            root[n] = -1
            m = -m
            for j in range(m):
                first[s0 + j] = -1
            start[r + 1] = s0
            continue
        for j in range(m):
            local[node[s0 + j]] = j
        start[r + 1] = s0 + m
        r += 1
    r = 0  # renumber the batches kept
    for n in range(nn):
        if root[n] >= 0:
            root[n] = r
            r += 1
    return r


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def _batch_nodes(n, s0, kind, first_child, n_children, board, node, first):
    """Batch n's nodes breadth first into ``node[s0:]`` (``first``: each decision node's first
    child, local); returns their number, negated where its showdowns are on several boards."""
    node[s0] = n
    m = 1
    i = 0
    sd_board = -1
    mixed = False
    while i < m:
        q = node[s0 + i]
        if kind[q] == DECISION:
            first[s0 + i] = m
            for a in range(n_children[q]):
                node[s0 + m] = first_child[q] + a
                m += 1
        elif kind[q] != FOLD:
            if sd_board >= 0 and board[q] != sd_board:
                mixed = True
            sd_board = board[q]
        i += 1
    return -m if mixed else m


@njit(cache=True, error_model="numpy")
def batch_terminals(tree, term, p, r, src_o, n_o, cs, sc):
    """The values of every terminal of batch r for player p (row ``local`` of ``sc.b_val``), from
    the opponent's reach at its top (``sc.b_reach[0]``; ``sc`` the pass's
    :class:`~zerosum.public_tree.arrays.DepthScratch`): the opponent's reach at each node first, as
    the depth-first pass computes it (:func:`_batch_reach`: the same operations, so the same
    figures), then the folds no showdown shares its reach with, four at a time
    (:func:`_fold_lanes`: the opponent's folds; one left alone by :func:`terminal`), then the
    showdowns eight at a time (:func:`_showdown_lanes`), which read each hand's eight indices
    once for eight terminals, with the folds from a showdown's sums where p's fold and call meet
    the same reach (:func:`_fold_from_sums`: p facing a bet).  The pass then enters the batch's
    nodes without computing the opponent's reach there."""
    ns, nu = _batch_reach(tree, p, r, src_o, n_o, sc)
    nb = len(sc.b_row)
    s0 = sc.batches.start[r]
    pad = sc.batches.start[r + 1] - s0  # padding lanes write rows pad .. pad + 7
    lanes, node = sc.b_lanes, sc.batches.node
    u = 0
    while u < nu:  # the folds left four at a time where they share a board, else one by one
        q = node[s0 + lanes[nb + u]]
        fb = tree.board[q]
        k = 1
        while u + k < nu and k < 4 and tree.board[node[s0 + lanes[nb + u + k]]] == fb:
            k += 1
        if k == 1:
            i = lanes[nb + u]
            terminal(site(i, sc.b_row[i], p, tree.player[q], True, tree.stake[q], fb), sc.b_reach, sc.b_val, term, cs)
        else:
            for j in range(4):  # the lanes' scales, as terminal's (a raked fold pays its winner st - R)
                qj = node[s0 + lanes[nb + u + min(j, k - 1)]]
                st = tree.stake[qj]
                sc.b_sums[0, 4 + j] = (-st if tree.player[qj] == p else st - rake_at(term.rake, st)) * term.const[fb]
            _fold_lanes(fb, p, sc, term, nb + u, k, pad)
        u += k
    for c0 in range(0, ns, 8):
        _showdowns(tree, term, p, r, sc, c0, ns)


@njit(cache=True, inline="always", error_model="numpy")
def _batch_reach(tree, p, r, src_o, n_o, sc):
    """The opponent's reach at each node of batch r (``sc.b_reach``, a row per node where the
    opponent acts above it, ``sc.b_row`` each node's row), and the batch's terminals in
    ``sc.b_lanes``: its showdowns, the folds left after those sharing a showdown's reach and board
    (each kept per showdown in the third part, -1 for none).  Returns (showdowns, folds left)."""
    batches, row, lanes, reach = sc.batches, sc.b_row, sc.b_lanes, sc.b_reach
    s0, s1 = batches.start[r], batches.start[r + 1]
    nb = len(row)
    row[0] = 0
    free = 1
    ns = 0
    nf = 0
    for i in range(s1 - s0):
        q = batches.node[s0 + i]
        k = tree.kind[q]
        if k == DECISION:
            f = batches.first[s0 + i]
            na = tree.n_children[q]
            if tree.player[q] != p:
                o = tree.offset[q]
                for a in range(na):
                    row_totals(sc.b_tot, src_o[o + a * n_o:o + (a + 1) * n_o], n_o, a == 0)
                for a in range(na):
                    row[f + a] = free
                    row_reach(reach[free], reach[row[i]], src_o[o + a * n_o:o + (a + 1) * n_o], sc.b_tot, n_o,
                              1.0 / na)
                    free += 1
            else:
                for a in range(na):
                    row[f + a] = row[i]
        elif k == FOLD:
            lanes[nb + nf] = i
            nf += 1
        else:
            lanes[ns] = i
            ns += 1
    b = tree.board[batches.node[s0 + lanes[0]]] if ns > 0 else -1
    for j in range(ns):
        lanes[2 * nb + j] = -1
    nu = 0  # the folds left (the opponent's, mostly), kept in lanes[nb:nb + nu]
    for m in range(nf):  # a fold sharing a showdown's reach (and board) is read from its sums
        i = lanes[nb + m]
        q = batches.node[s0 + i]
        attached = False
        for j in range(ns):
            if row[lanes[j]] == row[i] and lanes[2 * nb + j] < 0 and tree.board[q] == b:
                lanes[2 * nb + j] = i
                attached = True
                break
        if not attached:
            lanes[nb + nu] = i
            nu += 1
    return ns, nu


@njit(cache=True, inline="always", error_model="numpy")
def _showdowns(tree, term, p, r, sc, c0, ns):
    """Showdowns ``c0`` .. ``c0 + 7`` of batch r (:func:`_showdown_lanes`), their scales first
    (row 0 of ``sc.b_sums``: the card sums' rows, unused by a showdown), then for each a raked
    showdown's unsigned part and the fold sharing its reach, from the lane's sums."""
    nb, s0, lanes, node = len(sc.b_row), sc.batches.start[r], sc.b_lanes, sc.batches.node
    b = tree.board[node[s0 + lanes[0]]]
    c = term.const[b]
    for k in range(8):
        st = tree.stake[node[s0 + lanes[min(c0 + k, ns - 1)]]]
        sc.b_sums[0, k] = (st - 0.5 * rake_at(term.rake, st)) * c  # (raked: see dense.rake_at)
    _showdown_lanes(b, p, sc, term, c0, ns, sc.batches.start[r + 1] - s0)
    for k in range(min(8, ns - c0)):
        i = lanes[c0 + k]
        q = node[s0 + i]
        rk = rake_at(term.rake, tree.stake[q])
        if rk != 0.0:  # a raked showdown: less R / 2 times the unsigned sum, from the lane's sums
            _fold_from_sums(site(i, sc.b_row[i], p, -1, False, 0.0, b), k, -0.5 * rk * c, sc, term, True)
        f = lanes[2 * nb + c0 + k]
        if f >= 0:
            q = node[s0 + f]
            st = tree.stake[q]
            _fold_from_sums(site(f, sc.b_row[f], p, tree.player[q], True, st, b), k,
                            (-st if tree.player[q] == p else st - rake_at(term.rake, st)) * c, sc, term, False)


@njit(cache=True, inline="always", error_model="numpy")
def _fold_from_sums(s, k, scale, sc, term, add):
    """A fold's values (terminal ``s``: row ``s.row`` of ``sc.b_val``, its reach row ``s.orow`` of
    ``sc.b_reach``) from lane k of a showdown's sums on the same reach: the total is the prefix's
    end, a card's sum the end of its prefix (``pidx`` columns 4 and 7), each added in
    :func:`terminal`'s order, so the same figures as its fold sweep (the same hand's reach through
    the windows, as there).  ``add``: added to the values (a raked showdown's unsigned part)
    instead."""
    b, p, sums, x, y = s.board, s.p, sc.b_sums, sc.b_reach[s.orow], sc.b_val[s.row]
    window, qorder, qstart, pidx = term.window, term.qorder, term.qstart, term.pidx
    o = 1 - p
    total = sums[52 + qstart[2 * b + o + 1] - qstart[2 * b + o], k]
    shift, n_o = window[p, 0] - window[o, 0], window[o, 1]
    if not add:
        for i in range(window[p, 1]):
            y[i] = 0.0
    for g in range(qstart[2 * b + p], qstart[2 * b + p + 1]):
        h = qorder[g]
        t = shift + h
        same = x[t] if t >= 0 and t < n_o else 0.0
        v = scale * (total - sums[pidx[g, 4], k] - sums[pidx[g, 7], k] + same)
        y[h] = y[h] + v if add else v


@njit(cache=True, error_model="numpy")
def _fold_lanes(b, p, sc, term, l0, k, pad):
    """Up to four folds of one board at once (``lanes[l0:l0 + k]``; past k the last one again, into
    padding rows), their scales in ``sums[0, 4:8]``: :func:`terminal`'s fold, each lane's sums in
    its order (the total over the opponent's list, a card's sum over the hands holding it in the
    same order, from ``chand``), so the same figures, but with no stores in the sums' loops (the
    one-by-one fold adds each hand to two card sums in memory) and each index read once for the
    four.  The opponent's folds of a batch, which share no showdown's reach: limit turn Ks7d2c9h,
    three a river.  Its loops are LLVM loops of 4-vectors (:func:`~zerosum.public_tree.simd.lane_sums4`,
    :func:`~zerosum.public_tree.simd.fold_values4`), with the same figures as the scalar loops."""
    sums, reach, vals, row, lanes = sc.b_sums, sc.b_reach, sc.b_val, sc.b_row, sc.b_lanes
    width, qorder, qstart, cbase, chand = term.cards.shape[0], term.qorder, term.qstart, term.cbase, term.chand
    cards, window = term.cards, term.window
    o = 1 - p
    o0, o1 = qstart[2 * b + o], qstart[2 * b + o + 1]
    last = l0 + k - 1
    i0 = lanes[l0]
    i1 = lanes[min(l0 + 1, last)]
    i2 = lanes[min(l0 + 2, last)]
    i3 = lanes[min(l0 + 3, last)]
    q0, q1, q2, q3 = row[i0], row[i1], row[i2], row[i3]
    w0 = i0
    w1 = i1 if k > 1 else pad + 1
    w2 = i2 if k > 2 else pad + 2
    w3 = i3 if k > 3 else pad + 3
    y0, y1, y2, y3 = vals[w0], vals[w1], vals[w2], vals[w3]
    for i in range(width):
        y0[i] = 0.0
        y1[i] = 0.0
        y2[i] = 0.0
        y3[i] = 0.0
    e0 = 2 * o0
    for cc in range(52):  # card cc's sums in rows 1 + cc, columns 0-3
        f0 = cbase[b, o, cc]
        lane_sums4(sums, 1 + cc, reach, q0, q1, q2, q3, chand, e0 + f0 - cc, cbase[b, o, cc + 1] - 1 - f0)
    lane_sums4(sums, 0, reach, q0, q1, q2, q3, qorder, o0, o1 - o0)  # the totals, beside the scales
    fold_values4(sums, cards, qorder, qstart[2 * b + p], qstart[2 * b + p + 1], reach, q0, q1, q2, q3, vals,
                  w0, w1, w2, w3, window[p, 0], window[p, 0] - window[o, 0], window[o, 1])


@njit(cache=True, error_model="numpy")
def _showdown_lanes(b, p, sc, term, c0, ns, pad):
    """Eight showdowns of one board at once (lanes ``c0`` .. ``c0 + 7`` of ``lanes``; past ``ns`` the
    last one again, into padding rows): :func:`_showdown_prefix`'s sums and reads, each lane's in
    the same order (so the same figures), eight lanes a row of ``sums`` (float64 [., 8]; row 0
    holds the lanes' scales until the first prefix row is written).  The prefix loops and the
    values loop are each one LLVM loop of 8-vectors (:func:`~zerosum.public_tree.simd.lane_prefix`, :func:`~zerosum.public_tree.simd.hand_values`),
    with the same figures as one showdown at a time, in about half its time."""
    sums, reach, vals, row, lanes = sc.b_sums, sc.b_reach, sc.b_val, sc.b_row, sc.b_lanes
    width, qorder, qstart, pidx, cbase, chand = term.cards.shape[0], term.qorder, term.qstart, term.pidx, \
        term.cbase, term.chand
    o = 1 - p
    o0, o1 = qstart[2 * b + o], qstart[2 * b + o + 1]
    pt = 52
    pc = 52 + width + 1
    last = ns - 1
    i0 = lanes[min(c0, last)]
    i1 = lanes[min(c0 + 1, last)]
    i2 = lanes[min(c0 + 2, last)]
    i3 = lanes[min(c0 + 3, last)]
    i4 = lanes[min(c0 + 4, last)]
    i5 = lanes[min(c0 + 5, last)]
    i6 = lanes[min(c0 + 6, last)]
    i7 = lanes[min(c0 + 7, last)]
    y0 = vals[i0]
    y1 = vals[i1] if c0 + 1 <= last else vals[pad + 1]
    y2 = vals[i2] if c0 + 2 <= last else vals[pad + 2]
    y3 = vals[i3] if c0 + 3 <= last else vals[pad + 3]
    y4 = vals[i4] if c0 + 4 <= last else vals[pad + 4]
    y5 = vals[i5] if c0 + 5 <= last else vals[pad + 5]
    y6 = vals[i6] if c0 + 6 <= last else vals[pad + 6]
    y7 = vals[i7] if c0 + 7 <= last else vals[pad + 7]
    for i in range(width):
        y0[i] = 0.0
        y1[i] = 0.0
        y2[i] = 0.0
        y3[i] = 0.0
        y4[i] = 0.0
        y5[i] = 0.0
        y6[i] = 0.0
        y7[i] = 0.0
    # the opponent's reach in strength order, and per card over the hands holding it
    q0, q1, q2, q3 = row[i0], row[i1], row[i2], row[i3]
    q4, q5, q6, q7 = row[i4], row[i5], row[i6], row[i7]
    lane_prefix(sums, pt, reach, q0, q1, q2, q3, q4, q5, q6, q7, qorder, o0, o1 - o0)
    e0 = 2 * o0
    for cc in range(52):
        f0 = cbase[b, o, cc]
        f1 = cbase[b, o, cc + 1] - 1
        lane_prefix(sums, pc + f0, reach, q0, q1, q2, q3, q4, q5, q6, q7, chand, e0 + f0 - cc, f1 - f0)
    yr = lanes[len(lanes) - 8:]  # the eight lanes' rows of vals (the last 8 entries of lanes)
    yr[0] = i0
    yr[1] = i1 if c0 + 1 <= last else pad + 1
    yr[2] = i2 if c0 + 2 <= last else pad + 2
    yr[3] = i3 if c0 + 3 <= last else pad + 3
    yr[4] = i4 if c0 + 4 <= last else pad + 4
    yr[5] = i5 if c0 + 5 <= last else pad + 5
    yr[6] = i6 if c0 + 6 <= last else pad + 6
    yr[7] = i7 if c0 + 7 <= last else pad + 7
    tt = sums[1]  # the lanes' totals (row 1, as the scales' row 0: card-sum rows no showdown reads)
    te = sums[pt + o1 - o0]  # (the end of the prefix over the opponent's list)
    for k in range(8):
        tt[k] = te[k]
    hand_values(sums, pidx, qorder, qstart[2 * b + p], qstart[2 * b + p + 1], tt, sums[0], vals, yr)
