"""The card games' evaluator (hold'em): W = c(b) * [the hands and the board share no card], the
showdown a strength order.  Per board the live hands sorted by strength once, at compile time; a
fold is the opponent's total reach minus the reach of hands holding either of my cards plus the
identical hand (subtracted twice); a showdown is an upward sweep (reach of weaker hands, minus those
sharing a card) and a downward one, ties grouped, or the same by prefix sums over each player's
own list (:func:`showdown_prefix_arrays`).  O(n + 52) per terminal instead of O(n^2).  Its data
covers one hand list of both players' hands, ordered [player 0's only | both | player 1's only],
so that each player's own list (its range) is one window of it (``window``).

May import: numpy, numba, :mod:`zerosum.public_tree.arrays`, :mod:`.dense`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from ..arrays import TerminalArrays
from .dense import DenseTerminals, rake_array, rake_at

#: the evaluator's kind (:attr:`TerminalArrays.evaluator`)
SWEEP = 1


@dataclass(frozen=True)
class SweepTerminals:
    cards: np.ndarray  # [n, 2] the two cards of each hand of the shared list (both players' windows)
    const: np.ndarray  # [boards] chance probability of any one compatible deal on that board
    order: np.ndarray  # per board, its live hands by increasing strength (boards concatenated; int32)
    start: np.ndarray  # [boards + 1] where each board's slice of ``order`` starts
    strength: np.ndarray  # parallel to ``order``: the strength (equal = tie; int32)
    #: [2, n] whether each hand is in each player's range (weight > 0); None: every hand in both
    players: np.ndarray | None = None
    #: the terminals' per-player lists and prefix-sum indices (:func:`showdown_prefix_arrays`), made on first use
    prefix: tuple | None = None
    #: [2, 2] per player (start, length) of its hands in ``cards``' list (its vectors' index i is
    #: hand start + i there); None: both players' lists are the whole list
    window: np.ndarray | None = None
    #: (rate, cap) of a raked game (:func:`~.dense.rake_at`; cap ``inf`` for none), None for none
    rake: tuple | None = None

    def windows(self) -> np.ndarray:
        """[2, 2] int64: each player's (start, length) in the shared list."""
        if self.window is None:
            return np.array([[0, len(self.cards)], [0, len(self.cards)]], dtype=np.int64)
        return np.asarray(self.window, dtype=np.int64)

    kind = SWEEP

    def nbytes(self) -> int:
        extra = sum(a.nbytes for a in self.prefix) if self.prefix is not None else 0
        return sum(a.nbytes for a in (self.cards, self.const, self.order, self.start, self.strength)) + extra

    def kernel_args(self) -> TerminalArrays:
        e3 = np.zeros((0, 0, 0))
        if self.prefix is None:
            players = np.ones((2, len(self.cards)), dtype=bool) if self.players is None else self.players
            object.__setattr__(self, "prefix", showdown_prefix_arrays(self.cards, self.order, self.start,
                                                                      self.strength, players, self.windows()))
        return TerminalArrays(SWEEP, e3, e3, self.cards, self.const, self.order, self.start, self.strength,
                              *self.prefix, self.windows(), rake_array(self.rake))

    def dense(self, n_boards: int | None = None) -> DenseTerminals:
        """The same terminals as dense matrices (for tests and the local best response; O(n^2)
        memory per board), [player 0's window x player 1's]."""
        n = len(self.cards)
        boards = len(self.const) if n_boards is None else n_boards
        weight = np.zeros((boards, n, n))
        signed = np.zeros((boards, n, n))
        c = self.cards
        share = ((c[:, None, 0] == c[None, :, 0]) | (c[:, None, 0] == c[None, :, 1]) |
                 (c[:, None, 1] == c[None, :, 0]) | (c[:, None, 1] == c[None, :, 1]))
        for b in range(boards):
            live = self.order[self.start[b]:self.start[b + 1]]
            strength = np.full(n, -1, dtype=np.int64)
            strength[live] = self.strength[self.start[b]:self.start[b + 1]]
            ok = np.zeros(n, dtype=bool)
            ok[live] = True
            w = self.const[b] * (ok[:, None] & ok[None, :] & ~share)
            weight[b] = w
            signed[b] = w * np.sign(strength[:, None] - strength[None, :])
        (a0, m0), (a1, m1) = self.windows().tolist()
        return DenseTerminals(np.ascontiguousarray(weight[:, a0:a0 + m0, a1:a1 + m1]),
                              np.ascontiguousarray(signed[:, a0:a0 + m0, a1:a1 + m1]), self.rake)


