"""The public-tree pass over the shape tree (:mod:`zerosum.public_tree.shapes`): each shape node
once, with vectors [rows x hands] laid out as the solver's entries are, so every loop is one
contiguous run (about 13 times fewer node visits on the poker family, loops Numba vectorizes).

The same pass as :func:`zerosum.public_tree.kernels.walk` (same operations, same order per
entry), with one change that saves a normalization per node and pass: the current strategy of
each player is *stored* (``strat``, kernel layout), rebuilt at a player's nodes right after its
regrets are updated, so the opponent's pass and the player's next pass read it instead of
recomputing it from the regrets.  Vectors live per row (a row is a public node), at
``row * width``; the hands of a shape node's rows are consecutive (stride = that player's hands).
Inner loops run over array views indexed from zero: Numba then knows no index is negative and
vectorizes them (indexing one big array at ``base + x`` runs about 7 times slower).
"""

from __future__ import annotations

from numba import njit

from .form import CHANCE_NODE, DECISION, FOLD
from .kernels import _terminal


@njit(cache=True, inline="always", error_model="numpy")
def _rank_row(y, v, r, p, folder, is_fold, st, bb, c, k):
    """:func:`zerosum.public_tree.kernels._ranks` on one row: opponent reach ``y``, values ``v``
    (views; they may be one: each reach is read before its value is written)."""
    total = 0.0
    for j in range(r):
        total += y[j]
    if is_fold:
        scale = (-st if folder == p else st) * c
        if bb < 0:
            kt = k * total
            for i in range(r):
                v[i] = scale * (kt - y[i])
            return
        ybb = y[bb]
        kk = k * k * total - k * ybb
        for i in range(r):
            v[i] = scale * (kk - k * y[i])
        a = k - 1
        v[bb] = scale * (k * a * total - k * ybb - a * ybb + ybb)
        return
    scale = st * c
    below = 0.0
    if bb < 0:
        for i in range(r):
            yi = y[i]
            above = total - below - yi
            v[i] = scale * k * (below - above)
            below += yi
        return
    ybb = y[bb]
    for i in range(r):
        if i == bb:
            continue
        yi = y[i]
        above = total - below - yi
        v[i] = scale * (k * k * (below - above) + k * ybb)
        below += yi
    above = total - below - ybb
    v[bb] = scale * (k * (k - 1) * (below - above))


@njit(cache=True, inline="always", error_model="numpy")
def _terminal_rows(r0, m, p, is_fold, row_player, row_stake, row_board, opp, ob, n_o, val, vb, n_p,
                   evaluator, weight, signed, cards, const, order, start, strength, cs, rin, rout):
    """Values of p's hands at the m public terminals of one shape node (rows r0 ..)."""
    for u in range(m):
        r = r0 + u
        y = opp[ob + u * n_o:ob + (u + 1) * n_o]
        v = val[vb + u * n_p:vb + (u + 1) * n_p]
        if evaluator == 2:
            _rank_row(y, v, n_p, p, row_player[r], is_fold, row_stake[r], start[row_board[r]], const[row_board[r]],
                      cards[0, 0])
        else:
            for j in range(n_o):
                rin[0, j] = y[j]
            _terminal(0, 0, p, row_player[r], is_fold, row_stake[r], row_board[r], rin, rout, evaluator, weight,
                      signed, cards, const, order, start, strength, cs)
            for i in range(n_p):
                v[i] = rout[0, i]


@njit(cache=True, inline="always", error_model="numpy")
def _copy(dst, src, w):
    for x in range(w):
        dst[x] = src[x]


@njit(cache=True, inline="always", error_model="numpy")
def _add(dst, src, w):
    for x in range(w):
        dst[x] += src[x]


@njit(cache=True, inline="always", error_model="numpy")
def _fan_out(buf, b, cb, m, f, n):
    """Row u of the node at b to rows u * f .. u * f + f - 1 of its child at cb."""
    for u in range(m):
        src = buf[b + u * n:b + (u + 1) * n]
        for t in range(f):
            d = cb + (u * f + t) * n
            _copy(buf[d:d + n], src, n)


