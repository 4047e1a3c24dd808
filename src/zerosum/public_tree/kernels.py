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
through :func:`~zerosum.public_tree.rows.row_grown`, :func:`~zerosum.public_tree.rows.row_decoded_regrets` and :func:`_encode_node`), suit
isomorphism's mirrors (:func:`_mirror_add`), the terminal batches (:func:`batch_terminals`) and the
cut (``cut``): :class:`zerosum.public_tree.passes.Workspace` runs a threaded pass in three calls,
the trunk down to the first chance nodes (``cut=1``), their subtrees in :func:`cut_thread` (one
call per Python thread, the GIL released, one depth-first scratch each), the trunk up from their
values (``cut=2``), with the same figures bit for bit (see :func:`dfs_from` and
:func:`cut_values`); the Ray split runs the same three parts with its workers for the threads
(:mod:`zerosum.public_tree.split`).  It is the only traversal of the public tree: every solver,
best response and NashConv runs it.  The tests check it against a plain per-node traversal
(``tests/pass_oracle.py``).

Every call takes the tree as a :class:`~zerosum.public_tree.arrays.TreeArrays`, the evaluator's
data as a :class:`~zerosum.public_tree.arrays.TerminalArrays`, the variant's regret rule as a
:class:`~zerosum.public_tree.arrays.Rule` and its scratch from the caller
(:class:`~zerosum.public_tree.arrays.DepthScratch`), so it compiles without reference counting
(``_node_pass`` says why).  Its pieces: the terminals through
:func:`~zerosum.public_tree.evaluators.dispatch.leaf_values` (the one place the pass reaches an
evaluator), and the loops over hands as the row helpers of :mod:`zerosum.public_tree.rows`
(regret matching, the average, the regret rule as selects on 1-D rows: vectorized, see there;
regret matching divides in the solver's dtype, so a float32 run stays float32).

The pass in detail (:func:`dfs_from`).  It runs for player ``step.p`` (a
:class:`~zerosum.public_tree.arrays.Step`) over the subtree of ``at.n0`` (a
:class:`~zerosum.public_tree.arrays.Cut`), reading and writing ``sums`` (a
:class:`~zerosum.public_tree.arrays.Sums`).  Vectors live per depth (reach down, value up, and at
p's nodes one value vector per action) in ``sc`` (a
:class:`~zerosum.public_tree.arrays.DepthScratch`, the prediction's vectors one depth deep where
there is none), so memory is O(depth x hands), the pass allocates nothing and runs without reference
counting.  Returns (sum_i range_p(i) * value_root(i), public nodes visited, those of them pruned).

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
always.  ``dtype="avg16"``: the average's sums alone are 16-bit (uint16, the scales' second
row), the regrets float32 and updated as in the float pass (:func:`_holds_integers` tells the
two apart when the pass compiles), so the regrets, and every strategy played, are the float32
run's bit for bit.  No rows: the sums are floats and the pass is the float pass, figure for figure.

All-in runouts (``tree.runout``, where the tree has rows): a chance node whose children are all
showdowns at one stake is not entered; p's values there are one product of a matrix with the
opponent's reach (:func:`_enter_runout`, :mod:`zerosum.public_tree.evaluators.runouts`), its
showdowns counted as visited.  The same values as its showdowns one at a time and its mirrors,
to rounding (the sums run in another order).

Pruning (``step.prune`` in UPDATE mode): below an opponent's action that has probability zero
for every hand of its range at that node (its reach vector all zero: :func:`_all_zero`), every
value of p is zero, so the work that only feeds those values is skipped: terminals (single or
whole batches) are zero, the opponent's totals and reach rows and the mirror deals are not
computed; p's nodes are still walked (the regret rule with zero instantaneous regrets, the
average with p's own reach, 16-bit encoding, a prediction), so the figures are the unpruned
pass's (values may differ in the sign of a zero).  ``dead`` is the depth where the opponent's
reach became zero (-1: none).  Returns a third count: the node visits below it (``pruned``).
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic, overload

