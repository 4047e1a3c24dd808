"""zerosum.poker.equity.equity over every runout at once (NumPy, :data:`zerosum.poker.equity.EQUITY_CHUNK` runouts a step)
against the loop over runouts it replaced (kept here as the reference), to 1e-12: on a turn
spot's hands (postflop-solver's example turn), a flop and a river, with ties, zero weights and
hands the board blocks; both players' weights in one call; and the report's equities."""

from __future__ import annotations

import numpy as np
import pytest

from zerosum.poker.cards import parse_cards
from zerosum.poker.equity import equity
from zerosum.poker.holdem import HoldemGame
from zerosum.poker.strength import board_strengths, complete_boards
from zerosum.public_tree.compile import public_tree
from zerosum.solutions import analysis


def loop_equity(board, cards, opponent):
    """The implementation before: one runout at a time, the hands sharing a card by [n, 51] gathers."""
    board = np.asarray(board, dtype=np.int64)
    cards = np.asarray(cards, dtype=np.int64)
    n = len(cards)
    opp = np.asarray(opponent, dtype=np.float64)
    ok = ~np.isin(cards, board).any(axis=1)
    rows = np.full((52, 51), n, dtype=np.int64)
    for c in range(52):
        idx = np.flatnonzero((cards == c).any(axis=1))
        rows[c, :len(idx)] = idx
    mine = [rows[cards[:, 0]], rows[cards[:, 1]]]
    full = complete_boards(board)
    strengths = board_strengths(full, cards).astype(np.float64)
    num = np.zeros(n)
    cum = np.zeros(n + 1)
    for k in range(len(full)):
        s = strengths[k]
        live = (s > 0) & ok
        o = np.where(live, opp, 0.0)
        se = np.append(np.where(live, s, -1.0), -1.0)
        oe = np.append(o, 0.0)
        order = np.argsort(se[:n], kind="stable")
        np.cumsum(oe[order], out=cum[1:])
        ss = se[order]
        lo, hi = np.searchsorted(ss, s, "left"), np.searchsorted(ss, s, "right")
        below, equal = cum[lo], cum[hi] - cum[lo]
        for rowsets in mine:
            sj, oj = se[rowsets], oe[rowsets]
            below = below - (oj * (sj < s[:, None])).sum(axis=1)
            equal = equal - (oj * (sj == s[:, None])).sum(axis=1)
        num += np.where(live, below + 0.5 * (equal + o), 0.0)
    share = ((cards[:, None, 0] == cards[None, :, 0]) | (cards[:, None, 0] == cards[None, :, 1]) |
             (cards[:, None, 1] == cards[None, :, 0]) | (cards[:, None, 1] == cards[None, :, 1]))
    left = 52 - len(board) - 4
    runouts = 1.0
    for t in range(5 - len(board)):
        runouts *= (left - t) / (t + 1)
    den = ((ok[:, None] & ok[None, :] & ~share) @ opp) * runouts
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)


def same(a, b):
    assert np.array_equal(np.isnan(a), np.isnan(b))
    good = ~np.isnan(a)
    assert good.sum() > 0
    np.testing.assert_allclose(a[good], b[good], rtol=0, atol=1e-12)


def weights(n, seed):
    rng = np.random.default_rng(seed)
    w = rng.choice([0.0, 0.25, 0.5, 1.0], size=n) * rng.random(n)
    w[: n // 10] = 0.0
    return w


@pytest.fixture(scope="module")
def turn_tree():
    """postflop-solver's example turn's board and ranges, limit betting (a small tree)."""
    game = HoldemGame(board="Td9d6hQc", pot=200, stack=900,
                      range0="66+,A8s+,A5s-A4s,AJo+,K9s+,KQo,QTs+,JTs,96s+,85s+,75s+,65s,54s",
                      range1="QQ-22,AQs-A2s,ATo+,K5s+,KJo+,Q8s+,J8s+,T7s+,96s+,86s+,75s+,64s+,53s+",
                      raises=1)
    return public_tree(game)


def test_turn_spot_hands_match_the_loop(turn_tree):
    cards = np.asarray(turn_tree.terminals.cards, dtype=np.int64)
    board = parse_cards("Td9d6hQc")
    assert len(cards) > 200
    for seed in (0, 1):
        w = weights(len(cards), seed)
        same(equity(board, cards, w), loop_equity(board, cards, w))
    uniform = np.ones(len(cards))  # many ties: suits alike
    same(equity(board, cards, uniform), loop_equity(board, cards, uniform))


def test_flop_and_river_match_the_loop_and_blocked_hands_are_nan():
    every = np.array([(a, b) for a in range(52) for b in range(a + 1, 52)], dtype=np.int64)
    rng = np.random.default_rng(3)
    cards = every[np.sort(rng.choice(len(every), 260, replace=False))]
    for text in ("QsJh2h", "Ks7d2c9h5s"):
        board = parse_cards(text)
        w = weights(len(cards), 7)
        new, old = equity(board, cards, w), loop_equity(board, cards, w)
        same(new, old)
        blocked = np.isin(cards, board).any(axis=1)
        assert blocked.any() and np.isnan(new[blocked]).all()


def test_several_weight_vectors_in_one_call(turn_tree):
    cards = np.asarray(turn_tree.terminals.cards, dtype=np.int64)
    board = parse_cards("Td9d6hQc")
    w = np.stack([weights(len(cards), 11), weights(len(cards), 12)])
    both = equity(board, cards, w)
    assert both.shape == w.shape
    for k in (0, 1):
        same(both[k], loop_equity(board, cards, w[k]))


def test_the_reports_equities_are_each_players_against_the_others_reach(turn_tree):
    from zerosum.public_tree.solver import public_solver

    s = public_solver("dcfr", turn_tree)
    s.run(3)
    policy = s.average_policy()
    label = next(lab for k, lab in enumerate(turn_tree.labels) if lab.count(":") == 2 and lab.endswith(":c"))
    report = analysis.node_analysis(turn_tree, policy, label)
    reach = analysis.path_reach(turn_tree, policy, turn_tree.labels.index(label))
    board = analysis.node_board(turn_tree, turn_tree.labels.index(label))
    cards = np.asarray(turn_tree.terminals.cards, dtype=np.int64)
    for p in (0, 1):
        shared = np.zeros(len(cards))
        shared[turn_tree.hand_window(1 - p)] = reach[1 - p]
        expect = loop_equity(board, cards, shared)[turn_tree.hand_window(p)]
        held = np.flatnonzero(np.asarray(turn_tree.ranges[p]) > 0)
        same(np.asarray(report["players"][p]["equity"]), expect[held])
