"""The public-tree pass over the shape tree (:mod:`zerosum.public_tree.shapes`): each shape node
once, with vectors [hands x rows] laid out as the solver's entries are, so every loop is one
contiguous run (poker 13x4 with 8 raises: 40 shape-node visits for 11,322 public nodes, loops
Numba vectorizes).

The pass of :func:`zerosum.public_tree.kernels.dfs_from` in float64 (the same operations per
entry as a per-node traversal; the tests check it against ``tests/pass_oracle.py`` and the
depth-first pass), with one change that saves a normalization per node and pass: the current strategy of
each player is *stored* (``strat``, kernel layout), rebuilt at a player's nodes right after its
regrets are updated, so the opponent's pass and the player's next pass read it instead of
recomputing it from the regrets.

A shape node's vector of m rows is one block, **hand-major**: hand i of row u at ``i * m + u``
(from ``vrow * width`` in the update pass, which keeps inner nodes only; from ``row * width`` in
NashConv).  Elementwise work does not care; the poker family's terminals do: the O(ranks) sweep
runs over hands in order, and with the rows innermost it runs over all m rows at once in SIMD
lanes (row-major, each row's 13-hand sweep would be a serial chain, half of the iteration).  Edge e
covers the child's rows from ``edge_row[e]``: one strided segment per hand where the child has
several entries, the whole block where it has one.

At a node of 2 or 3 children (every betting node of the poker family and of hold'em) each step
is one sweep over the block with the actions inside (:func:`_uown_update`, :func:`_usum`,
:func:`_unash_up`, :func:`_unormalize_sweep`): each child's values and each regret read once
instead of once per loop, the same operations per entry in the same order as the loops of the
general case, so the figures do not change.  An iteration is one call (:func:`shape_iteration`:
both players' passes), and the passes run without Numba's reference counting (see ``_pass``).

Arguments come in groups (:mod:`zerosum.public_tree.arrays`): the shape tree and its per-row
terminal constants (``ShapeArrays``), the evaluator's data (``TerminalArrays``), the regret rule
(``Rule``) and the pass's scratch (``ShapeScratch``).  Regret matching is
(:func:`~zerosum.public_tree.kernels.match`, :func:`~zerosum.public_tree.kernels.share`,
:func:`~zerosum.public_tree.kernels.matched`, :func:`~zerosum.public_tree.kernels.denominators`),
and a terminal row of the dense or sweep evaluator is
:func:`~zerosum.public_tree.evaluators.dispatch.terminal`, the depth-first pass's.
"""

from __future__ import annotations

from numba import njit, uint64

from .evaluators.dispatch import site, terminal
from .form import DECISION, FOLD
from .kernels import denominators, match, matched, share

#: the passes: compiled without Numba's reference counting (``_nrt=False``, the jit option that turns
#: the runtime off).  They allocate nothing and return no array, so counting only costs: each helper
#: inlined into a loop over shape nodes counts its array arguments up and down (atomic operations,
#: a few thousand per pass that the pruning pass leaves where a loop separates them), 8 % of an
#: iteration of poker 13x4x8 in a profile.
_pass = njit(cache=True, error_model="numpy", _nrt=False)


@_pass
def shape_strategy(sh, q, n_q, src, strat, den):
    """``strat`` = regret matching (normalization) of ``src`` at every shape node of player q, as
    :func:`zerosum.public_tree.kernels.denominators` computes it."""
    for s in range(len(sh.kind)):
        if sh.kind[s] != 0 or sh.player[s] != q:
            continue
        na, w = sh.n_children[s], sh.mult[s] * n_q
        if na == 2 or na == 3:
            _unormalize_sweep(src, strat, sh.koff[s], na, w)
        else:
            _normalize(src, strat, sh.koff[s], na, w, den)


@njit(cache=True, inline="always", error_model="numpy")
def _match2(strat, i0, i1, p0, p1, u1):
    """strat at entries i0, i1 = regret matching of the positive parts p0, p1
    (:func:`zerosum.public_tree.kernels.match`, :func:`~zerosum.public_tree.kernels.share`)."""
    d, uni = match((0.0 + p0) + p1, u1)
    strat[i0] = share(p0, d, uni)
    strat[i1] = share(p1, d, uni)


@njit(cache=True, inline="always", error_model="numpy")
def _match3(strat, i0, i1, i2, p0, p1, p2, u1):
    """:func:`_match2` for three actions."""
    d, uni = match(((0.0 + p0) + p1) + p2, u1)
    strat[i0] = share(p0, d, uni)
    strat[i1] = share(p1, d, uni)
    strat[i2] = share(p2, d, uni)


