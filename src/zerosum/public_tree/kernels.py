"""The one Numba pass over the public tree: reach vectors down, value vectors up, hands inside.

Two traversals of the same pass: :func:`walk_dfs` (the solvers': depth first, vectors per depth,
O(depth x hands) memory) and :func:`walk` (breadth order over the node arrays, a vector per node
kept for inspection and tests); the tests check that they agree.

A pass is for one player p (the one whose values are computed).  Top-down, every node gets the
opponent's reach vector (and, when updating, p's own reach); bottom-up, every node gets p's value
vector (counterfactual: chance and the opponent inside, p's own probabilities not).  ``mode``:

* UPDATE: at p's nodes, instantaneous regrets cfv(a) - v, the variant's regret rule
  (:func:`zerosum.solvers.cfr.regret_update`, shared with the history tree) and the average
  strategy accumulated with p's own reach (once per information set, by construction);
* BEST_RESPONSE: the max over actions at p's nodes;
* EXPECT: the expectation under p's strategy ``src_p``.

A strategy is never stored: at any node it is the positive part of ``src`` normalized over the
actions, uniform where none is positive.  That is regret matching on cumulative regrets and
normalization on the average-strategy sums, so the same code reads either.  Returns
sum_i range_p(i) * value_root(i), p's expected payoff.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..solvers.cfr import regret_update
from .form import CHANCE_NODE, DECISION, FOLD

UPDATE, BEST_RESPONSE, EXPECT = 0, 1, 2


@njit(cache=True, error_model="numpy")
def _terminal(n, orow, p, folder, is_fold, st, b, opp, val, evaluator, weight, signed, cards, const, order, start,
              strength, cs):
    """Values at one terminal by the dense or the sweep evaluator (the poker family's O(ranks)
    rows, :func:`_ranks`, are inlined where they are used).  Called, not inlined: inlined at the
    passes' eight call sites it made most of their compile time (the shape pass compiled in 47 s
    cold, 14 s with the call), and a call costs nothing beside its O(hands) work."""
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
        _ranks(n, orow, p, folder, is_fold, st, b, opp, val, cards[0, 0], cards[0, 1], const, order, start)
        return
    # sweep: both players share the hand list
    for i in range(cards.shape[0]):
        val[n, i] = 0.0
    s0, s1 = start[b], start[b + 1]
    c = const[b]
    for k in range(52):
        cs[k] = 0.0
    if is_fold:
        total = 0.0
        for m in range(s0, s1):
            j = order[m]
            r = opp[orow, j]
            total += r
            cs[cards[j, 0]] += r
            cs[cards[j, 1]] += r
        scale = (-st if folder == p else st) * c
        for m in range(s0, s1):
            i = order[m]
            val[n, i] = scale * (total - cs[cards[i, 0]] - cs[cards[i, 1]] + opp[orow, i])
        return
    scale = st * c
    # upward: wins against strictly weaker hands that share no card
    total = 0.0
    m = s0
    while m < s1:
        g = m
        while g < s1 and strength[g] == strength[m]:
            g += 1
        for k in range(m, g):
            i = order[k]
            val[n, i] = total - cs[cards[i, 0]] - cs[cards[i, 1]]
        for k in range(m, g):
            j = order[k]
            r = opp[orow, j]
            total += r
            cs[cards[j, 0]] += r
            cs[cards[j, 1]] += r
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
            i = order[k]
            val[n, i] = scale * (val[n, i] - (total - cs[cards[i, 0]] - cs[cards[i, 1]]))
        for k in range(m, g, -1):
            j = order[k]
            r = opp[orow, j]
            total += r
            cs[cards[j, 0]] += r
            cs[cards[j, 1]] += r
        m = g


@njit(cache=True, inline="always", error_model="numpy")
def _ranks(n, orow, p, folder, is_fold, st, b, opp, val, k, unused, const, order, board_rank):
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


@njit(cache=True, error_model="numpy")
def walk(kind, player, first_child, n_children, board, stake, offset,
         evaluator, weight, signed, cards, const, order, start, strength,
         p, range_p, range_o, src_p, src_o, mode, avg_p, avg_weight, pre, pos, neg, floor,
         opp, own, val, cs, sample, active, iw):
    """One pass for player p (see the module docstring); opp/own/val are [nodes x hands] buffers
    (opp and val may be the same array), cs 52 floats of scratch for the sweep.

    Public chance sampling: where ``sample`` is not empty, a chance node n walks only its child
    ``first_child[n] + sample[n]``; values below are scaled by the inverse probability of the
    sampled cards (``iw``, the product of the chance nodes' child counts), so every value and regret
    is an unbiased estimate, and the average is weighted the same way.  ``active``/``iw``: per-node
    scratch."""
    n_nodes = len(kind)
    sampling = len(sample) > 0
    if sampling:
        for n in range(n_nodes):
            active[n] = 0
        active[0] = 1
        iw[0] = 1.0
    n_p = len(range_p)
    n_o = len(range_o)
    for j in range(n_o):
        opp[0, j] = range_o[j]
    if mode == 0:
        for i in range(n_p):
            own[0, i] = range_p[i]
    tot = np.empty(max(n_p, n_o))
    uni = np.empty(max(n_p, n_o))
    strat = np.empty(len(src_p) if mode == 0 else 0)  # p's strategy, from the way down to the way up
    row = opp[0:1].copy()
    # --- top-down -------------------------------------------------------------------------------
    for n in range(n_nodes):
        k = kind[n]
        if k >= FOLD or (sampling and active[n] == 0):
            continue
        c0 = first_child[n]
        na = n_children[n]
        if sampling:
            if k == CHANCE_NODE:
                c = c0 + sample[n]
                active[c] = 1
                iw[c] = iw[n] * na
                c0, na = c, 1  # copy the reach vectors to the sampled child only
            else:
                for c in range(c0, c0 + na):
                    active[c] = 1
                    iw[c] = iw[n]
        if k == CHANCE_NODE or player[n] == p:
            for c in range(c0, c0 + na):
                for j in range(n_o):
                    opp[c, j] = opp[n, j]
        if mode == 0 and (k == CHANCE_NODE or player[n] != p):
            for c in range(c0, c0 + na):
                for i in range(n_p):
                    own[c, i] = own[n, i]
        if k != DECISION:
            continue
        o = offset[n]
        if player[n] != p:
            _denominators(src_o, o, na, n_o, tot, uni)
            for a in range(na):
                base = o + a * n_o
                c = c0 + a
                for j in range(n_o):
                    opp[c, j] = opp[n, j] * (max(src_o[base + j], 0.0) / tot[j] + uni[j])
        elif mode == 0:
            _denominators(src_p, o, na, n_p, tot, uni)
            aw = avg_weight * (iw[n] if sampling else 1.0)
            for a in range(na):
                base = o + a * n_p
                c = c0 + a
                for i in range(n_p):
                    sigma = max(src_p[base + i], 0.0) / tot[i] + uni[i]
                    strat[base + i] = sigma
                    reach = own[n, i] * sigma
                    own[c, i] = reach
                    avg_p[base + i] += aw * reach
    # --- bottom-up ------------------------------------------------------------------------------
    for n in range(n_nodes - 1, -1, -1):
        k = kind[n]
        if sampling and active[n] == 0:
            continue
        if k >= FOLD:
            # opp and val may be one buffer (a node's reach is not needed once its value is known)
            if evaluator == 2:  # the poker family: reads each hand's reach before writing its value
                _ranks(n, n, p, player[n], k == FOLD, stake[n], board[n], opp, val, cards[0, 0], cards[0, 1], const,
                       order, start)
            else:
                # the other evaluators read the reach from a scratch row
                for j in range(n_o):
                    row[0, j] = opp[n, j]
                _terminal(n, 0, p, player[n], k == FOLD, stake[n], board[n], row, val, evaluator, weight, signed,
                          cards, const, order, start, strength, cs)
            if sampling and iw[n] != 1.0:
                for i in range(n_p):
                    val[n, i] *= iw[n]
            continue
        c0 = first_child[n]
        na = n_children[n]
        if sampling and k == CHANCE_NODE:
            c0, na = c0 + sample[n], 1
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
        for i in range(n_p):
            val[n, i] = 0.0
        if mode == 0:
            for a in range(na):
                base = o + a * n_p
                c = c0 + a
                for i in range(n_p):
                    val[n, i] += strat[base + i] * val[c, i]
        else:
            _denominators(src_p, o, na, n_p, tot, uni)
            for a in range(na):
                base = o + a * n_p
                c = c0 + a
                for i in range(n_p):
                    val[n, i] += (max(src_p[base + i], 0.0) / tot[i] + uni[i]) * val[c, i]
        if mode == 0:
            for a in range(na):
                base = o + a * n_p
                c = c0 + a
                for i in range(n_p):
                    src_p[base + i] = regret_update(src_p[base + i], val[c, i] - val[n, i], pre, pos, neg, floor)
    out = 0.0
    for i in range(n_p):
        out += range_p[i] * val[0, i]
    return out


@njit(cache=True, error_model="numpy")
def best_response_and_value(kind, player, first_child, n_children, board, stake, offset,
                            evaluator, weight, signed, cards, const, order, start, strength,
                            p, range_p, range_o, src_p, src_o, opp, val, ev, cs):
    """:func:`walk`'s BEST_RESPONSE and EXPECT passes for player p in one: both read the same
    opponent reach (from ``src_o``) and the same terminal values, and differ only at p's nodes (max
    over actions into ``val``, the expectation under ``src_p`` into ``ev``), so NashConv takes two
    passes instead of three.  Per-node buffers as in :func:`walk` (opp and val may be one).
    Returns (p's best-response value, p's expected value), each as :func:`walk` returns it."""
    n_nodes = len(kind)
    n_p = len(range_p)
    n_o = len(range_o)
    for j in range(n_o):
        opp[0, j] = range_o[j]
    tot = np.empty(max(n_p, n_o))
    uni = np.empty(max(n_p, n_o))
    row = opp[0:1].copy()
    for n in range(n_nodes):
        k = kind[n]
        if k >= FOLD:
            continue
        c0 = first_child[n]
        na = n_children[n]
        if k == CHANCE_NODE or player[n] == p:
            for c in range(c0, c0 + na):
                for j in range(n_o):
                    opp[c, j] = opp[n, j]
            continue
        o = offset[n]
        _denominators(src_o, o, na, n_o, tot, uni)
        for a in range(na):
            base = o + a * n_o
            c = c0 + a
            for j in range(n_o):
                opp[c, j] = opp[n, j] * (max(src_o[base + j], 0.0) / tot[j] + uni[j])
    for n in range(n_nodes - 1, -1, -1):
        k = kind[n]
        if k >= FOLD:
            if evaluator == 2:
                _ranks(n, n, p, player[n], k == FOLD, stake[n], board[n], opp, val, cards[0, 0], cards[0, 1], const,
                       order, start)
            else:
                for j in range(n_o):
                    row[0, j] = opp[n, j]
                _terminal(n, 0, p, player[n], k == FOLD, stake[n], board[n], row, val, evaluator, weight, signed,
                          cards, const, order, start, strength, cs)
            for i in range(n_p):
                ev[n, i] = val[n, i]
            continue
        c0 = first_child[n]
        na = n_children[n]
        if k == CHANCE_NODE or player[n] != p:
            for i in range(n_p):
                val[n, i] = val[c0, i]
                ev[n, i] = ev[c0, i]
            for c in range(c0 + 1, c0 + na):
                for i in range(n_p):
                    val[n, i] += val[c, i]
                    ev[n, i] += ev[c, i]
            continue
        for i in range(n_p):
            val[n, i] = val[c0, i]
        for c in range(c0 + 1, c0 + na):
            for i in range(n_p):
                val[n, i] = max(val[n, i], val[c, i])
        o = offset[n]
        _denominators(src_p, o, na, n_p, tot, uni)
        for i in range(n_p):
            ev[n, i] = 0.0
        for a in range(na):
            base = o + a * n_p
            c = c0 + a
            for i in range(n_p):
                ev[n, i] += (max(src_p[base + i], 0.0) / tot[i] + uni[i]) * ev[c, i]
    br = 0.0
    value = 0.0
    for i in range(n_p):
        br += range_p[i] * val[0, i]
        value += range_p[i] * ev[0, i]
    return br, value


@njit(cache=True, error_model="numpy")
def nash_conv_passes(kind, player, first_child, n_children, board, stake, offset,
                     evaluator, weight, signed, cards, const, order, start, strength,
                     range0, range1, src0, src1, r0, r1, e0, cs):
    """Both best responses and player 0's expected value in one traversal (per-node buffers, two
    hand lists of one width): top-down both players' reach (``r0`` from ``src0``, ``r1`` from
    ``src1``), bottom-up ``r0`` becomes player 1's best-response values, ``r1`` player 0's, and ``e0``
    player 0's expected values.  Each vector is summed in the same order as :func:`walk`'s
    BEST_RESPONSE and EXPECT passes, so the figures are theirs.  Returns (br0, br1, value)."""
    n_nodes = len(kind)
    n0 = len(range0)
    n1 = len(range1)
    for i in range(n0):
        r0[0, i] = range0[i]
    for j in range(n1):
        r1[0, j] = range1[j]
    width = max(n0, n1)
    tot = np.empty(width)
    uni = np.empty(width)
    row = r0[0:1].copy()
    for n in range(n_nodes):
        k = kind[n]
        if k >= FOLD:
            continue
        c0 = first_child[n]
        na = n_children[n]
        q = player[n] if k == DECISION else -1
        if q != 0:
            for c in range(c0, c0 + na):
                for i in range(n0):
                    r0[c, i] = r0[n, i]
        if q != 1:
            for c in range(c0, c0 + na):
                for j in range(n1):
                    r1[c, j] = r1[n, j]
        if q == 0:
            o = offset[n]
            _denominators(src0, o, na, n0, tot, uni)
            for a in range(na):
                base = o + a * n0
                c = c0 + a
                for i in range(n0):
                    r0[c, i] = r0[n, i] * (max(src0[base + i], 0.0) / tot[i] + uni[i])
        elif q == 1:
            o = offset[n]
            _denominators(src1, o, na, n1, tot, uni)
            for a in range(na):
                base = o + a * n1
                c = c0 + a
                for j in range(n1):
                    r1[c, j] = r1[n, j] * (max(src1[base + j], 0.0) / tot[j] + uni[j])
    for n in range(n_nodes - 1, -1, -1):
        k = kind[n]
        if k >= FOLD:
            # r0[n] (player 0's reach) becomes player 1's values, r1[n] player 0's
            if evaluator == 2:
                _ranks(n, n, 1, player[n], k == FOLD, stake[n], board[n], r0, r0, cards[0, 0], cards[0, 1], const,
                       order, start)
                _ranks(n, n, 0, player[n], k == FOLD, stake[n], board[n], r1, r1, cards[0, 0], cards[0, 1], const,
                       order, start)
            else:
                for i in range(n0):
                    row[0, i] = r0[n, i]
                _terminal(n, 0, 1, player[n], k == FOLD, stake[n], board[n], row, r0, evaluator, weight, signed,
                          cards, const, order, start, strength, cs)
                for j in range(n1):
                    row[0, j] = r1[n, j]
                _terminal(n, 0, 0, player[n], k == FOLD, stake[n], board[n], row, r1, evaluator, weight, signed,
                          cards, const, order, start, strength, cs)
            for i in range(n0):
                e0[n, i] = r1[n, i]
            continue
        c0 = first_child[n]
        na = n_children[n]
        q = player[n] if k == DECISION else -1
        if q == 1:
            for j in range(n1):
                r0[n, j] = r0[c0, j]
            for c in range(c0 + 1, c0 + na):
                for j in range(n1):
                    r0[n, j] = max(r0[n, j], r0[c, j])
        else:
            for j in range(n1):
                r0[n, j] = r0[c0, j]
            for c in range(c0 + 1, c0 + na):
                for j in range(n1):
                    r0[n, j] += r0[c, j]
        if q == 0:
            for i in range(n0):
                r1[n, i] = r1[c0, i]
            for c in range(c0 + 1, c0 + na):
                for i in range(n0):
                    r1[n, i] = max(r1[n, i], r1[c, i])
            o = offset[n]
            _denominators(src0, o, na, n0, tot, uni)
            for i in range(n0):
                e0[n, i] = 0.0
            for a in range(na):
                base = o + a * n0
                c = c0 + a
                for i in range(n0):
                    e0[n, i] += (max(src0[base + i], 0.0) / tot[i] + uni[i]) * e0[c, i]
        else:
            for i in range(n0):
                r1[n, i] = r1[c0, i]
                e0[n, i] = e0[c0, i]
            for c in range(c0 + 1, c0 + na):
                for i in range(n0):
                    r1[n, i] += r1[c, i]
                    e0[n, i] += e0[c, i]
    br0 = 0.0
    value = 0.0
    for i in range(n0):
        br0 += range0[i] * r1[0, i]
        value += range0[i] * e0[0, i]
    br1 = 0.0
    for j in range(n1):
        br1 += range1[j] * r0[0, j]
    return br0, br1, value


@njit(cache=True, inline="always", error_model="numpy")
def _denominators(src, o, na, n, den, uni):
    """Per hand: den = the sum of the positive parts over the node's actions and uni = 0, or,
    where none is positive, den = 1 and uni = 1 / na; the strategy is max(x, 0) / den + uni
    without a branch (a division, not a multiplication by 1 / den: a pure strategy stays exactly 1,
    as on the history tree, so CFR+'s regrets stay exactly 0 where they are there)."""
    for i in range(n):
        den[i] = 0.0
    for a in range(na):
        base = o + a * n
        for i in range(n):
            den[i] += max(src[base + i], 0.0)
    u = 1.0 / na
    for i in range(n):
        t = den[i]
        uni[i] = 0.0 if t > 0.0 else u
        den[i] = t if t > 0.0 else 1.0


@njit(cache=True, inline="always", error_model="numpy")
def _positive_totals(src, o, na, n, tot):
    """tot[i] = sum over the node's actions of the positive part of src (hand i)."""
    for i in range(n):
        tot[i] = 0.0
    for a in range(na):
        base = o + a * n
        for i in range(n):
            x = src[base + i]
            if x > 0.0:
                tot[i] += x


@njit(cache=True, inline="always", error_model="numpy")
def _strategy(src, o, na, n, a, i, tot, d):
    x = src[o + a * n + i]
    t = tot[d, i]
    return (x / t if x > 0.0 else 0.0) if t > 0.0 else 1.0 / na


@njit(cache=True, error_model="numpy")
def walk_dfs(kind, player, first_child, n_children, board, stake, offset,
             evaluator, weight, signed, cards, const, order, start, strength,
             p, range_p, range_o, src_p, src_o, mode, avg_p, avg_weight, pre, pos, neg, floor,
             max_depth, max_actions, cs, sample, regrets_p, predict, pscale):
    """The same pass as :func:`walk`, depth first: vectors live per depth (reach down, value up,
    and at p's nodes one value vector per action), so memory is O(depth x hands), not
    O(nodes x hands).  Returns (sum_i range_p(i) * value_root(i), public nodes visited).

    Predictive variants (``predict`` 1 = "tree", 2 = "local", PCFR+ / PDCFR+): strategies are
    stored (``src_p``/``src_o`` hold them, rows summing to one, which the normalization reads
    unchanged), regrets live in ``regrets_p``, and at p's nodes the next strategy is predictive
    regret matching+ on ``pscale * R`` plus the predicted regret, the prediction built bottom-up
    with the new strategies below (a second value vector per depth), as in
    :func:`zerosum.solvers.pcfr.predictive_strategy`."""
    n_p = len(range_p)
    n_o = len(range_o)
    width = max(n_p, n_o)
    opp = np.empty((max_depth + 1, width), dtype=range_o.dtype)
    own = np.empty((max_depth + 1, width), dtype=range_p.dtype)
    val = np.zeros((max_depth + 1, width), dtype=range_p.dtype)
    tot = np.empty((max_depth + 1, width), dtype=range_p.dtype)
    cfv = np.empty((max_depth + 1, max_actions, width), dtype=range_p.dtype)
    iw = np.ones(max_depth + 1)
    pd = max_depth + 1 if predict > 0 else 1
    pval = np.zeros((pd, width), dtype=range_p.dtype)
    pcfv = np.zeros((pd, max_actions, width), dtype=range_p.dtype)
    node = np.zeros(max_depth + 1, dtype=np.int64)
    nxt = np.zeros(max_depth + 1, dtype=np.int64)  # next child to visit, -1 before the node is entered
    sampling = len(sample) > 0
    visited = 0
    for j in range(n_o):
        opp[0, j] = range_o[j]
    for i in range(n_p):
        own[0, i] = range_p[i]
    node[0] = 0
    nxt[0] = -1
    d = 0
    while True:
        n = node[d]
        k = kind[n]
        done = False
        if nxt[d] < 0:  # entering n
            visited += 1
            if k >= FOLD:
                if evaluator == 2:
                    _ranks(d, d, p, player[n], k == FOLD, stake[n], board[n], opp, val, cards[0, 0], cards[0, 1],
                           const, order, start)
                else:
                    _terminal(d, d, p, player[n], k == FOLD, stake[n], board[n], opp, val, evaluator, weight,
                              signed, cards, const, order, start, strength, cs)
                if sampling and iw[d] != 1.0:
                    for i in range(n_p):
                        val[d, i] *= iw[d]
                if predict > 0:
                    for i in range(n_p):
                        pval[d, i] = val[d, i]
                done = True
            else:
                for i in range(n_p):
                    val[d, i] = 0.0
                if predict > 0:
                    for i in range(n_p):
                        pval[d, i] = 0.0
                if k == DECISION:
                    q = player[n]
                    if q == p:
                        _totals(src_p, offset[n], n_children[n], n_p, tot, d)
                    else:
                        _totals(src_o, offset[n], n_children[n], n_o, tot, d)
                nxt[d] = sample[n] if (sampling and k == CHANCE_NODE) else 0
        if not done:
            a = nxt[d]
            na = n_children[n]
            if a < na and not (sampling and k == CHANCE_NODE and a != sample[n]):
                c = first_child[n] + a
                o = offset[n]
                if k == DECISION and player[n] != p:
                    for j in range(n_o):
                        opp[d + 1, j] = opp[d, j] * _strategy(src_o, o, na, n_o, a, j, tot, d)
                else:
                    for j in range(n_o):
                        opp[d + 1, j] = opp[d, j]
                if mode == 0:
                    if k == DECISION and player[n] == p:
                        for i in range(n_p):
                            reach = own[d, i] * _strategy(src_p, o, na, n_p, a, i, tot, d)
                            own[d + 1, i] = reach
                            avg_p[o + a * n_p + i] += avg_weight * reach * iw[d]
                    else:
                        for i in range(n_p):
                            own[d + 1, i] = own[d, i]
                iw[d + 1] = iw[d] * na if (sampling and k == CHANCE_NODE) else iw[d]
                node[d + 1] = c
                nxt[d + 1] = -1
                d += 1
                continue
            # every child visited: n's value
            if k == DECISION and player[n] == p:
                o = offset[n]
                if mode == 1:
                    for i in range(n_p):
                        best = cfv[d, 0, i]
                        for b in range(1, na):
                            best = max(best, cfv[d, b, i])
                        val[d, i] = best
                else:
                    for b in range(na):
                        for i in range(n_p):
                            val[d, i] += _strategy(src_p, o, na, n_p, b, i, tot, d) * cfv[d, b, i]
                    if mode == 0:
                        for b in range(na):
                            base = o + b * n_p
                            for i in range(n_p):
                                regrets_p[base + i] = regret_update(regrets_p[base + i], cfv[d, b, i] - val[d, i],
                                                                    pre, pos, neg, floor)
                        if predict > 0:
                            _predict(src_p, regrets_p, o, na, n_p, d, tot, cfv, pcfv, val, pval, predict, pscale)
            done = True
        # n is done: hand its value to the parent
        if d == 0:
            break
        d -= 1
        pn = node[d]
        a = nxt[d]
        if kind[pn] == DECISION and player[pn] == p:
            for i in range(n_p):
                cfv[d, a, i] = val[d + 1, i]
            if predict > 0:
                for i in range(n_p):
                    pcfv[d, a, i] = pval[d + 1, i]
        else:
            for i in range(n_p):
                val[d, i] += val[d + 1, i]
            if predict > 0:
                for i in range(n_p):
                    pval[d, i] += pval[d + 1, i]
        nxt[d] = a + 1
    out = 0.0
    for i in range(n_p):
        out += range_p[i] * val[0, i]
    return out, visited


@njit(cache=True, error_model="numpy")
def tree_depth(parent):
    """Depth of the deepest node (parents precede children)."""
    depth = np.zeros(len(parent), dtype=np.int64)
    for n in range(1, len(parent)):
        depth[n] = depth[parent[n]] + 1
    return depth.max()


@njit(cache=True, inline="always", error_model="numpy")
def _totals(src, o, na, n, tot, d):
    for i in range(n):
        tot[d, i] = 0.0
    for a in range(na):
        base = o + a * n
        for i in range(n):
            x = src[base + i]
            if x > 0.0:
                tot[d, i] += x


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