def showdown_prefix_arrays(cards, order, start, strength, players, window=None) -> tuple:
    """What the sweep evaluator reads (the kernel's ``terminal`` and ``_showdown_prefix``), per
    board b and player q, over q's live hands of positive range weight in strength order:
    ``qorder[qstart[2 b + q]:qstart[2 b + q + 1]]`` (hand indices in q's own list: the shared
    list's less q's window start, ``window[q, 0]``; ``chand`` the same).  A hand outside a player's
    range has reach 0 all along, so leaving it out changes no sum (adding 0 is exact) and its own
    values (0 now) are never weighed; the lists make a terminal O(n_p + n_o), not O(2 n).

    For the showdown, the opponent o's reach is summed into the sweep's scratch
    (:func:`~zerosum.public_tree.arrays.card_scratch`) as ``P`` (a prefix over o's list, from
    entry 52) and ``C`` (per card c a prefix over o's hands holding it, each with a leading zero,
    at ``cbase[b, o, c]`` .. ``cbase[b, o, c + 1] - 1`` from entry 53 + width; ``chand`` lists
    those hands, card c's from ``2 qstart[2 b + o] + cbase[b, o, c] - c``).  ``pidx[g]`` (int16,
    parallel to ``qorder``) holds, as scratch indices, where hand g's eight reads are when its
    player p = q meets the other: P before o's first hand tied with it, P after the last, and for
    each of its two cards C before the first tie, after the last, and C's end.  So

        value = P[lo] + P[hi] - P_total - (C0[lo] + C0[hi] - C0_end) - (C1[lo] + C1[hi] - C1_end)

    is (o's reach of weaker hands sharing no card) - (of stronger ones): a hand sharing both cards
    is the same hand, neither weaker nor stronger.

    Built by :func:`_prefix_lists` (Numba, allocating nothing), board by board in one walk up its
    strength order, a group of tied hands at a time: the card lists by a counting sort, and each
    hand's reads from the opponent's running counts (its list's and per card) before the group
    and after it, O(n + 52) a board.  It was NumPy (argsort and searchsorted over chunks of
    boards), paid at every solve's start: the same arrays, limit turn Ks7d2c9h 24 -> 2.2 ms and
    TexasSolver's flop 358 -> 28 ms (medians of 5 on the 2-core machine;
    tests/test_showdown_prefix_kernel.py keeps the NumPy version as the reference).  As before,
    each board's strengths are non-decreasing and >= 0, and cards 0-51."""
    boards = len(start) - 1
    players = np.asarray(players)
    if players.dtype != np.bool_:
        players = players != 0
    qstart = _list_starts(order, start, players)
    n = int(qstart[-1])
    # the narrowest types that hold them, to keep the lists small (the kernels widen them to int64):
    # hands int32 (qorder) and int16 (chand), scratch indices int16 (below 52 + 3 * 1,326 + 53 < 2 ** 15)
    qorder, pidx, chand = np.empty(n, np.int32), np.empty((n, 8), np.int16), np.empty(2 * n, np.int16)
    cbase = np.empty((boards, 2, 53), np.int32)
    win = np.zeros((2, 2), np.int64) if window is None else np.asarray(window, dtype=np.int64)
    top, outside = _prefix_lists((cards, order, start, strength, players, win, window is not None),
                                 (qstart, qorder, pidx, cbase, chand), np.empty((4, 54), np.int64))
    if n and top >= 2 ** 15:  # (cannot happen with 52 cards: 52 + 3 * 1,326 + 53 < 2 ** 15)
        raise AssertionError("showdown scratch indices past int16")
    if outside:
        raise AssertionError("a player's range outside its window")
    return qorder, qstart, pidx, cbase, chand


def _list_starts(order, start, players) -> np.ndarray:
    """[2 boards + 1] int64: where list 2 b + q (board b's hands in player q's range) starts."""
    boards = len(start) - 1
    counts = np.zeros((boards, 2), dtype=np.int64)
    at = np.asarray(start, dtype=np.int64)
    for q in (0, 1):
        kept = np.zeros(len(order) + 1, dtype=np.int64)
        np.cumsum(players[q][order], out=kept[1:])
        counts[:, q] = kept[at[1:]] - kept[at[:-1]]
    qstart = np.zeros(2 * boards + 1, dtype=np.int64)
    np.cumsum(counts.reshape(-1), out=qstart[1:])
    return qstart