@njit(cache=True, inline="always", error_model="numpy")
def _unormalize_sweep(src, strat, o, na, w):
    """:func:`_normalize` at a node of 2 or 3 actions in one sweep (the same operations per entry,
    in the same order)."""
    uw = uint64(w)
    b0 = uint64(o)
    b1 = b0 + uw
    b2 = b1 + uw
    u1 = 1.0 / na
    if na == 2:
        for x in range(uw):
            p0 = max(src[b0 + x], 0.0)
            p1 = max(src[b1 + x], 0.0)
            _match2(strat, b0 + x, b1 + x, p0, p1, u1)
        return
    for x in range(uw):
        p0 = max(src[b0 + x], 0.0)
        p1 = max(src[b1 + x], 0.0)
        p2 = max(src[b2 + x], 0.0)
        _match3(strat, b0 + x, b1 + x, b2 + x, p0, p1, p2, u1)


@njit(cache=True, inline="always", error_model="numpy")
def _normalize(src, strat, o, na, w, den):
    """strat = regret matching of src over a node's block of w entries per action (the per-node
    pass's :func:`~zerosum.public_tree.kernels.denominators`; ``den`` 2 w floats of scratch)."""
    d = den[:w]
    uni = den[w:2 * w]
    denominators(src, o, na, w, d, uni)
    for a in range(na):
        b = o + a * w
        for x in range(w):
            strat[b + x] = matched(src[b + x], d[x], uni[x])


# --- the update pass: index arithmetic on unsigned integers ------------------------------------
# (views cost a reference count each, a call, where control flow keeps Numba from pruning it, and
# a signed index a check for negative values that stops vectorization; an unsigned one has neither)

@njit(cache=True, inline="always", error_model="numpy")
def _ucopy(dst, db, src, sb, w):
    d, s = uint64(db), uint64(sb)
    for x in range(uint64(w)):
        dst[d + x] = src[s + x]


@njit(cache=True, inline="always", error_model="numpy")
def _uadd(dst, db, src, sb, w):
    d, s = uint64(db), uint64(sb)
    for x in range(uint64(w)):
        dst[d + x] += src[s + x]


@njit(cache=True, inline="always", error_model="numpy")
def _umul(dst, db, src, sb, st, tb, w):
    d, s, t = uint64(db), uint64(sb), uint64(tb)
    for x in range(uint64(w)):
        dst[d + x] = src[s + x] * st[t + x]


@njit(cache=True, inline="always", error_model="numpy")
def _umul_add(dst, db, src, sb, st, tb, w, avg, aw):
    """:func:`_umul`, adding ``aw`` times each product to ``avg`` (indexed as ``st``) on the way."""
    d, s, t = uint64(db), uint64(sb), uint64(tb)
    for x in range(uint64(w)):
        reach = src[s + x] * st[t + x]
        dst[d + x] = reach
        avg[t + x] += aw * reach


@njit(cache=True, inline="always", error_model="numpy")
def _utheir_reach(dst, db, opp, ob, strat_o, so, w, averages, avg_o, aw):
    """The opponent's reach to an edge (:func:`_umul`), growing its average sums on the way where
    this pass does (``averages`` 1: :func:`_umul_add`)."""
    if averages == 1:
        _umul_add(dst, db, opp, ob, strat_o, so, w, avg_o, aw)
    else:
        _umul(dst, db, opp, ob, strat_o, so, w)


@njit(cache=True, inline="always", error_model="numpy")
def _uregret_den(r, rb, cfv, cb, v, vb, w, pre, pos, neg, floor, den):
    """:func:`zerosum.solvers.rules.regret_update` on a run of entries at offsets (unsigned), without
    a branch in the loop (x * 1.0 is x, so multiplying where the rule says nothing changes nothing:
    the same figures), adding each new regret's positive part to ``den`` on the way (the
    denominators of :func:`_unormalize_from`: one pass over the regrets less)."""
    if floor:
        for x in range(w):
            y = r[rb + x] * pre + (cfv[cb + x] - v[vb + x])
            y = y * (pos if y >= 0.0 else neg)
            r[rb + x] = 0.0 if y < 0.0 else y  # noqa: FURB136 (regret_update's own test, -0.0 kept)
            den[x] += max(r[rb + x], 0.0)
    else:
        for x in range(w):
            y = r[rb + x] * pre + (cfv[cb + x] - v[vb + x])
            r[rb + x] = y * (pos if y >= 0.0 else neg)
            den[x] += max(r[rb + x], 0.0)