@njit(cache=True, inline="always", error_model="numpy")
def _fan_in(buf, b, cb, m, f, n):
    """Row u of the node at b = the sum of rows u * f .. of its child at cb (in that order)."""
    for u in range(m):
        dst = buf[b + u * n:b + (u + 1) * n]
        d = cb + u * f * n
        _copy(dst, buf[d:d + n], n)
        for t in range(1, f):
            d = cb + (u * f + t) * n
            _add(dst, buf[d:d + n], n)


@njit(cache=True, error_model="numpy")
def shape_strategy(kind, player, n_children, mult, koff, q, n_q, src, strat, den):
    """``strat`` = regret matching (normalization) of ``src`` at every shape node of player q, as
    :func:`zerosum.public_tree.kernels._denominators` computes it."""
    for s in range(len(kind)):
        if kind[s] != 0 or player[s] != q:
            continue
        _normalize(src, strat, koff[s], n_children[s], mult[s] * n_q, den)


@njit(cache=True, inline="always", error_model="numpy")
def _denominators(src, o, na, w, den, uni):
    """Per entry of a block: den = the sum of the positive parts over the actions and uni = 0, or,
    where none is positive, den = 1 and uni = 1 / na (as the per-node pass)."""
    for x in range(w):
        den[x] = 0.0
    for a in range(na):
        sa = src[o + a * w:o + (a + 1) * w]
        for x in range(w):
            den[x] += max(sa[x], 0.0)
    u1 = 1.0 / na
    for x in range(w):
        t = den[x]
        uni[x] = 0.0 if t > 0.0 else u1
        den[x] = t if t > 0.0 else 1.0


@njit(cache=True, inline="always", error_model="numpy")
def _normalize(src, strat, o, na, w, den):
    d = den[:w]
    uni = den[w:2 * w]
    _denominators(src, o, na, w, d, uni)
    for a in range(na):
        sa = src[o + a * w:o + (a + 1) * w]
        ta = strat[o + a * w:o + (a + 1) * w]
        for x in range(w):
            ta[x] = max(sa[x], 0.0) / d[x] + uni[x]


@njit(cache=True, inline="always", error_model="numpy")
def _regret_rule(r, cfv, v, w, pre, pos, neg, floor):
    """:func:`zerosum.solvers.cfr.regret_update` on a run of entries, without a branch in the loop
    (x * 1.0 is x, so multiplying where the rule says nothing changes nothing: the same figures)."""
    if floor:
        for x in range(w):
            y = r[x] * pre + (cfv[x] - v[x])
            y = y * (pos if y >= 0.0 else neg)
            r[x] = 0.0 if y < 0.0 else y  # noqa: FURB136 (regret_update's own test, -0.0 kept)
    else:
        for x in range(w):
            y = r[x] * pre + (cfv[x] - v[x])
            r[x] = y * (pos if y >= 0.0 else neg)


@njit(cache=True, inline="always", error_model="numpy")
def _terminal_child(c, pb, m, f, sa, mul, p, n_o, n_p, kind, row, row_player, row_stake, row_board, opp, ty, tv,
                    evaluator, weight, signed, cards, const, order, start, strength, cs, rin, rout):
    """Values of p's hands at terminal shape node c, a child of the shape node whose opponent
    reach is at ``opp[pb:]`` (m rows): the child's reach (times ``sa`` where the opponent acts
    between, fanned out f times at a chance node) is built in ``ty``, the values go to ``tv``.
    Terminal rows are never stored in the pass's buffers."""
    w = m * n_o
    if f > 1:
        _fan_out_to(ty, opp[pb:pb + w], m, f, n_o)
    elif mul:
        src = opp[pb:pb + w]
        for x in range(w):
            ty[x] = src[x] * sa[x]
    else:
        _copy(ty, opp[pb:pb + w], w)
    _terminal_rows(row[c], m * f, p, kind[c] == FOLD, row_player, row_stake, row_board, ty, 0, n_o, tv, 0, n_p,
                   evaluator, weight, signed, cards, const, order, start, strength, cs, rin, rout)


