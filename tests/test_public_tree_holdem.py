"""Hold'em subgames on the public tree: the O(n) sweep against dense matrices, agreement with the
per-history tree on narrow ranges, and the one-line errors."""

from __future__ import annotations

import numpy as np
import pytest

from zerosum.core.compile import compile_game
from zerosum.core.evaluation import evaluate
from zerosum.errors import ZerosumError
from zerosum.poker.holdem import HoldemGame
from zerosum.public_tree.arrays import pass_step
from zerosum.public_tree.compile import public_tree
from zerosum.public_tree.form import PublicTree
from zerosum.public_tree.passes import Workspace
from zerosum.public_tree.solver import public_solver
from zerosum.solvers import SOLVERS


def _with_terminals(tree: PublicTree, terminals) -> PublicTree:
    import dataclasses

    return dataclasses.replace(tree, terminals=terminals)


@pytest.mark.parametrize("board", ["Ks7d2c9h3s", "AhAsAd7c7d", "2c3c4c5c6c", "Ks7d2c9h"])
def test_sweep_equals_dense_matrices(board):
    # narrow-ish ranges keep the dense matrices small; paired and straight-flush boards give many ties,
    # and overlapping ranges give card removal between the players' hands
    game = HoldemGame(board=board, range0="22+,A2s+,KTo+,T9s", range1="88+,AJs+,KQo,T9s,76s")
    tree = public_tree(game)
    n_boards = len(tree.terminals.const)
    dense = _with_terminals(tree, tree.terminals.dense(n_boards))
    rng = np.random.default_rng(3)
    sums = [rng.random(n) * (rng.random(n) < 0.7) for n in tree.infoset_actions()]
    for mode in (0, 1, 2):
        a, b = [s.copy() for s in sums], [s.copy() for s in sums]
        wa, wb = Workspace(tree, np.float64), Workspace(dense, np.float64)
        for p in (0, 1):
            step = pass_step(p, mode, 1.0, (1.0, 1.0, 1.0, False))
            va = wa.walk(step, a[p], a[1 - p], np.zeros(len(a[p])))
            vb = wb.walk(step, b[p], b[1 - p], np.zeros(len(b[p])))
            assert abs(va - vb) < 1e-12 * max(1.0, abs(vb))
            # p's list is its range (every hand of positive weight), a window of the sweep's list
            n = tree.n_hands[p]
            assert (tree.ranges[p] > 0).all() and n < len(tree.terminals.cards)
            assert np.allclose(a[p], b[p], rtol=1e-10, atol=1e-15)  # every node's values, through its regrets


def test_sweep_ties_and_removal_by_hand():
    """On AhAsAd7c7d every hand plays the board (a full house) unless it holds the last ace or a 7:
    a split pot between two such hands, and a hand holding Ac beats them."""
    game = HoldemGame(board="AhAsAd7c7d", range0="AcKc,KhQh", range1="KdQd,QsJs")
    tree = public_tree(game)
    from zerosum.public_tree.arrays import card_scratch
    from zerosum.public_tree.evaluators.dispatch import site, terminal

    showdown = next(n for n in range(tree.n_nodes) if tree.kind[n] == 3 and tree.labels[n].endswith(":cc"))
    hands = list(tree.hand_labels[0])
    c = tree.terminals.const[0]
    stake = tree.stake[showdown]
    # player 1 reached the check-check showdown by one uniform choice at its node
    reach = 1.0 / tree.n_children[tree.parent[showdown]]
    opp = np.zeros((1, tree.width))
    opp[0, :tree.n_hands[1]] = reach
    val = np.zeros((tree.n_nodes, tree.width))
    terminal(site(showdown, 0, 0, tree.player[showdown], False, stake, tree.board[showdown]), opp, val,
             tree.terminals.kernel_args(), card_scratch(tree.width))
    # AcKc beats both of player 1's hands (no shared card): stake * c * their reach
    assert val[showdown, hands.index("AcKc")] == pytest.approx(2 * stake * c * reach)
    # KhQh ties KdQd and QsJs (both play the board): 0
    assert val[showdown, hands.index("KhQh")] == pytest.approx(0.0)


@pytest.mark.parametrize("board,r0,r1", [("Ks7d2c9h3s", "AA,KK,77,AK", "QQ,KQ,98s,A7s"),
                                         ("Ks7d2c9h", "AsAh,AdAc,Kh7h", "QsQh,9s8s")])