@njit(cache=True, inline="always", error_model="numpy")
def _unormalize_from(src, strat, o, na, w, den):
    """:func:`_normalize` without views, ``den`` already holding the sums of the positive parts
    (:func:`_uregret_den`)."""
    uw = uint64(w)
    u1 = 1.0 / na
    for x in range(uw):
        d, u = match(den[x], u1)
        den[uw + x] = u
        den[x] = d
    for a in range(na):
        b = uint64(o + a * w)
        for x in range(uw):
            strat[b + x] = matched(src[b + x], den[x], den[uw + x])


@njit(cache=True, inline="always", error_model="numpy")
def _shape_node(sh, s):
    """(kind, rows, first edge, children, kernel offset) of shape node s."""
    return sh.kind[s], sh.mult[s], sh.first_edge[s], sh.n_children[s], sh.koff[s]


@njit(cache=True, inline="always", error_model="numpy")
def _usource(sh, e, a, wp, width, tv, val):
    """Where the values of edge e's child (action a) are: tv's block a (a terminal, or a child with
    several entries, gathered there) or the child's own rows in val."""
    c = sh.edge_child[e]
    if sh.kind[c] >= FOLD or sh.entries[c] > 1:
        return tv, uint64(a * wp)
    return val, uint64(sh.vrow[c] * width)


@njit(cache=True, inline="always", error_model="numpy")
def _uregret(r, i, cfv, v, pre, pos, neg, floor):
    """:func:`zerosum.solvers.rules.regret_update` on one entry (as :func:`_uregret_den`); returns the
    positive part of the regret as stored."""
    y = r[i] * pre + (cfv - v)
    y = y * (pos if y >= 0.0 else neg)
    r[i] = 0.0 if (floor and y < 0.0) else y  # (-0.0 kept, as regret_update)
    return max(r[i], 0.0)


@njit(cache=True, inline="always", error_model="numpy")
def _usum(val, ub, uw, g0, q0, g1, q1, g2, q2, na):
    """val = the sum of 2 or 3 actions' values in one sweep (as a copy and adds would)."""
    if na == 2:
        for x in range(uw):
            val[ub + x] = g0[q0 + x]
            val[ub + x] = val[ub + x] + g1[q1 + x]
        return
    for x in range(uw):
        val[ub + x] = g0[q0 + x]
        val[ub + x] = val[ub + x] + g1[q1 + x]
        val[ub + x] = val[ub + x] + g2[q2 + x]


@njit(cache=True, inline="always", error_model="numpy")
def _uown_update(val, ub, uw, strat, regrets, sb, g0, q0, g1, q1, g2, q2, na, pre, pos, neg, floor):
    """At a node of 2 or 3 actions, the node's values, regret updates and the rebuilt strategy in
    one sweep (each action's value read once), the same operations per entry, in the same order,
    as the separate loops (val, :func:`_uregret_den`, :func:`_unormalize_from`); stores are read
    back where the loops read them (a float32 array rounds what it holds)."""
    s1 = sb + uw
    s2 = s1 + uw
    u1 = 1.0 / na
    if na == 2:
        for x in range(uw):
            a0 = g0[q0 + x]
            a1 = g1[q1 + x]
            val[ub + x] = 0.0 + strat[sb + x] * a0
            val[ub + x] = val[ub + x] + strat[s1 + x] * a1
            v = val[ub + x]
            p0 = _uregret(regrets, sb + x, a0, v, pre, pos, neg, floor)
            p1 = _uregret(regrets, s1 + x, a1, v, pre, pos, neg, floor)
            _match2(strat, sb + x, s1 + x, p0, p1, u1)
        return
    for x in range(uw):
        a0 = g0[q0 + x]
        a1 = g1[q1 + x]
        a2 = g2[q2 + x]
        val[ub + x] = 0.0 + strat[sb + x] * a0
        val[ub + x] = val[ub + x] + strat[s1 + x] * a1
        val[ub + x] = val[ub + x] + strat[s2 + x] * a2
        v = val[ub + x]
        p0 = _uregret(regrets, sb + x, a0, v, pre, pos, neg, floor)
        p1 = _uregret(regrets, s1 + x, a1, v, pre, pos, neg, floor)
        p2 = _uregret(regrets, s2 + x, a2, v, pre, pos, neg, floor)
        _match3(strat, sb + x, s1 + x, s2 + x, p0, p1, p2, u1)