from .arrays import Cut, DepthScratch
from .evaluators.batches import batch_terminals
from .evaluators.dense import dense_values
from .evaluators.dispatch import leaf_values, site
from .form import CHANCE_NODE, DECISION, FOLD
from .rows import (
    row_add,
    row_copy,
    row_decoded_regrets,
    row_grown,
    row_mean,
    row_own,
    row_reach,
    row_regrets,
    row_totals,
    row_zero,
)
from .simd import abs_max

UPDATE, BEST_RESPONSE, EXPECT = 0, 1, 2

#: The shared pieces are inlined (``inline="always"``): called instead, each call passes the
#: tree's and the evaluator's named tuples, which costs the passes more than the shorter compile
#: saves (docs/public-tree.md, "History of the kernels' figures").
#: The depth-first pass: compiled without Numba's reference counting (``_nrt=False``; its
#: scratch comes in a DepthScratch, so it allocates nothing), because each
#: shared piece inlined into the loop over nodes would otherwise count its array arguments up and
#: down at every node.
_node_pass = njit(cache=True, error_model="numpy", _nrt=False)


# --- the root's reach and value ------------------------------------------------------------------

@njit(cache=True, inline="always", error_model="numpy")
def root_reach(r, rng):
    """Row 0 of r = the range rng (the root's reach)."""
    for j in range(len(rng)):
        r[0, j] = rng[j]


@njit(cache=True, inline="always", error_model="numpy")
def root_value(rng, val, row):
    """sum_i rng(i) * val[row, i]: a player's expected payoff from its root values."""
    out = 0.0
    for i in range(len(rng)):
        out += rng[i] * val[row, i]
    return out


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
def _row_grown_codes(reach, codes, scale, own, rblk, tt, n, u1, wd, inv):
    """dtype avg16, one action at p's node: ``reach`` = p's own reach times the action's
    probability (what :func:`~zerosum.public_tree.rows.row_reach` gives the child, bit for bit),
    and the action's average sums ``codes * scale`` plus ``wd`` times it, encoded again at
    ``1 / inv`` (a half added, then truncated: the nearest integer, the sums being non-negative;
    at most 65535).  Returns the largest code written."""
    top = 0
    for i in range(n):
        x = rblk[i]
        t = tt[i]
        q = x / t
        s = q if x > 0.0 else 0.0
        r = own[i] * (s if t > 0.0 else u1)
        reach[i] = r
        c = min(np.int32((codes[i] * scale + wd * r) * inv + 0.5), 65535)
        codes[i] = c
        top = max(top, c)
    return top


@njit(cache=True, inline="always", error_model="numpy")
def _grow_average16(sums, sc, d, n, o, na, n_p, wd):
    """dtype avg16, p's node n entered in UPDATE mode: its average sums grown by ``wd`` times p's
    reach to each action and encoded again in one pass over the block (no second pass for the
    largest entry: the new scale is a bound, the block's last largest value, ``scales[0, n]``, plus
    ``wd`` times p's largest reach here); each action's child reach into ``cfv[d, a]`` for
    :func:`_descend`.  Then ``scales[1, n]`` is the scale and ``scales[0, n]`` the block's largest value."""
    bound = sums.scales[0, n] + wd * abs_max(sc.own[d:d + 1], 1, n_p)  # (reach is non-negative)
    inv = 65535.0 / bound if bound > 0.0 else 0.0
    scale = sums.scales[1, n]
    top = 0
    for a in range(na):
        c = _row_grown_codes(sc.cfv[d, a], sums.avg_p[o + a * n_p:o + (a + 1) * n_p], scale, sc.own[d],
                             sums.src_p[o + a * n_p:o + (a + 1) * n_p], sc.tot[d], n_p, 1.0 / na, wd, inv)
        top = max(top, c)
    sums.scales[1, n] = bound / 65535.0
    sums.scales[0, n] = top * (bound / 65535.0)


def _holds_integers(a) -> bool:
    """Whether array ``a`` holds integers (16-bit codes) rather than floats: a constant of the
    compiled pass (its overload below), so the float and 16-bit regret updates are one pass's two
    compiled versions."""
    return bool(np.issubdtype(a.dtype, np.integer))


