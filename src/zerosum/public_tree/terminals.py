"""Terminal evaluators: the value of each of a player's hands at a public terminal, chance inside.

At a terminal on board b with stake s, player 0's hand i is worth
``s * sum_j W(i, j, b) * sign(i, j, b) * reach1(j)`` (sign = +-1 at a fold by who folded, the
showdown result otherwise), where W(i, j, b) is the chance probability of that deal.

* :class:`DenseTerminals` stores per board the matrices W and W * sign ([n0 x n1]).  Any payoff
  works; the rank-only poker family uses it (W counts copies of ranks, so it is not 0/1).
* :class:`RankTerminals` is the same as dense for the rank-only poker family in O(n): there
  W(i, j, b) = c(b) (k - [i = j]) (k - [i = b] - [j = b]) with k copies per rank, and the
  showdown is a strength order (a rank pairing the board on top), so every sum over j is a total,
  a prefix sum in strength order and a few corrections for j = i and j = b (see the kernel);
* :class:`SweepTerminals` is for card games where W = const(b) * [the hands and the board share no
  card] and the showdown is decided by a strength order: per board the live hands sorted by
  strength (done once, at compile time); a fold is the opponent's total reach minus the reach of
  hands holding either of my cards plus the identical hand (subtracted twice); a showdown is an
  upward sweep (reach of weaker hands, minus those sharing a card) and a downward one, ties
  grouped.  O(n + 52) per terminal instead of O(n^2).  Its data covers one hand list of both
  players' hands, ordered [player 0's only | both | player 1's only], so that each player's own
  list (its range) is one window of it (``window``): the passes' vectors are per player, of its
  window's length, and the terminal reads a hand's cards at its index plus its window's start.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .arrays import TerminalArrays

DENSE, SWEEP, RANKS = 0, 1, 2


@dataclass(frozen=True)
class DenseTerminals:
    weight: np.ndarray  # [boards, n0, n1] chance probability of the deal
    signed: np.ndarray  # [boards, n0, n1] weight * showdown sign for player 0

    kind = DENSE

    def nbytes(self) -> int:
        return self.weight.nbytes + self.signed.nbytes

    def kernel_args(self) -> TerminalArrays:
        e2 = np.zeros((0, 2), dtype=np.int64)
        e1, i1 = np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int32)  # (the sweep's types: one compile)
        return TerminalArrays(DENSE, self.weight, self.signed, e2, np.zeros(0), i1, e1, i1, *_NO_PREFIX, _NO_WINDOW)


# the prefix-sum showdown's arrays, empty (the evaluators that do not use them)
_NO_PREFIX = (np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.int64), np.zeros((0, 8), dtype=np.int16),
              np.zeros((0, 2, 53), dtype=np.int32), np.zeros(0, dtype=np.int16))
#: the evaluators without windows (dense and rank terminals: each player's list is its own)
_NO_WINDOW = np.zeros((2, 2), dtype=np.int64)


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
                              *self.prefix, self.windows())

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
                              np.ascontiguousarray(signed[:, a0:a0 + m0, a1:a1 + m1]))


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
    width = len(cards)
    pt, pc = 52, 52 + width + 1
    boards = len(start) - 1
    qorder, qstart, strengths = [], [0], []
    for b in range(boards):
        s0, s1 = int(start[b]), int(start[b + 1])
        for q in (0, 1):
            keep = players[q][order[s0:s1]]
            qorder.append(order[s0:s1][keep])
            strengths.append(np.asarray(strength[s0:s1], dtype=np.int64)[keep])
            qstart.append(qstart[-1] + int(keep.sum()))
    qstart = np.array(qstart, dtype=np.int64)
    # the lists' hands as int32 (qorder) and int16 (chand, the card lists), the scratch indices as
    # int16 (below 52 + 3 * 1,326 + 53 < 2 ** 15), cbase int32: the narrowest types that hold them,
    # to keep the lists small; read the same (the kernels widen them to int64)
    qorder_all = np.concatenate(qorder).astype(np.int32) if qorder else np.zeros(0, dtype=np.int32)
    pidx = np.zeros((len(qorder_all), 8), dtype=np.int32)
    cbase = np.zeros((boards, 2, 53), dtype=np.int64)
    chand = np.zeros(2 * len(qorder_all), dtype=np.int32)
    for b in range(boards):
        for q in (0, 1):  # o = q's card lists
            k = 2 * b + q
            hands = qorder[k]
            hc = cards[hands]
            card = hc.T.reshape(-1)
            pos = np.tile(np.arange(len(hands)), 2)
            by = np.lexsort((pos, card))
            first = np.concatenate([[0], np.cumsum(np.bincount(card[by], minlength=52))])
            cbase[b, q] = first + np.arange(53)
            chand[2 * qstart[k]:2 * qstart[k + 1]] = hands[pos[by]]
        for p in (0, 1):  # p's hands read o's sums
            o = 1 - p
            mine, ms = qorder[2 * b + p], strengths[2 * b + p]
            theirs, ts = qorder[2 * b + o], strengths[2 * b + o]
            g0, g1 = qstart[2 * b + p], qstart[2 * b + p + 1]
            if g1 == g0:
                continue
            pidx[g0:g1, 0] = pt + np.searchsorted(ts, ms, "left")
            pidx[g0:g1, 1] = pt + np.searchsorted(ts, ms, "right")
            tc = cards[theirs]
            card = tc.T.reshape(-1)
            tpos = np.tile(np.arange(len(theirs)), 2)
            by = np.lexsort((tpos, card))
            span = int(max(ms.max(), ts.max() if len(ts) else 0)) + 1
            keys = card[by] * span + ts[tpos[by]]  # o's entries by card, then by strength
            mc = cards[mine]
            for slot in (0, 1):
                c = mc[:, slot]
                key = c * span + ms
                pidx[g0:g1, 2 + 3 * slot] = pc + np.searchsorted(keys, key, "left") + c
                pidx[g0:g1, 3 + 3 * slot] = pc + np.searchsorted(keys, key, "right") + c
                pidx[g0:g1, 4 + 3 * slot] = pc + cbase[b, o, c + 1] - 1
    if len(pidx) and pidx.max() >= 2 ** 15:  # (cannot happen with 52 cards: see above)
        raise AssertionError("showdown scratch indices past int16")
    if window is not None:  # each player's entries in its own list
        for b in range(boards):
            for q in (0, 1):
                k = 2 * b + q
                if len(qorder[k]) and (qorder[k].min() < window[q, 0] or qorder[k].max() >= window[q].sum()):
                    raise AssertionError("a player's range outside its window")
                qorder_all[qstart[k]:qstart[k + 1]] -= window[q, 0]
                chand[2 * qstart[k]:2 * qstart[k + 1]] -= window[q, 0]
    return qorder_all, qstart, pidx.astype(np.int16), cbase.astype(np.int32), chand.astype(np.int16)


@dataclass(frozen=True)
class RankTerminals:
    copies: int
    const: np.ndarray  # [boards] c(b): k / (n (n - 1)) without a public card, k / (n (n - 1) (n - 2)) with one
    board_rank: np.ndarray  # [boards] rank of the public card, -1 for none
    order: np.ndarray  # [boards, ranks] ranks by increasing showdown strength (equal ranks split)

    kind = RANKS

    def nbytes(self) -> int:
        return self.const.nbytes + self.board_rank.nbytes + self.order.nbytes

    def kernel_args(self) -> TerminalArrays:
        e3 = np.zeros((0, 0, 0))
        meta = np.array([self.copies, 0], dtype=np.int64)
        # order and the (unused) strength slot int32, as the sweep's: the two evaluators' arguments
        # then have one type and every pass compiles once for both, not once for each
        return TerminalArrays(RANKS, e3, e3, meta.reshape(1, 2), self.const, self.order.ravel().astype(np.int32),
                              self.board_rank, meta.astype(np.int32), *_NO_PREFIX, _NO_WINDOW)