@njit(cache=True, inline="always", error_model="numpy")
def _ustrided(dst, db, ds, src, sb, ss, m, n):
    """n runs of m entries, run i from src[sb + i * ss:] to dst[db + i * ds:]; one copy where both
    sides are contiguous (strides m)."""
    if ds == m and ss == m:
        _ucopy(dst, db, src, sb, n * m)
        return
    for i in range(n):
        _ucopy(dst, db + i * ds, src, sb + i * ss, m)


@njit(cache=True, inline="always", error_model="numpy")
def _useg(dst, db, mc, er, src, sb, m, n):
    """The block [n x m] at src[sb:] to rows er .. er + m - 1 of the block [n x mc] at dst[db:]."""
    _ustrided(dst, db + er, mc, src, sb, m, m, n)


@njit(cache=True, inline="always", error_model="numpy")
def _ugather(dst, db, src, sb, mc, er, m, n):
    """Rows er .. er + m - 1 of the block [n x mc] at src[sb:] to the block [n x m] at dst[db:]."""
    _ustrided(dst, db, m, src, sb + er, mc, m, n)


@njit(cache=True, inline="always", error_model="numpy")
def _urank_block(y, yb, v, vb, sm, m, r, p, is_fold, r0, rowc, k, tt):
    """:func:`zerosum.public_tree.evaluators.rank.rank_values` on m rows at once (rows r0 .., hand i of row u at ``i * sm + u`` from
    ``yb`` / ``vb``): the same operations per row, in the same order, with the rows in the inner
    loops.  ``rowc`` holds per row the showdown scale, the fold scales for players 0 and 1 and the
    public card's rank (-1: none), as ``rank_terminal`` computes them (:func:`shapes.rank_rows`); that rank may
    differ between the m rows, but not whether there is one (the caller cuts the runs)."""
    nr = len(rowc) // 4
    um, ur, us, ub, wb = uint64(m), uint64(r), uint64(sm), uint64(yb), uint64(vb)
    total = tt[:m]
    run = tt[m:2 * m]
    ybb = tt[2 * m:3 * m]
    q = (1 + p) if is_fold else 0
    scale = rowc[q * nr + r0:q * nr + r0 + m]
    fbb = rowc[3 * nr + r0:3 * nr + r0 + m]
    for u in range(um):
        total[u] = 0.0
        run[u] = 0.0
    for j in range(ur):
        for u in range(um):
            total[u] += y[ub + j * us + u]
    paired = fbb[0] >= 0.0
    if paired:
        for u in range(um):
            ybb[u] = y[ub + uint64(fbb[u]) * us + u]
    if is_fold:
        if not paired:
            for u in range(um):
                run[u] = k * total[u]
            for i in range(ur):
                for u in range(um):
                    v[wb + i * us + u] = scale[u] * (run[u] - y[ub + i * us + u])
            return
        for u in range(um):
            run[u] = k * k * total[u] - k * ybb[u]
        for i in range(ur):
            for u in range(um):
                v[wb + i * us + u] = scale[u] * (run[u] - k * y[ub + i * us + u])
        a = k - 1
        for u in range(um):
            t, yb_ = total[u], ybb[u]
            v[wb + uint64(fbb[u]) * us + u] = scale[u] * (k * a * t - k * yb_ - a * yb_ + yb_)
        return
    if not paired:
        for i in range(ur):
            for u in range(um):
                yi = y[ub + i * us + u]
                below = run[u]
                above = total[u] - below - yi
                v[wb + i * us + u] = scale[u] * k * (below - above)
                run[u] = below + yi
        return
    kk = k * k
    for i in range(ur):
        fi = float(i)
        for u in range(um):
            yi = y[ub + i * us + u]
            below = run[u]
            above = total[u] - below - yi
            v[wb + i * us + u] = scale[u] * (kk * (below - above) + k * ybb[u])
            run[u] = below if fi == fbb[u] else below + yi  # the paired hand is above everyone
    for u in range(um):
        below = run[u]
        above = total[u] - below - ybb[u]
        v[wb + uint64(fbb[u]) * us + u] = scale[u] * (k * (k - 1) * (below - above))