@overload(_holds_integers, inline="always")
def _holds_integers_compiled(a):
    flag = isinstance(a.dtype, types.Integer)
    return lambda a: flag


@njit(cache=True, inline="always", error_model="numpy")
def _strategy(src, o, na, n, a, i, tot, d):
    """The depth-first pass's regret matching, on totals of the solver's dtype (:func:`~zerosum.public_tree.rows.row_totals`):
    the figures of :func:`matched` in float64; in float32 the division stays float32 here (as it
    always was on this pass), so the depth-first pass keeps this form of its own."""
    x = src[o + a * n + i]
    t = tot[d, i]
    return (x / t if x > 0.0 else 0.0) if t > 0.0 else 1.0 / na


@njit(cache=True, inline="always", error_model="numpy")
def _enter_cut_node(at, sc, d, j, n_p, n_o, predict, dead):
    """A cut chance node (slot ``j``) entered: its reach out (``at.cut == 1``; its value 0 until
    the second half; ``dead``: below an all-zero opponent reach, which pruning did not compute,
    zeros) or its value in (``at.cut == 2``); its subtrees are not entered."""
    if at.cut == 1:
        for i in range(n_o):
            at.cut_reach[j, 0, i] = 0.0 if dead else sc.opp[d, i]
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
def _all_zero(row, n):
    """Whether the first n entries of ``row`` are all zero: an opponent's reach under which every
    value of p is zero (pruning's test, :func:`dfs_from`)."""
    for i in range(n):
        if row[i] != 0.0:
            return False
    return True


@njit(cache=True, inline="always", error_model="numpy")
def _enter_terminal(tree, term, p, sc, cs, d, n, batched_here, sampling, predict, n_p):
    """A terminal entered: its values from its batch (``batched_here``: evaluated with the batch,
    :func:`batch_terminals`) or from the evaluator, weighted by the sampling weight."""
    node = sc.node
    if batched_here:
        row_copy(sc.val[d], sc.b_val[sc.batches.local[n]], n_p)
    else:
        # where the parent left the opponent's reach as it was (a chance node, p's node) the
        # terminal reads the parent's row: it was not copied down (see _descend)
        orow = d
        if d > 0 and (tree.kind[node[d - 1]] != DECISION or tree.player[node[d - 1]] == p):
            orow = d - 1
        leaf_values(term, site(d, orow, p, tree.player[n], tree.kind[n] == FOLD, tree.stake[n], tree.board[n]), sc.opp,
                    sc.val, sc.opp, False, cs)
    if sampling and sc.iw[d] != 1.0:
        for i in range(n_p):
            sc.val[d, i] *= sc.iw[d]
    if predict > 0:
        for i in range(n_p):
            sc.pval[d, i] = sc.val[d, i]


@njit(cache=True, inline="always", error_model="numpy")
def _enter_runout(tree, term, p, sc, d, n, skip, predict, n_p):
    """An all-in runout node entered (:mod:`~zerosum.public_tree.evaluators.runouts`): p's values,
    every card's showdown at once, as the product of its matrix with the opponent's reach here
    (:func:`~zerosum.public_tree.evaluators.dense.dense_values`); zeros where ``skip`` (below an
    all-zero opponent reach, pruned; the first half of a cut pass, whose values nothing reads).
    Returns its number of children (its showdowns, not entered)."""
    if skip:
        row_zero(sc.val[d], n_p)
    else:
        dense_values(site(d, d, p, -1, False, tree.stake[tree.first_child[n]], tree.runout[n, p]), sc.opp, sc.val,
                     term)
    if predict > 0:
        for i in range(n_p):
            sc.pval[d, i] = sc.val[d, i]
    return tree.n_children[n]


