"""The terminals' hand-written vector loops (:mod:`zerosum.public_tree.simd`) against their plain
Numba twins: the same figures bit for bit on random inputs (float64 and float32 reach, int32 and
int64 indices, hands outside the opponent's list), and the ``ZEROSUM_SIMD=0`` switch that makes
the kernels call the twins."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
from numba import njit

from zerosum.public_tree import simd


@njit
def _sums4(sums, row_out, reach, r0, r1, r2, r3, idx, lo, count):
    simd._lane_sums4(sums, row_out, reach, r0, r1, r2, r3, idx, lo, count)


@njit
def _fold4(sums, cards, qorder, g0, g1, reach, r0, r1, r2, r3, out, o0, o1, o2, o3, lp, shift, n_o):
    simd._fold_values4(sums, cards, qorder, g0, g1, reach, r0, r1, r2, r3, out, o0, o1, o2, o3, lp, shift, n_o)


@njit
def _prefix8(sums, row0, reach, r0, r1, r2, r3, r4, r5, r6, r7, idx, lo, count):
    simd._lane_prefix(sums, row0, reach, r0, r1, r2, r3, r4, r5, r6, r7, idx, lo, count)


@njit
def _values8(sums, pidx, qorder, g0, g1, total, scale, out, out_rows):
    simd._hand_values(sums, pidx, qorder, g0, g1, total, scale, out, out_rows)


CASES = [(seed, dt, it) for seed in (0, 1, 2) for dt in (np.float64, np.float32) for it in (np.int32, np.int64)]


def _reach(rng, dt, rows=9, width=70):
    r = rng.standard_normal((rows, width)).astype(dt)
    r[rng.random(r.shape) < 0.1] = 0.0
    return r


@pytest.mark.parametrize("seed,dt,it", CASES)
def test_lane_sums4_is_four_scalar_sums(seed, dt, it):
    rng = np.random.default_rng(seed)
    reach = _reach(rng, dt)
    idx = rng.integers(0, reach.shape[1], 200).astype(it)
    rows = [int(x) for x in rng.integers(0, reach.shape[0], 4)]
    a, b = np.full((40, 8), np.nan), np.full((40, 8), np.nan)
    for row_out, lo, count in ((0, 0, 200), (7, 13, 150), (39, 199, 1), (3, 5, 0)):
        _sums4(a, row_out, reach, *rows, idx, lo, count)
        simd.lane_sums4_plain(b, row_out, reach, *rows, idx, lo, count)
    assert np.array_equal(a, b, equal_nan=True)
    assert a[0, 0] == sum(np.float64(reach[rows[0], j]) for j in idx)  # the plain order: one by one


@pytest.mark.parametrize("seed,dt,it", CASES)
def test_fold_values4_is_four_scalar_lanes(seed, dt, it):
    rng = np.random.default_rng(seed)
    width = 70
    reach = _reach(rng, dt, width=width)
    sums = rng.standard_normal((53, 8))
    cards = rng.integers(0, 52, (120, 2)).astype(np.int16)
    qorder = rng.permutation(width).astype(it)
    rows = [int(x) for x in rng.integers(0, reach.shape[0], 4)]
    outs = [0, 3, 5, 6]
    for lp, shift, n_o in ((0, 0, width), (10, -7, 50), (40, 12, 60)):
        a, b = np.full((8, width), np.nan, dtype=dt), np.full((8, width), np.nan, dtype=dt)
        _fold4(sums, cards, qorder, 5, 66, reach, *rows, a, *outs, lp, shift, n_o)
        simd.fold_values4_plain(sums, cards, qorder, 5, 66, reach, *rows, b, *outs, lp, shift, n_o)
        assert np.array_equal(a, b, equal_nan=True)
        assert not np.isnan(a[outs][:, qorder[5:66]]).any()


@pytest.mark.parametrize("seed,dt,it", CASES)
def test_lane_prefix_is_eight_running_sums(seed, dt, it):
    rng = np.random.default_rng(seed)
    reach = _reach(rng, dt)
    idx = rng.integers(0, reach.shape[1], 300).astype(it)
    rows = [int(x) for x in rng.integers(0, reach.shape[0], 8)]
    a, b = np.full((400, 8), np.nan), np.full((400, 8), np.nan)
    for row0, lo, count in ((0, 0, 300), (310, 20, 60), (399, 3, 0)):
        _prefix8(a, row0, reach, *rows, idx, lo, count)
        simd.lane_prefix_plain(b, row0, reach, *rows, idx, lo, count)
    assert np.array_equal(a, b, equal_nan=True)
    assert a[300, 2] == np.cumsum(reach[rows[2], idx].astype(np.float64))[-1]


@pytest.mark.parametrize("seed,dt,it", CASES)
def test_hand_values_is_eight_scalar_lanes(seed, dt, it):
    rng = np.random.default_rng(seed)
    width = 70
    sums = rng.standard_normal((90, 8))
    pidx = rng.integers(0, 90, (80, 8)).astype(np.int16)
    qorder = rng.permutation(width).astype(it)
    total, scale = rng.standard_normal(8), rng.standard_normal(8)
    out_rows = rng.permutation(12)[:8].astype(it)
    a, b = np.full((12, width), np.nan, dtype=dt), np.full((12, width), np.nan, dtype=dt)
    _values8(sums, pidx, qorder, 3, 70, total, scale, a, out_rows)
    simd.hand_values_plain(sums, pidx, qorder, 3, 70, total, scale, b, out_rows)
    assert np.array_equal(a, b, equal_nan=True)


@pytest.mark.parametrize("seed", range(4))
def test_block_abs_max_bits_is_the_float_maximum(seed):
    rng = np.random.default_rng(seed)
    block = (rng.standard_normal((3, 50)) * 10.0 ** rng.integers(-44, 30, (3, 50))).astype(np.float32)
    block[0, :5] = [0.0, -0.0, 1e-45, -3e-42, np.float32(1.1754942e-38)]  # zeros and subnormals
    for na, n in ((3, 50), (1, 5), (2, 17)):
        got, want = simd.block_abs_max_vector(block, na, n), simd.block_abs_max_plain(block, na, n)
        assert got == want == float(np.abs(block[:na, :n]).max())
    assert simd.block_abs_max_vector(np.zeros((2, 4), np.float32), 2, 4) == 0.0


def test_the_switch_makes_the_kernels_call_the_plain_twins(tmp_path):
    """In a fresh process with ``ZEROSUM_SIMD=0``: the kernels' names are the twins, and Numba's
    cache is a folder of its own (a kernel cached with the intrinsics would keep them)."""
    code = ("import numba; from zerosum.public_tree import simd; from zerosum.public_tree.evaluators import batches as kernels; "
            "print(simd.ENABLED, kernels.lane_prefix is simd.lane_prefix_plain, "
            "kernels.hand_values is simd.hand_values_plain, numba.config.CACHE_DIR)")
    env = {**os.environ, "ZEROSUM_SIMD": "0", "NUMBA_CACHE_DIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "True", "True", str(tmp_path / "plain-kernels")]
    env["ZEROSUM_SIMD"] = "1"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert out.split() == ["True", "False", "False", str(tmp_path)]
