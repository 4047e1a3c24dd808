"""Hold'em hand strength for whole batches of hole pairs, from tables built once from phevaluator.

phevaluator (a maintained perfect-hash evaluator, wheels for every platform) gives each 5-card hand
its rank 1..7462 (1 = royal flush). We ask it only for the 7,462 distinct 5-card hands (6,175 rank
multisets without a flush, 1,287 flushes) and derive the rest with NumPy:

- without a flush, a hand's value depends only on its multiset of ranks: one table per hand size
  (5, 6, 7 cards) indexed by the multiset's combinatorial number (sorted ranks r_i -> sum C(r_i + i,
  i + 1)), each 6- or 7-card entry the best of its 5-card sub-multisets;
- with five or more cards of one suit, nothing beats the best flush of that suit (quads and full
  houses need more than two off-suit cards), so a 13-bit rank mask indexes the flush table.

A Numba loop then evaluates a board against every pair in a few tens of nanoseconds per hand, the
batched job a public tree needs (every river board of a flop subgame against every pair). Strength
is ``7463 - rank``: higher is better, equal means a split pot, 0 marks a pair that shares a card with
the board.
"""

from __future__ import annotations

import os
from itertools import combinations, combinations_with_replacement
from math import comb
from pathlib import Path

import numpy as np
from numba import njit

from zerosum.errors import ZerosumError
from zerosum.poker.cards import N_CARDS, hole_pairs

N_RANKS = 13
STRENGTH_MAX = 7462  # the number of distinct 5-card hand values; a royal flush has this strength

# phevaluator's rank bands (1 = best), as strengths: the lowest strength of each category.
CATEGORIES = (
    ("straight flush", 7463 - 10),
    ("four of a kind", 7463 - 166),
    ("full house", 7463 - 322),
    ("flush", 7463 - 1599),
    ("straight", 7463 - 1609),
    ("three of a kind", 7463 - 2467),
    ("two pair", 7463 - 3325),
    ("one pair", 7463 - 6185),
    ("high card", 1),
)

_BINOM = np.array([[comb(n, k) for k in range(8)] for n in range(N_RANKS + 7)], dtype=np.int64)


def hand_category(strength: int) -> str:
    """'full house', 'one pair', ... for a strength from ``hand_strengths``."""
    s = int(strength)
    if not 1 <= s <= STRENGTH_MAX:
        raise ZerosumError(f"no hand has strength {strength}: strengths are 1..{STRENGTH_MAX}")
    return next(name for name, low in CATEGORIES if s >= low)


def _multiset_index(sorted_ranks: np.ndarray) -> np.ndarray:
    """Combinatorial number of each row of non-decreasing ranks, (m, n) -> (m,)."""
    m, n = sorted_ranks.shape
    idx = np.zeros(m, dtype=np.int64)
    for i in range(n):
        idx += _BINOM[sorted_ranks[:, i] + i, i + 1]
    return idx


