"""The Connect Four bitboard functions (zerosum.perfect.bitboard) against brute force on a grid of
cells, on random positions: in Python (any board, 9x12 is 117 bits) and compiled with Numba, as
the solver compiles them (64-bit boards)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from numba import njit

from zerosum.perfect import bitboard
from zerosum.perfect.bitboard import (
    board_mask,
    bottom_cell,
    bottom_mask,
    column_mask,
    has_four,
    mirror,
    playable,
    popcount,
    top_cell,
    winning_cells,
)

BOARDS = [(7, 6), (5, 4), (4, 7), (9, 12), (6, 1)]
COMPILED_BOARDS = [(7, 6), (8, 6), (9, 5), (5, 4)]  # width * (height + 1) <= 62


def bit(c, r, h):
    return 1 << (c * (h + 1) + r)


def lines(w, h):
    """Every line of four cells on the board, as lists of (column, row)."""
    out = []
    for c in range(w):
        for r in range(h):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(c + k * dc, r + k * dr) for k in range(4)]
                if all(0 <= cc < w and 0 <= rr < h for cc, rr in cells):
                    out.append(cells)
    return out


def random_cells(rng, w, h, density):
    """Any set of cells (no gravity), as a set of (column, row)."""
    return {(c, r) for c in range(w) for r in range(h) if rng.random() < density}


def random_position(rng, w, h):
    """A position that obeys gravity: (stones of one player, mask of all stones, column heights)."""
    heights = [rng.randint(0, h) for _ in range(w)]
    stones = mask = 0
    for c, top in enumerate(heights):
        for r in range(top):
            mask |= bit(c, r, h)
            if rng.random() < 0.5:
                stones |= bit(c, r, h)
    return stones, mask, heights


def to_bits(cells, h):
    return sum(bit(c, r, h) for c, r in cells)


def brute_winning_cells(stones, mask, w, h):
    """Empty cells x such that some line of four holds x and three of ``stones``."""
    out = 0
    for cells in lines(w, h):
        bits = [bit(c, r, h) for c, r in cells]
        empty = [b for b in bits if not mask & b]
        if len(empty) == 1 and sum(1 for b in bits if stones & b) == 3:
            out |= empty[0]
    return out


def test_masks_are_the_cells_they_name():
    for w, h in BOARDS:
        for c in range(w):
            assert bottom_cell(c, h) == bit(c, 0, h)
            assert top_cell(c, h) == bit(c, h - 1, h)
            assert column_mask(c, h) == sum(bit(c, r, h) for r in range(h))
        assert bottom_mask(w, h) == sum(bit(c, 0, h) for c in range(w))
        assert board_mask(w, h) == sum(bit(c, r, h) for c in range(w) for r in range(h))
    # 7x6: seven groups of 7 bits, the top one of each empty (the padding)
    assert board_mask(7, 6) == 0b0111111_0111111_0111111_0111111_0111111_0111111_0111111
    assert bottom_mask(7, 6) == 0b0000001_0000001_0000001_0000001_0000001_0000001_0000001


@pytest.mark.parametrize("w,h", BOARDS)
def test_has_four_agrees_with_a_scan_of_every_line(w, h):
    rng = random.Random(w * 100 + h)
    all_lines = lines(w, h)
    seen = {True: 0, False: 0}
    for i in range(400):
        cells = random_cells(rng, w, h, density=0.15 + 0.5 * (i % 5) / 5)
        expected = any(all(cell in cells for cell in line) for line in all_lines)
        assert has_four(to_bits(cells, h), h) is expected, (w, h, sorted(cells))
        seen[expected] += 1
    assert min(seen.values()) > 20, seen  # both answers were tested often


def test_has_four_finds_each_direction_and_not_across_columns():
    h = 6
    assert has_four(sum(bit(2, r, h) for r in range(1, 5)), h)              # vertical
    assert has_four(sum(bit(c, 3, h) for c in range(3, 7)), h)              # horizontal
    assert has_four(sum(bit(c, c, h) for c in range(4)), h)                 # diagonal /
    assert has_four(sum(bit(c, 5 - c, h) for c in range(1, 5)), h)          # diagonal \
    # three on top of one column and one at the bottom of the next: consecutive bits, no four
    assert not has_four(bit(0, 3, h) | bit(0, 4, h) | bit(0, 5, h) | bit(1, 0, h), h)
    assert not has_four(sum(bit(c, 3, h) for c in range(3)) | bit(4, 3, h), h)


@pytest.mark.parametrize("w,h", BOARDS)
def test_winning_cells_are_the_empty_cells_that_complete_a_line(w, h):
    rng = random.Random(w * 1000 + h)
    board = board_mask(w, h)
    found = 0
    for _ in range(300):
        stones, mask, _heights = random_position(rng, w, h)
        for owner in (stones, stones ^ mask):
            expected = brute_winning_cells(owner, mask, w, h)
            assert winning_cells(owner, mask, h, board) == expected
            # mask=0 adds occupied cells only (the game's ConnectFour.winning_cells)
            assert winning_cells(owner, 0, h, board) & ~mask == expected
            found += expected.bit_count()
    assert found > 40


@pytest.mark.parametrize("w,h", BOARDS)
def test_playable_is_the_lowest_empty_cell_of_each_column(w, h):
    rng = random.Random(w + h)
    for _ in range(100):
        _stones, mask, heights = random_position(rng, w, h)
        expected = sum(bit(c, top, h) for c, top in enumerate(heights) if top < h)
        assert playable(mask, bottom_mask(w, h), board_mask(w, h)) == expected


@pytest.mark.parametrize("w,h", BOARDS)
def test_mirror_swaps_the_columns(w, h):
    rng = random.Random(7 * w + h)
    for _ in range(100):
        cells = random_cells(rng, w, h, density=0.4)
        x = to_bits(cells, h)
        assert mirror(x, w, h) == to_bits({(w - 1 - c, r) for c, r in cells}, h)
        assert mirror(mirror(x, w, h), w, h) == x
    # the key position + mask keeps its marker bit above each column's stones
    assert mirror(bit(0, 6, 6) | bit(6, 0, 6), 7, 6) == bit(6, 6, 6) | bit(0, 0, 6)


def test_popcount_counts_the_bits_of_64_bit_words():
    rng = random.Random(3)
    values = [0, 1, 2**63 - 1, 2**63, 2**64 - 1, 0x5555555555555555, 0xAAAAAAAAAAAAAAAA]
    values += [rng.getrandbits(64) >> rng.randint(0, 63) for _ in range(2000)]
    for x in values:
        assert popcount(x) == x.bit_count(), hex(x)
    assert popcount(2**64 - 1) == 64 and popcount(0xAAAAAAAAAAAAAAAA) == 32


_compiled = {name: njit(getattr(bitboard, name)) for name in
             ("has_four", "winning_cells", "popcount", "mirror", "playable", "column_mask", "board_mask",
              "bottom_mask", "top_cell", "bottom_cell")}


@pytest.mark.parametrize("w,h", COMPILED_BOARDS)
def test_compiled_twins_agree_with_the_python_functions(w, h):
    """The solver compiles these same functions (njit) and runs them on int64 words."""
    rng = random.Random(w * 31 + h)
    board, bottom = board_mask(w, h), bottom_mask(w, h)
    jit = _compiled
    assert jit["board_mask"](w, h) == board and jit["bottom_mask"](w, h) == bottom
    for c in range(w):
        assert jit["column_mask"](c, h) == column_mask(c, h)
        assert jit["top_cell"](c, h) == top_cell(c, h) and jit["bottom_cell"](c, h) == bottom_cell(c, h)
    fours = 0
    for _ in range(300):
        stones, mask, _heights = random_position(rng, w, h)
        s64, m64 = np.int64(stones), np.int64(mask)
        assert jit["has_four"](s64, h) == has_four(stones, h)
        fours += has_four(stones, h)
        wc = winning_cells(stones, mask, h, board)
        assert jit["winning_cells"](s64, m64, h, np.int64(board)) == wc
        assert jit["popcount"](np.int64(wc)) == wc.bit_count()
        assert jit["popcount"](m64) == mask.bit_count()
        assert jit["mirror"](s64 + m64, w, h) == mirror(stones + mask, w, h)
        assert jit["playable"](m64, np.int64(bottom), np.int64(board)) == playable(mask, bottom, board)
    assert fours > 10
