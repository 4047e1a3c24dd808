"""``showdown_prefix_arrays`` (a Numba kernel since the solve's start was found to spend 24 ms
in it on the limit turn, 358 on TexasSolver's flop) against the NumPy version it replaced, kept
here as the reference: the five arrays identical (values, dtypes, shapes) on the data folder's
three spots and on small random inputs (ranges, ties, with and without windows)."""

from __future__ import annotations

import numpy as np
import pytest

from zerosum.games import load_game
from zerosum.poker.spots import spot_params
from zerosum.public_tree.compile import public_tree
from zerosum.public_tree.evaluators.sweep import showdown_prefix_arrays

#: the spot files of shared/data/poker-spots, less their notes (kept here: the tests do not read outside
#: the repository)
_LIMIT_STREET = {"bet": ["4c"], "raise": ["4c2r"]}
_FLOP_STREET = {"bet": ["50%", "a"], "raise": ["60%", "a"]}
SPOTS = {
    "limit": {"name": "limit-turn-ks7d2c9h", "board": "Ks7d2c9h", "pot": 10, "stack": 1000, "ranges": ["", ""],
              "betting": "fixed-limit", "streets": {"turn": _LIMIT_STREET, "river": _LIMIT_STREET},
              "rake": {"rate": 0, "cap": 0}},
    "pfs": {"name": "pfs-example-turn-td9d6h-qc", "board": "Td9d6hQc", "pot": 200, "stack": 900,
            "ranges": ["66+,A8s+,A5s-A4s,AJo+,K9s+,KQo,QTs+,JTs,96s+,85s+,75s+,65s,54s",
                       "QQ-22,AQs-A2s,ATo+,K5s+,KJo+,Q8s+,J8s+,T7s+,96s+,86s+,75s+,64s+,53s+"],
            "betting": "no-limit",
            "streets": {"turn": {"bet": ["60%", "e", "a"], "raise": ["2.5x"]},
                        "river": {"bet": ["60%", "e", "a"], "raise": ["2.5x"], "donk": ["50%"]}},
            "same_sizes_for_both_players": True, "add_allin_threshold": 1.5, "force_allin_threshold": 0.15,
            "merging_threshold": 0.1, "rake": {"rate": 0, "cap": 0}},
    "flop": {"name": "texassolver-sample-flop-qsjh2h", "board": "QsJh2h", "pot": 50, "stack": 200,
             "ranges": [("QQ:0.5,JJ:0.75,TT,99,88,77,66,55,44,33,22,AKo:0.25,AQs,AQo:0.75,AJs,AJo:0.75,ATs,"
                        "ATo:0.75,A9s,A8s,A7s,A6s,A5s,A4s,A3s,A2s,KQ,KJ,KTs,KTo:0.5,K9s,K8s,K7s,K6s,K5s,"
                        "K4s:0.5,K3s:0.5,K2s:0.5,QJ,QTs,Q9s,Q8s,Q7s,JTs,JTo:0.5,J9s,J8s,T9s,T8s,T7s,98s,97s,"
                        "96s,87s,86s,76s,75s,65s,64s,54s,53s,43s"),
                        ("AA,KK,QQ,JJ,TT,99:0.75,88:0.75,77:0.5,66:0.25,55:0.25,AK,AQs,AQo:0.75,AJs,AJo:0.5,"
                        "ATs:0.75,A6s:0.25,A5s:0.75,A4s:0.75,A3s:0.5,A2s:0.5,KQs,KQo:0.5,KJs,KTs:0.75,"
                        "K5s:0.25,K4s:0.25,QJs:0.75,QTs:0.75,Q9s:0.5,JTs:0.75,J9s:0.75,J8s:0.75,T9s:0.75,"
                        "T8s:0.75,T7s:0.75,98s:0.75,97s:0.75,96s:0.5,87s:0.75,86s:0.5,85s:0.5,76s:0.75,75s:0.5,"
                        "65s:0.75,64s:0.5,54s:0.75,53s:0.5,43s:0.5")],
             "betting": "no-limit",
             "streets": {"flop": _FLOP_STREET, "turn": _FLOP_STREET,
                         "river": {"bet": ["50%", "a"], "raise": ["60%", "100%", "a"], "donk": ["50%"]}},
             "rake": {"rate": 0, "cap": 0}},
}


