"""Hold'em hand strengths from the phevaluator-built tables (public_tree/strength.py)."""

import itertools
import random

import numpy as np
import pytest

from zerosum.errors import ZerosumError
from zerosum.poker.cards import hole_pairs, pair_index, parse_board, parse_cards
from zerosum.poker.strength import (
    STRENGTH_MAX,
    board_strengths,
    complete_boards,
    hand_category,
    hand_strengths,
    strength_tables,
)


def strength(board: str, hole: str) -> int:
    s = hand_strengths(parse_board(board), np.array([parse_cards(hole)]))
    return int(s[0])


CATEGORY_EXAMPLES = [  # strongest first
    ("straight flush", "9h8h7h2c3d", "6h5h"),
    ("four of a kind", "9c9d9h2c3d", "9sKd"),
    ("full house", "9c9d2h2c3d", "9sKd"),
    ("flush", "Ah8h7h2c3d", "Kh4h"),
    ("straight", "9h8d7c2c3d", "6s5s"),
    ("three of a kind", "9c9d7h2c3d", "9sKd"),
    ("two pair", "9c9d7h2c3d", "7sKd"),
    ("one pair", "9c8d6h2c3d", "9sKd"),
    ("high card", "9c8d6h2c3s", "AdKh"),
]


def test_categories_in_order():
    values = [strength(board, hole) for _, board, hole in CATEGORY_EXAMPLES]
    assert [hand_category(v) for v in values] == [name for name, _, _ in CATEGORY_EXAMPLES]
    assert all(a > b for a, b in itertools.pairwise(values))
    assert strength("AhKhQh2c3d", "JhTh") == STRENGTH_MAX  # royal flush
    assert strength("7c5d4h", "3s2c") == 1  # 7-5-4-3-2 high (a flop and two cards), the worst hand


def test_wheel_is_the_lowest_straight():
    wheel = strength("Ac2d3h4s9c", "5dKh")
    six_high = strength("6c2d3h4s9c", "5dKh")
    assert hand_category(wheel) == "straight" and hand_category(six_high) == "straight"
    assert six_high == wheel + 1
    assert wheel > strength("AcAdAh4s9c", "5dKh")  # above every three of a kind
    steel_wheel = strength("Ah2h3h4h9c", "5hKd")
    assert hand_category(steel_wheel) == "straight flush"
    assert steel_wheel == strength("6h2h3h4h9c", "5hKd") - 1


def test_kickers():
    assert strength("Kc9d7h4s2c", "AhQd") > strength("Kc9d7h4s2c", "AhJd")  # high card
    assert strength("Kc9d7h4s2c", "AdKd") > strength("Kc9d7h4s2c", "QdKh")  # top pair, kicker
    assert strength("KcKdKhKs2c", "Ah3c") > strength("KcKdKhKs2c", "Qh3d")  # quads, kicker
    assert strength("9c9d7h7c2s", "AhQd") > strength("9c9d7h7c2s", "KhQd")  # two pair, fifth card
    # the sixth and seventh cards never count
    assert strength("Kc9d7h4s2c", "AhQd") == strength("Kc9d7h4s3c", "AhQd")


def test_split_pots_when_the_board_plays():
    royal = hand_strengths(parse_board("AhKhQhJhTh"))
    live = royal > 0
    assert live.sum() == 47 * 46 // 2 and np.all(royal[live] == STRENGTH_MAX)
    assert strength("9c8d7h6s5c", "2c3d") == strength("9c8d7h6s5c", "2h4d")
    assert strength("9c8d7h6s5c", "Tc2d") > strength("9c8d7h6s5c", "2h4d")
    assert strength("KcKd9h9sAc", "2c3d") == strength("KcKd9h9sAc", "QhJd")
    assert strength("KcKd9h9sAc", "2c3d") < strength("KcKd9h9sAc", "QhQd")  # KKQQ-A beats KK99-A


def test_tables_hold_each_five_card_value_exactly_once():
    nf5, _, _, flush = strength_tables()
    five_bit = np.array([m for m in range(1 << 13) if m.bit_count() == 5])
    values = np.concatenate([nf5[nf5 > 0], flush[five_bit]])
    assert len(values) == 7462
    assert np.array_equal(np.sort(values), np.arange(1, 7463))


def test_agrees_with_phevaluator_seven_card_evaluator():
    phe = pytest.importorskip("phevaluator", reason="phevaluator (a dependency) is not installed")
    rng = random.Random(11)
    pairs = hole_pairs()
    for size in (3, 4, 5) * 4:
        board = rng.sample(range(52), size)
        ours = hand_strengths(board)
        for i in rng.sample(range(1326), 300):
            a, b = (int(c) for c in pairs[i])
            if a in board or b in board:
                assert ours[i] == 0
            else:
                assert ours[i] == 7463 - phe.evaluate_cards(*board, a, b)


