"""An exact Connect Four solver: bitboards, negamax with alpha-beta, null-window search.

Why this design: Connect Four's 7x6 board has about 4.5e12 reachable positions, far too many to
enumerate, but a well-ordered alpha-beta search with a transposition table proves the value of most
positions by visiting a few thousand of them.  The design follows Pascal Pons's tutorial
("Solving Connect 4: how to build a perfect solver", blog.gamesolver.org, 2017), itself after
J. Allen (1989) and V. Allis (1988, "A knowledge-based approach of Connect-Four"):

* a position is two integers: ``mask`` (every stone) and ``position`` (the stones of the player to
  move), each column taking ``height + 1`` bits (one padding bit on top), so that a move is an
  addition, alignments are a few shifts and ``position + mask`` is a unique key;
* negamax with alpha-beta, the score bounded before searching by the number of stones left;
* the exact score is found by a binary search on the score with null windows
  ``[m, m+1]`` ("iterative null-window search", cf. MTD(f), Plaat et al. 1996), each one cheap;
  the weak solver only asks for the sign (window ``[-1, 1]``);
* a transposition table that stores, per key, a lower or an upper bound (never an exact value:
  a null-window search proves only bounds), with Pons's compact layout: a prime number of slots,
  a 32-bit partial key (the Chinese remainder theorem makes key mod size + key mod 2^32 unique);
* the best move of each node is also remembered and tried first when the node is visited again,
  which the many null-window passes do all the time;
* moves are ordered by the number of winning cells they create (threats), centre columns first,
  and moves that let the opponent win at once are never played (anticipation of immediate losses).

Score convention (Pons's test sets): from the point of view of the player to move, 0 for a draw,
positive for a win: ``(width*height + 1)//2 + 1`` minus the number of stones the winner has played
when the game ends (22 minus that number on 7x6), negative for a loss.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..errors import ZerosumError

__all__ = ["Connect4Solver", "Position", "parse_moves"]

_LOW32 = np.int64(0xFFFFFFFF)


# --------------------------------------------------------------------------- bitboard kernels

@njit(cache=True, inline="always")
def _popcount(x):
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101) >> 56


@njit(cache=True, inline="always")
def _aligned(pos, s):
    """Cells that complete three stones of ``pos`` aligned along shift ``s`` (both ways)."""
    p = (pos << s) & (pos << (2 * s))
    r = p & (pos << (3 * s))
    r |= p & (pos >> s)
    p = (pos >> s) & (pos >> (2 * s))
    r |= p & (pos << s)
    r |= p & (pos >> (3 * s))
    return r


@njit(cache=True, inline="always")
def _winning_cells(pos, mask, H, board):
    """Empty cells that would complete four in a row for the owner of ``pos``: vertical (three
    stones below), horizontal (shift H+1) and the two diagonals (shifts H and H+2)."""
    r = (pos << 1) & (pos << 2) & (pos << 3)
    r |= _aligned(pos, H + 1)
    r |= _aligned(pos, H)
    r |= _aligned(pos, H + 2)
    return r & (board ^ mask)


@njit(cache=True, inline="always")
def _non_losing_moves(pos, mask, H, bottom, board):
    """Playable cells (one bit per column) that do not give the opponent an immediate win."""
    possible = (mask + bottom) & board
    opp_win = _winning_cells(pos ^ mask, mask, H, board)
    forced = possible & opp_win
    if forced != 0:
        if forced & (forced - 1) != 0:  # two threats at once: every move loses
            return 0
        possible = forced
    return possible & ~(opp_win >> 1)  # never play just below an opponent's winning cell


@njit(cache=True)
def _negamax(pos, mask, n, alpha, beta, W, H, bottom, board, order,
             table, nb, epoch, smin, span, sym, mv, sc, nodes):
    """Score of a position where the player to move cannot win at once, within [alpha, beta]:
    fail-soft alpha-beta, exact inside the window, a bound outside it."""
    nodes[0] += 1
    possible = _non_losing_moves(pos, mask, H, bottom, board)
    cells = W * H
    if possible == 0:  # every move lets the opponent win next
        return -((cells - n) // 2)
    if n >= cells - 2:  # no winner among the last two stones
        return 0
    lo = -((cells - 2 - n) // 2)  # the opponent cannot win with its next stone
    if alpha < lo:
        alpha = lo
        if alpha >= beta:
            return alpha
    hi = (cells - 1 - n) // 2  # we cannot win with our next stone
    key = pos + mask
    flip = False
    if sym and 3 * n < cells:  # a position and its mirror share one entry (early: later rare)
        mk = _mirror(key, W, H)
        if mk < key:
            key = mk
            flip = True
    bucket = 2 * (key % nb)
    tag = ((key & _LOW32) << 32) | (epoch << 24)  # partial key and table generation
    e = table[bucket]
    if (e ^ tag) >> 24 != 0:
        e = table[bucket + 1]
        if (e ^ tag) >> 24 != 0:
            e = 0
    tt_move = -1
    if e & 0xFF != 0:
        v = e & 0xFF
        tt_move = ((e >> 8) & 0xFF) - 1
        if flip and tt_move >= 0:
            tt_move = W - 1 - tt_move
        if v > span:  # lower bound
            b = v - span + smin - 1
            if alpha < b:
                alpha = b
                if alpha >= beta:
                    return alpha
        elif v > 0:  # upper bound
            b = v + smin - 1
            if beta > b:
                beta = b
                if alpha >= beta:
                    return beta
    if beta > hi:
        beta = hi
        if alpha >= beta:
            return beta

    # move ordering: table move first, then by number of threats created, centre first on ties
    k = 0
    for i in range(W):
        c = order[i]
        m = possible & (((np.int64(1) << H) - 1) << (c * (H + 1)))
        if m != 0:
            s = _popcount(_winning_cells(pos | m, mask, H, board))
            if c == tt_move:
                s = 1000
            j = k
            while j > 0 and sc[n, j - 1] < s:
                sc[n, j] = sc[n, j - 1]
                mv[n, j] = mv[n, j - 1]
                j -= 1
            sc[n, j] = s
            mv[n, j] = c
            k += 1

    best_col = -1
    for i in range(k):
        c = mv[n, i]
        m = possible & (((np.int64(1) << H) - 1) << (c * (H + 1)))
        p2 = pos ^ mask  # the opponent's stones: the player to move in the child
        score = -_negamax(p2, mask | m, n + 1, -beta, -alpha, W, H, bottom, board, order,
                          table, nb, epoch, smin, span, sym, mv, sc, nodes)
        if score >= beta:
            _store(table, bucket, tag, n, score, True, c, flip, W, smin, span)
            return score
        if score > alpha:
            alpha = score
            best_col = c
    _store(table, bucket, tag, n, alpha, False, best_col if best_col >= 0 else tt_move, flip, W,
           smin, span)
    return alpha


# fields of one stack frame of _search (one row of ``stk`` per depth below the root)
_POS, _MASK, _ALPHA, _BETA, _BUCKET, _TAG, _FLIP, _TTMOVE, _K, _I, _BEST, _POSSIBLE, _LAST = range(13)
_MOVES = 16  # the frame's ordered moves start at this column


@njit(cache=True)
def _search(pos, mask, n0, alpha, beta, W, H, bottom, board, order,
            table, nb, epoch, smin, span, sym, stk, nodes):
    """The same search as :func:`_negamax` (same nodes, same order, same table traffic) with an
    explicit stack instead of recursion: one compiled loop, no call per node."""
    cells = W * H
    colbits = (np.int64(1) << H) - 1
    sp = 0
    stk[0, _POS] = pos
    stk[0, _MASK] = mask
    stk[0, _ALPHA] = alpha
    stk[0, _BETA] = beta
    ret = 0
    entering = True
    while True:
        if entering:
            # ---- a new node: the head of _negamax
            n = n0 + sp
            pos = stk[sp, _POS]
            mask = stk[sp, _MASK]
            alpha = stk[sp, _ALPHA]
            beta = stk[sp, _BETA]
            nodes[0] += 1
            entering = False
            possible = _non_losing_moves(pos, mask, H, bottom, board)
            if possible == 0:
                ret = -((cells - n) // 2)
            elif n >= cells - 2:
                ret = 0
            else:
                done = False
                lo = -((cells - 2 - n) // 2)
                if alpha < lo:
                    alpha = lo
                    if alpha >= beta:
                        ret = alpha
                        done = True
                if not done:
                    hi = (cells - 1 - n) // 2
                    key = pos + mask
                    flip = 0
                    if sym and 3 * n < cells:  # mirrors meet only early in the game
                        mk = _mirror(key, W, H)
                        if mk < key:
                            key = mk
                            flip = 1
                    bucket = 2 * (key % nb)
                    tag = ((key & _LOW32) << 32) | (epoch << 24)
                    e = table[bucket]
                    if (e ^ tag) >> 24 != 0:
                        e = table[bucket + 1]
                        if (e ^ tag) >> 24 != 0:
                            e = 0
                    tt_move = -1
                    if e & 0xFF != 0:
                        v = e & 0xFF
                        tt_move = ((e >> 8) & 0xFF) - 1
                        if flip == 1 and tt_move >= 0:
                            tt_move = W - 1 - tt_move
                        if v > span:
                            b = v - span + smin - 1
                            if alpha < b:
                                alpha = b
                                if alpha >= beta:
                                    ret = alpha
                                    done = True
                        else:
                            b = v + smin - 1
                            if beta > b:
                                beta = b
                                if alpha >= beta:
                                    ret = beta
                                    done = True
                    if not done and beta > hi:
                        beta = hi
                        if alpha >= beta:
                            ret = beta
                            done = True
                    if not done:
                        k = 0
                        for i in range(W):
                            c = order[i]
                            m = possible & (colbits << (c * (H + 1)))
                            if m != 0:
                                sc = _popcount(_winning_cells(pos | m, mask, H, board))
                                if c == tt_move:
                                    sc = 1000
                                sc = sc * 16 + (15 - i)  # ties: the earlier (more central) first
                                j = k
                                while j > 0 and stk[sp, _MOVES + j - 1] < sc:
                                    stk[sp, _MOVES + j] = stk[sp, _MOVES + j - 1]
                                    j -= 1
                                stk[sp, _MOVES + j] = sc
                                k += 1
                        stk[sp, _ALPHA] = alpha
                        stk[sp, _BETA] = beta
                        stk[sp, _BUCKET] = bucket
                        stk[sp, _TAG] = tag
                        stk[sp, _FLIP] = flip
                        stk[sp, _TTMOVE] = tt_move
                        stk[sp, _K] = k
                        stk[sp, _I] = 0
                        stk[sp, _BEST] = -1
                        stk[sp, _POSSIBLE] = possible
                        # ---- descend into the first child (k >= 1: possible != 0)
                        entering = True
            if not entering:
                # the node returned at once with ``ret``: fall through to the parent
                pass
            else:
                c = order[15 - (stk[sp, _MOVES] & 15)]
                stk[sp, _I] = 1
                stk[sp, _LAST] = c
                m = possible & (colbits << (c * (H + 1)))
                stk[sp + 1, _POS] = pos ^ mask
                stk[sp + 1, _MASK] = mask | m
                stk[sp + 1, _ALPHA] = -beta
                stk[sp + 1, _BETA] = -alpha
                sp += 1
                continue
        # ---- a child of the node at sp - 1 returned ``ret``
        while True:
            if sp == 0:
                return ret
            sp -= 1
            n = n0 + sp
            score = -ret
            alpha = stk[sp, _ALPHA]
            beta = stk[sp, _BETA]
            c = stk[sp, _LAST]
            if score >= beta:
                _store(table, stk[sp, _BUCKET], stk[sp, _TAG], n, score, True, c, stk[sp, _FLIP] == 1,
                       W, smin, span)
                ret = score
                continue  # this node returns too
            if score > alpha:
                alpha = score
                stk[sp, _ALPHA] = alpha
                stk[sp, _BEST] = c
            i = stk[sp, _I]
            if i < stk[sp, _K]:
                c = order[15 - (stk[sp, _MOVES + i] & 15)]
                stk[sp, _I] = i + 1
                stk[sp, _LAST] = c
                pos = stk[sp, _POS]
                mask = stk[sp, _MASK]
                m = stk[sp, _POSSIBLE] & (colbits << (c * (H + 1)))
                stk[sp + 1, _POS] = pos ^ mask
                stk[sp + 1, _MASK] = mask | m
                stk[sp + 1, _ALPHA] = -beta
                stk[sp + 1, _BETA] = -alpha
                sp += 1
                entering = True
                break
            best_col = stk[sp, _BEST]
            if best_col < 0:
                best_col = stk[sp, _TTMOVE]
            _store(table, stk[sp, _BUCKET], stk[sp, _TAG], n, alpha, False, best_col,
                   stk[sp, _FLIP] == 1, W, smin, span)
            ret = alpha


@njit(cache=True, inline="always")
def _mirror(key, W, H):
    h1 = H + 1
    col = (np.int64(1) << h1) - 1
    out = np.int64(0)
    for c in range(W):
        out |= ((key >> (c * h1)) & col) << ((W - 1 - c) * h1)
    return out


@njit(cache=True, inline="always")
def _store(table, bucket, tag, n, score, lower, col, flip, W, smin, span):
    """An entry is one int64: partial key (32 bits) | generation (8) | depth (8) | best column + 1
    (8) | bound (8); an entry of an older generation is empty.  Two slots per bucket (one cache
    line): the first keeps the shallowest entry (the most work saved), the second the latest; an
    entry already there for this key is overwritten."""
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
    v = score - smin + 1
    if v < 1:
        v = 1
    elif v > span:
        v = span
    if lower:
        v += span
    table[slot] = tag | (n << 16) | ((col + 1) << 8) | v


@njit(cache=True)
def _solve(pos, mask, n, weak, W, H, bottom, board, order, table, nb, epoch, smin, span,
           sym, mv, sc, stk, nodes, recursive):
    """Exact score (or, when ``weak``, its sign) by a binary search of null-window searches."""
    cells = W * H
    possible = (mask + bottom) & board
    if _winning_cells(pos, mask, H, board) & possible != 0:
        return 1 if weak else (cells + 1 - n) // 2
    if n >= cells:
        return 0
    lo = -((cells - n) // 2)
    hi = (cells + 1 - n) // 2
    if weak:
        lo = -1
        hi = 1
    while lo < hi:
        med = lo + (hi - lo) // 2
        # Pons: probe nearer to 0 first, where most positions' scores lie
        if med <= 0 and -((-lo) // 2) < med:
            med = -((-lo) // 2)
        elif med >= 0 and hi // 2 > med:
            med = hi // 2
        if recursive:
            r = _negamax(pos, mask, n, med, med + 1, W, H, bottom, board, order,
                         table, nb, epoch, smin, span, sym, mv, sc, nodes)
        else:
            r = _search(pos, mask, n, med, med + 1, W, H, bottom, board, order,
                        table, nb, epoch, smin, span, sym, stk, nodes)
        if r <= med:
            hi = r
        else:
            lo = r
    if weak:
        return 1 if lo > 0 else (-1 if lo < 0 else 0)
    return lo


# --------------------------------------------------------------------------- positions (Python)

class Position:
    """A Connect Four position as Pons's two bitboards, built from a move string."""

    __slots__ = ("height", "mask", "n", "pos", "width")

    def __init__(self, width: int = 7, height: int = 6):
        self.width, self.height = width, height
        self.pos = 0
        self.mask = 0
        self.n = 0

    def _col_bits(self, col: int) -> tuple[int, int, int]:
        h1 = self.height + 1
        return (1 << (col * h1), 1 << (self.height - 1 + col * h1), ((1 << self.height) - 1) << (col * h1))

    def can_play(self, col: int) -> bool:
        return self.mask & self._col_bits(col)[1] == 0

    def is_winning_move(self, col: int) -> bool:
        bottom, _, column = self._col_bits(col)
        cell = (self.mask + bottom) & column
        return _has_four(self.pos | cell, self.height)

    def play(self, col: int) -> None:
        bottom = self._col_bits(col)[0]
        self.pos ^= self.mask
        self.mask |= self.mask + bottom
        self.n += 1

    def copy(self) -> Position:
        p = Position(self.width, self.height)
        p.pos, p.mask, p.n = self.pos, self.mask, self.n
        return p


