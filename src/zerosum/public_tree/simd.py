"""The hand-written vector code of the public tree's terminals, each beside a plain Numba twin
that computes the same figures bit for bit, and the switch between them.

The showdowns and folds of a terminal batch (:func:`zerosum.public_tree.evaluators.batches._showdown_lanes`,
:func:`~zerosum.public_tree.evaluators.batches._fold_lanes`) add eight (or four) lanes of sums at once.
Numba's loop vectorizer leaves those loops scalar (the lanes are unrolled first and its SLP
vectorizer is off), so each loop is written here as one LLVM loop over 4- or 8-vectors of float64
(``@intrinsic``): the same IEEE operations in the same order as the scalar lanes, no fast-math,
so the same figures.  :func:`block_abs_max` is the 16-bit storage's largest magnitude as an
integer reduction LLVM vectorizes.

Each intrinsic has a plain twin (``*_plain``): the scalar loops it replaces, the reference the
tests compare it with (``tests/test_simd.py``).  The kernels call the names without suffix
(:data:`ENABLED` picks them at import): with ``ZEROSUM_SIMD=0`` in the environment they are the
plain twins, for a platform where the intrinsics fail or to check a figure; Numba's cache then
lives in a folder of its own (:func:`plain_cache_dir`, set by :mod:`zerosum.public_tree` before any
kernel is compiled), since a cached kernel keeps the code of whatever it called when it was
compiled.

May import: numpy, numba, llvmlite.
"""

from __future__ import annotations

import math
import os

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic, overload

#: the environment variable that turns the intrinsics off (``ZEROSUM_SIMD=0``)
SWITCH = "ZEROSUM_SIMD"


def simd_enabled() -> bool:
    """Whether the kernels use the intrinsics (the default) rather than their plain twins."""
    return os.environ.get(SWITCH, "1").strip() not in ("0", "false", "no", "off")