@njit(cache=True, inline="always", error_model="numpy")
def _uterminals(r0, m, p, is_fold, sh, y, yb, v, vb, n_o, n_p, term, scratch):
    """Values of p's hands (block [n_p x m] into ``v`` from ``vb``) at the m public terminals of
    one edge (rows r0 ..), the opponent's reach a block [n_o x m] in ``y`` from ``yb``."""
    rowc, rin, rout, tt = sh.rowc, scratch.rin, scratch.rout, scratch.tt
    if term.evaluator == 2:
        kc = term.cards[0, 0]
        nr = len(rowc) // 4
        u0 = 0
        while u0 < m:  # runs of rows with a public card or without
            paired = rowc[3 * nr + r0 + u0] >= 0.0
            u1 = u0 + 1
            while u1 < m and (rowc[3 * nr + r0 + u1] >= 0.0) == paired:
                u1 += 1
            _urank_block(y, yb + u0, v, vb + u0, m, u1 - u0, n_p, p, is_fold, r0 + u0, rowc, kc, tt)
            u0 = u1
        return
    for u in range(m):
        r = r0 + u
        for j in range(n_o):
            rin[0, j] = y[yb + j * m + u]
        terminal(site(0, 0, p, sh.row_player[r], is_fold, sh.row_stake[r], sh.row_board[r]), rin, rout, term, scratch.cs)
        for i in range(n_p):
            v[vb + i * m + u] = rout[0, i]


@_pass
def shape_update(sh, term, p, range_p, range_o, regrets_p, strat_p, strat_o, avg_p, avg_weight, avg_o, averages, rule,
                 width, opp, own, val, scratch):
    """One UPDATE pass for player p (regrets, average, and p's stored strategy rebuilt); returns
    sum_i range_p(i) * value_root(i).  ``strat_o`` must be regret matching on the opponent's
    current regrets, ``strat_p`` on p's.  ``averages``: 0, p's average sums grow here (by
    ``avg_weight`` times p's reach); 1, the opponent's (``avg_o``) too, from the opponent's reach
    this pass computes anyway; 2, p's were added by the opponent's pass just before (p's reach
    needs no computing).  With alternating updates, player 1's reach in its own pass is the one
    player 0's pass computed (the same products in the same order, strat_1 unchanged between
    them), so 1 then 2 is the same run as 0 then 0 with one reach computation less.  Terminals are evaluated at their parents, into ``tv``
    (one block per action) from the reach built in ``ty``, and so are the values of a child with
    several entries (gathered from its rows); the buffers hold inner nodes only (``vrow``: a
    shape node's first row among them), and a child with a single entry whose reach vector does
    not change reads its parent's (``at``: where each shape node's reach vectors are)."""
    kind, player, edge_child, edge_row, entries, mult, row, vrow = (sh.kind, sh.player, sh.edge_child, sh.edge_row,
                                                                    sh.entries, sh.mult, sh.row, sh.vrow)
    pre, pos, neg, floor = rule
    den, ty, tv, at = scratch.den, scratch.ty, scratch.tv, scratch.at
    n_p = len(range_p)
    n_o = len(range_o)
    for j in range(n_o):
        opp[j] = range_o[j]
    for i in range(n_p):
        own[i] = range_p[i]
    n_s = len(kind)
    po = at[:n_s]
    pw = at[n_s:2 * n_s]
    po[0] = 0
    pw[0] = 0
    if kind[0] >= FOLD:  # a game that ends at once
        _uterminals(0, 1, p, kind[0] == FOLD, sh, opp, 0, val, 0, n_o, n_p, term, scratch)
    for s in range(n_s):
        k, m, e0, na, o = _shape_node(sh, s)
        if k >= FOLD:
            continue
        bo = po[s]
        bw = pw[s]
        wo = m * n_o
        wp = m * n_p
        mine = k == DECISION and player[s] == p
        theirs = k == DECISION and not mine
        for a in range(na):
            c = edge_child[e0 + a]
            if kind[c] >= FOLD:  # terminals read the parent's reach
                if mine and averages != 2:
                    sb = uint64(o + a * wp)
                    ub = uint64(bw)
                    for x in range(uint64(wp)):
                        avg_p[sb + x] += avg_weight * (own[ub + x] * strat_p[sb + x])
                continue
            er = edge_row[e0 + a]
            mc = mult[c]
            cb = vrow[c] * width
            copy = entries[c] > 1
            po[c] = cb if (copy or theirs) else bo
            pw[c] = cb if (copy or mine) else bw
            if theirs:
                _utheir_reach(ty if copy else opp, 0 if copy else cb, opp, bo, strat_o, o + a * wo, wo, averages, avg_o,
                              avg_weight)
                if copy:
                    _useg(opp, cb, mc, er, ty, 0, m, n_o)
            elif copy:
                _useg(opp, cb, mc, er, opp, bo, m, n_o)
            if averages == 2:
                continue
            if mine:
                _umul_add(ty if copy else own, 0 if copy else cb, own, bw, strat_p, o + a * wp, wp, avg_p, avg_weight)
                if copy:
                    _useg(own, cb, mc, er, ty, 0, m, n_p)
            elif copy:
                _useg(own, cb, mc, er, own, bw, m, n_p)
    for s in range(n_s - 1, -1, -1):
        k, m, e0, na, o = _shape_node(sh, s)
        if k >= FOLD:
            continue
        b = vrow[s] * width
        wp = m * n_p
        wo = m * n_o
        mine = k == DECISION and player[s] == p
        # terminal children: their values into tv (block a), from the parent's reach; children
        # with several entries: their values gathered there
        for a in range(na):
            c = edge_child[e0 + a]
            if kind[c] < FOLD:
                if entries[c] > 1:
                    _ugather(tv, a * wp, val, vrow[c] * width, mult[c], edge_row[e0 + a], m, n_p)
                continue
            r0 = row[c] + edge_row[e0 + a]
            if k == DECISION and not mine:
                _utheir_reach(ty, 0, opp, po[s], strat_o, o + a * wo, wo, averages, avg_o, avg_weight)
                _uterminals(r0, m, p, kind[c] == FOLD, sh, ty, 0, tv, a * wp, n_o, n_p, term, scratch)
            else:  # the same reach as the parent's: read in place
                _uterminals(r0, m, p, kind[c] == FOLD, sh, opp, po[s], tv, a * wp, n_o, n_p, term, scratch)
        ub = uint64(b)
        uw = uint64(wp)
        if na == 2 or na == 3:  # one sweep (see _uown_update)
            g0, q0 = _usource(sh, e0, 0, wp, width, tv, val)
            g1, q1 = _usource(sh, e0 + 1, 1, wp, width, tv, val)
            g2, q2 = _usource(sh, e0 + na - 1, na - 1, wp, width, tv, val)
            if not mine:
                _usum(val, ub, uw, g0, q0, g1, q1, g2, q2, na)
                continue
            if floor:  # (a constant in each copy: no test per entry)
                _uown_update(val, ub, uw, strat_p, regrets_p, uint64(o), g0, q0, g1, q1, g2, q2, na, pre, pos, neg, True)
            else:
                _uown_update(val, ub, uw, strat_p, regrets_p, uint64(o), g0, q0, g1, q1, g2, q2, na, pre, pos, neg,
                             False)
            continue
        if not mine:
            for a in range(na):
                src, cv = _usource(sh, e0 + a, a, wp, width, tv, val)
                if a == 0:
                    _ucopy(val, b, src, cv, wp)
                else:
                    _uadd(val, b, src, cv, wp)
            continue
        for x in range(uw):
            val[ub + x] = 0.0
        for a in range(na):
            sb = uint64(o + a * wp)
            src, cv = _usource(sh, e0 + a, a, wp, width, tv, val)
            for x in range(uw):
                val[ub + x] += strat_p[sb + x] * src[cv + x]
        for x in range(uw):
            den[x] = 0.0
        for a in range(na):
            sb = uint64(o + a * wp)
            src, cv = _usource(sh, e0 + a, a, wp, width, tv, val)
            _uregret_den(regrets_p, sb, src, cv, val, ub, uw, pre, pos, neg, floor, den)
        _unormalize_from(regrets_p, strat_p, o, na, wp, den)
    out = 0.0
    for i in range(n_p):
        out += range_p[i] * val[i]
    return out


