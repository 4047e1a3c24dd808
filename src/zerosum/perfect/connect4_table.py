"""The exact Connect Four solver's two transposition tables: layout, sizes, probe and store.

A null-window search proves only bounds, so the tables hold bounds, never exact values, and each
entry also remembers the node's best move, tried first when the node is visited again (which the
repeated null-window passes of :func:`zerosum.perfect.connect4_search.solve` do all the time).

* The **big table**, for nodes with at least ``split`` (18) empty cells: Pons's compact layout, a
  prime number of buckets (:func:`next_prime`) and a 32-bit partial key, unique with the bucket
  by the Chinese remainder theorem; two slots per bucket (one cache line), the first keeping the
  shallowest entry (the most work saved), the second the latest.  An entry is one int64:
  partial key (32 bits) | generation (8) | depth (8) | best column + 1 (8) | bound (8).  In the
  first third of the game a position and its mirror image (:func:`zerosum.perfect.bitboard.mirror`)
  share one entry.
* The **small table**, for nodes with fewer empty cells, far more numerous and cheaper to search
  again: 2**15 slots of 16 bytes (512 KiB, so it stays in the CPU's cache), the whole key, then
  generation | best column + 1 | bound; Fibonacci hashing; always replaced.  Nodes with fewer
  than 4 empty cells use neither.  A read of the big table is a cache miss, and it was most of a
  node's time: 6.5 M nodes/s with one 128 MiB table for everything, 20-25 M nodes/s with the two
  (docs/connect4.md has the measurements).
* Emptying is O(1): entries carry an 8-bit generation and only the current one's are read
  (:func:`next_generation`); every 255 generations the tables are zeroed for real.

A bound is stored as ``score - smin + 1`` (from 1 to ``span``), plus ``span`` for a lower bound
(:func:`score_range`); 0 means no entry.  The kernels (:func:`probe`, :func:`record`,
:func:`entry_move`, :func:`entry_bound`) are compiled with Numba and inlined into the search;
:func:`table_move` is their one entry point from Python.

Imports: NumPy, Numba, :mod:`zerosum.errors` and :mod:`zerosum.perfect.bitboard`; imported by
:mod:`zerosum.perfect.connect4_search` and :mod:`zerosum.perfect.connect4_solver`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..errors import ZerosumError
from . import bitboard

__all__ = ["entry_bound", "entry_move", "new_tables", "next_generation", "next_prime", "probe", "record",
           "score_range", "table_move", "table_sizes"]

_LOW32 = np.int64(0xFFFFFFFF)
_HASH = np.int64(-7046029254386353131)  # 0x9E3779B97F4A7C15 (Fibonacci hashing), as a signed int64
_GENERATIONS = 255  # an entry's generation is 8 bits, 0 never used

_mirror = njit(cache=True, inline="always")(bitboard.mirror)


# --------------------------------------------------------------------------- sizes (Python)

def next_prime(n: int) -> int:
    """The smallest prime >= ``n``."""
    def is_prime(k):
        if k < 2:
            return False
        d = 2
        while d * d <= k:
            if k % d == 0:
                return False
            d += 1
        return True

    while not is_prime(n):
        n += 1
    return n


def score_range(cells: int) -> tuple[int, int]:
    """``(smin, span)`` for a board of ``cells`` cells: the stored value of a score is
    ``score - smin + 1``, from 1 to ``span`` (``span`` more for a lower bound)."""
    smin = -(cells // 2) - 1
    return smin, (cells + 1) // 2 + 1 - smin + 1


def table_sizes(width: int, height: int, table_size_log2: int) -> tuple[int, int, int]:
    """``(buckets, smin, span)`` of the big table of ``2**table_size_log2`` slots on a ``width`` x
    ``height`` board, or a ZerosumError where the layout cannot hold it."""
    if not 10 <= table_size_log2 <= 30:
        raise ZerosumError(f"table_size_log2 must be in 10..30, got {table_size_log2}")
    buckets = next_prime(1 << (table_size_log2 - 1))  # two slots each
    if 32 + table_size_log2 - 1 < width * (height + 1):
        raise ZerosumError(f"table_size_log2 must be at least {width * (height + 1) - 31} "
                           f"for a {width}x{height} board (keys must stay unique)")
    cells = width * height
    smin, span = score_range(cells)
    if 2 * span > 255 or cells > 255:
        raise ZerosumError(f"board {width}x{height} too large for the 8-bit table values")
    return buckets, smin, span


def new_tables(buckets: int, small_log2: int) -> tuple[np.ndarray, np.ndarray]:
    """The big table (two int64 slots per bucket) and the small one (``2**small_log2`` slots of
    two int64: key, entry), empty.  Their pages are touched only as they are used."""
    return np.zeros(2 * buckets, dtype=np.int64), np.zeros(2 << small_log2, dtype=np.int64)


def next_generation(epoch: int, big: np.ndarray, small: np.ndarray) -> int:
    """The generation after ``epoch``: every entry of the tables is then empty.  O(1), no 100 MB
    write that would flush the caches, except every 255 generations when the tables are zeroed."""
    epoch += 1
    if epoch > _GENERATIONS:
        epoch = 1
        big.fill(0)
        small.fill(0)
    return epoch


# --------------------------------------------------------------------------- kernels (compiled)

@njit(cache=True, inline="always")
def probe(key, n, W, H, sym, split, big, nb_big, small, small_mask, epoch):
    """The entry for ``key`` (``position + mask``, ``n`` stones played), or 0, and where it lives:
    ``(entry, slot, tag, flip)``.  With at least ``split`` empty cells, the big table: ``slot`` is
    its bucket, ``tag`` the partial key and generation, ``flip`` 1 when the key was mirrored (the
    entry's move is then mirrored too), else 0; otherwise the small table: ``slot`` is the slot,
    ``tag`` the whole key and ``flip`` 2.  :func:`record` stores there."""
    cells = W * H
    flip = 0
    if cells - n >= split:
        if sym and 3 * n < cells:  # mirrors meet only early in the game
            mk = _mirror(key, W, H)
            if mk < key:
                key = mk
                flip = 1
        slot = 2 * (key % nb_big)
        tag = ((key & _LOW32) << 32) | (epoch << 24)
        e = big[slot]
        if (e ^ tag) >> 24 != 0:
            e = big[slot + 1]
            if (e ^ tag) >> 24 != 0:
                e = 0
    else:
        flip = 2
        slot = 2 * (((key * _HASH) >> 40) & small_mask)
        tag = key
        e = 0
        if small[slot] == key:
            e = small[slot + 1]
            if e >> 24 != epoch:
                e = 0
    return e, slot, tag, flip


@njit(cache=True, inline="always")
def entry_move(e, flip, W):
    """The best column (0-based) an entry remembers, or -1."""
    move = ((e >> 8) & 0xFF) - 1
    if flip & 1 and move >= 0:
        move = W - 1 - move
    return move


@njit(cache=True, inline="always")
def entry_bound(e, smin, span):
    """``(lower, bound)`` of a non-empty entry: a lower bound when ``lower``, else an upper one."""
    v = e & 0xFF
    if v > span:
        return True, v - span + smin - 1
    return False, v + smin - 1


@njit(cache=True, inline="always")
def _value(score, lower, smin, span):
    """The bound byte of an entry."""
    v = score - smin + 1
    if v < 1:
        v = 1
    elif v > span:
        v = span
    if lower:
        v += span
    return v


@njit(cache=True, inline="always")
def _store(table, bucket, tag, n, score, lower, col, flip, W, smin, span):
    """The big table: an entry already there for this key is overwritten; otherwise the first
    slot keeps the shallowest entry (an entry of an older generation counts as empty) and the
    second the latest."""
    first = table[bucket]
    if (first ^ tag) >> 24 == 0:
        slot = bucket
    elif (table[bucket + 1] ^ tag) >> 24 == 0:
        slot = bucket + 1
    elif (first ^ tag) & 0xFF000000 != 0 or first & 0xFF == 0 or n <= (first >> 16) & 0xFF:
        table[bucket + 1] = first
        slot = bucket
    else:
        slot = bucket + 1
    if flip and col >= 0:
        col = W - 1 - col
    table[slot] = tag | (n << 16) | ((col + 1) << 8) | _value(score, lower, smin, span)


@njit(cache=True, inline="always")
def _store_small(small, slot, key, epoch, score, lower, col, smin, span):
    """The small table: one entry per slot, always replaced."""
    small[slot] = key
    small[slot + 1] = (epoch << 24) | ((col + 1) << 8) | _value(score, lower, smin, span)


@njit(cache=True, inline="always")
def record(big, small, slot, tag, flip, n, epoch, score, lower, col, W, smin, span):
    """Store a bound (``lower`` or upper) and the best column ``col`` (-1: none) of the node that
    :func:`probe` placed at ``slot``, ``tag``, ``flip``; ``n`` stones played."""
    if flip & 2:
        _store_small(small, slot, tag, epoch, score, lower, col, smin, span)
    else:
        _store(big, slot, tag, n, score, lower, col, flip == 1, W, smin, span)


@njit(cache=True)
def table_move(key, n, W, H, sym, split, big, nb_big, small, small_mask, epoch):
    """The best column (0-based) the tables remember for ``key``, or -1."""
    e, _slot, _tag, flip = probe(key, n, W, H, sym, split, big, nb_big, small, small_mask, epoch)
    return entry_move(e, flip, W)
