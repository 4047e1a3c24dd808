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
    those hands, card c's from ``2 qstart[2 b + o] + cbase[b, o, c] - c``).  ``pidx[g]`` (int32,
    parallel to ``qorder``) holds, as scratch indices, where hand g's eight reads are when its
    player p = q meets the other: P before o's first hand tied with it, P after the last, and for
    each of its two cards C before the first tie, after the last, and C's end.  So

        value = P[lo] + P[hi] - P_total - (C0[lo] + C0[hi] - C0_end) - (C1[lo] + C1[hi] - C1_end)

    is (o's reach of weaker hands sharing no card) - (of stronger ones): a hand sharing both cards
    is the same hand, neither weaker nor stronger."""
    boards = len(start) - 1
    qorder, qstart, qstrength = _player_lists(order, start, strength, players)
    # the lists' hands as int32 (qorder) and int16 (chand, the card lists), the scratch indices as
    # int16 (below 52 + 3 * 1,326 + 53 < 2 ** 15), cbase int32: the narrowest types that hold them,
    # to keep the lists small; read the same (the kernels widen them to int64)
    pidx = np.zeros((len(qorder), 8), dtype=np.int32)
    cbase = np.zeros((boards, 2, 53), dtype=np.int64)
    chand = np.zeros(2 * len(qorder), dtype=np.int32)
    b0 = 0
    while b0 < boards:  # boards in chunks of about CHUNK_ENTRIES hands, each chunk's sorts and searches in cache
        b1 = b0 + 1 + int(np.searchsorted(qstart[2 * b0 + 2::2], qstart[2 * b0] + CHUNK_ENTRIES, "right"))
        b1 = min(b1, boards)
        _chunk_reads(cards, (qorder, qstrength, qstart), b0, b1, (pidx, cbase, chand))
        b0 = b1
    if len(pidx) and pidx.max() >= 2 ** 15:  # (cannot happen with 52 cards: see above)
        raise AssertionError("showdown scratch indices past int16")
    if window is not None:  # each player's entries in its own list
        player = np.repeat(np.arange(2 * boards) % 2, np.diff(qstart))
        low, high = window[player, 0], window[player].sum(axis=1)
        if np.any(qorder < low) or np.any(qorder >= high):
            raise AssertionError("a player's range outside its window")
        qorder = qorder - low
        chand = chand - np.repeat(low, 2)  # (each list's card entries are its hands')
    return qorder.astype(np.int32), qstart, pidx.astype(np.int16), cbase.astype(np.int32), chand.astype(np.int16)


#: hands (entries of the players' lists) per chunk of boards in :func:`showdown_prefix_arrays`
CHUNK_ENTRIES = 16384


def _player_lists(order, start, strength, players) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per board b and player q (list 2 b + q): q's live hands of positive range weight in
    strength order, concatenated list after list; their strengths; where each list starts."""
    boards = len(start) - 1
    board = np.repeat(np.arange(boards), np.diff(start))
    kept = [np.flatnonzero(players[q][order]) for q in (0, 1)]
    at = np.concatenate(kept)
    lists = np.concatenate([2 * board[kept[0]], 2 * board[kept[1]] + 1])
    at = at[np.argsort(lists, kind="stable")]  # list after list, each in the boards' order
    qstart = np.zeros(2 * boards + 1, dtype=np.int64)
    np.cumsum(np.bincount(lists, minlength=2 * boards), out=qstart[1:])
    return np.asarray(order)[at].astype(np.int64), qstart, np.asarray(strength, dtype=np.int64)[at]


def _chunk_reads(cards, player_lists, b0, b1, written) -> None:
    """Boards b0 to b1 - 1 of :func:`showdown_prefix_arrays`: into ``written`` = (``pidx``,
    ``cbase``, ``chand``), their card lists (``cbase``, ``chand``) and every hand's eight scratch
    indices (``pidx``), each hand of list 2 b + p reading the other player's list 2 b + o, found
    by ``np.searchsorted`` in the chunk's concatenation of ``player_lists`` = (hands, strengths,
    list starts: :func:`_player_lists`)."""
    qorder, qstrength, qstart = player_lists
    pidx, cbase, chand = written
    e0, e1 = qstart[2 * b0], qstart[2 * b1]
    n = e1 - e0
    start = qstart[2 * b0:2 * b1 + 1] - e0
    lists = np.repeat(np.arange(2 * (b1 - b0)), np.diff(start))  # each entry's list, 2 (b - b0) + q
    hands, strength = qorder[e0:e1], qstrength[e0:e1]
    # the card lists: each hand's two cards, by list, then card, then place in the list
    card = cards[hands].reshape(-1).astype(np.int64)  # entry i's cards at 2 i, 2 i + 1
    group = np.repeat(lists, 2) * 52 + card
    by = np.argsort(group, kind="stable")
    chand[2 * e0:2 * e1] = hands[by // 2]
    first = np.zeros((2 * (b1 - b0), 53), dtype=np.int64)
    np.cumsum(np.bincount(group, minlength=2 * (b1 - b0) * 52).reshape(-1, 52), axis=1, out=first[:, 1:])
    cbase[b0:b1] = (first + np.arange(53)).reshape(b1 - b0, 2, 53)
    span = int(strength.max()) + 1 if n else 1
    keys = group[by] * span + strength[by // 2]  # sorted: list, card, strength
    width = len(cards)
    pt, pc = 52, 52 + width + 1
    other = lists ^ 1
    ranked = lists * span + strength  # sorted: each list is in strength order
    out = pidx[e0:e1]
    mine = other * span + strength
    out[:, 0] = pt + np.searchsorted(ranked, mine, "left") - start[other]
    out[:, 1] = pt + np.searchsorted(ranked, mine, "right") - start[other]
    for slot in (0, 1):
        c = card[slot::2]
        key = (other * 52 + c) * span + strength
        out[:, 2 + 3 * slot] = pc + np.searchsorted(keys, key, "left") - 2 * start[other] + c
        out[:, 3 + 3 * slot] = pc + np.searchsorted(keys, key, "right") - 2 * start[other] + c
        out[:, 4 + 3 * slot] = pc + first[other, c + 1] + c


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