@njit(cache=True, error_model="numpy", _nrt=False)
def _prefix_lists(given, out, counts):
    """:func:`showdown_prefix_arrays`' lists into ``out`` = (qstart (read), qorder, pidx, cbase,
    chand), from ``given`` = (cards, order, start, strength, players (bool), window [2, 2],
    whether to check and subtract it): board by board, each board's hands (both players' lists at
    once) a group of tied strengths at a time, ``counts`` [4, 54] the running counts
    (:func:`_card_starts`).  Returns (the largest scratch index, whether a hand is outside its
    player's window)."""
    start, strength = given[2], given[3]
    top = 0
    outside = False
    for b in range(len(start) - 1):
        _card_starts(b, given, out, counts)
        m = start[b]
        while m < start[b + 1]:
            g = m + 1
            while g < start[b + 1] and strength[g] == strength[m]:
                g += 1
            before0, before1 = counts[2, 52], counts[3, 52]
            top = max(top, _tie_reads(b, m, g, 0, given, out, counts))  # the opponent's weaker hands
            outside |= _tie_add(b, m, g, given, out, counts)
            counts[0, 53], counts[1, 53] = before0, before1
            top = max(top, _tie_reads(b, m, g, 1, given, out, counts))  # and tied ones
            m = g
    return top, outside


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def _card_starts(b, given, out, counts):
    """Board b's card lists' starts (a counting sort's first pass): ``counts[q, c]`` where card c's
    hands start in list 2 b + q's card lists, from 0 (to c = 52, their end), and ``cbase[b, q]``
    the same plus c; ``counts[2 + q]`` zeroed: per card (0-51) and in all (52) list q's hands
    counted so far; ``counts[q, 53]`` the next row of list q."""
    cards, order, start, players = given[0], given[1], given[2], given[4]
    cbase = out[3]
    for r in range(4):
        for c in range(54):
            counts[r, c] = 0
    for m in range(start[b], start[b + 1]):
        h = order[m]
        for q in range(2):
            if players[q, h]:
                counts[q, cards[h, 0] + 1] += 1
                counts[q, cards[h, 1] + 1] += 1
    for q in range(2):
        for c in range(52):
            counts[q, c + 1] += counts[q, c]
        for c in range(53):
            cbase[b, q, c] = counts[q, c] + c


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def _tie_reads(b, m, g, side, given, out, counts):
    """Board b's tied hands ``order[m:g]``: each one's scratch indices counting the opponent's
    hands before the group (``side`` 0: P and C before the first tie) or through it (1: after
    the last, and C's end), from the counts so far; rows from ``counts[q, 53]``.  Returns the
    largest index."""
    cards, order, players = given[0], given[1], given[4]
    qstart, pidx = out[0], out[2]
    pc = 53 + cards.shape[0]
    top = 0
    for j in range(m, g):
        h = order[j]
        for q in range(2):
            if players[q, h]:
                o = 1 - q
                row = qstart[2 * b + q] + counts[q, 53]
                counts[q, 53] += 1
                pidx[row, side] = 52 + counts[2 + o, 52]
                for slot in range(2):
                    c = cards[h, slot]
                    pidx[row, 2 + 3 * slot + side] = pc + counts[o, c] + counts[2 + o, c] + c
                    if side == 1:
                        pidx[row, 4 + 3 * slot] = pc + counts[o, c + 1] + c
                        top = max(top, pc + counts[o, c + 1] + c, 52 + counts[2 + o, 52])
    return top


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def _tie_add(b, m, g, given, out, counts):
    """Board b's tied hands ``order[m:g]`` into each player's list (``qorder``, less the window's
    start) and card lists (``chand``, the counting sort's second pass), counted.  Returns whether
    one is outside its player's window (checked when given one)."""
    cards, order, players, win, check = given[0], given[1], given[4], given[5], given[6]
    qstart, qorder, chand = out[0], out[1], out[4]
    outside = False
    for j in range(m, g):
        h = order[j]
        for q in range(2):
            if players[q, h]:
                low = win[q, 0] if check else 0
                if check and (h < low or h >= low + win[q, 1]):
                    outside = True
                qorder[qstart[2 * b + q] + counts[2 + q, 52]] = h - low
                counts[2 + q, 52] += 1
                for slot in range(2):
                    c = cards[h, slot]
                    chand[2 * qstart[2 * b + q] + counts[q, c] + counts[2 + q, c]] = h - low
                    counts[2 + q, c] += 1
    return outside