def plain_cache_dir() -> str:
    """Numba's cache folder for the plain twins' kernels: beside the user's ``NUMBA_CACHE_DIR``
    where set, else in the user's cache folder."""
    base = os.environ.get("NUMBA_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "zerosum")
    return os.path.join(base, "plain-kernels")


ENABLED = simd_enabled()


def _vector_helpers(context, builder):
    """What the two loop intrinsics share: the int64 type, the 8 x float64 vector type, widening
    an integer to int64, and a row of eight float64 from element ``index`` of a pointer on."""
    i64 = ir.IntType(64)
    lanes = ir.VectorType(ir.DoubleType(), 8)

    def wide(v):
        return builder.sext(v, i64) if v.type.width < 64 else v

    def row(ptr, index):
        return builder.load(builder.bitcast(builder.gep(ptr, [index]), lanes.as_pointer()), align=8)

    return i64, lanes, wide, row


def _pitch(context, builder, ty, arr):
    """Elements from one row of a 2-D array ``arr`` (of Numba type ``ty``) to the next."""
    return builder.sdiv(builder.extract_value(arr.strides, 0),
                        ir.Constant(ir.IntType(64), context.get_abi_sizeof(context.get_data_type(ty.dtype))))


@intrinsic
def _lane_sums4(typingctx, sums, row_out, reach, r0, r1, r2, r3, idx, lo, count):
    """Four sums at once (:func:`_fold_lanes`' loops): ``sums[row_out, 0:4]`` = the sums over
    ``idx[lo]`` .. ``idx[lo + count - 1]`` of ``reach[r_k, idx[.]]`` in lane k, in one 4 x float64
    vector; each lane adds in the same order, IEEE, so the same figures as four scalar sums.
    ``reach``: C-contiguous rows."""
    if not (isinstance(reach, types.Array) and reach.ndim == 2 and reach.layout == "C"):
        return None
    sig = types.void(sums, row_out, reach, r0, r1, r2, r3, idx, lo, count)

    def codegen(context, builder, signature, args):
        i64, _lanes, wide, _row = _vector_helpers(context, builder)
        four = ir.VectorType(ir.DoubleType(), 4)
        sa = context.make_array(signature.args[0])(context, builder, args[0])
        ra = context.make_array(signature.args[2])(context, builder, args[2])
        xa = context.make_array(signature.args[7])(context, builder, args[7])
        lo_v, n_v = wide(args[8]), wide(args[9])
        pitch = _pitch(context, builder, signature.args[2], ra)
        bases = [builder.gep(ra.data, [builder.mul(wide(args[3 + k]), pitch)]) for k in range(4)]
        zero = ir.Constant(four, [0.0] * 4)
        acc = cgutils.alloca_once_value(builder, zero)
        with cgutils.for_range(builder, n_v) as loop:
            j = wide(builder.load(builder.gep(xa.data, [builder.add(lo_v, loop.index)])))
            v = zero
            for k in range(4):
                x = builder.load(builder.gep(bases[k], [j]))
                if x.type != ir.DoubleType():
                    x = builder.fpext(x, ir.DoubleType())
                v = builder.insert_element(v, x, ir.Constant(ir.IntType(32), k))
            builder.store(builder.fadd(builder.load(acc), v), acc)
        at = builder.gep(sa.data, [builder.mul(wide(args[1]), ir.Constant(i64, 8))])
        builder.store(builder.load(acc), builder.bitcast(at, four.as_pointer()), align=8)
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def _fold_values4(typingctx, sums, cards, qorder, g0, g1, reach, r0, r1, r2, r3, out, o0, o1, o2, o3, lp, shift,
                  n_o):
    """:func:`_fold_lanes`' values loop, four lanes as one 4 x float64 vector: for g in ``g0`` ..
    ``g1 - 1`` and h = ``qorder[g]``, lane k's ``out[o_k, h]`` = ``s_k * (t_k - C_k[c0] - C_k[c1] +
    reach[r_k, shift + h])`` with the totals t in ``sums[0, 0:4]``, the scales s in ``sums[0, 4:8]``
    and card c's sums C[c] in ``sums[1 + c, 0:4]`` (c0, c1: the cards of the shared list's hand
    ``lp + h``; the reach term 0 where ``shift + h`` is outside 0 .. ``n_o - 1``, the opponent's
    list); the scalar lanes' operations in their order, IEEE, so the same figures.  ``reach``,
    ``out`` and ``cards``: C-contiguous rows."""
    for a in (reach, out, cards):
        if not (isinstance(a, types.Array) and a.ndim == 2 and a.layout == "C"):
            return None
    sig = types.void(sums, cards, qorder, g0, g1, reach, r0, r1, r2, r3, out, o0, o1, o2, o3, lp, shift, n_o)

    def codegen(context, builder, signature, args):
        i64, _lanes, wide, _row = _vector_helpers(context, builder)
        four = ir.VectorType(ir.DoubleType(), 4)
        sa = context.make_array(signature.args[0])(context, builder, args[0])
        ka = context.make_array(signature.args[1])(context, builder, args[1])
        qa = context.make_array(signature.args[2])(context, builder, args[2])
        ra = context.make_array(signature.args[5])(context, builder, args[5])
        oa = context.make_array(signature.args[10])(context, builder, args[10])
        odt = context.get_data_type(signature.args[10].dtype)
        eight = ir.Constant(i64, 8)

        def quad(index):  # four float64 of sums from element index on
            return builder.load(builder.bitcast(builder.gep(sa.data, [index]), four.as_pointer()), align=8)

        t = quad(ir.Constant(i64, 0))
        sc = quad(ir.Constant(i64, 4))
        rp = _pitch(context, builder, signature.args[5], ra)
        op = _pitch(context, builder, signature.args[10], oa)
        ins = [builder.gep(ra.data, [builder.mul(wide(args[6 + k]), rp)]) for k in range(4)]
        outs = [builder.gep(oa.data, [builder.mul(wide(args[11 + k]), op)]) for k in range(4)]
        kp = _pitch(context, builder, signature.args[1], ka)
        lp, shift, n_o = wide(args[15]), wide(args[16]), wide(args[17])
        with cgutils.for_range(builder, wide(args[4]), start=wide(args[3])) as loop:
            h = wide(builder.load(builder.gep(qa.data, [loop.index])))
            kr = builder.mul(builder.add(lp, h), kp)
            c0 = wide(builder.load(builder.gep(ka.data, [kr])))
            c1 = wide(builder.load(builder.gep(ka.data, [builder.add(kr, ir.Constant(i64, 1))])))
            u = quad(builder.mul(builder.add(c0, ir.Constant(i64, 1)), eight))
            w = quad(builder.mul(builder.add(c1, ir.Constant(i64, 1)), eight))
            twin = builder.add(shift, h)  # the same hand in the opponent's list, if there (unsigned: < 0 fails)
            held = builder.icmp_unsigned("<", twin, n_o)
            tr = builder.select(held, twin, ir.Constant(i64, 0))
            x = ir.Constant(four, [0.0] * 4)
            for k in range(4):
                e = builder.load(builder.gep(ins[k], [tr]))
                if e.type != ir.DoubleType():
                    e = builder.fpext(e, ir.DoubleType())
                e = builder.select(held, e, ir.Constant(ir.DoubleType(), 0.0))
                x = builder.insert_element(x, e, ir.Constant(ir.IntType(32), k))
            v = builder.fmul(sc, builder.fadd(builder.fsub(builder.fsub(t, u), w), x))
            if odt != ir.DoubleType():
                v = builder.fptrunc(v, ir.VectorType(odt, 4))
            for k in range(4):
                builder.store(builder.extract_element(v, ir.Constant(ir.IntType(32), k)), builder.gep(outs[k], [h]))
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def _lane_prefix(typingctx, sums, row0, reach, r0, r1, r2, r3, r4, r5, r6, r7, idx, lo, count):
    """Eight running sums at once (:func:`_showdown_lanes`' prefix loops): row ``row0`` of ``sums``
    (float64 [., 8]) = 0, row ``row0 + 1 + i`` = the sums over ``idx[lo]`` .. ``idx[lo + i]`` of
    ``reach[r_k, idx[.]]`` in lane k, for i < ``count``.  The eight sums live in one 8 x float64
    vector (a vector phi once the accumulator's slot is promoted), one vector add and one vector
    store a hand, where eight scalar lanes took eight adds and eight stores; each lane adds in the
    same order, IEEE, so the same figures.  ``reach``: C-contiguous rows."""
    if not (isinstance(reach, types.Array) and reach.ndim == 2 and reach.layout == "C"):
        return None
    sig = types.void(sums, row0, reach, r0, r1, r2, r3, r4, r5, r6, r7, idx, lo, count)

    def codegen(context, builder, signature, args):
        i64, lanes, wide, _row = _vector_helpers(context, builder)
        sa = context.make_array(signature.args[0])(context, builder, args[0])
        ra = context.make_array(signature.args[2])(context, builder, args[2])
        xa = context.make_array(signature.args[11])(context, builder, args[11])
        start, lo_v, n_v = wide(args[1]), wide(args[12]), wide(args[13])
        pitch = _pitch(context, builder, signature.args[2], ra)
        bases = [builder.gep(ra.data, [builder.mul(wide(args[3 + k]), pitch)]) for k in range(8)]
        zero = ir.Constant(lanes, [0.0] * 8)
        acc = cgutils.alloca_once_value(builder, zero)
        eight = ir.Constant(i64, 8)

        def put(r, v):
            builder.store(v, builder.bitcast(builder.gep(sa.data, [builder.mul(r, eight)]), lanes.as_pointer()),
                          align=8)

        put(start, zero)
        with cgutils.for_range(builder, n_v) as loop:
            j = wide(builder.load(builder.gep(xa.data, [builder.add(lo_v, loop.index)])))
            v = zero
            for k in range(8):
                x = builder.load(builder.gep(bases[k], [j]))
                if x.type != ir.DoubleType():
                    x = builder.fpext(x, ir.DoubleType())
                v = builder.insert_element(v, x, ir.Constant(ir.IntType(32), k))
            a = builder.fadd(builder.load(acc), v)
            builder.store(a, acc)
            put(builder.add(start, builder.add(loop.index, ir.Constant(i64, 1))), a)
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def _hand_values(typingctx, sums, pidx, qorder, g0, g1, total, scale, out, out_rows):
    """Each of p's hands' values in eight showdowns (:func:`_showdown_lanes`' last loop), for g in
    ``g0`` .. ``g1 - 1``, as LLVM vector operations: the hand's eight indices (``pidx[g]``, one
    load), the eight rows ``sums[pidx[g, j]]`` (eight float64 lanes each, one load each), and
    ``scale * ((S0 + S1 - total) - (S2 + S3 - S4) - (S5 + S6 - S7))`` with the lanes' ``total`` and
    ``scale`` (8-vectors), lane k stored at ``out[out_rows[k], qorder[g]]`` (in out's dtype).  The
    same operations in the same order as eight scalar lanes (IEEE, no fast-math), so the same
    figures; Numba's loop vectorizer leaves the scalar form unvectorized (the lanes are unrolled
    first, and its SLP vectorizer is off).  The whole loop is one intrinsic, so the lanes' totals,
    scales and output rows are read once, not once a hand; with :func:`_lane_prefix` it makes
    :func:`_showdown_lanes`."""
    sig = types.void(sums, pidx, qorder, g0, g1, total, scale, out, out_rows)

    def codegen(context, builder, signature, args):
        i64, _lanes, wide, row = _vector_helpers(context, builder)
        sa = context.make_array(signature.args[0])(context, builder, args[0])
        pa = context.make_array(signature.args[1])(context, builder, args[1])
        qa = context.make_array(signature.args[2])(context, builder, args[2])
        ta = context.make_array(signature.args[5])(context, builder, args[5])
        ca = context.make_array(signature.args[6])(context, builder, args[6])
        oa = context.make_array(signature.args[7])(context, builder, args[7])
        ra = context.make_array(signature.args[8])(context, builder, args[8])
        odt = context.get_data_type(signature.args[7].dtype)
        zero = ir.Constant(i64, 0)
        eight = ir.Constant(i64, 8)
        t = row(ta.data, zero)
        c = row(ca.data, zero)
        pitch = _pitch(context, builder, signature.args[7], oa)
        outs = [builder.gep(oa.data, [builder.mul(wide(builder.load(builder.gep(ra.data, [ir.Constant(i64, k)]))),
                                                  pitch)]) for k in range(8)]
        pdt = context.get_data_type(signature.args[1].dtype)  # (int16: see terminals.showdown_prefix_arrays)
        ivec = ir.VectorType(pdt, 8)
        with cgutils.for_range(builder, wide(args[4]), start=wide(args[3])) as loop:
            g = loop.index
            idx = builder.load(builder.bitcast(builder.gep(pa.data, [builder.mul(g, eight)]), ivec.as_pointer()),
                               align=pdt.width // 8)
            r = [row(sa.data, builder.mul(wide(builder.extract_element(idx, ir.Constant(ir.IntType(32), j))), eight))
                 for j in range(8)]
            a = builder.fsub(builder.fadd(r[0], r[1]), t)
            b = builder.fsub(builder.fadd(r[2], r[3]), r[4])
            e = builder.fsub(builder.fadd(r[5], r[6]), r[7])
            v = builder.fmul(c, builder.fsub(builder.fsub(a, b), e))
            if odt != ir.DoubleType():
                v = builder.fptrunc(v, ir.VectorType(odt, 8))
            h = wide(builder.load(builder.gep(qa.data, [g])))
            for k in range(8):
                builder.store(builder.extract_element(v, ir.Constant(ir.IntType(32), k)), builder.gep(outs[k], [h]))
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def _float32_bits(typingctx, x):
    """A float32's bit pattern as an int32 (LLVM's ``bitcast``): what ``row.view(np.int32)`` reads,
    without the view, whose implementation's environment made each load of a kernel with it import
    ``numba.np.arrayobj`` (19 ms of a solve's start)."""
    if x != types.float32:
        return None

    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.IntType(32))

    return types.int32(x), codegen


def block_abs_max(block, na, n):
    """The largest magnitude in ``block[:na, :n]`` (a node's updated float32 rows), as a float."""
    m = 0.0
    for a in range(na):
        for i in range(n):
            m = max(m, abs(block[a, i]))
    return m


@overload(block_abs_max)
def _block_abs_max(block, na, n):
    """float32 rows: the largest of the magnitudes' bit patterns as int32 (non-negative IEEE floats
    order as their bits do), a reduction LLVM vectorizes, where the float ``max`` (NaN-aware) stays
    scalar; then the float from its bits, exactly."""
    if block.dtype == types.float32:
        def impl(block, na, n):
            mb = 0
            for a in range(na):
                for i in range(n):
                    v = _float32_bits(block[a, i]) & 0x7FFFFFFF
                    mb = max(mb, v)
            e = mb >> 23
            mant = mb & 0x7FFFFF
            if e == 0:  # zero or subnormal
                return math.ldexp(float(mant), -149)
            return math.ldexp(float(mant | 0x800000), e - 150)
        return impl

    def plain(block, na, n):
        m = 0.0
        for a in range(na):
            for i in range(n):
                m = max(m, abs(block[a, i]))
        return m
    return plain


# --- the plain twins: the scalar loops, the same operations in the same order ---------------------

@njit(cache=True, inline="always", error_model="numpy")
def _lane_sum(reach, r, idx, lo, count):
    acc = 0.0
    for j in range(count):
        acc += np.float64(reach[r, idx[lo + j]])
    return acc


@njit(cache=True, error_model="numpy")
def lane_sums4_plain(sums, row_out, reach, r0, r1, r2, r3, idx, lo, count):
    """:func:`_lane_sums4` as four scalar sums, one lane after the other."""
    sums[row_out, 0] = _lane_sum(reach, r0, idx, lo, count)
    sums[row_out, 1] = _lane_sum(reach, r1, idx, lo, count)
    sums[row_out, 2] = _lane_sum(reach, r2, idx, lo, count)
    sums[row_out, 3] = _lane_sum(reach, r3, idx, lo, count)


@njit(cache=True, inline="always", error_model="numpy")
def _fold_lane(sums, k, cards, qorder, g0, g1, reach, r, out, o, lp, shift, n_o):
    for g in range(g0, g1):
        h = qorder[g]
        twin = shift + h
        x = np.float64(reach[r, twin]) if twin >= 0 and twin < n_o else 0.0
        out[o, h] = sums[0, 4 + k] * (((sums[0, k] - sums[1 + cards[lp + h, 0], k]) - sums[1 + cards[lp + h, 1], k])
                                      + x)


@njit(cache=True, error_model="numpy")
def fold_values4_plain(sums, cards, qorder, g0, g1, reach, r0, r1, r2, r3, out, o0, o1, o2, o3, lp, shift, n_o):
    """:func:`_fold_values4` one lane after the other."""
    _fold_lane(sums, 0, cards, qorder, g0, g1, reach, r0, out, o0, lp, shift, n_o)
    _fold_lane(sums, 1, cards, qorder, g0, g1, reach, r1, out, o1, lp, shift, n_o)
    _fold_lane(sums, 2, cards, qorder, g0, g1, reach, r2, out, o2, lp, shift, n_o)
    _fold_lane(sums, 3, cards, qorder, g0, g1, reach, r3, out, o3, lp, shift, n_o)


@njit(cache=True, inline="always", error_model="numpy")
def _prefix_lane(sums, k, row0, reach, r, idx, lo, count):
    acc = 0.0
    sums[row0, k] = 0.0
    for i in range(count):
        acc += np.float64(reach[r, idx[lo + i]])
        sums[row0 + 1 + i, k] = acc


@njit(cache=True, error_model="numpy")
def lane_prefix_plain(sums, row0, reach, r0, r1, r2, r3, r4, r5, r6, r7, idx, lo, count):
    """:func:`_lane_prefix` as eight scalar running sums, one lane after the other."""
    _prefix_lane(sums, 0, row0, reach, r0, idx, lo, count)
    _prefix_lane(sums, 1, row0, reach, r1, idx, lo, count)
    _prefix_lane(sums, 2, row0, reach, r2, idx, lo, count)
    _prefix_lane(sums, 3, row0, reach, r3, idx, lo, count)
    _prefix_lane(sums, 4, row0, reach, r4, idx, lo, count)
    _prefix_lane(sums, 5, row0, reach, r5, idx, lo, count)
    _prefix_lane(sums, 6, row0, reach, r6, idx, lo, count)
    _prefix_lane(sums, 7, row0, reach, r7, idx, lo, count)


@njit(cache=True, error_model="numpy")
def hand_values_plain(sums, pidx, qorder, g0, g1, total, scale, out, out_rows):
    """:func:`_hand_values` one lane at a time."""
    for g in range(g0, g1):
        h = qorder[g]
        for k in range(8):
            a = (sums[pidx[g, 0], k] + sums[pidx[g, 1], k]) - total[k]
            b = (sums[pidx[g, 2], k] + sums[pidx[g, 3], k]) - sums[pidx[g, 4], k]
            e = (sums[pidx[g, 5], k] + sums[pidx[g, 6], k]) - sums[pidx[g, 7], k]
            out[out_rows[k], h] = scale[k] * ((a - b) - e)


@njit(cache=True, error_model="numpy")
def block_abs_max_plain(block, na, n):
    """:func:`block_abs_max` as the float maximum of the magnitudes."""
    m = 0.0
    for a in range(na):
        for i in range(n):
            m = max(m, abs(block[a, i]))
    return m


@njit(cache=True, error_model="numpy")
def block_abs_max_vector(block, na, n):
    """:func:`block_abs_max` through its overload (the integer reduction on float32), callable
    from Python for the tests."""
    return block_abs_max(block, na, n)


# --- what the kernels call -------------------------------------------------------------------------
if ENABLED:
    lane_sums4, fold_values4, lane_prefix, hand_values = _lane_sums4, _fold_values4, _lane_prefix, _hand_values
    abs_max = block_abs_max
else:
    lane_sums4, fold_values4 = lane_sums4_plain, fold_values4_plain
    lane_prefix, hand_values = lane_prefix_plain, hand_values_plain
    abs_max = block_abs_max_plain