@_pass
def shape_iteration(sh, term, range0, range1, regrets0, regrets1, strat0, strat1, avg0, avg1, avg_weight, rule, width,
                    opp, own, val, scratch):
    """One iteration of alternating updates, both players' :func:`shape_update` passes in one call
    (one crossing from Python instead of two: each costs the unboxing of the arguments):
    player 0's pass grows both players' average sums (``averages`` 1), player 1's then none (2).
    Returns (player 0's value, player 1's value) as the two passes do."""
    v0 = shape_update(sh, term, 0, range0, range1, regrets0, strat0, strat1, avg0, avg_weight, avg1, 1, rule, width,
                      opp, own, val, scratch)
    v1 = shape_update(sh, term, 1, range1, range0, regrets1, strat1, strat0, avg1, avg_weight, avg0, 2, rule, width,
                      opp, own, val, scratch)
    return v0, v1


@njit(cache=True, inline="always", error_model="numpy")
def _nsource(sh, e, a, w, width, tv, v0, v1, e0):
    """Where edge e's child (action a) has its three NashConv value vectors (v0, v1, e0): tv's
    blocks (a terminal: its e0 is its v1; a child with several entries: gathered there) or the
    child's own rows."""
    c = sh.edge_child[e]
    t = uint64(3 * a * w)
    uw = uint64(w)
    if sh.kind[c] >= FOLD:
        return tv, t, tv, t + uw, tv, t + uw
    if sh.entries[c] > 1:
        return tv, t, tv, t + uw, tv, t + uw + uw
    b = uint64(sh.vrow[c] * width)
    return v0, b, v1, b, e0, b


