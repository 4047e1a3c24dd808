"""Range notation -> weights over the 1,326 hole pairs (public_tree/ranges.py)."""

import numpy as np
import pytest

from zerosum.errors import ZerosumError
from zerosum.poker.cards import card_rank, card_suit, hole_pairs, pair_index, parse_board, parse_card
from zerosum.poker.ranges import parse_range, range_combos, range_str

PAIRS = hole_pairs()


def classes(weights):
    """The set of hand-class names (AA, AKs, AKo) that carry weight: an independent decoding."""
    out = set()
    for a, b in PAIRS[weights > 0]:
        hi, lo = max(card_rank(a), card_rank(b)), min(card_rank(a), card_rank(b))
        name = "23456789TJQKA"[hi] + "23456789TJQKA"[lo]
        if hi != lo:
            name += "s" if card_suit(a) == card_suit(b) else "o"
        out.add(name)
    return out


@pytest.mark.parametrize(
    "text, combos",
    [
        ("AA", 6),
        ("AKs", 4),
        ("AKo", 12),
        ("AK", 16),
        ("QQ+", 18),
        ("22+", 78),
        ("T9o+", 12),
        ("T7o+", 36),
        ("KTs+", 12),
        ("A2s+", 48),
        ("A5s-A2s", 16),
        ("A2s-A5s", 16),
        ("JJ-88", 24),
        ("AhKh", 1),
        # overlaps count once: QQ+ adds QQ, KK; KTs+ adds KTs, KJs (KQs named already); AhKh is new
        ("AA,KQs,T9o+,QQ+,A5s-A2s,KTs+,AhKh", 6 + 4 + 12 + 12 + 16 + 8 + 1),
        ("", 1326),
        ("random", 1326),
        ("ALL", 1326),
        (None, 1326),
    ],
)
def test_combo_counts(text, combos):
    w = parse_range(text)
    assert w.shape == (1326,) and w.dtype == np.float64
    assert set(np.unique(w)) <= {0.0, 1.0}
    assert range_combos(w) == combos


def test_classes_named_are_exactly_the_expected_ones():
    assert classes(parse_range("QQ+")) == {"QQ", "KK", "AA"}
    assert classes(parse_range("KTs+")) == {"KTs", "KJs", "KQs"}
    assert classes(parse_range("T7o+")) == {"T7o", "T8o", "T9o"}
    assert classes(parse_range("A5s-A2s")) == {"A5s", "A4s", "A3s", "A2s"}
    assert classes(parse_range("JJ-88")) == {"JJ", "TT", "99", "88"}
    assert classes(parse_range("ka")) == {"AKs", "AKo"}  # either order, any case


def test_exact_combo_is_one_pair():
    w = parse_range("AhKh")
    assert np.flatnonzero(w).tolist() == [pair_index(parse_card("Ah"), parse_card("Kh"))]
    assert range_str(w) == "AhKh"


def test_weights_and_later_tokens_override():
    w = parse_range("AA:0.5, KK, AsAh:0.25")
    assert range_combos(w) == pytest.approx(5 * 0.5 + 0.25 + 6)
    assert w[pair_index(parse_card("As"), parse_card("Ah"))] == 0.25
    w = parse_range("QQ+:0.3,AA")
    assert range_combos(w) == pytest.approx(12 * 0.3 + 6)


def test_dead_cards_removed():
    board = parse_board("AsKd2c")
    w = parse_range("AA,AK", dead=board)
    assert range_combos(w) == 3 + 3 * 3  # AA: 3 of the remaining aces; AK: 3 aces x 3 kings
    assert not np.isin(PAIRS[w > 0], board).any()
    assert range_combos(parse_range("", dead=board)) == 49 * 48 / 2
    assert range_combos(parse_range("random", dead=parse_board("Ks7d2c9h3s"))) == 47 * 46 / 2


@pytest.mark.parametrize(
    "text, dead, message",
    [
        ("AX", "", "unknown range syntax 'AX'"),
        ("AA,KQq", "", "unknown range syntax 'KQq'"),
        ("AKs++", "", "unknown range syntax 'AKs\\+\\+'"),
        ("AA,,KK", "", "has an empty entry between commas"),
        ("AAs", "", "a pair is neither suited nor offsuit"),
        ("A5s-K2s", "", "a span joins two pairs"),
        ("A5s-A2o", "", "a span joins two pairs"),
        ("AA:x", "", "the weight after ':' must be a number"),
        ("AA:1.5", "", "weight 1.5 is outside \\[0, 1\\]"),
        ("AhAh", "", "duplicated card Ah"),
        ("AA:0", "", "names no hand"),
        ("AhKh", "Ah7d2c", "names AhKh, but Ah is on the board"),
        ("AA", "AhAdAc", "names only hands that hold a board card \\(AhAdAc\\)"),
    ],
)
def test_error_messages(text, dead, message):
    with pytest.raises(ZerosumError, match=message) as info:
        parse_range(text, dead=parse_board(dead) if dead else ())
    assert "\n" not in str(info.value)