@njit(cache=True, error_model="numpy")
def sweep_values(s, opp, val, term, cs):
    """p's values at the terminal ``s`` (a :class:`~zerosum.public_tree.arrays.Site`) into
    ``val[s.row]`` from the opponent's reach ``opp[s.orow]`` (``term``: the
    :class:`~zerosum.public_tree.arrays.TerminalArrays`, ``cs`` the scratch).  A raked showdown is
    the showdown at stake st - R / 2 less R / 2 times the fold's unsigned sum
    (:func:`~.dense.rake_at`)."""
    # each player's vectors cover its window of the shared list (terminals.SweepTerminals.window):
    # p's hand i is the list's lp + i, the opponent's j its lo + j
    for i in range(term.window[s.p, 1]):
        val[s.row, i] = 0.0
    c = term.const[s.board]
    st = s.stake
    rk = rake_at(term.rake, st)
    if s.is_fold:
        _fold_sums(s, (-st if s.folder == s.p else st - rk) * c, opp, val, term, cs, False)
        return
    scale = (st - 0.5 * rk) * c
    if len(term.qorder) > 0 and len(cs) >= 52 + 3 * term.cards.shape[0] + 53:
        _showdown_prefix(s, scale, opp, val, term, cs)
    else:  # (no per-player lists, or a 52-entry scratch only)
        _showdown_sweeps(s, scale, opp, val, term, cs)
    if rk != 0.0:
        _fold_sums(s, -0.5 * rk * c, opp, val, term, cs, True)


@njit(cache=True, inline="always", error_model="numpy")
def _fold_sums(s, scale, opp, val, term, cs, add):
    """``val[s.row, i]`` (+)= scale * (the opponent's reach of the hands sharing no card with p's
    hand i): a fold's values (``add`` False), or a raked showdown's unsigned part (True)."""
    n, orow, b, p = s.row, s.orow, s.board, s.p
    cards, order, start = term.cards, term.order, term.start
    lp = term.window[p, 0]
    lo, n_p, n_o = term.window[1 - p, 0], term.window[p, 1], term.window[1 - p, 1]
    for k in range(52):
        cs[k] = 0.0
    total = 0.0
    if len(term.qorder) > 0:
        # the opponent's hands (in its range) add to the total and their two cards' sums; p's get
        # the total less the hands sharing a card (plus the same hand, taken off twice: the
        # opponent's entry lp - lo + i, where its window holds it)
        o0, o1 = term.qstart[2 * b + 1 - p], term.qstart[2 * b + 2 - p]
        hands = term.qorder
        for m in range(o0, o1):
            j = hands[m]
            r = opp[orow, j]
            if r != 0.0:  # skipped: deep in the tree most of the opponent's hands are out of reach (3 % of an
                # iteration of the limit turn Ks7d2c9h; there DCFR at 50 iterations has 84 % and 71 % of each
                # player's in-range hands at 0 at the terminals)
                total += r
                cs[cards[lo + j, 0]] += r
                cs[cards[lo + j, 1]] += r
        for m in range(term.qstart[2 * b + p], term.qstart[2 * b + p + 1]):
            i = hands[m]
            t = lp - lo + i
            same = opp[orow, t] if t >= 0 and t < n_o else 0.0
            v = scale * (total - cs[cards[lp + i, 0]] - cs[cards[lp + i, 1]] + same)
            val[n, i] = val[n, i] + v if add else v
        return
    # the board's live hands (``order``, the shared list: each hand read or written through its
    # window): the evaluator before the per-player lists
    s0, s1 = start[b], start[b + 1]
    for m in range(s0, s1):
        j = order[m] - lo
        if j >= 0 and j < n_o:
            r = opp[orow, j]
            total += r
            cs[cards[lo + j, 0]] += r
            cs[cards[lo + j, 1]] += r
    for m in range(s0, s1):
        i = order[m] - lp
        if i >= 0 and i < n_p:
            t = lp - lo + i
            same = opp[orow, t] if t >= 0 and t < n_o else 0.0
            v = scale * (total - cs[cards[lp + i, 0]] - cs[cards[lp + i, 1]] + same)
            val[n, i] = val[n, i] + v if add else v


