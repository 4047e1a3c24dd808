"""Showdown equity of hole pairs against a weighted range on a board, over every runout, card
removal included: what a poker report shows per hand (:mod:`zerosum.solutions.analysis`) and what
card abstraction buckets by (:mod:`zerosum.public_tree.abstraction`).  Pure rules: NumPy over the
strengths of :mod:`.strength`, no tree."""

from __future__ import annotations

import numpy as np

from .strength import board_strengths, complete_boards

#: runouts per step of :func:`equity` (its [weights x runouts x hands] temporaries: a few MB each)
EQUITY_CHUNK = 64


def _runs(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per row of ``keys`` (each row sorted): each entry's first position and one past its last
    among the entries of its row equal to it."""
    m, k = keys.shape
    pos = np.broadcast_to(np.arange(k), (m, k))
    new = np.ones((m, k), dtype=bool)
    new[:, 1:] = keys[:, 1:] != keys[:, :-1]
    first = np.maximum.accumulate(np.where(new, pos, 0), axis=1)
    end = np.ones((m, k), dtype=bool)
    end[:, :-1] = new[:, 1:]
    last = np.minimum.accumulate(np.where(end, pos + 1, k)[:, ::-1], axis=1)[:, ::-1]
    return first, last


def _placed(rows: np.ndarray, order: np.ndarray, *values: np.ndarray) -> list[np.ndarray]:
    """Each of ``values`` (per row, in the order ``order`` sorted the row) back in the row's own order."""
    out = []
    for v in values:
        back = np.empty_like(v)
        back[rows, order] = v
        out.append(back)
    return out


def equity(board, cards: np.ndarray, opponent: np.ndarray) -> np.ndarray:
    """Showdown equity of each hole pair (cards [n, 2]) against the weights ``opponent`` over the
    same pairs, on ``board`` (3-5 cards), over every runout, card removal included:
    sum_j opp(j) sum_runouts [i, j, runout disjoint] (win + tie / 2) divided by
    sum_j opp(j) [i, j disjoint] x runouts avoiding both (a constant for disjoint pairs).  NaN
    where no opponent weight is compatible.  ``opponent`` [k, n] (k weight vectors): [k, n]
    equities, the runouts' strengths and sorts shared.

    Per runout, a sweep instead of the [n x n] comparison: in strength order, the opponent's weight
    below (and equal to) each hand is a prefix sum, less the weight of the hands sharing either of
    its cards (the same prefix sums in (card, strength) order, each hand listed under both of its
    cards), plus the hand itself (removed twice).  All runouts at once, :data:`EQUITY_CHUNK` at a
    time, in NumPy: on a flop with both ranges full (1,326 pairs, 1,176 runouts) the [n x n]
    version took 32 s here, a loop over the runouts 1.0 s of CPU per weight vector, this 0.4 s
    (two vectors 0.55 s; 2026-12-06, load 3, 2 cores).  The same figures as the loop to 1e-14
    (tests/test_analysis_equity.py)."""
    board = np.asarray(board, dtype=np.int64)
    cards = np.asarray(cards, dtype=np.int64)
    n = len(cards)
    opp = np.asarray(opponent, dtype=np.float64)
    one = opp.ndim == 1
    opp = np.atleast_2d(opp)
    ok = ~np.isin(cards, board).any(axis=1)
    full = complete_boards(board)
    strengths = board_strengths(full, cards)  # [runouts, n] int32, 0 where a pair meets the runout
    num = np.zeros(opp.shape)
    both = np.concatenate([cards[:, 0], cards[:, 1]])  # each hand twice: under each of its cards
    for r0 in range(0, len(full), EQUITY_CHUNK):
        s = np.where(ok, strengths[r0:r0 + EQUITY_CHUNK], 0).astype(np.int64)  # 0: a dead hand, no weight
        m = len(s)
        rows = np.arange(m)[:, None]
        live = s > 0
        order = np.argsort(s, axis=1, kind="stable")
        lo, hi = _placed(rows, order, *_runs(s[rows, order]))  # [m, n]: ties' first / one past last
        keys = both * (1 << 32) + np.concatenate([s, s], axis=1)
        order2 = np.argsort(keys, axis=1, kind="stable")
        sorted2 = keys[rows, order2]
        lo2, hi2, start = _placed(rows, order2, *_runs(sorted2), _runs(sorted2 >> 32)[0])  # [m, 2n]
        for k, w in enumerate(opp):
            o = np.where(live, w, 0.0)
            cum = np.zeros((m, n + 1))
            np.cumsum(o[rows, order], axis=1, out=cum[:, 1:])
            cum2 = np.zeros((m, 2 * n + 1))
            np.cumsum(np.concatenate([o, o], axis=1)[rows, order2], axis=1, out=cum2[:, 1:])
            shared_below = cum2[rows, lo2] - cum2[rows, start]  # per card: the hands below sharing it
            shared_equal = cum2[rows, hi2] - cum2[rows, lo2]
            below = cum[rows, lo] - shared_below[:, :n] - shared_below[:, n:]
            equal = cum[rows, hi] - cum[rows, lo] - shared_equal[:, :n] - shared_equal[:, n:]
            num[k] += np.where(live, below + 0.5 * (equal + o), 0.0).sum(axis=0)
    share = ((cards[:, None, 0] == cards[None, :, 0]) | (cards[:, None, 0] == cards[None, :, 1]) |
             (cards[:, None, 1] == cards[None, :, 0]) | (cards[:, None, 1] == cards[None, :, 1]))
    left = 52 - len(board) - 4
    runouts = 1.0
    for t in range(5 - len(board)):
        runouts *= (left - t) / (t + 1)
    den = (opp @ (ok[:, None] & ok[None, :] & ~share).T) * runouts
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)
    return out[0] if one else out
