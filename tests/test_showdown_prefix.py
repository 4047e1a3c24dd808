"""The sweep evaluator's showdown by prefix sums (evaluators.sweep._showdown_prefix) against the two running
sweeps it replaced (still run with a 52-entry scratch) and against the dense O(n^2) matrices."""

from __future__ import annotations

import numpy as np
import pytest

from zerosum.games import load_game
from zerosum.public_tree.arrays import card_scratch
from zerosum.public_tree.compile import public_tree
from zerosum.public_tree.evaluators.dispatch import site, terminal
from zerosum.public_tree.form import FOLD, SHOWDOWN


@pytest.mark.parametrize("board, ranges", [("Ks7d2c9h", {}),  # full ranges (sweeps only): every tie a river makes
                                           ("AsKsQs2d", {"range0": "AA,KK,JTs,T9s,22", "range1": "QQ+,AK,65s"})])
def test_prefix_showdown_equals_the_sweeps_and_the_dense_matrices(board, ranges):
    tree = public_tree(load_game("holdem", board=board, raises=1, **ranges))
    term = tree.terminals
    args = term.kernel_args()
    width = len(term.cards)
    dense = term.dense().kernel_args() if width < 400 else None  # (full ranges: 1 GB of matrices)
    nodes = np.flatnonzero(tree.kind == SHOWDOWN)
    assert len(nodes) > 40
    worst = 0.0
    for n in nodes[:: max(1, len(nodes) // 40)]:
        out = {}
        for name, targs, cs in (("prefix", args, card_scratch(width)), ("sweeps", args, np.zeros(52)),
                                ("dense", dense if dense is not None else args, np.zeros(52))):
            for p in (0, 1):
                # the opponent's reach: 0 outside its range (as every pass has it), some hands out of reach
                rng = np.random.default_rng(int(n) * 2 + p)  # (the same reach for the three evaluators)
                n_o = tree.n_hands[1 - p]  # (the opponent's list: its window of the sweep's)
                opp = np.zeros((1, width))
                opp[0, :n_o] = rng.random(n_o) * (rng.random(n_o) < 0.8)
                val = np.full((1, width), np.nan)
                terminal(site(0, 0, p, tree.player[n], tree.kind[n] == FOLD, tree.stake[n], tree.board[n]), opp,
                         val, targs, cs)
                out[name, p] = val[0]
        for p in (0, 1):
            n_p = tree.n_hands[p]  # (p's list is its range; past it the row is not p's)
            scale = np.abs(out["sweeps", p][:n_p]).max() + 1e-300
            for other in ("sweeps", "dense"):
                np.testing.assert_allclose(out["prefix", p][:n_p], out[other, p][:n_p], rtol=0, atol=1e-12 * scale)
            worst = max(worst, np.abs(out["prefix", p][:n_p]).max())
    assert worst > 0  # the reaches were not all zero: values were compared, not zeros


def test_the_prefix_indices_stay_inside_the_scratch():
    tree = public_tree(load_game("holdem", board="Ks7d2c9h", raises=1))
    qorder, qstart, pidx, cbase, chand = tree.terminals.kernel_args()[8:13]
    width = len(tree.terminals.cards)
    assert pidx.min() >= 52 and pidx.max() < len(card_scratch(width))
    assert (cbase[:, :, -1] <= 2 * width + 52).all() and (np.diff(cbase, axis=2) >= 1).all()
    assert chand.max() < width and qorder.max() < width and qstart[-1] == len(qorder) == len(pidx)
