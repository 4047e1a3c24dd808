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
* the exact score is found by null-window searches ``[m, m+1]``, each proving the score above or
  below ``m``, the probes bisecting the range left (Pons's order, nearer 0 first); MTD(f) (Plaat
  et al. 1996: the next probe at the bound just returned) is an option, a little better on
  scores near 0, far worse on quick wins; the weak solver only asks for the sign (``[-1, 1]``);
* two transposition tables of bounds (never exact values: a null-window search proves only
  bounds).  Nodes with at least ``split`` (18) empty cells use the big one (Pons's compact layout:
  a prime number of buckets, a 32-bit partial key, unique by the Chinese remainder theorem; two
  slots per bucket).  Nodes nearer the end, far more numerous and cheaper to search again, use a
  small one (2**15 slots, 512 KiB, in cache) holding whole keys; nodes with fewer than 4 empty
  cells use none.  Reading the big table costs a cache miss, which was most of a node's time;
* the best move of each node is also remembered and tried first when the node is visited again,
  which the repeated null-window passes do all the time;
* moves are ordered by the number of winning cells they create (threats), centre columns first,
  when at least 12 cells are empty (nearer the end, centre first only), and moves that let the
  opponent win at once are never played (anticipation of immediate losses);
* the search runs on an explicit stack and pauses every ``BUDGET`` nodes: Python regains control
  (Ctrl-C lands) and calls it again to resume where it stopped.

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
_HASH = np.int64(-7046029254386353131)  # 0x9E3779B97F4A7C15 (Fibonacci hashing), as a signed int64


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


# fields of one stack frame of _search (one row of ``stk`` per depth below the root)
_POS, _MASK, _ALPHA, _BETA, _BUCKET, _TAG, _FLIP, _TTMOVE, _K, _I, _BEST, _POSSIBLE, _LAST = range(13)
_MOVES = 16  # the frame's ordered moves start at this column