def _has_four(pos: int, H: int) -> bool:
    for s in (1, H + 1, H, H + 2):
        m = pos & (pos >> s)
        if m & (m >> (2 * s)):
            return True
    return False


@njit(cache=True)
def _play_columns(cols, W, H):
    """Play 0-based columns from the empty board.  Returns (position, mask, moves played, error,
    index of the offending move): error 0 none, 1 out of range, 2 full column, 3 game already won."""
    pos = np.int64(0)
    mask = np.int64(0)
    for i in range(cols.shape[0]):
        c = cols[i]
        if c < 0 or c >= W:
            return pos, mask, i, 1, i
        if mask & (np.int64(1) << (H - 1 + c * (H + 1))) != 0:
            return pos, mask, i, 2, i
        if i > 0:
            last = pos ^ mask  # the stones of the player who just moved
            for s in (1, H + 1, H, H + 2):
                m = last & (last >> s)
                if m & (m >> (2 * s)) != 0:
                    return pos, mask, i, 3, i
        pos ^= mask
        mask |= mask + (np.int64(1) << (c * (H + 1)))
    return pos, mask, cols.shape[0], 0, -1


def parse_moves(moves: str, width: int = 7, height: int = 6) -> Position:
    """The position after ``moves`` (1-based columns); a ZerosumError names any bad move."""
    if not isinstance(moves, str):
        raise ZerosumError(f"moves must be a string of columns 1..{width}, got {type(moves).__name__}")
    text = moves.strip()
    for i, ch in enumerate(text, start=1):
        if not ("0" <= ch <= "9"):
            raise ZerosumError(f"invalid move {ch!r} at position {i} of {text!r}: "
                               f"not a column number 1..{width}")
    cols = np.frombuffer(text.encode("ascii"), dtype=np.uint8).astype(np.int64) - ord("1")
    pos, mask, n, err, at = _play_columns(cols, width, height)
    if err:
        ch = text[at]
        why = {1: f"column out of range 1..{width}", 2: f"column {ch} is full",
               3: "the game was already won by the previous move"}[err]
        raise ZerosumError(f"invalid move {ch!r} at position {at + 1} of {text!r}: {why}")
    p = Position(width, height)
    p.pos, p.mask, p.n = int(pos), int(mask), int(n)
    return p


