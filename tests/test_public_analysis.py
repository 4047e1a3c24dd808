"""Per-hand analysis on the public tree (zerosum.solutions.analysis, ``zerosum evaluate --node``):
EV against the exact game value and a brute-force walk of the history tree, equity against direct
enumeration, the 13x13 grid's counts and the categories."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

import zerosum.cli
from zerosum.core.game import CHANCE, TERMINAL
from zerosum.errors import ZerosumError
from zerosum.poker.cards import grid_classes, hand_class, parse_cards
from zerosum.poker.equity import equity
from zerosum.poker.holdem import HoldemGame
from zerosum.poker.strength import hand_strengths
from zerosum.public_tree.compile import public_tree
from zerosum.public_tree.passes import nash_conv_public
from zerosum.public_tree.solver import public_solver
from zerosum.solutions import analysis

RIVER = {"board": "Ks7d2c9h5s", "range0": "QQ+,AK", "range1": "JJ+,AQ+"}
# a turn subgame small enough to walk every history in Python (chance deals the river)
TURN = {"board": "Ks7d2c9h", "range0": "AsAh,KhQh,8s8h", "range1": "QsJs,9d8d,AdKd", "raises": 1}


def solved(params, iterations=200, name="dcfr"):
    tree = public_tree(HoldemGame(**params))
    s = public_solver(name, tree)
    s.run(iterations)
    return tree, s.average_policy()


def brute_force(game, tree, policy, label):
    """Per hand of each player at the public node ``label``: sum over the histories there of
    P(history) x player 0's expected payoff below it, and of P(history), walking the game's rules."""
    node_of = {lab: k for k, lab in enumerate(tree.labels)}
    index = [{h: i for i, h in enumerate(tree.hand_labels[p])} for p in (0, 1)]
    num = [{}, {}]
    den = [{}, {}]

    def walk(h, reach):
        who = game.player(h)
        if who == TERMINAL:
            return game.payoff(h)
        if who == CHANCE:
            return sum(q * walk(game.child(h, a), reach * q) for a, q in game.chance_outcomes(h))
        node = node_of[game.public_label(h.dealt, h.rounds)]
        probs = policy.table(node)[:, index[who][game.hand_labels[h.hands[who]]]]
        v = sum(probs[k] * walk(game.child(h, a), reach * probs[k]) for k, a in enumerate(game.actions(h)))
        if tree.labels[node] == label:
            for p in (0, 1):
                hand = game.hand_labels[h.hands[p]]
                num[p][hand] = num[p].get(hand, 0.0) + reach * (v if p == 0 else -v)
                den[p][hand] = den[p].get(hand, 0.0) + reach
        return v

    walk(game.root(), 1.0)
    return num, den


def test_root_ev_sums_to_the_exact_value():
    tree, policy = solved(RIVER)
    exact = nash_conv_public(tree, policy.probs)
    report = analysis.node_analysis(tree, policy, "::")
    for p, sign in ((0, 1.0), (1, -1.0)):
        entry = report["players"][p]
        assert entry["weight"].sum() == pytest.approx(1.0, abs=1e-12)
        assert float(entry["weight"] @ entry["ev"]) == pytest.approx(sign * exact["value"], abs=1e-10)
        # the NumPy pass's best responses agree with the compiled kernels' (two independent methods)
        assert analysis.best_response_value(tree, policy, p) == pytest.approx(exact["best_response_values"][p],
                                                                             abs=1e-10)
    assert report["reach_probability"] == pytest.approx(1.0)


@pytest.mark.parametrize("label", [":5s:cc/r", ":5s:crc/", "::cr"])
def test_ev_and_weight_agree_with_the_history_tree(label):
    game = HoldemGame(**TURN)
    tree, policy = solved(TURN, 60)
    report = analysis.node_analysis(tree, policy, label)
    assert report["label"] == label
    num, den = brute_force(game, tree, policy, label)
    total = sum(den[0].values())
    assert report["reach_probability"] == pytest.approx(total, rel=1e-9)
    for p in (0, 1):
        entry = report["players"][p]
        checked = 0
        for k, hand in enumerate(entry["hands"]):
            if den[p].get(hand, 0.0) > 0:
                assert entry["ev"][k] == pytest.approx(num[p][hand] / den[p][hand], rel=1e-9, abs=1e-9)
                assert entry["weight"][k] == pytest.approx(den[p][hand] / total, rel=1e-9)
                checked += 1
            else:
                assert entry["weight"][k] == 0.0
        assert checked >= 2


def test_equity_by_direct_enumeration():
    tree, policy = solved(RIVER, 50)
    report = analysis.node_analysis(tree, policy, "::")
    p0 = report["players"][0]
    # AsAh on Ks7d2c9h5s against JJ+,AQ+: 30 compatible combos; beats JJ, QQ (6 + 6), AK (6), AQ (8),
    # ties AdAc, loses to the three KK
    assert p0["equity"][p0["hands"].index("AsAh")] == pytest.approx(26.5 / 30, abs=1e-12)
    # every hand, both players, at a river node after a bet: enumeration with the evaluator
    label = "::cr"
    report = analysis.node_analysis(tree, policy, label)
    board = parse_cards(RIVER["board"])
    for p in (0, 1):
        entry = report["players"][p]
        mine, theirs = tree.hand_cards(p), tree.hand_cards(1 - p)  # (each player's own list)
        s, t = hand_strengths(np.array(board), mine), hand_strengths(np.array(board), theirs)
        opp = analysis.path_reach(tree, policy, tree.labels.index(label))[1 - p]
        for k, hand in enumerate(entry["hands"]):
            i = tree.hand_labels[p].index(hand)
            win = tot = 0.0
            for j in range(len(theirs)):
                if opp[j] > 0 and not set(mine[i]) & set(theirs[j]):
                    win += opp[j] * (1.0 if s[i] > t[j] else 0.5 if s[i] == t[j] else 0.0)
                    tot += opp[j]
            assert entry["equity"][k] == pytest.approx(win / tot, abs=1e-12)


def test_turn_equity_over_the_river_cards():
    board = parse_cards("Ks7d2c9h")
    cards = np.array([parse_cards("AsAh"), parse_cards("QsJs"), parse_cards("9d8d"), parse_cards("8s8h")])
    opp = np.array([0.0, 1.0, 0.5, 0.0])
    eq = equity(board, cards, opp)
    for i in (0, 3):  # enumerate the river card by hand
        win = tot = 0.0
        for j in (1, 2):
            for c in range(52):
                if c in board or c in cards[i] or c in cards[j]:
                    continue
                s = hand_strengths(np.array(board + (c,)), cards[[i, j]])
                win += opp[j] * (1.0 if s[0] > s[1] else 0.5 if s[0] == s[1] else 0.0)
                tot += opp[j]
        assert eq[i] == pytest.approx(win / tot, abs=1e-12)
    assert np.isnan(equity(board, cards, np.array([1.0, 0.0, 0.0, 0.0]))[0])  # no opponent but itself


def test_grid_counts_and_categories():
    tree, policy = solved(RIVER, 20)
    report = analysis.node_analysis(tree, policy, "::")
    names = grid_classes()
    assert names[0][:3] == ["AA", "AKs", "AQs"] and names[1][0] == "AKo" and names[12][12] == "22"
    flat = [c for row in names for c in row]
    for p, expect in ((0, {"AA": 6, "KK": 3, "QQ": 6, "AKs": 3, "AKo": 9}),
                      (1, {"AA": 6, "KK": 3, "QQ": 6, "JJ": 6, "AKs": 3, "AKo": 9, "AQs": 4, "AQo": 12})):
        grid = report["players"][p]["grid"]
        got = {c: int(n) for c, n in zip(flat, grid["combos"]) if n}
        assert got == expect  # 6 / 4 / 12 combos per pair / suited / offsuit class, less the board's Ks
        assert grid["weight"].sum() == pytest.approx(1.0)
    cats = report["players"][1]["categories"]
    got = {n: int(c) for n, c in zip(cats["names"], cats["combos"]) if c}
    assert got == {"set": 3, "overpair": 6, "top pair": 9 + 3, "weaker pair": 12, "nothing": 16}
    # the player to act: a class's strategy is the probability-weighted mean of its hands'
    p0 = report["players"][0]
    aa = [k for k, h in enumerate(p0["hands"]) if hand_class(h) == "AA"]
    w = p0["probability"][aa]
    assert p0["grid"]["strategy"][:, flat.index("AA")] == pytest.approx((p0["strategy"][:, aa] * w).sum(1) / w.sum())


def test_categories_with_draws():
    board = parse_cards("8h7h2c")
    hands = {"AhKh": "flush draw", "TsJs": "straight draw", "KsQs": "nothing", "Ts9s": "straight draw", "6s5s": "straight draw",
             "Ts6s": "straight draw", "8s8d": "set", "8s7s": "two pair", "Ac8c": "top pair", "9c9d": "overpair",
             "3d3s": "weaker pair", "Ac7c": "weaker pair", "AsKs": "nothing", "6h5h": "flush draw"}
    cards = np.array([parse_cards(h) for h in hands])
    got = [analysis.CATEGORIES[c] for c in analysis.hand_categories(board, cards)]
    assert got == list(hands.values())
    river = parse_cards("8h7h6c5d4s")  # a straight on the board: every hand has one; no draws on a river
    two = np.array([parse_cards("AhKh"), parse_cards("Ts9s"), parse_cards("Kh2h")])
    got = [analysis.CATEGORIES[c] for c in analysis.hand_categories(river, two)]
    assert got == ["straight", "straight", "straight"]
    got = [analysis.CATEGORIES[c] for c in analysis.hand_categories(parse_cards("8h7h2c9d3s"), two)]
    assert got == ["nothing", "top pair", "weaker pair"]


def test_evaluate_node_from_a_saved_policy(tmp_path):
    policy = tmp_path / "p.json"
    params = [arg for k, v in RIVER.items() for arg in ("--param", f"{k}={v}")]
    r = CliRunner().invoke(zerosum.cli.cli, ["solve", "holdem", *params, "-a", "dcfr", "-n", "50", "--save",
                                             str(policy), "--json"])
    assert r.exit_code == 0, r.output
    value = json.loads(r.output)["value"]
    # the file alone: the game is named inside it, nothing is solved
    r = CliRunner().invoke(zerosum.cli.cli, ["evaluate", "holdem", str(policy), "--node", "::", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    node = out["node"]
    assert node["label"] == "::" and node["player"] == 0 and node["actions"] == ["c", "r"]
    p0 = node["players"][0]
    assert sum(w * e for w, e in zip(p0["weight"], p0["ev"])) == pytest.approx(value, abs=1e-6)
    assert len(p0["strategy"]) == 2 and len(p0["strategy"][0]) == len(p0["hands"]) == 27
    assert len(p0["grid"]["classes"]) == 169 and "equity" in p0 and "categories" in p0
    r = CliRunner().invoke(zerosum.cli.cli, ["evaluate", "holdem", str(policy), "--node", "::r"])
    assert r.exit_code == 0 and "player 1 to act: f c r" in r.output and "AsAh" in r.output
    r = CliRunner().invoke(zerosum.cli.cli, ["evaluate", "holdem", str(policy), "--node", "::x"])
    assert r.exit_code == 1 and r.output.startswith("Error: no public node '::x'") and "'::c'" in r.output
    assert r.output.count("\n") == 1


def test_too_large_a_subtree_is_refused_before_the_work(monkeypatch):
    tree, policy = solved(TURN, 5)
    monkeypatch.setattr(analysis, "MAX_TERMINAL_WORK", 100)
    with pytest.raises(ZerosumError, match=r"the analysis at '::' walks .* ask for a node after the next card, "
                                           r"e.g. --node ':2d:cc/'"):
        analysis.node_analysis(tree, policy, "::")
    monkeypatch.setattr(analysis, "MAX_TERMINAL_WORK", 1e11)
    assert analysis.node_analysis(tree, policy, ":2d:cc/")["label"] == ":2d:cc/"


def test_poker_family_values():
    from zerosum.games import load_game

    tree = public_tree(load_game("poker", ranks=4, copies=2, raises=2))
    s = public_solver("cfr+", tree)
    s.run(30)
    policy = s.average_policy()
    exact = policy.evaluate()
    entry = analysis.node_analysis(tree, policy, ":")["players"][0]
    assert entry["hands"] == ["T", "J", "Q", "K"] and "grid" not in entry
    assert float(entry["weight"] @ entry["ev"]) == pytest.approx(exact["value"], abs=1e-12)
    for p in (0, 1):
        assert analysis.best_response_value(tree, policy, p) == pytest.approx(exact["best_response_values"][p],
                                                                             abs=1e-12)