@njit(cache=True, inline="always", error_model="numpy")
def _fan_out_to(dst, src, m, f, n):
    for u in range(m):
        s = src[u * n:(u + 1) * n]
        for t in range(f):
            d = (u * f + t) * n
            _copy(dst[d:d + n], s, n)


@njit(cache=True, error_model="numpy")
def shape_update(kind, player, first_child, n_children, fan, mult, row, vrow, koff, row_board, row_stake, row_player,
                 evaluator, weight, signed, cards, const, order, start, strength,
                 p, range_p, range_o, regrets_p, strat_p, strat_o, avg_p, avg_weight, pre, pos, neg, floor,
                 width, opp, own, val, den, cs, rin, rout, ty, tv, at):
    """One UPDATE pass for player p (regrets, average, and p's stored strategy rebuilt); returns
    sum_i range_p(i) * value_root(i).  ``strat_o`` must be regret matching on the opponent's
    current regrets, ``strat_p`` on p's.  Terminals are evaluated at their parents, into ``tv``
    (one block per action) from the reach built in ``ty``; the buffers hold inner nodes only
    (``vrow``: a shape node's first row among them)."""
    n_p = len(range_p)
    n_o = len(range_o)
    for j in range(n_o):
        opp[j] = range_o[j]
    for i in range(n_p):
        own[i] = range_p[i]
    n_s = len(kind)
    # where each shape node's reach vectors are: a child reads its parent's where they do not change
    po = at[:n_s]
    pw = at[n_s:2 * n_s]
    po[0] = 0
    pw[0] = 0
    if kind[0] >= FOLD:  # a game that ends at once
        _terminal_rows(0, 1, p, kind[0] == FOLD, row_player, row_stake, row_board, opp, 0, n_o, val, 0, n_p,
                       evaluator, weight, signed, cards, const, order, start, strength, cs, rin, rout)
    for s in range(n_s):
        k = kind[s]
        if k >= FOLD:
            continue
        m = mult[s]
        c0 = first_child[s]
        na = n_children[s]
        bo = po[s]
        bw = pw[s]
        wo = m * n_o
        wp = m * n_p
        if k == CHANCE_NODE and fan[s] > 1:
            cb = vrow[c0] * width
            po[c0] = cb
            pw[c0] = cb
            if kind[c0] < FOLD:
                _fan_out_to(opp[cb:], opp[bo:bo + wo], m, fan[s], n_o)
                _fan_out_to(own[cb:], own[bw:bw + wp], m, fan[s], n_p)
            continue
        if k == CHANCE_NODE:
            for a in range(na):
                po[c0 + a] = bo
                pw[c0 + a] = bw
            continue
        ro = opp[bo:bo + wo]
        rp = own[bw:bw + wp]
        o = koff[s]
        if player[s] != p:
            for a in range(na):
                c = c0 + a
                pw[c] = bw
                po[c] = bo
                if kind[c] >= FOLD:
                    continue
                cb = vrow[c] * width
                po[c] = cb
                dst = opp[cb:cb + wo]
                sa = strat_o[o + a * wo:o + (a + 1) * wo]
                for x in range(wo):
                    dst[x] = ro[x] * sa[x]
        else:
            for a in range(na):
                c = c0 + a
                po[c] = bo
                pw[c] = bw
                sa = strat_p[o + a * wp:o + (a + 1) * wp]
                av = avg_p[o + a * wp:o + (a + 1) * wp]
                if kind[c] >= FOLD:
                    for x in range(wp):
                        av[x] += avg_weight * (rp[x] * sa[x])
                    continue
                cb = vrow[c] * width
                pw[c] = cb
                dst = own[cb:cb + wp]
                for x in range(wp):
                    reach = rp[x] * sa[x]
                    dst[x] = reach
                    av[x] += avg_weight * reach
    for s in range(n_s - 1, -1, -1):
        k = kind[s]
        if k >= FOLD:
            continue
        m = mult[s]
        b = vrow[s] * width
        wp = m * n_p
        c0 = first_child[s]
        na = n_children[s]
        v = val[b:b + wp]
        if k == CHANCE_NODE and fan[s] > 1:
            f = fan[s]
            if kind[c0] >= FOLD:
                _terminal_child(c0, po[s], m, f, strat_o[0:0], False, p, n_o, n_p, kind, row, row_player, row_stake, row_board,
                                opp, ty, tv, evaluator, weight, signed, cards, const, order, start, strength, cs, rin,
                                rout)
                for u in range(m):
                    dst = v[u * n_p:(u + 1) * n_p]
                    _copy(dst, tv[u * f * n_p:(u * f + 1) * n_p], n_p)
                    for t in range(1, f):
                        _add(dst, tv[(u * f + t) * n_p:(u * f + t + 1) * n_p], n_p)
            else:
                _fan_in(val, b, vrow[c0] * width, m, f, n_p)
            continue
        mine = k == DECISION and player[s] == p
        o = koff[s]
        wo = m * n_o
        # the children's values: a view of val, or of tv where the child is a terminal
        for a in range(na):
            c = c0 + a
            if kind[c] >= FOLD:
                mul = k == DECISION and not mine
                sa = strat_o[o + a * wo:o + (a + 1) * wo] if mul else strat_o[0:0]
                _terminal_child(c, po[s], m, 1, sa, mul, p, n_o, n_p, kind, row, row_player, row_stake, row_board, opp,
                                ty, tv[a * wp:(a + 1) * wp], evaluator, weight, signed, cards, const, order, start,
                                strength, cs, rin, rout)
        if not mine:
            for a in range(na):
                c = c0 + a
                cb = vrow[c] * width
                cv = tv[a * wp:(a + 1) * wp] if kind[c] >= FOLD else val[cb:cb + wp]
                if a == 0:
                    _copy(v, cv, wp)
                else:
                    _add(v, cv, wp)
            continue
        for x in range(wp):
            v[x] = 0.0
        for a in range(na):
            c = c0 + a
            cb = vrow[c] * width
            cv = tv[a * wp:(a + 1) * wp] if kind[c] >= FOLD else val[cb:cb + wp]
            sa = strat_p[o + a * wp:o + (a + 1) * wp]
            for x in range(wp):
                v[x] += sa[x] * cv[x]
        for a in range(na):
            c = c0 + a
            cb = vrow[c] * width
            cv = tv[a * wp:(a + 1) * wp] if kind[c] >= FOLD else val[cb:cb + wp]
            _regret_rule(regrets_p[o + a * wp:o + (a + 1) * wp], cv, v, wp, pre, pos, neg, floor)
        _normalize(regrets_p, strat_p, o, na, wp, den)
    out = 0.0
    for i in range(n_p):
        out += range_p[i] * val[i]
    return out