@njit(cache=True, inline="always", error_model="numpy")
def _zero_values(sc, d, n_p, predict):
    """p's values (and predicted values) at depth d set to zero."""
    row_zero(sc.val[d], n_p)
    if predict > 0:
        row_zero(sc.pval[d], n_p)


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
            row_totals(sc.tot[d], srcq[o + a * nq:o + (a + 1) * nq], nq, a == 0)
    if compressed and q == step.p and step.mode == 0 and first_half and not _holds_integers(sums.regrets_p):
        _grow_average16(sums, sc, d, n, o, na, n_p, step.avg_weight * sc.iw[d])
    elif compressed and q == step.p and step.mode == 0 and first_half:
        scale = sums.scales[1, n]
        for a in range(na):
            row_grown(sc.cfv[d, a], sums.avg_p[o + a * n_p:o + (a + 1) * n_p], scale, sc.own[d],
                       sums.src_p[o + a * n_p:o + (a + 1) * n_p], sc.tot[d], n_p, 1.0 / na, step.avg_weight * sc.iw[d])
        sums.scales[1, n] = _encode_node(sums.avg_p, o, sc.cfv[d], na, n_p, 65535.0)


@njit(cache=True, inline="always", error_model="numpy")
def _descend(tree, step, sums, sc, d, n, a, in_batch, own_mode, n_p, n_o):
    """Child ``a`` of n: its reach vectors in row d + 1 (the opponent's times its strategy at its
    node, p's own times p's at p's node, in UPDATE mode growing p's average on the way
    (``own_mode`` 0), or not (1: the second half of a cut pass, dtype int16), or copied from
    ``cfv[d, a]`` where the node's entry made it with the average (2: dtype avg16)); a row a
    terminal child reads from its parent is not copied."""
    k = tree.kind[n]
    na = tree.n_children[n]
    c = tree.first_child[n] + a
    o = tree.offset[n]
    mine = k == DECISION and tree.player[n] == step.p
    if in_batch:
        pass  # in a terminal batch: no terminal below reads the opponent's reach
    elif k == DECISION and not mine:
        row_reach(sc.opp[d + 1], sc.opp[d], sums.src_o[o + a * n_o:o + (a + 1) * n_o], sc.tot[d], n_o, 1.0 / na)
    elif tree.kind[c] < FOLD:
        row_copy(sc.opp[d + 1], sc.opp[d], n_o)
    if step.mode == 0:
        blk = sums.src_p[o + a * n_p:o + (a + 1) * n_p]
        if mine and own_mode == 2:  # (avg16: computed with the average at the node's entry)
            row_copy(sc.own[d + 1], sc.cfv[d, a], n_p)
        elif mine and own_mode == 1:
            row_reach(sc.own[d + 1], sc.own[d], blk, sc.tot[d], n_p, 1.0 / na)
        elif mine:
            row_own(sc.own[d + 1], sc.own[d], blk, sc.tot[d], n_p, 1.0 / na,
                     sums.avg_p[o + a * n_p:o + (a + 1) * n_p], step.avg_weight, sc.iw[d])
        elif tree.kind[c] < FOLD:  # (a terminal does not read p's own reach)
            row_copy(sc.own[d + 1], sc.own[d], n_p)
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
        row_mean(val[d], sums.src_p[o + b * n_p:o + (b + 1) * n_p], sc.tot[d], cfv[d, b], n_p, 1.0 / na)
    if not update:
        return
    pre, pos, neg, floor = step.rule
    if compressed and _holds_integers(sums.regrets_p):  # (dtype int16; avg16's regrets are floats)
        scale = sums.scales[0, n]
        for b in range(na):
            row_decoded_regrets(cfv[d, b], sums.regrets_p[o + b * n_p:o + (b + 1) * n_p], scale, val[d], n_p,
                                 pre, pos, neg, floor)
        sums.scales[0, n] = _encode_node(sums.regrets_p, o, cfv[d], na, n_p, 32767.0)
        return
    for b in range(na):
        row_regrets(sums.regrets_p[o + b * n_p:o + (b + 1) * n_p], cfv[d, b], val[d], n_p, pre, pos, neg, floor)
    if step.predict > 0:
        _predict(sums.src_p, sums.regrets_p, o, na, n_p, d, sc.tot, cfv, sc.pcfv, val, sc.pval, step.predict,
                 step.pscale)