@njit(cache=True, inline="always", error_model="numpy")
def _unash_up(q, na, v0, v1, e0, ub, uw, strat0, o, a0, x0, a1, x1, a2, x2, b0, y0, b1, y1, b2, y2, c0, z0, c1, z1,
              c2, z2):
    """At a node of 2 or 3 children, its three NashConv value vectors in one sweep: v0 (player 1's
    best response: the max at player 1's nodes, the sum elsewhere), v1 (player 0's: the max at
    player 0's), e0 (player 0's expected values: its strategy's mean at its nodes, the sum
    elsewhere), the same operations per entry, in the same order, as the separate loops."""
    if q == 0:
        s0 = uint64(o)
        s1 = s0 + uw
        s2 = s1 + uw
        if na == 2:
            for x in range(uw):
                v0[ub + x] = a0[x0 + x] + a1[x1 + x]
                v1[ub + x] = max(b0[y0 + x], b1[y1 + x])
                e0[ub + x] = (0.0 + strat0[s0 + x] * c0[z0 + x]) + strat0[s1 + x] * c1[z1 + x]
            return
        for x in range(uw):
            v0[ub + x] = (a0[x0 + x] + a1[x1 + x]) + a2[x2 + x]
            v1[ub + x] = max(max(b0[y0 + x], b1[y1 + x]), b2[y2 + x])
            e0[ub + x] = ((0.0 + strat0[s0 + x] * c0[z0 + x]) + strat0[s1 + x] * c1[z1 + x]) + strat0[s2 + x] * c2[z2 + x]
        return
    best = q == 1
    if na == 2:
        for x in range(uw):
            g, h = a0[x0 + x], a1[x1 + x]
            v0[ub + x] = max(g, h) if best else g + h
            v1[ub + x] = b0[y0 + x] + b1[y1 + x]
            e0[ub + x] = c0[z0 + x] + c1[z1 + x]
        return
    for x in range(uw):
        g, h, k = a0[x0 + x], a1[x1 + x], a2[x2 + x]
        v0[ub + x] = max(max(g, h), k) if best else (g + h) + k
        v1[ub + x] = (b0[y0 + x] + b1[y1 + x]) + b2[y2 + x]
        e0[ub + x] = (c0[z0 + x] + c1[z1 + x]) + c2[z2 + x]