def test_agrees_with_eval7_on_random_boards():
    eval7 = pytest.importorskip("eval7", reason="eval7 (a second evaluator, test extra) is not installed")
    deck = [eval7.Card("23456789TJQKA"[c >> 2] + "cdhs"[c & 3]) for c in range(52)]
    rng = random.Random(5)
    pairs = hole_pairs()
    for _ in range(10):
        board = rng.sample(range(52), 5)
        ours = hand_strengths(board)
        live = np.flatnonzero(ours > 0)
        theirs = np.array([eval7.evaluate([deck[c] for c in (*board, *pairs[i])]) for i in live])
        order = np.argsort(ours[live], kind="stable")
        a, b = ours[live][order], theirs[order]
        # the same order: equal where ours is equal, strictly increasing where ours increases
        assert np.all((np.diff(a) == 0) == (np.diff(b) == 0))
        assert np.all(np.diff(b)[np.diff(a) > 0] > 0)


def test_batched_boards_match_single_boards():
    boards = complete_boards(parse_board("Ks7d2c9h"))
    assert boards.shape == (48, 5)
    pairs = hole_pairs()[::7]
    batch = board_strengths(boards, pairs)
    for row in (0, 17, 47):
        assert np.array_equal(batch[row], hand_strengths(boards[row], pairs))
    assert complete_boards(parse_board("Ks7d2c")).shape == (1176, 5)
    assert np.array_equal(complete_boards(parse_board("Ks7d2c9h3s")), [parse_board("Ks7d2c9h3s")])
    flop = complete_boards(parse_board("Ks7d2c"))
    assert len({tuple(sorted(b)) for b in flop.tolist()}) == 1176


def test_pairs_that_share_a_board_card_get_zero():
    board = parse_board("Ks7d2c9h3s")
    s = hand_strengths(board)
    ks = parse_cards("Ks")[0]
    assert s[pair_index(ks, 0)] == 0 and s[pair_index(ks, 51)] == 0
    assert (s == 0).sum() == 1326 - 47 * 46 // 2


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: hand_strengths([1, 2]), "boards must have 3, 4 or 5 cards"),
        (lambda: hand_strengths([1, 2, 3, 4, 5, 6]), "boards must have 3, 4 or 5 cards"),
        (lambda: hand_strengths([1, 2, 52]), "board cards must be 0..51"),
        (lambda: hand_strengths([1, 2, 2]), "a board holds the same card twice"),
        (lambda: hand_strengths([1, 2, 3], np.array([1, 2])), "an \\(n, 2\\) array"),
        (lambda: hand_strengths([1, 2, 3], np.array([[5, 5]])), "two different cards"),
        (lambda: hand_category(0), "no hand has strength 0"),
    ],
)
def test_error_messages(call, message):
    with pytest.raises(ZerosumError, match=message) as info:
        call()
    assert "\n" not in str(info.value)


def test_tables_kept_between_processes_equal_fresh_ones(tmp_path, monkeypatch):
    """The on-disk copy (strength.TABLES_CACHE) is what _build_tables gives; a corrupt file, one
    from another phevaluator, or a place that cannot be written all fall back to building."""
    from zerosum.poker import strength as st

    fresh = st._build_tables()
    path = tmp_path / "c" / "tables.npz"
    monkeypatch.setattr(st, "TABLES_CACHE", path)

    def reload():
        monkeypatch.setattr(st, "_TABLES", None)
        return st.strength_tables()

    for tables in (reload(), reload()):  # built and written, then read back
        assert path.exists()
        assert all(np.array_equal(a, b) and a.dtype == np.int32 for a, b in zip(tables, fresh))
    assert st._load_cached(path, st._evaluator_version()) is not None
    assert st._load_cached(path, "0.0-other") is None  # another evaluator's tables are not used
    path.write_bytes(b"not an npz")
    assert st._load_cached(path, st._evaluator_version()) is None
    assert all(np.array_equal(a, b) for a, b in zip(reload(), fresh))  # rebuilt and rewritten
    assert st._load_cached(path, st._evaluator_version()) is not None
    blocked = tmp_path / "file"
    blocked.write_text("x")
    monkeypatch.setattr(st, "TABLES_CACHE", blocked / "tables.npz")  # its folder is a file
    assert all(np.array_equal(a, b) for a, b in zip(reload(), fresh))