@njit(cache=True, inline="always", error_model="numpy")
def _hand_up(tree, term, p, sc, d, predict, n_p, zero):
    """Row d + 1's node is done: its values to its parent (row d), a child's values at p's node,
    else added, with the mirror deals of suit isomorphism after a chance node's child (none where
    the child's values are all ``zero``: below an all-zero opponent reach, pruned)."""
    pn = sc.node[d]
    a = sc.nxt[d]
    if tree.kind[pn] == DECISION and tree.player[pn] == p:
        row_copy(sc.cfv[d, a], sc.val[d + 1], n_p)
        if predict > 0:
            row_copy(sc.pcfv[d, a], sc.pval[d + 1], n_p)
    else:
        row_add(sc.val[d], sc.val[d + 1], n_p)
        if predict > 0:
            row_add(sc.pval[d], sc.pval[d + 1], n_p)
        if len(tree.iso_count) > 0 and tree.kind[pn] == CHANCE_NODE and not zero:  # suit isomorphism: the mirrors' deals
            c = sc.node[d + 1]
            _mirror_add(sc.val[d], sc.val[d + 1], tree.iso_perm, tree.iso_swap, tree.iso_first[c], tree.iso_count[c],
                        n_p, term.window[p, 0])
            if predict > 0:
                _mirror_add(sc.pval[d], sc.pval[d + 1], tree.iso_perm, tree.iso_swap, tree.iso_first[c],
                            tree.iso_count[c], n_p, term.window[p, 0])
    sc.nxt[d] = a + 1