@njit(cache=True)
def _search(pos, mask, n0, alpha, beta, W, H, bottom, board, order, big, nb_big, small, small_mask,
            epoch, smin, span, sym, stk, nodes, limit, resume, tt_min, sort_min, split):
    """Fail-soft negamax with alpha-beta of a position where the player to move cannot win at
    once: exact inside [alpha, beta], a bound outside it.  Recursion runs on an explicit stack
    (``stk``, one row per depth), so one compiled loop does the whole search and can stop at any
    node: when ``nodes[0]`` reaches ``limit`` it returns ``(0, sp)`` with the stack intact, and a
    call with ``resume=sp`` carries on where it stopped (the caller can react to Ctrl-C in
    between).  Otherwise it returns ``(score, -1)``.

    Nodes with fewer than ``tt_min`` empty cells neither read nor write the table (cheap to
    search again, and they would crowd out the entries that save work); nodes with fewer than
    ``sort_min`` empty cells try their moves centre first without counting threats."""
    cells = W * H
    colbits = (np.int64(1) << H) - 1
    if resume >= 0:
        sp = resume
    else:
        sp = 0
        stk[0, _POS] = pos
        stk[0, _MASK] = mask
        stk[0, _ALPHA] = alpha
        stk[0, _BETA] = beta
    ret = 0
    entering = True
    while True:
        if entering:
            # ---- a new node, its position and window in stk[sp]
            if nodes[0] >= limit:
                return 0, sp
            n = n0 + sp
            pos = stk[sp, _POS]
            mask = stk[sp, _MASK]
            alpha = stk[sp, _ALPHA]
            beta = stk[sp, _BETA]
            nodes[0] += 1
            entering = False
            possible = _non_losing_moves(pos, mask, H, bottom, board)
            left = cells - n
            if possible == 0:  # every move lets the opponent win next
                ret = -(left // 2)
            elif left <= 2:  # no winner among the last two stones
                ret = 0
            else:
                done = False
                lo = -((left - 2) // 2)  # the opponent cannot win with its next stone
                if alpha < lo:
                    alpha = lo
                    if alpha >= beta:
                        ret = alpha
                        done = True
                hi = (left - 1) // 2  # we cannot win with our next stone
                if not done and beta > hi:
                    beta = hi
                    if alpha >= beta:
                        ret = beta
                        done = True
                tt_move = -1
                bucket = -1
                tag = 0
                flip = 0
                if not done and left >= tt_min:
                    key = pos + mask
                    if left >= split:
                        # the big table: two slots per bucket, a 32-bit partial key
                        if sym and 3 * n < cells:  # mirrors meet only early in the game
                            mk = _mirror(key, W, H)
                            if mk < key:
                                key = mk
                                flip = 1
                        bucket = 2 * (key % nb_big)
                        tag = ((key & _LOW32) << 32) | (epoch << 24)
                        e = big[bucket]
                        if (e ^ tag) >> 24 != 0:
                            e = big[bucket + 1]
                            if (e ^ tag) >> 24 != 0:
                                e = 0
                    else:
                        # the small table (kept in cache): the whole key, then the entry
                        flip = 2
                        bucket = 2 * (((key * _HASH) >> 40) & small_mask)
                        tag = key
                        e = 0
                        if small[bucket] == key:
                            e = small[bucket + 1]
                            if e >> 24 != epoch:
                                e = 0
                    if e & 0xFF != 0:
                        v = e & 0xFF
                        tt_move = ((e >> 8) & 0xFF) - 1
                        if flip & 1 and tt_move >= 0:
                            tt_move = W - 1 - tt_move
                        if v > span:  # lower bound
                            b = v - span + smin - 1
                            if alpha < b:
                                alpha = b
                                if alpha >= beta:
                                    ret = alpha
                                    done = True
                        else:  # upper bound
                            b = v + smin - 1
                            if beta > b:
                                beta = b
                                if alpha >= beta:
                                    ret = beta
                                    done = True
                if not done:
                    # moves in order: the table's move, then by threats created, centre first
                    k = 0
                    if left >= sort_min:
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
                    else:
                        for i in range(W):
                            c = order[i]
                            if possible & (colbits << (c * (H + 1))) != 0:
                                stk[sp, _MOVES + k] = 15 - i
                                k += 1
                    stk[sp, _ALPHA] = alpha
                    stk[sp, _BETA] = beta
                    stk[sp, _BUCKET] = bucket
                    stk[sp, _TAG] = tag
                    stk[sp, _FLIP] = flip
                    stk[sp, _TTMOVE] = tt_move
                    stk[sp, _K] = k
                    stk[sp, _BEST] = -1
                    stk[sp, _POSSIBLE] = possible
                    # ---- descend into the first child (k >= 1: possible != 0)
                    c = order[15 - (stk[sp, _MOVES] & 15)]
                    stk[sp, _I] = 1
                    stk[sp, _LAST] = c
                    m = possible & (colbits << (c * (H + 1)))
                    stk[sp + 1, _POS] = pos ^ mask
                    stk[sp + 1, _MASK] = mask | m
                    stk[sp + 1, _ALPHA] = -beta
                    stk[sp + 1, _BETA] = -alpha
                    sp += 1
                    entering = True
                    continue
        # ---- the node at sp returned ``ret``: back to its parent
        while True:
            if sp == 0:
                return ret, -1
            sp -= 1
            score = -ret
            alpha = stk[sp, _ALPHA]
            beta = stk[sp, _BETA]
            c = stk[sp, _LAST]
            if score >= beta:
                if stk[sp, _BUCKET] >= 0:
                    f = stk[sp, _FLIP]
                    if f & 2:
                        _store_small(small, stk[sp, _BUCKET], stk[sp, _TAG], epoch, score, True, c, smin, span)
                    else:
                        _store(big, stk[sp, _BUCKET], stk[sp, _TAG], n0 + sp, score, True, c, f == 1, W,
                               smin, span)
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
            if stk[sp, _BUCKET] >= 0:
                best_col = stk[sp, _BEST]
                if best_col < 0:
                    best_col = stk[sp, _TTMOVE]
                f = stk[sp, _FLIP]
                if f & 2:
                    _store_small(small, stk[sp, _BUCKET], stk[sp, _TAG], epoch, alpha, False, best_col,
                                 smin, span)
                else:
                    _store(big, stk[sp, _BUCKET], stk[sp, _TAG], n0 + sp, alpha, False, best_col, f == 1,
                           W, smin, span)
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


# the state of a solve between two calls of _solve (int64 array): phase, score bounds, probe, stack
_PHASE, _LO, _HI, _PROBE, _SP = range(5)
_FRESH, _PAUSED, _DONE = 0, 1, 2


@njit(cache=True, inline="always")
def _store_small(small, slot, key, epoch, score, lower, col, smin, span):
    """The small table: one entry per slot, always replaced: the whole key, then generation (8
    bits) | best column + 1 (8) | bound (8) as in the big table."""
    v = score - smin + 1
    if v < 1:
        v = 1
    elif v > span:
        v = span
    if lower:
        v += span
    small[slot] = key
    small[slot + 1] = (epoch << 24) | ((col + 1) << 8) | v


@njit(cache=True)
def _solve(pos, mask, n, weak, W, H, bottom, board, order, big, nb_big, small, small_mask, epoch,
           smin, span, sym, stk, nodes, state, budget, tt_min, sort_min, split, mtdf):
    """Exact score (or, when ``weak``, its sign) by a sequence of null-window searches, each
    proving the score above or below a probe, until the bounds meet.  After ``budget`` nodes it
    stops with ``state[_PHASE] == _PAUSED`` and the next call resumes; ``_DONE`` when solved."""
    cells = W * H
    if state[_PHASE] == _FRESH:
        possible = (mask + bottom) & board
        if _winning_cells(pos, mask, H, board) & possible != 0:
            state[_PHASE] = _DONE
            return 1 if weak else (cells + 1 - n) // 2
        if n >= cells:
            state[_PHASE] = _DONE
            return 0
        lo = -((cells - n) // 2)
        hi = (cells + 1 - n) // 2
        if weak:
            lo = -1
            hi = 1
        resume = -1
        guess = 0
    else:
        lo = state[_LO]
        hi = state[_HI]
        resume = state[_SP]
        guess = state[_PROBE]
    limit = nodes[0] + budget
    while lo < hi:
        if resume >= 0:
            med = state[_PROBE]
        else:
            med = lo + (hi - lo) // 2
            # Pons: probe nearer to 0 first, where most positions' scores lie
            if med <= 0 and -((-lo) // 2) < med:
                med = -((-lo) // 2)
            elif med >= 0 and hi // 2 > med:
                med = hi // 2
            if mtdf:  # MTD(f): the probe follows the last bound (first guess 0)
                med = max(guess, lo + 1) - 1
                if med >= hi:
                    med = hi - 1
        r, paused = _search(pos, mask, n, med, med + 1, W, H, bottom, board, order, big, nb_big,
                            small, small_mask, epoch, smin, span, sym, stk, nodes, limit, resume,
                            tt_min, sort_min, split)
        resume = -1
        if paused >= 0:
            state[_PHASE] = _PAUSED
            state[_LO] = lo
            state[_HI] = hi
            state[_PROBE] = med
            state[_SP] = paused
            return 0
        if r <= med:
            hi = r
        else:
            lo = r
        guess = r
    state[_PHASE] = _DONE
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
    The transposition tables (the big one ``2**table_size_log2`` slots of 8 bytes, the small one
    ``2**small_log2`` slots of 16) persist between calls; ``reset()`` empties them.  ``nodes`` is
    the number of nodes searched by the last call.  The tuning knobs (``tt_min``: no table below
    that many empty cells, ``sort_min``: threat ordering from that many, ``split``: the big table
    from that many, ``mtdf``: MTD(f) rather than Pons's bisection of the score range: about 7%
    fewer nodes near 0, many times more on quick wins) change the work, never a score.
    """

    #: nodes searched per compiled call: between two calls Python can raise KeyboardInterrupt
    #: (Ctrl-C), about a tenth of a second of search each
    BUDGET = 1 << 20

    def __init__(self, width: int = 7, height: int = 6, table_size_log2: int = 24, symmetric: bool = True,
                 tt_min: int = 4, sort_min: int = 12, mtdf: bool = False, split: int = 18, small_log2: int = 15):
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
        self._stk = np.zeros((cells + 2, _MOVES + width), dtype=np.int64)
        self._nodes = np.zeros(1, dtype=np.int64)
        self._state = np.zeros(8, dtype=np.int64)
        self.tt_min, self.sort_min, self.mtdf = int(tt_min), int(sort_min), bool(mtdf)
        self.split = int(split)
        self.small = np.zeros(2 << small_log2, dtype=np.int64)
        self.small_mask = (1 << small_log2) - 1
        self.nodes = 0
        self.table = np.zeros(2 * self.buckets, dtype=np.int64)
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
            self.small.fill(0)

    def position(self, moves: str) -> Position:
        return parse_moves(moves, self.width, self.height)

    def _solve_position(self, p: Position, weak: bool) -> int:
        state = self._state
        state[_PHASE] = _FRESH
        args = (np.int64(p.pos), np.int64(p.mask), p.n, bool(weak), self.width, self.height,
                np.int64(self.bottom), np.int64(self.board), self.order, self.table, np.int64(self.buckets),
                self.small, np.int64(self.small_mask),
                np.int64(self.epoch), self.smin, self.span, self.symmetric, self._stk, self._nodes, state,
                self.BUDGET, self.tt_min, self.sort_min, self.split, self.mtdf)
        score = _solve(*args)
        while state[_PHASE] == _PAUSED:  # a long search: Ctrl-C lands between two calls
            score = _solve(*args)
        return int(score)

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

    def table_move(self, moves: str) -> int | None:
        """The best column (1-based) the table remembers for the position after ``moves`` (the
        move that proved the last bound there, e.g. after ``solve``), or None."""
        p = self.position(moves)
        if self.width * self.height - p.n < self.split:
            return None
        key = p.pos + p.mask
        flip = False
        if self.symmetric and 3 * p.n < self.width * self.height:
            mk = int(_mirror(np.int64(key), self.width, self.height))
            if mk < key:
                key, flip = mk, True
        bucket = 2 * (key % self.buckets)
        tag = ((key & 0xFFFFFFFF) << 32) | (self.epoch << 24)
        for e in (int(self.table[bucket]), int(self.table[bucket + 1])):
            if (e ^ tag) & ~0xFFFFFF & 0xFFFFFFFFFFFFFFFF == 0 and (e >> 8) & 0xFF:
                col = ((e >> 8) & 0xFF) - 1
                return (self.width - 1 - col if flip else col) + 1
        return None

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