@njit(cache=True, error_model="numpy")
def shape_nash_conv(kind, player, first_child, n_children, fan, mult, row, vrow, koff, row_board, row_stake, row_player,
                    evaluator, weight, signed, cards, const, order, start, strength,
                    range0, range1, src0, src1, width, r0, r1, e0, den, cs, rin, rout):
    """:func:`zerosum.public_tree.kernels.nash_conv_passes` over the shape tree (one hand count
    for both players): both players' reach down (strategies normalized from ``src0``/``src1`` on
    the way), then ``r0`` becomes player 1's best-response values, ``r1`` player 0's, ``e0``
    player 0's expected values.  Returns (br0, br1, value)."""
    n = len(range0)
    for i in range(n):
        r0[i] = range0[i]
        r1[i] = range1[i]
    n_s = len(kind)
    for s in range(n_s):
        k = kind[s]
        if k >= FOLD:
            continue
        m = mult[s]
        c0 = first_child[s]
        na = n_children[s]
        b = row[s] * width
        w = m * n
        if k == CHANCE_NODE and fan[s] > 1:
            cb = row[c0] * width
            _fan_out(r0, b, cb, m, fan[s], n)
            _fan_out(r1, b, cb, m, fan[s], n)
            continue
        if k == CHANCE_NODE:
            for a in range(na):
                cb = row[c0 + a] * width
                _copy(r0[cb:cb + w], r0[b:b + w], w)
                _copy(r1[cb:cb + w], r1[b:b + w], w)
            continue
        o = koff[s]
        q = player[s]
        src = src0 if q == 0 else src1
        mine = r0 if q == 0 else r1
        other = r1 if q == 0 else r0
        d = den[:w]
        uni = den[w:2 * w]
        _denominators(src, o, na, w, d, uni)
        rm = mine[b:b + w]
        for a in range(na):
            cb = row[c0 + a] * width
            dst = mine[cb:cb + w]
            sa = src[o + a * w:o + (a + 1) * w]
            for x in range(w):
                dst[x] = rm[x] * (max(sa[x], 0.0) / d[x] + uni[x])
            _copy(other[cb:cb + w], other[b:b + w], w)
    for s in range(n_s - 1, -1, -1):
        k = kind[s]
        m = mult[s]
        b = row[s] * width
        w = m * n
        if k >= FOLD:
            # r0 (player 0's reach) becomes player 1's values, r1 player 0's, in place
            _terminal_rows(row[s], m, 1, k == FOLD, row_player, row_stake, row_board, r0, b, n, r0, b, n,
                           evaluator, weight, signed, cards, const, order, start, strength, cs, rin, rout)
            _terminal_rows(row[s], m, 0, k == FOLD, row_player, row_stake, row_board, r1, b, n, r1, b, n,
                           evaluator, weight, signed, cards, const, order, start, strength, cs, rin, rout)
            _copy(e0[b:b + w], r1[b:b + w], w)
            continue
        c0 = first_child[s]
        na = n_children[s]
        if k == CHANCE_NODE and fan[s] > 1:
            cb = row[c0] * width
            _fan_in(r0, b, cb, m, fan[s], n)
            _fan_in(r1, b, cb, m, fan[s], n)
            _fan_in(e0, b, cb, m, fan[s], n)
            continue
        q = player[s] if k != CHANCE_NODE else -1
        v0 = r0[b:b + w]
        v1 = r1[b:b + w]
        ev = e0[b:b + w]
        cb = row[c0] * width
        _copy(v0, r0[cb:cb + w], w)
        _copy(v1, r1[cb:cb + w], w)
        if q != 0:
            _copy(ev, e0[cb:cb + w], w)
        for a in range(1, na):
            cb = row[c0 + a] * width
            c_0 = r0[cb:cb + w]
            c_1 = r1[cb:cb + w]
            if q == 1:
                for x in range(w):
                    v0[x] = max(v0[x], c_0[x])
            else:
                _add(v0, c_0, w)
            if q == 0:
                for x in range(w):
                    v1[x] = max(v1[x], c_1[x])
            else:
                _add(v1, c_1, w)
                _add(ev, e0[cb:cb + w], w)
        if q == 0:
            o = koff[s]
            d = den[:w]
            uni = den[w:2 * w]
            _denominators(src0, o, na, w, d, uni)
            for x in range(w):
                ev[x] = 0.0
            for a in range(na):
                cb = row[c0 + a] * width
                ce = e0[cb:cb + w]
                sa = src0[o + a * w:o + (a + 1) * w]
                for x in range(w):
                    ev[x] += (max(sa[x], 0.0) / d[x] + uni[x]) * ce[x]
    br0 = 0.0
    value = 0.0
    br1 = 0.0
    for i in range(n):
        br0 += range0[i] * r1[i]
        value += range0[i] * e0[i]
        br1 += range1[i] * r0[i]
    return br0, br1, value