def _build_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(no-flush tables for 5, 6, 7 cards; flush table over 13-bit rank masks), as int32 strengths."""
    try:
        from phevaluator.evaluator import evaluate_cards  # card ids are ours: 4 * rank + suit, c d h s
    except ImportError:  # pragma: no cover - phevaluator is a dependency
        raise ZerosumError("hold'em hand strength needs phevaluator: pip install phevaluator") from None
    multisets5 = np.array(list(combinations_with_replacement(range(N_RANKS), 5)), dtype=np.int64)
    nf5 = np.zeros(int(_BINOM[N_RANKS + 4, 5]), dtype=np.int32)
    real = multisets5[:, 0] != multisets5[:, 4]  # drop five of a kind
    # Suits by position (0 1 2 3 0): equal ranks sit side by side, so they get different suits, and
    # no suit appears more than twice: never a flush.
    cards = (4 * multisets5 + np.arange(5) % 4)[real].tolist()
    nf5[_multiset_index(multisets5[real])] = [7463 - evaluate_cards(*hand) for hand in cards]
    tables = [nf5]
    for n in (6, 7):
        multisets = np.array(list(combinations_with_replacement(range(N_RANKS), n)), dtype=np.int64)
        best = np.zeros(len(multisets), dtype=np.int32)
        for sub in combinations(range(n), 5):  # sub-multisets of a sorted row stay sorted
            best = np.maximum(best, nf5[_multiset_index(multisets[:, list(sub)])])
        table = np.zeros(int(_BINOM[N_RANKS + n - 1, n]), dtype=np.int32)
        table[_multiset_index(multisets)] = best
        tables.append(table)

    flush = np.zeros(1 << N_RANKS, dtype=np.int32)
    for ranks in combinations(range(N_RANKS), 5):
        mask = sum(1 << r for r in ranks)
        flush[mask] = 7463 - evaluate_cards(*[4 * r for r in ranks])  # all clubs
    popcount = np.array([m.bit_count() for m in range(1 << N_RANKS)])
    for bits in (6, 7):  # best 5-card flush inside 6 or 7 suited cards: drop one card, keep the best
        masks = np.flatnonzero(popcount == bits)
        for r in range(N_RANKS):
            has = masks[(masks >> r) & 1 == 1]
            flush[has] = np.maximum(flush[has], flush[has ^ (1 << r)])
    return tables[0], tables[1], tables[2], flush


_TABLES: tuple[np.ndarray, ...] | None = None

#: where the built tables are kept between processes (as Numba keeps its compiled kernels beside
#: the source): building them is about a tenth of a second, 3 % of a short hold'em solve (the
#: example turn spot to 0.1 % of the pot takes postflop-solver 2.7 s); loading them 2 ms
TABLES_CACHE = Path(__file__).with_name("__pycache__") / "hand-strength-tables-v1.npz"
_TABLE_NAMES = ("nf5", "nf6", "nf7", "flush")


def _evaluator_version() -> str:
    try:
        from importlib.metadata import version

        return version("phevaluator")
    except Exception:  # noqa: BLE001 - not installed as a distribution: build each time
        return ""


def _load_cached(path: Path, evaluator: str) -> tuple[np.ndarray, ...] | None:
    """The cached tables if ``path`` holds them for this phevaluator, else None."""
    try:
        with np.load(path) as f:
            if str(f["evaluator"]) != evaluator:
                return None
            tables = tuple(np.array(f[name], dtype=np.int32) for name in _TABLE_NAMES)
    except Exception:  # noqa: BLE001 - missing, unreadable or from another layout: rebuild
        return None
    sizes = (int(_BINOM[N_RANKS + 4, 5]), int(_BINOM[N_RANKS + 5, 6]), int(_BINOM[N_RANKS + 6, 7]), 1 << N_RANKS)
    return tables if tuple(len(t) for t in tables) == sizes else None


def _save_cached(path: Path, evaluator: str, tables) -> None:
    """Keep the tables at ``path`` (written aside, then renamed); a place that cannot be written
    (a read-only install) is left alone: the tables are then built in each process."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.stem}.{os.getpid()}.tmp.npz")
        np.savez(tmp, evaluator=np.array(evaluator), **dict(zip(_TABLE_NAMES, tables)))
        os.replace(tmp, path)
    except OSError:
        pass