@_pass
def shape_nash_conv(sh, term, range0, range1, strat0, strat1, width, r0, r1, v0, v1, e0, scratch):
    """Both best responses and player 0's value over the shape tree in one traversal (one hand
    count for both players): both players' reach down (``r0``, ``r1``: the strategies ``strat0`` /
    ``strat1``, kernel layout, as :func:`shape_strategy` normalizes them), then up ``v0`` player
    1's best-response values, ``v1`` player 0's, ``e0`` player 0's expected values.  As in
    :func:`shape_update`, the buffers hold inner nodes only (from ``vrow``), a child with a single
    entry whose reach does not change reads its parent's (``at``), and terminals are evaluated at
    their parents, into ``tv`` (three blocks per action: v0, v1 and e0, which at a terminal is v1)
    from the reach built in ``ty``.  Returns (br0, br1, value)."""
    kind, player, edge_child, edge_row, entries, mult, row, vrow = (sh.kind, sh.player, sh.edge_child, sh.edge_row,
                                                                    sh.entries, sh.mult, sh.row, sh.vrow)
    ty, tv, at = scratch.ty, scratch.tv, scratch.at
    n = len(range0)
    n_s = len(kind)
    for i in range(n):
        r0[i] = range0[i]
        r1[i] = range1[i]
    p0 = at[:n_s]
    p1 = at[n_s:2 * n_s]
    p0[0] = 0
    p1[0] = 0
    if kind[0] >= FOLD:  # a game that ends at once
        _uterminals(0, 1, 1, kind[0] == FOLD, sh, r0, 0, v0, 0, n, n, term, scratch)
        _uterminals(0, 1, 0, kind[0] == FOLD, sh, r1, 0, v1, 0, n, n, term, scratch)
        _ucopy(e0, 0, v1, 0, n)
    for s in range(n_s):
        k, m, f0, na, o = _shape_node(sh, s)
        if k >= FOLD:
            continue
        w = m * n
        q = player[s] if k == DECISION else -1
        strat = strat0 if q == 0 else strat1
        for a in range(na):
            c = edge_child[f0 + a]
            if kind[c] >= FOLD:
                continue
            er = edge_row[f0 + a]
            mc = mult[c]
            cb = vrow[c] * width
            copy = entries[c] > 1
            for side in range(2):
                rr = r0 if side == 0 else r1
                pp = p0 if side == 0 else p1
                b = pp[s]
                if side == q:
                    pp[c] = cb
                    if copy:
                        _umul(ty, 0, rr, b, strat, o + a * w, w)
                        _useg(rr, cb, mc, er, ty, 0, m, n)
                    else:
                        _umul(rr, cb, rr, b, strat, o + a * w, w)
                elif copy:
                    pp[c] = cb
                    _useg(rr, cb, mc, er, rr, b, m, n)
                else:
                    pp[c] = b
    for s in range(n_s - 1, -1, -1):
        k, m, f0, na, o = _shape_node(sh, s)
        if k >= FOLD:
            continue
        w = m * n
        b = vrow[s] * width
        q = player[s] if k == DECISION else -1
        # the children's three value blocks: terminals evaluated, several entries gathered, into tv
        for a in range(na):
            c = edge_child[f0 + a]
            t = 3 * a * w
            if kind[c] < FOLD:
                if entries[c] > 1:
                    cb, er, mc = vrow[c] * width, edge_row[f0 + a], mult[c]
                    _ugather(tv, t, v0, cb, mc, er, m, n)
                    _ugather(tv, t + w, v1, cb, mc, er, m, n)
                    _ugather(tv, t + 2 * w, e0, cb, mc, er, m, n)
                continue
            r_0 = row[c] + edge_row[f0 + a]
            fold = kind[c] == FOLD
            if q == 0:  # r0 changes on the way to the child
                _umul(ty, 0, r0, p0[s], strat0, o + a * w, w)
                _uterminals(r_0, m, 1, fold, sh, ty, 0, tv, t, n, n, term, scratch)
            else:
                _uterminals(r_0, m, 1, fold, sh, r0, p0[s], tv, t, n, n, term, scratch)
            if q == 1:
                _umul(ty, 0, r1, p1[s], strat1, o + a * w, w)
                _uterminals(r_0, m, 0, fold, sh, ty, 0, tv, t + w, n, n, term, scratch)
            else:
                _uterminals(r_0, m, 0, fold, sh, r1, p1[s], tv, t + w, n, n, term, scratch)
        ub = uint64(b)
        uw = uint64(w)
        if na == 2 or na == 3:  # one sweep (see _unash_up)
            a0, x0, b0, y0, c0, z0 = _nsource(sh, f0, 0, w, width, tv, v0, v1, e0)
            a1, x1, b1, y1, c1, z1 = _nsource(sh, f0 + 1, 1, w, width, tv, v0, v1, e0)
            a2, x2, b2, y2, c2, z2 = _nsource(sh, f0 + na - 1, na - 1, w, width, tv, v0,
                                              v1, e0)
            _unash_up(q, na, v0, v1, e0, ub, uw, strat0, o, a0, x0, a1, x1, a2, x2, b0, y0, b1, y1, b2, y2, c0, z0, c1,
                      z1, c2, z2)
            continue
        for a in range(na):
            src, c0, s1, c1, se, ce = _nsource(sh, f0 + a, a, w, width, tv, v0, v1, e0)
            if a == 0:
                _ucopy(v0, b, src, c0, w)
                _ucopy(v1, b, s1, c1, w)
                if q != 0:
                    _ucopy(e0, b, se, ce, w)
                continue
            if q == 1:
                for x in range(uw):
                    v0[ub + x] = max(v0[ub + x], src[c0 + x])
            else:
                _uadd(v0, b, src, c0, w)
            if q == 0:
                for x in range(uw):
                    v1[ub + x] = max(v1[ub + x], s1[c1 + x])
            else:
                _uadd(v1, b, s1, c1, w)
                _uadd(e0, b, se, ce, w)
        if q == 0:
            for x in range(uw):
                e0[ub + x] = 0.0
            for a in range(na):
                _, _, _, _, se, ce = _nsource(sh, f0 + a, a, w, width, tv, v0, v1, e0)
                sb = uint64(o + a * w)
                for x in range(uw):
                    e0[ub + x] += strat0[sb + x] * se[ce + x]
    br0 = 0.0
    value = 0.0
    br1 = 0.0
    for i in range(n):
        br0 += range0[i] * v1[i]
        value += range0[i] * e0[i]
        br1 += range1[i] * v0[i]
    return br0, br1, value
