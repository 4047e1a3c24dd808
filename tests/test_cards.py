"""Card ints, board parsing and the canonical hole-pair order (public_tree/cards.py)."""

import numpy as np
import pytest

from zerosum.errors import ZerosumError
from zerosum.poker import cards as C


def test_card_encoding_rank_major_suit_minor():
    assert C.parse_card("2c") == 0
    assert C.parse_card("2s") == 3
    assert C.parse_card("As") == 51
    assert C.parse_card("Ks") == 4 * 11 + 3
    assert C.parse_card("td") == 4 * 8 + 1
    assert C.parse_card("10h") == C.parse_card("Th")
    assert [C.card_str(C.parse_card(r + s)) for r in C.RANKS for s in C.SUITS] == [
        r + s for r in C.RANKS for s in C.SUITS
    ]
    assert C.card_rank(C.parse_card("Qh")) == 10 and C.card_suit(C.parse_card("Qh")) == 2


def test_parse_board_and_back():
    board = C.parse_board("Ks7d2c9h")
    assert board == (47, 21, 0, 30)
    assert C.cards_str(board) == "Ks7d2c9h"
    assert C.parse_board("Ks 7d, 2c") == (47, 21, 0)


def test_hole_pairs_canonical_order():
    pairs = C.hole_pairs()
    assert pairs.shape == (1326, 2)
    assert np.all(pairs[:, 0] < pairs[:, 1])
    keys = pairs[:, 0] * 52 + pairs[:, 1]
    assert np.all(np.diff(keys) > 0)  # strictly increasing: sorted and no repeats
    assert len({(a, b) for a, b in pairs}) == 1326
    with pytest.raises(ValueError):
        pairs[0, 0] = 5  # read-only


def test_pair_index_inverts_hole_pairs():
    pairs = C.hole_pairs()
    table = C.pair_index_table()
    assert np.array_equal(table[pairs[:, 0], pairs[:, 1]], np.arange(1326))
    assert np.array_equal(table[pairs[:, 1], pairs[:, 0]], np.arange(1326))
    assert np.all(np.diag(table) == -1)
    i = C.pair_index(C.parse_card("Ah"), C.parse_card("Kh"))
    assert C.pair_str(i) == "AhKh"
    assert C.pair_index(50, 46) == i


def test_dead_cards_remove_exactly_the_pairs_that_hold_them():
    board = C.parse_board("Ks7d2c9h2d")
    live = C.live_pairs(board)
    assert len(live) == 47 * 46 // 2  # 1,081 pairs avoid a 5-card board
    pairs = C.hole_pairs()
    assert not np.isin(pairs[live], board).any()
    assert len(C.live_pairs(board[:3])) == 49 * 48 // 2
    assert len(C.live_pairs(())) == 1326


@pytest.mark.parametrize(
    "text, message",
    [
        ("Kx7d2c", "illegal card 'Kx'"),
        ("1s7d2c", "illegal card '1s'"),
        ("Ks7d2", "each card is two characters"),
        ("Ks7dKs", "duplicated card Ks"),
    ],
)
def test_bad_board_messages(text, message):
    with pytest.raises(ZerosumError, match=message) as info:
        C.parse_board(text)
    assert "\n" not in str(info.value)


def test_board_length_is_checked_when_asked():
    assert len(C.parse_board("Ks7d2c", lengths=(3, 4, 5))) == 3
    with pytest.raises(ZerosumError, match="has 2 cards; a board has 3, 4, 5 cards"):
        C.parse_board("Ks7d", lengths=(3, 4, 5))


def test_bad_card_numbers_and_pairs():
    with pytest.raises(ZerosumError, match="illegal card number 52"):
        C.card_str(52)
    with pytest.raises(ZerosumError, match="two different cards"):
        C.pair_index(3, 3)
