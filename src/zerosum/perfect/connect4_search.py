"""The exact Connect Four solver's search: null-window negamax with alpha-beta, compiled.

Why this design: Connect Four's 7x6 board has about 4.5e12 reachable positions, far too many to
enumerate, but a well-ordered alpha-beta search with a transposition table proves the value of most
positions by visiting a few thousand of them.  The design follows Pascal Pons's tutorial
("Solving Connect 4: how to build a perfect solver", blog.gamesolver.org, 2017), itself after
J. Allen (1989) and V. Allis (1988, "A knowledge-based approach of Connect-Four"):

* a position is two bitboards (:mod:`zerosum.perfect.bitboard`): ``mask`` (every stone) and
  ``position`` (the stones of the player to move), so that a move is an addition, alignments are
  a few shifts and ``position + mask`` is a unique key;
* negamax with alpha-beta (:func:`search`), the score bounded before searching by the number of
  stones left;
* the exact score is found by null-window searches ``[m, m+1]`` (:func:`solve`), each proving the
  score above or below ``m``, the probes bisecting the range left (Pons's order, nearer 0 first);
  MTD(f) (Plaat et al. 1996: the next probe at the bound just returned) is an option, a little
  better on scores near 0, far worse on quick wins; the weak solver only asks for the sign
  (``[-1, 1]``);
* two transposition tables of bounds and best moves (:mod:`zerosum.perfect.connect4_table`);
* moves are ordered by the number of winning cells they create (threats), centre columns first,
  when at least 12 cells are empty (nearer the end, centre first only), the table's move before
  them, and moves that let the opponent win at once are never played (:func:`non_losing_moves`,
  anticipation of immediate losses);
* the search runs on an explicit stack and pauses every ``budget`` nodes: Python regains control
  (Ctrl-C lands) and calls it again to resume where it stopped.

Every function here is compiled with Numba (``cache=True``); the bitboard functions are compiled
from their one definition in :mod:`zerosum.perfect.bitboard` and, like the table kernels and the
helpers here, inlined into the search loop.  :func:`search` is compiled without Numba's reference
counting (``_nrt=False``, as the public tree's shape kernels): it allocates nothing, and the
helpers inlined into its loop (:func:`~zerosum.perfect.connect4_table.probe`,
:func:`~zerosum.perfect.connect4_table.record`) would otherwise count their array arguments
(atomic increments and decrements) at nearly every node.  Paired in one process, on Pons's sets:
with counting this split search was about 4% slower than the single-file one it replaced; without
it, 9% faster, and as fast as the single-file one compiled the same way (ratio 0.99).  Numba's cache does not notice an edit of another
module whose functions it inlined: after editing ``bitboard.py`` or ``connect4_table.py``, delete
the ``connect4_*.nbi``/``.nbc`` files in ``__pycache__`` (or touch this file).

Imports: NumPy, Numba, :mod:`zerosum.perfect.bitboard` and :mod:`zerosum.perfect.connect4_table`;
imported by :mod:`zerosum.perfect.connect4_solver`, which holds the positions and the driver.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from . import bitboard
from .connect4_table import entry_bound, entry_move, probe, record

__all__ = ["DONE", "FRESH", "PAUSED", "PHASE", "new_stack", "new_state", "non_losing_moves", "search", "solve"]

_popcount = njit(cache=True, inline="always")(bitboard.popcount)
_winning_cells = njit(cache=True, inline="always")(bitboard.winning_cells)
_column_mask = njit(cache=True, inline="always")(bitboard.column_mask)
_playable = njit(cache=True, inline="always")(bitboard.playable)

# fields of one stack frame of search (one row of ``stk`` per depth below the root)
_POS, _MASK, _ALPHA, _BETA, _BUCKET, _TAG, _FLIP, _TTMOVE, _K, _I, _BEST, _POSSIBLE, _LAST = range(13)
_MOVES = 16  # the frame's ordered moves start at this column

#: the state of a solve between two calls of :func:`solve` (an int64 array): ``state[PHASE]`` is
#: FRESH (a new solve), PAUSED (call again to resume) or DONE; then score bounds, probe, stack
PHASE, _LO, _HI, _PROBE, _SP = range(5)
FRESH, PAUSED, DONE = 0, 1, 2


def new_stack(width: int, height: int) -> np.ndarray:
    """The explicit stack of :func:`search` for a ``width`` x ``height`` board: one frame per depth."""
    return np.zeros((width * height + 2, _MOVES + width), dtype=np.int64)


def new_state() -> np.ndarray:
    """The state array of :func:`solve`, ``state[PHASE]`` to be set to FRESH before each solve."""
    return np.zeros(8, dtype=np.int64)


@njit(cache=True, inline="always")
def non_losing_moves(pos, mask, H, bottom, board):
    """Playable cells (one bit per column) that do not give the opponent an immediate win."""
    possible = _playable(mask, bottom, board)
    opp_win = _winning_cells(pos ^ mask, mask, H, board)
    forced = possible & opp_win
    if forced != 0:
        if forced & (forced - 1) != 0:  # two threats at once: every move loses
            return 0
        possible = forced
    return possible & ~(opp_win >> 1)  # never play just below an opponent's winning cell


@njit(cache=True, inline="always")
def _enter_child(stk, sp, i, order, H, pos, mask, possible, alpha, beta):
    """Play the ``i``-th of the frame's ordered moves: the child's frame at ``sp + 1``, its window
    the parent's negated; returns the child's depth."""
    c = order[15 - (stk[sp, _MOVES + i] & 15)]
    stk[sp, _I] = i + 1
    stk[sp, _LAST] = c
    stk[sp + 1, _POS] = pos ^ mask
    stk[sp + 1, _MASK] = mask | (possible & _column_mask(c, H))
    stk[sp + 1, _ALPHA] = -beta
    stk[sp + 1, _BETA] = -alpha
    return sp + 1


@njit(cache=True, _nrt=False)
def search(pos, mask, n0, alpha, beta, W, H, bottom, board, order, big, nb_big, small, small_mask,
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
            possible = non_losing_moves(pos, mask, H, bottom, board)
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
                    e, bucket, tag, flip = probe(pos + mask, n, W, H, sym, split, big, nb_big, small,
                                                 small_mask, epoch)
                    if e & 0xFF != 0:
                        tt_move = entry_move(e, flip, W)
                        lower, b = entry_bound(e, smin, span)
                        if lower:
                            if alpha < b:
                                alpha = b
                                if alpha >= beta:
                                    ret = alpha
                                    done = True
                        elif beta > b:
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
                            m = possible & _column_mask(c, H)
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
                            if possible & _column_mask(c, H) != 0:
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
                    sp = _enter_child(stk, sp, 0, order, H, pos, mask, possible, alpha, beta)
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
            if score >= beta:
                if stk[sp, _BUCKET] >= 0:
                    record(big, small, stk[sp, _BUCKET], stk[sp, _TAG], stk[sp, _FLIP], n0 + sp, epoch, score,
                           True, stk[sp, _LAST], W, smin, span)
                ret = score
                continue  # this node returns too
            if score > alpha:
                alpha = score
                stk[sp, _ALPHA] = alpha
                stk[sp, _BEST] = stk[sp, _LAST]
            i = stk[sp, _I]
            if i < stk[sp, _K]:
                sp = _enter_child(stk, sp, i, order, H, stk[sp, _POS], stk[sp, _MASK], stk[sp, _POSSIBLE],
                                  alpha, beta)
                entering = True
                break
            if stk[sp, _BUCKET] >= 0:
                best_col = stk[sp, _BEST]
                if best_col < 0:
                    best_col = stk[sp, _TTMOVE]
                record(big, small, stk[sp, _BUCKET], stk[sp, _TAG], stk[sp, _FLIP], n0 + sp, epoch, alpha,
                       False, best_col, W, smin, span)
            ret = alpha


@njit(cache=True)
def solve(pos, mask, n, weak, W, H, bottom, board, order, big, nb_big, small, small_mask, epoch,
          smin, span, sym, stk, nodes, state, budget, tt_min, sort_min, split, mtdf):
    """Exact score (or, when ``weak``, its sign) by a sequence of null-window searches, each
    proving the score above or below a probe, until the bounds meet.  After ``budget`` nodes it
    stops with ``state[PHASE] == PAUSED`` and the next call resumes; ``DONE`` when solved."""
    cells = W * H
    if state[PHASE] == FRESH:
        if _winning_cells(pos, mask, H, board) & _playable(mask, bottom, board) != 0:
            state[PHASE] = DONE
            return 1 if weak else (cells + 1 - n) // 2
        if n >= cells:
            state[PHASE] = DONE
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
        r, paused = search(pos, mask, n, med, med + 1, W, H, bottom, board, order, big, nb_big,
                           small, small_mask, epoch, smin, span, sym, stk, nodes, limit, resume,
                           tt_min, sort_min, split)
        resume = -1
        if paused >= 0:
            state[PHASE] = PAUSED
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
    state[PHASE] = DONE
    if weak:
        return 1 if lo > 0 else (-1 if lo < 0 else 0)
    return lo
