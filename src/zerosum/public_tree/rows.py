"""The depth-first pass's loops over a node's hands, on rows: each loop of
:func:`zerosum.public_tree.kernels.dfs_from` (and of the terminal batches) over a node's hands is
one of these, on 1-D rows (``opp[d]``, a slice of the sums) with a select instead of a branch:
written on [depth, hand] indices with a branch per entry, LLVM keeps them scalar; a select over
the same operations vectorizes, with the same figures bit for bit (the same operations per
entry, in the same types: in float32 the quotient is float32, then widened).

May import: numpy, numba.
"""

from __future__ import annotations

from numba import njit


@njit(cache=True, inline="always", error_model="numpy")
def row_reach(dst, inp, blk, tt, n, u1):
    """dst = inp times the strategy's action whose sums are ``blk`` (totals ``tt``, 1 / na ``u1``)."""
    for j in range(n):
        x = blk[j]
        t = tt[j]
        q = x / t
        s = q if x > 0.0 else 0.0
        dst[j] = inp[j] * (s if t > 0.0 else u1)


@njit(cache=True, inline="always", error_model="numpy")
def row_own(dst, inp, blk, tt, n, u1, avg, aw, wd):
    """:func:`row_reach` of p's own reach, adding ``aw * reach * wd`` to the average sums ``avg``
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
def row_mean(v, blk, tt, c, n, u1):
    """v += the strategy's action (sums ``blk``) times its values ``c``."""
    for i in range(n):
        x = blk[i]
        t = tt[i]
        q = x / t
        s = q if x > 0.0 else 0.0
        v[i] += (s if t > 0.0 else u1) * c[i]


@njit(cache=True, inline="always", error_model="numpy")
def row_totals(tt, blk, n, first):
    """tt (= 0 where ``first``) += the positive parts of ``blk`` (+0 for the others: the same sums)."""
    for i in range(n):
        x = blk[i]
        y = x if x > 0.0 else 0.0  # noqa: FURB136 (as _totals: a NaN or -0.0 adds +0, max would not say)
        tt[i] = y if first else tt[i] + y


@njit(cache=True, inline="always", error_model="numpy")
def row_regrets(r, c, v, n, pre, pos, neg, floor):
    """r = :func:`zerosum.solvers.rules.regret_update` of r and c - v, as selects: a factor of
    exactly 1.0 multiplies instead of being skipped (the same figure, NaN and -0.0 included)."""
    for i in range(n):
        x = r[i]
        y = x * pre if pre != 1.0 else x
        y = y + (c[i] - v[i])
        y = y * (pos if y >= 0.0 else neg)
        r[i] = 0.0 if (floor and y < 0.0) else y


@njit(cache=True, inline="always", error_model="numpy")
def row_copy(dst, inp, n):
    for i in range(n):
        dst[i] = inp[i]


@njit(cache=True, inline="always", error_model="numpy")
def row_add(dst, inp, n):
    for i in range(n):
        dst[i] += inp[i]


@njit(cache=True, inline="always", error_model="numpy")
def row_zero(dst, n):
    for i in range(n):
        dst[i] = 0.0


@njit(cache=True, inline="always", error_model="numpy")
def row_grown(dst, blk, scale, own, rblk, tt, n, u1, wd):
    """16-bit storage: dst = the decoded average sums ``blk * scale`` plus ``wd`` times p's own reach
    ``own`` times the strategy's action (regret sums ``rblk``, totals ``tt``)."""
    for i in range(n):
        x = rblk[i]
        t = tt[i]
        q = x / t
        s = q if x > 0.0 else 0.0
        dst[i] = blk[i] * scale + wd * (own[i] * (s if t > 0.0 else u1))


@njit(cache=True, inline="always", error_model="numpy")
def row_decoded_regrets(dst, blk, scale, v, n, pre, pos, neg, floor):
    """16-bit storage: dst (the action's values c on entry) = the regret rule applied to the decoded
    regrets ``blk * scale`` and c - v, as :func:`row_regrets`."""
    for i in range(n):
        x = blk[i] * scale
        y = x * pre if pre != 1.0 else x
        y = y + (dst[i] - v[i])
        y = y * (pos if y >= 0.0 else neg)
        dst[i] = 0.0 if (floor and y < 0.0) else y
