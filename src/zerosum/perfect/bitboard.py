"""Connect Four bitboards (Pascal Pons's layout), written once for the game and the solver.

A board of ``width`` x ``height`` cells is an integer: column ``c`` takes the bits
``c*(height+1) .. c*(height+1) + height - 1`` (row 0 at the bottom) and one padding bit above
them that is always empty, so that a line of four in any direction is a few shifts and ANDs (the
shift is 1 vertically, ``height + 1`` horizontally, ``height`` and ``height + 2`` along the
diagonals) and no line wraps from one column into the next.  A position is two such integers:
the stones of the player to move and ``mask``, every stone; a move is an addition
(``mask | (mask + bottom_cell(col, height))``) and ``stones + mask`` is a unique key.

Who uses it: :mod:`zerosum.perfect.connect4` (the game for the generic search library) calls these
functions on Python integers, of any size (boards up to 9x12 there, 117 bits); the exact solver
(:mod:`zerosum.perfect.connect4_search`, :mod:`zerosum.perfect.connect4_table`,
:mod:`zerosum.perfect.connect4_solver`) compiles the same functions with Numba
(``njit(cache=True, inline="always")(winning_cells)``), where they work on 64-bit integers
(``width * (height + 1) <= 62``) and are inlined into its search loop.  So each function here is
written in the part of Python that Numba compiles in nopython mode: integers, shifts, loops over
``range`` and over tuples of integers; no NumPy, no calls to one another (a compiled twin can
only call compiled functions), and no import of Numba, so that the game, which loads with
:mod:`zerosum.perfect`, stays light (Numba's import is about 0.3 s).

Imports: nothing (the standard library only, not even that today).  Everything that imports it
is in :mod:`zerosum.perfect`.
"""

from __future__ import annotations

__all__ = ["board_mask", "bottom_cell", "bottom_mask", "column_mask", "has_four", "mirror", "playable",
           "popcount", "top_cell", "winning_cells"]


def bottom_cell(col, height):
    """The bottom cell of column ``col`` (0-based)."""
    return 1 << (col * (height + 1))


def top_cell(col, height):
    """The top cell of column ``col``: the column is full when it is occupied."""
    return 1 << (height - 1 + col * (height + 1))


def column_mask(col, height):
    """Every cell of column ``col`` (its padding bit excluded)."""
    return ((1 << height) - 1) << (col * (height + 1))


def bottom_mask(width, height):
    """The bottom cell of every column."""
    b = 0
    for c in range(width):
        b |= 1 << (c * (height + 1))
    return b


def board_mask(width, height):
    """Every cell of the board (no padding bit)."""
    b = 0
    for c in range(width):
        b |= ((1 << height) - 1) << (c * (height + 1))
    return b


def playable(mask, bottom, board):
    """The cell each column would take next, one bit per column that is not full; ``bottom`` is
    :func:`bottom_mask` and ``board`` :func:`board_mask`."""
    return (mask + bottom) & board


def has_four(stones, height):
    """Whether ``stones`` hold four in a row: vertical, horizontal or diagonal."""
    for s in (1, height + 1, height, height + 2):
        m = stones & (stones >> s)
        if m & (m >> (2 * s)):
            return True
    return False


def winning_cells(stones, mask, height, board):
    """The empty cells (in ``board``, not in ``mask``) that would complete four in a row for the
    owner of ``stones`` (Pons's threats, playable or not): three stones below (vertical), or three
    of a line of four along a row (shift ``height + 1``) or a diagonal (``height``, ``height + 2``)
    with the cell at either end or inside.  ``mask=0`` gives the occupied cells too."""
    r = (stones << 1) & (stones << 2) & (stones << 3)
    for s in (height + 1, height, height + 2):
        p = (stones << s) & (stones << (2 * s))
        r |= p & (stones << (3 * s))
        r |= p & (stones >> s)
        p = (stones >> s) & (stones >> (2 * s))
        r |= p & (stones << s)
        r |= p & (stones >> (3 * s))
    return r & (board ^ mask)


def popcount(x):
    """The number of bits set in ``x`` (0 <= x < 2**64; compiled, a 64-bit integer), by the
    classic parallel sum.  Python code has ``int.bit_count()``, faster and of any size; this is
    for compiled code.  The last mask keeps Python's product (which does not wrap at 64 bits) to
    its top byte and turns Numba's signed shift into an unsigned one."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return ((x * 0x0101010101010101) >> 56) & 0xFF


def mirror(key, width, height):
    """The board (or key) seen in a mirror: column ``c`` becomes column ``width - 1 - c``."""
    h1 = height + 1
    col = (1 << h1) - 1
    out = 0
    for c in range(width):
        out |= ((key >> (c * h1)) & col) << ((width - 1 - c) * h1)
    return out
