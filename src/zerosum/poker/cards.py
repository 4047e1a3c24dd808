"""Playing cards as small ints, and the 1,326 hold'em hole pairs in one fixed order.

A card is ``4 * rank + suit`` with rank 0..12 for 2..A and suit 0..3 for c, d, h, s, so card
arrays are plain NumPy ints that every kernel can index with. The hole pairs are listed once
(``c0 < c1``, sorted by ``c0`` then ``c1``) so that a hand index means the same thing everywhere:
ranges, strengths, strategies and saved policies.
"""

from __future__ import annotations

import numpy as np

from zerosum.errors import ZerosumError

RANKS = "23456789TJQKA"
SUITS = "cdhs"
N_CARDS = 52
N_PAIRS = 52 * 51 // 2  # 1,326

_RANK_OF = {ch: i for i, ch in enumerate(RANKS)}
_SUIT_OF = {ch: i for i, ch in enumerate(SUITS)}


def card_rank(card: int) -> int:
    """Rank 0..12 (2..A) of a card int."""
    return int(card) >> 2


def card_suit(card: int) -> int:
    """Suit 0..3 (c, d, h, s) of a card int."""
    return int(card) & 3


def parse_card(text: str) -> int:
    """'Ks' -> 47. Rank in 23456789TJQKA (case-insensitive, '10' for T), suit in cdhs."""
    s = str(text).strip()
    if s[:2] == "10":
        s = "T" + s[2:]
    if len(s) != 2 or s[0].upper() not in _RANK_OF or s[1].lower() not in _SUIT_OF:
        raise ZerosumError(
            f"illegal card {text!r}: write a rank from 23456789TJQKA and a suit from cdhs, as 'Ks'"
        )
    return 4 * _RANK_OF[s[0].upper()] + _SUIT_OF[s[1].lower()]


def card_str(card: int) -> str:
    """47 -> 'Ks'."""
    c = int(card)
    if not 0 <= c < N_CARDS:
        raise ZerosumError(f"illegal card number {card}: cards are 0..51")
    return RANKS[c >> 2] + SUITS[c & 3]


def cards_str(cards) -> str:
    """(47, 21, 0) -> 'Ks7d2c'."""
    return "".join(card_str(c) for c in cards)


def parse_cards(text: str) -> tuple[int, ...]:
    """'Ks7d2c9h' (spaces or commas allowed between cards) -> card ints; ZerosumError on an illegal
    or repeated card."""
    s = "".join(ch for ch in str(text) if ch not in " ,").replace("10", "T")
    if len(s) % 2:
        raise ZerosumError(f"illegal cards {text!r}: each card is two characters, as 'Ks7d2c'")
    cards = tuple(parse_card(s[i : i + 2]) for i in range(0, len(s), 2))
    seen: set[int] = set()
    for c in cards:
        if c in seen:
            raise ZerosumError(f"duplicated card {card_str(c)} in {text!r}")
        seen.add(c)
    return cards


def parse_board(text: str, lengths: tuple[int, ...] | None = None) -> tuple[int, ...]:
    """A board such as 'Ks7d2c9h' -> card ints. With ``lengths`` (e.g. (3, 4, 5)), a board of any
    other length is refused."""
    cards = parse_cards(text)
    if lengths is not None and len(cards) not in lengths:
        allowed = ", ".join(str(n) for n in lengths)
        raise ZerosumError(f"board {text!r} has {len(cards)} cards; a board has {allowed} cards")
    return cards


def _build_pairs() -> np.ndarray:
    c0, c1 = np.triu_indices(N_CARDS, k=1)
    return np.stack([c0, c1], axis=1).astype(np.int64)


_PAIRS = _build_pairs()
_PAIRS.setflags(write=False)
_PAIR_INDEX = np.full((N_CARDS, N_CARDS), -1, dtype=np.int64)
_PAIR_INDEX[_PAIRS[:, 0], _PAIRS[:, 1]] = np.arange(N_PAIRS)
_PAIR_INDEX[_PAIRS[:, 1], _PAIRS[:, 0]] = np.arange(N_PAIRS)
_PAIR_INDEX.setflags(write=False)


def hole_pairs() -> np.ndarray:
    """All 1,326 hole pairs as a read-only (1326, 2) int64 array, c0 < c1, in lexicographic order."""
    return _PAIRS


def pair_index_table() -> np.ndarray:
    """(52, 52) int64 table: entry [a, b] = index of pair {a, b} in ``hole_pairs()`` (either order),
    -1 on the diagonal. For vectorised lookups."""
    return _PAIR_INDEX


def pair_index(c0: int, c1: int) -> int:
    """Index of the hole pair {c0, c1} (either order) in ``hole_pairs()``."""
    a, b = int(c0), int(c1)
    if not (0 <= a < N_CARDS and 0 <= b < N_CARDS) or a == b:
        raise ZerosumError(f"no hole pair ({c0}, {c1}): two different cards 0..51 are needed")
    return int(_PAIR_INDEX[a, b])


def pair_str(index: int) -> str:
    """Hole pair index -> 'AsKh' style text (higher card first)."""
    a, b = _PAIRS[int(index)]
    return card_str(b) + card_str(a)


def dead_mask(dead) -> np.ndarray:
    """(1326,) bool: True for the pairs holding any of the ``dead`` cards (e.g. the board)."""
    d = np.zeros(N_CARDS, dtype=bool)
    d[np.asarray(list(dead), dtype=np.int64)] = True
    return d[_PAIRS[:, 0]] | d[_PAIRS[:, 1]]


def live_pairs(dead=()) -> np.ndarray:
    """Indices (into ``hole_pairs()``) of the pairs that share no card with ``dead``, ascending."""
    return np.flatnonzero(~dead_mask(dead))


def hand_class(label: str) -> str:
    """'AA', 'AKs' or 'AKo' of a hole-card label like 'AhKh'."""
    a, b = label[0], label[2]
    if RANKS.index(b) > RANKS.index(a):
        a, b = b, a
    if a == b:
        return a + b
    return a + b + ("s" if label[1] == label[3] else "o")


def grid_classes() -> list[list[str]]:
    """The 13x13 grid, A first: pairs on the diagonal, suited above it (row = higher card),
    offsuit below (column = higher card)."""
    r = RANKS[::-1]
    return [[r[i] + r[j] if i == j else (r[i] + r[j] + "s" if i < j else r[j] + r[i] + "o") for j in range(13)]
            for i in range(13)]