# --------------------------------------------------------------------------- the solver

def _next_prime(n: int) -> int:
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


class Connect4Solver:
    """Exact solver for Connect Four on a ``width`` x ``height`` board (7x6 by default).

    ``solve(moves)`` gives the score of the position after ``moves`` for the player to move,
    ``analyze(moves)`` the score of every column, ``best_move(moves)`` a best column (1-based).
    The transposition table (``2**table_size_log2`` slots, 8 bytes each) persists between
    calls; ``reset()`` empties it.  ``nodes`` is the number of nodes searched by the last call.
    """

    def __init__(self, width: int = 7, height: int = 6, table_size_log2: int = 24, symmetric: bool = True,
                 recursive: bool = False):
        if not (isinstance(width, int) and isinstance(height, int)) or width < 1 or height < 1:
            raise ZerosumError(f"board size must be positive integers, got {width}x{height}")
        if width > 9:
            raise ZerosumError(f"width {width} > 9: moves are single digits 1..9")
        if width * (height + 1) > 62:
            raise ZerosumError(f"board {width}x{height} too large: width*(height+1) must be <= 62")
        if not 10 <= table_size_log2 <= 30:
            raise ZerosumError(f"table_size_log2 must be in 10..30, got {table_size_log2}")
        self.width, self.height = width, height
        self.buckets = _next_prime(1 << (table_size_log2 - 1))  # two slots each
        self.symmetric = bool(symmetric)
        if 32 + table_size_log2 - 1 < width * (height + 1):
            raise ZerosumError(f"table_size_log2 must be at least {width * (height + 1) - 31} "
                               f"for a {width}x{height} board (keys must stay unique)")
        cells = width * height
        self.smin = -(cells // 2) - 1
        self.span = (cells + 1) // 2 + 1 - self.smin + 1
        if 2 * self.span > 255 or cells > 255:
            raise ZerosumError(f"board {width}x{height} too large for the 8-bit table values")
        h1 = height + 1
        self.bottom = sum(1 << (c * h1) for c in range(width))
        self.board = self.bottom * ((1 << height) - 1)
        self.order = np.array([width // 2 + (1 - 2 * (i % 2)) * ((i + 1) // 2) for i in range(width)],
                              dtype=np.int64)
        self._mv = np.zeros((cells + 1, width), dtype=np.int64)
        self._sc = np.zeros((cells + 1, width), dtype=np.int64)
        self._stk = np.zeros((cells + 2, _MOVES + width), dtype=np.int64)
        self._nodes = np.zeros(1, dtype=np.int64)
        self.recursive = bool(recursive)
        self.nodes = 0
        self.table = np.zeros(2 * self.buckets, dtype=np.int64)
        self.table.fill(0)  # touch every page now, not during a search
        self.epoch = 0
        self.reset()

    def reset(self) -> None:
        """Empty the transposition table.  Entries carry an 8-bit generation and only those of
        the current one are read, so emptying is a new generation (O(1), no 100 MB write that
        would flush the caches); every 255 generations the table is zeroed for real."""
        self.epoch += 1
        if self.epoch > 255:
            self.epoch = 1
            self.table.fill(0)

    def position(self, moves: str) -> Position:
        return parse_moves(moves, self.width, self.height)

    def _solve_position(self, p: Position, weak: bool) -> int:
        return int(_solve(np.int64(p.pos), np.int64(p.mask), p.n, bool(weak), self.width, self.height,
                          np.int64(self.bottom), np.int64(self.board), self.order, self.table,
                          np.int64(self.buckets), np.int64(self.epoch), self.smin, self.span,
                          self.symmetric, self._mv, self._sc, self._stk, self._nodes, self.recursive))

    def _check_not_over(self, p: Position, moves: str) -> None:
        if p.n > 0 and _has_four(p.pos ^ p.mask, self.height):
            raise ZerosumError(f"the game {moves!r} is already won by its last move")

    def solve(self, moves: str, weak: bool = False) -> int:
        """Score of the position after ``moves`` for the player to move (weak: -1, 0 or 1).
        A finished game (full board) scores 0; a won game is refused."""
        p = self.position(moves)
        self._check_not_over(p, moves)
        self._nodes[0] = 0
        score = self._solve_position(p, weak)
        self.nodes = int(self._nodes[0])
        return score

    def analyze(self, moves: str, weak: bool = False) -> list[int | None]:
        """For each column 1..width, the score of playing it for the player who plays it
        (None for a full column).  The best of them is ``solve(moves)``."""
        p = self.position(moves)
        self._check_not_over(p, moves)
        cells = self.width * self.height
        out: list[int | None] = []
        total = 0
        for col in range(self.width):
            if not p.can_play(col):
                out.append(None)
                continue
            if p.is_winning_move(col):
                out.append(1 if weak else (cells + 1 - p.n) // 2)
                continue
            child = p.copy()
            child.play(col)
            self._nodes[0] = 0
            out.append(-self._solve_position(child, weak))
            total += int(self._nodes[0])
        self.nodes = total
        return out

    def best_move(self, moves: str) -> int:
        """A best column (1-based) for the player to move; among equals the most central."""
        scores = self.analyze(moves)
        playable = [c for c in range(self.width) if scores[c] is not None]
        if not playable:
            raise ZerosumError(f"no move left after {moves!r}: the board is full")
        top = max(scores[c] for c in playable)
        for c in self.order:
            if scores[c] == top:
                return int(c) + 1
        raise AssertionError("unreachable")
