"""Hold'em ranges in the usual text notation, as weights over the 1,326 hole pairs.

A range is a comma-separated list of tokens, each optionally weighted with ``:w`` (0 <= w <= 1;
a later token overrides an earlier one on the pairs they share):

- ``AA`` a pair (6 combos), ``AKs`` suited (4), ``AKo`` offsuit (12), ``AK`` both (16);
- ``QQ+`` that pair and every higher pair; ``KTs+`` the kicker rises up to one below the top card
  (KTs, KJs, KQs), so ``T9o+`` is T9o alone and ``T7o+`` is T7o, T8o, T9o;
- ``JJ-88`` and ``A5s-A2s`` inclusive spans (same top card and suitedness for non-pairs);
- ``AhKh`` one exact combo;
- ``""`` (or None), ``random``, ``all`` every pair.

Pairs that hold a dead card (the board) get weight 0. An exact combo that holds a dead card, or a
range left with no weight at all, is refused: both are mistakes worth a message, not a silent
empty range.
"""

from __future__ import annotations

import re

import numpy as np

from zerosum.errors import ZerosumError
from zerosum.poker.cards import (
    N_CARDS,
    N_PAIRS,
    RANKS,
    card_str,
    cards_str,
    dead_mask,
    hole_pairs,
    pair_index_table,
    parse_cards,
)

_R = "[2-9TJQKA]"
_CLASS = re.compile(rf"^({_R})({_R})([so]?)(\+?)$", re.IGNORECASE)
_SPAN = re.compile(rf"^({_R})({_R})([so]?)-({_R})({_R})([so]?)$", re.IGNORECASE)
_COMBO = re.compile(rf"^{_R}[cdhs]{_R}[cdhs]$", re.IGNORECASE)


def is_combo(text: str) -> bool:
    """Whether ``text`` names one exact hand (``"KcQc"``), not a class of hands (``"KQs"``)."""
    return bool(_COMBO.match(text))


_UNIFORM = {"", "random", "all"}


def _rank(ch: str) -> int:
    return RANKS.index(ch.upper())


def _class_indices(hi: int, lo: int, kind: str) -> list[int]:
    """Pair indices of one hand class: ranks hi >= lo, kind '' / 's' / 'o'."""
    table = pair_index_table()
    out = []
    for s0 in range(4):
        for s1 in range(4):
            a, b = 4 * hi + s0, 4 * lo + s1
            if a == b or (hi == lo and s0 > s1):
                continue
            if kind == "s" and s0 != s1 or kind == "o" and s0 == s1:
                continue
            out.append(int(table[a, b]))
    return out


def _token_indices(token: str, dead: np.ndarray, whole: str) -> list[int]:
    """The pair indices one token names (before dead-card removal)."""
    m = _CLASS.match(token)
    if m:
        a, b, kind, plus = _rank(m[1]), _rank(m[2]), m[3].lower(), m[4]
        hi, lo = max(a, b), min(a, b)
        if hi == lo:
            if kind:
                raise ZerosumError(
                    f"range token {token!r}: a pair is neither suited nor offsuit (write {m[1]}{m[2]})"
                )
            return [i for r in (range(hi, 13) if plus else (hi,)) for i in _class_indices(r, r, "")]
        kickers = range(lo, hi) if plus else (lo,)
        return [i for k in kickers for i in _class_indices(hi, k, kind)]
    m = _SPAN.match(token)
    if m:
        a0, b0, k0, a1, b1, k1 = (
            _rank(m[1]),
            _rank(m[2]),
            m[3].lower(),
            _rank(m[4]),
            _rank(m[5]),
            m[6].lower(),
        )
        if a0 == b0 and a1 == b1 and not k0 and not k1:  # JJ-88
            lo, hi = sorted((a0, a1))
            return [i for r in range(lo, hi + 1) for i in _class_indices(r, r, "")]
        top0, kick0, top1, kick1 = max(a0, b0), min(a0, b0), max(a1, b1), min(a1, b1)
        if top0 != top1 or k0 != k1 or a0 == b0 or a1 == b1:
            raise ZerosumError(
                f"range token {token!r}: a span joins two pairs (JJ-88) or two hands with the same top card "
                "and suitedness (A5s-A2s)"
            )
        lo, hi = sorted((kick0, kick1))
        return [i for k in range(lo, hi + 1) for i in _class_indices(top0, k, k0)]
    if _COMBO.match(token):
        c0, c1 = parse_cards(token)
        on_board = [card_str(c) for c in (c0, c1) if dead[c]]
        if on_board:
            raise ZerosumError(f"range {whole!r} names {token}, but {', '.join(on_board)} is on the board")
        return [int(pair_index_table()[c0, c1])]
    raise ZerosumError(
        f"unknown range syntax {token!r}: use tokens like AA, AKs, AKo, QQ+, KTs+, JJ-88, A5s-A2s, AhKh, "
        "each optionally weighted as AA:0.5"
    )


def _weight(text: str, token: str) -> float:
    try:
        w = float(text)
    except ValueError:
        raise ZerosumError(
            f"range token {token!r}: the weight after ':' must be a number in [0, 1]"
        ) from None
    if not 0.0 <= w <= 1.0:
        raise ZerosumError(f"range token {token!r}: weight {w:g} is outside [0, 1]")
    return w


def parse_range(text: str, dead=()) -> np.ndarray:
    """Range text -> (1326,) float64 weights over ``hole_pairs()``; pairs holding a ``dead`` card are 0.

    ZerosumError for unknown syntax, an exact combo holding a dead card, and a range whose weight is
    all zero once the dead cards are removed.
    """
    dead_cards = np.zeros(N_CARDS, dtype=bool)
    dead_list = [int(c) for c in dead]
    dead_cards[dead_list] = True
    removed = dead_mask(dead_list)
    whole = "" if text is None else str(text).strip()
    weights = np.zeros(N_PAIRS, dtype=np.float64)
    if whole.lower() in _UNIFORM:
        weights[:] = 1.0
    else:
        tokens = [t.strip() for t in whole.split(",")]
        for token in tokens:
            if not token:
                raise ZerosumError(f"range {whole!r} has an empty entry between commas")
            body, sep, w = token.partition(":")
            body = body.strip()
            weight = _weight(w.strip(), token) if sep else 1.0
            weights[_token_indices(body, dead_cards, whole)] = weight
    weights[removed] = 0.0
    if not weights.any():
        if dead_list and whole.lower() not in _UNIFORM:
            raise ZerosumError(
                f"range {whole!r} names only hands that hold a board card ({cards_str(dead_list)}) or weight 0"
            )
        raise ZerosumError(f"range {whole!r} names no hand (every weight is 0)")
    return weights


def range_combos(weights: np.ndarray) -> float:
    """Total weight of a range: the number of combos when every weight is 1."""
    return float(np.asarray(weights, dtype=np.float64).sum())


def range_str(weights: np.ndarray, limit: int = 8) -> str:
    """Short human description: the first ``limit`` pairs with weight, and how many more."""
    idx = np.flatnonzero(np.asarray(weights) > 0)
    pairs = hole_pairs()
    shown = [cards_str((pairs[i, 1], pairs[i, 0])) for i in idx[:limit]]
    more = f" (+{len(idx) - limit} more)" if len(idx) > limit else ""
    return ",".join(shown) + more