def _old_showdown_prefix_arrays(cards, order, start, strength, players, window=None) -> tuple:
    """The NumPy implementation (argsort and searchsorted over chunks of boards) as it was."""
    boards = len(start) - 1
    qorder, qstart, qstrength = _old_player_lists(order, start, strength, players)
    # the lists' hands as int32 (qorder) and int16 (chand, the card lists), the scratch indices as
    # int16 (below 52 + 3 * 1,326 + 53 < 2 ** 15), cbase int32: the narrowest types that hold them,
    # to keep the lists small; read the same (the kernels widen them to int64)
    pidx = np.zeros((len(qorder), 8), dtype=np.int32)
    cbase = np.zeros((boards, 2, 53), dtype=np.int64)
    chand = np.zeros(2 * len(qorder), dtype=np.int32)
    b0 = 0
    while b0 < boards:  # boards in chunks of about _OLD_CHUNK_ENTRIES hands, each chunk's sorts and searches in cache
        b1 = b0 + 1 + int(np.searchsorted(qstart[2 * b0 + 2::2], qstart[2 * b0] + _OLD_CHUNK_ENTRIES, "right"))
        b1 = min(b1, boards)
        _old_chunk_reads(cards, (qorder, qstrength, qstart), b0, b1, (pidx, cbase, chand))
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
_OLD_CHUNK_ENTRIES = 16384


def _old_player_lists(order, start, strength, players) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
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


def _old_chunk_reads(cards, player_lists, b0, b1, written) -> None:
    """Boards b0 to b1 - 1 of :func:`showdown_prefix_arrays`: into ``written`` = (``pidx``,
    ``cbase``, ``chand``), their card lists (``cbase``, ``chand``) and every hand's eight scratch
    indices (``pidx``), each hand of list 2 b + p reading the other player's list 2 b + o, found
    by ``np.searchsorted`` in the chunk's concatenation of ``player_lists`` = (hands, strengths,
    list starts: :func:`_old_player_lists`)."""
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




def _same(new, old):
    assert len(new) == len(old) == 5
    for a, b in zip(new, old):
        assert a.dtype == b.dtype and a.shape == b.shape
        assert np.array_equal(a, b)


def _both(args, window):
    _same(showdown_prefix_arrays(*args, window), _old_showdown_prefix_arrays(*args, window))


@pytest.mark.parametrize("name", ["limit", "pfs", "flop"])
def test_the_spots_lists_are_the_numpy_ones(name):
    """As ``SweepTerminals.kernel_args`` calls it (each player's window), and on the shared list
    (no window: every hand's index in the shared list)."""
    term = public_tree(load_game("holdem", **spot_params(SPOTS[name]))).terminals
    players = np.ones((2, len(term.cards)), dtype=bool) if term.players is None else term.players
    args = (term.cards, term.order, term.start, term.strength, players)
    _both(args, term.windows())
    if name != "flop":
        _both(args, None)


def _random_input(rng, n, boards, windowed):
    """``n`` hands (two different cards of 52; some hands share cards), ``boards`` boards each of
    a random subset of them in strength order (few strengths: many ties), and the players'
    ranges, within windows [0's only | both | 1's only] when ``windowed``."""
    cards = np.array([rng.choice(52, 2, replace=False) for _ in range(n)], dtype=np.int64)
    order, start = [], [0]
    for _ in range(boards):
        live = np.flatnonzero(rng.random(n) < rng.choice([0.0, 0.3, 0.9, 1.0]))
        strength = rng.integers(0, rng.choice([1, 3, 50]), len(live))
        by = np.argsort(strength, kind="stable")
        order.append(np.stack([live[by], strength[by]]))
        start.append(start[-1] + len(live))
    order = np.concatenate(order, axis=1) if boards else np.zeros((2, 0), dtype=np.int64)
    players = rng.random((2, n)) < rng.choice([0.5, 1.0])
    window = None
    if windowed:
        a1 = int(rng.integers(0, n + 1))
        m0 = int(rng.integers(a1, n + 1))
        players[0, m0:] = False
        players[1, :a1] = False
        window = np.array([[0, m0], [a1, n - a1]], dtype=np.int64)
    return (cards, order[0].astype(np.int32), np.array(start, dtype=np.int64), order[1].astype(np.int32),
            players), window


def test_random_inputs_give_the_numpy_lists():
    rng = np.random.default_rng(11)
    for trial in range(300):
        args, window = _random_input(rng, int(rng.integers(1, 40)), int(rng.integers(0, 6)), trial % 3 != 0)
        _both(args, window)


def test_a_hand_outside_its_window_is_refused_as_before():
    rng = np.random.default_rng(5)
    args, window = _random_input(rng, 30, 3, True)
    args[4][0, :] = True  # player 0 holds hands past its window's end
    for f in (showdown_prefix_arrays, _old_showdown_prefix_arrays):
        with pytest.raises(AssertionError, match="outside its window"):
            f(*args, window)
