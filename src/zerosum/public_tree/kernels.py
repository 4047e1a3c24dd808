"""The one Numba pass over the public tree: reach vectors down, value vectors up, hands inside.

:func:`dfs_from` walks the tree depth first with vectors per depth (O(depth x hands) memory).  A
pass is for one player p (the one whose values are computed).  Top-down, every node gets the
opponent's reach vector (and, when updating, p's own reach); bottom-up, every node gets p's value
vector (counterfactual: chance and the opponent inside, p's own probabilities not).  ``mode``:

* UPDATE: at p's nodes, instantaneous regrets cfv(a) - v, the variant's regret rule
  (:func:`zerosum.solvers.rules.regret_update`, shared with the history tree) and the average
  strategy accumulated with p's own reach (once per information set, by construction);
* BEST_RESPONSE: the max over actions at p's nodes;
* EXPECT: the expectation under p's strategy ``src_p``.

A strategy is never stored (but a predictive variant's): at any node it is the positive part of
``src`` normalized over the actions, uniform where none is positive.  That is regret matching on
cumulative regrets and normalization on the average-strategy sums, so the same code reads either.
Returns sum_i range_p(i) * value_root(i), p's expected payoff.

What the pass also runs, each where it is asked for: public chance sampling (``sample``), the
predictive variants' bottom-up strategies (``predict``), 16-bit storage (``scales``: the updates
through :func:`_row_grown`, :func:`_row_decoded_regrets` and :func:`_encode_node`), suit
isomorphism's mirrors (:func:`_mirror_add`), the terminal batches (:func:`batch_terminals`) and the
cut (``cut``): :class:`zerosum.public_tree.passes.Workspace` runs a threaded pass in three calls,
the trunk down to the first chance nodes (``cut=1``), their subtrees in :func:`cut_thread` (one
call per Python thread, the GIL released, one depth-first scratch each), the trunk up from their
values (``cut=2``), with the same figures bit for bit (see :func:`dfs_from` and
:func:`cut_values`); the Ray split runs the same three parts with its workers for the threads
(:mod:`zerosum.public_tree.split`).  The tests check the pass against a plain per-node traversal
(``tests/pass_oracle.py``).  The poker family's shape pass (:mod:`zerosum.public_tree.shape_kernels`,
identical subtrees walked once) is the one other traversal.

Every call takes the tree as a :class:`~zerosum.public_tree.arrays.TreeArrays`, the evaluator's
data as a :class:`~zerosum.public_tree.arrays.TerminalArrays`, the variant's regret rule as a
:class:`~zerosum.public_tree.arrays.Rule` and its scratch from the caller
(:class:`~zerosum.public_tree.arrays.DepthScratch`), so it compiles without reference counting
(``_node_pass`` says why).  The shared pieces, written once here (the shape passes call them too):

* regret matching, :func:`match` (a sum of positive parts to (denominator, uniform part)),
  :func:`share` and :func:`matched` (one entry's probability), :func:`denominators` (a node's
  per hand): the shape passes' normalizations;
* terminals: :func:`leaf_values` (the poker family's :func:`rank_terminal` inlined, the other
  evaluators' :func:`terminal` called); the shape passes call :func:`terminal` per row and their
  own rank sweep over rows;
* the depth-first pass's loops over hands as the row helpers ``_row_*`` (regret matching, the
  average, the regret rule as selects on 1-D rows: vectorized, see there).

:func:`matched` is ``max(x, 0) / d + u`` with (d, u) = (t, 0) or (1, 1 / na), which equals
``(x / t if x > 0 else 0) if t > 0 else 1 / na`` bit for bit in float64 (for x > 0 the same
quotient plus an exact +0, for x <= 0 +0 either way, for t = 0 the same 1 / na).  The depth-first
pass writes regret matching in the select form (the row helpers ``_row_*``) because its totals
are of the solver's dtype, and in float32 its division must stay float32, which :func:`matched`
(float64 after ``max(x, 0.0)``) would not.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from .arrays import Cut, DepthScratch
from .form import CHANCE_NODE, DECISION, FOLD
from .simd import abs_max, fold_values4, hand_values, lane_prefix, lane_sums4

UPDATE, BEST_RESPONSE, EXPECT = 0, 1, 2

#: The shared pieces are inlined (``inline="always"``): called instead, each call passes the
#: tree's and the evaluator's named tuples, which costs the passes more than the shorter compile
#: saves (docs/public-tree.md, "History of the kernels' figures").
#: The depth-first pass: compiled without Numba's reference counting, as the shape passes
#: (``_nrt=False``; its scratch comes in a DepthScratch, so it allocates nothing), because each
#: shared piece inlined into the loop over nodes would otherwise count its array arguments up and
#: down at every node.
_node_pass = njit(cache=True, error_model="numpy", _nrt=False)


# --- regret matching ------------------------------------------------------------------------------

@njit(cache=True, inline="always", error_model="numpy")
def match(t, u1):
    """Regret matching's (denominator, uniform part) for a sum t of positive parts: (t, 0), or
    (1, 1 / na) where nothing is positive (u1 = 1 / na); the probability of an action is then
    :func:`share` of its positive part without a branch (a division, not a multiplication by
    1 / den: a pure strategy stays exactly 1, as on the history tree, so CFR+'s regrets stay
    exactly 0 where they are there)."""
    return (t, 0.0) if t > 0.0 else (1.0, u1)


@njit(cache=True, inline="always", error_model="numpy")
def share(positive, den, uni):
    """An action's probability from its positive part and the node's (:func:`match`) pair."""
    return positive / den + uni


@njit(cache=True, inline="always", error_model="numpy")
def matched(x, den, uni):
    """An action's probability from its regret (or average sum) x: :func:`share` of max(x, 0)
    (written out: an inlined piece inside another costs compile time at every call site)."""
    return max(x, 0.0) / den + uni


@njit(cache=True, inline="always", error_model="numpy")
def denominators(src, o, na, n, den, uni):
    """Per entry of a node's block (action a of entry i at ``src[o + a * n + i]``): (den, uni) =
    :func:`match` of the sum of the positive parts over the actions."""
    for i in range(n):
        den[i] = 0.0
    for a in range(na):
        base = o + a * n
        for i in range(n):
            den[i] += max(src[base + i], 0.0)
    u1 = 1.0 / na
    for i in range(n):
        d, u = match(den[i], u1)
        uni[i] = u
        den[i] = d


# --- the root's reach and value ------------------------------------------------------------------

@njit(cache=True, inline="always", error_model="numpy")
def root_reach(r, rng):
    """Row 0 of r = the range rng (the root's reach)."""
    for j in range(len(rng)):
        r[0, j] = rng[j]


# --- terminals ------------------------------------------------------------------------------------

@njit(cache=True, inline="always", error_model="numpy")
def leaf_values(tree, term, n, p, opp, orow, val, vn, row, copy, cs):
    """p's values at terminal node n into ``val[vn]`` from the opponent's reach ``opp[orow]``: the
    poker family's :func:`rank_terminal` inlined (it reads each hand's reach before writing its
    value, so opp may be val), the others' :func:`terminal` called on ``row``: a scratch row the
    reach is copied to first where ``copy`` (opp and val one buffer), else opp itself (each caller
    passes one array type, so :func:`terminal` compiles once for it)."""
    k = tree.kind[n]
    if term.evaluator == 2:
        rank_terminal(vn, orow, p, tree.player[n], k == FOLD, tree.stake[n], tree.board[n], opp, val,
                      term.cards[0, 0], term.const, term.order, term.start)
    else:
        r = orow
        if copy:
            for j in range(opp.shape[1]):
                row[0, j] = opp[orow, j]
            r = 0
        terminal(vn, r, p, tree.player[n], k == FOLD, tree.stake[n], tree.board[n], row, val, term, cs)


@njit(cache=True, inline="always", error_model="numpy")
def root_value(rng, val, row):
    """sum_i rng(i) * val[row, i]: a player's expected payoff from its root values."""
    out = 0.0
    for i in range(len(rng)):
        out += rng[i] * val[row, i]
    return out


@njit(cache=True, error_model="numpy")
def terminal(n, orow, p, folder, is_fold, st, b, opp, val, term, cs):
    """Values at one terminal by the dense or the sweep evaluator (``term``, the
    :class:`~zerosum.public_tree.arrays.TerminalArrays`; the poker family's O(ranks) rows,
    :func:`rank_terminal`, are inlined where they are used).  Called, not inlined: inlined at the
    passes' eight call sites it made most of their compile time (the shape pass compiled in 47 s
    cold, 14 s with the call), and a call costs nothing beside its O(hands) work."""
    evaluator, weight, signed, cards, const, order, start, strength = term[:8]
    if evaluator == 0:
        if p == 0:
            n0, n1 = weight.shape[1], weight.shape[2]
            m = weight[b] if is_fold else signed[b]
            scale = (-st if folder == 0 else st) if is_fold else st
            for i in range(n0):
                s = 0.0
                for j in range(n1):
                    s += m[i, j] * opp[orow, j]
                val[n, i] = scale * s
        else:
            n0, n1 = weight.shape[1], weight.shape[2]
            m = weight[b] if is_fold else signed[b]
            scale = (-st if folder == 1 else st) if is_fold else -st
            for j in range(n1):
                val[n, j] = 0.0
            for i in range(n0):
                r = opp[orow, i]
                if r != 0.0:
                    for j in range(n1):
                        val[n, j] += m[i, j] * r
            for j in range(n1):
                val[n, j] *= scale
        return
    if evaluator == 2:
        rank_terminal(n, orow, p, folder, is_fold, st, b, opp, val, cards[0, 0], const, order, start)
        return
    # sweep: both players share the hand list; its three running sums over order are written out
    # (an inlined helper with a step argument is slower), its range set up per group of tied hands.
    # The sweep is bound by its running sums (each hand adds to ``total`` and to two card sums that
    # the next hands read), not by its scattered reads
    # each player's vectors cover its window of the shared list (terminals.SweepTerminals.window):
    # p's hand i is the list's lp + i, the opponent's j its lo + j
    lp, n_p = term.window[p, 0], term.window[p, 1]
    lo, n_o = term.window[1 - p, 0], term.window[1 - p, 1]
    for i in range(n_p):
        val[n, i] = 0.0
    s0, s1 = start[b], start[b + 1]
    c = const[b]
    for k in range(52):
        cs[k] = 0.0
    lists = len(term.qorder) > 0  # each player's hands in its range only (showdown_prefix_arrays)
    if is_fold and lists:
        # the opponent's hands (in its range) add to the total and their two cards' sums; p's get
        # the total less the hands sharing a card (plus the same hand, taken off twice: the
        # opponent's entry lp - lo + i, where its window holds it)
        o0, o1 = term.qstart[2 * b + 1 - p], term.qstart[2 * b + 2 - p]
        hands = term.qorder
        total = 0.0
        for m in range(o0, o1):
            j = hands[m]
            r = opp[orow, j]
            if r != 0.0:  # skipped: deep in the tree most of the opponent's hands are out of reach (3 % of an
                # iteration of the limit turn Ks7d2c9h; there DCFR at 50 iterations has 84 % and 71 % of each
                # player's in-range hands at 0 at the terminals)
                total += r
                cs[cards[lo + j, 0]] += r
                cs[cards[lo + j, 1]] += r
        scale = (-st if folder == p else st) * c
        for m in range(term.qstart[2 * b + p], term.qstart[2 * b + p + 1]):
            i = hands[m]
            t = lp - lo + i
            same = opp[orow, t] if t >= 0 and t < n_o else 0.0
            val[n, i] = scale * (total - cs[cards[lp + i, 0]] - cs[cards[lp + i, 1]] + same)
        return
    scale = st * c
    if lists and not is_fold and len(cs) >= 52 + 3 * cards.shape[0] + 53:
        _showdown_prefix(n, orow, b, p, scale, opp, val, cards.shape[0], term.qorder, term.qstart, term.pidx,
                         term.cbase, term.chand, cs)
        return
    # the two running sweeps over the board's live hands (``order``, the shared list: each hand
    # read or written through its window), the evaluator before the per-player lists; with a
    # 52-entry scratch only (tests/test_showdown_prefix.py compares the two)
    if is_fold:
        total = 0.0
        for m in range(s0, s1):
            j = order[m] - lo
            if j >= 0 and j < n_o:
                r = opp[orow, j]
                total += r
                cs[cards[lo + j, 0]] += r
                cs[cards[lo + j, 1]] += r
        scale = (-st if folder == p else st) * c
        for m in range(s0, s1):
            i = order[m] - lp
            if i >= 0 and i < n_p:
                t = lp - lo + i
                same = opp[orow, t] if t >= 0 and t < n_o else 0.0
                val[n, i] = scale * (total - cs[cards[lp + i, 0]] - cs[cards[lp + i, 1]] + same)
        return
    # upward: wins against strictly weaker hands that share no card
    total = 0.0
    m = s0
    while m < s1:
        g = m
        while g < s1 and strength[g] == strength[m]:
            g += 1
        for k in range(m, g):
            i = order[k] - lp
            if i >= 0 and i < n_p:
                val[n, i] = total - cs[cards[lp + i, 0]] - cs[cards[lp + i, 1]]
        for k in range(m, g):
            j = order[k] - lo
            if j >= 0 and j < n_o:
                r = opp[orow, j]
                total += r
                cs[cards[lo + j, 0]] += r
                cs[cards[lo + j, 1]] += r
        m = g
    for k in range(52):
        cs[k] = 0.0
    total = 0.0
    m = s1 - 1
    while m >= s0:
        g = m
        while g >= s0 and strength[g] == strength[m]:
            g -= 1
        for k in range(m, g, -1):
            i = order[k] - lp
            if i >= 0 and i < n_p:
                val[n, i] = scale * (val[n, i] - (total - cs[cards[lp + i, 0]] - cs[cards[lp + i, 1]]))
        for k in range(m, g, -1):
            j = order[k] - lo
            if j >= 0 and j < n_o:
                r = opp[orow, j]
                total += r
                cs[cards[lo + j, 0]] += r
                cs[cards[lo + j, 1]] += r
        m = g


@njit(cache=True, error_model="numpy")
def _showdown_prefix(n, orow, b, p, scale, opp, val, width, qorder, qstart, pidx, cbase, chand, cs):
    """The sweep's showdown by prefix sums (:func:`~zerosum.public_tree.terminals.showdown_prefix_arrays`):
    the opponent's reach (its range's hands) summed once in strength order and once per card over
    the hands holding it (52 short sums the processor overlaps), then each of p's hands' values
    from eight reads, with no running sum carried from one hand to the next as the two sweeps did
    (a total and two card sums that each hand's successor reads)."""
    o = 1 - p
    o0, o1 = qstart[2 * b + o], qstart[2 * b + o + 1]
    pt = 52
    pc = 52 + width + 1
    acc = 0.0
    cs[pt] = 0.0
    for k in range(o1 - o0):
        acc += opp[orow, qorder[o0 + k]]
        cs[pt + 1 + k] = acc
    total = acc
    e0 = 2 * o0
    for cc in range(52):
        a0 = cbase[b, o, cc]
        a1 = cbase[b, o, cc + 1] - 1
        e = e0 + a0 - cc
        acc = 0.0
        cs[pc + a0] = 0.0
        for j in range(a1 - a0):
            acc += opp[orow, chand[e + j]]
            cs[pc + a0 + 1 + j] = acc
    for g in range(qstart[2 * b + p], qstart[2 * b + p + 1]):
        v = (cs[pidx[g, 0]] + cs[pidx[g, 1]] - total) - (cs[pidx[g, 2]] + cs[pidx[g, 3]] - cs[pidx[g, 4]]) \
            - (cs[pidx[g, 5]] + cs[pidx[g, 6]] - cs[pidx[g, 7]])
        val[n, qorder[g]] = scale * v


# --- terminal batches: a river's terminals evaluated together ----------------------------------

@njit(cache=True, error_model="numpy")
def batch_plan(kind, parent, first_child, n_children, board, cap):
    """The :class:`~zerosum.public_tree.arrays.TerminalBatches` of a tree (its five arrays): a batch
    per decision node with no chance node below it whose parent is a chance node (or the root of
    a tree with no deal), of at most ``cap`` nodes whose showdowns are all on one board."""
    nn = len(kind)
    below = np.zeros(nn, dtype=np.bool_)  # a chance node at or below n (children after parents)
    for n in range(nn - 1, -1, -1):
        if kind[n] == CHANCE_NODE:
            below[n] = True
        if below[n] and n > 0:
            below[parent[n]] = True
    size = np.zeros(nn, dtype=np.int64)
    for n in range(nn - 1, -1, -1):
        size[n] += 1
        if n > 0:
            size[parent[n]] += size[n]
    root = np.full(nn, -1, dtype=np.int32)
    local = np.full(nn, -1, dtype=np.int32)
    tops = 0
    total = 0
    for n in range(nn):
        if kind[n] == DECISION and not below[n] and size[n] <= cap and (n == 0 or kind[parent[n]] == CHANCE_NODE):
            root[n] = tops
            tops += 1
            total += size[n]
    start = np.zeros(tops + 1, dtype=np.int32)
    node = np.zeros(total, dtype=np.int32)
    first = np.full(total, -1, dtype=np.int32)
    r = 0
    for n in range(nn):
        if root[n] < 0:
            continue
        s0 = start[r]
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
        if mixed:  # showdowns on several boards: evaluated one by one, as elsewhere
            root[n] = -1
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
    return root, start[:r + 1].copy(), node[:start[r]].copy(), first[:start[r]].copy(), local


@njit(cache=True, error_model="numpy")
def batch_terminals(tree, term, p, r, src_o, n_o, cs, batches, reach, vals, sums, row, lanes, tot):
    """The values of every terminal of batch r for player p (row ``local`` of ``vals``), from the
    opponent's reach at its top (``reach[0]``): the opponent's reach at each node first, as the
    depth-first pass computes it (the same operations, so the same figures), then the showdowns
    eight at a time (:func:`_showdown_lanes`), which read each hand's eight indices once for eight
    terminals, and the folds: from a showdown's sums where p's fold and call meet the same reach
    (:func:`_fold_from_sums`: p facing a bet), else four at a time (:func:`_fold_lanes`: the
    opponent's folds; one left alone by :func:`terminal`).  The pass then enters the batch's nodes without computing the opponent's reach there.
    ``lanes``: the showdowns, the folds, and per showdown the fold sharing its reach (or -1)."""
    kind, player, n_children, offset = tree.kind, tree.player, tree.n_children, tree.offset
    s0, s1 = batches.start[r], batches.start[r + 1]
    nb = len(row)
    row[0] = 0
    free = 1
    ns = 0
    nf = 0
    for i in range(s1 - s0):
        q = batches.node[s0 + i]
        k = kind[q]
        if k == DECISION:
            f = batches.first[s0 + i]
            na = n_children[q]
            if player[q] != p:
                o = offset[q]
                for a in range(na):
                    _row_totals(tot, src_o[o + a * n_o:o + (a + 1) * n_o], n_o, a == 0)
                for a in range(na):
                    row[f + a] = free
                    _row_reach(reach[free], reach[row[i]], src_o[o + a * n_o:o + (a + 1) * n_o], tot, n_o, 1.0 / na)
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
    width = term.cards.shape[0]
    pad = s1 - s0  # padding lanes write rows pad .. pad + 7
    u = 0
    while u < nu:  # the folds left four at a time where they share a board, else one by one
        q = batches.node[s0 + lanes[nb + u]]
        fb = tree.board[q]
        k = 1
        while u + k < nu and k < 4 and tree.board[batches.node[s0 + lanes[nb + u + k]]] == fb:
            k += 1
        if k == 1:
            terminal(lanes[nb + u], row[lanes[nb + u]], p, player[q], True, tree.stake[q], fb, reach, vals, term, cs)
        else:
            for j in range(4):  # the lanes' scales, as terminal's
                qj = batches.node[s0 + lanes[nb + u + min(j, k - 1)]]
                st = tree.stake[qj]
                sums[0, 4 + j] = (-st if player[qj] == p else st) * term.const[fb]
            _fold_lanes(fb, p, sums, reach, vals, row, lanes, nb + u, k, pad, width, term.qorder, term.qstart,
                        term.cbase, term.chand, term.cards, term.window)
        u += k
    if ns == 0:
        return
    c = term.const[b]
    for c0 in range(0, ns, 8):
        for k in range(8):  # the lanes' scales (row 0 of sums: the card sums' rows, unused by a showdown)
            j = min(c0 + k, ns - 1)
            sums[0, k] = tree.stake[batches.node[s0 + lanes[j]]] * c
        _showdown_lanes(b, p, sums, reach, vals, row, lanes, c0, ns, pad, width, term.qorder, term.qstart, term.pidx,
                        term.cbase, term.chand)
        for k in range(min(8, ns - c0)):
            f = lanes[2 * nb + c0 + k]
            if f >= 0:
                q = batches.node[s0 + f]
                st = tree.stake[q]
                _fold_from_sums(b, p, k, (-st if player[q] == p else st) * c, sums, reach[row[f]], vals[f],
                                term.window, term.qorder, term.qstart, term.pidx)


@njit(cache=True, error_model="numpy")
def _fold_from_sums(b, p, k, scale, sums, x, y, window, qorder, qstart, pidx):
    """A fold's values from lane k of a showdown's sums on the same reach ``x``: the total is the
    prefix's end, a card's sum the end of its prefix (``pidx`` columns 4 and 7), each added in
    :func:`terminal`'s order, so the same figures as its fold sweep (the same hand's reach through
    the windows, as there)."""
    o = 1 - p
    total = sums[52 + qstart[2 * b + o + 1] - qstart[2 * b + o], k]
    shift, n_o = window[p, 0] - window[o, 0], window[o, 1]
    for i in range(window[p, 1]):
        y[i] = 0.0
    for g in range(qstart[2 * b + p], qstart[2 * b + p + 1]):
        h = qorder[g]
        t = shift + h
        same = x[t] if t >= 0 and t < n_o else 0.0
        y[h] = scale * (total - sums[pidx[g, 4], k] - sums[pidx[g, 7], k] + same)


@njit(cache=True, error_model="numpy")
def _fold_lanes(b, p, sums, reach, vals, row, lanes, l0, k, pad, width, qorder, qstart, cbase, chand, cards, window):
    """Up to four folds of one board at once (``lanes[l0:l0 + k]``; past k the last one again, into
    padding rows), their scales in ``sums[0, 4:8]``: :func:`terminal`'s fold, each lane's sums in
    its order (the total over the opponent's list, a card's sum over the hands holding it in the
    same order, from ``chand``), so the same figures, but with no stores in the sums' loops (the
    one-by-one fold adds each hand to two card sums in memory) and each index read once for the
    four.  The opponent's folds of a batch, which share no showdown's reach: limit turn Ks7d2c9h,
    three a river.  Its loops are LLVM loops of 4-vectors (:func:`~zerosum.public_tree.simd.lane_sums4`,
    :func:`~zerosum.public_tree.simd.fold_values4`), with the same figures as the scalar loops."""
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
def _showdown_lanes(b, p, sums, reach, vals, row, lanes, c0, ns, pad, width, qorder, qstart, pidx, cbase, chand):
    """Eight showdowns of one board at once (lanes ``c0`` .. ``c0 + 7`` of ``lanes``; past ``ns`` the
    last one again, into padding rows): :func:`_showdown_prefix`'s sums and reads, each lane's in
    the same order (so the same figures), eight lanes a row of ``sums`` (float64 [., 8]; row 0
    holds the lanes' scales until the first prefix row is written).  The prefix loops and the
    values loop are each one LLVM loop of 8-vectors (:func:`~zerosum.public_tree.simd.lane_prefix`, :func:`~zerosum.public_tree.simd.hand_values`),
    with the same figures as one showdown at a time, in about half its time."""
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


@njit(cache=True, inline="always", error_model="numpy")
def rank_terminal(n, orow, p, folder, is_fold, st, b, opp, val, k, const, order, board_rank):
    """RankTerminals (see terminals.py): O(ranks) per terminal; equal ranks split.

    Ranks are in showdown order except a rank pairing the public card, which is on top (the
    ``order`` the build checks against the rules), so the prefix sums run over the ranks directly.
    ``opp[orow]`` may be ``val[n]`` itself: each hand's reach is read before its value is written."""
    r = val.shape[1]
    total = 0.0
    for j in range(r):
        total += opp[orow, j]
    bb = board_rank[b]
    c = const[b]
    if is_fold:
        scale = (-st if folder == p else st) * c
        if bb < 0:
            kt = k * total
            for i in range(r):
                val[n, i] = scale * (kt - opp[orow, i])
            return
        ybb = opp[orow, bb]
        for i in range(r):
            y = opp[orow, i]
            a = k - (1 if i == bb else 0)
            v = k * a * total - k * ybb - a * y
            if i == bb:
                v += y
            val[n, i] = scale * v
        return
    # showdown, in strength order: the ranks upwards, the one pairing the public card (if any) last
    scale = st * c
    below = 0.0
    ybb = opp[orow, bb] if bb >= 0 else 0.0
    for i in range(r):
        if i == bb:
            continue
        y = opp[orow, i]
        above = total - below - y
        if bb < 0:
            val[n, i] = scale * k * (below - above)
        else:
            val[n, i] = scale * (k * k * (below - above) + k * ybb)
        below += y
    if bb >= 0:
        above = total - below - ybb
        val[n, bb] = scale * (k * (k - 1) * (below - above))


# --- the depth-first pass's loops over hands, on rows ----------------------------------------------
# Each loop of dfs_from over a node's hands is one of these, on 1-D rows (``opp[d]``, a slice of the
# sums) with a select instead of a branch: written on [depth, hand] indices with :func:`_strategy`
# per entry, LLVM keeps them scalar; a select over the same operations vectorizes, with the same
# figures bit for bit (the same operations per entry, in the same types: in float32 the quotient is
# float32, then widened, as in :func:`_strategy`).

@njit(cache=True, inline="always", error_model="numpy")
def _row_reach(dst, inp, blk, tt, n, u1):
    """dst = inp times the strategy's action whose sums are ``blk`` (totals ``tt``, 1 / na ``u1``)."""
    for j in range(n):
        x = blk[j]
        t = tt[j]
        q = x / t
        s = q if x > 0.0 else 0.0
        dst[j] = inp[j] * (s if t > 0.0 else u1)


@njit(cache=True, inline="always", error_model="numpy")
def _row_own(dst, inp, blk, tt, n, u1, avg, aw, wd):
    """:func:`_row_reach` of p's own reach, adding ``aw * reach * wd`` to the average sums ``avg``
    (reach unrounded: in float32 the product is float64 until stored)."""
    for i in range(n):
        x = blk[i]
        t = tt[i]
        q = x / t
        s = q if x > 0.0 else 0.0
        reach = inp[i] * (s if t > 0.0 else u1)
        dst[i] = reach
        avg[i] += aw * reach * wd


@njit(cache=True, inline="always", error_model="numpy")
def _row_mean(v, blk, tt, c, n, u1):
    """v += the strategy's action (sums ``blk``) times its values ``c``."""
    for i in range(n):
        x = blk[i]
        t = tt[i]
        q = x / t
        s = q if x > 0.0 else 0.0
        v[i] += (s if t > 0.0 else u1) * c[i]


@njit(cache=True, inline="always", error_model="numpy")
def _row_totals(tt, blk, n, first):
    """tt (= 0 where ``first``) += the positive parts of ``blk`` (+0 for the others: the same sums)."""
    for i in range(n):
        x = blk[i]
        y = x if x > 0.0 else 0.0  # noqa: FURB136 (as _totals: a NaN or -0.0 adds +0, max would not say)
        tt[i] = y if first else tt[i] + y


@njit(cache=True, inline="always", error_model="numpy")
def _row_regrets(r, c, v, n, pre, pos, neg, floor):
    """r = :func:`zerosum.solvers.rules.regret_update` of r and c - v, as selects: a factor of
    exactly 1.0 multiplies instead of being skipped (the same figure, NaN and -0.0 included)."""
    for i in range(n):
        x = r[i]
        y = x * pre if pre != 1.0 else x
        y = y + (c[i] - v[i])
        y = y * (pos if y >= 0.0 else neg)
        r[i] = 0.0 if (floor and y < 0.0) else y


@njit(cache=True, inline="always", error_model="numpy")
def _row_copy(dst, inp, n):
    for i in range(n):
        dst[i] = inp[i]


@njit(cache=True, inline="always", error_model="numpy")
def _row_add(dst, inp, n):
    for i in range(n):
        dst[i] += inp[i]


@njit(cache=True, inline="always", error_model="numpy")
def _row_zero(dst, n):
    for i in range(n):
        dst[i] = 0.0


@njit(cache=True, inline="always", error_model="numpy")
def _row_grown(dst, blk, scale, own, rblk, tt, n, u1, wd):
    """16-bit storage: dst = the decoded average sums ``blk * scale`` plus ``wd`` times p's own reach
    ``own`` times the strategy's action (regret sums ``rblk``, totals ``tt``)."""
    for i in range(n):
        x = rblk[i]
        t = tt[i]
        q = x / t
        s = q if x > 0.0 else 0.0
        dst[i] = blk[i] * scale + wd * (own[i] * (s if t > 0.0 else u1))


@njit(cache=True, inline="always", error_model="numpy")
def _row_decoded_regrets(dst, blk, scale, v, n, pre, pos, neg, floor):
    """16-bit storage: dst (the action's values c on entry) = the regret rule applied to the decoded
    regrets ``blk * scale`` and c - v, as :func:`_row_regrets`."""
    for i in range(n):
        x = blk[i] * scale
        y = x * pre if pre != 1.0 else x
        y = y + (dst[i] - v[i])
        y = y * (pos if y >= 0.0 else neg)
        dst[i] = 0.0 if (floor and y < 0.0) else y


@njit(cache=True, inline="always", error_model="numpy")
def _encode_node(codes, o, block, na, n, top):
    """Store a node's updated block (``block[a, i]``, float32) as integers in ``codes[o:o + na * n]``:
    the scale is the block's largest magnitude over ``top`` (32767 for the signed regrets, 65535
    for the average's sums), each entry its value over the scale rounded to the nearest integer
    (so it is off by at most half a scale).  Returns the scale (0 for an all-zero block)."""
    m = abs_max(block, na, n)
    if m == 0.0:
        for j in range(na * n):
            codes[o + j] = 0
        return 0.0
    scale = m / top
    inv = top / m
    for a in range(na):
        base = o + a * n
        for i in range(n):
            codes[base + i] = np.floor(block[a, i] * inv + 0.5)
    return scale


@njit(cache=True, inline="always", error_model="numpy")
def _strategy(src, o, na, n, a, i, tot, d):
    """The depth-first pass's regret matching, on totals of the solver's dtype (:func:`_row_totals`):
    the figures of :func:`matched` in float64; in float32 the division stays float32 here (as it
    always was on this pass), so the depth-first pass keeps this form of its own."""
    x = src[o + a * n + i]
    t = tot[d, i]
    return (x / t if x > 0.0 else 0.0) if t > 0.0 else 1.0 / na


@njit(cache=True, inline="always", error_model="numpy")
def _enter_cut_node(at, sc, d, j, n_p, n_o, predict):
    """A cut chance node (slot ``j``) entered: its reach out (``at.cut == 1``; its value 0 until
    the second half) or its value in (``at.cut == 2``); its subtrees are not entered."""
    if at.cut == 1:
        for i in range(n_o):
            at.cut_reach[j, 0, i] = sc.opp[d, i]
        for i in range(n_p):
            at.cut_reach[j, 1, i] = sc.own[d, i]
            sc.val[d, i] = 0.0
    else:
        for i in range(n_p):
            sc.val[d, i] = at.cut_val[j, 0, i]
    if predict > 0:
        for i in range(n_p):
            sc.pval[d, i] = at.cut_val[j, 1, i] if at.cut == 2 else 0.0


@njit(cache=True, inline="always", error_model="numpy")
def _enter_terminal(tree, term, p, sc, cs, d, n, batched_here, sampling, predict, n_p):
    """A terminal entered: its values from its batch (``batched_here``: evaluated with the batch,
    :func:`batch_terminals`) or from the evaluator, weighted by the sampling weight."""
    node = sc.node
    if batched_here:
        _row_copy(sc.val[d], sc.b_val[sc.batches.local[n]], n_p)
    else:
        # where the parent left the opponent's reach as it was (a chance node, p's node) the
        # terminal reads the parent's row: it was not copied down (see _descend)
        orow = d
        if d > 0 and (tree.kind[node[d - 1]] != DECISION or tree.player[node[d - 1]] == p):
            orow = d - 1
        leaf_values(tree, term, n, p, sc.opp, orow, sc.val, d, sc.opp, False, cs)
    if sampling and sc.iw[d] != 1.0:
        for i in range(n_p):
            sc.val[d, i] *= sc.iw[d]
    if predict > 0:
        for i in range(n_p):
            sc.pval[d, i] = sc.val[d, i]


@njit(cache=True, inline="always", error_model="numpy")
def _enter_decision(tree, step, sums, sc, d, n, in_batch, compressed, first_half, n_p, n_o):
    """A decision node entered: its strategy's totals per hand (the opponent's only outside a
    terminal batch: inside, no terminal reads its reach), and with 16-bit storage in UPDATE mode
    p's average grown here, all actions at once (one scale covers them)."""
    q = tree.player[n]
    o = tree.offset[n]
    na = tree.n_children[n]
    nq = n_p if q == step.p else n_o
    srcq = sums.src_p if q == step.p else sums.src_o
    if q == step.p or not in_batch:
        for a in range(na):
            _row_totals(sc.tot[d], srcq[o + a * nq:o + (a + 1) * nq], nq, a == 0)
    if compressed and q == step.p and step.mode == 0 and first_half:
        scale = sums.scales[1, n]
        for a in range(na):
            _row_grown(sc.cfv[d, a], sums.avg_p[o + a * n_p:o + (a + 1) * n_p], scale, sc.own[d],
                       sums.src_p[o + a * n_p:o + (a + 1) * n_p], sc.tot[d], n_p, 1.0 / na, step.avg_weight * sc.iw[d])
        sums.scales[1, n] = _encode_node(sums.avg_p, o, sc.cfv[d], na, n_p, 65535.0)


@njit(cache=True, inline="always", error_model="numpy")
def _descend(tree, step, sums, sc, d, n, a, in_batch, own_without_avg, n_p, n_o):
    """Child ``a`` of n: its reach vectors in row d + 1 (the opponent's times its strategy at its
    node, p's own times p's at p's node, growing p's average on the way in UPDATE mode unless
    ``own_without_avg``); a row a terminal child reads from its parent is not copied."""
    k = tree.kind[n]
    na = tree.n_children[n]
    c = tree.first_child[n] + a
    o = tree.offset[n]
    mine = k == DECISION and tree.player[n] == step.p
    if in_batch:
        pass  # in a terminal batch: no terminal below reads the opponent's reach
    elif k == DECISION and not mine:
        _row_reach(sc.opp[d + 1], sc.opp[d], sums.src_o[o + a * n_o:o + (a + 1) * n_o], sc.tot[d], n_o, 1.0 / na)
    elif tree.kind[c] < FOLD:
        _row_copy(sc.opp[d + 1], sc.opp[d], n_o)
    if step.mode == 0:
        blk = sums.src_p[o + a * n_p:o + (a + 1) * n_p]
        if mine and own_without_avg:
            _row_reach(sc.own[d + 1], sc.own[d], blk, sc.tot[d], n_p, 1.0 / na)
        elif mine:
            _row_own(sc.own[d + 1], sc.own[d], blk, sc.tot[d], n_p, 1.0 / na,
                     sums.avg_p[o + a * n_p:o + (a + 1) * n_p], step.avg_weight, sc.iw[d])
        elif tree.kind[c] < FOLD:  # (a terminal does not read p's own reach)
            _row_copy(sc.own[d + 1], sc.own[d], n_p)
    return c


@njit(cache=True, inline="always", error_model="numpy")
def _exit_own_decision(tree, step, sums, sc, d, n, update, compressed, n_p):
    """Every child of p's decision node n visited: n's value (the best action's in BEST_RESPONSE
    mode, else the strategy's mean) and, where ``update``, the regrets (16-bit: the node's block
    decoded, updated, encoded again) and a predictive variant's next strategy."""
    o = tree.offset[n]
    na = tree.n_children[n]
    val, cfv = sc.val, sc.cfv
    if step.mode == 1:
        for i in range(n_p):
            best = cfv[d, 0, i]
            for b in range(1, na):
                best = max(best, cfv[d, b, i])
            val[d, i] = best
        return
    for b in range(na):
        _row_mean(val[d], sums.src_p[o + b * n_p:o + (b + 1) * n_p], sc.tot[d], cfv[d, b], n_p, 1.0 / na)
    if not update:
        return
    pre, pos, neg, floor = step.rule
    if compressed:
        scale = sums.scales[0, n]
        for b in range(na):
            _row_decoded_regrets(cfv[d, b], sums.regrets_p[o + b * n_p:o + (b + 1) * n_p], scale, val[d], n_p,
                                 pre, pos, neg, floor)
        sums.scales[0, n] = _encode_node(sums.regrets_p, o, cfv[d], na, n_p, 32767.0)
        return
    for b in range(na):
        _row_regrets(sums.regrets_p[o + b * n_p:o + (b + 1) * n_p], cfv[d, b], val[d], n_p, pre, pos, neg, floor)
    if step.predict > 0:
        _predict(sums.src_p, sums.regrets_p, o, na, n_p, d, sc.tot, cfv, sc.pcfv, val, sc.pval, step.predict,
                 step.pscale)


@njit(cache=True, inline="always", error_model="numpy")
def _hand_up(tree, term, p, sc, d, predict, n_p):
    """Row d + 1's node is done: its values to its parent (row d), a child's values at p's node,
    else added, with the mirror deals of suit isomorphism after a chance node's child."""
    pn = sc.node[d]
    a = sc.nxt[d]
    if tree.kind[pn] == DECISION and tree.player[pn] == p:
        _row_copy(sc.cfv[d, a], sc.val[d + 1], n_p)
        if predict > 0:
            _row_copy(sc.pcfv[d, a], sc.pval[d + 1], n_p)
    else:
        _row_add(sc.val[d], sc.val[d + 1], n_p)
        if predict > 0:
            _row_add(sc.pval[d], sc.pval[d + 1], n_p)
        if len(tree.iso_count) > 0 and tree.kind[pn] == CHANCE_NODE:  # suit isomorphism: the mirrors' deals
            c = sc.node[d + 1]
            _mirror_add(sc.val[d], sc.val[d + 1], tree.iso_perm, tree.iso_swap, tree.iso_first[c], tree.iso_count[c],
                        n_p, term.window[p, 0])
            if predict > 0:
                _mirror_add(sc.pval[d], sc.pval[d + 1], tree.iso_perm, tree.iso_swap, tree.iso_first[c],
                            tree.iso_count[c], n_p, term.window[p, 0])
    sc.nxt[d] = a + 1


@_node_pass
def dfs_from(tree, term, step, sums, sc, cs, at):
    """The one pass, depth first: for player ``step.p`` (a :class:`~zerosum.public_tree.arrays.Step`)
    over the subtree of ``at.n0`` (a :class:`~zerosum.public_tree.arrays.Cut`), reading and writing
    ``sums`` (a :class:`~zerosum.public_tree.arrays.Sums`).  Vectors live per depth (reach down,
    value up, and at p's nodes one value vector per action) in ``sc`` (a
    :class:`~zerosum.public_tree.arrays.DepthScratch`, the prediction's vectors one depth deep
    where there is none), so memory is O(depth x hands), the pass allocates nothing and runs
    without reference counting.  Returns (sum_i range_p(i) * value_root(i), public nodes visited).

    Predictive variants (``step.predict`` 1 = "tree", 2 = "local", PCFR+ / PDCFR+): strategies are
    stored (``src_p``/``src_o`` hold them, rows summing to one, which the normalization reads
    unchanged), regrets live in ``regrets_p``, and at p's nodes the next strategy is predictive
    regret matching+ on ``pscale * R`` plus the predicted regret, the prediction built bottom-up
    with the new strategies below (a second value vector per depth), as in
    :func:`zerosum.solvers.pcfr.predictive_strategy`.

    The cut (``at.cut``) splits the pass at the chance nodes that have a slot (>= 0) for
    :func:`cut_thread` (the threads) or the Ray split's workers: 1, the trunk top-down: a cut
    node's reach goes to ``cut_reach[slot]`` (opponent's, own) and it is not entered (no regret
    updates anywhere: the values below are not known yet); 2, the trunk bottom-up: a cut node's
    values come from ``cut_val[slot]`` (values, predicted values), and the average (grown in the
    first half) is not touched.  Every trunk node then reads the same sums in both halves as in
    one pass, and every entry is updated once, so the figures are one pass's.

    16-bit storage (``dtype="int16"``) where ``sums.scales`` has rows (float32 [2, nodes]: per node
    of p, the regrets' scale and the average's): the sums are integers, an entry's value its
    integer times its node's scale (:func:`_encode_node`); reading needs no scale (regret matching
    and the normalization divide it out within a node), updating decodes a node's block, updates
    it in the pass's float32 rows of ``cfv[d]`` and encodes it again with the block's new largest
    magnitude.  The average then grows at the node's entry, for all its actions at once (so one
    scale covers them), instead of on the way down to each child; the regrets at its exit, as
    always.  No rows: the sums are floats and the pass is the float pass, figure for figure."""
    p, predict = step.p, step.predict
    n_p, n_o = len(sums.range_p), len(sums.range_o)
    kind, n_children = tree.kind, tree.n_children
    node, nxt = sc.node, sc.nxt  # the path, and the next child to visit (-1 before a node is entered)
    batched = len(sc.batches.root) > 0
    bdepth = -1  # the depth of the terminal batch being walked (its terminals' values are known), or -1
    sc.iw[0] = 1.0  # (every other entry of the scratch is written before it is read)
    compressed = sums.scales.shape[0] > 0
    sampling = len(sums.sample) > 0
    update = step.mode == 0 and at.cut != 1
    visited = 0
    if at.n0 == 0:
        root_reach(sc.opp, sums.range_o)
        root_reach(sc.own, sums.range_p)
    node[0] = at.n0
    nxt[0] = -1
    d = 0
    while True:
        n = node[d]
        k = kind[n]
        if nxt[d] < 0:  # entering n
            visited += 1
            nxt[d] = 0
            if at.cut > 0 and k == CHANCE_NODE and at.slot[n] >= 0:  # its subtrees run elsewhere
                _enter_cut_node(at, sc, d, at.slot[n], n_p, n_o, predict)
                nxt[d] = n_children[n]
            elif k >= FOLD:
                _enter_terminal(tree, term, p, sc, cs, d, n, bdepth >= 0, sampling, predict, n_p)
            else:
                _row_zero(sc.val[d], n_p)
                if predict > 0:
                    _row_zero(sc.pval[d], n_p)
                if k == DECISION:
                    if batched and bdepth < 0 and sc.batches.root[n] >= 0:  # a batch's top: its terminals first
                        _row_copy(sc.b_reach[0], sc.opp[d], n_o)
                        batch_terminals(tree, term, p, sc.batches.root[n], sums.src_o, n_o, cs, sc.batches,
                                        sc.b_reach, sc.b_val, sc.b_sums, sc.b_row, sc.b_lanes, sc.b_tot)
                        bdepth = d
                    _enter_decision(tree, step, sums, sc, d, n, bdepth >= 0, compressed, at.cut != 2, n_p, n_o)
                elif sampling:  # a chance node: only the drawn card's subtree
                    nxt[d] = sums.sample[n]
        a = nxt[d]
        if k < FOLD and a < n_children[n] and not (sampling and k == CHANCE_NODE and a != sums.sample[n]):
            c = _descend(tree, step, sums, sc, d, n, a, bdepth >= 0, at.cut == 2 or compressed, n_p, n_o)
            sc.iw[d + 1] = sc.iw[d] * n_children[n] if (sampling and k == CHANCE_NODE) else sc.iw[d]
            node[d + 1] = c
            nxt[d + 1] = -1
            d += 1
            continue
        if k == DECISION and tree.player[n] == p:
            _exit_own_decision(tree, step, sums, sc, d, n, update, compressed, n_p)
        # n is done: hand its value to the parent
        if d == bdepth:
            bdepth = -1
        if d == 0:
            break
        d -= 1
        _hand_up(tree, term, p, sc, d, predict, n_p)
    return root_value(sums.range_p, sc.val, 0), visited


@njit(cache=True, inline="always", error_model="numpy")
def _mirror_add(dst, inp, perm, swap, first, count, n, lo):
    """dst += the values of each mirror deal of a representative one: its values ``inp`` read
    through the hand permutation of the two suits swapped (a hand's value in the mirror subtree is
    its image's in the representative's).  The permutations are of the terminals' shared list;
    the vectors are the player's window of it, from ``lo`` (a swap maps each range onto itself).
    Mirror m reads the permutation of its swap, ``perm[swap[m]]``."""
    for m in range(first, first + count):
        row = perm[swap[m]]
        for i in range(n):
            dst[i] += inp[row[lo + i] - lo]


@intrinsic
def _take(typingctx, queue):
    """The next task's place in the queue: ``queue[0]`` before adding one to it, in one atomic step
    (LLVM's ``atomicrmw add``), so two threads never take the same task."""
    if not (isinstance(queue, types.Array) and queue.dtype == types.int64 and queue.ndim == 1):
        return None

    def codegen(context, builder, signature, args):
        data = context.make_array(signature.args[0])(context, builder, args[0]).data
        return builder.atomic_rmw("add", data, ir.Constant(ir.IntType(64), 1), "monotonic")

    return types.int64(queue), codegen


@njit(cache=True, error_model="numpy", _nrt=False, nogil=True)
def cut_thread(tree, term, step, sums, scratch, cs, tasks, t):
    """Thread t's share of the subtrees below the cut chance nodes (task k: node ``task_node[k]``,
    a child of cut node ``task_slot[k]``), each a :func:`dfs_from` from the cut node's reach
    (``tasks.cut_reach``) with thread t's own scratch (``scratch``: a
    :class:`~zerosum.public_tree.arrays.DepthScratch` with a leading thread axis, ``cs[t]``), its
    root values into ``tasks.child_val[k]`` and the nodes it entered into ``tasks.work[k]``.  The threads take
    the tasks from one queue as they finish the last (:func:`_take`: ``queue[0]`` counts the tasks
    taken, ``queue[1:]`` is their order, the largest first once ``work`` is known: see
    :meth:`~zerosum.public_tree.passes.Workspace._walk_cut`), so a thread that the machine slows
    takes fewer.  The subtrees write disjoint blocks of the sums (each node its own ``offset``),
    so nothing is shared and which thread runs a task changes no figure; the GIL is released
    (the caller's Python threads run one call each).  Returns the nodes it entered.

    A queue rather than a fixed share (tasks t, t + threads, ...) because the subtrees differ in
    size (below an all-in one showdown, below a check many nodes), so fixed shares leave one
    thread waiting.  The caller pads the per-thread rows (false sharing of the card sums costs
    40 % more CPU).

    Python threads, not Numba's ``parallel=True``: a ``prange`` over the threads compiled 15 s
    more on the first threaded pass (cold cache, this 2-core machine), and its OpenMP workers
    spin after each loop, taking the core the trunk's pass runs on.  dfs_from is called with
    arguments of the types the Python side passes it (``sample`` empty, ``slot``, ``cut_val``),
    so one compiled version serves both."""
    n_p, n_o = len(sums.range_p), len(sums.range_o)
    no_cut = t - t  # 0 as an int64 (a literal 0 would be typed Literal[int](0): dfs_from compiled again)
    s = DepthScratch(scratch.opp[t], scratch.own[t], scratch.val[t], scratch.tot[t], scratch.cfv[t], scratch.iw[t],
                     scratch.pval[t], scratch.pcfv[t], scratch.node[t], scratch.nxt[t], scratch.batches,
                     scratch.b_reach[t], scratch.b_val[t], scratch.b_sums[t], scratch.b_row[t], scratch.b_lanes[t],
                     scratch.b_tot[t])
    queue, task_node = tasks.queue, tasks.task_node
    count = 0
    while True:
        q = _take(queue)
        if q >= len(task_node):
            break
        k = queue[1 + q]
        j = tasks.task_slot[k]
        for i in range(n_o):
            s.opp[0, i] = tasks.cut_reach[j, 0, i]
        for i in range(n_p):
            s.own[0, i] = tasks.cut_reach[j, 1, i]
        _, v = dfs_from(tree, term, step, sums, s, cs[t], Cut(task_node[k], no_cut, tasks.slot, tasks.cut_reach,
                                                             tasks.cut_val))
        count += v
        tasks.work[k] = v
        for i in range(n_p):
            tasks.child_val[k, 0, i] = s.val[0, i]
        if step.predict > 0:
            for i in range(n_p):
                tasks.child_val[k, 1, i] = s.pval[0, i]
    return count


@njit(cache=True, error_model="numpy")
def cut_values(task_slot, child_val, cut_val, predict, n_p, tree, task_node, lo):
    """``cut_val[j]`` = the sum of cut node j's children's values (``child_val``, from
    :func:`cut_thread`) in child order, from 0, each child's mirrors (suit isomorphism) right
    after it: the single pass's sum, bit for bit, whatever the number of threads."""
    for j in range(cut_val.shape[0]):
        for r in range(cut_val.shape[1]):
            for i in range(n_p):
                cut_val[j, r, i] = 0.0
    for k in range(len(task_slot)):
        j = task_slot[k]
        for r in range(2 if predict > 0 else 1):
            for i in range(n_p):
                cut_val[j, r, i] += child_val[k, r, i]
            if len(tree.iso_count) > 0:
                c = task_node[k]
                _mirror_add(cut_val[j, r], child_val[k, r], tree.iso_perm, tree.iso_swap, tree.iso_first[c], tree.iso_count[c], n_p, lo)


@njit(cache=True, error_model="numpy")
def tree_depth(parent):
    """Depth of the deepest node (parents precede children)."""
    depth = np.zeros(len(parent), dtype=np.int64)
    for n in range(1, len(parent)):
        depth[n] = depth[parent[n]] + 1
    return depth.max()


@njit(cache=True, inline="always", error_model="numpy")
def _predict(strategy, regrets, o, na, n, d, tot, cfv, pcfv, val, pval, predict, pscale):
    """Next strategy of p at one node (predictive regret matching+), written over ``strategy``;
    pval[d] = its value under the predicted values (the "tree" prediction passed upward)."""
    for i in range(n):
        baseline = 0.0
        if predict == 1:
            for b in range(na):
                baseline += _strategy(strategy, o, na, n, b, i, tot, d) * pcfv[d, b, i]
        total = 0.0
        for b in range(na):
            e = o + b * n + i
            r = pscale * regrets[e] if pscale != 1.0 else regrets[e]
            if predict == 1:
                x = max(r + pcfv[d, b, i] - baseline, 0.0)
            else:
                x = max(r + (cfv[d, b, i] - val[d, i]), 0.0)
            cfv[d, b, i] = x  # (cfv is not needed any more at this node)
            total += x
        value = 0.0
        for b in range(na):
            x = cfv[d, b, i] / total if total > 0.0 else 1.0 / na
            strategy[o + b * n + i] = x
            value += x * pcfv[d, b, i]
        pval[d, i] = value