def test_agrees_with_history_tree(board, r0, r1):
    game = HoldemGame(board=board, range0=r0, range1=r1)
    tree = public_tree(game)
    cg = compile_game(game)
    for name in ("cfr+", "dcfr"):
        hist, pub = SOLVERS[name](cg), public_solver(name, tree)
        for it in (10, 100):
            a, b = hist.run(it)[-1], pub.run(it)[-1]
            assert abs(a["nash_conv_average"] - b["nash_conv_average"]) < 1e-9
            assert abs(a["value_average"] - b["value_average"]) < 1e-9
            policy = pub.average_policy()
            assert abs(evaluate(cg, policy.to_tabular(cg)).nash_conv - policy.evaluate()["nash_conv"]) < 1e-9
    assert cg.n_histories == tree.histories


def _shared_list_form(tree: PublicTree) -> PublicTree:
    """The same tree with both players on the sweep's whole list (hands outside a range at weight
    0), as the public tree held hold'em before the per-player lists: an independent layout."""
    import dataclasses

    from zerosum.public_tree.form import Hands, Nodes, assemble

    term = tree.terminals
    n = len(term.cards)
    labels, ranges = [None] * n, [np.zeros(n), np.zeros(n)]
    for p in (0, 1):
        for k, i in enumerate(tree.hand_window(p).tolist()):
            labels[i] = tree.hand_labels[p][k]
            ranges[p][i] = tree.ranges[p][k]
    shared = dataclasses.replace(term, window=None, prefix=None)
    nodes = Nodes(tree.kind, tree.player, tree.parent, tree.board, tree.stake, tree.labels, tree.action_labels)
    return assemble(tree.game_id, nodes, Hands((labels, labels), ranges), shared, tree.histories, tree.pot)


@pytest.mark.parametrize("threads", [1, 2])
def test_per_player_lists_agree_with_one_shared_list(threads):
    """Each player's list is its range, a window of the terminals' list ([0's only | both | 1's
    only]); solving on the shared list instead (every hand in both, weight 0 outside a range) is
    the same game: the same NashConv and value after the same iterations, to rounding."""
    game = HoldemGame(board="Ks7d2c9h", range0="22+,A2s+,KTo+,T9s", range1="88+,AJs+,KQo,T9s,76s", raises=1)
    tree = public_tree(game)
    w = tree.terminals.windows()
    n = len(tree.terminals.cards)
    assert tree.n_hands == tuple(int((np.asarray(r) > 0).sum()) for r in game.ranges)
    assert w[0, 0] == 0 and w[1, 0] + w[1, 1] == n and w[1, 0] < w[0, 1]  # overlapping windows, both inside
    assert all((np.asarray(r) > 0).all() for r in tree.ranges)
    shared = _shared_list_form(tree)
    assert sum(tree.infoset_actions()) < sum(shared.infoset_actions())
    a = public_solver("dcfr", tree, threads=threads).run(12)[-1]
    b = public_solver("dcfr", shared, threads=threads).run(12)[-1]
    assert a["nash_conv_average"] > 0.01  # not solved yet: the agreement is not trivial
    assert abs(a["nash_conv_average"] - b["nash_conv_average"]) < 1e-9
    assert abs(a["value_average"] - b["value_average"]) < 1e-9


def test_turn_subgame_sizes():
    game = HoldemGame(board="Ks7d2c9h")
    est = game.estimated_sizes()
    assert est["histories"] > 1e9 and est["public_nodes"] == 7077
    assert len(game.hands) == 1128


@pytest.mark.parametrize("params,message", [
    ({"board": "Ks7d2c9x"}, "illegal card"),
    ({"board": "Ks7dKs9h"}, "duplicated card Ks"),
    ({"board": "Ks7d"}, "has 2 cards"),
    ({"board": "Ks7d2c9h3s4s"}, "has 6 cards"),
    ({"board": "Ks7d2c", "range0": "KsKd:1,7d7c"}, "on the board"),
    ({"board": "Ks7d2c9h", "range1": "AK,ZZ"}, "ZZ"),
    ({"board": "Ks7d2c9h", "range1": "AA:0"}, "weight 0"),
    ({"board": "Ks7d2c"}, "too large even for the public tree"),
    ({"board": "Ks7d2c9h", "bets": [4]}, "one size per street"),
])
def test_bad_input_is_one_line(params, message):
    with pytest.raises(ZerosumError, match=message) as info:
        HoldemGame(**params)
    assert "\n" not in str(info.value)