@_node_pass
def dfs_from(tree, term, step, sums, sc, cs, at):
    """The one pass from ``at.n0`` for player ``step.p``, reading and writing ``sums``, vectors per
    depth in ``sc`` (nothing allocated, no reference counting); returns (p's expected payoff, nodes
    visited, those pruned).  Its modes are the module docstring's, "The pass in detail"."""
    p, predict = step.p, step.predict
    n_p, n_o = len(sums.range_p), len(sums.range_o)
    kind, n_children = tree.kind, tree.n_children
    node, nxt = sc.node, sc.nxt  # the path, and the next child to visit (-1 before a node is entered)
    batched = len(sc.batches.root) > 0
    bdepth = -1  # the depth of the terminal batch being walked (its terminals' values are known), or -1
    sc.iw[0] = 1.0  # (every other entry of the scratch is written before it is read)
    compressed = sums.scales.shape[0] > 0  # the average's sums are 16-bit (dtype int16 or avg16)
    own_mode = 1 if at.cut == 2 or (compressed and _holds_integers(sums.regrets_p)) else (2 if compressed else 0)
    sampling = len(sums.sample) > 0
    update = step.mode == 0 and at.cut != 1
    prune = step.prune > 0 and step.mode == 0
    visited = pruned = 0
    if at.n0 == 0:
        root_reach(sc.opp, sums.range_o)
        root_reach(sc.own, sums.range_p)
    node[0] = at.n0
    nxt[0] = -1
    d = 0
    dead = 0 if prune and _all_zero(sc.opp[0], n_o) else -1  # (a cut task's reach may be zero)
    while True:
        n = node[d]
        k = kind[n]
        if nxt[d] < 0:  # entering n
            visited += 1
            if dead >= 0:
                pruned += 1
            nxt[d] = 0
            if at.cut > 0 and k == CHANCE_NODE and at.slot[n] >= 0:  # its subtrees run elsewhere
                _enter_cut_node(at, sc, d, at.slot[n], n_p, n_o, predict, dead >= 0)
                nxt[d] = n_children[n]
            elif k >= FOLD and dead >= 0:  # pruned: p's values are zero
                _zero_values(sc, d, n_p, predict)
            elif k >= FOLD:
                _enter_terminal(tree, term, p, sc, cs, d, n, bdepth >= 0, sampling, predict, n_p)
            elif k == CHANCE_NODE and not sampling and tree.runout.shape[0] > 0 and tree.runout[n, p] >= 0:
                nxt[d] = _enter_runout(tree, term, p, sc, d, n, dead >= 0 or at.cut == 1, predict, n_p)
                visited += nxt[d]  # its showdowns: in the product, not entered, counted as entered
                pruned += nxt[d] if dead >= 0 else 0
            else:
                _zero_values(sc, d, n_p, predict)
                if k == DECISION:
                    if batched and bdepth < 0 and sc.batches.root[n] >= 0:  # a batch's top: its terminals first
                        if dead < 0:
                            row_copy(sc.b_reach[0], sc.opp[d], n_o)
                            batch_terminals(tree, term, p, sc.batches.root[n], sums.src_o, n_o, cs, sc)
                        bdepth = d
                    _enter_decision(tree, step, sums, sc, d, n, bdepth >= 0 or dead >= 0, compressed, at.cut != 2,
                                    n_p, n_o)
                elif sampling:  # a chance node: only the drawn card's subtree
                    nxt[d] = sums.sample[n]
        a = nxt[d]
        if k < FOLD and a < n_children[n] and not (sampling and k == CHANCE_NODE and a != sums.sample[n]):
            c = _descend(tree, step, sums, sc, d, n, a, bdepth >= 0 or dead >= 0, own_mode, n_p, n_o)
            if prune and dead < 0 and bdepth < 0 and k == DECISION and tree.player[n] != p and \
                    _all_zero(sc.opp[d + 1], n_o):
                dead = d + 1
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
        zero = dead >= 0
        if d == dead:
            dead = -1
        if d == 0:
            break
        d -= 1
        _hand_up(tree, term, p, sc, d, predict, n_p, zero)
    return root_value(sums.range_p, sc.val, 0), visited, pruned


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
    (the caller's Python threads run one call each).  Returns the nodes it entered and those
    of them pruned (:func:`dfs_from`).

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
    pruned = 0
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
        _, v, z = dfs_from(tree, term, step, sums, s, cs[t], Cut(task_node[k], no_cut, tasks.slot, tasks.cut_reach,
                                                                tasks.cut_val))
        if tasks.slot[task_node[k]] >= 0:  # a runout cut node's own task: its entry counted by the trunk
            v -= 1
            z -= 1 if z > 0 else 0
        count += v
        pruned += z
        tasks.work[k] = v
        for i in range(n_p):
            tasks.child_val[k, 0, i] = s.val[0, i]
        if step.predict > 0:
            for i in range(n_p):
                tasks.child_val[k, 1, i] = s.pval[0, i]
        if _done(tasks.pending, j) == 1:  # the cut node's last task: its sum, here rather than after the threads
            _cut_value(tasks, j, step.predict, n_p, tree, int(term.window[step.p, 0]))
    return count, pruned


@intrinsic
def _done(typingctx, pending, j):
    """``pending[j]`` before taking one from it, in one atomic step that also orders this thread's
    stores before it and the other threads' stores before their own step before what follows it
    (LLVM's ``atomicrmw sub`` ``acq_rel``): the thread that sees 1 finished the cut node's last
    task and reads every task's values."""
    if not (isinstance(pending, types.Array) and pending.dtype == types.int64 and pending.ndim == 1):
        return None

    def codegen(context, builder, signature, args):
        data = context.make_array(signature.args[0])(context, builder, args[0]).data
        return builder.atomic_rmw("sub", builder.gep(data, [args[1]]), ir.Constant(ir.IntType(64), 1), "acq_rel")

    return types.int64(pending, types.int64), codegen


@njit(cache=True, inline="always", error_model="numpy")
def _cut_value(tasks, j, predict, n_p, tree, lo):
    """``cut_val[j]``: the sum of cut node j's children's values in child order, each child's
    mirrors right after it, as :func:`cut_values` sums it (the same figures)."""
    for r in range(2 if predict > 0 else 1):
        for i in range(n_p):
            tasks.cut_val[j, r, i] = 0.0
        for k in range(tasks.slot_task[j], tasks.slot_task[j + 1]):
            for i in range(n_p):
                tasks.cut_val[j, r, i] += tasks.child_val[k, r, i]
            c = tasks.task_node[k]
            if len(tree.iso_count) > 0 and tasks.slot[c] < 0:  # (a runout cut node's own task has no mirrors)
                _mirror_add(tasks.cut_val[j, r], tasks.child_val[k, r], tree.iso_perm, tree.iso_swap, tree.iso_first[c],
                            tree.iso_count[c], n_p, lo)


@njit(cache=True, error_model="numpy", _nrt=False)
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
