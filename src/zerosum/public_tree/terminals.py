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
  grouped.  O(n + 52) per terminal instead of O(n^2).  Both players share one hand list.
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
        e1 = np.zeros(0, dtype=np.int64)
        return TerminalArrays(DENSE, self.weight, self.signed, e2, np.zeros(0), e1, e1, e1, *_NO_PREFIX)


# the prefix-sum showdown's arrays, empty (the evaluators that do not use them)
_NO_PREFIX = (np.zeros((0, 8), dtype=np.int32), np.zeros((0, 53), dtype=np.int64), np.zeros(0, dtype=np.int64))


@dataclass(frozen=True)
class SweepTerminals:
    cards: np.ndarray  # [n, 2] the two cards of each hand (same list for both players)
    const: np.ndarray  # [boards] chance probability of any one compatible deal on that board
    order: np.ndarray  # per board, its live hands by increasing strength (boards concatenated)
    start: np.ndarray  # [boards + 1] where each board's slice of ``order`` starts
    strength: np.ndarray  # parallel to ``order``: the strength (equal = tie)
    #: the showdown's prefix sums (:func:`showdown_prefix_arrays`), made on first use
    prefix: tuple | None = None

    kind = SWEEP

    def nbytes(self) -> int:
        extra = sum(a.nbytes for a in self.prefix) if self.prefix is not None else 0
        return sum(a.nbytes for a in (self.cards, self.const, self.order, self.start, self.strength)) + extra

    def kernel_args(self) -> TerminalArrays:
        e3 = np.zeros((0, 0, 0))
        if self.prefix is None:
            object.__setattr__(self, "prefix", showdown_prefix_arrays(self.cards, self.order, self.start,
                                                                      self.strength))
        return TerminalArrays(SWEEP, e3, e3, self.cards, self.const, self.order, self.start, self.strength,
                              *self.prefix)

    def dense(self, n_boards: int | None = None) -> DenseTerminals:
        """The same terminals as dense matrices (for tests; O(n^2) memory per board)."""
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
        return DenseTerminals(weight, signed)


def showdown_prefix_arrays(cards, order, start, strength) -> tuple:
    """What the showdown reads to evaluate by prefix sums (the kernel's ``_showdown_prefix``), per
    board b over its live hands in strength order (positions k of ``order[start[b]:start[b+1]]``),
    with the opponent's reach summed into the sweep's scratch (:func:`~zerosum.public_tree.arrays.card_scratch`)
    as ``P`` (a prefix in strength order, from entry 52) and ``C`` (per card c a prefix over the live
    hands holding it, in strength order, each with a leading zero: card c's at ``cbase[b, c]`` ..
    ``cbase[b, c + 1] - 1`` from entry 53 + width; ``chand`` lists those hands, card c's from
    ``2 start[b] + cbase[b, c] - c``).  ``pidx[k]`` (int32) holds, as scratch indices, where hand
    k's eight reads are: P before its first tie, P after its last, and for each of its two cards C
    before its first tie, C after its last and C's end (two: one per card).  So

        value = P[lo] + P[hi] - P_total - (C0[lo] + C0[hi] - C0_end) - (C1[lo] + C1[hi] - C1_end)

    is (reach of weaker hands sharing no card) - (reach of stronger ones): a hand sharing both cards
    is the hand itself, neither weaker nor stronger."""
    width = len(cards)
    pt, pc = 52, 52 + width + 1
    n_order = len(order)
    pidx = np.zeros((n_order, 8), dtype=np.int32)
    boards = len(start) - 1
    cbase = np.zeros((boards, 53), dtype=np.int64)
    chand = np.zeros(2 * n_order, dtype=np.int64)
    for b in range(boards):
        s0, s1 = int(start[b]), int(start[b + 1])
        m = s1 - s0
        if m == 0:
            continue
        hands = order[s0:s1]
        st = np.asarray(strength[s0:s1], dtype=np.int64)
        pidx[s0:s1, 0] = pt + np.searchsorted(st, st, "left")
        pidx[s0:s1, 1] = pt + np.searchsorted(st, st, "right")
        hc = cards[hands]  # [m, 2]
        card = hc.T.reshape(-1)  # entries (card, position): slot 0's, then slot 1's
        pos = np.tile(np.arange(m), 2)
        by = np.lexsort((pos, card))  # by card, then by strength position
        card_e, pos_e = card[by], pos[by]
        first = np.concatenate([[0], np.cumsum(np.bincount(card_e, minlength=52))])  # each card's first entry
        cbase[b] = first + np.arange(53)
        chand[2 * s0:2 * s1] = hands[pos_e]
        span = int(st.max()) + 1
        keys = card_e * span + st[pos_e]  # sorted: by card, then by strength
        for slot in (0, 1):
            c = hc[:, slot]
            q = c * span + st
            pidx[s0:s1, 2 + 3 * slot] = pc + np.searchsorted(keys, q, "left") + c
            pidx[s0:s1, 3 + 3 * slot] = pc + np.searchsorted(keys, q, "right") + c
            pidx[s0:s1, 4 + 3 * slot] = pc + cbase[b, c + 1] - 1
    return pidx, cbase, chand


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
        return TerminalArrays(RANKS, e3, e3, meta.reshape(1, 2), self.const, self.order.ravel(), self.board_rank, meta,
                              *_NO_PREFIX)