@njit(cache=True, inline="always", error_model="numpy")
def _showdown_sweeps(s, scale, opp, val, term, cs):
    """The showdown by two running sweeps over the board's live hands (``order``, the shared
    list: each hand read or written through its window), the evaluator before the per-player
    lists; with a 52-entry scratch only (tests/test_showdown_prefix.py compares the two).  The
    sweep is bound by its running sums (each hand adds to ``total`` and to two card sums that the
    next hands read), not by its scattered reads."""
    n, orow, b, p = s.row, s.orow, s.board, s.p
    cards, order, start, strength = term.cards, term.order, term.start, term.strength
    lp, n_p = term.window[p, 0], term.window[p, 1]
    lo, n_o = term.window[1 - p, 0], term.window[1 - p, 1]
    s0, s1 = start[b], start[b + 1]
    for k in range(52):
        cs[k] = 0.0
    # upward: wins against strictly weaker hands that share no card
    total = 0.0
    m = s0
    while m < s1:
        g = m
        while g < s1 and strength[g] == strength[m]:
            g += 1
        for k in range(m, g):
            i = order[k] - lp
            if i >= 0 and i < n_p:
                val[n, i] = total - cs[cards[lp + i, 0]] - cs[cards[lp + i, 1]]
        for k in range(m, g):
            j = order[k] - lo
            if j >= 0 and j < n_o:
                r = opp[orow, j]
                total += r
                cs[cards[lo + j, 0]] += r
                cs[cards[lo + j, 1]] += r
        m = g
    for k in range(52):
        cs[k] = 0.0
    total = 0.0
    m = s1 - 1
    while m >= s0:
        g = m
        while g >= s0 and strength[g] == strength[m]:
            g -= 1
        for k in range(m, g, -1):
            i = order[k] - lp
            if i >= 0 and i < n_p:
                val[n, i] = scale * (val[n, i] - (total - cs[cards[lp + i, 0]] - cs[cards[lp + i, 1]]))
        for k in range(m, g, -1):
            j = order[k] - lo
            if j >= 0 and j < n_o:
                r = opp[orow, j]
                total += r
                cs[cards[lo + j, 0]] += r
                cs[cards[lo + j, 1]] += r
        m = g


@njit(cache=True, error_model="numpy")
def _showdown_prefix(s, scale, opp, val, term, cs):
    """The sweep's showdown by prefix sums (:func:`~zerosum.public_tree.terminals.showdown_prefix_arrays`):
    the opponent's reach (its range's hands) summed once in strength order and once per card over
    the hands holding it (52 short sums the processor overlaps), then each of p's hands' values
    from eight reads, with no running sum carried from one hand to the next as the two sweeps did
    (a total and two card sums that each hand's successor reads)."""
    n, orow, b, p = s.row, s.orow, s.board, s.p
    width, qorder, qstart, pidx, cbase, chand = term.cards.shape[0], term.qorder, term.qstart, term.pidx, \
        term.cbase, term.chand
    o = 1 - p
    o0, o1 = qstart[2 * b + o], qstart[2 * b + o + 1]
    pt = 52
    pc = 52 + width + 1
    acc = 0.0
    cs[pt] = 0.0
    for k in range(o1 - o0):
        acc += opp[orow, qorder[o0 + k]]
        cs[pt + 1 + k] = acc
    total = acc
    e0 = 2 * o0
    for cc in range(52):
        a0 = cbase[b, o, cc]
        a1 = cbase[b, o, cc + 1] - 1
        e = e0 + a0 - cc
        acc = 0.0
        cs[pc + a0] = 0.0
        for j in range(a1 - a0):
            acc += opp[orow, chand[e + j]]
            cs[pc + a0 + 1 + j] = acc
    for g in range(qstart[2 * b + p], qstart[2 * b + p + 1]):
        v = (cs[pidx[g, 0]] + cs[pidx[g, 1]] - total) - (cs[pidx[g, 2]] + cs[pidx[g, 3]] - cs[pidx[g, 4]]) \
            - (cs[pidx[g, 5]] + cs[pidx[g, 6]] - cs[pidx[g, 7]])
        val[n, qorder[g]] = scale * v