def strength_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The four lookup tables (built on first use, about a tenth of a second, kept for the process
    and in :data:`TABLES_CACHE` for the next ones, checked against phevaluator's version)."""
    global _TABLES
    if _TABLES is None:
        evaluator = _evaluator_version()
        tables = _load_cached(TABLES_CACHE, evaluator) if evaluator else None
        if tables is None:
            tables = _build_tables()
            if evaluator:
                _save_cached(TABLES_CACHE, evaluator, tables)
        _TABLES = tables
    return _TABLES


#: the kernel allocates nothing and so runs without Numba's runtime (``_nrt=False``): a solve whose
#: kernels all do is spared the runtime's start (its LLVM compile and the modules its lowerings
#: import: about 50 ms of a short solve's start, see :mod:`zerosum.cli.numba_start`)
@njit(cache=True, _nrt=False)
def _board_strengths_kernel(boards, pairs, nf5, nf6, nf7, flush, binom, out, scratch):
    """``out[b, i]``: pair i's strength on board b (0 where they share a card); ``scratch``: int64
    [7 + 5 + 52 + 8] (the hand's ranks, the board's sorted ranks, cards on the board, suit counts
    and rank masks)."""
    m, k = boards.shape
    n = pairs.shape[0]
    total = k + 2
    nf = nf7 if total == 7 else (nf6 if total == 6 else nf5)
    ranks = scratch[0:7]
    board_ranks = scratch[7:12]
    on_board = scratch[12:64]
    suit_count = scratch[64:68]
    suit_mask = scratch[68:72]
    for b in range(m):
        for c in range(52):
            on_board[c] = 0
        for s in range(4):
            suit_count[s] = 0
            suit_mask[s] = 0
        for j in range(k):
            c = boards[b, j]
            on_board[c] = 1
            suit_count[c & 3] += 1
            suit_mask[c & 3] |= 1 << (c >> 2)
            r = c >> 2  # inserted in order: the board's ranks sorted
            t = j
            while t > 0 and board_ranks[t - 1] > r:
                board_ranks[t] = board_ranks[t - 1]
                t -= 1
            board_ranks[t] = r
        flush_suit = -1  # the one suit with 3+ board cards (a flush needs at least 3 on the board)
        for s in range(4):
            if suit_count[s] >= 3:
                flush_suit = s
        for i in range(n):
            out[b, i] = _pair_strength(pairs[i, 0], pairs[i, 1], k, total, nf, flush, binom, ranks, board_ranks,
                                       on_board, suit_count, suit_mask, flush_suit)


@njit(cache=True, inline="always", _nrt=False)
def _pair_strength(c0, c1, k, total, nf, flush, binom, ranks, board_ranks, on_board, suit_count, suit_mask,
                   flush_suit):
    """One pair's strength on the board described by the rest (0 where it shares a card)."""
    if on_board[c0] or on_board[c1]:
        return 0
    if flush_suit >= 0:
        cnt = suit_count[flush_suit]
        mask = suit_mask[flush_suit]
        if c0 & 3 == flush_suit:
            cnt += 1
            mask |= 1 << (c0 >> 2)
        if c1 & 3 == flush_suit:
            cnt += 1
            mask |= 1 << (c1 >> 2)
        if cnt >= 5:
            return flush[mask]
    # merge the two hole ranks (lo <= hi) into the sorted board ranks
    lo = c0 >> 2
    hi = c1 >> 2
    if lo > hi:
        lo, hi = hi, lo
    t = 0
    j = 0
    while j < k and board_ranks[j] <= lo:
        ranks[t] = board_ranks[j]
        t += 1
        j += 1
    ranks[t] = lo
    t += 1
    while j < k and board_ranks[j] <= hi:
        ranks[t] = board_ranks[j]
        t += 1
        j += 1
    ranks[t] = hi
    t += 1
    while j < k:
        ranks[t] = board_ranks[j]
        t += 1
        j += 1
    idx = 0
    for j in range(total):
        idx += binom[ranks[j] + j, j + 1]
    return nf[idx]


def _check_boards(boards) -> np.ndarray:
    arr = np.asarray(boards, dtype=np.int64)
    if arr.ndim != 2 or not 3 <= arr.shape[1] <= 5:
        raise ZerosumError(f"boards must have 3, 4 or 5 cards each; got shape {arr.shape}")
    if arr.size and (arr.min() < 0 or arr.max() >= N_CARDS):
        raise ZerosumError("board cards must be 0..51")
    srt = np.sort(arr, axis=1)
    if (srt[:, 1:] == srt[:, :-1]).any():
        raise ZerosumError("a board holds the same card twice")
    return np.ascontiguousarray(arr)


def _check_pairs(pairs) -> np.ndarray:
    arr = hole_pairs() if pairs is None else np.asarray(pairs, dtype=np.int64)
    if arr.ndim != 2 or arr.shape[1] != 2:
        raise ZerosumError(f"hole pairs must be an (n, 2) array of cards; got shape {arr.shape}")
    if arr.size and (arr.min() < 0 or arr.max() >= N_CARDS or (arr[:, 0] == arr[:, 1]).any()):
        raise ZerosumError("hole pairs must be two different cards 0..51")
    return np.ascontiguousarray(arr)


def board_strengths(boards, pairs=None) -> np.ndarray:
    """Strength of every pair on every board: boards (m, k) with k = 3, 4 or 5 cards, pairs (n, 2)
    (default ``hole_pairs()``) -> (m, n) int32; 0 where the pair shares a card with the board."""
    b = _check_boards(boards)
    p = _check_pairs(pairs)
    nf5, nf6, nf7, flush = strength_tables()
    out = np.empty((b.shape[0], p.shape[0]), dtype=np.int32)
    _board_strengths_kernel(b, p, nf5, nf6, nf7, flush, _BINOM, out, np.zeros(72, dtype=np.int64))
    return out


def hand_strengths(board, pairs=None) -> np.ndarray:
    """Strength of each pair with one board (3 to 5 cards): (n,) int32, higher = better, equal = a
    split pot, 0 where the pair shares a card with the board."""
    return board_strengths(np.asarray(board, dtype=np.int64).reshape(1, -1), pairs)[0]


def complete_boards(board) -> np.ndarray:
    """Every 5-card board that extends ``board`` (3, 4 or 5 cards): (m, 5) int64, the cards dealt
    later in increasing order, boards in lexicographic order of those cards (1,176 for a flop, 48 for a
    turn, 1 for a river)."""
    b = _check_boards(np.asarray(board, dtype=np.int64).reshape(1, -1))[0]
    rest = [c for c in range(N_CARDS) if c not in set(b.tolist())]
    extra = list(combinations(rest, 5 - len(b)))
    out = np.empty((len(extra), 5), dtype=np.int64)
    out[:, : len(b)] = b
    if 5 - len(b):
        out[:, len(b) :] = np.array(extra, dtype=np.int64)
    return out
